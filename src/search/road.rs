//! Forced blocks as the time manager sees them: the game core finds roads in one and the
//! opponent's threats (`Position::road_win`, `Position::opponent_road_in_one`).

use crate::core::{MoveList, Position};

/// Whether the move from `pos` is forced: the opponent threatens a road, the side to move has
/// none of its own, and every move that leaves the opponent without a road in one is a
/// placement on one and the same square (or no move does). Called once per search, at the root
/// (the time manager spends little on such a move).
pub fn forced_block(pos: &mut Position) -> bool {
    if pos.result().is_some() || pos.road_win().is_some() || !pos.opponent_road_in_one() {
        return false;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut block = None;
    for &mv in moves.as_slice() {
        let undo = pos.do_move(mv);
        let loses = pos.road_win().is_some();
        pos.undo_move(mv, undo);
        if loses {
            continue;
        }
        match (mv.is_placement().then(|| mv.square()), block) {
            (Some(sq), None) => block = Some(sq),
            (Some(sq), Some(first)) if sq == first => {}
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_block_is_forced_a_free_choice_is_not() {
        // White threatens a1 (a road down the a-file); only a placement there blocks it (flat,
        // wall or capstone: one square).
        let mut single = Position::from_tps("1,x4/1,x4/1,x4/1,x3,2/x3,2,2 2 5").unwrap();
        assert!(forced_block(&mut single));
        // Black's stack on b2 can also cover a2: two ways to block, not forced.
        let mut two = Position::from_tps("1,x4/1,x4/1,x4/1,2,x3/x3,2,2 2 5").unwrap();
        assert!(!forced_block(&mut two));
        // No threat: not forced.
        let mut free = Position::from_tps("1,x4/x5/x5/x5/2,x4 2 2").unwrap();
        assert!(!forced_block(&mut free));
        // Two threats on two squares: nothing saves Black; no choice to think about either.
        let mut lost = Position::from_tps("1,1,x3/1,1,x3/1,1,x3/1,1,x2,2/x3,2,2 2 9").unwrap();
        assert!(forced_block(&mut lost));
    }
}
