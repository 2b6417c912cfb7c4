//! The policy's terms, written once and generic over what they feed (as the evaluation's):
//! weights give a move's score, a trace gives the features the tuner fits.

use super::features::{Layout, NEIGHBOURS};
use crate::core::{Bitboard, Color, Move, PieceKind, Position, Square};
use crate::search::eval::{span, Accumulator, CLASSES};

/// Connected groups of one colour's road pieces: each square's group, each group's squares.
struct Groups {
    /// Group number + 1 of each square (0: no road piece of the colour there).
    label: [u8; 64],
    /// The squares of group `n` at index `n + 1`. No more than 32 groups fit on 8×8.
    members: [Bitboard; 33],
}

impl Groups {
    fn of(pieces: Bitboard) -> Groups {
        let mut groups = Groups {
            label: [0; 64],
            members: [Bitboard::EMPTY; 33],
        };
        let mut left = pieces;
        let mut n = 0;
        while let Some(sq) = left.first() {
            let group = pieces.flood(Bitboard::from_square(sq));
            n += 1;
            groups.members[n] = group;
            for member in group {
                groups.label[member.index()] = n as u8;
            }
            left = Bitboard(left.0 & !group.0);
        }
        groups
    }

    /// The distinct groups among `squares` and their squares together.
    #[inline]
    fn touching(&self, squares: Bitboard) -> (usize, Bitboard) {
        let mut seen = [0u8; 4];
        let mut count = 0;
        let mut union = Bitboard::EMPTY;
        for sq in squares {
            let label = self.label[sq.index()];
            if label != 0 && !seen[..count].contains(&label) {
                seen[count] = label;
                count += 1;
                union |= self.members[label as usize];
            }
        }
        (count.min(NEIGHBOURS - 1), union)
    }
}

/// What the features of every move of one node share: computed once per node, before the
/// moves are scored.
pub struct PolicyContext {
    me: Color,
    board: Bitboard,
    /// Squares where an opponent road piece would complete a road (blocks are placed here).
    their_critical: Bitboard,
    /// The last move's end square and its neighbours (empty when unknown).
    near_last: Bitboard,
    /// Opponent stacks of two or more.
    their_tall: Bitboard,
    own: Groups,
    theirs: Groups,
}

impl PolicyContext {
    /// The context of `pos`, reached by `last` (`Move::NULL` when unknown).
    pub fn new(pos: &Position, last: Move) -> PolicyContext {
        let me = pos.to_move();
        let board = pos.board();
        let near_last = if last == Move::NULL {
            Bitboard::EMPTY
        } else {
            let end = Bitboard::from_square(end_square(last, pos.size()));
            end | end.neighbours(board)
        };
        let mut their_tall = Bitboard::EMPTY;
        for sq in pos.tops(!me) {
            if pos.stack(sq).len() >= 2 {
                their_tall.set(sq);
            }
        }
        PolicyContext {
            me,
            board,
            their_critical: pos.road_completions(!me),
            near_last,
            their_tall,
            own: Groups::of(pos.road_pieces(me)),
            theirs: Groups::of(pos.road_pieces(!me)),
        }
    }
}

/// The square a move ends on: a placement's square, a spread's last square.
#[inline]
fn end_square(mv: Move, size: usize) -> Square {
    let mut sq = mv.square();
    if !mv.is_placement() {
        for _ in 0..mv.distance() {
            // A legal spread stays on the board; an illegal one only gives a wrong square.
            sq = sq.step(mv.direction(), size).unwrap_or(sq);
        }
    }
    sq
}

/// What a placement's features read of its square, whatever the kind placed: computed once
/// per square when several kinds are scored there.
#[derive(Clone, Copy, Debug)]
pub struct SquareFacts {
    square: Square,
    class: usize,
    own_adjacent: usize,
    their_adjacent: usize,
    joins: usize,
    /// Span of the own group a road piece here makes.
    road_span: usize,
    block_span: usize,
    their_critical: bool,
    near_last: bool,
    their_tall: i32,
    their_caps: i32,
}

impl SquareFacts {
    /// The facts of `sq` in `pos` (with context `ctx`).
    #[inline]
    pub fn of(pos: &Position, ctx: &PolicyContext, sq: Square) -> SquareFacts {
        let me = ctx.me;
        let here = Bitboard::from_square(sq);
        let around = here.neighbours(ctx.board);
        let (joins, joined) = ctx.own.touching(around);
        let (_, blocked) = ctx.theirs.touching(around);
        SquareFacts {
            square: sq,
            class: CLASSES[pos.size()].of_square[sq.index()] as usize,
            own_adjacent: (around & pos.road_pieces(me)).count() as usize,
            their_adjacent: (around & pos.tops(!me)).count() as usize,
            joins,
            road_span: span(joined | here),
            block_span: if blocked.is_empty() { 0 } else { span(blocked) },
            their_critical: ctx.their_critical.contains(sq),
            near_last: ctx.near_last.contains(sq),
            their_tall: (around & ctx.their_tall).count() as i32,
            their_caps: (around & pos.tops(!me) & pos.caps()).count() as i32,
        }
    }

    /// The square these facts are of.
    #[inline]
    pub fn square(&self) -> Square {
        self.square
    }
}

/// Feeds the features of `mv` (legal in `pos`, whose context is `ctx`) to `acc`.
#[inline(always)]
pub fn move_terms<A: Accumulator>(
    pos: &Position,
    ctx: &PolicyContext,
    l: &Layout,
    mv: Move,
    acc: &mut A,
) {
    if mv.is_placement() {
        placement_terms(&SquareFacts::of(pos, ctx, mv.square()), l, mv.kind(), acc);
    } else {
        spread_terms(pos, ctx, l, mv, acc);
    }
}

/// Feeds the features of placing `kind` on the square of `facts` to `acc`.
#[inline(always)]
pub fn placement_terms<A: Accumulator>(
    facts: &SquareFacts,
    l: &Layout,
    kind: PieceKind,
    acc: &mut A,
) {
    let k = kind as usize;
    let spans = l.size + 1;
    acc.add(l.place_psqt + k * l.classes + facts.class, 1);
    acc.add(
        l.place_own_adjacent + k * NEIGHBOURS + facts.own_adjacent,
        1,
    );
    acc.add(
        l.place_their_adjacent + k * NEIGHBOURS + facts.their_adjacent,
        1,
    );
    acc.add(l.place_joins + k * NEIGHBOURS + facts.joins, 1);
    // A wall joins nothing.
    let made = if kind == PieceKind::Wall {
        0
    } else {
        facts.road_span
    };
    acc.add(l.place_span + k * spans + made, 1);
    acc.add(l.place_block_span + k * spans + facts.block_span, 1);
    if facts.their_critical {
        acc.add(l.place_their_critical + k, 1);
    }
    if facts.near_last {
        acc.add(l.place_near_last + k, 1);
    }
    if facts.their_tall != 0 {
        acc.add(l.place_their_tall + k, facts.their_tall);
    }
    if facts.their_caps != 0 {
        acc.add(l.place_their_cap + k, facts.their_caps);
    }
}

#[inline(always)]
pub fn spread_terms<A: Accumulator>(
    pos: &Position,
    ctx: &PolicyContext,
    l: &Layout,
    mv: Move,
    acc: &mut A,
) {
    let me = ctx.me;
    let size = l.size;
    let from = mv.square();
    let stack = pos.stack(from);
    let count = mv.count();
    let kind = pos.top_kind(from);
    acc.add(l.spread_count + count as usize - 1, 1);
    acc.add(l.spread_distance + mv.distance() as usize - 1, 1);
    acc.add(l.spread_kind + kind as usize, 1);

    // The carried pieces, the deepest in bit 0; `mask` marks the last piece dropped on each
    // square, so the colour at each marked bit is the new top there.
    let height = stack.len() as u32;
    let hand = stack.bits() >> (height - count);
    let mine = |bit: u128| Color::from_bit(bit) == me;
    let (mut captures, mut gives, mut new_tops, mut blocks) = (0, 0, 0, 0);
    let mut touched = Bitboard::from_square(from);
    if height > count && !mine(stack.bits() >> (height - count - 1)) {
        gives += 1;
    }
    let (own_tops, their_tops) = (pos.tops(me), pos.tops(!me));
    // A legal spread stays on the board, so each step is a fixed change of index.
    let step = mv.direction().offset();
    let mut index = from.index() as isize;
    let mut mask = mv.drop_mask() as u32;
    let mut dropped = 0;
    let mut end = from;
    while mask != 0 {
        let n = mask.trailing_zeros() + 1;
        mask >>= n;
        dropped += n;
        index += step;
        let sq = Square::from_index_unchecked(index as u8);
        touched.set(sq);
        end = sq;
        let ours_after = mine(hand >> (dropped - 1));
        if ours_after {
            if their_tops.contains(sq) {
                captures += 1;
            } else if !own_tops.contains(sq) {
                new_tops += 1;
            }
        } else if own_tops.contains(sq) {
            gives += 1;
        }
        // Only the last square can end under a wall; a flat or capstone of ours blocks.
        let road_piece = ours_after && (mask != 0 || kind != PieceKind::Wall);
        if road_piece && ctx.their_critical.contains(sq) {
            blocks += 1;
        }
    }
    let last_drop_alone = count == 1 || mv.drop_mask() >> (count - 2) & 1 == 1;
    if kind == PieceKind::Cap && pos.walls().contains(end) && last_drop_alone {
        acc.add(l.spread_flattens, 1);
    }
    for (index, n) in [
        (l.spread_captures, captures),
        (l.spread_gives, gives),
        (l.spread_new_tops, new_tops),
        (l.spread_blocks, blocks),
    ] {
        if n != 0 {
            acc.add(index, n);
        }
    }
    acc.add(
        l.spread_end_class + CLASSES[size].of_square[end.index()] as usize,
        1,
    );
    if !(touched & ctx.near_last).is_empty() {
        acc.add(l.spread_near_last, 1);
    }
    let end_span = if mine(hand >> (count - 1)) && kind != PieceKind::Wall {
        let here = Bitboard::from_square(end);
        let (_, joined) = ctx.own.touching(here.neighbours(ctx.board));
        span(joined | here)
    } else {
        0
    };
    acc.add(l.spread_end_span + end_span, 1);
}
