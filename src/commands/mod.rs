//! The command-line tools behind `menhir perft`, `menhir bench` and `menhir analyze`.

mod analyze;
mod bench;
mod perft;
mod position_args;

pub use analyze::{analyze, AnalyzeArgs};
pub use bench::{bench, BenchArgs};
pub use perft::{perft, PerftArgs};
pub use position_args::PositionArgs;
