//! `menhir match`: plays TEI engines against each other and reports the result.

pub mod stats;

use clap::Args;

/// Flags of `menhir match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {}

/// Runs a match.
pub fn run(_args: &MatchArgs) -> Result<(), String> {
    Err("match is not built yet".into())
}
