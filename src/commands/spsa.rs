//! `menhir spsa`: its flags, turned into the `spsa::SpsaConfig` the tuner takes.

use super::settings::settings_from_flags;
use crate::matchrun::clock::TimeControl;
use crate::spsa::SpsaConfig;
use clap::Args;
use std::path::PathBuf;

/// Flags of `menhir spsa`.
#[derive(Args, Debug, Clone)]
pub struct SpsaArgs {
    /// Parameters to tune, comma-separated TEI option names (default: all of them).
    #[arg(long, value_delimiter = ',')]
    pub params: Vec<String>,
    /// Write θ here after every iteration (`Name value` lines; temporary file, then rename).
    #[arg(long)]
    pub out: PathBuf,
    /// Start from θ and the iteration count of an earlier `--out` file.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Iterations in all (a resumed run counts the ones already done).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub iterations: u32,
    /// Board size, 3 to 8.
    #[arg(long, default_value_t = 6)]
    pub size: usize,
    /// Komi in flats, in half steps.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub komi: f64,
    /// Time control of every game: base seconds + increment seconds.
    #[arg(long, default_value = "2+0.02")]
    pub tc: TimeControl,
    /// Game pairs played at once (each with its own two engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: u32,
    /// Random legal plies that open each game pair.
    #[arg(long, default_value_t = 2)]
    pub random_plies: usize,
    /// Openings file (as `menhir match --openings`, e.g. from `menhir book`): each game pair
    /// starts from one of its openings, drawn at random, instead of random plies.
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Seed for the perturbations and openings (default: from the clock, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The engine to tune (default: this executable).
    #[arg(long)]
    pub engine_cmd: Option<PathBuf>,
    /// Its arguments, split on spaces; they must start it in tuning mode.
    #[arg(long, default_value = "tei --tune")]
    pub engine_args: String,
    /// Milliseconds past its clock before a silent engine is killed (the game is lost on time).
    #[arg(long, default_value_t = 1000)]
    pub grace_ms: u64,
}

settings_from_flags!(SpsaArgs => SpsaConfig {
    params, out, resume, iterations, size, komi, tc, concurrency, random_plies, openings, seed,
    engine_cmd, engine_args, grace_ms
});
