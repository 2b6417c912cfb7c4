//! `menhir tune-eval`: its flags, turned into the `train::TuneConfig` the evaluation fit takes.

use super::settings::settings_from_flags;
use super::FitFlags;
use crate::train::TuneConfig;
use clap::Args;

/// Flags of `menhir tune-eval`.
#[derive(Args, Debug, Clone)]
pub struct TuneEvalArgs {
    /// The data, size, output and starting files, validation split, seed, pull toward the
    /// start, threads.
    #[command(flatten)]
    pub fit: FitFlags,
    /// Weight of the game result in the label; the rest is sigmoid(score / K).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub epochs: u32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..))]
    pub batch: u32,
    /// Adam step size (about the largest change of a weight per step, in centi-flats).
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
}

settings_from_flags!(TuneEvalArgs => TuneConfig {
    lambda, epochs, batch, lr, fit
});
