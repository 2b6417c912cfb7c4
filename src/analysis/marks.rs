//! The marks a ply earns (notation.md 2.6): `'` tak, `"` tinue, `?`/`??` for a move that threw
//! away winning chances, `!` for a move better than the engine's own choice.
//!
//! Changes are measured in the mover's expected score `E = W + D/2` (0 to 1) from the search's
//! WDL model (`search::wdl`): before the ply from the analysis of the position it was played
//! in (the best the engine found there), after it from the analysis of the position it left.

use crate::core::Position;
use crate::search::{score_is_win, wdl};

/// A ply that lowers the mover's expected score by at least this much is a mistake, `?`.
pub const MISTAKE_DROP: f64 = 0.10;
/// A ply that lowers the mover's expected score by at least this much is a blunder, `??`
/// (as is any ply that throws away a forced result: see [`Judgement::of_scores`]).
pub const BLUNDER_DROP: f64 = 0.25;
/// A ply other than the engine's choice that raises the mover's expected score by at least
/// this much over what the engine expected before it is good, `!`.
pub const GOOD_GAIN: f64 = 0.10;

/// The mover's expected score (0 to 1) for a score in centi-flats from the mover's view on a
/// board of `size`.
///
/// ```
/// use menhir::analysis::expected_score;
/// assert_eq!(expected_score(0, 6), 0.5);
/// assert_eq!(expected_score(menhir::search::WIN - 1, 6), 1.0);
/// ```
pub fn expected_score(score_cp: i32, size: usize) -> f64 {
    let [win, draw, _] = wdl::wdl(score_cp, size);
    (win as f64 + draw as f64 / 2.0) / 1000.0
}

/// How a ply is judged, as the PTN marks written after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// After the ply the mover threatens a road in one (`'`).
    pub tak: bool,
    /// After the ply the mover has a proven forced win (`"`; replaces `'`).
    pub tinue: bool,
    /// `?`, `??` or `!`, if any.
    pub judgement: Option<Judgement>,
}

/// The quality mark of a ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// `!`
    Good,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Judgement {
    /// Judges a ply by the mover's expected score before (`before`, the engine's best) and
    /// after it (`after`); `engine_move` is whether the ply is the engine's own choice, which
    /// is never a mistake (a drop then is the search seeing deeper one ply later, not the
    /// player's fault) nor better than itself.
    ///
    /// ```
    /// use menhir::analysis::Judgement;
    /// assert_eq!(Judgement::of(0.5, 0.0, false), Some(Judgement::Blunder));
    /// assert_eq!(Judgement::of(0.5, 0.38, false), Some(Judgement::Mistake));
    /// assert_eq!(Judgement::of(0.5, 0.45, false), None);
    /// assert_eq!(Judgement::of(0.5, 0.0, true), None);
    /// assert_eq!(Judgement::of(0.4, 0.6, false), Some(Judgement::Good));
    /// ```
    pub fn of(before: f64, after: f64, engine_move: bool) -> Option<Judgement> {
        Judgement::of_change(before, after, engine_move)
    }

    /// Judges a ply by the mover's scores (centi-flats, the search's scale) before it (the
    /// engine's best) and after it on a board of `size`: [`Judgement::of`] on the expected
    /// scores, except that a ply which throws away a forced result, from a proven win to
    /// none or from no proven loss into one, is a blunder whatever the odds said before.
    ///
    /// ```
    /// use menhir::analysis::Judgement;
    /// use menhir::search::WIN;
    /// // A road in one missed, the game still good: a blunder though the odds barely moved.
    /// assert_eq!(Judgement::of_scores(WIN - 1, 600, 5, false), Some(Judgement::Blunder));
    /// // Already bad, and now lost by force.
    /// assert_eq!(Judgement::of_scores(-300, -(WIN - 1), 5, false), Some(Judgement::Blunder));
    /// // Lost before and after: nothing to judge.
    /// assert_eq!(Judgement::of_scores(-(WIN - 5), -(WIN - 3), 5, false), None);
    /// ```
    pub fn of_scores(
        before_cp: i32,
        after_cp: i32,
        size: usize,
        engine_move: bool,
    ) -> Option<Judgement> {
        let won = |cp: i32| score_is_win(cp);
        let lost = |cp: i32| score_is_win(-cp);
        if !engine_move
            && ((won(before_cp) && !won(after_cp)) || (!lost(before_cp) && lost(after_cp)))
        {
            return Some(Judgement::Blunder);
        }
        Judgement::of_change(
            expected_score(before_cp, size),
            expected_score(after_cp, size),
            engine_move,
        )
    }

    fn of_change(before: f64, after: f64, engine_move: bool) -> Option<Judgement> {
        if engine_move {
            return None;
        }
        let change = after - before;
        if change <= -BLUNDER_DROP {
            Some(Judgement::Blunder)
        } else if change <= -MISTAKE_DROP {
            Some(Judgement::Mistake)
        } else if change >= GOOD_GAIN {
            Some(Judgement::Good)
        } else {
            None
        }
    }

    /// The PTN text of the mark.
    pub fn text(self) -> &'static str {
        match self {
            Judgement::Good => "!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

impl Marks {
    /// The PTN marks to write after the move: `'` or `"`, then `?`, `??` or `!`.
    pub fn text(&self) -> String {
        let mut text = String::new();
        if self.tinue {
            text.push('"');
        } else if self.tak {
            text.push('\'');
        }
        if let Some(judgement) = self.judgement {
            text.push_str(judgement.text());
        }
        text
    }
}

/// Whether the side that just moved in `after` threatens a road in one: with the move handed
/// back to it, it would have a road at once. A finished game threatens nothing.
pub fn is_tak(after: &mut Position) -> bool {
    after.result().is_none() && after.opponent_road_in_one()
}
