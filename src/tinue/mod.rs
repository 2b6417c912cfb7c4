//! The tinue solver: proof-number search (df-pn) for a road that cannot be stopped.
//!
//! Depends on [`crate::core`] only. The attacker (the side to move at the root, or its opponent
//! when proving that every move loses) plays only moves that win at once or leave a threat to win
//! at once (a "tak": a road in one, or a move that ends the game on flats in its favour,
//! `Position::opponent_wins_in_one`); the defender plays every legal move. Game endings follow
//! rules.md: the mover wins a double road, a flat ending counts komi, and a draw is never a win.
//! Every proof the solver reports has been re-walked over the table with the real rules (repetition
//! included) before it is reported; a disproof that needs a repetition or the depth cap is reported
//! as unknown, since such a verdict depends on the path (the graph-history interaction).
//!
//! ```
//! use menhir::core::Position;
//! use menhir::tinue::{Budget, Solver, Verdict};
//! use std::sync::atomic::AtomicBool;
//! // White to move on 4x4 forces a road in 9 plies (c2 first).
//! let pos = Position::from_tps("x4/x4/x,1,x2/1,1,x,2 1 5").unwrap();
//! let mut solver = Solver::new(16);
//! let outcome = solver.solve(&pos, Budget::nodes(100_000), &AtomicBool::new(false));
//! assert!(matches!(outcome.verdict, Verdict::Win { .. }), "{:?}", outcome.verdict);
//! ```

mod proof;
mod solver;
mod table;

/// Deepest line the solver follows; a line cut here makes a disproof unknown, never false.
pub const MAX_DEPTH: usize = 200;

/// The root's key in the search with a free first move is changed by this, so its entry never
/// mixes with the tak-only search's entry for the same position.
const FREE_FIRST_MOVE: u64 = 0xc2b2_ae3d_27d4_eb4f;

pub use solver::{Budget, Outcome, Solver, Verdict};
