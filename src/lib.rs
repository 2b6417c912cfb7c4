//! Menhir: a Tak engine speaking TEI.
//!
//! - [`core`]: the game — bitboards, stacks, moves, rules, PTN and TPS, perft. Depends on nothing.
//! - [`search`]: alpha-beta with a transposition table, evaluation, time management, threads.
//!   Depends on `core` only.
//! - [`tei`]: the Tak Engine Interface front end. Depends on `search` and `core`.
//! - [`tinue`]: the proof-number tinue solver. Depends on `core` only.
//! - [`matchrun`]: plays TEI engines against each other. Depends on `core`.
//! - [`commands`]: the command-line tools (`perft`, `bench`, `analyze`) that `main` calls.
//! - [`shard`]: splitting a seeded run into disjoint parts (`--shard K/N`, `--shard auto`).
//! - [`train`]: self-play data and the weight fit (`datagen`, `tune`). Depends on `search`
//!   and `core`.
//! - [`spsa`]: tuning the search parameters by SPSA over self-play games (`spsa`). Depends on
//!   `matchrun`, `search` and `core`.
//!
//! ```
//! use menhir::core::{Perft, PerftMode, Position};
//! let mut pos = Position::start(6).unwrap();
//! let mv = pos.parse_move("a1").unwrap();
//! pos.do_move(mv);
//! assert_eq!(Perft::new().count(&mut pos, 1, PerftMode::Counting), 35);
//! ```

pub mod commands;
pub mod core;
pub mod matchrun;
pub mod search;
pub mod shard;
pub mod spsa;
pub mod tei;
pub mod tinue;
pub mod train;
