//! `Bitboard`: a set of squares as one `u64`, bit `rank * 8 + file`.

use super::square::{Direction, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Every square of a board of `size`.
    ///
    /// ```
    /// use menhir::core::Bitboard;
    /// assert_eq!(Bitboard::board(3).count(), 9);
    /// assert_eq!(Bitboard::board(8).count(), 64);
    /// ```
    #[inline]
    pub const fn board(size: usize) -> Bitboard {
        // The rank-0 row copied onto the first `size` ranks: a multiply, not a loop, as the
        // road tests build edges at every node. Bytes do not carry, as the row is below 256.
        Bitboard(((1u64 << size) - 1) * Bitboard::file(0, size).0)
    }

    /// The first `size` squares of rank `rank`.
    #[inline]
    pub const fn rank(rank: usize, size: usize) -> Bitboard {
        Bitboard(((1u64 << size) - 1) << (8 * rank))
    }

    /// The first `size` squares of file `file`.
    #[inline]
    pub const fn file(file: usize, size: usize) -> Bitboard {
        Bitboard((FILE_A >> (8 * (8 - size))) << file)
    }

    /// The set holding just `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Removes `sq`.
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::from_index_unchecked(self.0.trailing_zeros() as u8))
    }

    /// Every square one step from the set in any direction, kept inside `board`.
    #[inline]
    pub const fn neighbours(self, board: Bitboard) -> Bitboard {
        let b = self.0;
        Bitboard(((b << 8) | (b >> 8) | ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H)) & board.0)
    }

    /// The set shifted one step in `dir`, kept inside `board`.
    #[inline]
    pub const fn shift(self, dir: Direction, board: Bitboard) -> Bitboard {
        let b = self.0;
        Bitboard(
            match dir {
                Direction::North => b << 8,
                Direction::South => b >> 8,
                Direction::East => (b << 1) & !FILE_A,
                Direction::West => (b >> 1) & !FILE_H,
            } & board.0,
        )
    }

    /// The squares of the set reachable from `seed` through the set (orthogonal flood fill).
    #[inline]
    pub fn flood(self, seed: Bitboard) -> Bitboard {
        let mut filled = seed & self;
        loop {
            let next = (filled | filled.neighbours(self)) & self;
            if next == filled {
                return filled;
            }
            filled = next;
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bit_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{MAX_SIZE, MIN_SIZE};

    #[test]
    fn board_ranks_and_files_hold_their_squares() {
        for size in MIN_SIZE..=MAX_SIZE {
            let on_board = |rank: usize, file: usize| rank < size && file < size;
            let set = |pred: &dyn Fn(usize, usize) -> bool| {
                (0..64).fold(0u64, |bits, i| bits | (pred(i / 8, i % 8) as u64) << i)
            };
            assert_eq!(Bitboard::board(size).0, set(&on_board), "board {size}");
            for line in 0..size {
                let file = set(&|r, f| on_board(r, f) && f == line);
                let rank = set(&|r, f| on_board(r, f) && r == line);
                assert_eq!(Bitboard::file(line, size).0, file, "file {line} of {size}");
                assert_eq!(Bitboard::rank(line, size).0, rank, "rank {line} of {size}");
            }
        }
    }
}
