//! The policy's move features: what each weight multiplies, and where it sits in a board
//! size's weight vector. Every feature is from the mover's view and fires for one move.

use crate::core::{MAX_SIZE, MIN_SIZE};
use crate::search::eval::class_count;

/// Placed kinds in feature order (`PieceKind as usize`).
pub const KINDS: [&str; 3] = ["flat", "wall", "cap"];
/// Neighbour counts 0–4 of a square.
pub const NEIGHBOURS: usize = 5;

/// Where each group of features starts (feature `i` of a group is at `start + i`).
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Board size.
    pub size: usize,
    /// Symmetry classes of a square.
    pub classes: usize,
    /// A placement by kind and square class: `place_psqt + kind·classes + class`.
    pub place_psqt: usize,
    /// Own road pieces next to a placement: `+ kind·5 + count`.
    pub place_own_adjacent: usize,
    /// Opponent tops next to a placement: `+ kind·5 + count`.
    pub place_their_adjacent: usize,
    /// Distinct own road groups a placement touches (two or more: it merges them): `+ kind·5 + n`.
    pub place_joins: usize,
    /// Span (files or ranks covered, the larger) of the own group a road piece placed here
    /// makes: `+ kind·(size+1) + span` (0 for a wall, which joins nothing).
    pub place_span: usize,
    /// The largest span of an opponent group next to the placement: `+ kind·(size+1) + span`
    /// (0 when none touches it).
    pub place_block_span: usize,
    /// A placement on a square where an opponent road piece would complete a road: `+ kind`.
    pub place_their_critical: usize,
    /// A placement next to the square where the last move ended: `+ kind`.
    pub place_near_last: usize,
    /// Opponent stacks of two or more next to a placement: `+ kind` (a count).
    pub place_their_tall: usize,
    /// Opponent capstones next to a placement: `+ kind` (a count).
    pub place_their_cap: usize,
    /// Pieces a spread picks up: `+ count − 1`.
    pub spread_count: usize,
    /// Squares a spread travels: `+ distance − 1`.
    pub spread_distance: usize,
    /// The kind of the spread's top piece: `+ kind`.
    pub spread_kind: usize,
    /// A capstone alone flattening a wall at the end of its spread.
    pub spread_flattens: usize,
    /// Squares whose top turns from the opponent's to ours (a count).
    pub spread_captures: usize,
    /// Squares whose top turns from ours to the opponent's, the start square included (a count).
    pub spread_gives: usize,
    /// Empty squares the spread covers with our piece (a count).
    pub spread_new_tops: usize,
    /// Opponent critical squares the spread covers with our road piece (a count).
    pub spread_blocks: usize,
    /// The square class of the spread's end: `+ class`.
    pub spread_end_class: usize,
    /// A spread touching the last move's square or its neighbours.
    pub spread_near_last: usize,
    /// Span of the own group at the spread's end if a road piece of ours ends there:
    /// `+ span` (0 otherwise).
    pub spread_end_span: usize,
    /// Number of features.
    pub len: usize,
}

impl Layout {
    /// The layout of a board of `size`.
    pub const fn new(size: usize) -> Layout {
        let classes = class_count(size);
        let spans = size + 1;
        let mut n = 0;
        // Hands out `count` consecutive indices.
        macro_rules! take {
            ($count:expr) => {{
                let start = n;
                n += $count;
                start
            }};
        }
        Layout {
            size,
            classes,
            place_psqt: take!(3 * classes),
            place_own_adjacent: take!(3 * NEIGHBOURS),
            place_their_adjacent: take!(3 * NEIGHBOURS),
            place_joins: take!(3 * NEIGHBOURS),
            place_span: take!(3 * spans),
            place_block_span: take!(3 * spans),
            place_their_critical: take!(3),
            place_near_last: take!(3),
            place_their_tall: take!(3),
            place_their_cap: take!(3),
            spread_count: take!(8),
            spread_distance: take!(7),
            spread_kind: take!(3),
            spread_flattens: take!(1),
            spread_captures: take!(1),
            spread_gives: take!(1),
            spread_new_tops: take!(1),
            spread_blocks: take!(1),
            spread_end_class: take!(classes),
            spread_near_last: take!(1),
            spread_end_span: take!(spans),
            len: n,
        }
    }

    /// The layout of a supported board size, or `None`.
    pub fn of(size: usize) -> Option<&'static Layout> {
        (MIN_SIZE..=MAX_SIZE)
            .contains(&size)
            .then(|| &LAYOUTS[size])
    }

    /// Every feature's name, index `i` naming feature `i`.
    pub fn names(&self) -> Vec<String> {
        let mut names = vec![String::new(); self.len];
        let mut name = |i: usize, text: String| names[i] = text;
        let spans = self.size + 1;
        let class_names = crate::search::eval::class_names(self.size);
        for (k, kind) in KINDS.iter().enumerate() {
            for (class, square) in class_names.iter().enumerate() {
                name(
                    self.place_psqt + k * self.classes + class,
                    format!("place_{kind}_{square}"),
                );
            }
            for c in 0..NEIGHBOURS {
                let i = k * NEIGHBOURS + c;
                name(
                    self.place_own_adjacent + i,
                    format!("place_{kind}_own_adjacent_{c}"),
                );
                name(
                    self.place_their_adjacent + i,
                    format!("place_{kind}_their_adjacent_{c}"),
                );
                name(self.place_joins + i, format!("place_{kind}_joins_{c}"));
            }
            for s in 0..spans {
                name(
                    self.place_span + k * spans + s,
                    format!("place_{kind}_span_{s}"),
                );
                name(
                    self.place_block_span + k * spans + s,
                    format!("place_{kind}_block_span_{s}"),
                );
            }
            name(
                self.place_their_critical + k,
                format!("place_{kind}_their_critical"),
            );
            name(self.place_near_last + k, format!("place_{kind}_near_last"));
            name(
                self.place_their_tall + k,
                format!("place_{kind}_their_tall"),
            );
            name(self.place_their_cap + k, format!("place_{kind}_their_cap"));
            name(self.spread_kind + k, format!("spread_{kind}"));
        }
        for c in 0..8 {
            name(self.spread_count + c, format!("spread_count_{}", c + 1));
        }
        for d in 0..7 {
            name(
                self.spread_distance + d,
                format!("spread_distance_{}", d + 1),
            );
        }
        name(self.spread_flattens, "spread_flattens".into());
        name(self.spread_captures, "spread_captures".into());
        name(self.spread_gives, "spread_gives".into());
        name(self.spread_new_tops, "spread_new_tops".into());
        name(self.spread_blocks, "spread_blocks".into());
        for (class, square) in class_names.iter().enumerate() {
            name(
                self.spread_end_class + class,
                format!("spread_end_{square}"),
            );
        }
        name(self.spread_near_last, "spread_near_last".into());
        for s in 0..spans {
            name(self.spread_end_span + s, format!("spread_end_span_{s}"));
        }
        names
    }
}

/// Layouts by size (entries below 3 are unused copies of 3×3).
pub static LAYOUTS: [Layout; MAX_SIZE + 1] = {
    let mut layouts = [Layout::new(MIN_SIZE); MAX_SIZE + 1];
    let mut size = MIN_SIZE;
    while size <= MAX_SIZE {
        layouts[size] = Layout::new(size);
        size += 1;
    }
    layouts
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feature_has_one_distinct_name() {
        for layout in &LAYOUTS[MIN_SIZE..=MAX_SIZE] {
            let size = layout.size;
            let names = layout.names();
            assert!(names.iter().all(|n| !n.is_empty()), "{size}: {names:?}");
            let mut sorted = names.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), names.len(), "size {size}");
        }
    }
}
