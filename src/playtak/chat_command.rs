//! What a chat line says to the bot: whether it is addressed to it at all (every private `Tell`;
//! a public `Shout` only when its first word names the bot), and the command in it (help, show,
//! reset, or new settings for the next game: size, clock, colour, strength level). Pure text in, a value out;
//! anything else is an error that quotes at most a short, cleaned piece of the input.

use super::protocol::SeekColor;

/// What the sender asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatCommand {
    /// `help` (or an empty message): what the bot takes.
    Help,
    /// `show`: the next game's settings.
    Show,
    /// `reset`: forget the sender's settings.
    Reset,
    /// New settings for the next game (at least one is given).
    Set(Settings),
}

/// Settings asked for; `None` leaves the current one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Board size.
    pub size: Option<usize>,
    /// Seconds per player.
    pub time_s: Option<u32>,
    /// Seconds added per move.
    pub increment_s: Option<u32>,
    /// The colour the *sender* wants to play.
    pub their_color: Option<SeekColor>,
    /// The bot's strength level.
    pub level: Option<u32>,
}

/// Whether `name` is one a `Tell` can reach: a letter, then 3 to 15 letters, digits or `_` (the
/// server's rule for account names; guests are `GuestN`).
pub fn is_player_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    (4..=16).contains(&bytes.len())
        && bytes[0].is_ascii_alphabetic()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// The command text of a chat line, if the line is for the bot `me`: from a player who is not
/// the bot nor the server, and private, or public with the bot's name first (`Menhir`,
/// `Menhir:`, `Menhir,` or `@Menhir`, any case). A leading `!` is dropped.
pub fn addressed<'a>(me: &str, from: &str, text: &'a str, private: bool) -> Option<&'a str> {
    if me.is_empty()
        || !is_player_name(from)
        || from.eq_ignore_ascii_case(me)
        || from.eq_ignore_ascii_case("Server")
    {
        return None;
    }
    let text = text.trim();
    let command = if private {
        text
    } else {
        let first = text.split_whitespace().next()?;
        let name = first.trim_start_matches('@').trim_end_matches([':', ',']);
        if !name.eq_ignore_ascii_case(me) {
            return None;
        }
        text[first.len()..].trim_start()
    };
    Some(command.trim_start_matches('!').trim())
}

/// A piece of the sender's text fit to quote back: at most 12 characters of letters, digits
/// and `+-:.x`.
pub fn quoted(word: &str) -> String {
    word.chars()
        .filter(|c| c.is_ascii_alphanumeric() || "+-:.x".contains(*c))
        .take(12)
        .collect()
}

/// Parses a command (any case): `help`, `show`, `reset`, or settings such as
/// `size 5 clock 10+5 color white level 3` (also `5x5`, `10+5`, `white` alone; `colour`,
/// `time`, `lvl`).
///
/// ```
/// use menhir::playtak::chat_command::{parse, ChatCommand};
/// let ChatCommand::Set(s) = parse("size 5 clock 10+5").unwrap() else { panic!() };
/// assert_eq!((s.size, s.time_s, s.increment_s), (Some(5), Some(600), Some(5)));
/// assert!(parse("size banana").is_err());
/// ```
pub fn parse(text: &str) -> Result<ChatCommand, String> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    match words.first() {
        None => return Ok(ChatCommand::Help),
        Some(&("help" | "?" | "commands" | "hi" | "hello")) => return Ok(ChatCommand::Help),
        Some(&("show" | "settings" | "next")) => return Ok(ChatCommand::Show),
        Some(&"reset") => return Ok(ChatCommand::Reset),
        Some(_) => {}
    }
    let mut settings = Settings::default();
    let mut rest = words.as_slice();
    while let Some((&word, tail)) = rest.split_first() {
        rest = tail;
        let mut value = || -> Result<&str, String> {
            let (&v, tail) = rest
                .split_first()
                .ok_or_else(|| format!("'{}' needs a value", quoted(word)))?;
            rest = tail;
            Ok(v)
        };
        match word {
            "size" => settings.size = Some(size(value()?)?),
            "color" | "colour" => settings.their_color = Some(color(value()?)?),
            "level" | "lvl" => settings.level = Some(level(value()?)?),
            "clock" | "time" | "tc" => {
                let (time, increment) = clock(value()?)?;
                settings.time_s = Some(time);
                settings.increment_s = Some(increment);
            }
            "white" | "black" | "any" | "random" => settings.their_color = Some(color(word)?),
            _ if word.contains('x') => settings.size = Some(size(word)?),
            _ if word.contains('+') => {
                let (time, increment) = clock(word)?;
                settings.time_s = Some(time);
                settings.increment_s = Some(increment);
            }
            _ => {
                return Err(format!(
                    "'{}' is not a command I know (try: help)",
                    quoted(word)
                ))
            }
        }
    }
    Ok(ChatCommand::Set(settings))
}

/// `5` or `5x5`.
fn size(text: &str) -> Result<usize, String> {
    let number = match text.split_once('x') {
        Some((a, b)) if a == b => a,
        Some(_) => return Err(format!("'{}' is not a square board", quoted(text))),
        None => text,
    };
    number
        .parse()
        .map_err(|_| format!("size '{}' is not a number", quoted(text)))
}

/// A level number (checked against the offered levels by the caller).
fn level(text: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| format!("level '{}' is not a number", quoted(text)))
}

/// The sender's colour: `white`, `black`, or `any`/`random`.
fn color(text: &str) -> Result<SeekColor, String> {
    match text {
        "white" | "w" => Ok(SeekColor::White),
        "black" | "b" => Ok(SeekColor::Black),
        "any" | "random" | "a" | "either" => Ok(SeekColor::Any),
        _ => Err(format!(
            "colour '{}' is not white, black or any",
            quoted(text)
        )),
    }
}

/// `M+S` (minutes, plus seconds a move) or `M` (no increment), as playtak writes clocks.
fn clock(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("clock '{}' is not minutes+seconds, e.g. 10+5", quoted(text));
    let (minutes, increment) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: u32 = minutes.parse().map_err(|_| bad())?;
    let increment: u32 = increment.parse().map_err(|_| bad())?;
    let seconds = minutes.checked_mul(60).ok_or_else(bad)?;
    Ok((seconds, increment))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_lines_are_always_addressed_public_ones_only_by_name() {
        assert_eq!(
            addressed("MenhirBot", "alice", " !size 5 ", true),
            Some("size 5")
        );
        assert_eq!(addressed("MenhirBot", "alice", "", true), Some(""));
        for line in [
            "menhirbot size 5",
            "@MenhirBot: size 5",
            "MENHIRBOT, size 5",
        ] {
            assert_eq!(
                addressed("MenhirBot", "alice", line, false),
                Some("size 5"),
                "{line}"
            );
        }
        for line in ["size 5", "hi MenhirBot", "MenhirBotX size 5", "", "   "] {
            assert_eq!(addressed("MenhirBot", "alice", line, false), None, "{line}");
        }
        // Never itself, the server, or a name a Tell cannot reach.
        assert_eq!(addressed("MenhirBot", "menhirbot", "help", true), None);
        assert_eq!(
            addressed("MenhirBot", "Server", "MenhirBot help", false),
            None
        );
        assert_eq!(addressed("MenhirBot", "bob", "help", true), None);
        assert_eq!(addressed("MenhirBot", "a b", "help", true), None);
        assert_eq!(addressed("", "alice", "help", true), None);
    }

    #[test]
    fn settings_in_any_order_and_either_form() {
        let ChatCommand::Set(s) = parse("Size 6 COLOR black clock 15+10").unwrap() else {
            panic!()
        };
        assert_eq!(
            s,
            Settings {
                size: Some(6),
                time_s: Some(900),
                increment_s: Some(10),
                their_color: Some(SeekColor::Black),
                level: None,
            }
        );
        let ChatCommand::Set(s) = parse("5x5 3+2 white").unwrap() else {
            panic!()
        };
        assert_eq!(
            (s.size, s.time_s, s.increment_s, s.their_color),
            (Some(5), Some(180), Some(2), Some(SeekColor::White))
        );
        let ChatCommand::Set(s) = parse("LEVEL 2 white").unwrap() else {
            panic!()
        };
        assert_eq!((s.level, s.their_color), (Some(2), Some(SeekColor::White)));
        let ChatCommand::Set(s) = parse("time 10").unwrap() else {
            panic!()
        };
        assert_eq!((s.time_s, s.increment_s), (Some(600), Some(0)));
        assert_eq!(parse(""), Ok(ChatCommand::Help));
        assert_eq!(parse("HELP me"), Ok(ChatCommand::Help));
        assert_eq!(parse("show"), Ok(ChatCommand::Show));
        assert_eq!(parse("reset"), Ok(ChatCommand::Reset));
    }

    #[test]
    fn bad_commands_are_errors_that_quote_little() {
        for text in [
            "size",
            "size banana",
            "size 5x6",
            "size 99999999999999999999999",
            "clock 5+",
            "clock +5",
            "clock 1e9",
            "clock 99999999+1",
            "clock 10+5+5",
            "colour purple",
            "level",
            "level three",
            "level -1",
            "play now",
            "\u{1}\u{2}\u{fffd}",
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        ] {
            let error = parse(text).unwrap_err();
            assert!(error.len() < 80, "{text}: {error}");
            assert!(!error.contains(['\u{1}', '\n']), "{text}: {error}");
        }
        assert_eq!(quoted("ab\ncd\u{1}efghijklmnopq"), "abcdefghijkl");
    }
}
