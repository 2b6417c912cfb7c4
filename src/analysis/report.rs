//! A game's report, as game-review pages give it: for each side the average loss in winning
//! chances per move and the count of each mark, then the first proven win a player let go
//! ("first tinue missed") and the move where the game was lost. It goes as one comment block at
//! the top of the annotated game.
//!
//! Winning chances are the mover's expected score `E = W + D/2` of [`super::expected_score`],
//! before the ply (the engine's best there) and after it; a ply's loss is the drop, never
//! negative. The game was lost at the loser's last move played with even chances or better
//! (`E ≥ 0.5` before it): from then on every position the loser moved in was worse than even;
//! a loser who never had even chances (the first move's edge on small boards) lost it at the
//! move that cost the most.

use super::game::AnnotatedPly;
use super::marks::Judgement;
use crate::core::{Color, GameRecord, RecordResult};
use std::fmt::Write;

/// One side's summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideReport {
    /// Plies the side played.
    pub moves: usize,
    /// Average loss in winning chances per move, in percentage points.
    pub average_loss: f64,
    /// `??` marks.
    pub blunders: usize,
    /// `?` marks.
    pub mistakes: usize,
    /// `!` marks.
    pub good: usize,
}

/// The report of one annotated game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameReport {
    /// White's summary.
    pub white: SideReport,
    /// Black's summary.
    pub black: SideReport,
    /// The index (in the record's plies) of the first ply that let a proven win go.
    pub first_tinue_missed: Option<usize>,
    /// The index of the ply where the game was lost, when the game has a winner.
    pub lost_at: Option<usize>,
}

impl GameReport {
    /// The report of `plies` (one per ply of `record`).
    pub fn of(record: &GameRecord, plies: &[AnnotatedPly]) -> GameReport {
        let side = |color: Color| {
            let mine: Vec<&AnnotatedPly> = plies.iter().filter(|p| p.mover == color).collect();
            let count = |j: Judgement| mine.iter().filter(|p| p.marks.judgement == Some(j)).count();
            let loss: f64 = mine.iter().map(|p| (p.before - p.after).max(0.0)).sum();
            SideReport {
                moves: mine.len(),
                average_loss: if mine.is_empty() {
                    0.0
                } else {
                    100.0 * loss / mine.len() as f64
                },
                blunders: count(Judgement::Blunder),
                mistakes: count(Judgement::Mistake),
                good: count(Judgement::Good),
            }
        };
        let loser = winner(record).map(|w| !w);
        let lost_at = loser.and_then(|loser| {
            let theirs = || plies.iter().enumerate().filter(|(_, p)| p.mover == loser);
            theirs()
                .rev()
                .find(|(_, p)| p.before >= 0.5)
                .or_else(|| {
                    theirs().max_by(|(_, a), (_, b)| {
                        (a.before - a.after).total_cmp(&(b.before - b.after))
                    })
                })
                .map(|(i, _)| i)
        });
        GameReport {
            white: side(Color::White),
            black: side(Color::Black),
            first_tinue_missed: plies.iter().position(|p| p.missed_tinue),
            lost_at,
        }
    }

    /// The comment block (without braces): one line a side, then the two Tak lines.
    pub fn text(&self, record: &GameRecord) -> String {
        let first_ply = record.start_position().map_or(0, |p| p.ply());
        let name = |i: usize| {
            let ply = first_ply + i;
            let dots = if ply.is_multiple_of(2) { "." } else { "..." };
            format!("{}{dots} {}", ply / 2 + 1, record.plies[i].mv.to_ptn())
        };
        let mut text = String::from("Menhir game report");
        for (color, side) in [("White", &self.white), ("Black", &self.black)] {
            let _ = write!(
                text,
                "\n{color}: average loss {:.1}% winning chances a move over {} moves; \
                 ?? {}, ? {}, ! {}",
                side.average_loss, side.moves, side.blunders, side.mistakes, side.good
            );
        }
        let _ = write!(
            text,
            "\nFirst tinue missed: {}",
            self.first_tinue_missed.map_or("none".into(), name)
        );
        let _ = write!(
            text,
            "\nGame lost at: {}",
            match (self.lost_at, winner(record)) {
                (Some(i), _) => name(i),
                (None, Some(_)) => "-".into(),
                (None, None) => "no winner".into(),
            }
        );
        text
    }
}

/// The game's winner, from its result token.
fn winner(record: &GameRecord) -> Option<Color> {
    match record.result {
        Some(RecordResult::Game(result)) => result.winner(),
        _ => None,
    }
}
