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
use super::square::Direction;

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
        let size = self.size();
        let pieces = self.road_pieces(color);
        if pieces.count() + 1 < size as u32 {
            return Bitboard::EMPTY;
        }
        let board = self.board();
        let reach = |edge: Bitboard| pieces.flood(pieces & edge).neighbours(board) | edge;
        let vertical = reach(Bitboard::rank(0, size)) & reach(Bitboard::rank(size - 1, size));
        let horizontal = reach(Bitboard::file(0, size)) & reach(Bitboard::file(size - 1, size));
        (vertical | horizontal) & board & !pieces
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
        if self.stones(me) > 0 || self.capstones(me) > 0 {
            if let Some(sq) = self.road_squares(me).first() {
                let kind = if self.stones(me) > 0 {
                    PieceKind::Flat
                } else {
                    PieceKind::Cap
                };
                return Some(Move::place(sq, kind));
            }
        }
        self.spread_road_win()
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

    fn spread_road_win(&self) -> Option<Move> {
        let me = self.to_move();
        let size = self.size();
        let board = self.board();
        let pieces = self.road_pieces(me);
        let edges = [
            Bitboard::rank(0, size),
            Bitboard::rank(size - 1, size),
            Bitboard::file(0, size),
            Bitboard::file(size - 1, size),
        ];
        // A road covers at least `size` squares, and a spread adds at most height − 1 road
        // squares to its side (one a square it drops on, less the origin if it carries the
        // whole stack), so a stack no higher than the road squares missing cannot make one.
        let missing = (size as u32).saturating_sub(pieces.count()) as usize;
        // The groups touching each edge; a spread's squares plus the groups they touch form one
        // connected set, so it can only make a road if that set reaches two opposite edges.
        // Flooded once a high enough stack is found.
        let mut connected = None;
        let reaches = |connected: &[Bitboard; 4], covered: Bitboard, i: usize| {
            !(covered & edges[i]).is_empty()
                || !((covered | covered.neighbours(board)) & connected[i]).is_empty()
        };
        for sq in self.tops(me) {
            let height = self.stack(sq).len();
            if height <= missing {
                continue;
            }
            let connected =
                connected.get_or_insert_with(|| edges.map(|edge| pieces.flood(pieces & edge)));
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
                let mut at = covered;
                for _ in 0..steps {
                    at = at.shift(dir, board);
                    covered |= at;
                }
                if !((reaches(connected, covered, 0) && reaches(connected, covered, 1))
                    || (reaches(connected, covered, 2) && reaches(connected, covered, 3)))
                {
                    continue;
                }
                // Every drop pattern that fits the line; onto a wall only a lone capstone goes.
                for mask in 1u32..(1 << carry) {
                    let distance = mask.count_ones() as usize;
                    if distance > steps {
                        continue;
                    }
                    if smash && distance == steps {
                        let top = 31 - mask.leading_zeros();
                        if top != 0 && (mask >> (top - 1)) & 1 == 0 {
                            continue;
                        }
                    }
                    let mv = Move::spread(sq, dir, mask as u8);
                    if self.spread_makes_road(mv, me, pieces) {
                        return Some(mv);
                    }
                }
            }
        }
        None
    }

    /// Whether spread `mv` gives `me` a road, computed on bitboards without playing it: each
    /// square the spread ends on is topped by the last piece dropped there.
    #[inline]
    fn spread_makes_road(&self, mv: Move, me: Color, pieces: Bitboard) -> bool {
        let board = self.board();
        let sq = mv.square();
        let stack = self.stack(sq);
        let remaining = stack.len() - mv.count() as usize;
        let from = Bitboard::from_square(sq);
        let mut road = pieces & !from;
        if remaining > 0 && stack.get(remaining - 1) == me {
            road |= from;
        }
        let moving_is_wall = self.walls().contains(sq);
        let mut at = from;
        let mut index = remaining;
        let mut mask = mv.drop_mask() as u32;
        while mask != 0 {
            at = at.shift(mv.direction(), board);
            let n = mask.trailing_zeros() + 1;
            mask >>= n;
            index += n as usize;
            let last = mask == 0;
            if stack.get(index - 1) == me && !(last && moving_is_wall) {
                road |= at;
            } else {
                road &= !at;
            }
        }
        has_road(road, self.size())
    }
}
