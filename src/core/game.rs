//! PTN game files (notation.md 2.7): a `GameRecord` of tags, start position, plies with
//! comments and a result; a writer, and a tolerant reader that replays every ply through
//! `Position` so a record that reads back is a legal game.

use super::moves::Move;
use super::piece::Color;
use super::position::Position;
use super::rules::GameResult;
use std::fmt;

/// The result token of a PTN game: a game result, a double loss, or an unfinished game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RecordResult {
    /// A finished game: `R-0`, `0-R`, `F-0`, `0-F`, `1-0`, `0-1` or `1/2-1/2`.
    Game(GameResult),
    /// `0-0`: both players lost (abandoned); PTN Ninja accepts it.
    DoubleLoss,
    /// `*`: the game is not finished.
    Unfinished,
}

impl RecordResult {
    /// Parses a PTN result token.
    ///
    /// ```
    /// use menhir::core::{RecordResult, GameResult, Color};
    /// assert_eq!(RecordResult::parse("0-R"), Some(RecordResult::Game(GameResult::Road(Color::Black))));
    /// assert_eq!(RecordResult::parse("*"), Some(RecordResult::Unfinished));
    /// assert_eq!(RecordResult::parse("2-0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<RecordResult> {
        match text {
            "0-0" => Some(RecordResult::DoubleLoss),
            "*" => Some(RecordResult::Unfinished),
            _ => GameResult::parse(text).map(RecordResult::Game),
        }
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RecordResult::Game(result) => result.fmt(f),
            RecordResult::DoubleLoss => f.write_str("0-0"),
            RecordResult::Unfinished => f.write_str("*"),
        }
    }
}

/// One recorded ply: the move and an optional `{comment}` written after it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordedPly {
    /// The move played.
    pub mv: Move,
    /// Text of the comment after the move, without braces.
    pub comment: Option<String>,
}

/// One game of a PTN file as read: its tags, and the game or why it could not be read.
pub type TaggedGame = (Vec<(String, String)>, Result<GameRecord, String>);

/// A PTN game: ordered tags, an optional start TPS, the plies, and the result.
///
/// The start position comes from `start_tps` if set, otherwise from the `Size` tag; the
/// `Komi` tag (in flats, `"2"` or `"1.5"`) sets the half-komi of the replayed positions.
///
/// ```
/// use menhir::core::GameRecord;
/// let text = "[Size \"5\"]\n[Result \"R-0\"]\n\n1. e5 a1\n2. b1 a2\n3. c1 a3\n4. d1 a4\n5. e1 R-0\n";
/// let game = GameRecord::parse(text).unwrap();
/// assert_eq!(game.plies.len(), 9);
/// assert_eq!(game.to_string(), text);
/// let same = "[Size \"5\"]\n[Result \"R-0\"]\n1. e5 a1 2. b1 a2 3. c1 a3 4. d1 a4 5. e1 R-0";
/// assert_eq!(GameRecord::parse(same).unwrap(), game);
/// assert_eq!(game.replay().unwrap().result().unwrap().to_string(), "R-0");
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct GameRecord {
    /// Header tags as (name, value) pairs, in the order they are written. `TPS` is not kept
    /// here but in `start_tps`.
    pub tags: Vec<(String, String)>,
    /// The start position as TPS, written as a `TPS` tag; `None` for the empty board.
    pub start_tps: Option<String>,
    /// The plies in order.
    pub plies: Vec<RecordedPly>,
    /// The result token written after the moves; `None` writes nothing.
    pub result: Option<RecordResult>,
}

impl GameRecord {
    /// The value of the first tag called `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, replacing it in place if present, else appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The start position: the TPS if any, else the empty board of the `Size` tag; with the
    /// half-komi from the `Komi` tag.
    pub fn start_position(&self) -> Result<Position, String> {
        let mut pos = match (&self.start_tps, self.tag("Size")) {
            (Some(tps), _) => {
                Position::from_tps(tps).map_err(|e| format!("bad TPS tag '{tps}': {e}"))?
            }
            (None, Some(size)) => {
                let size: usize = size
                    .trim()
                    .parse()
                    .map_err(|_| format!("bad Size tag '{size}': not a number"))?;
                Position::start(size).map_err(|e| format!("bad Size tag: {e}"))?
            }
            (None, None) => return Err("the game has neither a Size nor a TPS tag".into()),
        };
        if let Some(size) = self.tag("Size") {
            if size.trim().parse::<usize>().ok() != Some(pos.size()) {
                return Err(format!(
                    "the Size tag '{size}' does not match the TPS board size {}",
                    pos.size()
                ));
            }
        }
        if let Some(komi) = self.tag("Komi") {
            pos.set_half_komi(parse_half_komi(komi)?);
        }
        Ok(pos)
    }

    /// Replays every ply from the start position, checking each is legal, and returns the
    /// final position.
    pub fn replay(&self) -> Result<Position, String> {
        let mut pos = self.start_position()?;
        for (i, ply) in self.plies.iter().enumerate() {
            if pos.result().is_some() || !pos.is_legal(ply.mv) {
                return Err(format!(
                    "ply {} ({}) is not legal in {}",
                    i + 1,
                    ply.mv.to_ptn(),
                    pos.to_tps()
                ));
            }
            pos.do_move(ply.mv);
        }
        Ok(pos)
    }

    /// Reads one game. Moves are checked legal by replaying them; see [`GameRecord::parse_all`].
    pub fn parse(text: &str) -> Result<GameRecord, String> {
        let mut games = GameRecord::parse_all(text)?;
        match games.len() {
            1 => Ok(games.remove(0)),
            0 => Err("no game found".into()),
            n => Err(format!("expected one game, found {n}")),
        }
    }

    /// Reads every game of a PTN file. A game is its tag lines followed by movetext; the next
    /// tag line after movetext, or after a blank line (a game with no moves), starts the next
    /// game. The reader accepts move numbers (`1.`,
    /// `1...`), `--` placeholders before the first ply, `{comments}` anywhere (a comment
    /// belongs to the ply before it; comments before the first ply are dropped), annotation
    /// marks on moves (`'`, `"`, `!`, `?`, `*`) and a final result token. Variations as PTN
    /// Ninja writes them after the main line (a `{branch}` comment, then a move number that
    /// goes back) are left out. Anything else is an error naming the game and the token.
    pub fn parse_all(text: &str) -> Result<Vec<GameRecord>, String> {
        GameRecord::parse_each(text)
            .into_iter()
            .enumerate()
            .map(|(index, game)| game.map_err(|e| format!("game {}: {e}", index + 1)))
            .collect()
    }

    /// Reads every game of a PTN file as [`GameRecord::parse_all`] does, but one damaged game
    /// does not stop the others: each game (in file order) is read or has its own error.
    ///
    /// ```
    /// use menhir::core::GameRecord;
    /// let text = "[Size \"3\"]\n1. a1 c3\n\n[Size \"3\"]\n1. a1 a1\n\n[Size \"3\"]\n1. b2 *\n";
    /// let games = GameRecord::parse_each(text);
    /// assert_eq!(games.len(), 3);
    /// assert!(games[0].is_ok() && games[1].is_err() && games[2].is_ok());
    /// ```
    pub fn parse_each(text: &str) -> Vec<Result<GameRecord, String>> {
        GameRecord::parse_each_with_tags(text)
            .into_iter()
            .map(|(_, game)| game)
            .collect()
    }

    /// [`GameRecord::parse_each`], each game with the tags read for it (the well-formed ones
    /// when a tag is bad), so that a damaged game can still be named by its players or round.
    ///
    /// ```
    /// use menhir::core::GameRecord;
    /// let games = GameRecord::parse_each_with_tags("[Size \"3\"]\n[Round \"4\"]\n1. a1 a1\n");
    /// assert_eq!(games[0].0[1], ("Round".to_string(), "4".to_string()));
    /// assert!(games[0].1.is_err());
    /// ```
    pub fn parse_each_with_tags(text: &str) -> Vec<TaggedGame> {
        let mut games = Vec::new();
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut tag_error: Option<String> = None;
        let mut movetext = String::new();
        let mut finish = |tags: &mut Vec<_>, tag_error: &mut Option<String>, movetext: &str| {
            let read = std::mem::take(tags);
            let game = match tag_error.take() {
                Some(why) => Err(why),
                None => build(read.clone(), movetext),
            };
            games.push((read, game));
        };
        for (number, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            // A `[` inside a comment is movetext; only lines outside comments hold tags.
            if trimmed.starts_with('[') && !inside_comment(&movetext) {
                // Racetrack writes a game that ended before its first move as tags and blank
                // lines: the blank line still ends it.
                let has_tags = !tags.is_empty() || tag_error.is_some();
                if !movetext.trim().is_empty() || (has_tags && !movetext.is_empty()) {
                    finish(&mut tags, &mut tag_error, &movetext);
                }
                movetext.clear();
                match parse_tag(trimmed) {
                    Ok(tag) => tags.push(tag),
                    Err(e) => {
                        // The first bad tag names the game's fault; its other lines still
                        // belong to it, so the next game starts where it would have.
                        tag_error.get_or_insert(format!("line {}: {e}", number + 1));
                    }
                }
            } else {
                movetext.push_str(line);
                movetext.push('\n');
            }
        }
        if !tags.is_empty() || tag_error.is_some() || !movetext.trim().is_empty() {
            finish(&mut tags, &mut tag_error, &movetext);
        }
        games
    }
}

/// Whether `text` ends inside an unclosed `{`.
fn inside_comment(text: &str) -> bool {
    text.rfind('{')
        .is_some_and(|open| !text[open..].contains('}'))
}

/// Parses `Komi` tag text in flats (`"2"`, `"-1.5"`) to half flats.
fn parse_half_komi(text: &str) -> Result<i32, String> {
    let komi: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("bad Komi tag '{text}': not a number"))?;
    let half = komi * 2.0;
    if !half.is_finite() || half.fract() != 0.0 || half.abs() > 100.0 {
        return Err(format!("bad Komi tag '{text}': not a multiple of 0.5"));
    }
    Ok(half as i32)
}

/// Parses `[Name "Value"]`.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let bad = |why: &str| Err(format!("bad tag {line}: {why}"));
    let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
        return bad("a tag is [Name \"Value\"] on one line");
    };
    let inner = inner.trim();
    let Some((name, rest)) = inner.split_once(char::is_whitespace) else {
        return bad("no value");
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return bad("the name must be letters, digits or _");
    }
    let rest = rest.trim();
    match rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(value) if !value.contains('"') => Ok((name.to_string(), value.to_string())),
        _ => bad("the value must be one \"quoted\" string"),
    }
}

/// Splits movetext into tokens; a `{comment}` is one token with its braces.
fn tokenize(movetext: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut chars = movetext.chars();
    while let Some(c) = chars.next() {
        if (c == '{' || c.is_whitespace() || c == '}') && !current.is_empty() {
            tokens.push(std::mem::take(&mut current));
        }
        match c {
            '{' => {
                let mut comment = String::from("{");
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => comment.push(c),
                        None => return Err("a comment '{' is never closed".into()),
                    }
                }
                comment.push('}');
                tokens.push(comment);
            }
            '}' => return Err("a '}' closes no comment".into()),
            c if c.is_whitespace() => {}
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    Ok(tokens)
}

/// Strips a leading move number (`12.`, `12...`) from a token; returns the rest, or `None`
/// when the token does not start with a number and dots.
fn strip_move_number(token: &str) -> Option<&str> {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &token[digits..];
    let dotted = rest.trim_start_matches('.');
    (digits > 0 && dotted.len() < rest.len()).then_some(dotted)
}

/// The move number a token starts with (`12.`, `12...`, `12.a1`), if it does.
fn leading_number(token: &str) -> Option<usize> {
    strip_move_number(token)?;
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    token[..digits].parse().ok()
}

/// Builds and replays one game from its tags and movetext.
fn build(mut tags: Vec<(String, String)>, movetext: &str) -> Result<GameRecord, String> {
    // A second start position would be kept as a plain tag and win when the game is written.
    if tags
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("TPS"))
        .count()
        > 1
    {
        return Err("more than one TPS tag".into());
    }
    let start_tps = tags
        .iter()
        .position(|(n, _)| n.eq_ignore_ascii_case("TPS"))
        .map(|i| tags.remove(i).1);
    let mut record = GameRecord {
        tags,
        start_tps,
        plies: Vec::new(),
        result: None,
    };
    let mut pos = record.start_position()?;
    // The ply whose comment the last token extended, and its comment before that: a PTN
    // Ninja branch name (`{3w1}`) reads as a comment until the move number after it rewinds.
    let mut extended: Option<(usize, Option<String>)> = None;
    let mut after_comment = false;
    for token in tokenize(movetext)? {
        let fail = |why: String| Err(format!("'{token}': {why}"));
        let is_comment = token.starts_with('{');
        // PTN Ninja writes variations after the main line, each a `{name}` comment then
        // movetext whose move number goes back: only the main line is the game.
        if after_comment && leading_number(&token).is_some_and(|n| n < pos.ply() / 2 + 1) {
            if let Some((ply, earlier)) = extended.take() {
                record.plies[ply].comment = earlier;
            }
            break;
        }
        after_comment = is_comment;
        if !is_comment {
            extended = None;
        }
        if record.result.is_some() {
            if is_comment {
                continue;
            }
            return fail("nothing but comments may follow the result".into());
        }
        if let Some(comment) = token.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            if let Some(ply) = record.plies.last_mut() {
                let comment = comment.trim();
                let earlier = ply.comment.take();
                ply.comment = Some(match &earlier {
                    Some(earlier) => format!("{earlier} {comment}"),
                    None => comment.to_string(),
                });
                extended = Some((record.plies.len() - 1, earlier));
            }
            continue;
        }
        if let Some(result) = RecordResult::parse(&token) {
            record.result = Some(result);
            continue;
        }
        let text = match strip_move_number(&token) {
            Some("") => continue,
            Some(rest) => rest,
            None => token.as_str(),
        };
        if text == "--" {
            if !record.plies.is_empty() {
                return fail("a '--' placeholder may only stand before the first ply".into());
            }
            continue;
        }
        let mv = match pos.parse_move(text) {
            Ok(mv) => mv,
            // Named as a reader counts: the move number (from the position's own ply count,
            // so a TPS start numbers as its tag says) and whose ply it is.
            Err(e) => {
                let side = match pos.to_move() {
                    Color::White => "White",
                    Color::Black => "Black",
                };
                return fail(format!("move {} ({side}): {e}", pos.ply() / 2 + 1));
            }
        };
        pos.do_move(mv);
        record.plies.push(RecordedPly { mv, comment: None });
    }
    Ok(record)
}

impl fmt::Display for GameRecord {
    /// Writes tags (`TPS` last), a blank line, one line per move number, and the result.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", value.replace('"', "'"))?;
        }
        if let Some(tps) = &self.start_tps {
            writeln!(f, "[TPS \"{tps}\"]")?;
        }
        writeln!(f)?;
        // The move number and side of the first ply come from the start position when it
        // can be read; an unreadable one is written as if from the empty board.
        let start = self.start_position().ok();
        let first_ply = start.as_ref().map_or(0, |p| p.ply());
        let mut line = String::new();
        for (i, ply) in self.plies.iter().enumerate() {
            let ply_index = first_ply + i;
            let number = ply_index / 2 + 1;
            // Ply parity gives the side: TPS move numbers count plies from the empty board.
            let white = ply_index.is_multiple_of(2);
            if white || i == 0 {
                if !line.is_empty() {
                    writeln!(f, "{line}")?;
                    line.clear();
                }
                line.push_str(&format!("{number}."));
                if !white {
                    line.push_str(" --");
                }
            }
            line.push(' ');
            line.push_str(&ply.mv.to_ptn());
            if let Some(comment) = &ply.comment {
                line.push_str(&format!(" {{{}}}", comment.replace(['{', '}'], "")));
            }
        }
        if let Some(result) = self.result {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&result.to_string());
        }
        if !line.is_empty() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
