//! What several tools share and no one of them owns: atomic output files, seeds and dates
//! from the clock. Depends on nothing else in the crate.

pub mod atomic_file;
pub mod clock;
pub mod random_line;

pub use atomic_file::AtomicFile;
pub use clock::{seed_from_clock, today};
pub use random_line::random_line;

/// Games the tools play (match, datagen, spsa) are drawn when they reach this many plies from
/// the root (Racetrack stops at 1000 plies too).
pub const DEFAULT_MAX_PLIES: usize = 1000;
