//! Roads in one: the squares where a placement completes a road, and the full check (placements
//! and spreads) that the search runs at every node.
//!
//! A placement on an empty square `e` makes a south–north road exactly when `e` touches (or lies
//! on) the south edge through the groups already connected to it, and likewise the north edge;
//! so four floods give every completing square at once.

use crate::core::{has_road, Bitboard, Color, Direction, PieceKind, Position};
use crate::core::{Move, Square};

/// Empty squares where `color` placing a flat would complete a road (reserves not checked).
#[inline]
pub fn placement_wins(pos: &Position, color: Color) -> Bitboard {
    let size = pos.size();
    let pieces = pos.road_pieces(color);
    if pieces.count() + 1 < size as u32 {
        return Bitboard::EMPTY;
    }
    let board = pos.board();
    let south = Bitboard::rank(0, size);
    let north = Bitboard::rank(size - 1, size);
    let west = Bitboard::file(0, size);
    let east = Bitboard::file(size - 1, size);
    let reach = |edge: Bitboard| pieces.flood(pieces & edge).neighbours(board) | edge;
    let vertical = reach(south) & reach(north);
    let horizontal = reach(west) & reach(east);
    (vertical | horizontal) & pos.empty()
}

/// Whether `color` may place a road piece (flat or capstone) now.
#[inline]
fn can_place(pos: &Position, color: Color) -> bool {
    !pos.is_opening() && (pos.stones(color) > 0 || pos.capstones(color) > 0)
}

/// Squares a spread from `sq` toward `dir` may cover, carrying at most `carry` pieces.
#[inline]
fn spread_line(pos: &Position, sq: Square, dir: Direction, carry: usize, is_cap: bool) -> Bitboard {
    let board = pos.board();
    let blockers = pos.walls() | pos.caps();
    let mut line = Bitboard::EMPTY;
    let mut at = Bitboard::from_square(sq);
    for _ in 0..carry {
        at = at.shift(dir, board);
        if at.is_empty() {
            break;
        }
        if !(at & blockers).is_empty() {
            // Only a capstone flattens a wall, and only as its last step.
            if is_cap && !(at & pos.walls()).is_empty() {
                line |= at;
            }
            break;
        }
        line |= at;
    }
    line
}

/// A move that wins by road for the side to move now, if one exists. Placements are found by
/// bitboards; spreads only from (square, direction) pairs whose reach could join a road, each
/// checked on bitboards (no allocation, no move made).
pub fn find_road_win(pos: &Position) -> Option<Move> {
    if pos.is_opening() {
        return None;
    }
    let me = pos.to_move();
    if can_place(pos, me) {
        if let Some(sq) = placement_wins(pos, me).first() {
            let kind = if pos.stones(me) > 0 {
                PieceKind::Flat
            } else {
                PieceKind::Cap
            };
            return Some(Move::place(sq, kind));
        }
    }
    spread_road_win(pos)
}

fn spread_road_win(pos: &Position) -> Option<Move> {
    let me = pos.to_move();
    let size = pos.size();
    let board = pos.board();
    let pieces = pos.road_pieces(me);
    let edges = [
        Bitboard::rank(0, size),
        Bitboard::rank(size - 1, size),
        Bitboard::file(0, size),
        Bitboard::file(size - 1, size),
    ];
    // The groups touching each edge; a spread's squares plus the groups they touch form one
    // connected set, so it can only make a road if that set reaches two opposite edges.
    let connected = edges.map(|edge| pieces.flood(pieces & edge));
    let reaches = |covered: Bitboard, i: usize| {
        !(covered & edges[i]).is_empty()
            || !((covered | covered.neighbours(board)) & connected[i]).is_empty()
    };
    for sq in pos.tops(me) {
        let carry = pos.stack(sq).len().min(size);
        let is_cap = pos.caps().contains(sq);
        for dir in Direction::ALL {
            let line = spread_line(pos, sq, dir, carry, is_cap);
            if line.is_empty() {
                continue;
            }
            let covered = line | Bitboard::from_square(sq);
            if !((reaches(covered, 0) && reaches(covered, 1))
                || (reaches(covered, 2) && reaches(covered, 3)))
            {
                continue;
            }
            // Every drop pattern that fits the line; onto a wall only a lone capstone goes.
            let reach = line.count();
            let smash = !(line & pos.walls()).is_empty();
            for mask in 1u32..(1 << carry) {
                let distance = mask.count_ones();
                if distance > reach {
                    continue;
                }
                if smash && distance == reach {
                    let top = 31 - mask.leading_zeros();
                    if top != 0 && (mask >> (top - 1)) & 1 == 0 {
                        continue;
                    }
                }
                let mv = Move::spread(sq, dir, mask as u8);
                if spread_makes_road(pos, mv, me, pieces) {
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
fn spread_makes_road(pos: &Position, mv: Move, me: Color, pieces: Bitboard) -> bool {
    let size = pos.size();
    let board = pos.board();
    let sq = mv.square();
    let stack = pos.stack(sq);
    let remaining = stack.len() - mv.count() as usize;
    let mut road = pieces & !Bitboard::from_square(sq);
    if remaining > 0 && stack.get(remaining - 1) == me {
        road |= Bitboard::from_square(sq);
    }
    let moving_is_wall = pos.walls().contains(sq);
    let mut at = Bitboard::from_square(sq);
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
    has_road(road, size)
}

/// Whether the opponent of the side to move would have a road in one if it were their turn.
pub fn opponent_threatens(pos: &mut Position) -> bool {
    pos.do_null_move();
    let threat = find_road_win(pos).is_some();
    pos.undo_null_move();
    threat
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::MoveList;

    fn brute_force(pos: &mut Position) -> bool {
        let me = pos.to_move();
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        moves.iter().any(|&mv| {
            let undo = pos.do_move(mv);
            let wins = pos.has_road(me);
            pos.undo_move(mv, undo);
            wins
        })
    }

    #[test]
    fn agrees_with_brute_force_on_random_games() {
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        for game in 0..300 {
            let size = 3 + game % 6;
            let mut pos = Position::start(size).unwrap();
            let mut moves = MoveList::new();
            while pos.result().is_none() {
                let fast = find_road_win(&pos);
                assert_eq!(fast.is_some(), brute_force(&mut pos), "{}", pos.to_tps());
                if let Some(mv) = fast {
                    let me = pos.to_move();
                    pos.do_move(mv);
                    assert!(pos.has_road(me));
                    break;
                }
                checked += 1;
                moves.clear();
                pos.generate_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                pos.do_move(mv);
            }
        }
        assert!(checked > 1000);
    }
}
