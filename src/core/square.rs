//! Board geometry: squares, directions and board sizes.
//!
//! Every size uses the same layout: square index = `rank * 8 + file`, so one `u64`
//! bitboard holds any board from 3×3 to 8×8 and neighbours are fixed shifts.

use std::fmt;

/// Smallest supported board size.
pub const MIN_SIZE: usize = 3;
/// Largest supported board size.
pub const MAX_SIZE: usize = 8;

/// A square, `rank * 8 + file`, with `a1` = 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = 1), if it is on a board of `size`.
    ///
    /// ```
    /// use menhir::core::Square;
    /// assert_eq!(Square::new(2, 1, 5).unwrap().to_string(), "c2");
    /// assert!(Square::new(5, 0, 5).is_none());
    /// ```
    pub fn new(file: usize, rank: usize, size: usize) -> Option<Square> {
        (file < size && rank < size).then(|| Square((rank * 8 + file) as u8))
    }

    /// Builds a square from its raw index without checking it: for hot paths that derive the
    /// index from a bitboard. An index off the board in use gives wrong lookups, not UB.
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Square {
        Square(index)
    }

    /// The raw index, `rank * 8 + file`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> usize {
        (self.0 & 7) as usize
    }

    /// Rank, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> usize {
        (self.0 >> 3) as usize
    }

    /// The neighbour in `dir`, if it is on a board of `size`.
    #[inline]
    pub fn step(self, dir: Direction, size: usize) -> Option<Square> {
        let (file, rank) = (self.file() as isize, self.rank() as isize);
        let (df, dr) = dir.delta();
        let (f, r) = (file + df, rank + dr);
        (f >= 0 && r >= 0 && (f as usize) < size && (r as usize) < size)
            .then(|| Square((r * 8 + f) as u8))
    }

    /// Parses `a1`..`h8`, checking it lies on a board of `size`.
    ///
    /// ```
    /// use menhir::core::Square;
    /// assert_eq!(Square::parse("e5", 5).unwrap().index(), 36);
    /// assert!(Square::parse("f1", 5).is_err());
    /// ```
    pub fn parse(text: &str, size: usize) -> Result<Square, String> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return Err(format!("'{text}' is not a square"));
        }
        Square::new((b[0] - b'a') as usize, (b[1] - b'1') as usize, size)
            .ok_or_else(|| format!("square {text} is off the {size}x{size} board"))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

/// One of the four orthogonal directions, named as PTN writes them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// `+`, towards higher ranks.
    North = 0,
    /// `-`, towards rank 1.
    South = 1,
    /// `>`, towards higher files.
    East = 2,
    /// `<`, towards file a.
    West = 3,
}

impl Direction {
    /// All four, in encoding order.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    /// From the 2-bit encoding.
    #[inline]
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i & 3]
    }

    /// The change in (file, rank) of one step.
    #[inline]
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Direction::North => (0, 1),
            Direction::South => (0, -1),
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
        }
    }

    /// The change in square index of one step.
    #[inline]
    pub const fn offset(self) -> isize {
        match self {
            Direction::North => 8,
            Direction::South => -8,
            Direction::East => 1,
            Direction::West => -1,
        }
    }

    /// The PTN symbol: `+ - > <`.
    pub const fn symbol(self) -> char {
        match self {
            Direction::North => '+',
            Direction::South => '-',
            Direction::East => '>',
            Direction::West => '<',
        }
    }

    /// Parses a PTN symbol.
    pub fn from_symbol(c: char) -> Option<Direction> {
        match c {
            '+' => Some(Direction::North),
            '-' => Some(Direction::South),
            '>' => Some(Direction::East),
            '<' => Some(Direction::West),
            _ => None,
        }
    }
}
