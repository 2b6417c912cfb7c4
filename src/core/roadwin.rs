//! Road threats: where a player could complete a road with one move.
//!
//! The search asks this at every node ("take a road in one", "stop the opponent's road"), so
//! placements are found with two flood fills per axis and spreads are tried only in the lines
//! that could possibly complete a road.

use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::rules::has_road;
use super::square::Direction;

impl Position {
    /// Empty squares where a flat of `color` would complete a road for `color` (whether or not
    /// `color` has a piece left to place there).
    ///
    /// ```
    /// use menhir::core::{Color, Position, Square};
    /// let pos = Position::from_tps("2,x2/1,2,x/1,x2 1 3").unwrap();
    /// let squares: Vec<_> = pos.road_squares(Color::White).collect();
    /// assert_eq!(squares, vec![Square::new(0, 2, 3).unwrap()]);
    /// ```
    pub fn road_squares(&self, color: Color) -> Bitboard {
        let size = self.size();
        let board = self.board();
        let pieces = self.road_pieces(color);
        let empty = self.empty();
        let mut squares = Bitboard::EMPTY;
        for (from, to) in [
            (Bitboard::rank(0, size), Bitboard::rank(size - 1, size)),
            (Bitboard::file(0, size), Bitboard::file(size - 1, size)),
        ] {
            let near = pieces.flood(pieces & from).neighbours(board) | from;
            let far = pieces.flood(pieces & to).neighbours(board) | to;
            squares |= empty & near & far;
        }
        squares
    }

    /// A move that gives the side to move a road at once, if there is one. Placements are
    /// preferred (flat before capstone); `scratch` is a buffer for trying spreads.
    pub fn road_win(&mut self, scratch: &mut MoveList) -> Option<Move> {
        if self.is_opening() || self.result().is_some() {
            return None;
        }
        let me = self.to_move();
        let squares = self.road_squares(me);
        if let Some(sq) = squares.first() {
            if self.stones(me) > 0 {
                return Some(Move::place(sq, PieceKind::Flat));
            }
            if self.capstones(me) > 0 {
                return Some(Move::place(sq, PieceKind::Cap));
            }
        }
        let size = self.size();
        let pieces = self.road_pieces(me);
        for sq in self.tops(me) {
            for dir in Direction::ALL {
                // Only the squares of this line, the source included (a wall may move off a
                // flat), can change hands: if even owning all of them makes no road, no
                // spread along it does.
                let reach = self.reach(sq, dir);
                let steps = reach.distance + reach.wall_after as usize;
                if steps == 0 {
                    continue;
                }
                let mut line = Bitboard::from_square(sq);
                let mut cur = sq;
                for _ in 0..steps {
                    cur = match cur.step(dir, size) {
                        Some(next) => next,
                        None => break,
                    };
                    line.set(cur);
                }
                if !has_road(pieces | line, size) {
                    continue;
                }
                scratch.clear();
                self.push_spreads(sq, dir, scratch);
                for &mv in scratch.iter() {
                    let undo = self.do_move(mv);
                    let wins = self.has_road(me);
                    self.undo_move(mv, undo);
                    if wins {
                        return Some(mv);
                    }
                }
            }
        }
        None
    }
}
