//! The command-line tools: each file holds a subcommand's clap type and its glue (`match`,
//! `datagen`, `tune-eval`, `tune-policy` and `spsa` turn their flags into the plain settings
//! their domain module takes), plus the flag groups several subcommands flatten in
//! (`PositionArgs`, `ShardArgs`, `FitFlags`).

mod analyze;
mod annotate;
mod bench;
mod book;
mod budget;
mod convert_data;
mod datagen;
mod fit_flags;
mod matches;
mod perft;
mod playtak;
mod position_args;
mod report;
mod serve;
mod settings;
mod shard_args;
mod spsa;
mod tactics;
mod tinue;
mod tune_eval;
mod tune_policy;

pub use analyze::{analyze, AnalyzeArgs};
pub use annotate::{annotate, AnnotateArgs};
pub use bench::{bench, default_depth, BenchArgs, BENCH_POSITIONS};
pub use book::{book, BookArgs};
pub use convert_data::{convert, ConvertDataArgs};
pub use datagen::DatagenArgs;
pub use fit_flags::FitFlags;
pub use matches::MatchArgs;
pub use perft::{perft, PerftArgs};
pub use playtak::{playtak, playtak_config, PlaytakArgs, PlaytakError, PASSWORD_ENV};
pub use position_args::PositionArgs;
pub use report::{report, ReportArgs};
pub use serve::{parse_listen, serve, serve_config, ServeArgs};
pub use shard_args::ShardArgs;
pub use spsa::SpsaArgs;
pub use tactics::{tactics, TacticsArgs};
pub use tinue::{describe, read_positions, tinue, TinueArgs};
pub use tune_eval::TuneEvalArgs;
pub use tune_policy::TunePolicyArgs;
