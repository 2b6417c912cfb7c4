//! Perft: counting the positions reached after a number of plies, to check move generation.
//!
//! Convention (published.md): `perft(0) = 1`, and a position whose game is over contributes 0
//! at depth ≥ 1 (it is neither expanded nor counted).

use super::moves::{Move, MoveList};
use super::position::Position;

/// How the last ply is counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PerftMode {
    /// Count the moves of each position at depth 1 without playing them.
    Counting,
    /// Make and unmake every leaf move (measures make/unmake speed).
    Full,
}

/// Reusable move buffers, one per depth, so perft never allocates once warm.
#[derive(Default)]
pub struct Perft {
    buffers: Vec<MoveList>,
}

impl Perft {
    /// A perft runner.
    pub fn new() -> Perft {
        Perft::default()
    }

    /// Counts leaf positions at `depth`.
    ///
    /// ```
    /// use menhir::core::{Perft, PerftMode, Position};
    /// let mut pos = Position::start(5).unwrap();
    /// assert_eq!(Perft::new().count(&mut pos, 3, PerftMode::Counting), 43_320);
    /// ```
    pub fn count(&mut self, pos: &mut Position, depth: usize, mode: PerftMode) -> u64 {
        while self.buffers.len() <= depth {
            self.buffers.push(MoveList::new());
        }
        self.recurse(pos, depth, mode)
    }

    /// The count under each root move, in generation order.
    pub fn divide(
        &mut self,
        pos: &mut Position,
        depth: usize,
        mode: PerftMode,
    ) -> Vec<(Move, u64)> {
        if depth == 0 || pos.result().is_some() {
            return Vec::new();
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let undo = pos.do_move(mv);
                let n = self.count(pos, depth - 1, mode);
                pos.undo_move(mv, undo);
                (mv, n)
            })
            .collect()
    }

    fn recurse(&mut self, pos: &mut Position, depth: usize, mode: PerftMode) -> u64 {
        if depth == 0 {
            return 1;
        }
        if pos.result().is_some() {
            return 0;
        }
        if depth == 1 && mode == PerftMode::Counting {
            return pos.count_moves();
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        moves.clear();
        pos.generate_moves(&mut moves);
        let mut total = 0;
        if depth == 1 {
            for &mv in moves.iter() {
                let undo = pos.do_move(mv);
                debug_assert!(pos.is_consistent());
                pos.undo_move(mv, undo);
                total += 1;
            }
        } else {
            for &mv in moves.iter() {
                let undo = pos.do_move(mv);
                total += self.recurse(pos, depth - 1, mode);
                pos.undo_move(mv, undo);
            }
        }
        self.buffers[depth] = moves;
        total
    }
}
