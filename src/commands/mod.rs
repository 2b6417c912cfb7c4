//! The command-line tools behind `menhir perft`, `menhir bench`, `menhir analyze`,
//! `menhir serve` and `menhir tinue`.

mod analyze;
mod bench;
mod perft;
mod position_args;
mod serve;
mod tinue;

pub use analyze::{analyze, AnalyzeArgs};
pub use bench::{bench, default_depth, BenchArgs, BENCH_POSITIONS};
pub use perft::{perft, PerftArgs};
pub use position_args::PositionArgs;
pub use serve::{parse_listen, serve, serve_config, ServeArgs};
pub use tinue::{describe, read_positions, tinue, TinueArgs};
