//! A proven result's line, completed to the end of the game, so that `N` in `score solved
//! win|loss N` (or `score mate ±N`) is the length of the line shown with it.
//!
//! The main search's PV of a forced result often stops short of the game's end: the Tak
//! extension at the horizon searches non-PV nodes, whose table cutoffs leave no PV, and a
//! helper's or an unfinished iteration's line is cut to its first move. Here the line is replayed
//! and, where it stops short, a small search of its own (its own worker and table, so the main
//! search is left exactly as it was) is run from its last position for the plies that remain,
//! and its line appended, until the game ends. The reported distance is then the line's length.
//! A line that cannot be completed within [`LINE_COMPLETION_NODES`], or that ends otherwise
//! than claimed, is no longer reported as proven: its score becomes ±`EVAL_LIMIT`, a sure but
//! unproven result.

use super::alphabeta::{Shared, Worker};
use super::network::Network;
use super::params::{LINE_COMPLETION_EXTRA_DEPTH, LINE_COMPLETION_HASH_MB, LINE_COMPLETION_NODES};
use super::tt::TranspositionTable;
use super::{plies_to_result, score_is_win, Info, PruningSwitches, SearchParams, EVAL_LIMIT, WIN};
use crate::core::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// What the search settings are for a completion.
pub struct LineSettings<'a> {
    /// The main search's margins.
    pub params: SearchParams,
    /// The main search's pruning switches.
    pub switches: PruningSwitches,
    /// The network that evaluates, if any.
    pub network: Option<&'a Network>,
}

/// Completes the lines of proven scores; owns its worker and table.
pub struct LineCompleter {
    worker: Worker,
    tt: TranspositionTable,
}

impl LineCompleter {
    /// A completer with its own small table.
    pub fn new(params: &SearchParams) -> LineCompleter {
        LineCompleter {
            worker: Worker::new(0, params),
            tt: TranspositionTable::new(LINE_COMPLETION_HASH_MB),
        }
    }

    /// Uses the margins of `params` (as the main workers do).
    pub fn set_params(&mut self, params: &SearchParams) {
        self.worker.set_params(params);
    }

    /// Makes a proven `info` (from `root`'s side to move) carry a line that ends the game with
    /// the claimed winner, and a distance equal to that line's length; or, failing that, no
    /// longer claims a proof. Anything else is left alone.
    pub fn complete(&mut self, root: &Position, info: &mut Info, settings: &LineSettings) {
        let Some(claimed) = plies_to_result(info.score_cp) else {
            return;
        };
        let root_wins = info.score_cp > 0;
        let winner = if root_wins {
            root.to_move()
        } else {
            !root.to_move()
        };
        let mut pos = root.clone();
        let mut line: Vec<Move> = Vec::with_capacity(claimed as usize);
        for &mv in &info.pv {
            if pos.result().is_some() || !pos.is_legal(mv) {
                break;
            }
            pos.do_move(mv);
            line.push(mv);
        }
        let nodes = AtomicU64::new(0);
        while pos.result().is_none() && line.len() < super::MAX_PLY / 2 {
            let remaining = (claimed as usize).saturating_sub(line.len()).max(1);
            let left = LINE_COMPLETION_NODES.saturating_sub(nodes.load(Relaxed));
            if left == 0 {
                break;
            }
            let tail = self.tail(&pos, remaining, left, &nodes, settings);
            if tail.is_empty() {
                break;
            }
            for mv in tail {
                if pos.result().is_some() {
                    break;
                }
                pos.do_move(mv);
                line.push(mv);
            }
        }
        match pos.result().map(|r| r.winner()) {
            Some(Some(c)) if c == winner => {
                let plies = line.len() as i32;
                info.score_cp = if root_wins {
                    WIN - plies
                } else {
                    -(WIN - plies)
                };
                info.pv = line;
            }
            _ => {
                log::debug!(
                    "no line to the end of the game for a proven score {} from {}; reported as unproven",
                    info.score_cp,
                    root.to_tps()
                );
                info.score_cp = if root_wins { EVAL_LIMIT } else { -EVAL_LIMIT };
            }
        }
    }

    /// The line of an iterative-deepening search from `pos`, to `remaining` plies and a few
    /// more, stopping at the first depth that proves a result; empty if none is proven within
    /// `nodes_left` (counted into `nodes`).
    fn tail(
        &mut self,
        pos: &Position,
        remaining: usize,
        nodes_left: u64,
        nodes: &AtomicU64,
        settings: &LineSettings,
    ) -> Vec<Move> {
        let stop = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        let helper_best = Mutex::new((0, 0, Vec::new()));
        let start = nodes.load(Relaxed);
        let shared = Shared {
            tt: &self.tt,
            stop: &stop,
            done: &done,
            nodes,
            node_limit: Some(start + nodes_left),
            hard_deadline: None,
            switches: settings.switches,
            params: settings.params,
            helper_best: &helper_best,
            multipv: 1,
            network: settings.network,
        };
        self.tt.new_search();
        let worker = &mut self.worker;
        worker.prepare(pos);
        worker.allow_abort(true);
        let max_depth = (remaining + LINE_COMPLETION_EXTRA_DEPTH).min(super::MAX_DEPTH as usize);
        for depth in 1..=max_depth {
            worker.begin_root_search();
            let score = worker.negamax::<true>(&shared, depth as i32, 0, -WIN, WIN, false);
            worker.publish_nodes(&shared);
            if worker.aborted() {
                break;
            }
            if score_is_win(score.abs()) {
                return worker.pv().to_vec();
            }
        }
        Vec::new()
    }
}
