//! The staged move picker: table move, killers, then the rest by the policy's score plus
//! history.
//!
//! Road wins never reach the picker: the search takes a road in one before it orders anything.
//! The rest are generated once into the ply's buffer, scored and packed as `score << 16 | move`
//! in a `u64`, so one integer sort orders them; the first few picks use selection instead, as a
//! cutoff usually comes early and then sorting would be wasted.

use super::history::History;
use super::policy::{score_moves, PolicyContext, PolicyWeights};
use crate::core::{Bitboard, Move, MoveList, Position};

/// Where the picker is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// The transposition-table move, if legal.
    TableMove,
    /// The killer moves of this ply, if legal.
    Killers,
    /// Generating and scoring the remaining moves.
    Generate,
    /// Handing out the remaining moves, best first.
    Rest,
    /// Nothing left.
    Done,
}

/// Selection picks before the remaining moves are sorted at once.
const SELECTION_PICKS: usize = 4;
const SCORE_OFFSET: i64 = 1 << 30;
/// Placements on a square that stops the opponent's road in one come before everything else.
const BLOCK_BONUS: i32 = 20_000;

/// A move picker for one node; the buffers belong to the ply's frame.
pub struct MovePicker {
    stage: Stage,
    table_move: Move,
    killers: [Move; 2],
    killer_index: usize,
    /// Squares the opponent would complete a road on: placements there come first.
    hot: Bitboard,
    /// The move that led here (`Move::NULL` when unknown), a policy input.
    last: Move,
    next: usize,
    sorted: bool,
}

impl MovePicker {
    /// A picker for a node with the given table move, killers, hot squares and last move.
    pub fn new(table_move: Move, killers: [Move; 2], hot: Bitboard, last: Move) -> MovePicker {
        MovePicker {
            stage: Stage::TableMove,
            table_move,
            killers,
            killer_index: 0,
            hot,
            last,
            next: 0,
            sorted: false,
        }
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The next move, or `None` when all were handed out.
    pub fn next(
        &mut self,
        pos: &Position,
        moves: &mut MoveList,
        keys: &mut Vec<u64>,
        history: &History,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::Killers;
                    if self.table_move != Move::NULL && pos.is_legal(self.table_move) {
                        return Some(self.table_move);
                    }
                    self.table_move = Move::NULL;
                }
                Stage::Killers => {
                    if self.killer_index >= 2 {
                        self.stage = Stage::Generate;
                        continue;
                    }
                    let k = self.killers[self.killer_index];
                    self.killer_index += 1;
                    if k != Move::NULL && k != self.table_move && pos.is_legal(k) {
                        return Some(k);
                    }
                    // A killer that is not played here is not skipped later.
                    self.killers[self.killer_index - 1] = Move::NULL;
                }
                Stage::Generate => {
                    moves.clear();
                    pos.generate_moves(moves);
                    keys.clear();
                    let ctx = PolicyContext::new(pos, self.last);
                    let weights = PolicyWeights::builtin(pos.size());
                    let me = pos.to_move();
                    score_moves(pos, &ctx, weights, moves.as_slice(), |mv, policy| {
                        if mv == self.table_move || self.killers.contains(&mv) {
                            return;
                        }
                        let block = if mv.is_placement() && self.hot.contains(mv.square()) {
                            BLOCK_BONUS
                        } else {
                            0
                        };
                        let score = (policy + block) as i64 + history.score(me, mv) as i64;
                        keys.push((((score + SCORE_OFFSET) as u64) << 16) | mv.to_bits() as u64);
                    });
                    self.stage = Stage::Rest;
                }
                Stage::Rest => {
                    if self.next >= keys.len() {
                        self.stage = Stage::Done;
                        continue;
                    }
                    if self.next < SELECTION_PICKS {
                        let best = (self.next..keys.len())
                            .max_by_key(|&i| keys[i])
                            .expect("non-empty");
                        keys.swap(self.next, best);
                    } else if !self.sorted {
                        keys[self.next..].sort_unstable_by(|a, b| b.cmp(a));
                        self.sorted = true;
                    }
                    let mv = Move::from_bits(keys[self.next] as u16);
                    self.next += 1;
                    return Some(mv);
                }
                Stage::Done => return None,
            }
        }
    }
}
