//! PTN output of the match: each finished game as a `GameRecord` with Racetrack's tags
//! (Event, Site, Date, Round, Player1, Player2, Size, Komi, Clock, Result, Termination), and
//! the way back: what `menhir report` counts from such a record, Menhir's or Racetrack's.

use super::clock::TimeControl;
use super::game::{rule_book_points, GameOutcome, Termination};
use super::openings::Opening;
use crate::common::today;
use crate::core::{komi_text, GameRecord, GameResult, RecordResult};

/// What the tags need to know besides the game.
pub struct RecordContext<'a> {
    /// 1-based game number.
    pub round: usize,
    /// White's and Black's names.
    pub players: [&'a str; 2],
    /// Board size.
    pub size: usize,
    /// Komi in half flats.
    pub half_komi: i32,
    /// The time control.
    pub time: TimeControl,
    /// Where the game started.
    pub opening: &'a Opening,
}

/// The PTN record of a finished game.
pub fn game_record(outcome: &GameOutcome, context: &RecordContext) -> GameRecord {
    let mut record = GameRecord::default();
    record.set_tag("Event", "Menhir match");
    record.set_tag("Site", "Menhir");
    record.set_tag("Date", today());
    record.set_tag("Round", context.round.to_string());
    record.set_tag("Player1", context.players[0]);
    record.set_tag("Player2", context.players[1]);
    record.set_tag("Size", context.size.to_string());
    if context.half_komi != 0 {
        record.set_tag("Komi", komi_text(context.half_komi));
    }
    record.set_tag("Clock", context.time.to_string());
    record.set_tag("Result", outcome.result.to_string());
    if !outcome.termination.is_normal() {
        record.set_tag("Termination", &outcome.detail);
    }
    record.start_tps = context.opening.root_tps.clone();
    record.plies = outcome.plies.clone();
    record.result = Some(RecordResult::Game(outcome.result));
    record
}

/// What a report counts of one recorded game.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadGame {
    /// White's and Black's names (`Player1`, `Player2`).
    pub players: [String; 2],
    /// The `Round` tag, when it is a number.
    pub round: Option<u64>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// The winner's rule-book points (0 for a draw).
    pub points: u32,
}

/// Reads back what [`game_record`] wrote, or what Racetrack writes: the players, the result
/// (the movetext's result token, else the `Result` tag; they must agree), how the game ended
/// and its rule-book points, from the final position the moves reach. A road or flat win
/// must be on the board. A draw the board does not show is a repetition when the position
/// occurred three times, else the ply cap; an unfinished game (`*`) with a `Termination`
/// tag is such a draw too (Racetrack's games stopped at its move cap, which it scores as
/// draws). A win by other means takes its kind from the `Termination` tag.
pub fn read_game(record: &GameRecord) -> Result<ReadGame, String> {
    let player = |tag: &str| match record.tag(tag).map(str::trim) {
        Some(name) if !name.is_empty() => Ok(name.to_string()),
        _ => Err(format!("no {tag} tag")),
    };
    let players = [player("Player1")?, player("Player2")?];
    let tag_result = match record.tag("Result").map(str::trim) {
        None | Some("") => None,
        Some(text) => {
            Some(RecordResult::parse(text).ok_or_else(|| format!("bad Result tag '{text}'"))?)
        }
    };
    let result = match (record.result, tag_result) {
        (Some(moves), Some(tag)) if moves != tag => {
            return Err(format!(
                "the Result tag says {tag} but the moves end with {moves}"
            ))
        }
        (Some(result), _) | (None, Some(result)) => result,
        (None, None) => return Err("no result (neither a Result tag nor a result token)".into()),
    };
    let end = record.replay()?;
    let on_board = end.result();
    let draw = || match on_board {
        Some(GameResult::Draw) => Ok(Termination::DrawFlatTie),
        Some(decided) => Err(format!("a draw is recorded but the board shows {decided}")),
        None if end.is_threefold() => Ok(Termination::DrawRepetition),
        None => Ok(Termination::DrawPlyCap),
    };
    let (result, termination) = match result {
        RecordResult::Game(r @ (GameResult::Road(_) | GameResult::Flats(_))) => {
            if on_board != Some(r) {
                let board = on_board.map_or("no result".to_string(), |b| b.to_string());
                return Err(format!("the result is {r} but the board shows {board}"));
            }
            let kind = match r {
                GameResult::Road(_) => Termination::Road,
                _ => Termination::Flats,
            };
            (r, kind)
        }
        RecordResult::Game(GameResult::Draw) => (GameResult::Draw, draw()?),
        RecordResult::Unfinished if record.tag("Termination").is_some() => {
            (GameResult::Draw, draw()?)
        }
        RecordResult::Unfinished => return Err("the game is unfinished (*)".into()),
        RecordResult::DoubleLoss => return Err("0-0 (both lost) scores for nobody".into()),
        RecordResult::Game(r @ GameResult::Other(_)) => {
            (r, forfeit_kind(record.tag("Termination").unwrap_or("")))
        }
    };
    let round = record.tag("Round").and_then(|r| r.trim().parse().ok());
    Ok(ReadGame {
        players,
        round,
        result,
        termination,
        points: rule_book_points(&end, result),
    })
}

/// The kind of fault a `Termination` tag names: Menhir's sentences (game.rs and
/// `EngineError`) and Racetrack's ("White wins on time", "Black made an illegal move",
/// "White sent a malformed move", "Black disconnected or crashed"). Crashes are checked
/// first: their text may quote a `go wtime …` line.
fn forfeit_kind(text: &str) -> Termination {
    let text = text.to_ascii_lowercase();
    if text.contains(" crashed") || text.contains("disconnected") {
        Termination::Crash
    } else if text.contains("illegal move") {
        Termination::IllegalMove
    } else if text.contains("malformed move") {
        Termination::MalformedMove
    } else if text.contains("on time") || text.contains("in time") {
        Termination::Time
    } else {
        Termination::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(tags: &str, moves: &str) -> Result<ReadGame, String> {
        let text = format!("[Player1 \"w\"]\n[Player2 \"b\"]\n[Size \"3\"]\n{tags}\n{moves}\n");
        read_game(&GameRecord::parse(&text).unwrap())
    }

    #[test]
    fn reads_back_results_terminations_and_points() {
        // White's road up the a-file; White has 7 of its 10 stones left: 9 + 7 points.
        let road = read("[Round \"4\"]", "1. c3 a1 2. a2 c2 3. a3 R-0").unwrap();
        assert_eq!(road.players, ["w".to_string(), "b".to_string()]);
        assert_eq!(road.round, Some(4));
        assert_eq!(road.result, GameResult::Road(crate::core::Color::White));
        assert_eq!(road.termination, Termination::Road);
        assert_eq!(road.points, 16);
        // The Result tag alone gives the result; it must agree with the movetext's.
        let tagged = read("[Result \"R-0\"]", "1. c3 a1 2. a2 c2 3. a3").unwrap();
        assert_eq!(tagged.result, road.result);
        let clash = read("[Result \"0-1\"]", "1. c3 a1 2. a2 c2 3. a3 R-0").unwrap_err();
        assert!(clash.contains("the Result tag says 0-1"), "{clash}");
        // A result the board does not show.
        let wrong = read("", "1. c3 a1 2. a2 c2 0-R").unwrap_err();
        assert!(wrong.contains("the board shows no result"), "{wrong}");
        assert!(read("", "1. c3 a1").unwrap_err().contains("no result"));
        assert!(read("", "1. c3 a1 *").unwrap_err().contains("unfinished"));
        assert!(read("", "1. c3 a1 0-0").unwrap_err().contains("0-0"));
    }

    #[test]
    fn draws_are_told_apart_by_the_board() {
        // A flat tie: the last wall fills the board with four flats each.
        let tie = read("[TPS \"1,2,1/2,1,2/1,2,x 1 5\"]", "5. Sc1 1/2-1/2").unwrap();
        assert_eq!(tie.termination, Termination::DrawFlatTie);
        assert_eq!(tie.points, 0);
        // The position after 2... a3 occurs a third time.
        let cycle = "b2> a3- c2< a2+";
        let moves = format!("1. a1 c3 2. b2 a3 {cycle} {cycle} 1/2-1/2");
        let repetition = read("", &moves).unwrap();
        assert_eq!(repetition.termination, Termination::DrawRepetition);
        let capped = read("", "1. a1 c3 2. b2 a3 1/2-1/2").unwrap();
        assert_eq!(capped.termination, Termination::DrawPlyCap);
        // Racetrack leaves games stopped at its move cap unfinished, with a reason.
        let racetrack = read(
            "[Termination \"Game terminated after reaching 500 moves.\"]",
            "1. a1 c3 *",
        );
        assert_eq!(racetrack.unwrap().termination, Termination::DrawPlyCap);
        let decided = read("", "1. c3 a1 2. a2 c2 3. a3 1/2-1/2").unwrap_err();
        assert!(decided.contains("the board shows R-0"), "{decided}");
    }

    #[test]
    fn forfeits_take_their_kind_from_the_termination_tag() {
        for (text, kind) in [
            ("bad made an illegal move: a1", Termination::IllegalMove),
            (
                "bad sent a malformed move: not a move",
                Termination::MalformedMove,
            ),
            (
                "bad lost on time (0.412s used, 0.400s left)",
                Termination::Time,
            ),
            (
                "bad did not answer in time (waiting for bestmove), killed",
                Termination::Time,
            ),
            (
                "bad crashed (cannot write 'go wtime 100 btime 100 winc 0 binc 0': Broken pipe)",
                Termination::Crash,
            ),
            (
                "bad failed to start the game: crashed (end of output)",
                Termination::Crash,
            ),
            ("White wins on time", Termination::Time),
            ("Black made an illegal move", Termination::IllegalMove),
            ("White sent a malformed move", Termination::MalformedMove),
            ("Black disconnected or crashed", Termination::Crash),
            ("Black resigned", Termination::Other),
            ("", Termination::Other),
        ] {
            assert_eq!(forfeit_kind(text), kind, "{text}");
        }
        let tag = "[Termination \"b made an illegal move: a1\"]";
        let forfeit = read(tag, "1. c3 a1 1-0").unwrap();
        assert_eq!(forfeit.result, GameResult::Other(crate::core::Color::White));
        assert_eq!(forfeit.termination, Termination::IllegalMove);
        // 9 squares + 9 stones White has not played.
        assert_eq!(forfeit.points, 18);
        assert_eq!(
            read("", "1. c3 a1 0-1").unwrap().termination,
            Termination::Other
        );
    }
}
