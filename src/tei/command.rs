//! TEI command parsing: one input line into a typed [`Command`], or an error saying what is wrong.
//!
//! Parsing checks syntax only (numbers, keywords, field counts); whether a move is legal or a
//! size is supported for the current game is the session's business.

use crate::core::{MAX_SIZE, MIN_SIZE};
use crate::search::Limits;
use std::time::Duration;

/// Where a `position` command starts before its moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// The empty board of the current game's size.
    StartPos,
    /// A TPS position: board, player and move number joined by single spaces.
    Tps(String),
}

/// One parsed GUI → engine command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `tei`: identify and list the options.
    Tei,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`; the name may contain spaces.
    SetOption {
        /// The option name as written.
        name: String,
        /// The value, absent for a button.
        value: Option<String>,
    },
    /// `teinewgame [N | size N [halfkomi k]]`.
    NewGame {
        /// Board size; `None` keeps the current size.
        size: Option<usize>,
        /// Komi in half flats, if given.
        half_komi: Option<i32>,
    },
    /// `position startpos|tps <board> <player> <move> [moves m1 m2 …]`.
    Position {
        /// The root.
        start: Start,
        /// The moves as written, not yet checked.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Limits),
    /// `go solved [movetime N] [nodes N]`: the tinue solver instead of the search.
    GoSolved(Limits),
    /// `stop`.
    Stop,
    /// `ponderhit`: accepted and ignored, as `go ponder` is searched as a normal search.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: Menhir's debug command, prints the current position as an `info string` line.
    Show,
}

/// Parses one line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&word, args)) = tokens.split_first() else {
        return Ok(None);
    };
    // Words after a command that takes none are ignored, as the PTN Ninja spec asks.
    let no_args = |cmd: Command| -> Result<Command, String> {
        if !args.is_empty() {
            log::debug!("'{word}': ignoring '{}'", args.join(" "));
        }
        Ok(cmd)
    };
    let command = match word {
        "tei" => no_args(Command::Tei)?,
        "isready" => no_args(Command::IsReady)?,
        "setoption" => parse_setoption(args)?,
        "teinewgame" => parse_newgame(args)?,
        "position" => parse_position(args)?,
        "go" if args.contains(&"solved") => Command::GoSolved(parse_go(args)?),
        "go" => Command::Go(parse_go(args)?),
        "stop" => no_args(Command::Stop)?,
        "ponderhit" => no_args(Command::PonderHit)?,
        "quit" => no_args(Command::Quit)?,
        "d" => no_args(Command::Show)?,
        _ => return Err(format!("unknown command '{word}'")),
    };
    Ok(Some(command))
}

/// `name <words…> [value <words…>]`: words between the keywords are joined by single spaces.
fn parse_setoption(args: &[&str]) -> Result<Command, String> {
    let usage = "expected 'setoption name <name> [value <value>]'";
    let Some(("name", rest)) = args.split_first().map(|(w, r)| (*w, r)) else {
        return Err(format!("setoption: {usage}"));
    };
    let value_at = rest.iter().position(|&w| w == "value");
    let (name_words, value_words) = match value_at {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if name_words.is_empty() {
        return Err(format!("setoption: the option name is missing; {usage}"));
    }
    let value = match value_words {
        Some([]) => return Err(format!("setoption: the value is missing; {usage}")),
        Some(words) => Some(words.join(" ")),
        None => None,
    };
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

/// `teinewgame N`, `teinewgame size N [halfkomi k]` (keywords in any order), or bare.
fn parse_newgame(args: &[&str]) -> Result<Command, String> {
    let mut size = None;
    let mut half_komi = None;
    match args {
        [] => {}
        [n] => size = Some(parse_size(n)?),
        _ => {
            let mut rest = args;
            while let [key, tail @ ..] = rest {
                let Some((value, tail)) = tail.split_first() else {
                    return Err(format!("teinewgame: '{key}' needs a value"));
                };
                match *key {
                    "size" => size = Some(parse_size(value)?),
                    "halfkomi" => half_komi = Some(parse_half_komi(value)?),
                    _ => {
                        return Err(format!(
                            "teinewgame: unexpected '{key}'; expected 'teinewgame <size>' or \
                             'teinewgame size <N> [halfkomi <k>]'"
                        ))
                    }
                }
                rest = tail;
            }
        }
    }
    Ok(Command::NewGame { size, half_komi })
}

fn parse_size(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => Ok(n),
        Ok(n) => Err(format!(
            "board size {n} is not supported (sizes {MIN_SIZE} to {MAX_SIZE})"
        )),
        Err(_) => Err(format!("board size '{text}' is not a number")),
    }
}

pub use crate::core::HALF_KOMI_RANGE;

/// Parses a half-komi value within [`HALF_KOMI_RANGE`].
pub fn parse_half_komi(text: &str) -> Result<i32, String> {
    match text.parse::<i32>() {
        Ok(k) if HALF_KOMI_RANGE.contains(&k) => Ok(k),
        Ok(k) => Err(format!(
            "half-komi {k} is out of range ({} to {})",
            HALF_KOMI_RANGE.start(),
            HALF_KOMI_RANGE.end()
        )),
        Err(_) => Err(format!("half-komi '{text}' is not an integer")),
    }
}

fn parse_position(args: &[&str]) -> Result<Command, String> {
    let usage = "expected 'position startpos|tps <board> <player> <move> [moves …]'";
    let (start, rest) = match args {
        ["startpos", rest @ ..] => (Start::StartPos, rest),
        ["tps", board, player, number, rest @ ..] if !is_moves(board, player, number) => {
            (Start::Tps(format!("{board} {player} {number}")), rest)
        }
        ["tps", ..] => {
            return Err(format!(
                "position: a TPS needs 3 fields (board, player, move number); {usage}"
            ))
        }
        [] => return Err(format!("position: nothing given; {usage}")),
        [other, ..] => return Err(format!("position: unexpected '{other}'; {usage}")),
    };
    let moves = match rest {
        [] => Vec::new(),
        ["moves", moves @ ..] => moves.iter().map(|m| m.to_string()).collect(),
        [other, ..] => return Err(format!("position: expected 'moves', got '{other}'")),
    };
    Ok(Command::Position { start, moves })
}

/// Whether the word `moves` sits among the three TPS fields (so the TPS is too short).
fn is_moves(board: &str, player: &str, number: &str) -> bool {
    [board, player, number].contains(&"moves")
}

/// `go` as an unordered list of key/value pairs and flags; unknown words are ignored.
fn parse_go(args: &[&str]) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut explicit = false;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let takes_value = matches!(
            key,
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "movetime" | "depth" | "nodes"
        );
        if !takes_value {
            match key {
                "infinite" => limits.infinite = true,
                "ponder" | "solved" => {}
                other => log::debug!("go: ignoring unknown token '{other}'"),
            }
            i += 1;
            continue;
        }
        let Some(&text) = args.get(i + 1) else {
            return Err(format!("go: '{key}' needs a number"));
        };
        let n = parse_count(text)
            .ok_or_else(|| format!("go: '{key} {text}': '{text}' is not an integer"))?;
        let ms = Some(Duration::from_millis(n));
        match key {
            "wtime" => limits.wtime = ms,
            "btime" => limits.btime = ms,
            "winc" => limits.winc = ms,
            "binc" => limits.binc = ms,
            "movetime" => limits.movetime = ms,
            "movestogo" => limits.movestogo = Some(n.clamp(1, u32::MAX as u64) as u32),
            // Depth 0 or node count 0 would leave no move to play: search at least a little.
            "depth" => limits.depth = Some(n.clamp(1, u32::MAX as u64) as u32),
            "nodes" => limits.nodes = Some(n.max(1)),
            _ => unreachable!("key list above"),
        }
        if key != "movestogo" && key != "winc" && key != "binc" {
            explicit = true;
        }
        i += 2;
    }
    // A bare `go` (nothing that bounds the search) is infinite, as the PTN Ninja spec says.
    if !explicit {
        limits.infinite = true;
    }
    Ok(limits)
}

/// A `go` number: an integer of any length, saturated to `u64`. Some GUIs send a negative clock
/// when a player is over time: it reads as zero.
fn parse_count(text: &str) -> Option<u64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if negative {
        0
    } else {
        digits.parse::<u64>().unwrap_or(u64::MAX)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn blank_lines_are_nothing() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse(" \t \r").unwrap(), None);
    }

    #[test]
    fn setoption_joins_words_between_keywords() {
        assert_eq!(
            ok("setoption name Half Komi value 4"),
            Command::SetOption {
                name: "Half Komi".into(),
                value: Some("4".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(parse("setoption HalfKomi 4").is_err());
        assert!(parse("setoption name value 4").is_err());
        assert!(parse("setoption name HalfKomi value").is_err());
    }

    #[test]
    fn newgame_forms() {
        let game = |size, half_komi| Command::NewGame { size, half_komi };
        assert_eq!(ok("teinewgame 6"), game(Some(6), None));
        assert_eq!(ok("teinewgame size 7 halfkomi -3"), game(Some(7), Some(-3)));
        assert_eq!(ok("teinewgame halfkomi 4 size 3"), game(Some(3), Some(4)));
        assert_eq!(ok("teinewgame size 8"), game(Some(8), None));
        assert_eq!(ok("teinewgame"), game(None, None));
        assert!(parse("teinewgame 9").is_err());
        assert!(parse("teinewgame 2").is_err());
        assert!(parse("teinewgame five").is_err());
        assert!(parse("teinewgame size 5 halfkomi 11").is_err());
        assert!(parse("teinewgame size 5 halfkomi").is_err());
        assert!(parse("teinewgame size 5 flats 30").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            ok("position startpos moves "),
            Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position  tps\tx5/x5/x5/x5/x5 1  1 moves a1 e5"),
            Command::Position {
                start: Start::Tps("x5/x5/x5/x5/x5 1 1".into()),
                moves: vec!["a1".into(), "e5".into()]
            }
        );
        assert!(parse("position tps x5/x5/x5/x5/x5 1").is_err());
        assert!(parse("position tps x5/x5/x5/x5/x5 1 moves a1").is_err());
        assert!(parse("position startpos a1").is_err());
        assert!(parse("position fen foo").is_err());
        assert!(parse("position").is_err());
    }

    #[test]
    fn go_is_an_unordered_list_of_pairs() {
        let Command::Go(l) = ok("go binc 20 wtime 1000 frobnicate ponder btime -5 winc 10") else {
            panic!()
        };
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.btime, Some(Duration::ZERO));
        assert_eq!(l.winc, Some(Duration::from_millis(10)));
        assert_eq!(l.binc, Some(Duration::from_millis(20)));
        assert!(!l.infinite);
        let Command::Go(l) = ok("go depth 3 nodes 1000 movetime 50") else {
            panic!()
        };
        assert_eq!((l.depth, l.nodes), (Some(3), Some(1000)));
        assert_eq!(l.movetime, Some(Duration::from_millis(50)));
        assert_eq!(
            ok("go"),
            Command::Go(Limits {
                infinite: true,
                ..Limits::default()
            })
        );
        assert_eq!(ok("go infinite"), ok("go"));
        assert!(parse("go depth").is_err());
        assert!(parse("go depth x").is_err());
    }

    #[test]
    fn unknown_commands_are_errors_extra_words_are_not() {
        assert!(parse("uci").is_err());
        assert!(parse("Tei").is_err());
        assert_eq!(ok("isready now"), Command::IsReady);
    }
}
