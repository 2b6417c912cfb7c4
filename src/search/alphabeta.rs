//! The main search of one worker: negamax with principal-variation search, in numbered steps.
//!
//! Every node first asks whether the game is over, then whether the side to move has a road in
//! one (it takes it). At the horizon a side facing a road in one ("Tak") keeps searching a
//! couple of plies so it sees whether it can block. The worker owns its position, per-ply move
//! buffers, history, correction history and PV table; it shares only the transposition table
//! and the stop flags. Its state is private: the iterative deepening (`threads.rs`,
//! `multipv.rs`) and the searcher (`mod.rs`) go through its methods.

use super::correction::{CorrectionHistory, Slots};
use super::eval::evaluate;
use super::history::History;
use super::network::{AccumulatorStack, Network};
use super::order::{MovePicker, Stage};
use super::params::{
    history_bonus, HISTORY_PENALIZED_MOVES, LATE_MOVE_REDUCTION_PV_MOVES, MAX_PLY,
    NULL_MOVE_DEPTH_PER_PLY, POLL_INTERVAL,
};
use super::tt::{Bound, TranspositionTable};
use super::{score_is_win, PruningSwitches, SearchParams, EVAL_LIMIT, MAX_MULTIPV, WIN};
use crate::core::{Bitboard, Color, GameResult, Move, MoveList, Position, Undo};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// What every worker of one search shares.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Raised by the caller (`stop`).
    pub stop: &'a AtomicBool,
    /// Raised by the main worker when it is done.
    pub done: &'a AtomicBool,
    /// Nodes of all workers, published every `POLL_INTERVAL` nodes.
    pub nodes: &'a AtomicU64,
    /// Node limit for the whole search.
    pub node_limit: Option<u64>,
    /// The main worker stops here.
    pub hard_deadline: Option<Instant>,
    /// Pruning switches.
    pub switches: PruningSwitches,
    /// Margins and limits of the pruning rules.
    pub params: SearchParams,
    /// The deepest iteration a helper completed (depth, score, PV).
    pub helper_best: &'a Mutex<(u32, i32, Vec<Move>)>,
    /// How many best root moves the main worker reports (`MultiPV`, 1 normally).
    pub multipv: usize,
    /// The network that evaluates, or `None` for the linear evaluation.
    pub network: Option<&'a Network>,
}

/// Per-ply scratch space, allocated once.
struct Frame {
    moves: MoveList,
    keys: Vec<u64>,
}

/// One search thread's state.
pub struct Worker {
    /// Worker index; 0 is the main worker.
    id: usize,
    /// The position being searched (moves are made and unmade on it).
    pos: Position,
    frames: Vec<Frame>,
    /// Move-ordering memory.
    history: History,
    /// How far the static evaluation missed, by side to move and tops.
    correction: CorrectionHistory,
    /// The network's hidden layer along the current line (unused by the linear evaluation).
    accumulators: AccumulatorStack,
    /// The (corrected) static evaluation of each ply of the current line, for `improving`.
    evals: [i32; MAX_PLY + 2],
    pv: Vec<[Move; MAX_PLY + 1]>,
    /// The move made at each ply of the current line (`Move::NULL` for a null move).
    played: [Move; MAX_PLY + 2],
    pv_len: [usize; MAX_PLY + 1],
    reductions: [[u8; 64]; 64],
    /// Nodes searched in the current search.
    nodes: u64,
    unpublished: u64,
    /// Deepest ply reached in the current search.
    seldepth: usize,
    /// Beta cutoffs in the current search (of the move loop, not the table or pruning).
    cutoffs: u64,
    /// Of those, the cutoffs by the first move searched: a measure of the move ordering.
    first_move_cutoffs: u64,
    /// Set once the search must unwind; results after that are discarded.
    aborted: bool,
    /// Whether aborting is allowed yet (not before one root move has a score).
    may_abort: bool,
    /// Best root move of the current root search so far, with its score (it raised alpha).
    root_best: Option<(Move, i32)>,
    /// The first root move searched in the current root search, whatever its score.
    root_fallback: Option<Move>,
    /// Root moves skipped by this root search: the lines before it under MultiPV.
    excluded: [Move; MAX_MULTIPV],
    /// How many of `excluded` are in use (0 outside MultiPV's later lines).
    excluded_len: usize,
}

/// A node's static evaluation (Step 7), kept for the pruning rules and the correction update.
#[derive(Clone, Copy)]
struct NodeEval {
    /// The evaluation function's score.
    raw: i32,
    /// `raw` corrected by the correction history: what the pruning rules read.
    corrected: i32,
    /// The correction history entries of this position.
    slots: Slots,
    /// The side to move's corrected evaluation is above its value two plies up this line.
    improving: bool,
}

/// Whether the opponent has a road in one, found at most once per node and only when a rule
/// asks (`None` until then).
type Threat = Option<bool>;

impl Worker {
    /// A worker for thread `id`, its buffers allocated now.
    pub fn new(id: usize, params: &SearchParams) -> Worker {
        Worker {
            id,
            pos: Position::start(5).expect("size 5 exists"),
            frames: (0..MAX_PLY + 2)
                .map(|_| Frame {
                    moves: MoveList::new(),
                    keys: Vec::with_capacity(512),
                })
                .collect(),
            history: History::default(),
            correction: CorrectionHistory::default(),
            accumulators: AccumulatorStack::new(MAX_PLY + 2),
            evals: [0; MAX_PLY + 2],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            played: [Move::NULL; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 1],
            reductions: reduction_table(params.late_move_reduction_divisor_100),
            nodes: 0,
            unpublished: 0,
            seldepth: 0,
            cutoffs: 0,
            first_move_cutoffs: 0,
            aborted: false,
            may_abort: false,
            root_best: None,
            root_fallback: None,
            excluded: [Move::NULL; MAX_MULTIPV],
            excluded_len: 0,
        }
    }

    /// Rebuilds what the worker precomputes from the parameters (the reduction table).
    pub fn set_params(&mut self, params: &SearchParams) {
        self.reductions = reduction_table(params.late_move_reduction_divisor_100);
    }

    /// Resets the counters for a new search from `pos`.
    pub fn prepare(&mut self, pos: &Position) {
        self.pos.clone_from(pos);
        self.nodes = 0;
        self.unpublished = 0;
        self.seldepth = 0;
        self.cutoffs = 0;
        self.first_move_cutoffs = 0;
        self.aborted = false;
        self.history.clear_killers();
        self.accumulators.reset();
    }

    /// The static evaluation of the line's position at `ply`: the network's, kept up to date
    /// by `make_move`, or the linear evaluation's.
    #[inline]
    fn static_eval(&mut self, shared: &Shared, ply: usize) -> i32 {
        match shared.network {
            Some(net) => {
                let score = self.accumulators.evaluate(net, &self.pos, ply);
                debug_assert_eq!(
                    score,
                    super::network::evaluate_full(net, &self.pos),
                    "the incremental network evaluation differs from a recomputation"
                );
                score
            }
            None => evaluate(&self.pos),
        }
    }

    /// Makes `mv` at `ply`, recording for the network what it changes.
    #[inline]
    fn make_move(&mut self, shared: &Shared, ply: usize, mv: Move) -> Undo {
        if shared.network.is_none() {
            return self.pos.do_move(mv);
        }
        self.accumulators.before_move(ply, &self.pos, mv);
        let undo = self.pos.do_move(mv);
        self.accumulators.after_move(ply, &self.pos);
        undo
    }

    /// Passes at `ply` (null-move pruning).
    #[inline]
    fn make_null_move(&mut self, shared: &Shared, ply: usize) {
        if shared.network.is_some() {
            self.accumulators.null_move(ply, &self.pos);
        }
        self.pos.do_null_move();
    }

    /// Forgets what earlier searches learned: history and correction history (a new game).
    pub fn forget(&mut self) {
        self.history.clear();
        self.correction.clear();
    }

    /// Worker index; 0 is the main worker.
    pub fn id(&self) -> usize {
        self.id
    }

    /// The position being searched (the root between searches).
    pub fn position(&mut self) -> &mut Position {
        &mut self.pos
    }

    /// The worker's move-ordering memory (MultiPV puts it back after its later lines).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Replaces the move-ordering memory with `saved`.
    pub fn restore_history(&mut self, saved: &History) {
        self.history.clone_from(saved);
    }

    /// Nodes searched in the current (or last) search.
    #[cfg(test)]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Deepest ply reached in the current search.
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// Beta cutoffs of the move loop in the current search, and how many of them the first
    /// move made.
    pub fn cutoff_counts(&self) -> (u64, u64) {
        (self.cutoffs, self.first_move_cutoffs)
    }

    /// Whether the search must unwind (a limit was reached or `stop` was raised).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Allows (or forbids) unwinding before a root move has a score.
    pub fn allow_abort(&mut self, may: bool) {
        self.may_abort = may;
    }

    /// Starts a root search: forgets the last one's best and first moves.
    pub fn begin_root_search(&mut self) {
        self.root_best = None;
        self.root_fallback = None;
    }

    /// Best root move of the current root search so far, with its score.
    pub fn root_best(&self) -> Option<(Move, i32)> {
        self.root_best
    }

    /// The first root move searched in the current root search, whatever its score.
    pub fn root_fallback(&self) -> Option<Move> {
        self.root_fallback
    }

    /// The first move of the PV, or the best root move so far.
    pub fn best_root_move(&self) -> Option<Move> {
        self.pv().first().copied().or(self.root_best.map(|b| b.0))
    }

    /// Root searches from now on skip `mv` (MultiPV: an earlier line starts with it).
    pub fn exclude_root_move(&mut self, mv: Move) {
        self.excluded[self.excluded_len] = mv;
        self.excluded_len += 1;
    }

    /// Root searches skip nothing again.
    pub fn clear_excluded(&mut self) {
        self.excluded_len = 0;
    }

    /// Which MultiPV line the current root search is (1 when nothing is excluded).
    pub fn line(&self) -> usize {
        self.excluded_len + 1
    }

    /// The principal variation of the last root search.
    pub fn pv(&self) -> &[Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// Whether the root search skips `mv` (an earlier MultiPV line starts with it).
    #[inline]
    fn excluded_at_root(&self, mv: Move) -> bool {
        self.excluded[..self.excluded_len].contains(&mv)
    }

    /// Publishes the nodes not yet added to the shared count.
    pub fn publish_nodes(&mut self, shared: &Shared) {
        shared.nodes.fetch_add(self.unpublished, Relaxed);
        self.unpublished = 0;
    }

    /// Polls limits; sets `aborted` when the search must unwind.
    #[inline]
    fn check_limits(&mut self, shared: &Shared) {
        if let Some(limit) = shared.node_limit {
            if shared.nodes.load(Relaxed) + self.unpublished >= limit && self.may_abort {
                self.aborted = true;
                shared.done.store(true, Relaxed);
                return;
            }
        }
        if self.unpublished >= POLL_INTERVAL {
            self.publish_nodes(shared);
            if !self.may_abort {
                return;
            }
            if shared.stop.load(Relaxed) || shared.done.load(Relaxed) {
                self.aborted = true;
            } else if self.id == 0 {
                if let Some(deadline) = shared.hard_deadline {
                    if Instant::now() >= deadline {
                        self.aborted = true;
                        shared.done.store(true, Relaxed);
                    }
                }
            }
        }
    }

    /// The score of a finished game for the side to move at `ply`.
    fn result_score(&self, result: GameResult, ply: usize) -> i32 {
        match result.winner() {
            None => 0,
            Some(c) if c == self.pos.to_move() => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = mv;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    fn update_pv_leaf(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        self.pv_len[ply] = ply + 1;
    }

    /// The move that led to the node at `ply` (unknown at the root).
    #[inline]
    fn last_move(&self, ply: usize) -> Move {
        if ply == 0 {
            Move::NULL
        } else {
            self.played[ply - 1]
        }
    }

    /// Whether the opponent has a road in one, computed on first use.
    #[inline]
    fn threatened(&mut self, threat: &mut Threat) -> bool {
        *threat.get_or_insert_with(|| self.pos.opponent_road_in_one_in_play())
    }

    /// Searches the current position to `depth` within (`alpha`, `beta`).
    pub fn negamax<const PV: bool>(
        &mut self,
        shared: &Shared,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        allow_null: bool,
    ) -> i32 {
        // Step 1. Bookkeeping: count the node, poll the limits, reset this ply's PV.
        self.nodes += 1;
        self.unpublished += 1;
        self.check_limits(shared);
        if self.aborted {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        let root = ply == 0;

        // Step 2. Game over (decisive: roads and flat endings are exact, with komi), and
        // repetition, which scores as a draw.
        if !root {
            if let Some(score) = self.game_over_score(shared, ply) {
                return score;
            }
        }

        // Step 3. Road in one: the side to move takes it. Exact, so no depth is needed.
        if let Some(score) = self.road_in_one(ply) {
            return score;
        }

        // Step 4. Win-distance pruning: no line from here beats a road on the next move.
        if !root {
            alpha = alpha.max(-(WIN - ply as i32 - 2));
            beta = beta.min(WIN - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5. Horizon: static evaluation, unless the opponent threatens a road.
        if depth <= 0 {
            return self.horizon(shared, depth, ply, alpha, beta);
        }

        // Step 6. Transposition table: cut at non-PV nodes with a deep enough bound.
        let hash = self.pos.hash();
        let (table_move, table_cut) = probe_table::<PV>(shared.tt, hash, depth, ply, alpha, beta);
        if let Some(score) = table_cut {
            return score;
        }

        // Step 7. Static evaluation, corrected by the correction history, and "improving".
        let eval = self.node_eval(shared, ply);
        let mut threat: Threat = None;

        // Step 8. Reverse futility: far above beta near the horizon, a quiet position stays
        // above it. Safe only without a road threat against us.
        if !PV && self.reverse_futility_prunes(shared, depth, beta, eval, &mut threat) {
            return eval.corrected;
        }

        // Step 9. Null move: if passing still fails high, a real move will too.
        if !PV && allow_null {
            if let Some(score) = self.null_move(shared, depth, ply, beta, eval, &mut threat) {
                return score;
            }
        }

        // Step 10. The moves, best guess first (PVS, pruning and reductions decided by
        // `late_move_prunes` and `late_move_reduction`).
        let outcome =
            self.move_loop::<PV>(shared, depth, ply, alpha, beta, table_move, eval, threat);
        if self.aborted {
            return 0;
        }

        // Step 11. No move at all: only possible with empty reserves, which ended the game
        // already; score it as a draw to be safe.
        if outcome.searched == 0 {
            return 0;
        }

        // Step 12. Remember: killers and history for a quiet cutoff, the correction history,
        // and the table entry.
        let bound = if outcome.best_score >= beta {
            Bound::Lower
        } else if outcome.best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if bound == Bound::Lower {
            self.reward_cutoff(ply, depth, &outcome);
        }
        self.update_correction(shared, depth, bound, outcome.best_score, eval);
        self.store(shared, hash, depth, ply, bound, table_move, &outcome);
        outcome.best_score
    }

    /// Step 2 in full: the score of a finished game, a repetition (a draw: a position seen
    /// before in this line can be forced again, so the side that repeats can at least hold
    /// it), or the static evaluation at the end of the search stack.
    #[inline]
    fn game_over_score(&mut self, shared: &Shared, ply: usize) -> Option<i32> {
        if let Some(result) = self.pos.result() {
            return Some(self.result_score(result, ply));
        }
        if self.pos.repetitions() > 0 {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.static_eval(shared, ply));
        }
        None
    }

    /// Step 3 in full: a road in one for the side to move, taken. Not an excluded root move:
    /// the move loop finds any other winning move.
    #[inline]
    fn road_in_one(&mut self, ply: usize) -> Option<i32> {
        let root = ply == 0;
        let mv = self
            .pos
            .road_win_in_play()
            .filter(|&mv| !(root && self.excluded_at_root(mv)))?;
        if root {
            self.root_best = Some((mv, WIN - 1));
        }
        self.update_pv_leaf(ply, mv);
        Some(WIN - (ply as i32 + 1))
    }

    /// Step 7 in full. The static evaluation, corrected by what searches of positions where
    /// White, or Black, tops the same squares found (`correction.rs`; within the evaluation
    /// limit, so never a win score). "Improving": the side to move's corrected evaluation is
    /// above its value two plies up this line, so a fail high is likelier (reverse futility
    /// prunes sooner) and a late move more likely to matter (late-move pruning and reductions
    /// ease off). Every ancestor of a node of depth 1 or more passed here, so the entry two
    /// plies up is this line's.
    #[inline]
    fn node_eval(&mut self, shared: &Shared, ply: usize) -> NodeEval {
        let raw = self.static_eval(shared, ply);
        let slots = CorrectionHistory::slots(&self.pos);
        let corrected = if shared.switches.correction_history {
            let correction = self
                .correction
                .correction(slots, shared.params.correction_limit);
            (raw + correction).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        } else {
            raw
        };
        self.evals[ply] = corrected;
        let improving = shared.switches.improving && ply >= 2 && corrected > self.evals[ply - 2];
        NodeEval {
            raw,
            corrected,
            slots,
            improving,
        }
    }

    /// Step 8's rule (non-PV nodes): far above beta near the horizon, with a margin per ply
    /// of depth (a ply less when improving), and no road threat against the side to move.
    #[inline]
    fn reverse_futility_prunes(
        &mut self,
        shared: &Shared,
        depth: i32,
        beta: i32,
        eval: NodeEval,
        threat: &mut Threat,
    ) -> bool {
        let params = &shared.params;
        shared.switches.reverse_futility
            && depth <= params.reverse_futility_depth
            && !score_is_win(beta.abs())
            && eval.corrected - params.reverse_futility_margin * (depth - eval.improving as i32)
                >= beta
            && !self.threatened(threat)
    }

    /// Step 9 in full (non-PV nodes that allow it): pass, and search the opponent's reply at
    /// a reduced depth with a null window at beta; the score if it still fails high. Tak has no
    /// zugzwang until reserves or empty squares run low, hence the guard; a road threat of the
    /// opponent makes passing lose at once, so that is checked first.
    #[inline]
    fn null_move(
        &mut self,
        shared: &Shared,
        depth: i32,
        ply: usize,
        beta: i32,
        eval: NodeEval,
        threat: &mut Threat,
    ) -> Option<i32> {
        let params = &shared.params;
        let me = self.pos.to_move();
        if !(shared.switches.null_move
            && depth >= params.null_move_depth
            && eval.corrected >= beta
            && !score_is_win(beta.abs())
            && self.pos.stones(me) as i32 >= params.null_move_min_stones
            && self.pos.empty().count() as i32 >= params.null_move_min_empty
            && !self.threatened(threat))
        {
            return None;
        }
        let reduction = params.null_move_reduction + depth / NULL_MOVE_DEPTH_PER_PLY;
        self.played[ply] = Move::NULL;
        self.make_null_move(shared, ply);
        let score = -self.negamax::<false>(
            shared,
            depth - 1 - reduction,
            ply + 1,
            -beta,
            -beta + 1,
            false,
        );
        self.pos.undo_null_move();
        if self.aborted {
            return Some(0);
        }
        (score >= beta).then(|| if score_is_win(score) { beta } else { score })
    }

    /// Step 10 in full. PVS: the first move gets the full window, the others a null window
    /// and a re-search if they beat alpha. Late moves are pruned near the horizon
    /// (`late_move_prunes`) or searched shallower (`late_move_reduction`).
    #[allow(clippy::too_many_arguments)]
    fn move_loop<const PV: bool>(
        &mut self,
        shared: &Shared,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        table_move: Move,
        eval: NodeEval,
        mut threat: Threat,
    ) -> LoopOutcome {
        let mut alpha = alpha;
        let root = ply == 0;
        let me = self.pos.to_move();
        // Under a road threat the squares that stop it come first.
        let hot = if threat == Some(true) {
            self.road_squares_of(!me)
        } else {
            Bitboard::EMPTY
        };
        let mut frame_moves = std::mem::take(&mut self.frames[ply].moves);
        let mut frame_keys = std::mem::take(&mut self.frames[ply].keys);
        let mut picker = MovePicker::new(
            table_move,
            self.history.killers(ply),
            hot,
            self.last_move(ply),
        );
        let mut outcome = LoopOutcome {
            best_score: -WIN,
            best_move: Move::NULL,
            searched: 0,
            tried: [Move::NULL; HISTORY_PENALIZED_MOVES],
        };
        while let Some(mv) =
            picker.next(&self.pos, &mut frame_moves, &mut frame_keys, &self.history)
        {
            let late = picker.stage() == Stage::Rest;
            if root && self.excluded_len > 0 && self.excluded_at_root(mv) {
                continue;
            }
            if !PV
                && late
                && self.late_move_prunes(shared, depth, alpha, outcome.searched, eval, &mut threat)
            {
                break;
            }
            outcome.searched += 1;
            let searched = outcome.searched;
            self.played[ply] = mv;
            let undo = self.make_move(shared, ply, mv);
            let score = if searched == 1 {
                -self.negamax::<PV>(shared, depth - 1, ply + 1, -beta, -alpha, true)
            } else {
                let reduction = if late {
                    self.late_move_reduction::<PV>(shared, depth, searched, mv, eval, threat)
                } else {
                    0
                };
                self.search_later_move::<PV>(shared, (depth, reduction), ply, alpha, beta)
            };
            self.pos.undo_move(mv, undo);
            if self.aborted {
                break;
            }
            if score > outcome.best_score {
                outcome.best_score = score;
                outcome.best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if root {
                        self.root_best = Some((mv, score));
                        self.may_abort = true;
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
            if root && searched == 1 {
                // A fail-low first move still gives a legal move to fall back on.
                self.root_fallback = Some(mv);
                self.may_abort = true;
            }
            if searched <= outcome.tried.len() {
                outcome.tried[searched - 1] = mv;
            }
        }
        self.frames[ply].moves = frame_moves;
        self.frames[ply].keys = frame_keys;
        outcome
    }

    /// The squares where `color` would complete a road with one placement.
    fn road_squares_of(&mut self, color: Color) -> Bitboard {
        if color == self.pos.to_move() {
            return self.pos.road_squares(color);
        }
        self.pos.do_null_move();
        let squares = self.pos.road_squares(color);
        self.pos.undo_null_move();
        squares
    }

    /// Late-move pruning (non-PV nodes, moves of the picker's last stage): near the horizon,
    /// moves this far down the order rarely matter (most are walls and long spreads). Not
    /// under a road threat, where the one blocking move may come late, nor in a lost or won
    /// window. Improving, it keeps as many moves as one ply deeper.
    #[inline]
    fn late_move_prunes(
        &mut self,
        shared: &Shared,
        depth: i32,
        alpha: i32,
        searched: usize,
        eval: NodeEval,
        threat: &mut Threat,
    ) -> bool {
        let params = &shared.params;
        let lmp_depth = depth + eval.improving as i32;
        shared.switches.late_move_pruning
            && depth <= params.late_move_pruning_depth
            && searched
                >= (params.late_move_pruning_base
                    + params.late_move_pruning_factor * lmp_depth * lmp_depth)
                    as usize
            && !score_is_win(alpha.abs())
            && !self.threatened(threat)
    }

    /// Late-move reduction of the `searched`th move `mv` (of the picker's last stage, made on
    /// the board): from the table, less for a good history, more for a bad one, a ply less at
    /// PV nodes and when improving. Moves that make a road threat ("Tak") and moves played
    /// while facing one are the tactics of Tak: they keep their full depth.
    #[inline]
    fn late_move_reduction<const PV: bool>(
        &self,
        shared: &Shared,
        depth: i32,
        searched: usize,
        mv: Move,
        eval: NodeEval,
        threat: Threat,
    ) -> i32 {
        let params = &shared.params;
        // The side that made `mv` (it is the opponent's turn on the board now).
        let me = !self.pos.to_move();
        if !(shared.switches.late_move_reduction
            && depth >= params.late_move_reduction_depth
            && searched
                > params.late_move_reduction_moves as usize
                    + PV as usize * LATE_MOVE_REDUCTION_PV_MOVES
            && threat != Some(true)
            && self.pos.road_squares(me).is_empty())
        {
            return 0;
        }
        let r = self.reductions[(depth as usize).min(63)][searched.min(63)] as i32
            - self.history.score(me, mv) / params.late_move_reduction_history
            - PV as i32
            - eval.improving as i32;
        r.clamp(0, depth - 2)
    }

    /// A move after the first (made on the board): a null window at the reduced depth, again
    /// at full depth if a reduced search beat alpha, and with the full window at a PV node if
    /// it lands inside it.
    #[inline]
    fn search_later_move<const PV: bool>(
        &mut self,
        shared: &Shared,
        (depth, reduction): (i32, i32),
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut score = -self.negamax::<false>(
            shared,
            depth - 1 - reduction,
            ply + 1,
            -alpha - 1,
            -alpha,
            true,
        );
        if score > alpha && reduction > 0 {
            score = -self.negamax::<false>(shared, depth - 1, ply + 1, -alpha - 1, -alpha, true);
        }
        if PV && score > alpha && score < beta {
            score = -self.negamax::<true>(shared, depth - 1, ply + 1, -beta, -alpha, true);
        }
        score
    }

    /// Step 12, history: the cutoff move becomes a killer and gains history; the quiet moves
    /// tried before it lose as much.
    #[inline]
    fn reward_cutoff(&mut self, ply: usize, depth: i32, outcome: &LoopOutcome) {
        let me = self.pos.to_move();
        self.cutoffs += 1;
        self.first_move_cutoffs += (outcome.searched == 1) as u64;
        let bonus = history_bonus(depth);
        self.history.add_killer(ply, outcome.best_move);
        self.history.update(me, outcome.best_move, bonus);
        let before = (outcome.searched - 1).min(outcome.tried.len());
        for &mv in &outcome.tried[..before] {
            if mv != outcome.best_move {
                self.history.update(me, mv, -bonus);
            }
        }
    }

    /// Step 12, correction history. It moves toward this node's error only when the bound
    /// says which way: a fail high above the corrected evaluation, a fail low below it, or an
    /// exact score; never from a forced result (not an evaluation error) nor from MultiPV's
    /// later lines (which leave no trace, see `multipv`).
    #[inline]
    fn update_correction(
        &mut self,
        shared: &Shared,
        depth: i32,
        bound: Bound,
        best_score: i32,
        eval: NodeEval,
    ) {
        if shared.switches.correction_history
            && self.excluded_len == 0
            && !score_is_win(best_score.abs())
            && match bound {
                Bound::Exact => true,
                Bound::Lower => best_score > eval.corrected,
                Bound::Upper => best_score < eval.corrected,
            }
        {
            self.correction.update(
                eval.slots,
                best_score - eval.raw,
                depth,
                shared.params.correction_limit,
                shared.params.correction_weight,
            );
        }
    }

    /// Step 12, the table entry. MultiPV's later lines leave the table as line 1 left it (see
    /// `multipv`): their root scores are not the position's, and their other entries would
    /// steer the next iteration's line 1 away from what MultiPV 1 plays.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(
        &self,
        shared: &Shared,
        hash: u64,
        depth: i32,
        ply: usize,
        bound: Bound,
        table_move: Move,
        outcome: &LoopOutcome,
    ) {
        let stored_move = if bound == Bound::Upper {
            table_move
        } else {
            outcome.best_move
        };
        if self.excluded_len == 0 {
            shared
                .tt
                .store(hash, stored_move, outcome.best_score, depth, bound, ply);
        }
    }

    /// Step 5 in full. At the horizon the evaluation stands, unless the opponent has a road in
    /// one: then the side to move must find a block within `tak_extension_plies` extra plies,
    /// and only moves that stop the road matter (the others lose at the next node's Step 3).
    fn horizon(
        &mut self,
        shared: &Shared,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let stand = self.static_eval(shared, ply);
        if depth <= -shared.params.tak_extension_plies
            || ply >= MAX_PLY - 2
            || !self.pos.opponent_road_in_one_in_play()
        {
            return stand;
        }
        let hot = self.road_squares_of(!self.pos.to_move());
        let mut frame_moves = std::mem::take(&mut self.frames[ply].moves);
        let mut frame_keys = std::mem::take(&mut self.frames[ply].keys);
        let mut picker = MovePicker::new(Move::NULL, [Move::NULL; 2], hot, self.last_move(ply));
        let mut best = -WIN;
        while let Some(mv) =
            picker.next(&self.pos, &mut frame_moves, &mut frame_keys, &self.history)
        {
            self.played[ply] = mv;
            let undo = self.make_move(shared, ply, mv);
            let score = -self.negamax::<false>(shared, depth - 1, ply + 1, -beta, -alpha, true);
            self.pos.undo_move(mv, undo);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.frames[ply].moves = frame_moves;
        self.frames[ply].keys = frame_keys;
        if self.aborted {
            return 0;
        }
        best
    }
}

/// What Step 10's move loop found.
struct LoopOutcome {
    best_score: i32,
    best_move: Move,
    /// Moves searched (not pruned, not excluded).
    searched: usize,
    /// The first moves searched, in order: those before a cutoff move lose history.
    tried: [Move; HISTORY_PENALIZED_MOVES],
}

/// Step 6 in full: the table's move for this node (or `Move::NULL`), and its score when a
/// non-PV node can stop here (a bound at least as deep that settles the window).
#[inline]
fn probe_table<const PV: bool>(
    tt: &TranspositionTable,
    hash: u64,
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
) -> (Move, Option<i32>) {
    let Some(hit) = tt.probe(hash, ply) else {
        return (Move::NULL, None);
    };
    let cut = !PV
        && hit.depth >= depth
        && match hit.bound {
            Bound::Exact => true,
            Bound::Lower => hit.score >= beta,
            Bound::Upper => hit.score <= alpha,
        };
    (hit.mv, cut.then_some(hit.score))
}

/// Late-move reductions by depth and move index: `ln(depth) * ln(index) / divisor`, with the
/// divisor given times 100.
fn reduction_table(divisor_100: i32) -> [[u8; 64]; 64] {
    let divisor = f64::from(divisor_100) / 100.0;
    let mut reductions = [[0u8; 64]; 64];
    for (d, row) in reductions.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let value = (d as f64).ln() * (m as f64).ln() / divisor;
            *r = value.max(0.0) as u8;
        }
    }
    reductions
}
