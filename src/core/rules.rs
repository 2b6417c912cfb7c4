//! The end of the game: roads, flat counts with komi, the result, and repetition.

use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::Color;
use super::position::Position;
use std::fmt;

/// How a finished game ended, written as PTN result strings.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// A road for this colour: `R-0` or `0-R`.
    Road(Color),
    /// More flats (with komi) for this colour: `F-0` or `0-F`.
    Flats(Color),
    /// A win by other means (resignation, time, forfeit): `1-0` or `0-1`.
    Other(Color),
    /// A draw, `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::Road(c) | GameResult::Flats(c) | GameResult::Other(c) => Some(c),
            GameResult::Draw => None,
        }
    }

    /// Parses a PTN result string.
    pub fn parse(text: &str) -> Option<GameResult> {
        Some(match text {
            "R-0" => GameResult::Road(Color::White),
            "0-R" => GameResult::Road(Color::Black),
            "F-0" => GameResult::Flats(Color::White),
            "0-F" => GameResult::Flats(Color::Black),
            "1-0" => GameResult::Other(Color::White),
            "0-1" => GameResult::Other(Color::Black),
            "1/2-1/2" => GameResult::Draw,
            _ => return None,
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            GameResult::Road(Color::White) => "R-0",
            GameResult::Road(Color::Black) => "0-R",
            GameResult::Flats(Color::White) => "F-0",
            GameResult::Flats(Color::Black) => "0-F",
            GameResult::Other(Color::White) => "1-0",
            GameResult::Other(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

/// Whether `pieces` connects two opposite edges of a board of `size`.
///
/// ```
/// use menhir::core::{has_road, Bitboard};
/// assert!(has_road(Bitboard::rank(2, 5), 5));
/// assert!(!has_road(Bitboard::rank(2, 5) ^ Bitboard(1 << 18), 5));
/// ```
#[inline]
pub fn has_road(pieces: Bitboard, size: usize) -> bool {
    let south = Bitboard::rank(0, size);
    let north = Bitboard::rank(size - 1, size);
    let west = Bitboard::file(0, size);
    let east = Bitboard::file(size - 1, size);
    let vertical = !(pieces & south).is_empty() && !(pieces & north).is_empty();
    let horizontal = !(pieces & west).is_empty() && !(pieces & east).is_empty();
    if vertical && !(pieces.flood(pieces & south) & north).is_empty() {
        return true;
    }
    horizontal && !(pieces.flood(pieces & west) & east).is_empty()
}

impl Position {
    /// Whether `color` has a road now.
    #[inline]
    pub fn has_road(&self, color: Color) -> bool {
        let pieces = self.road_pieces(color);
        pieces.count() >= self.size() as u32 && has_road(pieces, self.size())
    }

    /// Flats on top for (White, Black).
    #[inline]
    pub fn flat_counts(&self) -> (u32, u32) {
        let flats = self.flats();
        (
            (flats & self.tops(Color::White)).count(),
            (flats & self.tops(Color::Black)).count(),
        )
    }

    /// Whether the flat-count ending applies: the board is full, or a player has no pieces.
    #[inline]
    pub fn is_flat_ending(&self) -> bool {
        self.empty().is_empty()
            || Color::ALL
                .iter()
                .any(|&c| self.stones(c) == 0 && self.capstones(c) == 0)
    }

    /// The flat-count winner with komi, as the flat ending would decide it now.
    pub fn flat_winner(&self) -> Option<Color> {
        let (white, black) = self.flat_counts();
        let margin = 2 * (white as i32 - black as i32) - self.half_komi();
        match margin.signum() {
            1 => Some(Color::White),
            -1 => Some(Color::Black),
            _ => None,
        }
    }

    /// The result if the game is over, judged as after the last ply (rules.md, in order:
    /// roads, with the mover winning a double road; then the flat ending with komi).
    ///
    /// ```
    /// use menhir::core::{GameResult, Position};
    /// let pos = Position::from_tps("1,1,1/x3/2,2,x 2 3").unwrap();
    /// assert_eq!(pos.result(), Some(GameResult::Road(menhir::core::Color::White)));
    /// ```
    #[inline]
    pub fn result(&self) -> Option<GameResult> {
        self.result_with_roads(true, true)
    }

    /// `result` just after `mv`, played from a position that was not over: a placement gives
    /// the opponent no road and a wall gives no one a road, so those tests are left out (the
    /// tinue solver asks after every move it tries).
    ///
    /// ```
    /// use menhir::core::{Move, PieceKind, Position, Square};
    /// let mut pos = Position::from_tps("1,1,x/x3/2,2,x 1 3").unwrap();
    /// let c3 = Move::place(Square::new(2, 2, 3).unwrap(), PieceKind::Flat);
    /// pos.do_move(c3);
    /// assert_eq!(pos.result_after(c3), pos.result());
    /// assert!(pos.result_after(c3).is_some());
    /// ```
    #[inline]
    pub fn result_after(&self, mv: Move) -> Option<GameResult> {
        self.result_with_roads(!mv.places_wall(), !mv.is_placement())
    }

    /// `result` when only these roads could have appeared: the last mover's (`mover_road`) and
    /// its opponent's (`other_road`); a caller that knows a move cannot make one skips its test.
    #[inline]
    pub fn result_with_roads(&self, mover_road: bool, other_road: bool) -> Option<GameResult> {
        let mover = !self.to_move();
        if mover_road && self.has_road(mover) {
            return Some(GameResult::Road(mover));
        }
        if other_road && self.has_road(!mover) {
            return Some(GameResult::Road(!mover));
        }
        if self.is_flat_ending() {
            return Some(match self.flat_winner() {
                Some(c) => GameResult::Flats(c),
                None => GameResult::Draw,
            });
        }
        None
    }

    /// How many times the current position occurred before, with the same side to move,
    /// since the last placement.
    pub fn repetitions(&self) -> usize {
        let history = self.history();
        let window = self.reversible_plies().min(history.len());
        history[history.len() - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == self.hash())
            .count()
    }

    /// Whether this position is the third occurrence (a draw by threefold repetition).
    pub fn is_threefold(&self) -> bool {
        self.repetitions() >= 2
    }
}
