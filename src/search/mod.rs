//! The search: iterative-deepening alpha-beta over the game core, on `Threads` workers.
//!
//! `Searcher` is the facade the protocol and the tools call (as Stockfish's `Engine`): it owns
//! the transposition table and the worker pool and answers one `search` at a time.
//!
//! # Scores
//! Scores are centi-flats from the side to move's view (one flat on top ≈ 100). The static
//! evaluation stays within ±[`EVAL_LIMIT`] (9000). A decided game (a road, or the flat ending
//! with komi) found `n` plies from the root scores `WIN - n` = `10000 - n` for the side that wins
//! and `-(10000 - n)` for the side that loses, so every score with `|score| > 10000 - MAX_PLY`
//! (9872) is a forced result, and a faster win scores higher. A draw (flat tie with komi,
//! repetition) is 0. These values go out unchanged as `score cp`, which stays well within the
//! range every TEI client parses (or, with the `ScoreMate` option, a forced result as
//! `score mate ±n`); [`wdl`] turns them into win/draw/loss odds.

mod alphabeta;
mod aspiration;
mod clock_lag;
mod correction;
mod eval;
mod history;
pub mod level;
mod multipv;
pub mod network;
mod order;
mod params;
pub mod policy;
mod proven_line;
mod road;
mod threads;
mod time;
mod tt;
pub mod wdl;
mod weights_file;

pub use eval::{eval_trace, evaluate, evaluate_with, EvalTrace, EvalWeights};
pub use multipv::MAX_MULTIPV;
pub use params::{
    find_param, ParamOverrides, ParamSpec, PruningSwitches, SearchParams, SwitchSpec, MAX_PLY,
    PARAMS, SWITCHES, TUNED_FOR_SIZE,
};

use crate::core::{Move, MoveList, Position, MAX_SIZE};
use alphabeta::{Shared, Worker};
use clock_lag::ClockLag;
use network::Network;
use params::MAX_DEPTH;
use proven_line::{LineCompleter, LineSettings};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use time::{MoveContext, TimeManager};
use tt::TranspositionTable;

/// The score of a road (or flat) win on the move that ends the game, before the ply distance
/// is subtracted.
pub const WIN: i32 = 10_000;
/// Static evaluations are clamped to ±`EVAL_LIMIT`, below every win score.
pub const EVAL_LIMIT: i32 = 9_000;

/// Whether `score` is a forced win for the side whose view it is.
#[inline]
pub fn score_is_win(score: i32) -> bool {
    score > WIN - MAX_PLY as i32
}

/// Plies to the end of the game for a forced-result score, if it is one.
pub fn plies_to_result(score: i32) -> Option<u32> {
    score_is_win(score.abs()).then(|| (WIN - score.abs()) as u32)
}

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

impl Limits {
    /// Whether nothing but `stop` ends the search.
    pub fn until_stopped(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.wtime.is_none()
                && self.btime.is_none())
    }
}

/// One progress report, from the side to move's point of view.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// Which of the best root moves this line is about, from 1 (always 1 with MultiPV 1).
    pub multipv: u32,
    /// Completed iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score in centi-flats, side to move's view. Forced wins map to large values (see the
    /// module documentation: `±(10000 − plies)`).
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

/// The network that evaluates `size`: one `loaded` for it, else the compiled-in one, if any.
fn chosen_network(loaded: &[Option<Arc<Network>>], size: usize) -> Option<&Network> {
    loaded[size].as_deref().or_else(|| network::builtin(size))
}

/// A hard budget below this is searched by the main thread alone.
const HELPERLESS_BUDGET: Duration = Duration::from_millis(10);

/// The engine's search: transposition table, threads, and the search itself.
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
    tt: TranspositionTable,
    workers: Vec<Worker>,
    pool: rayon::ThreadPool,
    switches: PruningSwitches,
    overrides: ParamOverrides,
    /// The parameters the workers hold: `overrides` at the size last searched.
    params: SearchParams,
    clock_lag: ClockLag,
    nodes: Arc<AtomicU64>,
    multipv: usize,
    /// Networks loaded by `EvalFile`, by board size; they replace the compiled-in evaluation.
    loaded_networks: [Option<Arc<Network>>; MAX_SIZE + 1],
    /// Completes the lines of proven scores to the end of the game.
    liner: LineCompleter,
    /// The strength level ([`level::FULL_STRENGTH`]: none) and the seed of its choices.
    level: u32,
    level_seed: u64,
}

fn build_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.saturating_sub(1).max(1))
        .thread_name(|i| format!("menhir-helper-{i}"))
        .build()
        .expect("the search thread pool starts")
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and `threads` workers.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        let threads = threads.max(1);
        Searcher {
            hash_mb,
            threads,
            tt: TranspositionTable::new(hash_mb),
            workers: (0..threads)
                .map(|id| Worker::new(id, &SearchParams::default()))
                .collect(),
            pool: build_pool(threads),
            switches: PruningSwitches::default(),
            overrides: ParamOverrides::default(),
            params: SearchParams::default(),
            clock_lag: ClockLag::default(),
            nodes: Arc::default(),
            multipv: 1,
            loaded_networks: Default::default(),
            liner: LineCompleter::new(&SearchParams::default()),
            level: level::FULL_STRENGTH,
            level_seed: 0,
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        // Free the old table first: both at once may not fit.
        self.tt = TranspositionTable::new(1);
        self.tt = TranspositionTable::new(hash_mb);
        self.hash_mb = hash_mb;
    }

    /// Changes the number of worker threads.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        if threads != self.threads {
            self.threads = threads;
            let params = self.params;
            self.workers = (0..threads).map(|id| Worker::new(id, &params)).collect();
            self.pool = build_pool(threads);
        }
    }

    /// The table size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Beta cutoffs of the last search, all workers together, and how many of them the first
    /// move searched made: the share is the move ordering's hit rate.
    pub fn cutoff_counts(&self) -> (u64, u64) {
        self.workers.iter().fold((0, 0), |(all, first), w| {
            let (cutoffs, first_move) = w.cutoff_counts();
            (all + cutoffs, first + first_move)
        })
    }

    /// The live node count of the current (or last) search: what the workers have published,
    /// each at its polls of the stop flag. Lets a test watch a search from another thread and
    /// count the nodes searched after it raised `stop` (`tests/stop.rs`).
    pub fn node_counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.nodes)
    }

    /// Reports the best `lines` root moves (MultiPV, 1 to `MAX_MULTIPV`), each as its own
    /// `Info` numbered by `Info::multipv`; the move to play is line 1's.
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    /// Plays at strength `level` (see [`level`]; [`level::FULL_STRENGTH`] is the engine as it
    /// is), its choices among near-best moves drawn by `seed` and the position.
    pub fn set_level(&mut self, level: u32, seed: u64) {
        self.level = level.clamp(*level::LEVEL_RANGE.start(), *level::LEVEL_RANGE.end());
        self.level_seed = seed;
    }

    /// Switches pruning rules on or off (for A/B self-play and matches; all on by default).
    pub fn set_switches(&mut self, switches: PruningSwitches) {
        self.switches = switches;
    }

    /// Sets search margins and limits by hand (see [`PARAMS`]); the rest are the engine's
    /// values for the size searched ([`SearchParams::for_size`]). The caller keeps each within
    /// its `ParamSpec` range.
    pub fn set_overrides(&mut self, overrides: ParamOverrides) {
        self.overrides = overrides;
    }

    /// Evaluates positions of the network's size with `net` instead of the compiled-in
    /// evaluation (the `EvalFile` option).
    pub fn load_network(&mut self, net: Arc<Network>) {
        let size = net.size();
        self.loaded_networks[size] = Some(net);
    }

    /// Back to the compiled-in evaluation at every size.
    pub fn clear_networks(&mut self) {
        self.loaded_networks = Default::default();
    }

    /// The network that evaluates `size`, if any: a loaded one, else a compiled-in one.
    pub fn network(&self, size: usize) -> Option<&Network> {
        chosen_network(&self.loaded_networks, size)
    }

    /// The margins and limits a search on a board of `size` uses.
    pub fn params(&self, size: usize) -> SearchParams {
        self.overrides.at_size(size)
    }

    /// Hands the workers the parameters for `size` when they differ from what they hold.
    fn use_params_for(&mut self, size: usize) {
        let params = self.params(size);
        if params != self.params {
            self.params = params;
            for w in &mut self.workers {
                w.set_params(&params);
            }
            self.liner.set_params(&params);
        }
    }

    /// Forgets everything learned (a new game).
    pub fn new_game(&mut self) {
        // A fresh zeroed table instead of writing zeros over the old one: instant, and a
        // large Hash commits memory only as the search fills it.
        self.set_hash_mb(self.hash_mb);
        for w in &mut self.workers {
            w.forget();
        }
        self.clock_lag.clear();
    }

    /// Searches `pos` within `limits`, until `stop` is raised, reporting each completed
    /// iteration to `on_info`, then once more for the returned result (nodes and time final).
    /// A legal move is returned whenever one exists, even if `stop` is raised at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let started = Instant::now();
        if pos.result().is_some() {
            let info = Info::default();
            on_info(&info);
            return SearchResult {
                best_move: None,
                info,
            };
        }
        self.use_params_for(pos.size());
        let side = pos.to_move();
        self.clock_lag.observe(limits, side);
        for w in &mut self.workers {
            w.prepare(pos);
        }
        let context = MoveContext {
            extra_reserve: self.clock_lag.extra_reserve(),
            lag: self.clock_lag.largest(),
            forced: road::forced_block(self.workers[0].position()),
            ..MoveContext::of(pos)
        };
        let time = TimeManager::new(limits, &context, started);
        // A level below full strength: a node cap and extra root lines to choose among, those
        // lines kept from the caller, who asked for `self.multipv`.
        let level = level::spec(self.level);
        let lines = level.map_or(self.multipv, |l| l.lines.max(self.multipv));
        let node_limit = match level {
            Some(l) => Some(limits.nodes.map_or(l.nodes, |n| n.min(l.nodes))),
            None => limits.nodes,
        };
        let mut seen = level::Lines::new(lines);
        let shown = self.multipv;
        let mut forward = |info: &Info| {
            if level.is_some() {
                seen.record(info);
            }
            if info.multipv as usize <= shown {
                on_info(info);
            }
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let done = AtomicBool::new(false);
        let nodes = Arc::clone(&self.nodes);
        nodes.store(0, Relaxed);
        let helper_best = Mutex::new((0, 0, Vec::new()));
        self.tt.new_search();
        // A search of a few milliseconds (time trouble at a fast clock) gains nothing from
        // helpers: waking them costs scheduler time, and on a busy machine they take the cores
        // from the main thread, which alone decides such a move.
        let helperless = time.hard_budget().is_some_and(|h| h < HELPERLESS_BUDGET);
        let shared = Shared {
            tt: &self.tt,
            stop,
            done: &done,
            nodes: &nodes,
            node_limit,
            hard_deadline: time.hard_deadline(),
            switches: self.switches,
            params: self.params,
            helper_best: &helper_best,
            multipv: lines,
            network: chosen_network(&self.loaded_networks, pos.size()),
        };
        let (main, helpers) = self.workers.split_first_mut().expect("one worker at least");
        let tt = &self.tt;
        // Proven results come with their line to the end of the game, except under a clock
        // (a game: nobody reads the line, and the completion would cost clock time).
        let complete_lines = limits.wtime.is_none() && limits.btime.is_none();
        let line_settings = LineSettings {
            params: self.params,
            switches: self.switches,
            network: chosen_network(&self.loaded_networks, pos.size()),
        };
        let liner = &mut self.liner;
        // The last proven (score, PV) reported for each MultiPV line: in analysis (a search
        // only `stop` ends) a proven result is reported again only when it changes.
        let until_stopped = limits.until_stopped();
        let mut proven_reported: Vec<Option<(i32, Vec<Move>)>> = vec![None; MAX_MULTIPV + 1];
        let mut report = |w: &mut Worker, depth: u32, score: i32, started: Instant| {
            w.publish_nodes(&shared);
            let mut info = Info {
                multipv: w.line() as u32,
                depth,
                seldepth: w.seldepth() as u32,
                score_cp: score,
                nodes: shared.nodes.load(Relaxed),
                time: started.elapsed(),
                hashfull: tt.hashfull(),
                pv: w.pv().to_vec(),
            };
            if complete_lines {
                liner.complete(pos, &mut info, &line_settings);
            }
            info.seldepth = info.seldepth.max(depth).max(info.pv.len() as u32);
            let slot = &mut proven_reported[(info.multipv as usize).min(MAX_MULTIPV)];
            if until_stopped && plies_to_result(info.score_cp).is_some() {
                let key = (info.score_cp, info.pv.clone());
                if slot.as_ref() != Some(&key) {
                    forward(&info);
                    *slot = Some(key);
                }
            } else {
                *slot = None;
                forward(&info);
            }
            info
        };
        let helpers = if helperless {
            &mut helpers[..0]
        } else {
            helpers
        };
        let outcome = self.pool.in_place_scope(|scope| {
            for helper in helpers.iter_mut() {
                let shared = &shared;
                scope.spawn(move |_| threads::iterate_helper(helper, shared, max_depth));
            }
            let outcome = threads::iterate_main(
                main,
                &shared,
                (max_depth, limits.depth.is_none()),
                &time,
                started,
                &mut report,
            );
            // The helpers stop with the main worker (in analysis too: it stops deepening a
            // proven result, and they would run on to the last depth).
            done.store(true, Relaxed);
            if limits.until_stopped() {
                // Infinite analysis: the answer waits for `stop`.
                while !stop.load(Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            outcome
        });
        main.publish_nodes(&shared);
        let mut best_move = outcome.best_move;
        let mut info = outcome.info;
        // Lazy SMP: a helper that completed a deeper iteration than the main worker wins.
        let (depth, score, pv) = helper_best.into_inner().unwrap_or_else(|e| e.into_inner());
        if let Some(spec) = level {
            // A level plays one of its near-best lines, whatever the helpers found.
            let seed = level::position_seed(self.level_seed, pos.hash());
            if let Some((mv, score)) = level::choose(seen.best_set(), &spec, seed) {
                if best_move != Some(mv) {
                    best_move = Some(mv);
                    info.score_cp = score;
                }
            }
        } else if depth > info.depth && !pv.is_empty() {
            best_move = pv.first().copied();
            info.depth = depth;
            info.score_cp = score;
            info.pv = pv;
        }
        if best_move.is_none() {
            // Nothing completed at all (cannot happen once depth 1 has a root move): any legal
            // move beats none.
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            best_move = moves.first().copied();
        }
        info.nodes = nodes.load(Relaxed);
        info.time = started.elapsed();
        self.clock_lag
            .record(limits, side, info.time, time.hard_budget());
        info.hashfull = self.tt.hashfull();
        if info.pv.first() != best_move.as_ref() {
            info.pv = best_move.into_iter().collect();
        }
        if complete_lines {
            self.liner.complete(pos, &mut info, &line_settings);
        }
        info.seldepth = info.seldepth.max(info.depth).max(info.pv.len() as u32);
        on_info(&info);
        SearchResult { best_move, info }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Searches the 6×6 start with two threads on White's clock; the helper's node count.
    fn helper_nodes(wtime_ms: u64, winc_ms: u64) -> u64 {
        let mut searcher = Searcher::new(1, 2);
        let limits = Limits {
            wtime: Some(Duration::from_millis(wtime_ms)),
            winc: Some(Duration::from_millis(winc_ms)),
            ..Limits::default()
        };
        let pos = Position::start(6).unwrap();
        let result = searcher.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        assert!(result.best_move.is_some());
        searcher.workers[1].nodes()
    }

    #[test]
    fn in_time_trouble_the_main_thread_searches_alone() {
        // 50 ms above the reserve with a 10 ms increment: the hard budget is a few ms.
        assert_eq!(helper_nodes(150, 10), 0);
        // With time to spare the helper works.
        assert!(helper_nodes(3000, 10) > 0);
    }
}
