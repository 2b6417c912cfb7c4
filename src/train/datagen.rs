//! `menhir datagen`: self-play games at a fixed node budget, written as training data lines
//! (format in `data.rs`).
//!
//! Each of `--threads` workers of a rayon pool owns a `Searcher` (Threads 1, `--hash` MB, reset
//! per game) and takes the next game index; the main thread writes the games in index order,
//! so the file is the same whatever the thread count. `--shard K/N` plays only the indices
//! `i` with `i % N == K` of the same seeded run, so the N shard files hold exactly the lines of
//! the whole run (in another order).

use super::binary_data::{self, is_binary_path};
use super::selfplay::{play_game, GameData, SelfPlaySettings};
use crate::common::seed_from_clock;
use crate::common::AtomicFile;
use crate::core::size_and_half_komi;
use crate::search::Searcher;
use crate::shard::{Shard, ShardRequest};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Seconds between progress lines.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);

/// Settings of `menhir datagen` (built from its flags in `commands`).
#[derive(Debug, Clone)]
pub struct DatagenConfig {
    /// The data file to write (through a temporary file beside it, renamed when complete).
    pub out: PathBuf,
    /// Board size, 3 to 8.
    pub size: usize,
    /// Komi in flats, in half steps (as `menhir match`).
    pub komi: f64,
    /// Games in the whole run (all shards together).
    pub games: u64,
    /// Search nodes per move.
    pub nodes: u64,
    /// Seed of the run; each game's randomness comes from (seed, game index). Default: the
    /// clock, printed. Required with --shard.
    pub seed: Option<u64>,
    /// Games played at once, one per worker thread.
    pub threads: usize,
    /// Transposition table of each worker, in MB.
    pub hash: usize,
    /// Uniformly random plies at the start of each game.
    pub random_plies: usize,
    /// Plies after the random ones in which a near-best move may be played instead of the best.
    pub noisy_plies: usize,
    /// Chance per noisy ply of drawing among the near-best moves.
    pub noise_chance: f64,
    /// Near-best: one-ply value within this many centi-flats of the best move's.
    pub noise_margin: i32,
    /// Games reaching this many plies are drawn.
    pub max_plies: usize,
    /// Play only shard K of N of the run (the games whose index i has i % N == K), or `auto`
    /// from the batch scheduler's variables.
    pub shard: ShardRequest,
}

/// A checked run: settings, the seed and the game indices to play.
struct Plan {
    settings: SelfPlaySettings,
    seed: u64,
    indices: Vec<u64>,
    shard: Shard,
}

fn plan(config: &DatagenConfig) -> Result<Plan, String> {
    let half_komi = size_and_half_komi(config.size, config.komi)?;
    if config.games == 0 || config.nodes == 0 || config.threads == 0 || config.max_plies == 0 {
        return Err("--games, --nodes, --threads and --max-plies must be at least 1".into());
    }
    if config.threads > 256 || !(1..=65_536).contains(&config.hash) {
        return Err("--threads must be 1 to 256 and --hash 1 to 65536".into());
    }
    if !(0.0..=1.0).contains(&config.noise_chance) || config.noise_margin < 0 {
        return Err("--noise-chance must be within 0..1 and --noise-margin at least 0".into());
    }
    let shard = config.shard.resolve()?;
    let seed = match config.seed {
        Some(seed) => seed,
        None if shard != Shard::WHOLE => {
            return Err("--shard needs --seed (every shard must play the same run)".into())
        }
        None => seed_from_clock(),
    };
    Ok(Plan {
        settings: SelfPlaySettings {
            size: config.size,
            half_komi,
            nodes: config.nodes,
            random_plies: config.random_plies,
            noisy_plies: config.noisy_plies,
            noise_chance: config.noise_chance,
            noise_margin: config.noise_margin,
            max_plies: config.max_plies,
        },
        seed,
        indices: (0..config.games)
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

/// Appends a game's positions to the file, as text lines or binary records.
fn write_game(out: &mut AtomicFile, game: &GameData, binary: bool) -> Result<(), String> {
    if binary {
        let mut bytes = Vec::new();
        for line in &game.lines {
            binary_data::encode(line, &mut bytes);
        }
        return out.write_bytes(&bytes);
    }
    for line in &game.lines {
        out.write(&line.to_line())?;
        out.write("\n")?;
    }
    Ok(())
}

/// Runs `menhir datagen`: progress on stderr, the data in `--out`.
pub fn datagen(config: &DatagenConfig) -> Result<(), String> {
    let plan = plan(config)?;
    let binary = is_binary_path(&config.out);
    let mut out = AtomicFile::create(&config.out)?;
    if binary {
        out.write_bytes(&binary_data::header(config.size))?;
    }
    eprintln!(
        "datagen: {} games (shard {} of {}), size {}, komi {}, {} nodes a move, seed {}, {} threads",
        plan.indices.len(),
        plan.shard,
        config.games,
        config.size,
        config.komi,
        config.nodes,
        plan.seed,
        config.threads
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .thread_name(|i| format!("menhir-datagen-{i}"))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", config.threads))?;
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, GameData)>();
    let started = Instant::now();
    let total = plan.indices.len();
    let mut written = Ok(());
    let (mut games, mut positions) = (0usize, 0usize);
    std::thread::scope(|scope| {
        let (next, abort, plan, pool, hash) = (&next, &abort, &plan, &pool, config.hash);
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
                if written.is_ok() {
                    written = write_game(&mut out, &game, binary);
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
        config.out.display()
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
