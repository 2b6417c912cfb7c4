//! `menhir bench`: a fixed-depth search of built-in positions; prints nodes and speed.
//!
//! Each position is searched from a cleared table with one thread by default, so the total
//! node count is a signature of the search: it changes only when the search does.

use crate::core::Position;
use crate::search::network::Network;
use crate::search::{Limits, Searcher};
use crate::train::DataLine;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Flags of `menhir bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Search depth for every position (default: per size, see `default_depth`).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Search these positions instead of the built-in ones: a file of training data lines
    /// (`menhir datagen`'s, komi included) or bare TPS lines (komi 0).
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// Evaluate with the network in this file at its board size (as the `EvalFile` option).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

/// The positions of `--positions` as (half komi, TPS); a one-line error names a bad line.
fn read_positions(path: &Path) -> Result<Vec<(i32, String)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = if line.contains(';') {
            DataLine::parse(line).map(|d| d.position)
        } else {
            Position::from_tps(line)
        }
        .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        positions.push((pos.half_komi(), pos.to_tps()));
    }
    if positions.is_empty() {
        return Err(format!("{}: no position in the file", path.display()));
    }
    Ok(positions)
}

/// The bench positions: (half komi, TPS), every size from 3 to 8, openings to endgames.
pub const BENCH_POSITIONS: &[(i32, &str)] = &include!("bench_positions.in");

/// The depth searched on a board of `size` when `--depth` is not given.
pub fn default_depth(size: usize) -> u32 {
    match size {
        3 => 9,
        4 => 8,
        5 => 7,
        _ => 6,
    }
}

/// Runs the bench. The line before the last: the share of beta cutoffs made by the first move
/// searched, and the time; last line: `<nodes> nodes <nps> nps`.
pub fn bench(args: &BenchArgs) -> Result<(), String> {
    if args.threads == 0 || args.threads > 256 {
        return Err("bad --threads: must be 1 to 256".into());
    }
    if args.depth == Some(0) {
        return Err("bad --depth: must be at least 1".into());
    }
    let mut searcher = Searcher::new(args.hash.max(1), args.threads);
    if let Some(path) = &args.eval_file {
        searcher.load_network(std::sync::Arc::new(Network::load(path)?));
    }
    let stop = AtomicBool::new(false);
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let (mut cutoffs, mut first_move_cutoffs) = (0u64, 0u64);
    let positions = match &args.positions {
        Some(path) => read_positions(path)?,
        None => BENCH_POSITIONS
            .iter()
            .map(|&(half_komi, tps)| (half_komi, tps.to_string()))
            .collect(),
    };
    for (i, (half_komi, tps)) in positions.iter().enumerate() {
        let (half_komi, tps) = (*half_komi, tps.as_str());
        let mut pos = Position::from_tps(tps).map_err(|e| format!("bench position {i}: {e}"))?;
        pos.set_half_komi(half_komi);
        let depth = args.depth.unwrap_or(default_depth(pos.size()));
        searcher.new_game();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let started = Instant::now();
        let result = searcher.search(&pos, &limits, &stop, &mut |_| {});
        let elapsed = started.elapsed();
        total_nodes += result.info.nodes;
        total_time += elapsed;
        let (all, first) = searcher.cutoff_counts();
        cutoffs += all;
        first_move_cutoffs += first;
        println!(
            "{:>2} {}x{} depth {:>2} score {:>6} nodes {:>9} ms {:>6} best {:<8} {}",
            i + 1,
            pos.size(),
            pos.size(),
            result.info.depth,
            result.info.score_cp,
            result.info.nodes,
            elapsed.as_millis(),
            result.best_move.map(|m| m.to_ptn()).unwrap_or_default(),
            tps
        );
    }
    let nps = (total_nodes as f64 / total_time.as_secs_f64().max(1e-3)) as u64;
    println!(
        "first-move cutoffs {:.1}% of {cutoffs}; {} ms in all",
        100.0 * first_move_cutoffs as f64 / cutoffs.max(1) as f64,
        total_time.as_millis()
    );
    println!("{total_nodes} nodes {nps} nps");
    Ok(())
}
