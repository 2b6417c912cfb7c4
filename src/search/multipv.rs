//! MultiPV: the k best root moves, each with its own score and line. After the main worker
//! completes an iteration (line 1, searched exactly as without MultiPV), it searches the root
//! again with line 1's move excluded for line 2, then with lines 1–2's moves excluded for
//! line 3, and so on; each line keeps its own aspiration window from its previous iteration.
//!
//! The later lines leave no trace: they read the transposition table but store nothing, and
//! the worker's history and killers are put back as line 1 left them. So line 1 is, iteration
//! by iteration, the very search MultiPV 1 makes (same moves, same nodes, single-threaded), and
//! MultiPV k only adds the later lines' cost. The price is that those lines are searched with
//! the table line 1 filled, not their own; they are shown, not played.

use super::alphabeta::{Shared, Worker};
use super::aspiration::aspiration;
use super::history::History;
use super::Info;
use crate::core::{Move, MoveList};
use std::time::Instant;

/// The most lines `MultiPV` may ask for (the root exclusion list is a fixed array, so the
/// search allocates nothing for it).
pub const MAX_MULTIPV: usize = 64;

/// The lines after the first across one search's iterations.
pub struct OtherLines {
    /// Lines searched in all: MultiPV, capped by the number of legal root moves.
    lines: usize,
    /// Each line's score at the last depth it completed (its next aspiration window's centre).
    scores: [i32; MAX_MULTIPV],
    /// Line 1's history and killers, put back after the later lines (allocated once).
    saved: Option<History>,
}

impl OtherLines {
    /// The lines to search from `worker`'s root for `shared.multipv`.
    pub fn new(worker: &mut Worker, shared: &Shared) -> OtherLines {
        let lines = if shared.multipv > 1 {
            let mut moves = MoveList::new();
            worker.position().generate_moves(&mut moves);
            shared.multipv.min(moves.len()).min(MAX_MULTIPV)
        } else {
            1
        };
        OtherLines {
            lines,
            scores: [0; MAX_MULTIPV],
            saved: (lines > 1).then(|| worker.history().clone()),
        }
    }

    /// Whether there is any line after the first.
    pub fn any(&self) -> bool {
        self.lines > 1
    }

    /// Searches and reports lines 2.. at `depth`, line 1 having started with `first`. Stops at
    /// an abort (the caller sees `worker.aborted()`); the lines reported so far stand.
    pub fn search(
        &mut self,
        worker: &mut Worker,
        shared: &Shared,
        depth: u32,
        first: Move,
        started: Instant,
        report: &mut dyn FnMut(&mut Worker, u32, i32, Instant) -> Info,
    ) {
        if let Some(saved) = &mut self.saved {
            saved.clone_from(worker.history());
        }
        worker.exclude_root_move(first);
        for line in 1..self.lines {
            worker.begin_root_search();
            let value = aspiration(worker, shared, depth as i32, self.scores[line]);
            if worker.aborted() {
                break;
            }
            let Some(mv) = worker.best_root_move() else {
                break;
            };
            self.scores[line] = value;
            // The report numbers the line from the exclusions, still this line's.
            report(worker, depth, value, started);
            worker.exclude_root_move(mv);
        }
        worker.clear_excluded();
        if let Some(saved) = &self.saved {
            worker.restore_history(saved);
        }
    }
}
