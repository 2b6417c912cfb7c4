//! What makes a move a tak: after it, the mover would win at once (`Position::win_in_one`: a
//! road, or a flat ending in its favour) if it moved again.

use crate::core::Position;

/// Whether the side that just moved would win at once (a road, or a flat ending in its favour)
/// if it moved again: what makes an attacker's move a threat.
#[inline]
pub(super) fn threatens_after(pos: &mut Position) -> bool {
    pos.do_null_move();
    let threat = pos.win_in_one().is_some();
    pos.undo_null_move();
    threat
}
