//! Placements to a road: the fewest placements on empty squares that would join a side's road
//! pieces into a road, spreads not counted (Topaz's "road distance"). Opponent tops and own
//! walls block; own flats and capstones cost nothing.

use crate::core::{Bitboard, Color, Position};

/// The fewest placements that give `color` a road through its own road pieces, if it is at
/// most `horizon`. Layered breadth-first search on bitboards from one edge of each axis: layer
/// `k` holds every square reachable with `k` placements.
#[inline]
pub fn placements_to_road(pos: &Position, color: Color, horizon: u32) -> Option<u32> {
    let size = pos.size();
    let own = pos.road_pieces(color);
    // A road covers at least `size` squares.
    if (size as u32).saturating_sub(own.count()) > horizon {
        return None;
    }
    let (board, empty) = (pos.board(), pos.empty());
    let mut best = None;
    for (from, to) in [
        (Bitboard::rank(0, size), Bitboard::rank(size - 1, size)),
        (Bitboard::file(0, size), Bitboard::file(size - 1, size)),
    ] {
        let limit = best.map_or(horizon, |b: u32| b.saturating_sub(1));
        let mut reach = own.flood(own & from);
        for k in 0..=limit {
            if !(reach & to).is_empty() {
                best = Some(k);
                break;
            }
            let step = (reach.neighbours(board) | from) & empty & !reach;
            if k == limit || step.is_empty() {
                break;
            }
            let seeds = reach | step;
            reach = (own | seeds).flood(seeds);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(tps: &str, color: Color) -> Option<u32> {
        placements_to_road(&Position::from_tps(tps).unwrap(), color, 4)
    }

    #[test]
    fn counts_the_empty_squares_a_road_still_needs() {
        // White holds a1 b1 c1 of a 5×5 row: two placements (d1, e1) make a road.
        let tps = "x5/x5/x5/2,2,x3/1,1,1,x2 1 6";
        assert_eq!(distance(tps, Color::White), Some(2));
        // Black's a2 b2 need three more along the row, and nothing shorter exists.
        assert_eq!(distance(tps, Color::Black), Some(3));
    }

    #[test]
    fn opponent_pieces_and_own_walls_block() {
        // A black flat on d1 and a white wall on d2 cut the row: the way round (c2 c3 d3 e3)
        // costs four, as does the a-file.
        let tps = "x5/x5/x5/x3,1S,x/1,1,1,2,x 1 6";
        assert_eq!(distance(tps, Color::White), Some(4));
        // A lone flat is four placements from a road: beyond a horizon of three.
        let lone = Position::from_tps("x5/x5/x5/x5/1,x4 2 1").unwrap();
        assert_eq!(placements_to_road(&lone, Color::White, 4), Some(4));
        assert_eq!(placements_to_road(&lone, Color::White, 3), None);
    }

    #[test]
    fn either_axis() {
        // A white column a1..a4: one placement on a5.
        let tps = "x5/1,x4/1,x4/1,x4/1,2,x3 2 4";
        assert_eq!(distance(tps, Color::White), Some(1));
    }
}
