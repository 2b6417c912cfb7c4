//! The root search of one iteration inside an aspiration window: a narrow window around the
//! last iteration's score, widened on the failing side until the score fits. Used by the
//! iterative deepening of every worker (`threads.rs`) and by MultiPV's later lines
//! (`multipv.rs`).

use super::alphabeta::{Shared, Worker};
use super::params::ASPIRATION_GIVE_UP;
use super::{score_is_win, WIN};

/// One root search at `depth`, with an aspiration window around `previous` from
/// the `aspiration_depth` parameter on; the window doubles on the failing side until the score
/// fits.
pub fn aspiration(worker: &mut Worker, shared: &Shared, depth: i32, previous: i32) -> i32 {
    let mut delta = shared.params.aspiration_window;
    let (mut alpha, mut beta) =
        if depth >= shared.params.aspiration_depth && !score_is_win(previous.abs()) {
            (previous - delta, previous + delta)
        } else {
            (-WIN, WIN)
        };
    loop {
        let score = worker.negamax::<true>(shared, depth, 0, alpha, beta, false);
        if worker.aborted() {
            return score;
        }
        if score <= alpha && alpha > -WIN {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-WIN);
        } else if score >= beta && beta < WIN {
            beta = (score + delta).min(WIN);
        } else {
            return score;
        }
        delta *= 2;
        if delta > ASPIRATION_GIVE_UP {
            alpha = -WIN;
            beta = WIN;
        }
    }
}
