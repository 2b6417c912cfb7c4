//! Road threats as the search sees them: the game core finds roads in one
//! (`Position::road_win`, `Position::road_squares`); this adds the null-move view of the
//! opponent's threats.

use crate::core::Position;

/// Whether the opponent of the side to move would have a road in one if it were their turn.
pub fn opponent_threatens(pos: &mut Position) -> bool {
    pos.do_null_move();
    let threat = pos.road_win().is_some();
    pos.undo_null_move();
    threat
}
