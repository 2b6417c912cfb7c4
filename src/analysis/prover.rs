//! Where annotation gets its proofs: the [`TinueProver`] hook.
//!
//! A proof settles a position for good (a forced road or flat win for one side, every defence
//! included). The annotator asks for one in every position it analyses; a proven loss for the
//! side to move after a ply is that ply's tinue (`"`), and a proof overrides the search's
//! evaluation there. [`SearchMates`] proves only what the normal search already proved (a mate
//! score, `search::score_is_win`); [`SolverProver`], what [`new_prover`] gives, adds the tinue
//! solver (`crate::tinue`) within the same budget, so a long forcing line the search cannot
//! reach is still found.

use crate::core::{Move, Position};
use crate::search::{plies_to_result, Info, Limits};
use crate::tinue::{Budget, Solver, Verdict};
use std::sync::atomic::AtomicBool;

/// Solver nodes a position gets when the limits bound neither nodes nor time.
const UNBOUNDED_SOLVER_NODES: u64 = 100_000;

/// Who wins a proven position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins by force.
    Win,
    /// The side to move loses by force: every move it has loses.
    Loss,
}

/// A proven result of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Who wins, from the side to move's view.
    pub outcome: Outcome,
    /// Plies from the position to the end of the game along the forcing line.
    pub plies: u32,
    /// The forcing line from the position (may be shorter than `plies`).
    pub line: Vec<Move>,
}

impl Proof {
    /// The proof a search score carries: a forced-result score (`search::plies_to_result`)
    /// with its principal variation; `None` for any other score.
    ///
    /// ```
    /// use menhir::analysis::{Outcome, Proof};
    /// use menhir::search::WIN;
    /// assert_eq!(Proof::from_score(-(WIN - 2), &[]).unwrap().outcome, Outcome::Loss);
    /// assert_eq!(Proof::from_score(WIN - 3, &[]).unwrap().plies, 3);
    /// assert!(Proof::from_score(250, &[]).is_none());
    /// ```
    pub fn from_score(score_cp: i32, pv: &[Move]) -> Option<Proof> {
        let plies = plies_to_result(score_cp)?;
        Some(Proof {
            outcome: if score_cp > 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            },
            plies,
            line: pv.to_vec(),
        })
    }

    /// The score this proof stands for, side to move's view (the search's scale).
    pub fn score_cp(&self) -> i32 {
        let win = crate::search::WIN - self.plies as i32;
        match self.outcome {
            Outcome::Win => win,
            Outcome::Loss => -win,
        }
    }
}

/// Proves forced results for the annotator: the one place a tinue solver plugs in.
///
/// Called once for every position of a game that is not over, after the normal search of
/// that position (`searched` is its final report, at the same `limits`). Must not return a
/// proof it has not established; `None` means "not proven within the budget".
pub trait TinueProver: Send {
    /// A forced result for the side to move in `pos` (not finished), within `limits`.
    fn prove(&mut self, pos: &Position, limits: &Limits, searched: &Info) -> Option<Proof>;
}

/// The default prover: no search of its own, it keeps the proof the normal search found (a
/// mate score) and proves nothing the search did not.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchMates;

impl TinueProver for SearchMates {
    fn prove(&mut self, _pos: &Position, _limits: &Limits, searched: &Info) -> Option<Proof> {
        Proof::from_score(searched.score_cp, &searched.pv)
    }
}

/// The search's proof when it found one, else the tinue solver's, within the search's budget
/// (its node count or its movetime).
pub struct SolverProver {
    solver: Solver,
}

impl SolverProver {
    /// A prover whose solver table takes about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> SolverProver {
        SolverProver {
            solver: Solver::new(hash_mb.max(1)),
        }
    }
}

impl TinueProver for SolverProver {
    fn prove(&mut self, pos: &Position, limits: &Limits, searched: &Info) -> Option<Proof> {
        if let Some(proof) = Proof::from_score(searched.score_cp, &searched.pv) {
            return Some(proof);
        }
        let budget = match (limits.nodes, limits.movetime) {
            (None, None) => Budget::nodes(UNBOUNDED_SOLVER_NODES),
            (nodes, time) => Budget { nodes, time },
        };
        let stop = AtomicBool::new(false);
        let (outcome, plies, line) = match self.solver.solve(pos, budget, &stop).verdict {
            Verdict::Win { plies, pv, .. } => (Outcome::Win, plies, pv),
            Verdict::Loss { plies, pv } => (Outcome::Loss, plies, pv),
            Verdict::NoTinue | Verdict::Unknown | Verdict::Finished => return None,
        };
        Some(Proof {
            outcome,
            plies,
            line,
        })
    }
}

/// A prover for one game's annotation (each game analysed in parallel gets its own), with a
/// solver table of `hash_mb` megabytes.
pub fn new_prover(hash_mb: usize) -> Box<dyn TinueProver> {
    Box::new(SolverProver::new(hash_mb))
}
