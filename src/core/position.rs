//! `Position`: the board, reserves, side to move and hash, with make and unmake.
//!
//! Top pieces live in four bitboards (by colour, and walls and capstones by kind); full stacks
//! live in `stacks`. `do_move` returns an `Undo` token that `undo_move` needs; together they
//! restore the position bit for bit, hash included.

use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::{Color, PieceKind};
use super::square::{Square, MAX_SIZE, MIN_SIZE};
use super::stack::Stack;
use super::zobrist::{placement_key, side_key, square_key, SIDE_KEY};

/// Stones and capstones each player starts with, by board size (rules.md).
pub const fn starting_reserves(size: usize) -> (u8, u8) {
    match size {
        3 => (10, 0),
        4 => (15, 0),
        5 => (21, 1),
        6 => (30, 1),
        7 => (40, 2),
        _ => (50, 2),
    }
}

/// What `undo_move` needs to reverse a move.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    hash: u64,
    reversible_plies: u16,
    /// A spread: whether it flattened a wall. A placement: whether the piece was Black's.
    /// Undoing a placement then needs no load from the board to know what to clear.
    flag: bool,
}

/// A Tak position of any size from 3 to 8.
#[derive(Clone, Debug)]
pub struct Position {
    pub(super) size: u8,
    pub(super) board: Bitboard,
    pub(super) stacks: [Stack; 64],
    /// Squares whose top piece is White's / Black's.
    pub(super) tops: [Bitboard; 2],
    pub(super) walls: Bitboard,
    pub(super) caps: Bitboard,
    pub(super) stones: [u8; 2],
    pub(super) capstones: [u8; 2],
    pub(super) to_move: Color,
    pub(super) ply: u16,
    pub(super) half_komi: i8,
    pub(super) hash: u64,
    /// Hashes of earlier positions, oldest first, for repetition.
    pub(super) history: Vec<u64>,
    /// Plies since the last placement: no position before it can come back.
    pub(super) reversible_plies: u16,
}

impl PartialEq for Position {
    /// Two positions are equal when everything but the repetition history agrees.
    fn eq(&self, other: &Position) -> bool {
        self.size == other.size
            && self.stacks == other.stacks
            && self.tops == other.tops
            && self.walls == other.walls
            && self.caps == other.caps
            && self.stones == other.stones
            && self.capstones == other.capstones
            && self.to_move == other.to_move
            && self.ply == other.ply
            && self.half_komi == other.half_komi
            && self.hash == other.hash
            && self.reversible_plies == other.reversible_plies
    }
}
impl Eq for Position {}

impl Position {
    /// The empty start position of a board of `size`, or an error for a size outside 3..=8.
    ///
    /// ```
    /// use menhir::core::Position;
    /// let pos = Position::start(5).unwrap();
    /// assert_eq!(pos.size(), 5);
    /// assert!(Position::start(9).is_err());
    /// ```
    pub fn start(size: usize) -> Result<Position, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!("board size {size} is not supported (3 to 8)"));
        }
        let (stones, caps) = starting_reserves(size);
        Ok(Position {
            size: size as u8,
            board: Bitboard::board(size),
            stacks: [Stack::EMPTY; 64],
            tops: [Bitboard::EMPTY; 2],
            walls: Bitboard::EMPTY,
            caps: Bitboard::EMPTY,
            stones: [stones; 2],
            capstones: [caps; 2],
            to_move: Color::White,
            ply: 0,
            half_komi: 0,
            hash: 0,
            history: Vec::with_capacity(256),
            reversible_plies: 0,
        })
    }

    /// Board size.
    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// Every square of the board.
    #[inline]
    pub fn board(&self) -> Bitboard {
        self.board
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Plies played since the start (from the TPS move number for a TPS position).
    #[inline]
    pub fn ply(&self) -> usize {
        self.ply as usize
    }

    /// Whether the side to move is in the opening, placing an opponent's flat.
    #[inline]
    pub fn is_opening(&self) -> bool {
        self.ply < 2
    }

    /// Komi in half flats, added to Black's flat count.
    #[inline]
    pub fn half_komi(&self) -> i32 {
        self.half_komi as i32
    }

    /// Sets komi (half flats). The hash does not include komi: it is fixed for a game.
    pub fn set_half_komi(&mut self, half_komi: i32) {
        self.half_komi = half_komi.clamp(i8::MIN as i32, i8::MAX as i32) as i8;
    }

    /// The incrementally kept hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; equals `hash()` in a consistent position.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = side_key(self.to_move);
        for sq in self.board {
            hash ^= square_key(sq, self.stacks[sq.index()], self.top_kind(sq));
        }
        hash
    }

    /// The stack on `sq`.
    #[inline]
    pub fn stack(&self, sq: Square) -> Stack {
        self.stacks[sq.index()]
    }

    /// The top piece on `sq`, if any.
    #[inline]
    pub fn top(&self, sq: Square) -> Option<(Color, PieceKind)> {
        let color = self.stacks[sq.index()].top()?;
        Some((color, self.top_kind(sq)))
    }

    /// The kind of the top piece on `sq` (flat for an empty square).
    #[inline]
    pub fn top_kind(&self, sq: Square) -> PieceKind {
        if self.walls.contains(sq) {
            PieceKind::Wall
        } else if self.caps.contains(sq) {
            PieceKind::Cap
        } else {
            PieceKind::Flat
        }
    }

    /// Squares topped by a piece of `color`.
    #[inline]
    pub fn tops(&self, color: Color) -> Bitboard {
        self.tops[color.index()]
    }

    /// Occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.tops[0] | self.tops[1]
    }

    /// Empty squares.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.board & !self.occupied()
    }

    /// Squares topped by a wall.
    #[inline]
    pub fn walls(&self) -> Bitboard {
        self.walls
    }

    /// Squares topped by a capstone.
    #[inline]
    pub fn caps(&self) -> Bitboard {
        self.caps
    }

    /// Squares topped by a flat.
    #[inline]
    pub fn flats(&self) -> Bitboard {
        self.occupied() & !self.walls & !self.caps
    }

    /// Squares that count for `color`'s roads: its flats and capstones on top.
    #[inline]
    pub fn road_pieces(&self, color: Color) -> Bitboard {
        self.tops[color.index()] & !self.walls
    }

    /// Stones left in `color`'s reserve.
    #[inline]
    pub fn stones(&self, color: Color) -> u32 {
        self.stones[color.index()] as u32
    }

    /// Capstones left in `color`'s reserve.
    #[inline]
    pub fn capstones(&self, color: Color) -> u32 {
        self.capstones[color.index()] as u32
    }

    /// Pieces (stones and capstones) left in `color`'s reserve.
    #[inline]
    pub fn pieces_in_reserve(&self, color: Color) -> u32 {
        self.stones(color) + self.capstones(color)
    }

    /// Placements before the game can end on flats: the fewer of the smaller reserve and the
    /// empty squares (placing the last piece of a reserve, or on the last empty square, ends it).
    #[inline]
    pub fn placements_left(&self) -> u32 {
        self.pieces_in_reserve(Color::White)
            .min(self.pieces_in_reserve(Color::Black))
            .min(self.empty().count())
    }

    /// Plies since the last placement.
    #[inline]
    pub fn reversible_plies(&self) -> usize {
        self.reversible_plies as usize
    }

    /// Hashes of the positions before this one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Forgets the repetition history (for a new root of analysis).
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.reversible_plies = 0;
    }

    /// Makes the top bitboards of `sq` describe `stack` topped by `kind`.
    ///
    /// Each bitboard is updated on its own: clearing both colours in one go lets the compiler
    /// merge the two into a 16-byte access, which stalls on the 8-byte stores just made.
    #[inline]
    fn set_top(&mut self, sq: Square, stack: Stack, kind: PieceKind) {
        let bit = Bitboard::from_square(sq);
        let old_color = self.tops[1].contains(sq) as usize;
        self.tops[old_color] &= !bit;
        if self.walls.contains(sq) {
            self.walls &= !bit;
        }
        if self.caps.contains(sq) {
            self.caps &= !bit;
        }
        if let Some(color) = stack.top() {
            self.tops[color.index()] |= bit;
            match kind {
                PieceKind::Flat => {}
                PieceKind::Wall => self.walls |= bit,
                PieceKind::Cap => self.caps |= bit,
            }
        }
    }

    /// Places or replaces the whole content of a square, keeping bitboards and hash right.
    /// Used by TPS parsing; reserves are the caller's business.
    pub(super) fn put_stack(&mut self, sq: Square, stack: Stack, kind: PieceKind) {
        self.hash ^= square_key(sq, self.stacks[sq.index()], self.top_kind(sq));
        self.stacks[sq.index()] = stack;
        self.set_top(sq, stack, kind);
        self.hash ^= square_key(sq, stack, kind);
    }

    /// Sets side to move and ply directly (TPS parsing).
    pub(super) fn set_turn(&mut self, to_move: Color, ply: u16) {
        self.hash ^= side_key(self.to_move) ^ side_key(to_move);
        self.to_move = to_move;
        self.ply = ply;
    }

    /// Plays `mv`, which must be legal here, and returns what `undo_move` needs.
    #[inline(always)]
    pub fn do_move(&mut self, mv: Move) -> Undo {
        let mut undo = Undo {
            hash: self.hash,
            reversible_plies: self.reversible_plies,
            flag: false,
        };
        self.history.push(self.hash);
        if mv.is_placement() {
            undo.flag = self.do_placement(mv) == Color::Black;
            self.reversible_plies = 0;
        } else {
            undo.flag = self.do_spread(mv);
            self.reversible_plies += 1;
        }
        self.to_move = !self.to_move;
        self.hash ^= SIDE_KEY;
        self.ply += 1;
        undo
    }

    /// Returns the colour of the piece placed.
    #[inline]
    fn do_placement(&mut self, mv: Move) -> Color {
        let sq = mv.square();
        let kind = mv.kind();
        let color = if self.is_opening() {
            !self.to_move
        } else {
            self.to_move
        };
        if kind == PieceKind::Cap {
            self.capstones[color.index()] -= 1;
        } else {
            self.stones[color.index()] -= 1;
        }
        let stack = Stack::from_bits(color as u128, 1);
        self.stacks[sq.index()] = stack;
        let bit = Bitboard::from_square(sq);
        self.tops[color.index()] |= bit;
        match kind {
            PieceKind::Flat => {}
            PieceKind::Wall => self.walls |= bit,
            PieceKind::Cap => self.caps |= bit,
        }
        self.hash ^= placement_key(sq, color, kind);
        color
    }

    /// Returns whether a wall was flattened.
    #[inline(never)]
    fn do_spread(&mut self, mv: Move) -> bool {
        let mut sq = mv.square();
        let dir = mv.direction();
        let count = mv.count();
        let moving_kind = self.top_kind(sq);

        let mut source = self.stacks[sq.index()];
        self.hash ^= square_key(sq, source, moving_kind);
        let mut carried = source.take(count);
        self.stacks[sq.index()] = source;
        self.set_top(sq, source, PieceKind::Flat);
        self.hash ^= square_key(sq, source, PieceKind::Flat);

        let mut mask = mv.drop_mask() as u32;
        let mut smashed = false;
        while mask != 0 {
            sq = Square::from_index_unchecked((sq.index() as isize + dir.offset()) as u8);
            let n = mask.trailing_zeros() + 1;
            mask >>= n;
            let mut dest = self.stacks[sq.index()];
            let old_kind = self.top_kind(sq);
            self.hash ^= square_key(sq, dest, old_kind);
            dest.push_many(carried & ((1u128 << n) - 1), n);
            carried >>= n;
            self.stacks[sq.index()] = dest;
            let kind = if mask == 0 {
                smashed = old_kind == PieceKind::Wall;
                moving_kind
            } else {
                PieceKind::Flat
            };
            self.set_top(sq, dest, kind);
            self.hash ^= square_key(sq, dest, kind);
        }
        smashed
    }

    /// Takes back `mv`, the last move played, with the token `do_move` returned.
    #[inline(always)]
    pub fn undo_move(&mut self, mv: Move, undo: Undo) {
        self.to_move = !self.to_move;
        self.ply -= 1;
        self.history.pop();
        if mv.is_placement() {
            let sq = mv.square();
            let color = if undo.flag {
                Color::Black
            } else {
                Color::White
            };
            let bit = Bitboard::from_square(sq);
            match mv.kind() {
                PieceKind::Cap => {
                    self.capstones[color.index()] += 1;
                    self.caps &= !bit;
                }
                PieceKind::Wall => {
                    self.stones[color.index()] += 1;
                    self.walls &= !bit;
                }
                PieceKind::Flat => self.stones[color.index()] += 1,
            }
            self.tops[color.index()] &= !bit;
            self.stacks[sq.index()] = Stack::EMPTY;
        } else {
            self.undo_spread(mv, undo.flag);
        }
        self.hash = undo.hash;
        self.reversible_plies = undo.reversible_plies;
    }

    #[inline(never)]
    fn undo_spread(&mut self, mv: Move, smashed: bool) {
        let origin = mv.square();
        let dir = mv.direction();
        let distance = mv.distance() as isize;
        let mut sq =
            Square::from_index_unchecked((origin.index() as isize + dir.offset() * distance) as u8);
        let moving_kind = self.top_kind(sq);

        // Walk back from the last square, gathering the carried pieces top first.
        let mut carried: u128 = 0;
        let mut carried_len = 0;
        let mut mask = (mv.drop_mask() as u32) << 1; // bit i+1 marks a drop ending at piece i
        let mut first = true;
        while sq != origin {
            let top_piece = 31 - mask.leading_zeros(); // end of this square's drop + 1
            mask ^= 1 << top_piece;
            let below = if mask == 0 {
                0
            } else {
                31 - mask.leading_zeros()
            };
            let n = top_piece - below;
            let mut dest = self.stacks[sq.index()];
            let taken = dest.take(n);
            self.stacks[sq.index()] = dest;
            carried = (carried << n) | taken;
            carried_len += n;
            let kind = if first && smashed {
                PieceKind::Wall
            } else {
                PieceKind::Flat
            };
            first = false;
            self.set_top(sq, dest, kind);
            sq = Square::from_index_unchecked((sq.index() as isize - dir.offset()) as u8);
        }
        let mut source = self.stacks[origin.index()];
        source.push_many(carried, carried_len);
        self.stacks[origin.index()] = source;
        self.set_top(origin, source, moving_kind);
    }

    /// The squares whose stacks `mv` changes: a placement's square, or a spread's origin and
    /// every square it drops on.
    ///
    /// ```
    /// use menhir::core::Position;
    /// let pos = Position::from_tps("x4/x4/x,21,x2/x4 1 3").unwrap();
    /// assert_eq!(pos.move_squares(pos.parse_move("2b2>11").unwrap()).count(), 3);
    /// assert_eq!(pos.move_squares(pos.parse_move("a1").unwrap()).count(), 1);
    /// ```
    #[inline]
    pub fn move_squares(&self, mv: Move) -> Bitboard {
        let mut squares = Bitboard::from_square(mv.square());
        if !mv.is_placement() {
            let mut at = squares;
            for _ in 0..mv.distance() {
                at = at.shift(mv.direction(), self.board());
                squares |= at;
            }
        }
        squares
    }

    /// Plays a null move: the side to move passes. Only for search (null-move pruning).
    #[inline]
    pub fn do_null_move(&mut self) {
        self.to_move = !self.to_move;
        self.hash ^= SIDE_KEY;
    }

    /// Takes back `do_null_move`.
    #[inline]
    pub fn undo_null_move(&mut self) {
        self.do_null_move();
    }
}
