//! `menhir annotate`: a PTN file's games written back with the engine's evaluation of every
//! move, its preferred moves and the PTN marks; with `--plot`, each game's winning chances as an
//! SVG chart.

use super::budget::{check_budget, check_hash, time_limit};
use crate::analysis::{annotate_games, plot_svg, AnnotateConfig, AnnotatedGame};
use crate::common::AtomicFile;
use crate::search::Limits;
use clap::Args;
use std::path::{Path, PathBuf};
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
    /// Also draw each game's winning chances (White's view) with its marks as an SVG chart here;
    /// with several games, game N goes to FILE-N.svg (the first to FILE.svg).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
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
    if let Some(plot) = &args.plot {
        check_plot_path(plot)?;
    }
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
    let games = annotate_games(&text, &config).map_err(|e| format!("{name}: {e}"))?;
    let annotated = games
        .iter()
        .map(AnnotatedGame::ptn)
        .collect::<Vec<_>>()
        .join("\n");
    match &args.out {
        Some(path) => std::fs::write(path, annotated)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{annotated}"),
    }
    if let Some(path) = &args.plot {
        let written = write_plots(path, &games)?;
        if !args.quiet {
            match written.as_slice() {
                [one] => eprintln!("annotate: plot written to {one}"),
                [first, .., last] => eprintln!(
                    "annotate: {} plots written, {first} to {last}",
                    written.len()
                ),
                [] => {}
            }
        }
    }
    Ok(())
}

/// Refuses, before the analysis, a plot name that is not `.svg` (SVG written over `--out`'s
/// PTN by a slip) or a place that cannot be written: a temporary file is made beside it and
/// removed. A FIFO or device is not opened here (opening a FIFO waits for its reader).
fn check_plot_path(path: &Path) -> Result<(), String> {
    let svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if !svg {
        return Err(format!(
            "bad --plot {}: the name must end in .svg",
            path.display()
        ));
    }
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // A missing directory named as the plot's, not as the temporary file's.
    std::fs::read_dir(dir).map_err(cannot)?;
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => Ok(()),
        _ => AtomicFile::create(path).map(drop),
    }
}

/// Draws each game's plot and writes it, the first game's at `path`, game N's at `path` with
/// `-N` before the extension (`plot.svg`, `plot-2.svg`, …); each goes under a temporary name
/// renamed when complete, so a failure leaves no half-written file. The names written.
fn write_plots(path: &Path, games: &[AnnotatedGame]) -> Result<Vec<String>, String> {
    let mut written = Vec::with_capacity(games.len());
    for (i, game) in games.iter().enumerate() {
        let svg = plot_svg(&game.record, &game.plies, &game.name)
            .map_err(|e| format!("{}: {e}", game.name))?;
        let target = numbered(path, i + 1);
        let mut file = AtomicFile::create(&target)?;
        file.write(&svg)?;
        file.finish()?;
        written.push(target.display().to_string());
    }
    Ok(written)
}

/// `path` for game `n`: itself for the first, `stem-n.ext` beside it for the others.
fn numbered(path: &Path, n: usize) -> PathBuf {
    if n == 1 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}
