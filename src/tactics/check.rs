//! Judging a move against a line's task without the engine's score, by trying every move
//! ([`super::exhaustive`]): a `win N` move must leave the opponent lost within N − 1 plies; a
//! `defend` move must leave the opponent no win at once and no forced win within
//! [`DEFEND_PLIES`] plies.
//!
//! The defence is held to a horizon, not to "no forced win at all" (what the tinue solver would
//! judge): a block that loses to a 9- or 13-ply tinue is beyond what a short search sees and
//! beyond what the suite is for (pruning that drops a block or a threat), and a verdict that
//! hung on the solver's budget would move whenever the solver changes.

use super::exhaustive::{loses_within, wins_within};
use super::suite::{Task, MAX_WIN_PLIES};
use crate::core::{GameResult, Move, MoveList, Position};

/// A defence must leave the opponent no forced win within this many plies: the suite's longest
/// win, so a defence is held to what the `win` lines ask the engine to find.
pub const DEFEND_PLIES: u32 = MAX_WIN_PLIES;

/// Whether a move does what its line asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// It does.
    Pass,
    /// It does not, and why.
    Fail(String),
}

impl Check {
    /// Whether the move passed.
    pub fn passed(&self) -> bool {
        *self == Check::Pass
    }
}

/// Whether `mv`, played in `pos` (a game not over), does what `task` asks.
///
/// ```
/// use menhir::core::Position;
/// use menhir::tactics::{check_move, Check, Task};
/// let pos = Position::from_tps("x3/1,2,x/1,2,x 1 3").unwrap();
/// let road = pos.parse_move("a3").unwrap();
/// assert_eq!(check_move(&pos, Task::Win(1), road), Check::Pass);
/// let other = pos.parse_move("c3").unwrap();
/// assert!(!check_move(&pos, Task::Win(1), other).passed());
/// ```
pub fn check_move(pos: &Position, task: Task, mv: Move) -> Check {
    let mut after = pos.clone();
    if after.result().is_some() || !after.is_legal(mv) {
        return Check::Fail(format!("{} is not a legal move here", mv.to_ptn()));
    }
    let me = after.to_move();
    after.do_move(mv);
    if let Some(result) = after.result() {
        return match (result.winner(), task) {
            (Some(winner), _) if winner == me => Check::Pass,
            // A draw loses nothing: a defence may take it.
            (None, Task::Defend) => Check::Pass,
            _ => Check::Fail(format!("it ends the game {result}")),
        };
    }
    match task {
        Task::Win(1) => Check::Fail("it does not win at once".into()),
        Task::Win(plies) if loses_within(&mut after, plies - 1) => Check::Pass,
        Task::Win(plies) => Check::Fail(format!(
            "the opponent is not lost within {} plies after it",
            plies - 1
        )),
        Task::Defend => check_defence(&mut after),
    }
}

/// The opponent, to move in `after`, must not win at once (every reply tried, so a failure
/// names one) and must have no forced win within [`DEFEND_PLIES`].
fn check_defence(after: &mut Position) -> Check {
    let them = after.to_move();
    let mut replies = MoveList::new();
    after.generate_moves(&mut replies);
    for &reply in replies.iter() {
        let undo = after.do_move(reply);
        let wins = after.result().and_then(GameResult::winner) == Some(them);
        after.undo_move(reply, undo);
        if wins {
            return Check::Fail(format!("the opponent wins at once with {}", reply.to_ptn()));
        }
    }
    if wins_within(after, DEFEND_PLIES) {
        return Check::Fail(format!(
            "the opponent forces a win within {DEFEND_PLIES} plies"
        ));
    }
    Check::Pass
}

/// A move that passes `task` in `pos`, if there is one: the suite's own check that a line can
/// be answered. Moves that end the game, then moves that leave a threat to win at once, are
/// tried first, as the likely answers.
pub fn find_answer(pos: &Position, task: Task) -> Option<Move> {
    let mut pos = pos.clone();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut ranked: Vec<(u8, Move)> = moves
        .iter()
        .map(|&mv| {
            let undo = pos.do_move(mv);
            let rank = if pos.result().is_some() {
                0
            } else if pos.opponent_wins_in_one() {
                1
            } else {
                2
            };
            pos.undo_move(mv, undo);
            (rank, mv)
        })
        .collect();
    ranked.sort_by_key(|&(rank, _)| rank);
    ranked
        .into_iter()
        .map(|(_, mv)| mv)
        .find(|&mv| check_move(&pos, task, mv).passed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_defence_must_block_the_threat() {
        // White threatens a1; only a piece there stops the road.
        let pos = Position::from_tps("1,x4/1,x4/1,x4/1,x3,2/x3,2,2 2 5").unwrap();
        for block in ["a1", "Sa1", "Ca1"] {
            let mv = pos.parse_move(block).unwrap();
            assert_eq!(check_move(&pos, Task::Defend, mv), Check::Pass, "{block}");
        }
        let elsewhere = pos.parse_move("c3").unwrap();
        match check_move(&pos, Task::Defend, elsewhere) {
            Check::Fail(why) => assert!(why.contains("wins at once with a1"), "{why}"),
            Check::Pass => panic!("c3 does not defend"),
        }
        assert!(find_answer(&pos, Task::Defend).is_some());
    }

    #[test]
    fn a_fork_is_a_win_in_three_a_quiet_move_is_not() {
        let pos = Position::from_tps("x,1,2/x,x,x/x,x,1 1 10").unwrap();
        let fork = find_answer(&pos, Task::Win(3)).expect("a fork");
        assert_eq!(check_move(&pos, Task::Win(3), fork), Check::Pass);
        assert!(!check_move(&pos, Task::Win(1), fork).passed());
        assert_eq!(find_answer(&pos, Task::Win(1)), None);
        let quiet = pos.parse_move("Sc2").unwrap();
        assert!(!check_move(&pos, Task::Win(3), quiet).passed());
    }

    #[test]
    fn an_illegal_move_fails() {
        let pos = Position::from_tps("x3/1,2,x/1,2,x 1 3").unwrap();
        let occupied = Move::parse_ptn("a1", 3).unwrap();
        assert!(!check_move(&pos, Task::Win(1), occupied).passed());
    }
}
