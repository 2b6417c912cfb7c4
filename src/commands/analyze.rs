//! `menhir analyze`: one search for a person at a terminal.

use super::PositionArgs;
use clap::Args;

/// Flags of `menhir analyze`.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Think for this many milliseconds.
    #[arg(long, conflicts_with = "depth")]
    pub movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
}

/// Runs the analysis, printing info lines and the best move.
pub fn analyze(_args: &AnalyzeArgs) -> Result<(), String> {
    Err("analyze is not built yet".into())
}
