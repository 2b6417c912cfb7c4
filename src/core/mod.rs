//! The game core: board geometry, stacks, moves, positions, rules and notation.
//!
//! It knows nothing of search or protocol, and reads as a library of Tak for any program.
#![deny(missing_docs)]

mod bitboard;
mod game;
mod komi;
mod movegen;
mod moves;
mod perft;
mod piece;
mod position;
mod ptn;
mod roadwin;
mod rules;
mod square;
mod stack;
mod tps;
mod win_in_one;
mod zobrist;

pub use bitboard::Bitboard;
pub use game::{GameRecord, RecordResult, RecordedPly, TaggedGame};
pub use komi::{check_size, half_komi_from_flats, komi_text, size_and_half_komi, HALF_KOMI_RANGE};
pub use moves::{Move, MoveList};
pub use perft::{Perft, PerftMode};
pub use piece::{Color, PieceKind};
pub use position::{starting_reserves, Position, Undo};
pub use ptn::Ptn;
pub use rules::{has_road, GameResult};
pub use square::{Direction, Square, MAX_SIZE, MIN_SIZE};
pub use stack::Stack;
