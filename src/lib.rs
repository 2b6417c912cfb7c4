//! Menhir: a Tak engine speaking TEI.
//!
//! - [`core`]: the game — bitboards, stacks, moves, rules, PTN and TPS, perft, komi and board
//!   size parsing. Depends on nothing.
//! - [`common`]: what several tools share — atomic output files, seeds and dates from the
//!   clock, random opening lines. Depends on `core`.
//! - [`search`]: alpha-beta with a transposition table, evaluation, move-ordering policy, time
//!   management, threads. Depends on `core` only.
//! - [`tinue`]: the proof-number tinue solver. Depends on `core` only.
//! - [`tei`]: the Tak Engine Interface front end (stdin/stdout and WebSocket). Depends on
//!   `search`, `tinue` and `core`.
//! - [`matchrun`]: plays TEI engines against each other (`match`) and sums up PTN files
//!   (`report`). Depends on `common`, `shard` and `core`.
//! - [`analysis`]: annotating games (`annotate`): every position searched and tried by the
//!   tinue solver, marks and comments. Depends on `search`, `tinue` and `core`.
//! - [`tactics`]: the tactical suite (`tactics`): roads in 1, 3 and 5 plies and defences
//!   from self-play games, searched at a fixed limit and each move checked by trying every
//!   move to the line's horizon. Depends on `search` and `core`.
//! - [`playtak`]: a bot on a playtak server (`playtak`): protocol, move notation, transport,
//!   the engine link and the session. Depends on `tei`, `matchrun` and `core`.
//! - [`shard`]: splitting a seeded run into disjoint parts (`--shard K/N`, `--shard auto`).
//! - [`train`]: self-play data and the fits (`datagen`, `tune-eval`, `tune-policy`). Depends on
//!   `common`, `shard`, `search` and `core`.
//! - [`spsa`]: tuning the search parameters by SPSA over self-play games (`spsa`). Depends on
//!   `matchrun`, `common`, `search` and `core`.
//! - [`commands`]: every subcommand's clap type and glue; the flags of `match`, `datagen`,
//!   `tune-eval`, `tune-policy` and `spsa` become the plain settings their modules take
//!   (`MatchConfig`, `DatagenConfig`, `TuneConfig`, `TunePolicyConfig`, `SpsaConfig`), so no
//!   clap type shapes the library. Depends on every module above.
//!
//! No module imports one that imports it back; `main` only parses the command line and
//! dispatches.
//!
//! ```
//! use menhir::core::{Perft, PerftMode, Position};
//! let mut pos = Position::start(6).unwrap();
//! let mv = pos.parse_move("a1").unwrap();
//! pos.do_move(mv);
//! assert_eq!(Perft::new().count(&mut pos, 1, PerftMode::Counting), 35);
//! ```

pub mod analysis;
pub mod commands;
pub mod common;
pub mod core;
pub mod matchrun;
pub mod playtak;
pub mod search;
pub mod shard;
pub mod spsa;
pub mod tactics;
pub mod tei;
pub mod tinue;
pub mod train;
