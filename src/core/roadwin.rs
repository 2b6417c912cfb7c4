//! Road threats: where a player could complete a road with one move.
//!
//! The search asks this at every node ("take a road in one", "stop the opponent's road"), so it
//! plays nothing: placements come from four flood fills, and spreads are tried only from lines
//! that could join two opposite edges, each judged on bitboards from the stack's colours.

use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::rules::has_road;
use super::square::{Direction, Square};

impl Position {
    /// Empty squares where a flat of `color` would complete a road for `color` (whether or not
    /// `color` has a piece left to place there).
    ///
    /// A placement on an empty square makes a south–north road exactly when it touches (or lies
    /// on) the south edge through the groups already connected to it, and likewise the north
    /// edge; so four floods give every completing square at once.
    ///
    /// ```
    /// use menhir::core::{Color, Position, Square};
    /// let pos = Position::from_tps("x3/1,2,x/1,2,x 1 3").unwrap();
    /// let squares: Vec<_> = pos.road_squares(Color::White).collect();
    /// assert_eq!(squares, vec![Square::new(0, 2, 3).unwrap()]);
    /// ```
    #[inline]
    pub fn road_squares(&self, color: Color) -> Bitboard {
        self.road_completions(color) & self.empty()
    }

    /// Squares, empty or not, where a road piece of `color` would complete a road for `color`
    /// if it stood there on top (the evaluation asks what stands on them: an own wall a
    /// capstone could flatten, an opponent flat a spread could cover, …). Squares already
    /// holding a road piece of `color` are never included.
    ///
    /// ```
    /// use menhir::core::{Color, Position, Square};
    /// let pos = Position::from_tps("2,x2/1,2,x/1,2,x 1 3").unwrap();
    /// let squares: Vec<_> = pos.road_completions(Color::White).collect();
    /// assert_eq!(squares, vec![Square::new(0, 2, 3).unwrap()]);
    /// assert!(pos.road_squares(Color::White).is_empty());
    /// ```
    #[inline]
    pub fn road_completions(&self, color: Color) -> Bitboard {
        let pieces = self.road_pieces(color);
        if pieces.count() + 1 < self.size() as u32 {
            return Bitboard::EMPTY;
        }
        EdgeGroups::of(pieces, self.size()).completions(self.board())
    }

    /// A move that gives the side to move a road at once, if there is one. Placements are
    /// preferred (a flat, or the capstone when no stone is left).
    ///
    /// ```
    /// use menhir::core::Position;
    /// let pos = Position::from_tps("x3/1,2,x/1,2,x 1 3").unwrap();
    /// assert_eq!(pos.road_win().unwrap().to_ptn(), "a3");
    /// ```
    pub fn road_win(&self) -> Option<Move> {
        if self.result().is_some() {
            return None;
        }
        self.road_win_in_play()
    }

    /// `road_win` of a position its caller knows is not over: the search asks at every node,
    /// after its own game-over test, so the test is not made twice more (here and after the
    /// null move of `opponent_road_in_one_in_play`).
    #[inline]
    pub fn road_win_in_play(&self) -> Option<Move> {
        debug_assert!(
            self.result().is_none(),
            "road_win_in_play of a finished game"
        );
        if self.is_opening() {
            return None;
        }
        let me = self.to_move();
        let pieces = self.road_pieces(me);
        // Flooded once, when a placement or a spread could make a road.
        let mut groups = None;
        if (self.stones(me) > 0 || self.capstones(me) > 0)
            && pieces.count() + 1 >= self.size() as u32
        {
            let groups = groups.insert(EdgeGroups::of(pieces, self.size()));
            if let Some(sq) = (groups.completions(self.board()) & self.empty()).first() {
                let kind = if self.stones(me) > 0 {
                    PieceKind::Flat
                } else {
                    PieceKind::Cap
                };
                return Some(Move::place(sq, kind));
            }
        }
        self.spread_road_win(pieces, groups)
    }

    /// Whether the opponent of the side to move would have a road at once if it were their
    /// move: a road threat (a tak) the side to move must answer. Roads only; flat endings too
    /// are `opponent_wins_in_one`.
    #[inline]
    pub fn opponent_road_in_one(&mut self) -> bool {
        self.do_null_move();
        let threat = self.road_win().is_some();
        self.undo_null_move();
        threat
    }

    /// `opponent_road_in_one` of a position its caller knows is not over (see
    /// `road_win_in_play`).
    #[inline]
    pub fn opponent_road_in_one_in_play(&mut self) -> bool {
        self.do_null_move();
        let threat = self.road_win_in_play().is_some();
        self.undo_null_move();
        threat
    }

    /// The first spread that gives the side to move a road (`pieces`: its road pieces; `groups`:
    /// their edge groups, if already flooded).
    fn spread_road_win(&self, pieces: Bitboard, groups: Option<EdgeGroups>) -> Option<Move> {
        let me = self.to_move();
        let size = self.size();
        let board = self.board();
        // A road covers at least `size` squares, and a spread adds at most height − 1 road
        // squares to its side (one a square it drops on, less the origin if it carries the
        // whole stack), so a stack no higher than the road squares missing cannot make one.
        let missing = (size as u32).saturating_sub(pieces.count()) as usize;
        // A spread's squares plus the groups they touch form one connected set, so it can only
        // make a road if that set reaches two opposite edges. Flooded once a high enough stack
        // is found, with the squares where one more road piece would complete a road.
        let mut groups = groups.map(|g| (g, g.completions(board)));
        for sq in self.tops(me) {
            let height = self.stack(sq).len();
            if height <= missing {
                continue;
            }
            let (groups, completions) = *groups.get_or_insert_with(|| {
                let g = EdgeGroups::of(pieces, size);
                (g, g.completions(board))
            });
            let from = Bitboard::from_square(sq);
            if height == 1 {
                // One piece moves one square: the road is the pieces less the origin plus that
                // square, so the square must be one that completes a road.
                if self.walls().contains(sq) {
                    continue;
                }
                for dir in Direction::ALL {
                    let target = from.shift(dir, board);
                    if (target & completions).is_empty() {
                        continue;
                    }
                    let reach = self.reach(sq, dir);
                    let smash = reach.wall_after && reach.distance == 0 && self.caps().contains(sq);
                    if (reach.distance > 0 || smash) && has_road((pieces & !from) | target, size) {
                        return Some(Move::spread(sq, dir, 1));
                    }
                }
                continue;
            }
            let carry = height.min(size);
            for dir in Direction::ALL {
                let reach = self.reach(sq, dir);
                // A capstone may go one square past the free run, onto a wall, if it can
                // carry that far.
                let smash = reach.wall_after && reach.distance < carry && self.caps().contains(sq);
                let steps = reach.distance.min(carry) + smash as usize;
                if steps == 0 {
                    continue;
                }
                let mut covered = Bitboard::from_square(sq);
                let mut line = [Bitboard::EMPTY; 8];
                let mut at = covered;
                for square in line.iter_mut().take(steps) {
                    at = at.shift(dir, board);
                    *square = at;
                    covered |= at;
                }
                if !groups.spans(covered, board) {
                    continue;
                }
                let line = &line[..steps];
                if let Some(mv) = self.spread_road_on_line(sq, dir, line, covered, smash, pieces) {
                    return Some(mv);
                }
            }
        }
        None
    }

    /// The first spread from `sq` along `line` (the squares it may reach, nearest first;
    /// `covered`: those and `sq`) that gives the side to move a road, trying drop patterns in
    /// move order.
    ///
    /// Many drop patterns leave the same squares topped by the mover (a stack of one colour
    /// leaves the same ones for every pattern of a given length), so each pattern is reduced to
    /// which of the origin and the line's squares end with a road piece of the mover on top, and
    /// only a reduction not seen before is flooded for a road: the search and the tinue solver
    /// ask this at every node, and tall stacks have up to 255 patterns a direction.
    #[inline]
    fn spread_road_on_line(
        &self,
        sq: Square,
        dir: Direction,
        line: &[Bitboard],
        covered: Bitboard,
        smash: bool,
        pieces: Bitboard,
    ) -> Option<Move> {
        let me = self.to_move();
        let stack = self.stack(sq);
        let height = stack.len();
        let steps = line.len();
        let carry = height.min(self.size());
        // Bit i: the i-th piece from the bottom is the mover's.
        let mine = !(stack.bits() ^ (me as u128).wrapping_neg());
        // The moving stack's top ends the spread on the last square; a wall there is no road.
        let wall_on_top = self.walls().contains(sq);
        let line_pieces = line.iter().enumerate().fold(0u32, |bits, (i, &s)| {
            bits | ((!(pieces & s).is_empty()) as u32) << i
        });
        let origin = Bitboard::from_square(sq);
        let outside = pieces & !covered;
        // Reductions already flooded: bit 0 the origin, bits 1.. the line's squares.
        let mut seen = [0u64; 8];
        for mask in 1u32..(1 << carry) {
            let distance = mask.count_ones() as usize;
            if distance > steps {
                continue;
            }
            // Onto a wall only a lone capstone goes.
            if smash && distance == steps {
                let top = 31 - mask.leading_zeros();
                if top != 0 && (mask >> (top - 1)) & 1 == 0 {
                    continue;
                }
            }
            let count = 32 - mask.leading_zeros() as usize;
            let remaining = height - count;
            let carried = (mine >> remaining) as u32;
            // Square j of the line is topped by the carried piece at the j-th set bit of the
            // mask (the last one dropped there).
            let mut tops = 0u32;
            let mut drops = mask;
            let mut j = 0;
            while drops != 0 {
                let at = drops.trailing_zeros();
                tops |= (carried >> at & 1) << j;
                drops &= drops - 1;
                j += 1;
            }
            if wall_on_top {
                tops &= !(1 << (distance - 1));
            }
            let reached = (1u32 << distance) - 1;
            let on_line = (tops & reached) | (line_pieces & !reached);
            let origin_mine = remaining > 0 && (mine >> (remaining - 1)) & 1 == 1;
            let key = (on_line << 1 | origin_mine as u32) as usize;
            if seen[key / 64] >> (key % 64) & 1 == 1 {
                continue;
            }
            seen[key / 64] |= 1 << (key % 64);
            let mut road = outside;
            if origin_mine {
                road |= origin;
            }
            for (i, &s) in line.iter().enumerate() {
                if on_line >> i & 1 == 1 {
                    road |= s;
                }
            }
            if has_road(road, self.size()) {
                return Some(Move::spread(sq, dir, mask as u8));
            }
        }
        None
    }
}

/// The groups of a player's road pieces that touch each edge: south, north, west, east.
#[derive(Clone, Copy)]
struct EdgeGroups {
    pieces: Bitboard,
    edges: [Bitboard; 4],
    groups: [Bitboard; 4],
}

impl EdgeGroups {
    #[inline]
    fn of(pieces: Bitboard, size: usize) -> EdgeGroups {
        let edges = [
            Bitboard::rank(0, size),
            Bitboard::rank(size - 1, size),
            Bitboard::file(0, size),
            Bitboard::file(size - 1, size),
        ];
        EdgeGroups {
            pieces,
            edges,
            groups: edges.map(|edge| pieces.flood(pieces & edge)),
        }
    }

    /// Squares not holding one of the pieces where one more road piece completes a road: the
    /// squares on or next to both groups of two opposite edges.
    #[inline]
    fn completions(&self, board: Bitboard) -> Bitboard {
        let reach = |i: usize| self.groups[i].neighbours(board) | self.edges[i];
        ((reach(0) & reach(1)) | (reach(2) & reach(3))) & board & !self.pieces
    }

    /// Whether the connected set `covered`, with the groups it touches, joins two opposite edges.
    #[inline]
    fn spans(&self, covered: Bitboard, board: Bitboard) -> bool {
        let around = covered | covered.neighbours(board);
        let reaches = |i: usize| {
            !(covered & self.edges[i]).is_empty() || !(around & self.groups[i]).is_empty()
        };
        (reaches(0) && reaches(1)) || (reaches(2) && reaches(3))
    }
}
