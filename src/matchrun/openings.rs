//! Openings for a match: from a file (one PTN move list or one TPS per line) or K random legal
//! plies from a seed. The runner plays each opening twice, with colours swapped.

use crate::common::random_line;
use crate::core::{GameRecord, Move, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Where a game starts: a root position (the empty board, or a TPS) and book moves played
/// from it before the engines take over.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Opening {
    /// The root as TPS; `None` for the empty board (sent as `position startpos`).
    pub root_tps: Option<String>,
    /// Book moves from the root, sent in the `moves` list and recorded in the game.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The root position of a board of `size` with `half_komi`.
    pub fn root(&self, size: usize, half_komi: i32) -> Result<Position, String> {
        let mut pos = match &self.root_tps {
            Some(tps) => Position::from_tps(tps)?,
            None => Position::start(size)?,
        };
        pos.set_half_komi(half_komi);
        Ok(pos)
    }

    /// The position after the book moves.
    pub fn position(&self, size: usize, half_komi: i32) -> Result<Position, String> {
        let mut pos = self.root(size, half_komi)?;
        for &mv in &self.moves {
            pos.do_move(mv);
        }
        Ok(pos)
    }
}

/// Reads an openings file: per line a TPS (three fields, the first with `/`) or a PTN move list
/// (move numbers and comments allowed). Blank lines and lines starting with `#` are skipped.
/// Each opening must fit `size` and leave the game unfinished.
pub fn parse_openings(text: &str, size: usize, half_komi: i32) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |why: String| format!("openings line {}: {why}", number + 1);
        let first = line.split_whitespace().next().unwrap_or("");
        let opening = if first.contains('/') {
            let pos = Position::from_tps(line).map_err(fail)?;
            if pos.size() != size {
                return Err(fail(format!(
                    "the position is {}x{}, the match is {size}x{size}",
                    pos.size(),
                    pos.size()
                )));
            }
            Opening {
                root_tps: Some(pos.to_tps()),
                moves: Vec::new(),
            }
        } else {
            let record =
                GameRecord::parse(&format!("[Size \"{size}\"]\n{line}\n")).map_err(fail)?;
            Opening {
                root_tps: None,
                moves: record.plies.iter().map(|p| p.mv).collect(),
            }
        };
        let pos = opening.position(size, half_komi).map_err(fail)?;
        if pos.result().is_some() {
            return Err(fail("the game is already over".into()));
        }
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("the openings file has no opening".into());
    }
    Ok(openings)
}

/// `count` openings of `plies` random legal plies each, from `seed`; none ends the game.
pub fn random_openings(
    size: usize,
    half_komi: i32,
    plies: usize,
    count: usize,
    seed: u64,
) -> Vec<Opening> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| Opening {
            moves: random_line(size, half_komi, plies, &mut rng).1,
            ..Opening::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_move_lists_and_tps_lines() {
        let text = "# book\n1. a1 e5 2. c3\n\nx5/x5/x2,1,x2/x5/x5 2 2\n";
        let openings = parse_openings(text, 5, 0).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].root_tps, None);
        let names: Vec<String> = openings[0].moves.iter().map(|m| m.to_ptn()).collect();
        assert_eq!(names, ["a1", "e5", "c3"]);
        assert_eq!(
            openings[1].root_tps.as_deref(),
            Some("x5/x5/x2,1,x2/x5/x5 2 2")
        );
    }

    #[test]
    fn rejects_bad_openings() {
        assert!(parse_openings("a1 a1", 5, 0).is_err());
        assert!(parse_openings("x6/x6/x6/x6/x6/x6 1 1", 5, 0).is_err());
        assert!(parse_openings("# nothing\n", 5, 0).is_err());
        assert!(parse_openings("1. e5 a1 2. b1 a2 3. c1 a3 4. d1 a4 5. e1", 5, 0).is_err());
    }

    #[test]
    fn random_openings_are_reproducible_and_legal() {
        let a = random_openings(5, 0, 6, 10, 42);
        assert_eq!(a, random_openings(5, 0, 6, 10, 42));
        assert_ne!(a, random_openings(5, 0, 6, 10, 43));
        for opening in &a {
            assert_eq!(opening.moves.len(), 6);
            assert!(opening.position(5, 0).unwrap().result().is_none());
        }
    }
}
