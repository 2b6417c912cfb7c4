//! `menhir tune-policy`: its flags, turned into the `train::TunePolicyConfig` the policy fit takes.

use super::settings::settings_from_flags;
use super::FitFlags;
use crate::train::TunePolicyConfig;
use clap::Args;

/// Flags of `menhir tune-policy`.
#[derive(Args, Debug, Clone)]
pub struct TunePolicyArgs {
    /// The data, size, output and starting files, validation split, seed, pull toward the
    /// start, threads.
    #[command(flatten)]
    pub fit: FitFlags,
    /// Ordering units per logit in the file written: how much one logit weighs against the
    /// history table (whose values stay within ±16384).
    #[arg(long, default_value_t = 1000.0)]
    pub units: f64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub epochs: u32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    pub batch: u32,
    /// Adam step size, in logits.
    #[arg(long, default_value_t = 0.01)]
    pub lr: f64,
}

settings_from_flags!(TunePolicyArgs => TunePolicyConfig {
    units, epochs, batch, lr, fit
});
