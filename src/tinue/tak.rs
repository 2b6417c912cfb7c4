//! What makes a move a tak: a win at once (a road, or a flat ending in the mover's favour), and
//! a move after which the mover would have one if it moved again.

use crate::core::{Color, Move, PieceKind, Position};

/// A move that wins at once for the side to move: a road, or the placement that ends the game
/// on flats (the last empty square, or the mover's last piece) with the mover ahead, komi
/// counted. Only placements end a game on flats, so one look at the counts settles it.
#[inline]
pub(super) fn win_in_one(pos: &Position) -> Option<Move> {
    if let Some(mv) = pos.road_win() {
        return Some(mv);
    }
    let me = pos.to_move();
    let empty = pos.empty();
    let pieces = pos.stones(me) + pos.capstones(me);
    if pos.is_opening() || pieces == 0 || (empty.count() != 1 && pieces != 1) {
        return None;
    }
    let sq = empty.first()?;
    let kind = if pos.stones(me) > 0 {
        PieceKind::Flat
    } else {
        PieceKind::Cap
    };
    let (mut white, mut black) = pos.flat_counts();
    if kind == PieceKind::Flat {
        match me {
            Color::White => white += 1,
            Color::Black => black += 1,
        }
    }
    let margin = 2 * (white as i32 - black as i32) - pos.half_komi();
    let winner = match margin.signum() {
        1 => Color::White,
        -1 => Color::Black,
        _ => return None,
    };
    (winner == me).then(|| Move::place(sq, kind))
}

/// Whether the side that just moved would win at once (a road, or a flat ending in its favour)
/// if it moved again: what makes an attacker's move a threat.
#[inline]
pub(super) fn threatens_after(pos: &mut Position) -> bool {
    pos.do_null_move();
    let threat = win_in_one(pos).is_some();
    pos.undo_null_move();
    threat
}
