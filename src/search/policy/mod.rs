//! The move-ordering policy: a linear score over features of a move (where it places, what it
//! joins or blocks, what a spread captures), with weights per board size that `menhir
//! tune-policy` fits to the moves the search chose in self-play (softmax over the legal moves).
//!
//! One code path (`terms.rs`) computes every feature of a move and feeds an accumulator: the
//! weighted one here gives the score the move picker adds to the history; the trace gives the
//! tuner its features. What every move of a node shares (groups, critical squares, the last
//! move) is computed once per node in a [`PolicyContext`]. The weights are data
//! (`weights/policy-NxN.txt`).

mod features;
mod terms;
mod weights;

pub use features::Layout as PolicyLayout;
pub use terms::{PolicyContext, SquareFacts};
pub use weights::{PolicyWeights, MAX_WEIGHT};

use super::eval::Accumulator;
use crate::core::{Move, Position};
use features::LAYOUTS;
use terms::{move_terms, placement_terms, spread_terms};

/// The sum of weight × count.
struct Weighted<'a> {
    weights: &'a PolicyWeights,
    sum: i32,
}

impl Accumulator for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.sum += self.weights.get(index) * count;
    }
}

/// The policy score of `mv`, legal in `pos`, under `weights` (of `pos`'s size), in ordering
/// units: higher is tried first.
#[inline]
pub fn policy_score(pos: &Position, ctx: &PolicyContext, mv: Move, weights: &PolicyWeights) -> i32 {
    debug_assert_eq!(weights.size(), pos.size());
    let mut sum = Weighted { weights, sum: 0 };
    move_terms(pos, ctx, &LAYOUTS[pos.size()], mv, &mut sum);
    sum.sum
}

/// Scores a node's moves in generation order: `keep(move, score)` for each, as `policy_score`
/// gives it, but reading each square once for all the kinds placed on it (the generator
/// lists a square's placements together).
#[inline]
pub fn score_moves(
    pos: &Position,
    ctx: &PolicyContext,
    weights: &PolicyWeights,
    moves: &[Move],
    mut keep: impl FnMut(Move, i32),
) {
    debug_assert_eq!(weights.size(), pos.size());
    let layout = &LAYOUTS[pos.size()];
    let mut facts: Option<SquareFacts> = None;
    for &mv in moves {
        let mut sum = Weighted { weights, sum: 0 };
        if mv.is_placement() {
            let sq = mv.square();
            let f = match facts {
                Some(f) if f.square() == sq => f,
                _ => *facts.insert(SquareFacts::of(pos, ctx, sq)),
            };
            placement_terms(&f, layout, mv.kind(), &mut sum);
        } else {
            spread_terms(pos, ctx, layout, mv, &mut sum);
        }
        keep(mv, sum.sum);
    }
}

/// Appends to `out`.
struct Trace<'a>(&'a mut Vec<(u16, i16)>);

impl Accumulator for Trace<'_> {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.0.push((index as u16, count as i16));
    }
}

/// Appends the features of `mv` (legal in `pos`) to `out` as (index, count): the same terms
/// `policy_score` weighs, for the tuner. An index may repeat; counts add up.
pub fn policy_trace(pos: &Position, ctx: &PolicyContext, mv: Move, out: &mut Vec<(u16, i16)>) {
    if let Some(layout) = PolicyLayout::of(pos.size()) {
        move_terms(pos, ctx, layout, mv, &mut Trace(out));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::MoveList;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The score is the trace weighed: one code path, two uses; scoring a node's moves at once
    /// gives each move's score.
    #[test]
    fn the_score_is_the_trace_weighed_on_random_positions_of_every_size() {
        let mut rng = StdRng::seed_from_u64(17);
        let mut moves = MoveList::new();
        let mut trace = Vec::new();
        for size in 3..=8 {
            let names = PolicyWeights::feature_names(size);
            let mut weights = PolicyWeights::zero(size).unwrap();
            for i in 0..names.len() {
                weights.set(i, rng.random_range(-1000..=1000));
            }
            for _ in 0..40 {
                let mut pos = Position::start(size).unwrap();
                let mut last = Move::NULL;
                for _ in 0..rng.random_range(0..60) {
                    moves.clear();
                    pos.generate_moves(&mut moves);
                    if moves.is_empty() || pos.result().is_some() {
                        break;
                    }
                    last = moves[rng.random_range(0..moves.len())];
                    pos.do_move(last);
                }
                if pos.result().is_some() {
                    continue;
                }
                let ctx = PolicyContext::new(&pos, last);
                moves.clear();
                pos.generate_moves(&mut moves);
                let mut batch = Vec::new();
                score_moves(&pos, &ctx, &weights, moves.as_slice(), |mv, score| {
                    batch.push((mv, score))
                });
                assert_eq!(batch.len(), moves.len());
                for (&mv, &(batched, score)) in moves.as_slice().iter().zip(&batch) {
                    assert_eq!(
                        (mv, score),
                        (batched, policy_score(&pos, &ctx, mv, &weights))
                    );
                }
                for &mv in moves.as_slice() {
                    trace.clear();
                    policy_trace(&pos, &ctx, mv, &mut trace);
                    assert!(!trace.is_empty());
                    let weighed: i32 = trace
                        .iter()
                        .map(|&(i, c)| weights.get(i as usize) * c as i32)
                        .sum();
                    assert_eq!(weighed, policy_score(&pos, &ctx, mv, &weights));
                }
            }
        }
    }
}

#[cfg(test)]
mod feature_tests {
    use super::*;
    use std::collections::HashMap;

    /// The features `mv` fires in `tps`, by name.
    fn fired(tps: &str, last: &str, mv: &str) -> HashMap<&'static str, i32> {
        let pos = Position::from_tps(tps).unwrap();
        let last = if last.is_empty() {
            Move::NULL
        } else {
            Move::parse_ptn(last, pos.size()).unwrap()
        };
        let ctx = PolicyContext::new(&pos, last);
        let mut trace = Vec::new();
        policy_trace(&pos, &ctx, pos.parse_move(mv).unwrap(), &mut trace);
        let names = PolicyWeights::feature_names(pos.size());
        let mut counts = HashMap::new();
        for (i, c) in trace {
            *counts.entry(names[i as usize]).or_insert(0) += c as i32;
        }
        counts
    }

    #[test]
    fn a_flat_between_two_groups_joins_them_and_spans_both() {
        // White flats on a1 and c1, a Black flat on e5; White places b1.
        let f = fired("x4,2/x5/x5/x5/1,x,1,x2 1 3", "e5", "b1");
        assert_eq!(f["place_flat_joins_2"], 1, "{f:?}");
        assert_eq!(f["place_flat_span_3"], 1, "{f:?}");
        assert_eq!(f["place_flat_own_adjacent_2"], 1, "{f:?}");
        assert_eq!(f["place_flat_b1"], 1, "{f:?}");
        assert!(!f.contains_key("place_flat_near_last"), "{f:?}");
        // A wall there joins nothing: span 0.
        let f = fired("x4,2/x5/x5/x5/1,x,1,x2 1 3", "e5", "Sb1");
        assert_eq!(f["place_wall_span_0"], 1, "{f:?}");
        // Next to the last move.
        let f = fired("x4,2/x5/x5/x5/1,x,1,x2 1 3", "e5", "d5");
        assert_eq!(f["place_flat_near_last"], 1, "{f:?}");
        assert_eq!(f["place_flat_block_span_1"], 1, "{f:?}");
    }

    #[test]
    fn a_spread_counts_what_it_captures_and_what_it_uncovers() {
        // a1 holds a Black flat under a White one; b1 a Black flat. a1> covers b1 (a capture)
        // and leaves Black on top of a1 (given away).
        let f = fired("x5/x5/x5/x5/21,2,x3 1 3", "", "a1>");
        assert_eq!(f["spread_captures"], 1, "{f:?}");
        assert_eq!(f["spread_gives"], 1, "{f:?}");
        assert!(!f.contains_key("spread_new_tops"), "{f:?}");
        assert_eq!(f["spread_count_1"], 1, "{f:?}");
        assert_eq!(f["spread_distance_1"], 1, "{f:?}");
        // 2a1>11 drops the Black piece on b1 (no change) and the White one on c1 (new top).
        let f = fired("x5/x5/x5/x5/21,2,x3 1 3", "", "2a1>11");
        assert!(!f.contains_key("spread_captures"), "{f:?}");
        assert_eq!(f["spread_new_tops"], 1, "{f:?}");
        assert_eq!(f["spread_distance_2"], 1, "{f:?}");
    }

    #[test]
    fn a_capstone_alone_on_a_wall_flattens_it() {
        let f = fired("x5/x5/x5/x5/1C,2S,x3 1 3", "", "a1>");
        assert_eq!(f["spread_flattens"], 1, "{f:?}");
        assert_eq!(f["spread_cap"], 1, "{f:?}");
        assert_eq!(f["spread_captures"], 1, "{f:?}");
    }
}
