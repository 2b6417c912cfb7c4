//! Re-walking a proof the search reports: from the table's proven children, with the real rules
//! at every step (every defence tried, repetitions judged from the game's history), the length
//! of the forcing line and the line itself. Runs once per verdict, so it may allocate.

use super::table::Table;
use super::{FREE_FIRST_MOVE, MAX_DEPTH};
use crate::core::{Color, Move, MoveList, Position};
use fxhash::{FxHashMap, FxHashSet};

/// The solver's table as the walk reads it: the entries, whose side attacks, and the key mask
/// of that side's search.
pub(super) struct ProvenTable<'a> {
    pub table: &'a Table,
    pub attacker: Color,
    pub key_mask: u64,
    /// Whether that search let the attacker's first move be any move.
    pub free_first: bool,
}

impl ProvenTable<'_> {
    /// The table key of the position `depth` plies from the root.
    fn key(&self, pos: &Position, depth: usize) -> u64 {
        let salt = if depth == 0 && self.free_first {
            FREE_FIRST_MOVE
        } else {
            0
        };
        pos.hash() ^ self.key_mask ^ salt
    }
}

/// Plies to the end and the move that achieves it (the attacker's fastest proven move, or the
/// defender's longest-resisting one); `None` when the table holds no complete proof.
type Memo = FxHashMap<u64, Option<(u32, Move)>>;

/// The proven length from `pos` and the forcing line, or `None` if the table does not hold a
/// proof that survives the walk.
pub(super) fn line(solver: &ProvenTable, pos: &mut Position) -> Option<(u32, Vec<Move>)> {
    let mut walk = Walk {
        solver,
        memo: Memo::default(),
        on_path: FxHashSet::default(),
        cuts: 0,
    };
    let plies = walk.length(pos, 0)?;
    let mut pv = Vec::new();
    let mut undos = Vec::new();
    while let Some(Some((_, mv))) = walk.memo.get(&solver.key(pos, pv.len())).copied() {
        pv.push(mv);
        undos.push((mv, pos.do_move(mv)));
        if pos.result().is_some() {
            break;
        }
        if pos.to_move() == solver.attacker {
            if let Some(win) = pos.win_in_one() {
                pv.push(win);
                break;
            }
        }
    }
    for (mv, undo) in undos.into_iter().rev() {
        pos.undo_move(mv, undo);
    }
    Some((plies, pv))
}

struct Walk<'a> {
    solver: &'a ProvenTable<'a>,
    memo: Memo,
    on_path: FxHashSet<u64>,
    /// Lines cut for reasons of the path, not the position (a position already on the path,
    /// a repetition, the depth limit). A "no proof" reached through a cut holds on this path
    /// only, so it is not remembered: remembered, it refused a proof the same position has by
    /// another path (a proof the search had found came out "unknown").
    cuts: u64,
}

impl Walk<'_> {
    fn proven(&self, pos: &Position) -> bool {
        self.solver
            .table
            .get(self.solver.key(pos, 1))
            .is_some_and(|e| e.pn == 0)
    }

    fn length(&mut self, pos: &mut Position, depth: usize) -> Option<u32> {
        let key = self.solver.key(pos, depth);
        if let Some(known) = self.memo.get(&key) {
            return known.map(|(plies, _)| plies);
        }
        if depth > MAX_DEPTH || !self.on_path.insert(key) {
            self.cuts += 1;
            return None;
        }
        let cuts_before = self.cuts;
        let attacker = self.solver.attacker;
        let or_node = pos.to_move() == attacker;
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let mut best: Option<(u32, Move)> = None;
        for &mv in moves.iter() {
            let undo = pos.do_move(mv);
            let plies = if let Some(result) = pos.result() {
                (result.winner() == Some(attacker)).then_some(1)
            } else if pos.is_threefold() {
                self.cuts += 1;
                None
            } else if !or_node && pos.win_in_one().is_some() {
                Some(2)
            } else if self.proven(pos)
                && (!or_node
                    || (depth == 0 && self.solver.free_first)
                    || pos.opponent_wins_in_one())
            {
                self.length(pos, depth + 1).map(|n| n + 1)
            } else {
                None
            };
            pos.undo_move(mv, undo);
            if or_node {
                if let Some(n) = plies {
                    if best.is_none_or(|(b, _)| n < b) {
                        best = Some((n, mv));
                    }
                }
            } else {
                match plies {
                    None => {
                        best = None;
                        break;
                    }
                    Some(n) => {
                        if best.is_none_or(|(b, _)| n > b) {
                            best = Some((n, mv));
                        }
                    }
                }
            }
        }
        self.on_path.remove(&key);
        if best.is_some() || self.cuts == cuts_before {
            self.memo.insert(key, best);
        }
        best.map(|(plies, _)| plies)
    }
}
