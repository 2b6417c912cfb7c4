//! `menhir perft`: counts positions by depth, with timing, optionally divided by root move.

use super::PositionArgs;
use crate::core::{Perft, PerftMode};
use clap::Args;
use std::time::Instant;

/// Flags of `menhir perft`.
#[derive(Args, Debug, Clone)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Deepest depth to count (every depth from 1 up is printed).
    #[arg(long)]
    pub depth: usize,
    /// Print the count under each root move at the deepest depth.
    #[arg(long)]
    pub divide: bool,
    /// Make and unmake every leaf instead of counting the last ply's moves.
    #[arg(long)]
    pub full: bool,
}

/// Runs `menhir perft`, printing `depth D nodes N time_ms T mnps R` per depth.
pub fn perft(args: &PerftArgs) -> Result<(), String> {
    let mut pos = args.position.position()?;
    let mode = if args.full {
        PerftMode::Full
    } else {
        PerftMode::Counting
    };
    let mut perft = Perft::new();
    for depth in 1..=args.depth {
        let start = Instant::now();
        let nodes = perft.count(&mut pos, depth, mode);
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "depth {depth} nodes {nodes} time_ms {} mnps {:.1}",
            (seconds * 1000.0).round() as u64,
            nodes as f64 / seconds.max(1e-9) / 1e6
        );
    }
    if args.divide {
        for (mv, nodes) in perft.divide(&mut pos, args.depth, mode) {
            println!("{mv:<10} {nodes}", mv = mv.to_ptn());
        }
    }
    Ok(())
}
