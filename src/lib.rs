//! Menhir: a Tak engine speaking TEI.
//!
//! - [`core`]: the game — bitboards, stacks, moves, rules, PTN and TPS, perft.
//!
//! ```
//! use menhir::core::{Perft, PerftMode, Position};
//! let mut pos = Position::start(6).unwrap();
//! let mv = pos.parse_move("a1").unwrap();
//! pos.do_move(mv);
//! assert_eq!(Perft::new().count(&mut pos, 1, PerftMode::Counting), 35);
//! ```

pub mod core;
