//! `menhir datagen`: its flags, turned into the `train::DatagenConfig` the self-play run takes.

use super::settings::settings_from_flags;
use super::ShardArgs;
use crate::common::DEFAULT_MAX_PLIES;
use crate::train::DatagenConfig;
use clap::Args;
use std::path::PathBuf;

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
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Games reaching this many plies are drawn.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// Search nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Seed of the run; each game's randomness comes from (seed, game index). Default: the
    /// clock, printed. Required with --shard.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games played at once, one per worker thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table of each worker, in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    pub hash: u32,
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
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(i32).range(0..))]
    pub noise_margin: i32,
    /// Play only shard K of N of the run (the games whose index i has i % N == K), or `auto`
    /// from the batch scheduler's variables.
    #[command(flatten)]
    pub shard: ShardArgs,
}

settings_from_flags!(DatagenArgs => DatagenConfig {
    out, size, komi, games, max_plies, nodes, seed, threads, hash, random_plies,
    noisy_plies, noise_chance, noise_margin, shard
});
