//! The settings both tuners take alike (`menhir tune-eval`, `menhir tune-policy`): the
//! validation split, the seed, the pull toward the start, the threads; their checks and the
//! thread pool.

/// Settings both tuners take alike (from `commands::FitFlags`).
#[derive(Debug, Clone)]
pub struct FitSettings {
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
