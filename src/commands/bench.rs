//! `menhir bench`: a fixed-depth search of built-in positions; prints nodes and speed.

use clap::Args;

/// Flags of `menhir bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

/// Runs the bench. Last line: `<nodes> nodes <nps> nps`.
pub fn bench(_args: &BenchArgs) -> Result<(), String> {
    Err("bench is not built yet".into())
}
