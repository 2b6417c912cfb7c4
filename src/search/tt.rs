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

/// `count` empty entries from zeroed memory, or `None` if the memory cannot be had. Zeroed
/// pages are only committed when first written, so a large table costs nothing up front.
fn zeroed_entries(count: usize) -> Option<Vec<Entry>> {
    let layout = std::alloc::Layout::array::<Entry>(count).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout is non-zero-sized and valid for `count` entries; all-zero bits are a
    // valid `Entry` (two `AtomicU64`s holding 0, which is `Entry::default()`); the pointer
    // comes from the global allocator with this exact layout, as `Vec::from_raw_parts` needs.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Entry;
        (!ptr.is_null()).then(|| Vec::from_raw_parts(ptr, count, count))
    }
}

/// Three quarters of the memory the system says is available (Linux), so that a table larger
/// than the machine is shrunk up front rather than filled until the process is killed.
fn affordable_bytes() -> usize {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb.saturating_mul(1024) / 4 * 3)
        })
        .unwrap_or(usize::MAX)
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). When the memory cannot be had,
    /// the size is halved until it can: a GUI's large Hash must not abort the engine.
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.saturating_mul(1024 * 1024).min(affordable_bytes());
        let mut buckets = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        let entries = loop {
            match zeroed_entries(buckets * BUCKET) {
                Some(entries) => break entries,
                None if buckets > 1 => buckets /= 2,
                None => break (0..BUCKET).map(|_| Entry::default()).collect(),
            }
        };
        if buckets * ENTRY_BYTES * BUCKET < mb.saturating_mul(1024 * 1024) / 2 {
            log::warn!(
                "Hash {mb} MB could not be allocated; using {} MB",
                buckets * ENTRY_BYTES * BUCKET / (1024 * 1024)
            );
        }
        TranspositionTable {
            entries,
            buckets,
            age: AtomicU8::new(0),
        }
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
        // A new table (what a new game gets) knows nothing.
        assert!(TranspositionTable::new(1).probe(0xDEAD_BEEF, 5).is_none());
    }
}
