//! The search: iterative-deepening alpha-beta over the game core.
//!
//! `Searcher` is the facade the protocol and the tools call (as Stockfish's `Engine`): it owns
//! the transposition table and the worker pool and answers one `search` at a time.

use crate::core::{Move, MoveList, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What bounds a search. Everything absent means "until stopped".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long (minus a safety margin).
    pub movetime: Option<Duration>,
    /// White's / Black's remaining clock.
    pub wtime: Option<Duration>,
    /// Black's remaining clock.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped, whatever else is given.
    pub infinite: bool,
}

/// One progress report, from the side to move's point of view.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// Completed iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score in centi-flats, side to move's view. Forced wins map to large values.
    pub score_cp: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-3)) as u64
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `None` only if the position has no legal move or the game is over.
    pub best_move: Option<Move>,
    /// The last report.
    pub info: Info,
}

/// The engine's search: transposition table, threads, and the search itself.
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and `threads` workers.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher { hash_mb, threads }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
    }

    /// Changes the number of worker threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Forgets everything learned (a new game).
    pub fn new_game(&mut self) {}

    /// Searches `pos` within `limits`, until `stop` is raised, reporting each iteration to
    /// `on_info`. A final report is made for the returned result.
    pub fn search(
        &mut self,
        pos: &Position,
        _limits: &Limits,
        _stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        // Placeholder until the alpha-beta lands: the first legal move.
        let mut moves = MoveList::new();
        if pos.result().is_none() {
            pos.generate_moves(&mut moves);
        }
        let info = Info {
            depth: 1,
            pv: moves.first().copied().into_iter().collect(),
            ..Info::default()
        };
        on_info(&info);
        SearchResult {
            best_move: moves.first().copied(),
            info,
        }
    }
}
