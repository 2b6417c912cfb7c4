//! The solver's table: proof and disproof numbers by Zobrist key, in an `FxHashMap` whose room is
//! reserved once from the `Hash` budget, emptied of its cheapest unsolved entries when full.

use fxhash::FxHashMap;

/// Proof or disproof number meaning "cannot be", and the cap on finite sums.
pub(super) const INF: u32 = u32::MAX / 2;

/// What the table holds for one position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub pn: u32,
    pub dn: u32,
    /// Nodes spent below this entry: garbage collection keeps the costly ones.
    pub work: u32,
}

impl Entry {
    fn solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// Bytes one entry costs in the map (key, value, control byte and load-factor slack, rounded).
const ENTRY_BYTES: usize = 32;

pub(super) struct Table {
    map: FxHashMap<u64, Entry>,
    capacity: usize,
}

impl Table {
    /// A table of about `mb` megabytes (at least a few thousand entries).
    pub fn new(mb: usize) -> Table {
        Table::with_entries((mb.max(1) * 1024 * 1024 / ENTRY_BYTES).max(4096))
    }

    /// A table of `capacity` entries.
    pub fn with_entries(capacity: usize) -> Table {
        let capacity = capacity.max(1);
        let mut map = FxHashMap::default();
        map.reserve(capacity);
        Table { map, capacity }
    }

    pub fn clear(&mut self) {
        self.map.clear();
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        self.map.get(&key).copied()
    }

    /// Stores `entry`, first collecting garbage when the reserved room is used up so the map
    /// never grows (and never allocates) in the solver loop. False when the room is all taken
    /// by proofs, which are never dropped: the entry is not stored, and the search must stop.
    #[inline]
    #[must_use]
    pub fn store(&mut self, key: u64, entry: Entry) -> bool {
        if self.map.len() >= self.capacity && !self.map.contains_key(&key) {
            self.collect();
            if self.map.len() >= self.capacity {
                return false;
            }
        }
        self.map.insert(key, entry);
        true
    }

    /// Drops unsolved entries that cost less than the average work, then, if that freed too
    /// little, every unsolved entry, then every disproof. Proofs are never dropped: the proof
    /// walk reads a win's whole tree from them, and a parent proved from a child's value
    /// (kept on the search's stack) whose entry was dropped could not be walked, so a proof
    /// the search found came out unknown ('a proof did not survive the re-walk', once the
    /// table was full: this used to empty the whole table last).
    fn collect(&mut self) {
        let total: u64 = self.map.values().map(|e| e.work as u64).sum();
        let average = (total / self.map.len().max(1) as u64) as u32;
        self.map.retain(|_, e| e.solved() || e.work > average);
        if self.map.len() > self.capacity * 3 / 4 {
            self.map.retain(|_, e| e.solved());
        }
        if self.map.len() > self.capacity * 3 / 4 {
            self.map.retain(|_, e| e.pn == 0);
        }
        log::debug!("tinue table collected: {} entries kept", self.map.len());
    }

    /// Per mille of the reserved room in use (TEI's `hashfull`).
    pub fn permille(&self) -> u32 {
        (self.map.len() * 1000 / self.capacity.max(1)) as u32
    }
}
