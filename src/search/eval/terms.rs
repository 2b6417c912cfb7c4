//! The evaluation terms, written once and generic over what they feed: weights (a score) or a
//! trace (feature counts for the tuner). Monomorphised, so the weighted case costs nothing extra.

use super::features::{
    pair_classes, Layout, CLASSES, PAIR_FEATURE, PAIR_PATTERNS, PAIR_SITES, RACE_HORIZON,
    ROAD_HORIZON,
};
use super::road_distance::placements_to_road;
use crate::core::{Bitboard, Color, PieceKind, Position};

/// What the terms are fed into: feature `index` fired `count` times (side to move's view).
pub trait Accumulator {
    /// Records `count` more instances of feature `index`.
    fn add(&mut self, index: usize, count: i32);

    /// Whether features `start..start + len` can change the result: a costly group whose
    /// weights are all zero (a size that has not learned it) is skipped. The trace wants all.
    #[inline(always)]
    fn wants(&self, _start: usize, _len: usize) -> bool {
        true
    }
}

/// Lowest file of the 8×8 grid, as bits.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The game phase in 0..=256: 256 at the start, 0 at the end. The game ends when a reserve or
/// the board runs out, so the nearer of the two sets it.
#[inline]
pub fn phase(pos: &Position) -> i32 {
    let size = pos.size();
    let (stones, _) = crate::core::starting_reserves(size);
    let left = pos.stones(Color::White).min(pos.stones(Color::Black)) as i32;
    let empty = pos.empty().count() as i32;
    (left * 256 / stones as i32)
        .min(empty * 256 / (size * size) as i32)
        .clamp(0, 256)
}

/// Ranks and files spanned by a set of squares, the larger of the two.
#[inline]
pub fn span(group: Bitboard) -> usize {
    let mut files = 0u64;
    let mut ranks = 0u32;
    let mut bits = group.0;
    while bits != 0 {
        let row = bits & 0xFF;
        if row != 0 {
            files |= row;
            ranks += 1;
        }
        bits >>= 8;
    }
    files.count_ones().max(ranks) as usize
}

/// Feeds every term of `pos` to `acc`.
#[inline(always)]
pub fn evaluate_terms<A: Accumulator>(pos: &Position, l: &Layout, acc: &mut A) {
    let me = pos.to_move();
    acc.add(l.tempo, 1);
    flat_count(pos, l, acc);
    reserves(pos, l, acc);
    piece_squares(pos, l, acc);
    let tall = stacks(pos, l, acc);
    let with_road_distance = acc.wants(l.road_distance, 2 * ROAD_HORIZON);
    for (color, sign, side) in [(me, 1, 0), (!me, -1, 1)] {
        roads(pos, l, acc, color, sign);
        critical_squares(pos, l, acc, color, side);
        if with_road_distance {
            road_distance(pos, l, acc, color, side);
        }
        capstones_and_walls(pos, l, acc, color, sign, tall);
    }
    if acc.wants(l.pairs, pair_classes(pos.size()) * PAIR_PATTERNS) {
        pairs(pos, l, acc);
    }
}

/// Every two neighbouring squares by what they hold: the side to move's view of the pattern
/// counts +1, the opponent's −1, one feature for the two (`PAIR_FEATURE`).
#[inline(always)]
fn pairs<A: Accumulator>(pos: &Position, l: &Layout, acc: &mut A) {
    let me = pos.to_move();
    // `PAIR_STATES` order: 0 empty, then flat, wall, capstone (`PieceKind` + 1), own first.
    let mut state = [0u8; 64];
    for (color, own) in [(me, 1u8), (!me, 4u8)] {
        for sq in pos.tops(color) {
            state[sq.index()] = own + pos.top_kind(sq) as u8;
        }
    }
    for site in PAIR_SITES[pos.size()].as_slice() {
        let pattern = state[site.outer as usize] as usize * 7 + state[site.inner as usize] as usize;
        // Both squares empty has sign 0: added as nothing rather than branched over.
        let (feature, sign) = PAIR_FEATURE[pattern];
        acc.add(
            l.pairs + site.offset as usize + feature as usize,
            sign as i32,
        );
    }
}

/// Reserves left, and "one piece left" for either side.
#[inline(always)]
fn reserves<A: Accumulator>(pos: &Position, l: &Layout, acc: &mut A) {
    let me = pos.to_move();
    acc.add(
        l.stones_in_reserve,
        pos.stones(me) as i32 - pos.stones(!me) as i32,
    );
    acc.add(
        l.caps_in_reserve,
        pos.capstones(me) as i32 - pos.capstones(!me) as i32,
    );
    if pos.pieces_in_reserve(me) == 1 {
        acc.add(l.one_reserve_to_move, 1);
    }
    if pos.pieces_in_reserve(!me) == 1 {
        acc.add(l.one_reserve_not_to_move, 1);
    }
}

/// Piece-square tables: flats by class mask, walls and capstones (few) square by square.
#[inline(always)]
fn piece_squares<A: Accumulator>(pos: &Position, l: &Layout, acc: &mut A) {
    let me = pos.to_move();
    let classes = &CLASSES[pos.size()];
    let flats = pos.flats();
    let (my_flats, their_flats) = (flats & pos.tops(me), flats & pos.tops(!me));
    for (c, &mask) in classes.masks.iter().enumerate().take(l.classes) {
        let n =
            (my_flats.0 & mask).count_ones() as i32 - (their_flats.0 & mask).count_ones() as i32;
        if n != 0 {
            acc.add(l.psqt + c, n);
        }
    }
    for (color, sign) in [(me, 1), (!me, -1)] {
        for sq in pos.tops(color) & pos.walls() {
            acc.add(
                l.psqt + l.classes + classes.of_square[sq.index()] as usize,
                sign,
            );
        }
        for sq in pos.tops(color) & pos.caps() {
            acc.add(
                l.psqt + 2 * l.classes + classes.of_square[sq.index()] as usize,
                sign,
            );
        }
    }
}

/// Stacks: own pieces (supports) and opponent pieces (captives) under each top, split into
/// those a full carry lifts (shallow) and the rest (deep), by top kind and mobility; by the
/// stack's square; and what stands next to it. Returns the squares holding two pieces or more.
#[inline(always)]
fn stacks<A: Accumulator>(pos: &Position, l: &Layout, acc: &mut A) -> Bitboard {
    let size = pos.size();
    let board = pos.board();
    let me = pos.to_move();
    let (walls, caps, flats) = (pos.walls(), pos.caps(), pos.flats());
    // A flat or wall may move onto an empty square or a flat; a capstone onto a wall too.
    let can_move = (board & !(walls | caps)).neighbours(board);
    let cap_can_move = (board & !caps).neighbours(board);
    let mut tall = Bitboard::EMPTY;
    for sq in pos.occupied() {
        let stack = pos.stack(sq);
        let height = stack.len();
        if height < 2 {
            continue;
        }
        tall.set(sq);
        let mine = pos.tops(me).contains(sq);
        let kind = pos.top_kind(sq) as usize;
        let mobile = if kind == PieceKind::Cap as usize {
            cap_can_move
        } else {
            can_move
        }
        .contains(sq);
        let below = height - 1;
        let shallow = below.min(size - 1);
        let deep = below - shallow;
        let deep_mask = (1u128 << deep) - 1;
        let below_mask = (1u128 << below) - 1;
        let black_deep = (stack.bits() & deep_mask).count_ones() as i32;
        let black_shallow = (stack.bits() & below_mask & !deep_mask).count_ones() as i32;
        let (shallow, deep) = (shallow as i32, deep as i32);
        let top_black = stack.top() == Some(Color::Black);
        let (own_shallow, own_deep) = if top_black {
            (black_shallow, black_deep)
        } else {
            (shallow - black_shallow, deep - black_deep)
        };
        let sign = if mine { 1 } else { -1 };
        let base = l.stacks + (kind * 2 + usize::from(!mobile)) * 4;
        for (offset, count) in [
            (0, own_shallow),
            (1, own_deep),
            (2, shallow - own_shallow),
            (3, deep - own_deep),
        ] {
            if count != 0 {
                acc.add(base + offset, sign * count);
            }
        }
        let class = kind * l.classes + CLASSES[size].of_square[sq.index()] as usize;
        let supports = own_shallow + own_deep;
        if supports != 0 {
            acc.add(l.support_psqt + class, sign * supports);
        }
        if shallow + deep != supports {
            acc.add(l.captive_psqt + class, sign * (shallow + deep - supports));
        }
        // Neighbours: opponent flats a spread could capture, own flats and walls.
        let (own, theirs) = if mine {
            (pos.tops(me), pos.tops(!me))
        } else {
            (pos.tops(!me), pos.tops(me))
        };
        let next = Bitboard::from_square(sq).neighbours(board);
        for (feature, squares) in [
            (l.tall_next_their_flat, theirs & flats),
            (l.tall_next_own_flat, own & flats),
            (l.tall_next_own_wall, own & walls),
        ] {
            let n = (next & squares).count() as i32;
            if n != 0 {
                acc.add(feature, sign * n);
            }
        }
    }
    tall
}

/// Road groups (each also by the larger of the rows and columns it spans), and lines: own road
/// pieces in each row and column by what the opponent has there: nothing, flats only, or a
/// wall or capstone (a road along the line must go round).
#[inline(always)]
fn roads<A: Accumulator>(pos: &Position, l: &Layout, acc: &mut A, color: Color, sign: i32) {
    let board = pos.board();
    let road = pos.road_pieces(color);
    let theirs = pos.tops(!color);
    let mut rest = road;
    while let Some(seed) = rest.first() {
        let group = rest.flood(Bitboard::from_square(seed));
        rest ^= group;
        acc.add(l.groups, sign);
        acc.add(l.group_span + span(group) - 1, sign);
    }
    let blockers = theirs & (pos.walls() | pos.caps());
    for i in 0..pos.size() {
        for line in [
            Bitboard((0xFF << (8 * i)) & board.0),
            Bitboard((FILE_A << i) & board.0),
        ] {
            let n = (road & line).count() as usize;
            if n > 0 {
                let base = if !(blockers & line).is_empty() {
                    l.line_blocked
                } else if !(theirs & line).is_empty() {
                    l.line_contested
                } else {
                    l.line_clear
                };
                acc.add(base + n - 1, sign);
            }
        }
    }
}

/// Critical squares of `color` (a road piece there completes a road) by what stands on them,
/// each kind counted up to two; and its capstones next to one they may move onto. `side` is 0
/// for the side to move: these features are split by side, not netted.
#[inline(always)]
fn critical_squares<A: Accumulator>(
    pos: &Position,
    l: &Layout,
    acc: &mut A,
    color: Color,
    side: usize,
) {
    let critical = pos.road_completions(color);
    if critical.is_empty() {
        return;
    }
    let (own, theirs) = (pos.tops(color), pos.tops(!color));
    let (walls, caps) = (pos.walls(), pos.caps());
    let base = l.critical + side * 5;
    let occupants = [
        critical & pos.empty(),
        critical & own & walls,
        critical & theirs & pos.flats(),
        critical & theirs & walls,
        critical & theirs & caps,
    ];
    for (o, squares) in occupants.into_iter().enumerate() {
        let n = squares.count().min(2) as i32;
        if n > 0 {
            acc.add(base + o, n);
        }
    }
    let reachable = critical & !(theirs & caps);
    let near = (own & caps)
        .filter(|&sq| !(Bitboard::from_square(sq).neighbours(pos.board()) & reachable).is_empty())
        .count() as i32;
    if near > 0 {
        acc.add(l.cap_near_critical + side, near);
    }
}

/// The fewest placements that would give `color` a road, one-hot up to `ROAD_HORIZON`, split
/// by side (`side` 0 = to move: a placement is one of its moves, not the opponent's).
#[inline(always)]
fn road_distance<A: Accumulator>(
    pos: &Position,
    l: &Layout,
    acc: &mut A,
    color: Color,
    side: usize,
) {
    if let Some(placements @ 1..) = placements_to_road(pos, color, ROAD_HORIZON as u32) {
        acc.add(
            l.road_distance + side * ROAD_HORIZON + placements as usize - 1,
            1,
        );
    }
}

/// What stands next to each capstone of `color` (and whether any opponent piece does), and
/// opponent stacks and capstones next to its walls (a wall blocking a spread or a road).
#[inline(always)]
fn capstones_and_walls<A: Accumulator>(
    pos: &Position,
    l: &Layout,
    acc: &mut A,
    color: Color,
    sign: i32,
    tall: Bitboard,
) {
    let board = pos.board();
    let (own, theirs) = (pos.tops(color), pos.tops(!color));
    let (walls, caps, flats) = (pos.walls(), pos.caps(), pos.flats());
    for sq in own & caps {
        let next = Bitboard::from_square(sq).neighbours(board);
        let counts = [
            next & own & flats,
            next & own & walls,
            next & own & tall,
            next & theirs & flats,
            next & theirs & walls,
            next & theirs & caps,
            next & theirs & tall,
        ];
        for (i, squares) in counts.into_iter().enumerate() {
            let n = squares.count() as i32;
            if n > 0 {
                acc.add(l.cap_next + i, sign * n);
            }
        }
        if (next & theirs).is_empty() {
            acc.add(l.cap_isolated, sign);
        }
    }
    for sq in own & walls {
        let next = Bitboard::from_square(sq).neighbours(board);
        let n = (next & theirs & tall).count() as i32;
        if n > 0 {
            acc.add(l.wall_next_their_tall, sign * n);
        }
        let n = (next & theirs & caps).count() as i32;
        if n > 0 {
            acc.add(l.wall_next_their_cap, sign * n);
        }
    }
}

/// The flat count: the lead with komi (half flats), and whether either side can end the game
/// on flats at once.
#[inline(always)]
fn flat_count<A: Accumulator>(pos: &Position, l: &Layout, acc: &mut A) {
    let me = pos.to_move();
    let (white, black) = pos.flat_counts();
    let (mine, theirs) = match me {
        Color::White => (white as i32, black as i32),
        Color::Black => (black as i32, white as i32),
    };
    // Komi is added to Black's count.
    let komi = pos.half_komi() * if me == Color::Black { 1 } else { -1 };
    let lead = 2 * (mine - theirs) + komi;
    if lead > 0 {
        acc.add(l.flat_lead_to_move, lead);
    } else if lead < 0 {
        acc.add(l.flat_lead_not_to_move, -lead);
    } else {
        acc.add(l.flat_tie, 1);
    }
    if pos.is_opening() {
        return;
    }
    // A lead counts for more the sooner the game can end on flats.
    let placements = pos.placements_left() as usize;
    if lead != 0 && (1..=RACE_HORIZON).contains(&placements) {
        acc.add(l.race_lead + placements - 1, lead);
    }
    // Placing the last piece in reserve, or on the last empty square, ends the game.
    let pieces = pos.pieces_in_reserve(me);
    if pieces > 0 && (pieces == 1 || pos.empty().count() == 1) {
        let margin = lead + 2 * i32::from(pos.stones(me) > 0);
        if margin > 0 {
            acc.add(l.flat_win_now, 1);
        } else if margin == 0 {
            acc.add(l.flat_draw_now, 1);
        }
    }
    if pos.pieces_in_reserve(!me) == 1 {
        let margin = -lead + 2 * i32::from(pos.stones(!me) > 0);
        if margin > 0 {
            acc.add(l.flat_loss_next, 1);
        }
    }
}
