//! The command-line tools behind `menhir perft`, `menhir bench`, `menhir analyze` and
//! `menhir serve`.

mod analyze;
mod bench;
mod perft;
mod position_args;
mod serve;

pub use analyze::{analyze, AnalyzeArgs};
pub use bench::{bench, default_depth, BenchArgs, BENCH_POSITIONS};
pub use perft::{perft, PerftArgs};
pub use position_args::PositionArgs;
pub use serve::{parse_listen, serve, serve_config, ServeArgs};
