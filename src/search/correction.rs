//! Thread-owned correction history: how far the static evaluation has been from what the search
//! found, remembered by the shape of the position, and added to the evaluation the pruning rules
//! read (Stockfish's and Viridithas's "correction history").
//!
//! Chess indexes it by the pawn structure, the part of a position that changes slowly and says
//! most about what the evaluation misjudges. Tak's analogue here is who owns the top of each
//! square, one colour at a time, as Stockfish's non-pawn correction keys each colour's pieces
//! apart: the squares White tops, hashed to a 14-bit key ([`structure_key`]), index one table,
//! the squares Black tops another, each per side to move, and the correction is the mean of the
//! two entries. A move changes only its own colour's tops (a spread may also cover some of the
//! other's), so all the replies to one move share the entry of the colour that did not move, and
//! positions that differ only under the tops (captives and supports) share both.
//!
//! An entry holds centi-flats times [`GRAIN`]. After a node's move loop, both of its entries move
//! toward the node's error `score - static eval` by a weighted average, the weight growing with
//! depth up to `correction_weight` / 256, and stay within ±`correction_limit` centi-flats. The
//! table is one allocation per worker, made with the worker, and cleared for a new game.

use crate::core::{Bitboard, Color, Position};

/// Bits of the structure key: 16384 entries per side to move and colour of the tops.
const KEY_BITS: u32 = 14;
const ENTRIES: usize = 1 << KEY_BITS;
/// Fixed point: an entry is centi-flats times `GRAIN`, so small weights still move it.
pub const GRAIN: i32 = 256;
/// Update weights are out of `WEIGHT_SCALE`.
const WEIGHT_SCALE: i32 = 256;

/// The structure key of one colour's tops: the bitboard through a 64-bit mixer (so that every
/// square moves every bit), its top `KEY_BITS` bits.
#[inline]
pub fn structure_key(tops: Bitboard) -> usize {
    let mut x = tops.0;
    x ^= x >> 32;
    x = x.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    x ^= x >> 32;
    x = x.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    (x >> (64 - KEY_BITS)) as usize
}

/// The two entries of a position: by side to move, for White's tops and for Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots([usize; 2]);

/// Correction history for both sides to move.
#[derive(Clone)]
pub struct CorrectionHistory {
    /// `[side to move][colour of the tops][key]`, flattened.
    table: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            table: vec![0; 2 * 2 * ENTRIES],
        }
    }
}

impl CorrectionHistory {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// The entries of `pos`.
    #[inline]
    pub fn slots(pos: &Position) -> Slots {
        let side = pos.to_move().index() * 2 * ENTRIES;
        Slots(
            [Color::White, Color::Black]
                .map(|c| side + c.index() * ENTRIES + structure_key(pos.tops(c))),
        )
    }

    /// The correction of a position with entries `slots`, in centi-flats, within ±`limit`.
    #[inline]
    pub fn correction(&self, slots: Slots, limit: i32) -> i32 {
        let [a, b] = slots.0;
        ((self.table[a] + self.table[b]) / (2 * GRAIN)).clamp(-limit, limit)
    }

    /// Moves the entries `slots` toward `error` (search score minus static evaluation, in
    /// centi-flats, cut to ±`limit`), with weight `min(depth + 1, max_weight)` / 256.
    #[inline]
    pub fn update(&mut self, slots: Slots, error: i32, depth: i32, limit: i32, max_weight: i32) {
        let weight = i64::from((depth + 1).clamp(1, max_weight.clamp(1, WEIGHT_SCALE)));
        let target = i64::from(error.clamp(-limit, limit) * GRAIN);
        for slot in slots.0 {
            let entry = &mut self.table[slot];
            let moved = (i64::from(*entry) * (i64::from(WEIGHT_SCALE) - weight) + target * weight)
                / i64::from(WEIGHT_SCALE);
            *entry = (moved as i32).clamp(-limit * GRAIN, limit * GRAIN);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(tps: &str) -> Position {
        Position::from_tps(tps).unwrap()
    }

    /// A position with a White flat on c3 and a Black one on a5, `side` to move.
    fn two_flats(side: u8) -> Position {
        position(&format!("2,x4/x5/x2,1,x2/x5/x5 {side} 2"))
    }

    #[test]
    fn updates_move_toward_the_observed_error() {
        let mut history = CorrectionHistory::default();
        let slots = CorrectionHistory::slots(&two_flats(1));
        assert_eq!(history.correction(slots, 300), 0);
        let mut last = 0;
        for _ in 0..400 {
            history.update(slots, 120, 8, 300, 16);
            let now = history.correction(slots, 300);
            assert!(now >= last && now <= 120, "{last} -> {now}");
            last = now;
        }
        assert!(last >= 115, "{last}");
        // Deeper nodes weigh more: one update at depth 10 moves further than at depth 1.
        let mut shallow = CorrectionHistory::default();
        let mut deep = CorrectionHistory::default();
        shallow.update(slots, -200, 1, 300, 16);
        deep.update(slots, -200, 10, 300, 16);
        let (s, d) = (shallow.table[slots.0[0]], deep.table[slots.0[0]]);
        assert!(d < s && s < 0, "{d} {s}");
        // And back toward a new error.
        for _ in 0..400 {
            history.update(slots, -50, 8, 300, 16);
        }
        assert!((-50..=-45).contains(&history.correction(slots, 300)));
    }

    #[test]
    fn entries_stay_within_the_limit() {
        let mut history = CorrectionHistory::default();
        let slots = CorrectionHistory::slots(&two_flats(1));
        for i in 0..10_000 {
            let error = if i % 3 == 0 { -9_000 } else { 9_000 };
            history.update(slots, error, 100, 250, 128);
            for slot in slots.0 {
                assert!(history.table[slot].abs() <= 250 * GRAIN);
            }
            assert!(history.correction(slots, 250).abs() <= 250);
        }
        for _ in 0..1_000 {
            history.update(slots, 9_000, 100, 250, 128);
        }
        // At the limit, short of it only by the average's rounding toward zero.
        assert!((249..=250).contains(&history.correction(slots, 250)));
        // A smaller limit later bounds what is read too.
        assert_eq!(history.correction(slots, 100), 100);
        history.clear();
        assert_eq!(history.correction(slots, 250), 0);
    }

    #[test]
    fn each_side_to_move_has_its_own_entries() {
        let (white, black) = (
            CorrectionHistory::slots(&two_flats(1)),
            CorrectionHistory::slots(&two_flats(2)),
        );
        for (w, b) in white.0.into_iter().zip(black.0) {
            assert_ne!(w, b);
            assert_eq!(w % ENTRIES, b % ENTRIES, "same tops, same key");
        }
        let mut history = CorrectionHistory::default();
        for _ in 0..100 {
            history.update(white, 80, 6, 300, 16);
        }
        assert!(history.correction(white, 300) > 40);
        assert_eq!(history.correction(black, 300), 0);
    }

    /// Positions share the entry of each colour whose tops they share: a Black reply leaves
    /// White's tops, and so White's entry, as they were.
    #[test]
    fn entries_follow_each_colours_tops() {
        let before = CorrectionHistory::slots(&two_flats(1));
        let other_black = CorrectionHistory::slots(&position("x5/x5/x2,1,x2/x5/x4,2 1 2"));
        assert_eq!(before.0[0], other_black.0[0]);
        assert_ne!(before.0[1], other_black.0[1]);
        let mut history = CorrectionHistory::default();
        for _ in 0..200 {
            history.update(before, 100, 10, 300, 16);
        }
        // Half the correction: one of the two entries.
        let shared = history.correction(other_black, 300);
        assert!((45..=50).contains(&shared), "{shared}");
        // White's tops as Black's are another entry.
        let swapped = CorrectionHistory::slots(&position("1,x4/x5/x2,2,x2/x5/x5 1 2"));
        assert_ne!(swapped.0[0], before.0[0]);
        assert_eq!(history.correction(swapped, 300), 0);
    }

    #[test]
    fn keys_spread_single_squares_apart() {
        assert!(structure_key(Bitboard(u64::MAX)) < ENTRIES);
        // The 64 single squares, and the 28 pairs of squares on the first rank, all get
        // different keys.
        let mut keys: Vec<usize> = (0..64).map(|i| structure_key(Bitboard(1 << i))).collect();
        for a in 0..8 {
            for b in a + 1..8 {
                keys.push(structure_key(Bitboard(1 << a | 1 << b)));
            }
        }
        let all = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), all);
    }
}
