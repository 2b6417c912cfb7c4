//! Lazy SMP: the main worker runs iterative deepening on the calling thread, reports, watches
//! the clock and raises `done`; helpers on the rayon pool search the same root with their own
//! position and history, sharing only the transposition table, so their work fills the table
//! the main worker reads. Odd helpers (1, 3, …) search even depths only, so on every odd
//! iteration they are one ply ahead of the main worker and fill the table for its next one;
//! helpers 2, 6, … search one ply deeper than their iteration number, helpers 4, 8, … the main
//! worker's depth. A helper that completes the last depth of a depth-limited search ends it.
//! Measured with `menhir bench --threads 2` (30 positions, sizes 3-8): 1.6 s against 2.0 s
//! when helper 1 searched the main worker's depths, against 2.7 s for one thread.

use super::alphabeta::{Shared, Worker};
use super::aspiration::aspiration;
use super::multipv::OtherLines;
use super::params::PROVEN_STABLE_ITERATIONS;
use super::time::{iteration_growth, stretch, TimeManager};
use super::{score_is_win, Info};
use crate::core::Move;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

/// What the main worker hands back.
pub struct MainOutcome {
    /// The move to play.
    pub best_move: Option<Move>,
    /// The report of the last completed iteration.
    pub info: Info,
}

/// The main worker's iterative deepening: reports each completed depth through `report`,
/// stops when the next iteration is not predicted to fit the soft budget (stretched by best-move
/// stability and score drops), on a proven result when timed,
/// or at `max_depth`; in a search without a depth limit (`open_depth`: analysis, a node limit),
/// once a proven result has stood for `PROVEN_STABLE_ITERATIONS` iterations (an analysis search
/// then waits for `stop`).
pub fn iterate_main(
    worker: &mut Worker,
    shared: &Shared,
    (max_depth, open_depth): (u32, bool),
    time: &TimeManager,
    started: Instant,
    report: &mut dyn FnMut(&mut Worker, u32, i32, Instant) -> Info,
) -> MainOutcome {
    worker.allow_abort(false);
    let mut best_move: Option<Move> = None;
    let mut info = Info::default();
    let mut score = 0;
    let mut stable_iterations = 0;
    let mut other_lines = OtherLines::new(worker, shared);
    // Scores of the last two iterations, to see a drop at the same parity.
    let mut scores = [None::<i32>; 2];
    let mut previous_took = Duration::ZERO;
    // The proven score of the last iterations and how many iterations in a row found it.
    let mut proven = (0, 0);
    for depth in 1..=max_depth {
        let iteration_started = Instant::now();
        worker.begin_root_search();
        let value = aspiration(worker, shared, depth as i32, score);
        if worker.aborted() {
            // A move that raised alpha in the unfinished iteration was searched deeper than
            // the last completed best move, and scored above the window's floor.
            if let Some((mv, _)) = worker.root_best() {
                best_move = Some(mv);
            } else if best_move.is_none() {
                best_move = worker.root_fallback();
            }
            break;
        }
        score = value;
        let mv = worker.best_root_move();
        if mv == best_move {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
        }
        best_move = mv.or(best_move);
        info = report(worker, depth, score, started);
        if let (true, Some(first)) = (other_lines.any(), best_move) {
            other_lines.search(worker, shared, depth, first, started, report);
            if worker.aborted() {
                break;
            }
        }
        if time.is_timed() && score_is_win(score.abs()) {
            break;
        }
        if open_depth && score_is_win(score.abs()) {
            proven = if proven.0 == score {
                (score, proven.1 + 1)
            } else {
                (score, 1)
            };
            if proven.1 >= PROVEN_STABLE_ITERATIONS {
                break;
            }
        }
        let drop = scores[0].map_or(0, |before| before - score);
        scores = [scores[1], Some(score)];
        let took = iteration_started.elapsed();
        let predicted = took.mul_f64(iteration_growth(previous_took, took));
        previous_took = took;
        if !time.next_iteration_fits(predicted, stretch(stable_iterations, drop)) {
            break;
        }
        if shared.stop.load(Relaxed) {
            break;
        }
    }
    MainOutcome { best_move, info }
}

/// A helper's iterative deepening: no reports, no clock; it ends when `done` or `stop` rises.
/// Each completed iteration deeper than any other helper's is published in `helper_best`,
/// and a helper that completes the last depth ends the search (its result is as good as the
/// main worker's would be, and there sooner).
pub fn iterate_helper(worker: &mut Worker, shared: &Shared, max_depth: u32) {
    worker.allow_abort(true);
    let mut score = 0;
    let mut last_depth = 0;
    for iteration in 1..=max_depth {
        let id = worker.id();
        let offset = if id % 2 == 1 {
            iteration & 1
        } else {
            (id as u32 >> 1) & 1
        };
        let depth = (iteration + offset).min(max_depth);
        if depth == last_depth {
            continue;
        }
        last_depth = depth;
        let value = aspiration(worker, shared, depth as i32, score);
        if worker.aborted() {
            break;
        }
        score = value;
        if !worker.pv().is_empty() {
            let mut best = shared.helper_best.lock().unwrap_or_else(|e| e.into_inner());
            if depth > best.0 {
                *best = (depth, score, worker.pv().to_vec());
            }
        }
        if depth == max_depth {
            shared.done.store(true, Relaxed);
            break;
        }
    }
    worker.publish_nodes(shared);
}
