//! `menhir report FILE.ptn…`: sums up PTN game files (Menhir's match output, the shards of a
//! sharded match, a Racetrack tournament) with the match's own tally, one summary per engine
//! pair, exactly as `menhir match` prints it at the end. Games that cannot be read are
//! counted and named by file and game number, never dropped in silence. The command line
//! (reading the files, printing, the exit status) is `commands/report.rs`.

use super::record::{read_game, ReadGame};
use super::stats::Sprt;
use super::tally::Tally;
use crate::core::GameRecord;
use std::fmt::Write;

/// What a report found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The text printed on stdout.
    pub text: String,
    /// Games read and counted.
    pub read: usize,
    /// One line per game (or file) that could not be read: `FILE game N: why`.
    pub skipped: Vec<String>,
}

/// The games of one engine pair, in the order read.
struct Pair {
    games: Vec<ReadGame>,
}

impl Pair {
    fn of(&self, game: &ReadGame) -> bool {
        let mut mine = self.games[0].players.clone();
        let mut theirs = game.players.clone();
        mine.sort();
        theirs.sort();
        mine == theirs
    }

    /// The tally, the first engine being White of the pair's lowest `Round` (the first game
    /// read when no round is numbered): as in the match, whose game 1 has the first
    /// `--engine` as White.
    fn tally(&self) -> Tally {
        let first = self
            .games
            .iter()
            .enumerate()
            .min_by_key(|(order, g)| (g.round.unwrap_or(u64::MAX), *order))
            .map(|(_, g)| g.players.clone())
            .expect("a pair has a game");
        let mut tally = Tally::new(first.clone());
        for game in &self.games {
            let white = usize::from(game.players[0] != first[0]);
            tally.add_result(white, game.result, game.termination, game.points);
        }
        tally
    }
}

/// The report of `inputs`, each a file name and its text (or why it could not be read).
pub fn report(inputs: &[(String, Result<String, String>)], sprt: Option<&Sprt>) -> Report {
    let mut pairs: Vec<Pair> = Vec::new();
    let mut skipped = Vec::new();
    let mut read = 0;
    for (name, text) in inputs {
        let text = match text {
            Ok(text) => text,
            Err(why) => {
                skipped.push(format!("{name}: {why}"));
                continue;
            }
        };
        for (index, record) in GameRecord::parse_each(text).into_iter().enumerate() {
            let game = match record.and_then(|r| read_game(&r)) {
                Ok(game) => game,
                Err(why) => {
                    skipped.push(format!("{name} game {}: {why}", index + 1));
                    continue;
                }
            };
            read += 1;
            match pairs.iter_mut().find(|p| p.of(&game)) {
                Some(pair) => pair.games.push(game),
                None => pairs.push(Pair { games: vec![game] }),
            }
        }
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Read {read} games from {} file(s), {} engine pair(s); skipped {}{}",
        inputs.len(),
        pairs.len(),
        skipped.len(),
        if skipped.is_empty() { "" } else { ":" }
    );
    for line in &skipped {
        let _ = writeln!(text, "  {line}");
    }
    for pair in &pairs {
        let tally = pair.tally();
        let _ = writeln!(text);
        let _ = write!(text, "{}", tally.summary(sprt));
    }
    Report {
        text,
        read,
        skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str, text: &str) -> (String, Result<String, String>) {
        (name.to_string(), Ok(text.to_string()))
    }

    /// A 3×3 game between `white` (Player1) and `black`.
    fn game(round: u32, white: &str, black: &str, moves: &str, result: &str) -> String {
        format!(
            "[Player1 \"{white}\"]\n[Player2 \"{black}\"]\n[Round \"{round}\"]\n[Size \"3\"]\n\
             [Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    }

    /// White's road up the a-file (the first two plies place the opponent's flats).
    const ROAD: &str = "1. c3 a1 2. a2 c2 3. a3";

    #[test]
    fn groups_by_pair_and_orders_the_first_engine_by_round() {
        // Round 2 first in the file: b is White there, but a is White of round 1.
        let text = [
            game(2, "b", "a", ROAD, "R-0"),
            game(1, "a", "b", ROAD, "R-0"),
            game(1, "x", "y", ROAD, "R-0"),
        ]
        .concat();
        let report = report(&[input("t.ptn", &text)], None);
        assert_eq!(report.read, 3);
        assert!(report.skipped.is_empty());
        assert!(report
            .text
            .starts_with("Read 3 games from 1 file(s), 2 engine pair(s); skipped 0\n\nGames: 2\n"));
        assert!(report.text.contains("a: W 1 D 0 L 1"), "{}", report.text);
        assert!(report.text.contains("Elo (a vs b)"), "{}", report.text);
        assert!(
            report.text.contains("\nGames: 1\nx: W 1 D 0 L 0"),
            "{}",
            report.text
        );
    }

    #[test]
    fn damaged_games_are_named_and_the_rest_counted() {
        let good = game(1, "a", "b", ROAD, "R-0");
        let text = [
            good.clone(),
            // An illegal ply, a result the board does not show, no result, no Player2.
            game(2, "b", "a", "1. a3 a3", "R-0"),
            game(3, "a", "b", "1. c3 a1 2. a2 c2", "R-0"),
            "[Player1 \"a\"]\n[Player2 \"b\"]\n[Size \"3\"]\n\n1. a3 c1\n\n".to_string(),
            "[Player1 \"a\"]\n[Size \"3\"]\n[Result \"0-1\"]\n\n1. a3 c1 0-1\n\n".to_string(),
            "[Player1 \"a\" oops\n[Size \"3\"]\n\n1. a3 c1 0-1\n\n".to_string(),
            good,
        ]
        .concat();
        let inputs = [
            input("d.ptn", &text),
            (
                "gone.ptn".to_string(),
                Err("cannot read: no such file".into()),
            ),
        ];
        let report = report(&inputs, None);
        assert_eq!(report.read, 2, "{}", report.text);
        let names: Vec<&str> = report
            .skipped
            .iter()
            .map(|l| l.split(':').next().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "d.ptn game 2",
                "d.ptn game 3",
                "d.ptn game 4",
                "d.ptn game 5",
                "d.ptn game 6",
                "gone.ptn"
            ],
            "{}",
            report.text
        );
        assert!(report.text.contains("skipped 6:\n  d.ptn game 2: "));
        assert!(report.skipped[1].contains("the board shows no result"));
        assert!(report.skipped[2].contains("no result"));
        assert!(report.skipped[3].contains("no Player2 tag"));
        assert!(report.skipped[4].contains("bad tag"));
        assert!(report.text.contains("a: W 2 D 0 L 0"), "{}", report.text);
    }

    #[test]
    fn nothing_read_is_nothing_counted() {
        let report = report(&[input("e.ptn", "")], None);
        assert_eq!(report.read, 0);
        assert_eq!(
            report.text,
            "Read 0 games from 1 file(s), 0 engine pair(s); skipped 0\n"
        );
    }
}
