//! The command-line tools behind `menhir perft`, `menhir bench`, `menhir analyze`, `menhir
//! annotate`, `menhir serve`, `menhir report`, `menhir tinue` and `menhir playtak`: each file
//! holds a subcommand's clap type and its glue. (The flags of match, datagen, tune-eval,
//! tune-policy and spsa still live in their domain modules.)

mod analyze;
mod annotate;
mod bench;
mod perft;
mod playtak;
mod position_args;
mod report;
mod serve;
mod tinue;

pub use analyze::{analyze, AnalyzeArgs};
pub use annotate::{annotate, AnnotateArgs};
pub use bench::{bench, default_depth, BenchArgs, BENCH_POSITIONS};
pub use perft::{perft, PerftArgs};
pub use playtak::{playtak, playtak_config, PlaytakArgs, PASSWORD_ENV};
pub use position_args::PositionArgs;
pub use report::{report, ReportArgs};
pub use serve::{parse_listen, serve, serve_config, ServeArgs};
pub use tinue::{describe, read_positions, tinue, TinueArgs};
