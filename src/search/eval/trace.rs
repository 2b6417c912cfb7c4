//! The trace: how often each feature fired in a position, for the tuner.

use super::features::Layout;
use super::terms::{evaluate_terms, phase, Accumulator};
use super::weights::EvalWeights;
use crate::core::Position;

/// The features of one position: the game phase and a sparse list of feature counts.
///
/// The evaluation before its clamp is `Σ count·(opening·phase + end·(256 − phase)) / 256` over
/// `terms`, with the weights of `EvalWeights::get` ([`EvalTrace::score`] computes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// Game phase, 256 at the start and 0 at the end.
    pub phase: i32,
    /// (feature index, count) from the side to move's view; each index at most once, none zero.
    pub terms: Vec<(u16, i16)>,
}

impl EvalTrace {
    /// The unclamped evaluation these counts give under `weights` (as `evaluate_with` computes
    /// it, up to the rounding of its one division).
    pub fn score(&self, weights: &EvalWeights) -> f64 {
        let mut sum = 0.0;
        for &(index, count) in &self.terms {
            let [opening, end] = weights.get(index as usize);
            sum += count as f64
                * (opening as f64 * self.phase as f64 + end as f64 * (256 - self.phase) as f64);
        }
        sum / 256.0
    }
}

/// Dense counts, one per feature.
struct Counts(Vec<i32>);

impl Accumulator for Counts {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.0[index] += count;
    }
}

/// Which features fire in `pos`, and how often (allocates: for the tuner, not the search).
/// A position of an unsupported size gives an empty trace.
pub fn eval_trace(pos: &Position) -> EvalTrace {
    let Some(layout) = Layout::of(pos.size()) else {
        return EvalTrace {
            phase: 0,
            terms: Vec::new(),
        };
    };
    let mut counts = Counts(vec![0; layout.len]);
    evaluate_terms(pos, layout, &mut counts);
    let terms = counts
        .0
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
        .collect();
    EvalTrace {
        phase: phase(pos),
        terms,
    }
}
