//! The flags both tuners take alike (`menhir tune-eval`, `menhir tune-policy`), flattened into
//! each, turned into a plain `train::fit_settings::FitSettings`.

use super::settings::settings_from_flags;
use crate::train::fit_settings::FitSettings;
use clap::Args;
use std::path::PathBuf;

/// Flags shared by the tuners: the data, the size, the output and starting files, the
/// validation split, the seed, the pull toward the start, the threads.
#[derive(Args, Debug, Clone)]
pub struct FitFlags {
    /// Data files written by `menhir datagen` (one position per line; tune-policy uses the
    /// lines with a chosen move, six fields).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Board size whose positions are used and whose weights are fitted.
    #[arg(long, default_value_t = 6)]
    pub size: usize,
    /// The weights file to write (through a temporary file, renamed when complete).
    #[arg(long)]
    pub out: PathBuf,
    /// Starting weights, a file of --size (tune-eval: default the built-in weights; tune-policy:
    /// a fitted policy file with its `units` line, default zero).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Fraction of the positions held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Seed of the validation split and the batch order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Pull toward the starting weights (ridge around them): keeps the weights of features
    /// that fire in few positions near their start. 0 fits freely.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
}

settings_from_flags!(FitFlags => FitSettings {
    files, size, out, init, validation, seed, l2, threads
});
