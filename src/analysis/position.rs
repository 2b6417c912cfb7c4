//! One position's analysis: the normal search's evaluation and best line, and the prover's
//! verdict.

use super::prover::{Outcome, Proof, TinueProver};
use crate::core::{Move, Position};
use crate::search::{Limits, Searcher, WIN};
use std::sync::atomic::AtomicBool;

/// What the analysis found in one position, from the side to move's view.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionAnalysis {
    /// Score in centi-flats, side to move's view, on the search's scale (a forced result is
    /// `±(WIN − plies)`); a proof's score where there is one.
    pub score_cp: i32,
    /// Completed search depth (0 for a finished game).
    pub depth: u32,
    /// The search's principal variation (empty for a finished game).
    pub pv: Vec<Move>,
    /// The proven result, if the position is settled.
    pub proof: Option<Proof>,
}

impl PositionAnalysis {
    /// The engine's preferred move, if the game is not over.
    pub fn best(&self) -> Option<Move> {
        self.pv.first().copied()
    }
}

/// Analyses `pos`: a finished game is scored from its result; otherwise the search runs within
/// `limits`, then the prover, whose proof (if any) decides the score.
pub fn analyse_position(
    pos: &Position,
    limits: &Limits,
    searcher: &mut Searcher,
    prover: &mut dyn TinueProver,
) -> PositionAnalysis {
    if let Some(result) = pos.result() {
        let score_cp = match result.winner() {
            Some(winner) if winner == pos.to_move() => WIN,
            Some(_) => -WIN,
            None => 0,
        };
        return PositionAnalysis {
            score_cp,
            depth: 0,
            pv: Vec::new(),
            proof: None,
        };
    }
    let stop = AtomicBool::new(false);
    let result = searcher.search(pos, limits, &stop, &mut |_| {});
    let proof = prover.prove(pos, limits, &result.info);
    // A proven win is played along its proof: the search's move may not be one that wins.
    let pv = match &proof {
        Some(p) if p.outcome == Outcome::Win && !p.line.is_empty() => p.line.clone(),
        _ => result.info.pv,
    };
    PositionAnalysis {
        score_cp: proof.as_ref().map_or(result.info.score_cp, Proof::score_cp),
        depth: result.info.depth,
        pv,
        proof,
    }
}
