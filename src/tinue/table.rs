//! The solver's table: proof and disproof numbers by Zobrist key, in an `FxHashMap` whose room is
//! reserved once from the `Hash` budget, emptied of its cheapest unsolved entries when full; and
//! beside it the cache of expansions (each node's children), which takes a quarter of the budget.

use crate::core::Move;
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

/// Bytes one cached expansion costs in its map, beside its moves (key, range, slack).
const EXPANSION_BYTES: usize = 24;

/// Expansions remembered: for each position expanded, the children that the position alone
/// does not settle (an attacker's taks, a defender's moves that do not lose at once). df-pn
/// comes back to a node many times as its thresholds grow; without this every visit generated
/// every legal move and tested each for a threat again. Emptied when full (it is only a cache).
pub(super) struct Expansions {
    map: FxHashMap<u64, (u32, u32)>,
    moves: Vec<Move>,
    capacity: usize,
    move_capacity: usize,
}

impl Expansions {
    /// A cache of about `mb` megabytes, reserved now.
    pub fn new(mb: usize) -> Expansions {
        let bytes = mb.max(1) * 1024 * 1024;
        let capacity = (bytes / 2 / EXPANSION_BYTES).max(1024);
        let move_capacity = (bytes / 2 / std::mem::size_of::<Move>()).max(4096);
        let mut map = FxHashMap::default();
        map.reserve(capacity);
        Expansions {
            map,
            moves: Vec::with_capacity(move_capacity),
            capacity,
            move_capacity,
        }
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.moves.clear();
    }

    /// The children remembered for `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<&[Move]> {
        self.map
            .get(&key)
            .map(|&(start, len)| &self.moves[start as usize..(start + len) as usize])
    }

    /// Remembers `moves` as the children of `key`, first emptying the cache if it is full.
    pub fn store(&mut self, key: u64, moves: &[Move]) {
        if self.map.len() >= self.capacity || self.moves.len() + moves.len() > self.move_capacity {
            self.clear();
            if moves.len() > self.move_capacity {
                return;
            }
        }
        let start = self.moves.len() as u32;
        self.moves.extend_from_slice(moves);
        self.map.insert(key, (start, moves.len() as u32));
    }
}
