//! The settings both tuners take alike (`menhir tune-eval`, `menhir tune-policy`): the data
//! files, the size, the output and starting files, the validation split, the seed, the pull
//! toward the start, the threads; their checks and the thread pool.

use crate::core::check_size;
use std::path::{Path, PathBuf};

/// Settings both tuners take alike (from `commands::FitFlags`).
#[derive(Debug, Clone)]
pub struct FitSettings {
    /// Data files written by `menhir datagen`.
    pub files: Vec<PathBuf>,
    /// Board size whose positions are used and whose weights are fitted.
    pub size: usize,
    /// The weights file to write (through a temporary file, renamed when complete).
    pub out: PathBuf,
    /// Starting weights, a file of `size` (each tuner has its default).
    pub init: Option<PathBuf>,
    /// Fraction of the positions held out for validation.
    pub validation: f64,
    /// Seed of the validation split and the batch order.
    pub seed: u64,
    /// Pull toward the starting weights (ridge around them); 0 fits freely.
    pub l2: f64,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
}

impl FitSettings {
    /// A one-line error for a flag out of its range.
    pub fn check(&self) -> Result<(), String> {
        check_size(self.size)?;
        if !(0.0..1.0).contains(&self.validation) {
            return Err(format!(
                "--validation {} is not within 0..1 (1 excluded)",
                self.validation
            ));
        }
        if self.threads == Some(0) {
            return Err("--threads must be at least 1".into());
        }
        if !(self.l2 >= 0.0 && self.l2.is_finite()) {
            return Err(format!("--l2 {} must be 0 or a positive number", self.l2));
        }
        Ok(())
    }

    /// An error unless the `--init` file at `path` holds weights of `size` (`found`).
    pub fn check_init_size(&self, path: &Path, found: usize) -> Result<(), String> {
        if found != self.size {
            return Err(format!(
                "{} holds {found}x{found} weights, --size is {}",
                path.display(),
                self.size
            ));
        }
        Ok(())
    }

    /// The rayon pool of `--threads` workers (one per core by default).
    pub fn pool(&self) -> Result<rayon::ThreadPool, String> {
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))
    }
}
