//! Legal move generation and counting.
//!
//! Spreads are enumerated from precomputed drop-mask lists: for a pick-up limit `c` the masks
//! with count ≤ `c` are sorted by the number of squares they travel, so the masks that fit in a
//! free run of `d` squares are a prefix of that list. Counting (for perft) uses the prefix
//! lengths alone.

use super::moves::{Move, MoveList};
use super::piece::PieceKind;
use super::position::Position;
use super::square::{Direction, Square};

/// For each pick-up limit `c` (index `c - 1`), every mask of count ≤ `c`, sorted by distance.
struct SpreadTables {
    masks: [[u8; 255]; 8],
    /// `prefix[c - 1][d]`: how many of `masks[c - 1]` travel at most `d` squares.
    prefix: [[u16; 9]; 8],
    /// `smashes[c - 1][d]`: spreads of count ≤ `c` that travel `d` free squares and then put
    /// exactly one piece (the capstone) on a wall on square `d + 1`.
    smashes: [[u16; 8]; 8],
}

const fn build_tables() -> SpreadTables {
    let mut t = SpreadTables {
        masks: [[0; 255]; 8],
        prefix: [[0; 9]; 8],
        smashes: [[0; 8]; 8],
    };
    let mut c = 1;
    while c <= 8 {
        let mut n = 0;
        let mut d = 0;
        while d <= 8 {
            let mut m = 1u32;
            while m < (1 << c) {
                if m.count_ones() == d {
                    t.masks[c - 1][n] = m as u8;
                    n += 1;
                }
                m += 1;
            }
            t.prefix[c - 1][d as usize] = n as u16;
            d += 1;
        }
        let mut m = 1u32;
        while m < (1 << c) {
            let top = 31 - m.leading_zeros();
            let last_is_single = top == 0 || (m >> (top - 1)) & 1 == 1;
            if last_is_single {
                t.smashes[c - 1][(m.count_ones() - 1) as usize] += 1;
            }
            m += 1;
        }
        c += 1;
    }
    t
}

static TABLES: SpreadTables = build_tables();

const fn build_rays() -> [[u64; 64]; 4] {
    let mut rays = [[0u64; 64]; 4];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as isize, (sq / 8) as isize);
        let mut dir = 0;
        while dir < 4 {
            let (df, dr) = Direction::ALL[dir].delta();
            let (mut f, mut r) = (file + df, rank + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                rays[dir][sq] |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            dir += 1;
        }
        sq += 1;
    }
    rays
}

/// `RAYS[dir][sq]`: squares strictly beyond `sq` in `dir` on an 8×8 board.
static RAYS: [[u64; 64]; 4] = build_rays();

/// The free run from a square in one direction.
#[derive(Clone, Copy)]
pub(super) struct Reach {
    /// Free squares before the edge or a blocker.
    pub(super) distance: usize,
    /// Whether the run ends on a wall (which a lone capstone may flatten).
    pub(super) wall_after: bool,
}

impl Position {
    #[inline]
    pub(super) fn reach(&self, sq: Square, dir: Direction) -> Reach {
        let ray = RAYS[dir as usize][sq.index()] & self.board.0;
        let blockers = ray & (self.walls.0 | self.caps.0);
        if blockers == 0 {
            return Reach {
                distance: ray.count_ones() as usize,
                wall_after: false,
            };
        }
        let blocker = match dir {
            Direction::North | Direction::East => blockers.trailing_zeros(),
            Direction::South | Direction::West => 63 - blockers.leading_zeros(),
        } as usize;
        let step = dir.offset().unsigned_abs();
        Reach {
            distance: blocker.abs_diff(sq.index()) / step - 1,
            wall_after: self.walls.0 >> blocker & 1 != 0,
        }
    }

    /// Appends every legal move to `moves` (which it does not clear). No moves once the game
    /// is over is the caller's business: this generates the moves of the rules of a turn.
    ///
    /// ```
    /// use menhir::core::{MoveList, Position};
    /// let pos = Position::start(6).unwrap();
    /// let mut moves = MoveList::new();
    /// pos.generate_moves(&mut moves);
    /// assert_eq!(moves.len(), 36);
    /// ```
    pub fn generate_moves(&self, moves: &mut MoveList) {
        let empty = self.empty();
        if self.is_opening() {
            for sq in empty {
                moves.push(Move::place(sq, PieceKind::Flat));
            }
            return;
        }
        let me = self.to_move;
        let has_stones = self.stones(me) > 0;
        let has_cap = self.capstones(me) > 0;
        for sq in empty {
            if has_stones {
                moves.push(Move::place(sq, PieceKind::Flat));
                moves.push(Move::place(sq, PieceKind::Wall));
            }
            if has_cap {
                moves.push(Move::place(sq, PieceKind::Cap));
            }
        }
        for sq in self.tops(me) {
            for dir in Direction::ALL {
                self.push_spreads(sq, dir, moves);
            }
        }
    }

    /// Appends the legal spreads from `sq` (which the mover controls) towards `dir`.
    #[inline]
    pub(super) fn push_spreads(&self, sq: Square, dir: Direction, moves: &mut MoveList) {
        let carry = self.stacks[sq.index()].len().min(self.size());
        let reach = self.reach(sq, dir);
        let masks = &TABLES.masks[carry - 1];
        let fitting = TABLES.prefix[carry - 1][reach.distance] as usize;
        for &mask in &masks[..fitting] {
            moves.push(Move::spread(sq, dir, mask));
        }
        if reach.wall_after && self.caps.contains(sq) {
            self.push_smashes(sq, dir, carry, reach.distance, moves);
        }
    }

    /// Spreads that end with the capstone alone flattening the wall `distance + 1` squares away.
    fn push_smashes(
        &self,
        sq: Square,
        dir: Direction,
        carry: usize,
        distance: usize,
        moves: &mut MoveList,
    ) {
        let masks = &TABLES.masks[carry - 1];
        let start = TABLES.prefix[carry - 1][distance] as usize;
        let end = TABLES.prefix[carry - 1][distance + 1] as usize;
        for &mask in &masks[start..end] {
            let top = 7 - mask.leading_zeros();
            if top == 0 || (mask >> (top - 1)) & 1 == 1 {
                moves.push(Move::spread(sq, dir, mask));
            }
        }
    }

    /// The number of legal moves, without generating them (the last ply of a counting perft).
    pub fn count_moves(&self) -> u64 {
        let empty = self.empty().count() as u64;
        if self.is_opening() {
            return empty;
        }
        let me = self.to_move;
        let kinds = 2 * (self.stones(me) > 0) as u64 + (self.capstones(me) > 0) as u64;
        let mut total = empty * kinds;
        let size = self.size();
        for sq in self.tops(me) {
            let carry = self.stacks[sq.index()].len().min(size);
            let is_cap = self.caps.contains(sq);
            for dir in Direction::ALL {
                let reach = self.reach(sq, dir);
                total += TABLES.prefix[carry - 1][reach.distance] as u64;
                if is_cap && reach.wall_after {
                    total += TABLES.smashes[carry - 1][reach.distance] as u64;
                }
            }
        }
        total
    }

    /// Whether `mv` is legal here. Cheap enough for checking a table move in search.
    pub fn is_legal(&self, mv: Move) -> bool {
        let sq = mv.square();
        if !self.board.contains(sq) || mv == Move::NULL {
            return false;
        }
        let me = self.to_move;
        if mv.is_placement() {
            let kind = mv.kind();
            if !self.empty().contains(sq) || (mv.to_bits() >> 6) & 3 == 3 {
                return false;
            }
            if self.is_opening() {
                return kind == PieceKind::Flat;
            }
            return match kind {
                PieceKind::Cap => self.capstones(me) > 0,
                _ => self.stones(me) > 0,
            };
        }
        if self.is_opening() || !self.tops(me).contains(sq) {
            return false;
        }
        let count = mv.count() as usize;
        let carry = self.stacks[sq.index()].len().min(self.size());
        if count > carry {
            return false;
        }
        let reach = self.reach(sq, mv.direction());
        let distance = mv.distance() as usize;
        if distance <= reach.distance {
            return true;
        }
        // Only a lone capstone may go one square further, onto a wall.
        let top = 7 - mv.drop_mask().leading_zeros();
        let last_single = top == 0 || (mv.drop_mask() >> (top - 1)) & 1 == 1;
        distance == reach.distance + 1 && reach.wall_after && self.caps.contains(sq) && last_single
    }
}
