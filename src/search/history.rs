//! Thread-owned move-ordering memory: the history table and killer moves.
//!
//! History is indexed by side to move and a move's shape: a placement by square and kind, a
//! spread by square, direction and pick-up count. Values move toward a bonus with "gravity",
//! so they stay within ±`HISTORY_MAX` without rescaling.

use super::params::{HISTORY_MAX, MAX_PLY};
use crate::core::{Color, Move};

const PLACEMENTS: usize = 64 * 3;
const SLOTS: usize = PLACEMENTS + 64 * 4 * 8;

/// Butterfly-style history for both colours.
#[derive(Clone)]
pub struct History {
    table: Vec<i32>,
    killers: [[Move; 2]; MAX_PLY + 1],
}

#[inline]
fn slot(mv: Move) -> usize {
    let sq = mv.square().index();
    if mv.is_placement() {
        sq * 3 + mv.kind() as usize
    } else {
        PLACEMENTS + (sq * 4 + mv.direction() as usize) * 8 + (mv.count() as usize - 1)
    }
}

impl Default for History {
    fn default() -> History {
        History {
            table: vec![0; 2 * SLOTS],
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
        }
    }
}

impl History {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.table.fill(0);
        self.clear_killers();
    }

    /// Forgets killers (a new search: they belong to plies of the old tree).
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
    }

    /// The history score of `mv` for `color`.
    #[inline]
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        self.table[color.index() * SLOTS + slot(mv)]
    }

    /// Moves the score of `mv` toward `bonus` (positive for a cutoff move, negative for the
    /// moves tried before it).
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.table[color.index() * SLOTS + slot(mv)];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// The two killer moves of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Records a cutoff move at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }
}
