//! The fitting loop, written once over an objective: epochs of shuffled mini-batches, one Adam
//! step per batch on the objective's gradient (with a pull toward the starting weights), a report
//! after each epoch. The evaluation's fit (`fit`, below) and the policy's (`tune_policy.rs`)
//! differ only in the objective and what they report.

use super::adam::Adam;
use super::eval_set::Dataset;
use super::loss::{gradient, loss};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size (centi-flats per step, roughly).
    pub rate: f64,
    /// The sigmoid's scale.
    pub k: f64,
    /// Seeds the batch order.
    pub seed: u64,
    /// Strength of the pull back toward the starting weights (ridge regression around them):
    /// `l2 × (w − w_start)` is added to each step's gradient. A feature that fires in few
    /// positions has a weak, noisy gradient, which Adam's per-parameter scaling would still
    /// turn into full-size steps; the pull keeps such weights near where they started.
    pub l2: f64,
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: usize,
    /// Mean loss over the training positions, after the epoch.
    pub train: f64,
    /// Mean loss over the validation positions (0 when there are none).
    pub validation: f64,
}

/// Splits positions `0..len` into (training, validation), `fraction` of them held out, by a
/// shuffle from `seed`.
pub fn split(len: usize, fraction: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut rows: Vec<usize> = (0..len).collect();
    rows.shuffle(&mut StdRng::seed_from_u64(seed));
    let held = ((len as f64 * fraction).round() as usize).min(len.saturating_sub(1));
    let validation = rows.split_off(len - held);
    (rows, validation)
}

/// How [`adam_fit`] walks the data.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size.
    pub rate: f64,
    /// Pull toward the starting weights: `l2 × (w − w_start)` is added to each gradient.
    pub l2: f64,
    /// Seeds the batch order.
    pub seed: u64,
}

/// An objective's mean loss over a batch of training rows at weights `w`, with its gradient.
pub type Objective<'a> = dyn FnMut(&[usize], &[f64]) -> (f64, Vec<f64>) + 'a;

/// Fits `w` to an objective: `gradient(batch, w)` gives the mean loss over `batch` (rows of
/// the training set) and its gradient. After each epoch `end_epoch(epoch, train_loss, w)` is
/// called with the mean batch loss of the epoch (1-based epoch number).
pub fn adam_fit(
    w: &mut [f64],
    train: &[usize],
    schedule: Schedule,
    gradient: &mut Objective,
    end_epoch: &mut dyn FnMut(usize, f64, &[f64]),
) {
    let mut adam = Adam::new(w.len(), schedule.rate);
    let start = w.to_vec();
    let mut rng = StdRng::seed_from_u64(schedule.seed);
    let mut order = train.to_vec();
    for epoch in 1..=schedule.epochs {
        order.shuffle(&mut rng);
        let mut train_loss = 0.0;
        for batch in order.chunks(schedule.batch.max(1)) {
            let (loss, mut grad) = gradient(batch, w);
            train_loss += loss * batch.len() as f64;
            if schedule.l2 > 0.0 {
                for ((g, &p), &p0) in grad.iter_mut().zip(w.iter()).zip(&start) {
                    *g += schedule.l2 * (p - p0);
                }
            }
            adam.step(w, &grad);
        }
        end_epoch(epoch, train_loss / order.len().max(1) as f64, w);
    }
}

/// Fits parameters `w` (two per feature) on `train`, reporting each epoch.
pub fn fit(
    data: &Dataset,
    train: &[usize],
    validation: &[usize],
    w: &mut [f64],
    options: &FitOptions,
    report: &mut dyn FnMut(EpochReport),
) {
    let schedule = Schedule {
        epochs: options.epochs,
        batch: options.batch,
        rate: options.rate,
        l2: options.l2,
        seed: options.seed ^ 0x7475_6E65,
    };
    let k = options.k;
    adam_fit(
        w,
        train,
        schedule,
        &mut |batch, w| gradient(data, batch, w, k),
        &mut |epoch, _, w| {
            report(EpochReport {
                epoch,
                train: loss(data, train, w, k),
                validation: loss(data, validation, w, k),
            })
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::eval_set::sigmoid;
    use rand::Rng;

    #[test]
    fn the_validation_split_is_deterministic_and_disjoint() {
        let (train, validation) = split(1000, 0.1, 5);
        assert_eq!(validation.len(), 100);
        assert_eq!((train.clone(), validation.clone()), split(1000, 0.1, 5));
        assert_ne!(validation, split(1000, 0.1, 6).1);
        let mut all = [train, validation].concat();
        all.sort_unstable();
        assert_eq!(all, (0..1000).collect::<Vec<_>>());
        assert_eq!(
            split(1, 0.5, 1).0.len(),
            1,
            "one position stays for training"
        );
    }

    #[test]
    fn known_weights_are_recovered() {
        // Synthetic sparse rows labelled by known weights: sigmoid(eval / K) exactly. From zero
        // weights the fit must find them again (the real evaluation plays no part).
        let truth = [
            120.0, 200.0, -40.0, -10.0, 30.0, 30.0, 0.0, 80.0, -90.0, 15.0,
        ];
        let k = 150.0;
        let mut rng = StdRng::seed_from_u64(9);
        let mut data = Dataset::new(truth.len() / 2);
        for _ in 0..4000 {
            let mut terms = Vec::new();
            for f in 0..5u16 {
                if rng.random_bool(0.7) {
                    terms.push((f, rng.random_range(-3i16..=3)));
                }
            }
            data.push(rng.random_range(0..=256), &terms, 0.0, 0.5);
        }
        for i in 0..data.len() {
            let target = sigmoid(data.eval(i, &truth) / k);
            data.set_target(i, target);
        }
        let (train, validation) = split(data.len(), 0.1, 1);
        let mut w = vec![0.0; truth.len()];
        let options = FitOptions {
            epochs: 150,
            batch: 256,
            rate: 2.0,
            k,
            seed: 1,
            l2: 0.0,
        };
        let mut last = None;
        fit(&data, &train, &validation, &mut w, &options, &mut |r| {
            last = Some(r)
        });
        let last = last.unwrap();
        assert!(last.validation < 1e-5, "{last:?}");
        for (j, (got, want)) in w.iter().zip(truth).enumerate() {
            assert!(
                (got - want).abs() < 3.0,
                "parameter {j}: {got:.1}, want {want}"
            );
        }

        // A weight whose feature never fires keeps its start; with a pull toward the start
        // the rest stay nearer to it than the unpulled fit.
        let mut pulled = vec![10.0; truth.len()];
        let options = FitOptions {
            l2: 1e-3,
            ..options
        };
        fit(
            &data,
            &train,
            &validation,
            &mut pulled,
            &options,
            &mut |_| {},
        );
        let distance = |v: &[f64]| v.iter().map(|x| (x - 10.0).powi(2)).sum::<f64>();
        let mut free = vec![10.0; truth.len()];
        let options = FitOptions { l2: 0.0, ..options };
        fit(&data, &train, &validation, &mut free, &options, &mut |_| {});
        assert!(
            distance(&pulled) < 0.8 * distance(&free),
            "pulled {pulled:?}, free {free:?}"
        );
    }
}
