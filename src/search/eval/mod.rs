//! The static evaluation, in centi-flats from the side to move's view.
//!
//! One code path (`terms.rs`) computes every feature of a position and feeds it to an
//! accumulator: the weighted one here returns the score, the trace (`trace.rs`) records the
//! feature counts the tuner fits. Every feature has an opening and an end weight; the score is
//! `(Σ count·opening · phase + Σ count·end · (256 − phase)) / 256`, `phase` running from 256 at
//! the start to 0 when a reserve or the board runs out, then clamped to ±`EVAL_LIMIT`. The
//! features are listed in `features.rs`; the weights are data (`weights/eval-NxN.txt`).

mod features;
mod road_distance;
mod terms;
mod trace;
mod weights;

pub use features::{class_count, class_names, CLASSES};
pub use terms::{span, Accumulator};
pub use trace::{eval_trace, EvalTrace};
pub use weights::EvalWeights;

use super::EVAL_LIMIT;
use crate::core::Position;
use features::LAYOUTS;
use terms::{evaluate_terms, phase};

/// Sums of weight × count, opening and end apart.
struct Weighted<'a> {
    file: &'a EvalWeights,
    weights: &'a [[i32; 2]],
    opening: i64,
    end: i64,
}

impl Accumulator for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        let [opening, end] = self.weights[index];
        self.opening += opening as i64 * count as i64;
        self.end += end as i64 * count as i64;
    }

    #[inline(always)]
    fn wants(&self, start: usize, len: usize) -> bool {
        self.file.any_set(start, len)
    }
}

/// The evaluation with the built-in weights of the position's size.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, EvalWeights::builtin(pos.size()))
}

/// The evaluation with `weights`: the same code as `evaluate`, for the tuner and tests.
///
/// # Panics
/// If `weights` are for another board size than `pos` (a caller's bug: the features differ).
#[inline]
pub fn evaluate_with(pos: &Position, weights: &EvalWeights) -> i32 {
    assert_eq!(
        weights.size(),
        pos.size(),
        "evaluation weights for the wrong board size"
    );
    let mut sum = Weighted {
        file: weights,
        weights: weights.as_slice(),
        opening: 0,
        end: 0,
    };
    evaluate_terms(pos, &LAYOUTS[pos.size()], &mut sum);
    let phase = phase(pos) as i64;
    let score = (sum.opening * phase + sum.end * (256 - phase)) / 256;
    score.clamp(-EVAL_LIMIT as i64, EVAL_LIMIT as i64) as i32
}
