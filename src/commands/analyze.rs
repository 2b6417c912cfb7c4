//! `menhir analyze`: one search for a person at a terminal.

use super::budget::{check_half_komi, time_limit};
use super::PositionArgs;
use crate::search::{Limits, Searcher, MAX_MULTIPV};
use crate::tei::{format_info, InfoStyle};
use clap::Args;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Flags of `menhir analyze`.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Think for this many milliseconds (the default is 5000 when no depth is given).
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
    /// Report the best N root moves, each as its own `info multipv k` line.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Komi in half flats (added to Black's flat count).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    pub half_komi: i32,
}

/// Runs the analysis, printing info lines and the best move.
pub fn analyze(args: &AnalyzeArgs) -> Result<(), String> {
    let mut pos = args.position.position()?;
    check_half_komi(args.half_komi)?;
    pos.set_half_komi(args.half_komi);
    if let Some(result) = pos.result() {
        return Err(format!("the game is over ({result}): nothing to analyze"));
    }
    if args.depth == Some(0) {
        return Err("bad --depth: must be at least 1".into());
    }
    if args.threads == 0 || args.threads > 256 {
        return Err("bad --threads: must be 1 to 256".into());
    }
    if !(1..=MAX_MULTIPV).contains(&args.multipv) {
        return Err(format!("bad --multipv: must be 1 to {MAX_MULTIPV}"));
    }
    let limits = Limits {
        depth: args.depth,
        movetime: time_limit(
            args.movetime,
            args.depth.is_some(),
            Duration::from_millis(5000),
        ),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash.max(1), args.threads);
    searcher.set_multipv(args.multipv);
    let style = InfoStyle {
        multipv: args.multipv > 1,
        score_mate: false,
        score_solved: false,
    };
    let stop = AtomicBool::new(false);
    let mut last = String::new();
    let result = searcher.search(&pos, &limits, &stop, &mut |info| {
        let line = format_info(info, style, pos.size());
        // The final report repeats the last iteration; print it only if it adds something.
        if line != last {
            println!("{line}");
            last = line;
        }
    });
    match result.best_move {
        Some(mv) => {
            println!("bestmove {}", mv.to_ptn());
            Ok(())
        }
        None => Err("no legal move".into()),
    }
}
