//! `menhir match`: its flags, turned into the `matchrun::MatchConfig` the match runner takes.

use super::settings::settings_from_flags;
use super::ShardArgs;
use crate::matchrun::clock::TimeControl;
use crate::matchrun::engine::EngineSpec;
use crate::matchrun::game::DEFAULT_MAX_PLIES;
use crate::matchrun::stats::Sprt;
use crate::matchrun::MatchConfig;
use clap::Args;

/// Flags of `menhir match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine, twice: `name=NAME,cmd=PROGRAM[,args=ARGS][,option.NAME=VALUE...]`. Arguments
    /// are split on spaces; options are sent with `setoption` after the handshake.
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<EngineSpec>,
    /// Board size, 3 to 8.
    #[arg(long, default_value_t = 6)]
    pub size: usize,
    /// Komi in flats, in half steps (sent as HalfKomi = 2 × komi).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub komi: f64,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Time control: base seconds + increment seconds.
    #[arg(long, default_value = "10+0.1", conflicts_with = "movetime")]
    pub tc: TimeControl,
    /// A fixed time per move in milliseconds instead of a clock.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Games played at once; each has its own engine processes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: u32,
    /// Write every game to this PTN file.
    #[arg(long)]
    pub ptn: Option<std::path::PathBuf>,
    /// Seed for random openings (default: from the clock, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Openings file: one PTN move list or TPS per line; each is played twice, colours swapped.
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<std::path::PathBuf>,
    /// Start each pair of games with this many random legal plies (from --seed).
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Stop when a sequential probability ratio test decides: `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    #[arg(long)]
    pub sprt: Option<Sprt>,
    /// Milliseconds past its clock before a silent engine is killed (the game is lost on time).
    #[arg(long, default_value_t = 1000)]
    pub grace_ms: u64,
    /// Games reaching this many plies are drawn.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// Which part of the match to play (whole opening pairs; games keep their numbers).
    #[command(flatten)]
    pub shard: ShardArgs,
}

settings_from_flags!(MatchArgs => MatchConfig {
    engines, size, komi, games, tc, movetime, concurrency, ptn, seed, openings,
    random_plies, sprt, grace_ms, max_plies, shard
});
