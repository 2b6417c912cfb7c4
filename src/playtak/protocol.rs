//! The lines of the playtak server protocol (playtak-api `server/README.md`), parsed into
//! [`ServerLine`] and written from [`Seek`]. Only what a bot needs is parsed; every other line
//! is [`ServerLine::Other`], and a line that starts like a known message but is truncated or
//! garbled is [`ServerLine::Bad`] with the reason, never a panic.

use crate::core::Color;

/// A colour choice in a seek: `W`, `B` or `A` (any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekColor {
    /// The seeker plays White.
    White,
    /// The seeker plays Black.
    Black,
    /// Either, the server draws lots.
    Any,
}

impl SeekColor {
    /// The protocol letter.
    pub fn letter(self) -> &'static str {
        match self {
            SeekColor::White => "W",
            SeekColor::Black => "B",
            SeekColor::Any => "A",
        }
    }

    /// From the protocol letter (or `white`/`black`/`any`).
    pub fn parse(text: &str) -> Option<SeekColor> {
        match text.to_ascii_lowercase().as_str() {
            "w" | "white" => Some(SeekColor::White),
            "b" | "black" => Some(SeekColor::Black),
            "a" | "any" | "random" => Some(SeekColor::Any),
            _ => None,
        }
    }
}

/// A seek's settings: ours to post, or another player's from `Seek new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Board size.
    pub size: usize,
    /// Time per player in seconds.
    pub time_s: u32,
    /// Increment per move in seconds.
    pub increment_s: u32,
    /// The seeker's colour.
    pub color: SeekColor,
    /// Komi in half flats (0 to 8 on the server).
    pub half_komi: i32,
    /// Stones per player.
    pub pieces: u32,
    /// Capstones per player.
    pub capstones: u32,
    /// Whether the game is unrated.
    pub unrated: bool,
    /// Whether it is a tournament game.
    pub tournament: bool,
    /// The only player allowed to accept; empty for anyone.
    pub opponent: String,
}

impl Seek {
    /// The `Seek` command (the README's V2 form: size, time, increment, colour, komi, pieces,
    /// capstones, unrated, tournament, opponent; a blank opponent lets anyone join).
    pub fn command(&self) -> String {
        format!(
            "Seek {} {} {} {} {} {} {} {} {} {}",
            self.size,
            self.time_s,
            self.increment_s,
            self.color.letter(),
            self.half_komi,
            self.pieces,
            self.capstones,
            u8::from(self.unrated),
            u8::from(self.tournament),
            self.opponent
        )
    }
}

/// A seek on the server's list (`Seek new`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedSeek {
    /// The seek number to `Accept`.
    pub id: u64,
    /// Who posted it.
    pub name: String,
    /// Its settings.
    pub seek: Seek,
}

/// The start of a game (`Game Start`), also sent again when a player logs back in while the
/// game is still running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStart {
    /// Game number, used in every `Game#N` line.
    pub id: u64,
    /// Board size.
    pub size: usize,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Our colour.
    pub color: Color,
    /// Time per player in seconds.
    pub time_s: u32,
    /// Komi in half flats (0 when the server leaves it out).
    pub half_komi: i32,
    /// Stones per player, when the server gives it.
    pub pieces: Option<u32>,
    /// Capstones per player, when the server gives it.
    pub capstones: Option<u32>,
}

/// One line from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerLine {
    /// `Welcome!` (connected) or `Login or Register`.
    Greeting,
    /// `Welcome NAME!`: logged in as NAME.
    LoggedIn(String),
    /// `Authentication failure` or another login refusal.
    LoginFailed(String),
    /// `Game Start ...`.
    GameStart(GameStart),
    /// `Game#N P ...` or `Game#N M ...`: a move (the opponent's, or any during a resume).
    Move(u64, String),
    /// `Game#N Time W B` (seconds) or `Game#N Timems W B`: both clocks in milliseconds.
    Time(u64, u64, u64),
    /// `Game#N Over RESULT`.
    Over(u64, String),
    /// `Game#N Abandoned. NAME quit`.
    Abandoned(u64, String),
    /// `Game#N OfferDraw`.
    OfferDraw(u64),
    /// `Game#N RemoveDraw`.
    RemoveDraw(u64),
    /// `Game#N RequestUndo`.
    RequestUndo(u64),
    /// `Game#N RemoveUndo`.
    RemoveUndo(u64),
    /// `Game#N Undo`: take back the last ply.
    Undo(u64),
    /// `Seek new ...`.
    SeekNew(ListedSeek),
    /// `Seek remove N ...`.
    SeekRemove(u64),
    /// `OK`.
    Ok,
    /// `NOK`: the last command was refused.
    Nok,
    /// `Message TEXT` or `Error TEXT`: logged.
    Message(String),
    /// `Tell <NAME> TEXT` (private) or `Shout <NAME> TEXT` (to everyone): a chat line.
    Chat {
        /// The sender.
        from: String,
        /// What they wrote.
        text: String,
        /// `Tell` rather than `Shout`.
        private: bool,
    },
    /// Anything else the protocol sends that a bot ignores (chat, lists, counts).
    Other(String),
    /// A line that starts like a known message but does not parse: the reason.
    Bad(String),
}

fn num<T: std::str::FromStr>(word: Option<&&str>, what: &str) -> Result<T, String> {
    let word = word.ok_or_else(|| format!("missing {what}"))?;
    word.parse()
        .map_err(|_| format!("{what} '{word}' is not a number"))
}

impl ServerLine {
    /// Parses one line (trailing whitespace ignored).
    ///
    /// ```
    /// use menhir::playtak::ServerLine;
    /// assert_eq!(ServerLine::parse("Game#3 Timems 1000 2000"), ServerLine::Time(3, 1000, 2000));
    /// assert!(matches!(ServerLine::parse("Game#x P A1"), ServerLine::Bad(_)));
    /// ```
    pub fn parse(line: &str) -> ServerLine {
        let line = line.trim_end();
        let words: Vec<&str> = line.split_whitespace().collect();
        let parsed = match words.as_slice() {
            ["Welcome!"] | ["Login", "or", "Register"] => Ok(ServerLine::Greeting),
            ["Welcome", name] if name.ends_with('!') && name.len() > 1 => {
                Ok(ServerLine::LoggedIn(name.trim_end_matches('!').to_string()))
            }
            ["Authentication", "failure", ..] => Ok(ServerLine::LoginFailed(line.to_string())),
            ["OK"] => Ok(ServerLine::Ok),
            ["NOK"] => Ok(ServerLine::Nok),
            ["Message", ..] | ["Error", ..] => Ok(ServerLine::Message(line.to_string())),
            // Sliced after `trim_start`, the line begins with the word itself.
            ["Tell", ..] => parse_chat(&line.trim_start()["Tell".len()..], true),
            ["Shout", ..] => parse_chat(&line.trim_start()["Shout".len()..], false),
            ["Game", "Start", rest @ ..] => parse_game_start(rest).map(ServerLine::GameStart),
            ["Seek", "new", rest @ ..] => parse_seek_new(rest).map(ServerLine::SeekNew),
            ["Seek", "remove", id, ..] => num(Some(id), "seek number").map(ServerLine::SeekRemove),
            [first, rest @ ..] if first.starts_with("Game#") => parse_game_line(first, rest),
            _ => Ok(ServerLine::Other(line.to_string())),
        };
        parsed.unwrap_or_else(|why| ServerLine::Bad(format!("'{line}': {why}")))
    }
}

/// ` <NAME> TEXT` after `Tell` or `Shout` (the server puts the sender in angle brackets).
fn parse_chat(rest: &str, private: bool) -> Result<ServerLine, String> {
    let rest = rest.trim_start();
    let inner = rest
        .strip_prefix('<')
        .ok_or("a chat line needs '<NAME>' first")?;
    let (from, text) = inner
        .split_once('>')
        .ok_or("a chat line's '<NAME' is not closed")?;
    if from.is_empty() || from.contains(char::is_whitespace) {
        return Err(format!("'{from}' is not a sender's name"));
    }
    Ok(ServerLine::Chat {
        from: from.to_string(),
        text: text.trim().to_string(),
        private,
    })
}

fn parse_game_line(first: &str, rest: &[&str]) -> Result<ServerLine, String> {
    let id: u64 = first["Game#".len()..]
        .parse()
        .map_err(|_| format!("'{first}' has no game number"))?;
    Ok(match rest {
        ["P", ..] | ["M", ..] => ServerLine::Move(id, rest.join(" ")),
        ["Time", w, b] => {
            let (w, b): (u64, u64) = (num(Some(w), "time")?, num(Some(b), "time")?);
            ServerLine::Time(id, w * 1000, b * 1000)
        }
        ["Timems", w, b] => ServerLine::Time(id, num(Some(w), "time")?, num(Some(b), "time")?),
        ["Time", ..] | ["Timems", ..] => return Err("a time update needs two clocks".into()),
        ["Over", result] => ServerLine::Over(id, result.to_string()),
        ["Over", ..] => return Err("'Over' needs one result".into()),
        ["Abandoned.", who, ..] => ServerLine::Abandoned(id, who.to_string()),
        ["OfferDraw"] => ServerLine::OfferDraw(id),
        ["RemoveDraw"] => ServerLine::RemoveDraw(id),
        ["RequestUndo"] => ServerLine::RequestUndo(id),
        ["RemoveUndo"] => ServerLine::RemoveUndo(id),
        ["Undo"] => ServerLine::Undo(id),
        _ => ServerLine::Other(format!("{first} {}", rest.join(" "))),
    })
}

/// `Game Start no size white vs black color time [komi pieces capstones [trigger amount]]`
/// (protocol versions 0 and 1, which Menhir asks for).
fn parse_game_start(words: &[&str]) -> Result<GameStart, String> {
    if words.len() < 7 || words[3] != "vs" {
        return Err("expected 'Game Start N SIZE WHITE vs BLACK COLOUR TIME ...'".into());
    }
    let color = match words[5] {
        "white" => Color::White,
        "black" => Color::Black,
        other => return Err(format!("colour '{other}' is neither white nor black")),
    };
    Ok(GameStart {
        id: num(words.first(), "game number")?,
        size: num(words.get(1), "size")?,
        white: words[2].to_string(),
        black: words[4].to_string(),
        color,
        time_s: num(words.get(6), "time")?,
        half_komi: match words.get(7) {
            Some(_) => num(words.get(7), "komi")?,
            None => 0,
        },
        pieces: words
            .get(8)
            .map(|_| num(words.get(8), "pieces"))
            .transpose()?,
        capstones: words
            .get(9)
            .map(|_| num(words.get(9), "capstones"))
            .transpose()?,
    })
}

/// `Seek new no name size time incr W/B/A komi pieces capstones unrated tournament
/// [trigger amount] [opponent]`.
fn parse_seek_new(words: &[&str]) -> Result<ListedSeek, String> {
    if words.len() < 11 {
        return Err("a seek needs at least 11 fields".into());
    }
    let flag = |i: usize, what: &str| -> Result<bool, String> {
        match words[i] {
            "0" => Ok(false),
            "1" => Ok(true),
            other => Err(format!("{what} '{other}' is not 0 or 1")),
        }
    };
    let mut rest = &words[11..];
    // Servers that know extra time send two more numbers before the opponent.
    if rest.len() >= 2 && rest[..2].iter().all(|w| w.parse::<u32>().is_ok()) {
        rest = &rest[2..];
    }
    Ok(ListedSeek {
        id: num(words.first(), "seek number")?,
        name: words[1].to_string(),
        seek: Seek {
            size: num(words.get(2), "size")?,
            time_s: num(words.get(3), "time")?,
            increment_s: num(words.get(4), "increment")?,
            color: SeekColor::parse(words[5])
                .ok_or_else(|| format!("colour '{}' is not W, B or A", words[5]))?,
            half_komi: num(words.get(6), "komi")?,
            pieces: num(words.get(7), "pieces")?,
            capstones: num(words.get(8), "capstones")?,
            unrated: flag(9, "unrated")?,
            tournament: flag(10, "tournament")?,
            opponent: match rest.first() {
                Some(&"0") | None => String::new(),
                Some(name) => name.to_string(),
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_start_both_forms() {
        let g = ServerLine::parse("Game Start 12 6 alice vs menhir black 600 4 30 1 0 0");
        let ServerLine::GameStart(g) = g else {
            panic!("{g:?}")
        };
        assert_eq!(
            (g.id, g.size, g.color, g.time_s, g.half_komi),
            (12, 6, Color::Black, 600, 4)
        );
        assert_eq!((g.pieces, g.capstones), (Some(30), Some(1)));
        let ServerLine::GameStart(old) = ServerLine::parse("Game Start 1 5 a vs b white 180")
        else {
            panic!()
        };
        assert_eq!((old.half_komi, old.pieces), (0, None));
    }

    #[test]
    fn seeks_with_and_without_extra_time() {
        let ServerLine::SeekNew(s) = ServerLine::parse("Seek new 4 bob 5 180 5 A 2 21 1 0 0 0 0 ")
        else {
            panic!()
        };
        assert_eq!(
            (s.id, s.name.as_str(), s.seek.opponent.as_str()),
            (4, "bob", "")
        );
        let ServerLine::SeekNew(s) =
            ServerLine::parse("Seek new 4 bob 5 180 5 W 2 21 1 1 0 menhir")
        else {
            panic!()
        };
        assert_eq!((s.seek.unrated, s.seek.opponent.as_str()), (true, "menhir"));
        let seek = s.seek.clone();
        assert_eq!(seek.command(), "Seek 5 180 5 W 2 21 1 1 0 menhir");
    }

    #[test]
    fn chat_lines_name_their_sender() {
        assert_eq!(
            ServerLine::parse("Tell <alice> size 5  clock 10+5"),
            ServerLine::Chat {
                from: "alice".into(),
                text: "size 5  clock 10+5".into(),
                private: true
            }
        );
        assert_eq!(
            ServerLine::parse("Shout <Guest12> MenhirBot: help"),
            ServerLine::Chat {
                from: "Guest12".into(),
                text: "MenhirBot: help".into(),
                private: false
            }
        );
        assert_eq!(
            ServerLine::parse("Shout <Server> <Server: You have been muted>"),
            ServerLine::Chat {
                from: "Server".into(),
                text: "<Server: You have been muted>".into(),
                private: false
            }
        );
        // Our own message confirmed, and other rooms: not for the bot.
        assert!(matches!(
            ServerLine::parse("Told <alice> hi"),
            ServerLine::Other(_)
        ));
        assert!(matches!(
            ServerLine::parse("ShoutRoom lobby <bob> hi"),
            ServerLine::Other(_)
        ));
    }

    #[test]
    fn truncated_and_garbled_lines_are_bad_not_panics() {
        for line in [
            "Game Start",
            "Game Start 1 5 a vs b purple 180",
            "Game Start x 5 a vs b white 180",
            "Game#1 Time 5",
            "Game#1 Timems a b",
            "Game#one P A1",
            "Seek new 1 bob",
            "Seek new 1 bob 5 180 5 Q 0 21 1 0 0",
            "Seek remove x",
            "Game#2 Over",
            "Tell",
            "Tell alice hi",
            "Tell <alice hi",
            "Shout <> hi",
            "Shout < bob> hi",
            "\u{3000}Tell <a",
        ] {
            assert!(
                matches!(ServerLine::parse(line), ServerLine::Bad(_)),
                "{line}"
            );
        }
        assert!(matches!(
            ServerLine::parse("\u{1}\u{2}zz"),
            ServerLine::Other(_)
        ));
        assert!(matches!(ServerLine::parse(""), ServerLine::Other(_)));
    }
}
