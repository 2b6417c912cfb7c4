//! Which positions some worker is searching right now: ABDADA's flag, on top of Lazy SMP.
//!
//! Lazy SMP's workers share only the table, so two of them often search the same subtree at
//! the same time, and the second learns nothing from the first until it has finished. A worker
//! marks the child it is about to search here; another worker that reaches the same child as a
//! late move defers it to the end of its move list, by which time the first has usually
//! stored its result in the table (Weill's ABDADA, in the lock-free form of Lazy SMP engines).
//! A slot holds the hash of one position, or 0; a collision only costs a deferral or a missed
//! one, never a wrong result.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots: enough for the nodes near the root that two workers can be in at once (a few per
/// ply and worker); 32 KB.
const SLOTS: usize = 1 << 12;

/// The positions being searched, by hash.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> BusyTable {
        BusyTable {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl BusyTable {
    #[inline]
    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[hash as usize & (SLOTS - 1)]
    }

    /// Whether a worker is searching the position with this hash.
    #[inline]
    pub fn is_busy(&self, hash: u64) -> bool {
        self.slot(hash).load(Relaxed) == hash
    }

    /// Marks the position as being searched, if its slot is free; true when this call marked
    /// it, and the caller must then `leave` it.
    #[inline]
    pub fn enter(&self, hash: u64) -> bool {
        hash != 0
            && self
                .slot(hash)
                .compare_exchange(0, hash, Relaxed, Relaxed)
                .is_ok()
    }

    /// Frees the slot `enter` marked.
    #[inline]
    pub fn leave(&self, hash: u64) {
        let _ = self.slot(hash).compare_exchange(hash, 0, Relaxed, Relaxed);
    }

    /// Whether no position is marked (every `enter` was matched by a `leave`).
    pub fn is_clear(&self) -> bool {
        self.slots.iter().all(|s| s.load(Relaxed) == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_position_is_busy_until_left() {
        let busy = BusyTable::default();
        let (a, b) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        assert!(!busy.is_busy(a));
        assert!(busy.enter(a));
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b));
        // A second worker cannot claim the slot; the first still holds it.
        assert!(!busy.enter(a));
        // A position sharing the slot is not taken for the marked one.
        let c = a ^ (1 << 40);
        assert!(!busy.is_busy(c));
        assert!(!busy.enter(c));
        busy.leave(c);
        assert!(busy.is_busy(a));
        busy.leave(a);
        assert!(!busy.is_busy(a));
        assert!(busy.is_clear());
    }
}
