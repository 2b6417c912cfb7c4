//! The tactical suite (`menhir tactics`): positions from self-play games where the side to move
//! forces a road within a few plies, or must stop the opponent's road in one, each searched at a
//! fixed short limit, the move checked without trusting the engine's score (every move tried to
//! the line's horizon). It is the check on every pruning change: a rule that drops a move making
//! or stopping a road threat fails a line.
//!
//! - `suite.rs`: the file format (`TPS ; win N|defend ; note`).
//! - `exhaustive.rs`: exact forced wins within a few plies, every move tried.
//! - `check.rs`: whether a move does what its line asks.
//! - `run.rs`: the suite searched and checked, or answered by the checker alone; the tally.
//!
//! Depends on `search` and `core`.
//!
//! ```
//! use menhir::search::Limits;
//! use menhir::tactics::{parse_suite, run_suite};
//! let suite = parse_suite("x3/1,2,x/1,2,x 1 3 ; win 1 ; road at a3\n", 0).unwrap();
//! let limits = Limits { nodes: Some(1000), ..Limits::default() };
//! let results = run_suite(&suite, &limits, 1, &mut |_| {});
//! assert!(results[0].check.passed());
//! ```

mod check;
mod exhaustive;
mod run;
mod suite;

pub use check::{check_move, find_answer, Check, DEFEND_PLIES};
pub use exhaustive::{loses_within, wins_within};
pub use run::{run_suite, tally, verify_suite, LineResult};
pub use suite::{parse_suite, SuiteLine, Task, MAX_WIN_PLIES};
