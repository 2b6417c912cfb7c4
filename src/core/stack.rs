//! `Stack`: the colours of the pieces on one square, bottom to top.
//!
//! Only the top piece can be a wall or capstone, so a stack is a height and one colour bit per
//! piece. A `u128` holds all 104 pieces of an 8×8 game, the most a single stack can ever hold.

use super::piece::Color;

/// The pieces on a square: bit `i` is the colour of the `i`-th piece from the bottom (1 = Black).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Stack {
    bits: u128,
    height: u32,
}

/// The most pieces a stack can hold (every piece of both players on 8×8 is 104).
pub const MAX_HEIGHT: usize = 128;

impl Stack {
    /// An empty stack.
    pub const EMPTY: Stack = Stack { bits: 0, height: 0 };

    /// Builds a stack from its colour bits (bottom = bit 0) and height.
    #[inline]
    pub const fn from_bits(bits: u128, height: u32) -> Stack {
        Stack { bits, height }
    }

    /// Number of pieces.
    #[inline]
    pub const fn len(self) -> usize {
        self.height as usize
    }

    /// Whether the square is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.height == 0
    }

    /// The colour bits, bottom piece in bit 0.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.bits
    }

    /// The colour of the top piece, if any.
    #[inline]
    pub fn top(self) -> Option<Color> {
        (self.height > 0).then(|| Color::from_bit(self.bits >> (self.height - 1)))
    }

    /// The colour of the piece `i` places from the bottom.
    #[inline]
    pub fn get(self, i: usize) -> Color {
        Color::from_bit(self.bits >> i)
    }

    /// Puts one piece on top.
    #[inline]
    pub fn push(&mut self, color: Color) {
        self.bits |= (color as u128) << self.height;
        self.height += 1;
    }

    /// Puts `count` pieces on top, given as bits with the lowest one going first.
    #[inline]
    pub fn push_many(&mut self, bits: u128, count: u32) {
        self.bits |= bits << self.height;
        self.height += count;
    }

    /// Takes the top `count` pieces off, returned as bits with the lowest being the deepest taken.
    #[inline]
    pub fn take(&mut self, count: u32) -> u128 {
        debug_assert!(count <= self.height);
        self.height -= count;
        let taken = self.bits >> self.height;
        self.bits ^= taken << self.height;
        taken
    }

    /// Counts of (White, Black) pieces in the stack.
    pub fn counts(self) -> (u32, u32) {
        let black = self.bits.count_ones();
        (self.height - black, black)
    }

    /// Pieces from bottom to top.
    pub fn iter(self) -> impl Iterator<Item = Color> {
        (0..self.len()).map(move |i| self.get(i))
    }
}
