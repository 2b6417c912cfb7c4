//! `menhir datagen`: self-play games at a fixed node budget, written as training data lines
//! (format in `data.rs`).
//!
//! Each of `--threads` workers of a rayon pool owns a `Searcher` (Threads 1, `--hash` MB, reset
//! per game) and takes the next game index; the main thread writes the games in index order,
//! so the file is the same whatever the thread count. `--shard K/N` plays only the indices
//! `i` with `i % N == K` of the same seeded run, so the N shard files hold exactly the lines of
//! the whole run (in another order).

use super::selfplay::{play_game, GameData, SelfPlaySettings};
use crate::common::AtomicFile;
use crate::common::{seed_from_clock, DEFAULT_MAX_PLIES};
use crate::core::size_and_half_komi;
use crate::search::Searcher;
use crate::shard::{Shard, ShardArgs};
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Seconds between progress lines.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);

/// Flags of `menhir datagen`.
#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    /// The data file to write (through a temporary file beside it, renamed when complete).
    #[arg(long)]
    pub out: PathBuf,
    /// Board size, 3 to 8.
    #[arg(long, default_value_t = 6)]
    pub size: usize,
    /// Komi in flats, in half steps (as `menhir match`).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub komi: f64,
    /// Games in the whole run (all shards together).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Search nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Seed of the run; each game's randomness comes from (seed, game index). Default: the
    /// clock, printed. Required with --shard.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games played at once, one per worker thread.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table of each worker, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Uniformly random plies at the start of each game.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Plies after the random ones in which a near-best move may be played instead of the best.
    #[arg(long, default_value_t = 10)]
    pub noisy_plies: usize,
    /// Chance per noisy ply of drawing among the near-best moves.
    #[arg(long, default_value_t = 0.5)]
    pub noise_chance: f64,
    /// Near-best: one-ply value within this many centi-flats of the best move's.
    #[arg(long, default_value_t = 30)]
    pub noise_margin: i32,
    /// Games reaching this many plies are drawn.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: usize,
    /// Play only shard K of N of the run (the games whose index i has i % N == K), or `auto`
    /// from the batch scheduler's variables.
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// A checked run: settings, the seed and the game indices to play.
struct Plan {
    settings: SelfPlaySettings,
    seed: u64,
    indices: Vec<u64>,
    shard: Shard,
}

fn plan(args: &DatagenArgs) -> Result<Plan, String> {
    let half_komi = size_and_half_komi(args.size, args.komi)?;
    if args.games == 0 || args.nodes == 0 || args.threads == 0 || args.max_plies == 0 {
        return Err("--games, --nodes, --threads and --max-plies must be at least 1".into());
    }
    if args.threads > 256 || !(1..=65_536).contains(&args.hash) {
        return Err("--threads must be 1 to 256 and --hash 1 to 65536".into());
    }
    if !(0.0..=1.0).contains(&args.noise_chance) || args.noise_margin < 0 {
        return Err("--noise-chance must be within 0..1 and --noise-margin at least 0".into());
    }
    let shard = args.shard.resolve()?;
    let seed = match args.seed {
        Some(seed) => seed,
        None if shard != Shard::WHOLE => {
            return Err("--shard needs --seed (every shard must play the same run)".into())
        }
        None => seed_from_clock(),
    };
    Ok(Plan {
        settings: SelfPlaySettings {
            size: args.size,
            half_komi,
            nodes: args.nodes,
            random_plies: args.random_plies,
            noisy_plies: args.noisy_plies,
            noise_chance: args.noise_chance,
            noise_margin: args.noise_margin,
            max_plies: args.max_plies,
        },
        seed,
        indices: (0..args.games)
            .filter(|&i| shard.owns(i as usize))
            .collect(),
        shard,
    })
}

/// `3m05s`.
fn duration_text(secs: f64) -> String {
    let secs = secs.max(0.0).round() as u64;
    if secs >= 3600 {
        format!("{}h{:02}m", secs / 3600, secs % 3600 / 60)
    } else {
        format!("{}m{:02}s", secs / 60, secs % 60)
    }
}

/// Runs `menhir datagen`: progress on stderr, the data in `--out`.
pub fn datagen(args: &DatagenArgs) -> Result<(), String> {
    let plan = plan(args)?;
    let mut out = AtomicFile::create(&args.out)?;
    eprintln!(
        "datagen: {} games (shard {} of {}), size {}, komi {}, {} nodes a move, seed {}, {} threads",
        plan.indices.len(),
        plan.shard,
        args.games,
        args.size,
        args.komi,
        args.nodes,
        plan.seed,
        args.threads
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .thread_name(|i| format!("menhir-datagen-{i}"))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads))?;
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, GameData)>();
    let started = Instant::now();
    let total = plan.indices.len();
    let mut written = Ok(());
    let (mut games, mut positions) = (0usize, 0usize);
    std::thread::scope(|scope| {
        let (next, abort, plan, pool, hash) = (&next, &abort, &plan, &pool, args.hash);
        scope.spawn(move || {
            pool.broadcast(|_| {
                let mut searcher = Searcher::new(hash, 1);
                loop {
                    let slot = next.fetch_add(1, Relaxed);
                    if slot >= total || abort.load(Relaxed) {
                        break;
                    }
                    let game =
                        play_game(&plan.settings, &mut searcher, plan.seed, plan.indices[slot]);
                    if tx.send((slot, game)).is_err() {
                        break;
                    }
                }
            });
            drop(tx);
        });
        // Games finish out of order; they are written in index order.
        let mut pending = BTreeMap::new();
        let mut last_report = Instant::now();
        while games < total {
            let Ok((slot, game)) = rx.recv() else { break };
            pending.insert(slot, game);
            while let Some(game) = pending.remove(&games) {
                games += 1;
                positions += game.lines.len();
                for line in &game.lines {
                    if written.is_ok() {
                        written = out.write(line).and_then(|()| out.write("\n"));
                    }
                }
                if written.is_err() {
                    abort.store(true, Relaxed);
                }
            }
            if last_report.elapsed() >= PROGRESS_INTERVAL && games < total {
                last_report = Instant::now();
                let secs = started.elapsed().as_secs_f64();
                eprintln!(
                    "datagen: {games}/{total} games, {positions} positions, {:.0} positions/s, {} left",
                    positions as f64 / secs,
                    duration_text(secs * (total - games) as f64 / games.max(1) as f64)
                );
            }
        }
    });
    written?;
    if games < total {
        return Err(format!("only {games} of {total} games were played"));
    }
    out.finish()?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "datagen: {games} games, {positions} positions in {secs:.1} s ({:.0} positions/s, {:.2} games/s); wrote {}",
        positions as f64 / secs.max(1e-3),
        games as f64 / secs.max(1e-3),
        args.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_minutes_or_hours() {
        assert_eq!(duration_text(185.0), "3m05s");
        assert_eq!(duration_text(7300.0), "2h01m");
    }
}
