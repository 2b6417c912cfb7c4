//! PTN moves: parsing (liberal, as notation.md's engine rule says) and canonical writing.

use super::moves::Move;
use super::piece::PieceKind;
use super::position::Position;
use super::square::{Direction, Square};
use std::fmt;

/// Displays a move in canonical PTN: `a1`, `Sa1`, `Ca1`, `a1>`, `3a1>`, `3a1>12`.
pub struct Ptn(pub Move);

impl fmt::Display for Ptn {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let mv = self.0;
        if mv.is_placement() {
            return write!(f, "{}{}", mv.kind().ptn_prefix(), mv.square());
        }
        let count = mv.count();
        if count > 1 {
            write!(f, "{count}")?;
        }
        write!(f, "{}{}", mv.square(), mv.direction().symbol())?;
        if mv.distance() > 1 {
            for d in mv.drops() {
                write!(f, "{d}")?;
            }
        }
        Ok(())
    }
}

impl Move {
    /// Canonical PTN text.
    ///
    /// ```
    /// use menhir::core::{Direction, Move, Square};
    /// let mv = Move::spread_from_drops(Square::new(0, 0, 5).unwrap(), Direction::East, &[1, 2]).unwrap();
    /// assert_eq!(mv.to_ptn(), "3a1>12");
    /// ```
    pub fn to_ptn(self) -> String {
        Ptn(self).to_string()
    }

    /// Parses PTN move syntax for a board of `size`, without checking legality in a position.
    /// Accepts an optional `F`/`S`/`C` or count, optional drops, a trailing `*` and annotation
    /// marks (`' " ! ?`).
    pub fn parse_ptn(text: &str, size: usize) -> Result<Move, String> {
        let trimmed = text.trim_end_matches(['\'', '"', '!', '?']);
        let trimmed = trimmed.strip_suffix('*').unwrap_or(trimmed);
        let bad = |why: &str| Err(format!("'{text}' is not a PTN move: {why}"));
        let chars: Vec<char> = trimmed.chars().collect();
        if chars.is_empty() {
            return bad("it is empty");
        }
        let mut i = 0;
        let mut kind = None;
        let mut count = None;
        match chars[0] {
            'F' => kind = Some(PieceKind::Flat),
            'S' => kind = Some(PieceKind::Wall),
            'C' => kind = Some(PieceKind::Cap),
            c @ '0'..='9' => count = Some(c as u32 - '0' as u32),
            _ => {}
        }
        if kind.is_some() || count.is_some() {
            i = 1;
        }
        if chars.len() < i + 2 {
            return bad("no square");
        }
        let square_text: String = chars[i..i + 2].iter().collect();
        let sq = match Square::parse(&square_text, size) {
            Ok(sq) => sq,
            Err(e) => return bad(&e),
        };
        i += 2;
        if i == chars.len() {
            if count.is_some() {
                return bad("a count needs a direction");
            }
            return Ok(Move::place(sq, kind.unwrap_or(PieceKind::Flat)));
        }
        let Some(dir) = Direction::from_symbol(chars[i]) else {
            return bad(&format!("unexpected '{}' after the square", chars[i]));
        };
        if kind.is_some() {
            return bad("a placement has no direction");
        }
        i += 1;
        let count = count.unwrap_or(1);
        if count == 0 {
            return bad("the count must be at least 1");
        }
        if count as usize > size {
            return bad(&format!("the count {count} exceeds the carry limit {size}"));
        }
        let mut drops = Vec::with_capacity(8);
        for &c in &chars[i..] {
            match c.to_digit(10) {
                Some(0) => return bad("a drop of 0"),
                Some(d) => drops.push(d),
                None => return bad(&format!("unexpected '{c}' in the drops")),
            }
        }
        if drops.is_empty() {
            drops.push(count);
        }
        let sum: u32 = drops.iter().sum();
        if sum != count {
            return bad(&format!("the drops sum to {sum}, not the count {count}"));
        }
        let steps = drops.len();
        let (f, r) = (sq.file() as isize, sq.rank() as isize);
        let (df, dr) = dir.delta();
        let (ef, er) = (f + df * steps as isize, r + dr * steps as isize);
        if ef < 0 || er < 0 || ef >= size as isize || er >= size as isize {
            return bad("the spread leaves the board");
        }
        match Move::spread_from_drops(sq, dir, &drops) {
            Some(mv) => Ok(mv),
            None => bad("bad drops"),
        }
    }
}

impl Position {
    /// Parses a PTN move and checks it is legal here.
    ///
    /// ```
    /// use menhir::core::Position;
    /// let pos = Position::start(5).unwrap();
    /// assert!(pos.parse_move("a1").is_ok());
    /// assert!(pos.parse_move("Ca1").is_err()); // the opening places a flat
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        let mv = Move::parse_ptn(text, self.size())?;
        if self.result().is_some() {
            return Err(format!("'{text}' cannot be played: the game is over"));
        }
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(format!(
                "'{text}' is not legal here: {}",
                self.why_illegal(mv)
            ))
        }
    }

    /// Why a syntactically valid move on this board is illegal here (for error messages).
    fn why_illegal(&self, mv: Move) -> String {
        let sq = mv.square();
        let me = self.to_move();
        if mv.is_placement() {
            return if !self.stack(sq).is_empty() {
                format!("{sq} is occupied")
            } else if self.is_opening() {
                "the first move of each player places a flat".into()
            } else if mv.kind() == PieceKind::Cap {
                "no capstone left to place".into()
            } else {
                "no stone left to place".into()
            };
        }
        if self.is_opening() {
            return "the first move of each player is a placement".into();
        }
        let Some(owner) = self.stack(sq).top() else {
            return format!("{sq} is empty");
        };
        if owner != me {
            return format!("the stack on {sq} is not the mover's");
        }
        if mv.count() as usize > self.stack(sq).len() {
            return format!(
                "the stack on {sq} has {} pieces, fewer than {}",
                self.stack(sq).len(),
                mv.count()
            );
        }
        "the spread is blocked by a wall or capstone (only a capstone arriving alone flattens a wall)"
            .into()
    }
}
