//! `Move`: a placement or a spread, packed in 16 bits. Text forms live in `ptn.rs`.
//!
//! Layout: bits 0–5 square, bits 6–7 piece kind (placement) or direction (spread), bits 8–15
//! the drop mask (zero for a placement). In the drop mask, carried piece `j` (counting from the
//! bottom of the carried pieces, which is dropped first) has its bit set when it is the last
//! piece dropped on its square. So the pick-up count is the highest set bit plus one and the
//! number of squares travelled is the number of set bits.

use super::piece::PieceKind;
use super::square::{Direction, Square};

/// A move. Copy it freely: it is two bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(u16);

impl Move {
    /// The null move: never legal, used to mark "no move" in tables.
    pub const NULL: Move = Move(0xFFFF);

    /// A placement of `kind` on `sq`.
    #[inline]
    pub const fn place(sq: Square, kind: PieceKind) -> Move {
        Move(sq.index() as u16 | (kind as u16) << 6)
    }

    /// A spread from `sq` towards `dir` with the given drop mask (see the module note).
    #[inline]
    pub const fn spread(sq: Square, dir: Direction, drop_mask: u8) -> Move {
        Move(sq.index() as u16 | (dir as u16) << 6 | (drop_mask as u16) << 8)
    }

    /// A spread from its drop counts, first square first. `None` if the counts are empty,
    /// hold a zero, sum over 8 or travel over 7 squares.
    ///
    /// ```
    /// use menhir::core::{Direction, Move, Square};
    /// let sq = Square::new(1, 3, 5).unwrap();
    /// let mv = Move::spread_from_drops(sq, Direction::East, &[2, 1, 2]).unwrap();
    /// assert_eq!(mv.count(), 5);
    /// assert_eq!(mv.drops().collect::<Vec<_>>(), vec![2, 1, 2]);
    /// ```
    pub fn spread_from_drops(sq: Square, dir: Direction, drops: &[u32]) -> Option<Move> {
        let mut mask = 0u32;
        let mut carried = 0u32;
        for &d in drops {
            if d == 0 {
                return None;
            }
            carried += d;
            if carried > 8 {
                return None;
            }
            mask |= 1 << (carried - 1);
        }
        (mask != 0).then(|| Move::spread(sq, dir, mask as u8))
    }

    /// The square placed on, or the square the spread starts from.
    #[inline]
    pub const fn square(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u8)
    }

    /// Whether this is a placement.
    #[inline]
    pub const fn is_placement(self) -> bool {
        self.0 >> 8 == 0
    }

    /// Whether this is a wall placement: a wall is no road piece, so it makes no road and no
    /// road threat (the road tests after a move skip it).
    ///
    /// ```
    /// use menhir::core::{Direction, Move, PieceKind, Square};
    /// let a1 = Square::new(0, 0, 5).unwrap();
    /// assert!(Move::place(a1, PieceKind::Wall).places_wall());
    /// assert!(!Move::place(a1, PieceKind::Cap).places_wall());
    /// // A spread's direction sits where a placement keeps its kind: still no wall.
    /// assert!(!Move::spread(a1, Direction::South, 1).places_wall());
    /// ```
    #[inline]
    pub const fn places_wall(self) -> bool {
        self.is_placement() && matches!(self.kind(), PieceKind::Wall)
    }

    /// The kind placed (flat for a spread).
    #[inline]
    pub const fn kind(self) -> PieceKind {
        match (self.0 >> 6) & 3 {
            1 => PieceKind::Wall,
            2 => PieceKind::Cap,
            _ => PieceKind::Flat,
        }
    }

    /// The direction of a spread.
    #[inline]
    pub const fn direction(self) -> Direction {
        Direction::from_index(((self.0 >> 6) & 3) as usize)
    }

    /// The drop mask of a spread (see the module note).
    #[inline]
    pub const fn drop_mask(self) -> u8 {
        (self.0 >> 8) as u8
    }

    /// Pieces picked up by a spread (0 for a placement).
    #[inline]
    pub const fn count(self) -> u32 {
        8 - (self.drop_mask().leading_zeros())
    }

    /// Squares travelled by a spread.
    #[inline]
    pub const fn distance(self) -> u32 {
        self.drop_mask().count_ones()
    }

    /// The number of pieces dropped on each square travelled, first square first.
    pub fn drops(self) -> impl Iterator<Item = u32> {
        let mut mask = self.drop_mask() as u32;
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let n = mask.trailing_zeros() + 1;
                mask >>= n;
                n
            })
        })
    }

    /// The raw 16-bit encoding (for hash tables).
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// From the raw encoding.
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}

/// A caller-owned buffer of moves, reused across nodes so generation never allocates once warm.
#[derive(Clone, Default, Debug)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    /// An empty list with room for a typical position.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(512),
        }
    }

    /// Empties the list, keeping its storage.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves, in generation order.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves, mutable (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.moves.contains(&mv)
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves
    }
}
