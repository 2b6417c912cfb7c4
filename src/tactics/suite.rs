//! The suite file: one position a line, `TPS ; task ; note`, where the task is `win N` (the
//! side to move forces a win within N plies, counting its winning move) or `defend` (the side
//! to move faces a threat to win at once and is not lost). A line starting with `#` is a
//! comment; blank lines are skipped.

use crate::core::Position;
use std::fmt;

/// The longest win a line may ask for: the check proves it exhaustively (every reply, then
/// every answer), which stays quick up to five plies on 8×8.
pub const MAX_WIN_PLIES: u32 = 5;

/// What the side to move has to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Task {
    /// Force a win within this many plies, counting the winning move.
    Win(u32),
    /// Leave the opponent without a road in one and without a forced win the solver finds.
    Defend,
}

impl fmt::Display for Task {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Task::Win(plies) => write!(f, "win {plies}"),
            Task::Defend => f.write_str("defend"),
        }
    }
}

impl Task {
    /// Parses `win N` or `defend`.
    ///
    /// ```
    /// use menhir::tactics::Task;
    /// assert_eq!(Task::parse("win 3"), Ok(Task::Win(3)));
    /// assert_eq!(Task::parse(" defend "), Ok(Task::Defend));
    /// assert!(Task::parse("win 9").is_err());
    /// assert!(Task::parse("draw").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Task, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words[..] {
            ["defend"] => Ok(Task::Defend),
            ["win", plies] => match plies.parse::<u32>() {
                Ok(n) if (1..=MAX_WIN_PLIES).contains(&n) => Ok(Task::Win(n)),
                _ => Err(format!(
                    "'win {plies}': the plies must be a number from 1 to {MAX_WIN_PLIES}"
                )),
            },
            _ => Err(format!(
                "task '{}' is neither 'win N' nor 'defend'",
                text.trim()
            )),
        }
    }
}

/// One position of the suite.
#[derive(Clone, Debug)]
pub struct SuiteLine {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The position, with the run's komi.
    pub position: Position,
    /// What the side to move has to do.
    pub task: Task,
    /// The free text after the task (where the position comes from), maybe empty.
    pub note: String,
}

/// Every line of a suite file, or an error naming the first bad line. `half_komi` is set on
/// every position.
///
/// ```
/// use menhir::tactics::{parse_suite, Task};
/// let suite = parse_suite("# a comment\nx3/1,2,x/1,2,x 1 3 ; win 1 ; hand-made\n", 0).unwrap();
/// assert_eq!((suite[0].line, suite[0].task), (2, Task::Win(1)));
/// assert!(parse_suite("x3/1,2,x/1,2,x 1 3\n", 0).unwrap_err().starts_with("line 1:"));
/// ```
pub fn parse_suite(text: &str, half_komi: i32) -> Result<Vec<SuiteLine>, String> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let parsed = parse_line(trimmed, half_komi).map_err(|e| format!("line {}: {e}", i + 1))?;
        let (position, task, note) = parsed;
        lines.push(SuiteLine {
            line: i + 1,
            position,
            task,
            note,
        });
    }
    if lines.is_empty() {
        return Err("no position in the file".into());
    }
    Ok(lines)
}

fn parse_line(text: &str, half_komi: i32) -> Result<(Position, Task, String), String> {
    let mut fields = text.splitn(3, ';');
    let tps = fields.next().unwrap_or("").trim();
    let Some(task) = fields.next() else {
        return Err("expected 'TPS ; win N|defend ; note', found no ';'".into());
    };
    let task = Task::parse(task)?;
    let note = fields.next().unwrap_or("").trim().to_string();
    let mut position = Position::from_tps(tps).map_err(|e| format!("bad TPS '{tps}': {e}"))?;
    position.set_half_komi(half_komi);
    if let Some(result) = position.result() {
        return Err(format!("the game is over ({result})"));
    }
    Ok((position, task, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_named() {
        let err = |text: &str| parse_suite(text, 0).unwrap_err();
        assert!(err("").contains("no position"));
        assert!(err("# only a comment\n").contains("no position"));
        assert!(err("\nx3/x3/x3 1 1 ; win\n").starts_with("line 2: "));
        assert!(err("x3/x3/x3 1 1 ; win 0\n").contains("1 to 5"));
        assert!(err("x3/x3/x3 1 1 ; win -1\n").contains("1 to 5"));
        assert!(err("x3/x3/x3 1 1 ; win 6\n").contains("1 to 5"));
        assert!(err("x3/x3/x3 1 1 ; defend now\n").contains("neither"));
        assert!(err("x3/x3 1 1 ; defend\n").contains("bad TPS"));
        assert!(err("1,1,1/x3/2,2,x 2 3 ; defend\n").contains("game is over"));
    }

    #[test]
    fn the_note_may_hold_anything() {
        let suite = parse_suite("x3/x3/x3 1 1 ; defend ; a; b # c\n", 4).unwrap();
        assert_eq!(suite[0].note, "a; b # c");
        assert_eq!(suite[0].position.half_komi(), 4);
        let bare = parse_suite("x3/x3/x3 1 1;defend", 0).unwrap();
        assert_eq!(bare[0].note, "");
    }
}
