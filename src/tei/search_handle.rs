//! The engine facade the protocol drives (as Stockfish's `engine.h`): go, stop, new game, option
//! changes and shutdown over one `Searcher`, with the search on its own thread so input never waits.
//!
//! Only one search runs at a time. Settings that need the searcher (Hash, Threads, new game) wait
//! while a search holds it and are applied before the next one.

use super::info::{format_info, InfoStyle};
use super::proof_beside::{Board, Proof, BESIDE_TIME, SHORTEN_NODES};
use crate::core::{Move, MoveList, Position};
use crate::search::network::Network;
use crate::search::{Limits, ParamOverrides, PruningSwitches, Searcher};
use crate::tinue::{Budget, Outcome, Solver, Verdict};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Where protocol lines go: one call per line, without the newline. Must be callable from the
/// search thread too.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// What the searcher should be configured with.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Settings {
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    params: ParamOverrides,
    switches: PruningSwitches,
    level: u32,
    level_seed: u64,
}

/// The searcher, its settings and the running search, if any.
pub struct SearchHandle {
    out: Output,
    /// Created on first need (`isready` or `go`): the table is the one heavy allocation, and the
    /// PTN Ninja spec asks not to make it before the first `isready`.
    searcher: Option<Arc<Mutex<Searcher>>>,
    /// The tinue solver for `go solved`, made on its first use with the `Hash` size then set
    /// (and made again when `Hash` changed since).
    solver: Option<(usize, Arc<Mutex<Solver>>)>,
    wanted: Settings,
    applied: Settings,
    /// How the next search's `info` lines look.
    style: InfoStyle,
    new_game_pending: bool,
    /// A network to load (`Some(Some)`) or the compiled-in evaluation to go back to
    /// (`Some(None)`), applied before the next search.
    network_pending: Option<Option<Arc<Network>>>,
    stop: Arc<AtomicBool>,
    /// True from `go` until the search thread has written its `bestmove`. Cleared under the same
    /// lock as that write, so a GUI that answers `bestmove` with `go` always finds the engine idle.
    busy: Arc<Mutex<bool>>,
    worker: Option<JoinHandle<()>>,
}

impl SearchHandle {
    /// An idle engine writing through `out`.
    pub fn new(out: Output, hash_mb: usize, threads: usize) -> SearchHandle {
        let wanted = Settings {
            hash_mb,
            threads,
            multipv: 1,
            params: ParamOverrides::default(),
            switches: PruningSwitches::default(),
            level: crate::search::level::FULL_STRENGTH,
            level_seed: 0,
        };
        SearchHandle {
            out,
            searcher: None,
            solver: None,
            wanted,
            applied: wanted,
            style: InfoStyle::default(),
            new_game_pending: false,
            network_pending: None,
            stop: Arc::new(AtomicBool::new(false)),
            busy: Arc::new(Mutex::new(false)),
            worker: None,
        }
    }

    /// Whether a search is still running (its `bestmove` not yet written).
    pub fn is_searching(&self) -> bool {
        *self.busy.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes sure the searcher exists and has every pending setting, if it is idle.
    pub fn prepare(&mut self) {
        if self.is_searching() {
            return;
        }
        if let Some(worker) = self.worker.take() {
            // It has written its `bestmove` and is about to end; a panic in the search was
            // caught and reported there.
            let _ = worker.join();
        }
        let searcher = match &self.searcher {
            Some(s) => s,
            None => {
                let mut s = Searcher::new(self.wanted.hash_mb, self.wanted.threads);
                s.set_multipv(self.wanted.multipv);
                s.set_overrides(self.wanted.params);
                s.set_switches(self.wanted.switches);
                s.set_level(self.wanted.level, self.wanted.level_seed);
                self.applied = self.wanted;
                self.new_game_pending = false;
                self.searcher.insert(Arc::new(Mutex::new(s)))
            }
        };
        let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
        if self.applied.hash_mb != self.wanted.hash_mb {
            searcher.set_hash_mb(self.wanted.hash_mb);
        }
        if self.applied.threads != self.wanted.threads {
            searcher.set_threads(self.wanted.threads);
        }
        searcher.set_multipv(self.wanted.multipv);
        searcher.set_overrides(self.wanted.params);
        searcher.set_switches(self.wanted.switches);
        searcher.set_level(self.wanted.level, self.wanted.level_seed);
        self.applied = self.wanted;
        if self.new_game_pending {
            searcher.new_game();
            self.new_game_pending = false;
        }
        match self.network_pending.take() {
            Some(Some(net)) => searcher.load_network(net),
            Some(None) => searcher.clear_networks(),
            None => {}
        }
    }

    /// Evaluates the network's board size with `net`, or every size with the compiled-in
    /// evaluation (`None`); now if idle, else before the next search.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.network_pending = Some(net);
        self.sync_if_built();
    }

    /// Sets the table size; applied now if idle, else before the next search.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.wanted.hash_mb = hash_mb;
        self.sync_if_built();
    }

    /// Sets the worker count; applied now if idle, else before the next search.
    pub fn set_threads(&mut self, threads: usize) {
        self.wanted.threads = threads;
        self.sync_if_built();
    }

    /// Sets how many best root moves searches report; applied now if idle, else before the
    /// next search.
    pub fn set_multipv(&mut self, lines: usize) {
        self.wanted.multipv = lines;
        self.style.multipv = lines > 1;
        self.sync_if_built();
    }

    /// Sets search margins and limits by hand; applied now if idle, else before the next search.
    pub fn set_search_params(&mut self, params: ParamOverrides) {
        self.wanted.params = params;
        self.sync_if_built();
    }

    /// Switches the search's pruning rules; applied now if idle, else before the next search.
    pub fn set_switches(&mut self, switches: PruningSwitches) {
        self.wanted.switches = switches;
        self.sync_if_built();
    }

    /// Plays at strength `level`, its choices drawn by `seed` (see `search::level`); applied now
    /// if idle, else before the next search.
    pub fn set_level(&mut self, level: u32, seed: u64) {
        self.wanted.level = level;
        self.wanted.level_seed = seed;
        self.sync_if_built();
    }

    /// Whether proven results go out as `score mate N` (from the next search on).
    pub fn set_score_mate(&mut self, on: bool) {
        self.style.score_mate = on;
    }

    /// Whether proven results go out as `score solved win|loss N` (from the next search on).
    pub fn set_score_solved(&mut self, on: bool) {
        self.style.score_solved = on;
    }

    /// Forgets what earlier games taught the searcher; now if idle, else before the next search.
    pub fn new_game(&mut self) {
        self.new_game_pending = true;
        self.sync_if_built();
    }

    fn sync_if_built(&mut self) {
        if self.searcher.is_some() {
            self.prepare();
        }
    }

    /// Starts searching `pos` on the search thread. It writes the info lines, a final info line
    /// and exactly one `bestmove`. An infinite search holds its `bestmove` until `stop`.
    pub fn go(&mut self, pos: Position, limits: Limits) -> Result<(), String> {
        if self.is_searching() {
            return Err("go ignored: a search is already running (send 'stop' first)".into());
        }
        self.prepare();
        let searcher = Arc::clone(self.searcher.as_ref().expect("prepare builds the searcher"));
        let style = self.style;
        let beside = (limits.until_stopped() && (style.score_solved || style.score_mate))
            .then(|| self.solver());
        self.start("menhir-search", move |stop, busy, out| {
            search_thread(&searcher, beside, &pos, &limits, style, stop, busy, out)
        })
    }

    /// The tinue solver, made with the `Hash` size now set (again if it changed).
    fn solver(&mut self) -> Arc<Mutex<Solver>> {
        let mb = self.wanted.hash_mb;
        match &self.solver {
            Some((made_mb, solver)) if *made_mb == mb => Arc::clone(solver),
            _ => {
                // Drop the old table before reserving the new one.
                self.solver = None;
                let solver = Arc::new(Mutex::new(Solver::new(mb)));
                self.solver = Some((mb, Arc::clone(&solver)));
                solver
            }
        }
    }

    /// Runs `body` on the search thread: the stop flag lowered, `busy` raised until `body`
    /// clears it with its `bestmove`, or at once if the thread cannot be started.
    fn start(
        &mut self,
        name: &str,
        body: impl FnOnce(&AtomicBool, &Mutex<bool>, &(dyn Fn(&str) + Sync)) + Send + 'static,
    ) -> Result<(), String> {
        self.stop.store(false, Ordering::SeqCst);
        let stop = Arc::clone(&self.stop);
        let out = Arc::clone(&self.out);
        let busy = Arc::clone(&self.busy);
        *busy.lock().unwrap_or_else(PoisonError::into_inner) = true;
        let spawned = thread::Builder::new()
            .name(name.into())
            .spawn(move || body(&stop, &busy, &*out));
        match spawned {
            Ok(worker) => {
                self.worker = Some(worker);
                Ok(())
            }
            Err(e) => {
                *self.busy.lock().unwrap_or_else(PoisonError::into_inner) = false;
                Err(format!("cannot start the search thread: {e}"))
            }
        }
    }

    /// Starts the tinue solver on `pos` on the search thread (`go solved`): bounded by
    /// `limits.movetime` and `limits.nodes` if given, else until it reaches a verdict or `stop`.
    /// It writes `info … score solved win|loss N … pv …` for a proof, or an `info string`
    /// saying the position was disproved or the budget ended, then exactly one `bestmove`: the
    /// proof's first move, or else the move of a depth-2 normal search (quick at every size).
    pub fn go_solved(&mut self, pos: Position, limits: Limits) -> Result<(), String> {
        if self.is_searching() {
            return Err("go ignored: a search is already running (send 'stop' first)".into());
        }
        self.prepare();
        let searcher = Arc::clone(self.searcher.as_ref().expect("prepare builds the searcher"));
        let solver = self.solver();
        let style = self.style;
        let budget = Budget {
            nodes: limits.nodes,
            time: limits.movetime,
        };
        self.start("menhir-solve", move |stop, busy, out| {
            solve_thread(&solver, &searcher, &pos, budget, style, stop, busy, out)
        })
    }

    /// Whether the engine is idle, after waiting up to `limit` for a search that was told to
    /// stop to write its `bestmove`. A search not told to stop is not waited for. This lets a
    /// GUI send `stop`, `position`, `go` without waiting for `bestmove` in between.
    pub fn idle_after_stop(&self, limit: Duration) -> bool {
        if !self.stop.load(Ordering::SeqCst) {
            return !self.is_searching();
        }
        let deadline = Instant::now() + limit;
        while self.is_searching() {
            if Instant::now() >= deadline {
                return false;
            }
            thread::sleep(Duration::from_micros(200));
        }
        true
    }

    /// Asks the running search to finish now; nothing happens when idle.
    pub fn stop(&mut self) {
        if let Some(worker) = &self.worker {
            self.stop.store(true, Ordering::SeqCst);
            worker.thread().unpark();
        }
    }

    /// Stops any search and waits up to `grace` for it to write its `bestmove`.
    pub fn shutdown(&mut self, grace: Duration) {
        self.stop();
        let deadline = Instant::now() + grace;
        while self.is_searching() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(1));
        }
        if self.is_searching() {
            log::warn!("the search did not stop within {grace:?}; exiting without it");
        } else if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// The body of the search thread; with `beside`, the tinue solver runs on one more thread
/// during the search (see `proof_beside`).
#[allow(clippy::too_many_arguments)]
fn search_thread(
    searcher: &Mutex<Searcher>,
    beside: Option<Arc<Mutex<Solver>>>,
    pos: &Position,
    limits: &Limits,
    style: InfoStyle,
    stop: &AtomicBool,
    busy: &Mutex<bool>,
    out: &(dyn Fn(&str) + Sync),
) {
    let board = Board::default();
    let mut last_line = String::new();
    let outcome = thread::scope(|scope| {
        if let Some(solver) = &beside {
            let board = &board;
            let solver_thread = thread::Builder::new()
                .name("menhir-tinue".into())
                .spawn_scoped(scope, move || {
                    solve_beside(solver, pos, style, stop, board, out);
                });
            if let Err(e) = solver_thread {
                log::warn!("cannot start the solver beside the search: {e}");
            }
        }
        let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
        // A bug in the search must not cost the GUI its `bestmove` (it would wait forever).
        catch_unwind(AssertUnwindSafe(|| {
            searcher.search(pos, limits, stop, &mut |info| {
                let line = format_info(info, style, pos.size());
                if beside.is_none() || board.offer(Proof::of_info(info), || out(&line)) {
                    if beside.is_none() {
                        out(&line);
                    }
                    last_line = line;
                }
            })
        }))
    });
    // UCI: under `go infinite` the engine answers only after `stop`, even if it is done early.
    let waited = limits.infinite && !stop.load(Ordering::SeqCst);
    while limits.infinite && !stop.load(Ordering::SeqCst) {
        thread::park_timeout(Duration::from_millis(50));
    }
    let best = match outcome {
        Ok(result) => {
            // The solver's proof, when it is shorter than the search's result.
            let proof = board
                .best()
                .filter(|p| p.beats(Proof::of_info(&result.info).as_ref()));
            // The final line repeats the last report only if other lines may have come between.
            let final_line = match &proof {
                Some(p) => p.line(style, pos.size(), &result.info),
                None => format_info(&result.info, style, pos.size()),
            };
            if final_line != last_line || waited {
                out(&final_line);
            }
            proof
                .and_then(|p| p.pv.first().copied())
                .or(result.best_move)
                .or_else(|| {
                    log::warn!("the search returned no move; playing the first legal one");
                    first_legal_move(pos)
                })
        }
        Err(_) => {
            out("info string error: the search failed (internal error, see stderr); playing the first legal move");
            out(&format_info(
                &crate::search::Info::default(),
                style,
                pos.size(),
            ));
            first_legal_move(pos)
        }
    };
    let mut busy = busy.lock().unwrap_or_else(PoisonError::into_inner);
    match best {
        Some(mv) => out(&format!("bestmove {}", mv.to_ptn())),
        None => out("bestmove --"),
    }
    *busy = false;
}

/// The solver beside an analysis search: for at most `BESIDE_TIME` or until `stop`; a proof
/// goes out unless the search showed as short a one.
fn solve_beside(
    solver: &Mutex<Solver>,
    pos: &Position,
    style: InfoStyle,
    stop: &AtomicBool,
    board: &Board,
    out: &(dyn Fn(&str) + Sync),
) {
    let mut solver = solver.lock().unwrap_or_else(PoisonError::into_inner);
    let Ok(outcome) = catch_unwind(AssertUnwindSafe(|| {
        solver.solve(pos, Budget::time(BESIDE_TIME), stop)
    })) else {
        log::warn!("the solver beside the search failed (internal error)");
        return;
    };
    log::debug!(
        "solver beside the search: {:?} ({} nodes)",
        outcome.verdict,
        outcome.nodes
    );
    if let Some(proof) = Proof::of_outcome(pos, &outcome) {
        let effort = crate::search::Info {
            nodes: outcome.nodes,
            time: outcome.elapsed,
            hashfull: outcome.hashfull,
            ..Default::default()
        };
        let line = proof.line(style, pos.size(), &effort);
        board.offer(Some(proof), || out(&line));
    }
}

/// The body of the `go solved` thread. After a proof, a search of up to `SHORTEN_NODES` nodes
/// (within what is left of a time budget) may find a shorter proven line; the shorter is shown.
#[allow(clippy::too_many_arguments)]
fn solve_thread(
    solver: &Mutex<Solver>,
    searcher: &Mutex<Searcher>,
    pos: &Position,
    budget: Budget,
    style: InfoStyle,
    stop: &AtomicBool,
    busy: &Mutex<bool>,
    out: &(dyn Fn(&str) + Sync),
) {
    let outcome = {
        let mut solver = solver.lock().unwrap_or_else(PoisonError::into_inner);
        catch_unwind(AssertUnwindSafe(|| solver.solve(pos, budget, stop)))
    };
    // Solved scores are this command's form, whatever the options say.
    let solved_style = InfoStyle {
        score_solved: true,
        ..style
    };
    let proven = match &outcome {
        Ok(outcome) => match Proof::of_outcome(pos, outcome) {
            Some(proof) => {
                let shorter = shorter_by_search(searcher, pos, &proof, budget, outcome, stop);
                let (proof, effort) = shorter.unwrap_or_else(|| {
                    let effort = crate::search::Info {
                        nodes: outcome.nodes,
                        time: outcome.elapsed,
                        hashfull: outcome.hashfull,
                        ..Default::default()
                    };
                    (proof, effort)
                });
                out(&proof.line(solved_style, pos.size(), &effort));
                proof.pv.first().copied()
            }
            None => match &outcome.verdict {
                Verdict::NoTinue => {
                    out(&format!(
                        "info string no tinue: disproved, the side to move has no forcing sequence \
                         of threats to win at once ({} nodes, {} ms)",
                        outcome.nodes,
                        outcome.elapsed.as_millis()
                    ));
                    None
                }
                _ => {
                    out(&format!(
                        "info string no proof: the budget ended before a proof or a disproof ({} \
                         nodes, {} ms)",
                        outcome.nodes,
                        outcome.elapsed.as_millis()
                    ));
                    None
                }
            },
        },
        Err(_) => {
            out("info string error: the solver failed (internal error, see stderr)");
            None
        }
    };
    let best = proven.or_else(|| {
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
        catch_unwind(AssertUnwindSafe(|| {
            searcher.search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
        }))
        .ok()
        .and_then(|result| result.best_move)
        .or_else(|| first_legal_move(pos))
    });
    let mut busy = busy.lock().unwrap_or_else(PoisonError::into_inner);
    match best {
        Some(mv) => out(&format!("bestmove {}", mv.to_ptn())),
        None => out("bestmove --"),
    }
    *busy = false;
}

/// A proven line of the search shorter than the solver's `proof`, with the search's effort,
/// if one is found within `SHORTEN_NODES` and what is left of `budget`'s time.
fn shorter_by_search(
    searcher: &Mutex<Searcher>,
    pos: &Position,
    proof: &Proof,
    budget: Budget,
    outcome: &Outcome,
    stop: &AtomicBool,
) -> Option<(Proof, crate::search::Info)> {
    if stop.load(Ordering::SeqCst) || proof.plies() <= 1 {
        return None;
    }
    let movetime = match budget.time {
        Some(t) => Some(t.checked_sub(outcome.elapsed)?),
        None => None,
    };
    let limits = Limits {
        nodes: Some(SHORTEN_NODES),
        movetime,
        ..Limits::default()
    };
    let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
    let result = catch_unwind(AssertUnwindSafe(|| {
        searcher.search(pos, &limits, stop, &mut |_| {})
    }))
    .ok()?;
    let found = Proof::of_info(&result.info)?;
    (found.win == proof.win && found.plies() < proof.plies()).then_some((found, result.info))
}

fn first_legal_move(pos: &Position) -> Option<Move> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.first().copied()
}
