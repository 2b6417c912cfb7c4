//! The command-line tools behind `menhir perft`, `menhir bench`, `menhir analyze`,
//! `menhir annotate` and `menhir serve`.

mod analyze;
mod annotate;
mod bench;
mod perft;
mod position_args;
mod serve;

pub use analyze::{analyze, AnalyzeArgs};
pub use annotate::{annotate, AnnotateArgs};
pub use bench::{bench, default_depth, BenchArgs, BENCH_POSITIONS};
pub use perft::{perft, PerftArgs};
pub use position_args::PositionArgs;
pub use serve::{parse_listen, serve, serve_config, ServeArgs};
