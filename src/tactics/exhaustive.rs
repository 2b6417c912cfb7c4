//! Exact forced wins within a few plies, by trying every move: the oracle the checker judges a
//! `win N` answer with, independent of the search and its pruning.
//!
//! Game endings are the rules' (`Position::result`): roads (the mover wins a double road) and
//! the flat ending with komi. A threefold repetition needs the position twice before, which five
//! plies from a TPS position (no history) cannot give, so it is not looked for.

use crate::core::{MoveList, Position};

/// Whether the side to move can force the end of the game in its favour within `plies` plies,
/// counting its own moves and the opponent's (1: a win at once).
pub fn wins_within(pos: &mut Position, plies: u32) -> bool {
    if plies == 0 || pos.result().is_some() {
        return false;
    }
    if pos.win_in_one().is_some() {
        return true;
    }
    if plies == 1 {
        return false;
    }
    let me = pos.to_move();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.iter().any(|&mv| {
        let undo = pos.do_move(mv);
        let won = match pos.result() {
            Some(result) => result.winner() == Some(me),
            None => loses_within(pos, plies - 1),
        };
        pos.undo_move(mv, undo);
        won
    })
}

/// Whether every move of the side to move lets the opponent force a win, the game ending within
/// `plies` plies counting this move.
pub fn loses_within(pos: &mut Position, plies: u32) -> bool {
    if plies == 0 || pos.result().is_some() {
        return false;
    }
    let me = pos.to_move();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    // Blocks first: a move onto a square where the opponent would complete a road is the likely
    // refutation, and one refutation ends the loop.
    let threats = pos.road_squares(!me);
    moves
        .as_mut_slice()
        .sort_by_key(|mv| !(mv.is_placement() && threats.contains(mv.square())));
    moves.iter().all(|&mv| {
        let undo = pos.do_move(mv);
        let lost = match pos.result() {
            Some(result) => result.winner() == Some(!me),
            None => wins_within(pos, plies - 1),
        };
        pos.undo_move(mv, undo);
        lost
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fork_wins_in_three_and_not_in_one() {
        // White plays b1 (or a1…): two completing squares, Black blocks one.
        let mut pos = Position::from_tps("x,1,2/x,x,x/x,x,1 1 10").unwrap();
        assert!(!wins_within(&mut pos, 1));
        assert!(!wins_within(&mut pos, 2));
        assert!(wins_within(&mut pos, 3));
        assert_eq!(pos.to_tps(), "x,1,2/x3/x2,1 1 10");
    }

    #[test]
    fn a_double_threat_is_lost_for_the_defender() {
        let mut pos = Position::from_tps("1,1,x3/1,1,x3/1,1,x3/1,1,x2,2/x3,2,2 2 9").unwrap();
        assert!(loses_within(&mut pos, 2));
        assert!(!loses_within(&mut pos, 1));
        // One threat only: a block holds.
        let mut one = Position::from_tps("1,x4/1,x4/1,x4/1,x3,2/x3,2,2 2 5").unwrap();
        assert!(!loses_within(&mut one, 2));
    }

    #[test]
    fn the_last_empty_square_wins_on_flats() {
        // Full but for c1; White placing there ends the game one flat ahead, with no road.
        let mut pos = Position::from_tps("1,1,2/1,1,2/2,2,x 1 5").unwrap();
        assert!(pos.road_win().is_none());
        assert!(pos.win_in_one().is_some());
        pos.set_half_komi(8);
        assert!(pos.win_in_one().is_none());
    }
}
