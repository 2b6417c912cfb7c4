//! `menhir tune-policy`: fits one board size's move-ordering policy to the moves the search
//! chose in self-play (data lines with a chosen move, see `data.rs`).
//!
//! The policy is linear in logits: `z = Σ w·count` over a move's features, and the loss is the
//! softmax cross-entropy of the chosen move among all legal moves. Adam over shuffled
//! mini-batches, from zero weights or `--init`; after each epoch the train and validation loss
//! and the validation top-1 accuracy (how often the chosen move scores highest). The weights
//! are written in ordering units, `--units` per logit, with a header naming the command and
//! the data.

use super::fit::{adam_fit, split, Schedule};
use super::fit_settings::FitSettings;
use super::load::{data_header, print_counts, read_files, Parsed};
use super::policy_set::{PolicyRow, PolicySet};
use crate::common::AtomicFile;
use crate::search::policy::PolicyWeights;
use std::time::Instant;

/// Settings of `menhir tune-policy` (built from its flags in `commands`).
#[derive(Debug, Clone)]
pub struct TunePolicyConfig {
    /// Ordering units per logit in the file written: how much one logit weighs against the
    /// history table (whose values stay within ±16384).
    pub units: f64,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam step size, in logits.
    pub lr: f64,
    /// The data, size, output and starting files, validation split, seed, pull, threads.
    pub fit: FitSettings,
}

fn check(config: &TunePolicyConfig) -> Result<(), String> {
    config.fit.check()?;
    if config.epochs == 0 || config.batch == 0 {
        return Err("--epochs and --batch must be at least 1".into());
    }
    for (flag, value) in [("--lr", config.lr), ("--units", config.units)] {
        if !(value > 0.0 && value.is_finite()) {
            return Err(format!("{flag} {value} must be a positive number"));
        }
    }
    Ok(())
}

/// The starting logits: `--init` divided by its units, or zero.
fn starting_logits(config: &TunePolicyConfig) -> Result<Vec<f64>, String> {
    let features = PolicyWeights::feature_names(config.fit.size).len();
    let Some(path) = &config.fit.init else {
        return Ok(vec![0.0; features]);
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let weights = PolicyWeights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    config.fit.check_init_size(path, weights.size())?;
    let units = weights.units().ok_or_else(|| {
        format!(
            "{}: no `units` line (hand-set weights are no logits to start from)",
            path.display()
        )
    })?;
    Ok((0..features)
        .map(|i| f64::from(weights.get(i)) / units)
        .collect())
}

/// Runs `menhir tune-policy`: progress on stderr, the weights in `--out`.
pub fn tune_policy(config: &TunePolicyConfig) -> Result<(), String> {
    check(config)?;
    let mut w = starting_logits(config)?;
    let mut out = AtomicFile::create(&config.fit.out)?;
    let pool = config.fit.pool()?;
    let started = Instant::now();
    let mut data = PolicySet::new(w.len());
    let (files, examples) = pool.install(|| {
        read_files(
            &config.fit.files,
            config.fit.size,
            |line| Parsed::of(line, config.fit.size, |d| PolicyRow::of(&d)),
            |row| data.push(&row),
        )
    })?;
    print_counts("tune-policy", &files, &examples);
    eprintln!(
        "tune-policy: {} positions of size {} read and traced in {:.1} s",
        data.len(),
        config.fit.size,
        started.elapsed().as_secs_f64()
    );

    let (train, validation) = split(data.len(), config.fit.validation, config.fit.seed);
    // Top-1 accuracy does not depend on the scale, so the built-in (perhaps hand-set) weights
    // compare directly.
    let builtin = PolicyWeights::builtin(config.fit.size);
    let builtin: Vec<f64> = (0..w.len()).map(|i| f64::from(builtin.get(i))).collect();
    let (_, builtin_accuracy) = pool.install(|| data.evaluate(&validation, &builtin));
    let (start_loss, start_accuracy) = pool.install(|| data.evaluate(&validation, &w));
    eprintln!(
        "tune-policy: {} training and {} validation positions; validation accuracy of the built-in weights {:.4}; start: loss {start_loss:.5} accuracy {start_accuracy:.4}",
        train.len(),
        validation.len(),
        builtin_accuracy
    );

    let mut last = (0.0, start_loss, start_accuracy);
    let schedule = Schedule {
        epochs: config.epochs,
        batch: config.batch,
        rate: config.lr,
        l2: config.fit.l2,
        seed: config.fit.seed ^ 0x706F_6C69,
    };
    adam_fit(
        &mut w,
        &train,
        schedule,
        &mut |batch, w| pool.install(|| data.gradient(batch, w)),
        &mut |epoch, train_loss, w| {
            let (loss, accuracy) = pool.install(|| data.evaluate(&validation, w));
            last = (train_loss, loss, accuracy);
            eprintln!(
                "tune-policy: epoch {epoch}/{}: train {train_loss:.5} validation {loss:.5} accuracy {accuracy:.4} ({:.1} s)",
                config.epochs,
                started.elapsed().as_secs_f64()
            );
        },
    );

    let mut weights = PolicyWeights::zero(config.fit.size)?;
    weights.set_units(config.units)?;
    for (i, &logit) in w.iter().enumerate() {
        let max = f64::from(crate::search::policy::MAX_WEIGHT);
        weights.set(i, (logit * config.units).round().clamp(-max, max) as i32);
    }
    let mut header = data_header(&files);
    header.push(format!(
        "{} training and {} validation positions, {} epochs, batch {}, lr {}, l2 {}, {} units a logit",
        train.len(),
        validation.len(),
        config.epochs,
        config.batch,
        config.lr,
        config.fit.l2,
        config.units
    ));
    header.push(format!(
        "validation: loss {:.5}, top-1 accuracy {:.4} (start: loss {start_loss:.5}, accuracy {start_accuracy:.4}; built-in weights' accuracy {builtin_accuracy:.4}); train loss {:.5}",
        last.1, last.2, last.0
    ));
    out.write(&weights.to_text(&header))?;
    out.finish()?;
    eprintln!(
        "tune-policy: wrote {} in {:.1} s",
        config.fit.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
