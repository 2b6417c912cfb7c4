//! `menhir tune-eval`: fits one board size's evaluation weights to self-play data.
//!
//! Loss: the mean squared error between sigmoid(eval / K) and the label
//! λ·result + (1 − λ)·sigmoid(score / K), score and result turned to the side to move's view
//! (the trace's view). K is fitted first, on the starting weights against the results (see
//! `loss::fit_k`); then Adam over shuffled mini-batches, the train and validation loss printed
//! after each epoch. The weights are fitted as f64 and rounded when written (through
//! `EvalWeights::to_text`, with a header naming the command, the data, the date, K and the
//! losses, and K as the file's `scale` line, which the engine's `wdl` uses).

use super::fit::{fit, split, FitOptions};
use super::fit_settings::FitSettings;
use super::load::{data_header, load, print_counts};
use super::loss::{fit_k, loss};
use crate::common::AtomicFile;
use crate::search::EvalWeights;
use std::time::Instant;

/// Settings of `menhir tune-eval` (built from its flags in `commands`).
#[derive(Debug, Clone)]
pub struct TuneConfig {
    /// Weight of the game result in the label; the rest is sigmoid(score / K).
    pub lambda: f64,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam step size (about the largest change of a weight per step, in centi-flats).
    pub lr: f64,
    /// The data, size, output and starting files, validation split, seed, pull, threads.
    pub fit: FitSettings,
}

fn check(config: &TuneConfig) -> Result<(), String> {
    if !(0.0..=1.0).contains(&config.lambda) {
        return Err(format!("--lambda {} is not within 0..1", config.lambda));
    }
    config.fit.check()?;
    if config.epochs == 0 || config.batch == 0 {
        return Err("--epochs and --batch must be at least 1".into());
    }
    if !(config.lr > 0.0 && config.lr.is_finite()) {
        return Err(format!("--lr {} must be a positive number", config.lr));
    }
    Ok(())
}

/// The starting weights: `--init` or the built-in ones.
fn starting_weights(config: &TuneConfig) -> Result<EvalWeights, String> {
    let Some(path) = &config.fit.init else {
        // A copy through the text form: the evaluation's interface has no other constructor.
        return EvalWeights::parse(&EvalWeights::builtin(config.fit.size).to_text(&[]));
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let weights = EvalWeights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    config.fit.check_init_size(path, weights.size())?;
    Ok(weights)
}

/// Runs `menhir tune-eval`: progress on stderr, the weights in `--out`.
pub fn tune(config: &TuneConfig) -> Result<(), String> {
    check(config)?;
    let mut weights = starting_weights(config)?;
    let mut out = AtomicFile::create(&config.fit.out)?;
    let pool = config.fit.pool()?;
    let started = Instant::now();
    let mut loaded = pool.install(|| load(&config.fit.files, config.fit.size))?;
    print_counts("tune", &loaded.files, &loaded.examples);
    let data = &mut loaded.data;
    eprintln!(
        "tune: {} positions of size {} read and traced in {:.1} s",
        data.len(),
        config.fit.size,
        started.elapsed().as_secs_f64()
    );

    let features = EvalWeights::feature_names(config.fit.size).len();
    let mut w: Vec<f64> = (0..features)
        .flat_map(|j| weights.get(j).map(f64::from))
        .collect();
    let (train, validation) = split(data.len(), config.fit.validation, config.fit.seed);
    let k = pool.install(|| fit_k(data, &train, &w));
    data.set_targets(k, config.lambda);
    let (start_train, start_validation) =
        pool.install(|| (loss(data, &train, &w, k), loss(data, &validation, &w, k)));
    eprintln!(
        "tune: K = {k:.1}; {} training and {} validation positions; start: train {start_train:.6} validation {start_validation:.6}",
        train.len(),
        validation.len()
    );
    let options = FitOptions {
        epochs: config.epochs,
        batch: config.batch,
        rate: config.lr,
        k,
        seed: config.fit.seed,
        l2: config.fit.l2,
    };
    let mut last = (start_train, start_validation);
    let fitting = Instant::now();
    pool.install(|| {
        fit(data, &train, &validation, &mut w, &options, &mut |r| {
            last = (r.train, r.validation);
            eprintln!(
                "tune: epoch {}/{}: train {:.6} validation {:.6} ({:.1} s)",
                r.epoch,
                config.epochs,
                r.train,
                r.validation,
                fitting.elapsed().as_secs_f64()
            );
        })
    });

    for j in 0..features {
        weights.set(j, [w[2 * j].round() as i32, w[2 * j + 1].round() as i32]);
    }
    // The weights were fitted to sigmoid(eval / K): the engine's `wdl` reads K back from the file.
    weights.set_logistic_scale(k)?;
    let mut header = data_header(&loaded.files);
    header.push(format!(
        "K {k:.1}, lambda {}, l2 {}, {} training and {} validation positions, {} epochs",
        config.lambda,
        config.fit.l2,
        train.len(),
        validation.len(),
        config.epochs
    ));
    header.push(format!(
        "loss: train {:.6} validation {:.6} (starting weights: train {start_train:.6} validation {start_validation:.6})",
        last.0, last.1
    ));
    out.write(&weights.to_text(&header))?;
    out.finish()?;
    eprintln!(
        "tune: wrote {} in {:.1} s",
        config.fit.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
