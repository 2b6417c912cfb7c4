//! Win/draw/loss odds from a score, for the `wdl` field of TEI `info` lines (PTN Ninja draws
//! its evaluation bar from it).
//!
//! The model: the expected result `E = W + D/2` of the side to move is `sigmoid(score / K)`,
//! the logistic curve the evaluation tuner fits (`K` = [`LOGISTIC_SCALE_CP`]). Draws are rare
//! in Tak (a flat tie, or repetition), so they get a simple bell: `D = DRAW_RATE_AT_EVEN ×
//! 4E(1 − E)`, largest for an even position and vanishing as either side pulls ahead; then
//! `W = E − D/2` and `L = 1 − E − D/2`, which keeps `E` exact. A forced road or flat win or
//! loss (see `search` module docs) is certain: 1000/0/0 or 0/0/1000.

use super::plies_to_result;

/// `K` of `E = sigmoid(score / K)`, in centi-flats: with 505, one flat ahead (100) expects
/// 55%, three flats 65%, six flats 77%. Fitted by `menhir tune` to the game results of
/// generation 0 (243,069 6×6 komi 2 positions of `menhir datagen` at 5000 nodes, the built-in
/// weights): K = 505.0. The tuner keeps K while it fits the weights, so tuned weights share it.
pub const LOGISTIC_SCALE_CP: f64 = 505.0;

/// The draw probability of an even position (E = ½): in the same data, 4.9 % of the positions
/// scored within half a flat of even were drawn.
pub const DRAW_RATE_AT_EVEN: f64 = 0.05;

/// `[win, draw, loss]` in per mille for the side to move, summing to 1000.
pub fn wdl(score_cp: i32) -> [u32; 3] {
    if plies_to_result(score_cp).is_some() {
        return if score_cp > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let expected = 1.0 / (1.0 + (-(score_cp as f64) / LOGISTIC_SCALE_CP).exp());
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
        assert_eq!(wdl(0), [475, 50, 475]);
        for score in [1, 37, 100, 450, EVAL_LIMIT] {
            let [w, d, l] = wdl(score);
            assert_eq!(wdl(-score), [l, d, w], "score {score}");
            assert!(d <= 50 && (score < 450 || d < 50), "score {score}");
        }
    }

    #[test]
    fn sums_to_1000_and_grows_with_the_score() {
        let mut last_win = 0;
        for score in (-EVAL_LIMIT..=EVAL_LIMIT).step_by(7) {
            let [w, d, l] = wdl(score);
            assert_eq!(w + d + l, 1000, "score {score}");
            assert!(w >= last_win, "score {score}");
            last_win = w;
        }
        assert_eq!(wdl(100), [525, 49, 426]);
    }

    #[test]
    fn forced_results_are_certain() {
        assert_eq!(wdl(WIN - 3), [1000, 0, 0]);
        assert_eq!(wdl(-(WIN - 8)), [0, 0, 1000]);
    }
}
