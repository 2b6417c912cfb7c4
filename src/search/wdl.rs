//! Win/draw/loss odds from a score, for the `wdl` field of TEI `info` lines (PTN Ninja draws
//! its evaluation bar from it).
//!
//! The model: the expected result `E = W + D/2` of the side to move is `sigmoid(score / K)`,
//! the logistic curve the evaluation tuner fits, with the `K` of the board size's weights
//! ([`EvalWeights::logistic_scale`]: each generation is tuned against its own). Draws are rare
//! in Tak (a flat tie, or repetition), so they get a simple bell: `D = DRAW_RATE_AT_EVEN ×
//! 4E(1 − E)`, largest for an even position and vanishing as either side pulls ahead; then
//! `W = E − D/2` and `L = 1 − E − D/2`, which keeps `E` exact. A forced road or flat win or
//! loss (see `search` module docs) is certain: 1000/0/0 or 0/0/1000.

use super::{plies_to_result, EvalWeights};

/// The draw probability of an even position (E = ½): in the same data, 4.9 % of the positions
/// scored within half a flat of even were drawn.
pub const DRAW_RATE_AT_EVEN: f64 = 0.05;

/// `[win, draw, loss]` in per mille for the side to move on a board of `size` (whose built-in
/// weights give the scale), summing to 1000.
pub fn wdl(score_cp: i32, size: usize) -> [u32; 3] {
    wdl_at_scale(score_cp, EvalWeights::builtin(size).logistic_scale())
}

/// [`wdl`] with the logistic scale `k` (centi-flats) given.
pub fn wdl_at_scale(score_cp: i32, k: f64) -> [u32; 3] {
    if plies_to_result(score_cp).is_some() {
        return if score_cp > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let expected = 1.0 / (1.0 + (-(score_cp as f64) / k).exp());
    let draw = DRAW_RATE_AT_EVEN * 4.0 * expected * (1.0 - expected);
    let win = ((expected - draw / 2.0) * 1000.0).round() as u32;
    let loss = ((1.0 - expected - draw / 2.0) * 1000.0).round() as u32;
    // Rounding may leave 999 or 1001 in all: the draw share absorbs it.
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{EVAL_LIMIT, WIN};

    #[test]
    fn even_is_symmetric_with_the_most_draws() {
        assert_eq!(wdl_at_scale(0, 505.0), [475, 50, 475]);
        for score in [1, 37, 100, 450, EVAL_LIMIT] {
            let [w, d, l] = wdl_at_scale(score, 505.0);
            assert_eq!(wdl_at_scale(-score, 505.0), [l, d, w], "score {score}");
            assert!(d <= 50 && (score < 450 || d < 50), "score {score}");
        }
    }

    #[test]
    fn sums_to_1000_and_grows_with_the_score() {
        let mut last_win = 0;
        for score in (-EVAL_LIMIT..=EVAL_LIMIT).step_by(7) {
            let [w, d, l] = wdl_at_scale(score, 505.0);
            assert_eq!(w + d + l, 1000, "score {score}");
            assert!(w >= last_win, "score {score}");
            last_win = w;
        }
        assert_eq!(wdl_at_scale(100, 505.0), [525, 49, 426]);
    }

    #[test]
    fn each_size_uses_the_scale_its_weights_were_tuned_against() {
        for size in 3..=8 {
            let k = EvalWeights::builtin(size).logistic_scale();
            assert_eq!(wdl(250, size), wdl_at_scale(250, k), "size {size}");
        }
        // The tuned 6×6 weights are sharper than the hand-set 3×3 ones: the same lead in
        // centi-flats is a surer win there.
        assert!(
            EvalWeights::builtin(6).logistic_scale() < EvalWeights::builtin(3).logistic_scale()
        );
        assert!(wdl(250, 6)[0] > wdl(250, 3)[0] + 50);
    }

    #[test]
    fn forced_results_are_certain() {
        assert_eq!(wdl_at_scale(WIN - 3, 505.0), [1000, 0, 0]);
        assert_eq!(wdl_at_scale(-(WIN - 8), 505.0), [0, 0, 1000]);
    }
}
