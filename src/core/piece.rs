//! Colours and piece kinds.

use std::ops::Not;

/// A player's colour. White (player 1) moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Player 1, `1` in TPS.
    White = 0,
    /// Player 2, `2` in TPS.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// From 0 (White) or anything else (Black).
    #[inline]
    pub const fn from_bit(bit: u128) -> Color {
        if bit & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// +1 for White, -1 for Black: turns a White-view score into the mover's view.
    #[inline]
    pub const fn sign(self) -> i32 {
        1 - 2 * (self as i32)
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// What a top piece is. Every piece below the top of a stack is a flat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PieceKind {
    /// A flat stone: counts for roads and flat wins, can be stacked on.
    Flat = 0,
    /// A standing stone: blocks roads and stacking.
    Wall = 1,
    /// A capstone: counts for roads, blocks stacking, can flatten a wall.
    Cap = 2,
}

impl PieceKind {
    /// From the 2-bit encoding used in moves.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        match i {
            0 => Some(PieceKind::Flat),
            1 => Some(PieceKind::Wall),
            2 => Some(PieceKind::Cap),
            _ => None,
        }
    }

    /// The PTN prefix: empty for a flat, `S`, `C`.
    pub const fn ptn_prefix(self) -> &'static str {
        match self {
            PieceKind::Flat => "",
            PieceKind::Wall => "S",
            PieceKind::Cap => "C",
        }
    }
}
