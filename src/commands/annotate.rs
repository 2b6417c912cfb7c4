//! `menhir annotate`: a PTN file's games written back with the engine's evaluation of every
//! move, its preferred moves and the PTN marks.

use super::budget::{check_budget, check_hash, time_limit};
use crate::analysis::{annotate_text, AnnotateConfig};
use crate::search::Limits;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Search time per position when neither `--movetime` nor `--nodes` is given.
const DEFAULT_MOVETIME_MS: u64 = 500;

/// Flags of `menhir annotate`.
#[derive(Args, Debug, Clone)]
pub struct AnnotateArgs {
    /// The PTN file (one or more games: Menhir's match output, Racetrack's, PTN Ninja's).
    #[arg(value_name = "GAME.ptn")]
    pub file: PathBuf,
    /// Milliseconds of search per position (the default is 500 when --nodes is not given).
    #[arg(long, conflicts_with = "nodes")]
    pub movetime: Option<u64>,
    /// Nodes of search per position (reproducible with one thread a game).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Threads in all: games run in parallel, a lone game's search gets them all.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition-table megabytes in all, shared between the games running at once.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Write the annotated PTN here instead of to stdout (only once every game is done).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No progress bar on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Reads, annotates and writes; nothing is written unless every game could be read.
pub fn annotate(args: &AnnotateArgs) -> Result<(), String> {
    if args.threads == 0 || args.threads > 256 {
        return Err("bad --threads: must be 1 to 256".into());
    }
    check_budget(args.nodes, args.movetime)?;
    check_hash(args.hash)?;
    let name = args.file.display();
    let text =
        std::fs::read_to_string(&args.file).map_err(|e| format!("cannot read {name}: {e}"))?;
    let limits = Limits {
        nodes: args.nodes,
        movetime: time_limit(
            args.movetime,
            args.nodes.is_some(),
            Duration::from_millis(DEFAULT_MOVETIME_MS),
        ),
        ..Limits::default()
    };
    let config = AnnotateConfig {
        limits,
        threads: args.threads,
        hash_mb: args.hash,
        progress: !args.quiet,
    };
    let annotated = annotate_text(&text, &config).map_err(|e| format!("{name}: {e}"))?;
    match &args.out {
        Some(path) => std::fs::write(path, annotated)
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            print!("{annotated}");
            Ok(())
        }
    }
}
