//! The transposition table shared by every search thread, without locks.
//!
//! Entry: two `AtomicU64`, `key ^ data` and `data`; a torn write (two threads storing at once)
//! fails the key check instead of returning a mixed entry. `data` packs the move (16 bits), the
//! score (16), the depth (8), the bound (2) and the search age (6). Buckets hold two entries:
//! a store replaces the entry with the same key, else the one of lowest `depth - 4 * staleness`
//! (stale entries from older searches go first). Win scores are stored relative to the node
//! (`to_table`/`from_table`), so a win found at one ply reads right at another.

use super::{score_is_win, WIN};
use crate::core::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is exact.
    Exact = 0,
    /// The true value is at least the score (a beta cutoff).
    Lower = 1,
    /// The true value is at most the score (no move raised alpha).
    Upper = 2,
}

/// A probe result: a plain copy of an entry.
#[derive(Clone, Copy, Debug)]
pub struct TableHit {
    /// Best or refuting move, `Move::NULL` if none.
    pub mv: Move,
    /// Score, already adjusted to the probing ply.
    pub score: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// Bound type of the score.
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 2;
const ENTRY_BYTES: usize = 16;

/// The shared table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    buckets: usize,
    age: AtomicU8,
}

fn pack(mv: Move, score: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    mv.to_bits() as u64
        | ((score as i16 as u16 as u64) << 16)
        | ((depth.clamp(0, 255) as u64) << 32)
        | ((bound as u64) << 40)
        | (((age & 63) as u64) << 42)
}

fn unpack_age(data: u64) -> u8 {
    ((data >> 42) & 63) as u8
}

fn unpack_depth(data: u64) -> i32 {
    ((data >> 32) & 255) as i32
}

/// A win score made relative to the node that stores it.
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score_is_win(score) {
        score + ply as i32
    } else if score_is_win(-score) {
        score - ply as i32
    } else {
        score
    }
}

/// A stored win score made relative to the root again.
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score_is_win(score) {
        (score - ply as i32).min(WIN)
    } else if score_is_win(-score) {
        (score + ply as i32).max(-WIN)
    } else {
        score
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let buckets = (mb * 1024 * 1024 / (ENTRY_BYTES * BUCKET)).max(1);
        let mut entries = Vec::with_capacity(buckets * BUCKET);
        entries.resize_with(buckets * BUCKET, Entry::default);
        TranspositionTable {
            entries,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for e in &self.entries {
            e.key.store(0, Relaxed);
            e.data.store(0, Relaxed);
        }
        self.age.store(0, Relaxed);
    }

    /// Marks the start of a new search: older entries become stale.
    pub fn new_search(&self) {
        self.age.store((self.age.load(Relaxed) + 1) & 63, Relaxed);
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &[Entry] {
        let index = ((hash as u128 * self.buckets as u128) >> 64) as usize * BUCKET;
        &self.entries[index..index + BUCKET]
    }

    /// Looks up `hash`; scores come back adjusted to `ply`.
    #[inline]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<TableHit> {
        for e in self.bucket(hash) {
            let data = e.data.load(Relaxed);
            if e.key.load(Relaxed) ^ data == hash && data != 0 {
                let bound = match (data >> 40) & 3 {
                    0 => Bound::Exact,
                    1 => Bound::Lower,
                    _ => Bound::Upper,
                };
                return Some(TableHit {
                    mv: Move::from_bits(data as u16),
                    score: from_table((data >> 16) as u16 as i16 as i32, ply),
                    depth: unpack_depth(data),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result for `hash` found at `ply`.
    #[inline]
    pub fn store(&self, hash: u64, mv: Move, score: i32, depth: i32, bound: Bound, ply: usize) {
        let age = self.age.load(Relaxed);
        let bucket = self.bucket(hash);
        let mut target = &bucket[0];
        let mut worst = i32::MAX;
        for e in bucket {
            let data = e.data.load(Relaxed);
            if e.key.load(Relaxed) ^ data == hash {
                // Same position: keep a deeper result from this search unless this one is exact.
                if unpack_age(data) == age
                    && unpack_depth(data) > depth + 2
                    && bound != Bound::Exact
                {
                    return;
                }
                let mv = if mv == Move::NULL {
                    Move::from_bits(data as u16)
                } else {
                    mv
                };
                return Self::write(e, hash, pack(mv, to_table(score, ply), depth, bound, age));
            }
            let staleness = (age.wrapping_sub(unpack_age(data)) & 63) as i32;
            let value = unpack_depth(data) - 4 * staleness;
            if value < worst {
                worst = value;
                target = e;
            }
        }
        Self::write(
            target,
            hash,
            pack(mv, to_table(score, ply), depth, bound, age),
        );
    }

    #[inline]
    fn write(e: &Entry, hash: u64, data: u64) {
        e.data.store(data, Relaxed);
        e.key.store(hash ^ data, Relaxed);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| {
                let data = e.data.load(Relaxed);
                data != 0 && unpack_age(data) == age
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_ply_adjusted_wins() {
        let tt = TranspositionTable::new(1);
        let mv = Move::from_bits(5);
        tt.store(0xDEAD_BEEF, mv, WIN - 7, 6, Bound::Exact, 3);
        let hit = tt.probe(0xDEAD_BEEF, 5).expect("stored");
        assert_eq!(hit.mv, mv);
        assert_eq!(hit.depth, 6);
        assert_eq!(hit.bound, Bound::Exact);
        // A win 4 plies after the storing node is a win 4 plies after the probing node.
        assert_eq!(hit.score, WIN - 9);
        assert!(tt.probe(0xDEAD_BEEE, 5).is_none());
        tt.store(0x1234, Move::NULL, -35, 2, Bound::Upper, 0);
        assert_eq!(tt.probe(0x1234, 9).unwrap().score, -35);
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF, 5).is_none());
    }
}
