//! The static evaluation: hand-written named terms with per-size weights, in centi-flats from
//! the side to move's view.
//!
//! Terms: flat differential with komi (weight rising as reserves run out), reserves, stack
//! composition (own supports and captives under each top), walls and capstones, centre, road
//! potential (groups and the rows/columns they span) and road threats (squares where a
//! placement completes a road).

use super::EVAL_LIMIT;
use crate::core::{starting_reserves, Bitboard, Color, PieceKind, Position};

/// The weights of one board size.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A flat on top, at the start and at the end of the game.
    pub flat_opening: i32,
    /// A flat on top when the reserves are gone: the flat count decides the game.
    pub flat_ending: i32,
    /// A wall on top.
    pub wall: i32,
    /// A capstone on the board.
    pub cap: i32,
    /// A capstone still in reserve.
    pub cap_reserve: i32,
    /// An own piece under an own top (a reserve the top can spread).
    pub support: i32,
    /// An opponent piece under an own top (held captive).
    pub captive: i32,
    /// Extra support/captive value under a wall or capstone (they cannot be covered).
    pub hard_top: i32,
    /// A road piece on a central square, per step closer to the centre.
    pub centre: i32,
    /// Road potential of a group, by the larger of rows and columns it spans.
    pub group_span: [i32; 9],
    /// Each distinct square where a placement completes a road (capped at two).
    pub road_threat: i32,
    /// Bonus for having the move.
    pub tempo: i32,
}

const fn weights(size: usize) -> Weights {
    let span: [i32; 9] = match size {
        3 => [0, 0, 20, 40, 0, 0, 0, 0, 0],
        4 => [0, 0, 15, 40, 70, 0, 0, 0, 0],
        5 => [0, 0, 10, 30, 65, 100, 0, 0, 0],
        6 => [0, 0, 8, 22, 45, 80, 110, 0, 0],
        7 => [0, 0, 6, 18, 36, 60, 90, 115, 0],
        _ => [0, 0, 5, 15, 30, 50, 75, 100, 120],
    };
    Weights {
        flat_opening: 100,
        flat_ending: 180,
        wall: 35,
        cap: 70,
        cap_reserve: 40,
        support: 14,
        captive: -10,
        hard_top: 8,
        centre: if size <= 4 { 4 } else { 6 },
        group_span: span,
        road_threat: 130,
        tempo: 25,
    }
}

const WEIGHTS: [Weights; 9] = [
    weights(3),
    weights(3),
    weights(3),
    weights(3),
    weights(4),
    weights(5),
    weights(6),
    weights(7),
    weights(8),
];

/// The weights used for a board of `size`.
pub fn weights_for(size: usize) -> &'static Weights {
    &WEIGHTS[size.min(8)]
}

/// Steps from the edge (0 on the rim), for the centre term.
#[inline]
fn ring(file: usize, rank: usize, size: usize) -> i32 {
    file.min(rank).min(size - 1 - file).min(size - 1 - rank) as i32
}

/// Ranks and files spanned by a set of squares, the larger of the two.
#[inline]
fn span(group: Bitboard) -> usize {
    let mut files = 0u64;
    let mut ranks = 0u32;
    let mut bits = group.0;
    for _ in 0..8 {
        let row = bits & 0xFF;
        if row != 0 {
            files |= row;
            ranks += 1;
        }
        bits >>= 8;
    }
    (files.count_ones()).max(ranks) as usize
}

/// The terms of one colour, from that colour's view (komi not included).
fn side_score(pos: &Position, color: Color, w: &Weights, flat_weight: i32) -> i32 {
    let size = pos.size();
    let tops = pos.tops(color);
    let walls = tops & pos.walls();
    let caps = tops & pos.caps();
    let flats = tops & !pos.walls() & !pos.caps();
    let mut score = flats.count() as i32 * flat_weight
        + walls.count() as i32 * w.wall
        + caps.count() as i32 * w.cap
        + pos.capstones(color) as i32 * w.cap_reserve;

    // Stack composition: what lies under each top.
    for sq in tops {
        let stack = pos.stack(sq);
        if stack.len() > 1 {
            let (white, black) = stack.counts();
            let (mine, theirs) = match color {
                Color::White => (white - 1, black),
                Color::Black => (black - 1, white),
            };
            let hard = if pos.top_kind(sq) == PieceKind::Flat {
                0
            } else {
                w.hard_top
            };
            score += mine.min(size as u32) as i32 * (w.support + hard)
                + theirs.min(size as u32) as i32 * (w.captive + hard / 2);
        }
    }

    // Centre and road potential of the road pieces.
    let road = pos.road_pieces(color);
    for sq in road {
        score += ring(sq.file(), sq.rank(), size) * w.centre;
    }
    let mut rest = road;
    while let Some(seed) = rest.first() {
        let group = rest.flood(Bitboard::from_square(seed));
        rest ^= group;
        score += w.group_span[span(group)];
    }
    score
}

/// The evaluation from the side to move's view, clamped inside the non-win range.
pub fn evaluate(pos: &Position) -> i32 {
    let size = pos.size();
    let w = weights_for(size);
    let (stones, _) = starting_reserves(size);
    let left = pos.stones(Color::White).min(pos.stones(Color::Black)) as i32;
    let empty = pos.empty().count() as i32;
    // The game ends when a reserve or the board runs out; the nearer end sets the phase.
    let to_end = (left * 256 / stones as i32).min(empty * 256 / (size * size) as i32);
    let flat_weight = w.flat_ending + (w.flat_opening - w.flat_ending) * to_end / 256;

    let mut white = side_score(pos, Color::White, w, flat_weight);
    let mut black = side_score(pos, Color::Black, w, flat_weight);
    black += pos.half_komi() * flat_weight / 2;

    // Road threats: a threat of the side to move wins at once (the search sees that before
    // calling here), so this mostly values the opponent's threat and double threats.
    for (color, score) in [(Color::White, &mut white), (Color::Black, &mut black)] {
        if pos.stones(color) + pos.capstones(color) > 0 {
            let threats = pos.road_squares(color).count().min(2) as i32;
            *score += threats * w.road_threat;
        }
    }

    let mut score = white - black;
    if pos.to_move() == Color::Black {
        score = -score;
    }
    (score + w.tempo).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_for_colours_and_prefers_more_flats() {
        // White has one flat more; the same board with colours swapped gives the mirror score.
        let a = Position::from_tps("1,1,x3/x5/x5/x5/2,x4 2 3").unwrap();
        let b = Position::from_tps("2,2,x3/x5/x5/x5/1,x4 1 3").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        assert!(evaluate(&a) < 0, "black to move is a flat down");
    }

    #[test]
    fn komi_helps_black() {
        let mut pos = Position::from_tps("1,x4/x5/x5/x5/2,x4 1 2").unwrap();
        let before = evaluate(&pos);
        pos.set_half_komi(4);
        assert!(evaluate(&pos) < before - 100);
    }
}
