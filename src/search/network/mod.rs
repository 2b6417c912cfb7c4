//! The network evaluation: a one-hidden-layer network over per-square inputs, its hidden layer
//! kept per colour's view as an accumulator that the search updates move by move
//! (docs/network.md gives the inputs, the architecture and the file format).
//!
//! A board size plays with its network when one is compiled in (`BUILTIN`) or loaded with the
//! `EvalFile` option; otherwise with the linear evaluation (`eval/`). Both give centi-flats
//! from the side to move's view within ±`EVAL_LIMIT`.

mod accumulator;
mod file;
mod inputs;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use file::{Network, MAX_HIDDEN};
pub use inputs::{InputLayout, Reserves};

use crate::core::{Position, MAX_SIZE};
use std::sync::LazyLock;

/// The network files compiled in, by board size; `None` plays the linear evaluation. A size
/// gets its file here only when its network won its matches (STRENGTH.md).
const BUILTIN_FILES: [Option<&[u8]>; MAX_SIZE + 1] = {
    let mut files: [Option<&[u8]>; MAX_SIZE + 1] = [None; MAX_SIZE + 1];
    files[4] = Some(include_bytes!("../../../weights/nnue-4x4.mhn"));
    files[5] = Some(include_bytes!("../../../weights/nnue-5x5.mhn"));
    files[6] = Some(include_bytes!("../../../weights/nnue-6x6.mhn"));
    files[7] = Some(include_bytes!("../../../weights/nnue-7x7.mhn"));
    files[8] = Some(include_bytes!("../../../weights/nnue-8x8.mhn"));
    files
};

/// The sizes that play a compiled-in network, for tests and documentation.
pub fn builtin_sizes() -> impl Iterator<Item = usize> {
    (0..=MAX_SIZE).filter(|&size| BUILTIN_FILES[size].is_some())
}

static BUILTIN: LazyLock<Vec<Option<Network>>> = LazyLock::new(|| {
    BUILTIN_FILES
        .iter()
        .map(|file| {
            file.map(|bytes| Network::parse(bytes).expect("a compiled-in network file parses"))
        })
        .collect()
});

/// The compiled-in network of `size`, if that size plays with one.
pub fn builtin(size: usize) -> Option<&'static Network> {
    BUILTIN.get(size)?.as_ref()
}

/// The network's evaluation of `pos` computed from scratch (outside the search, which keeps
/// accumulators): centi-flats, side to move's view, within ±`EVAL_LIMIT`.
///
/// # Panics
/// If `net` is for another board size (a caller's bug).
pub fn evaluate_full(net: &Network, pos: &Position) -> i32 {
    assert_eq!(net.size(), pos.size(), "network for the wrong board size");
    let mut acc = Accumulator::zeroed();
    acc.refresh(net, pos);
    acc.evaluate(net, pos)
}
