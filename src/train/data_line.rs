//! The training data format: one position per line, four or six fields separated by `;`:
//!
//! ```text
//! <TPS>;<komi>;<score>;<result>[;<move>;<last move>]
//! 2,1,x4/x,1,2,x3/x2,1C,x3/x6/x4,2S,x/x6 2 5;2;-35;1.0;c3;e2
//! ```
//!
//! - TPS: the position (board, side to move, move number), as `Position::to_tps` writes it.
//! - komi: in flats, a multiple of 0.5 within −10..10 (`2`, `1.5`, `-0.5`), added to Black.
//! - score: the search score in centi-flats **from White's view** (not the side to move's),
//!   an integer within ±10000; datagen writes a result the search resolved (a road in one, a
//!   forced road or flat win) as ±10000.
//! - result: the game's final result **from White's view**: `1.0` White won, `0.5` draw,
//!   `0.0` Black won.
//! - move and last move (optional, together): the move the search chose in PTN, legal in the
//!   position, and the move that led to the position (`-` when none is known, as after a
//!   random start of no plies). They are the label and an input of the move-ordering policy.
//!   Files written before they existed have four fields; the evaluation's tuner reads both.
//!
//! Blank lines and lines starting with `#` are not data. Both views are White's so a file can
//! be read without knowing whose move each line is; the tuner turns them to the side to move.

use crate::core::{half_komi_from_flats, komi_text};
use crate::core::{Color, Move, Position};

/// One position with its search score and the game's result, both from White's view.
#[derive(Clone, Debug)]
pub struct DataLine {
    /// The position, komi included.
    pub position: Position,
    /// Search score in centi-flats, White's view.
    pub score: i32,
    /// 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f64,
    /// The move the search chose, when the line records it.
    pub best: Option<Move>,
    /// The move that led to the position, when the line records it.
    pub last: Option<Move>,
}

impl DataLine {
    /// A line for `position` with a score from the side to move's view (as the search gives it).
    pub fn from_mover_score(
        position: &Position,
        mover_score: i32,
        result: f64,
        best: Option<Move>,
        last: Option<Move>,
    ) -> DataLine {
        let score = match position.to_move() {
            Color::White => mover_score,
            Color::Black => -mover_score,
        };
        DataLine {
            position: position.clone(),
            score,
            result,
            best,
            last,
        }
    }

    /// The text of the line, without the newline.
    pub fn to_line(&self) -> String {
        let mut line = format!(
            "{};{};{};{:.1}",
            self.position.to_tps(),
            komi_text(self.position.half_komi()),
            self.score,
            self.result
        );
        if let Some(mv) = self.best {
            line.push(';');
            line.push_str(&mv.to_ptn());
            line.push(';');
            line.push_str(&self.last.map_or("-".into(), Move::to_ptn));
        }
        line
    }

    /// Reads one line; the error says which field is wrong and why.
    pub fn parse(line: &str) -> Result<DataLine, String> {
        let fields: Vec<&str> = line.trim().split(';').collect();
        let (tps, komi, score, result, moves) = match fields[..] {
            [tps, komi, score, result] => (tps, komi, score, result, None),
            [tps, komi, score, result, best, last] => {
                (tps, komi, score, result, Some((best, last)))
            }
            _ => {
                return Err(format!(
                    "expected 4 or 6 fields `TPS;komi;score;result[;move;last move]`, found {}",
                    fields.len()
                ))
            }
        };
        let mut position = Position::from_tps(tps).map_err(|e| format!("bad TPS: {e}"))?;
        let half_komi = komi
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(half_komi_from_flats)
            .ok_or_else(|| format!("bad komi `{komi}` (a multiple of 0.5 within -10..10)"))?;
        position.set_half_komi(half_komi);
        let score = score
            .trim()
            .parse::<i32>()
            .ok()
            .filter(|s| s.abs() <= 10_000)
            .ok_or_else(|| format!("bad score `{score}` (an integer within ±10000)"))?;
        let result = result
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|r| [0.0, 0.5, 1.0].contains(r))
            .ok_or_else(|| format!("bad result `{result}` (1.0, 0.5 or 0.0)"))?;
        if position.result().is_some() {
            return Err("the game is already over in this position".into());
        }
        let (best, last) = match moves {
            None => (None, None),
            Some((best, last)) => {
                let best = position
                    .parse_move(best.trim())
                    .map_err(|e| format!("bad move: {e}"))?;
                // The last move is not checked against the position (that would need the one
                // before it), only read.
                let last = match last.trim() {
                    "-" => None,
                    text => Some(
                        Move::parse_ptn(text, position.size())
                            .map_err(|e| format!("bad last move: {e}"))?,
                    ),
                };
                (Some(best), last)
            }
        };
        Ok(DataLine {
            position,
            score,
            result,
            best,
            last,
        })
    }

    /// The score and result from the side to move's view (the view of the evaluation).
    pub fn mover_view(&self) -> (i32, f64) {
        match self.position.to_move() {
            Color::White => (self.score, self.result),
            Color::Black => (-self.score, 1.0 - self.result),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back() {
        let mut pos = Position::from_tps("2,1,x4/x,1,2,x3/x2,1C,x3/x6/x4,2S,x/x6 2 5").unwrap();
        pos.set_half_komi(3);
        let line = DataLine::from_mover_score(&pos, 35, 1.0, None, None);
        let text = line.to_line();
        assert_eq!(
            text,
            "2,1,x4/x,1,2,x3/x2,1C,x3/x6/x4,2S,x/x6 2 5;1.5;-35;1.0"
        );
        let back = DataLine::parse(&text).unwrap();
        assert_eq!(back.position.to_tps(), pos.to_tps());
        assert_eq!(back.position.half_komi(), 3);
        assert_eq!((back.score, back.result), (-35, 1.0));
        // Black to move: the mover's view flips both.
        assert_eq!(back.mover_view(), (35, 0.0));
        assert_eq!(back.best, None);
    }

    #[test]
    fn the_chosen_and_the_last_move_are_optional_fields() {
        let pos = Position::from_tps("2,1,x4/x,1,2,x3/x2,1C,x3/x6/x4,2S,x/x6 2 5").unwrap();
        let mv = pos.parse_move("Sd3").unwrap();
        let last = Move::parse_ptn("e2", 6).unwrap();
        let text = DataLine::from_mover_score(&pos, 35, 1.0, Some(mv), Some(last)).to_line();
        assert!(text.ends_with(";1.0;Sd3;e2"), "{text}");
        let back = DataLine::parse(&text).unwrap();
        assert_eq!((back.best, back.last), (Some(mv), Some(last)));
        let text = DataLine::from_mover_score(&pos, 35, 1.0, Some(mv), None).to_line();
        assert!(text.ends_with(";1.0;Sd3;-"), "{text}");
        assert_eq!(DataLine::parse(&text).unwrap().last, None);
    }

    #[test]
    fn refuses_bad_lines_with_the_reason() {
        let cases = [
            ("x6/x6/x6/x6/x6/x6 1 1;0;0", "4 or 6 fields"),
            ("x6/x6/x6/x6/x6/x6 1 1;0;0;0.5;a1", "4 or 6 fields"),
            ("x6/x6/x6/x6/x6/x6 1 1;0;0;0.5;a1;b1;c1", "4 or 6 fields"),
            ("x6/x6/x6/x6/x6/x6 1 1;0;0;0.5;Ca1;-", "bad move"),
            ("x6/x6/x6/x6/x6/x6 1 1;0;0;0.5;h9;-", "bad move"),
            ("x6/x6/x6/x6/x6/x6 1 1;0;0;0.5;a1;h9", "bad last move"),
            ("x6/x6/x6/x6/x6 1 1;0;0;0.5", "bad TPS"),
            ("x6/x6/x6/x6/x6/x6 1 1;0.3;0;0.5", "bad komi"),
            ("x6/x6/x6/x6/x6/x6 1 1;11;0;0.5", "bad komi"),
            ("x6/x6/x6/x6/x6/x6 1 1;0;12.5;0.5", "bad score"),
            ("x6/x6/x6/x6/x6/x6 1 1;0;20000;0.5", "bad score"),
            ("x6/x6/x6/x6/x6/x6 1 1;0;0;0.7", "bad result"),
            ("1,1,1/x3/2,2,x 2 3;0;0;1.0", "already over"),
        ];
        for (line, why) in cases {
            let err = DataLine::parse(line).unwrap_err();
            assert!(err.contains(why), "{line}: {err}");
        }
    }
}
