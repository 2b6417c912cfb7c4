//! A brute-force solver for test oracles: the legal moves as a list, and the exact game value
//! within a number of plies. Independent of the search it judges.

use menhir::core::{Move, MoveList, Position};

/// The legal moves of `pos`.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.to_vec()
}

/// Exact game value for the side to move within `depth` plies (+1 win, 0 draw, -1 loss), or
/// `None` if some line is still open at the horizon.
pub fn solve(pos: &mut Position, depth: u32) -> Option<i32> {
    if let Some(result) = pos.result() {
        return Some(match result.winner() {
            None => 0,
            Some(c) if c == pos.to_move() => 1,
            Some(_) => -1,
        });
    }
    if depth == 0 {
        return None;
    }
    let mut best = -1;
    let mut open = false;
    for mv in legal_moves(pos) {
        let undo = pos.do_move(mv);
        let value = solve(pos, depth - 1).map(|v| -v);
        pos.undo_move(mv, undo);
        match value {
            Some(1) => return Some(1),
            Some(v) => best = best.max(v),
            None => open = true,
        }
    }
    (!open).then_some(best)
}
