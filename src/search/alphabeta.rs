//! The main search of one worker: negamax with principal-variation search, in numbered steps.
//!
//! Every node first asks whether the game is over, then whether the side to move has a road in
//! one (it takes it). At the horizon a side facing a road in one ("Tak") keeps searching a
//! couple of plies so it sees whether it can block. The worker owns its position, per-ply move
//! buffers, history, correction history and PV table; it shares only the transposition table
//! and the stop flags.

use super::correction::CorrectionHistory;
use super::eval::evaluate;
use super::history::History;
use super::order::MovePicker;
use super::params::{MAX_PLY, POLL_INTERVAL};
use super::road::opponent_threatens;
use super::tt::{Bound, TranspositionTable};
use super::{score_is_win, Features, SearchParams, EVAL_LIMIT, MAX_MULTIPV, WIN};
use crate::core::{Bitboard, GameResult, Move, MoveList, Position};
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
    pub features: Features,
    /// Margins and limits of the pruning rules.
    pub params: SearchParams,
    /// The deepest iteration a helper completed (depth, score, PV).
    pub helper_best: &'a Mutex<(u32, i32, Vec<Move>)>,
    /// How many best root moves the main worker reports (`MultiPV`, 1 normally).
    pub multipv: usize,
}

/// Per-ply scratch space, allocated once.
struct Frame {
    moves: MoveList,
    keys: Vec<u64>,
}

/// One search thread's state.
pub struct Worker {
    /// Worker index; 0 is the main worker.
    pub id: usize,
    /// The position being searched (moves are made and unmade on it).
    pub pos: Position,
    frames: Vec<Frame>,
    /// Move-ordering memory.
    pub history: History,
    /// How far the static evaluation missed, by side to move and tops.
    pub correction: CorrectionHistory,
    /// The (corrected) static evaluation of each ply of the current line, for `improving`.
    evals: [i32; MAX_PLY + 2],
    pv: Vec<[Move; MAX_PLY + 1]>,
    /// The move made at each ply of the current line (`Move::NULL` for a null move).
    played: [Move; MAX_PLY + 2],
    pv_len: [usize; MAX_PLY + 1],
    reductions: [[u8; 64]; 64],
    /// Nodes searched in the current search.
    pub nodes: u64,
    unpublished: u64,
    /// Deepest ply reached in the current search.
    pub seldepth: usize,
    /// Beta cutoffs in the current search (of the move loop, not the table or pruning).
    pub cutoffs: u64,
    /// Of those, the cutoffs by the first move searched: a measure of the move ordering.
    pub first_move_cutoffs: u64,
    /// Set once the search must unwind; results after that are discarded.
    pub aborted: bool,
    /// Whether aborting is allowed yet (not before one root move has a score).
    pub may_abort: bool,
    /// Best root move of the current iteration so far, with its score (it raised alpha).
    pub root_best: Option<(Move, i32)>,
    /// The first root move searched in the current iteration, whatever its score.
    pub root_fallback: Option<Move>,
    /// Root moves skipped by this root search: the lines before it under MultiPV.
    pub excluded: [Move; MAX_MULTIPV],
    /// How many of `excluded` are in use (0 outside MultiPV's later lines).
    pub excluded_len: usize,
}

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

        // Step 2. Game over (~decisive: roads and flat endings are exact, with komi), and
        // repetition, which scores as a draw: a position seen before in this line can be forced
        // again, so the side that repeats can at least hold it.
        if !root {
            if let Some(result) = self.pos.result() {
                return self.result_score(result, ply);
            }
            if self.pos.repetitions() > 0 {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return evaluate(&self.pos);
            }
        }

        // Step 3. Road in one: the side to move takes it. Exact, so no depth is needed. (Not
        // an excluded root move: the move loop finds any other winning move.)
        if let Some(mv) = self
            .pos
            .road_win()
            .filter(|&mv| !(root && self.excluded_at_root(mv)))
        {
            if root {
                self.root_best = Some((mv, WIN - 1));
            }
            self.update_pv_leaf(ply, mv);
            return WIN - (ply as i32 + 1);
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
        let hit = shared.tt.probe(hash, ply);
        let table_move = hit.map_or(Move::NULL, |h| h.mv);
        if let Some(h) = hit {
            if !PV
                && h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                }
            {
                return h.score;
            }
        }

        // Step 7. Static evaluation, corrected by what searches of positions where White, or
        // Black, tops the same squares found (correction history, `correction.rs`; within the
        // evaluation limit, so never a win score), and the opponent's road threat, found
        // lazily: pruning below is only safe when the opponent has no road in one.
        // "Improving": the side to move's corrected evaluation is above its value two plies up
        // this line, so a fail high is likelier (reverse futility prunes sooner) and a late
        // move more likely to matter (late-move pruning and reductions ease off). Every
        // ancestor of a node of depth 1 or more passed here, so the entry two plies up is this
        // line's.
        let params = &shared.params;
        let static_eval = evaluate(&self.pos);
        let correction_slots = CorrectionHistory::slots(&self.pos);
        let eval = if shared.features.correction_history {
            let correction = self
                .correction
                .correction(correction_slots, params.correction_limit);
            (static_eval + correction).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        } else {
            static_eval
        };
        self.evals[ply] = eval;
        let improving = shared.features.improving && ply >= 2 && eval > self.evals[ply - 2];
        let mut threatened: Option<bool> = None;

        // Step 8. Reverse futility: far above beta near the horizon, a quiet position stays
        // above it; a ply less margin when improving. Safe only without a road threat against
        // us.
        if shared.features.reverse_futility
            && !PV
            && depth <= params.reverse_futility_depth
            && !score_is_win(beta.abs())
            && eval - params.reverse_futility_margin * (depth - improving as i32) >= beta
            && !*threatened.get_or_insert_with(|| opponent_threatens(&mut self.pos))
        {
            return eval;
        }

        // Step 9. Null move: if passing still fails high, a real move will too. Tak has no
        // zugzwang until reserves or empty squares run low, hence the guard; a road threat of
        // the opponent makes passing lose at once, so that is checked first.
        let me = self.pos.to_move();
        if shared.features.null_move
            && !PV
            && allow_null
            && depth >= params.null_move_depth
            && eval >= beta
            && !score_is_win(beta.abs())
            && self.pos.stones(me) as i32 >= params.null_move_min_stones
            && self.pos.empty().count() as i32 >= params.null_move_min_empty
            && !*threatened.get_or_insert_with(|| opponent_threatens(&mut self.pos))
        {
            let reduction = params.null_move_reduction + depth / 4;
            self.played[ply] = Move::NULL;
            self.pos.do_null_move();
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
                return 0;
            }
            if score >= beta {
                return if score_is_win(score) { beta } else { score };
            }
        }

        // Step 10. The moves, best guess first. PVS: the first move gets the full window, the
        // others a null window and a re-search if they beat alpha. Late-move reductions cut the
        // depth of late quiet moves (less for a move with a good history, more for a bad one)
        // and re-search at full depth if they beat alpha.
        let hot = if threatened == Some(true) {
            self.pos.do_null_move();
            let squares = self.pos.road_squares(!me);
            self.pos.undo_null_move();
            squares
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
        let original_alpha = alpha;
        let mut best_score = -WIN;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut tried = [Move::NULL; 32];
        while let Some(mv) =
            picker.next(&self.pos, &mut frame_moves, &mut frame_keys, &self.history)
        {
            let late = picker.stage() == super::order::Stage::Rest;
            if root && self.excluded_len > 0 && self.excluded_at_root(mv) {
                continue;
            }
            // Late-move pruning: near the horizon, moves this far down the order rarely
            // matter (most are walls and long spreads). Not under a road threat, where the
            // one blocking move may come late, nor in a lost or won window. Improving, it
            // keeps as many moves as one ply deeper.
            let lmp_depth = depth + improving as i32;
            if shared.features.late_move_pruning
                && !PV
                && depth <= params.late_move_pruning_depth
                && searched
                    >= (params.late_move_pruning_base
                        + params.late_move_pruning_factor * lmp_depth * lmp_depth)
                        as usize
                && late
                && !score_is_win(alpha.abs())
                && !*threatened.get_or_insert_with(|| opponent_threatens(&mut self.pos))
            {
                break;
            }
            searched += 1;
            self.played[ply] = mv;
            let undo = self.pos.do_move(mv);
            let mut score;
            if searched == 1 {
                score = -self.negamax::<PV>(shared, depth - 1, ply + 1, -beta, -alpha, true);
            } else {
                // Moves that make a road threat ("Tak") and moves played while facing one are
                // the tactics of Tak: they keep their full depth. Improving, a ply less.
                let reduction = if shared.features.late_move_reduction
                    && depth >= params.late_move_reduction_depth
                    && searched > params.late_move_reduction_moves as usize + PV as usize * 2
                    && late
                    && threatened != Some(true)
                    && self.pos.road_squares(me).is_empty()
                {
                    let r = self.reductions[(depth as usize).min(63)][searched.min(63)] as i32
                        - self.history.score(me, mv) / params.late_move_reduction_history
                        - PV as i32
                        - improving as i32;
                    r.clamp(0, depth - 2)
                } else {
                    0
                };
                score = -self.negamax::<false>(
                    shared,
                    depth - 1 - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax::<false>(
                        shared,
                        depth - 1,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        true,
                    );
                }
                if PV && score > alpha && score < beta {
                    score = -self.negamax::<true>(shared, depth - 1, ply + 1, -beta, -alpha, true);
                }
            }
            self.pos.undo_move(mv, undo);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
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
            if searched <= tried.len() {
                tried[searched - 1] = mv;
            }
        }
        self.frames[ply].moves = frame_moves;
        self.frames[ply].keys = frame_keys;
        if self.aborted {
            return 0;
        }

        // Step 11. No move at all: only possible with empty reserves, which ended the game
        // already; score it as a draw to be safe.
        if searched == 0 {
            return 0;
        }

        // Step 12. Remember: killers and history for a quiet cutoff, the correction history,
        // and the table entry.
        if best_score >= beta {
            self.cutoffs += 1;
            self.first_move_cutoffs += (searched == 1) as u64;
            let bonus = (depth * depth).min(400) * 16;
            self.history.add_killer(ply, best_move);
            self.history.update(me, best_move, bonus);
            for &mv in &tried[..(searched - 1).min(tried.len())] {
                if mv != best_move {
                    self.history.update(me, mv, -bonus);
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The correction moves toward this node's error only when the bound says which way:
        // a fail high above the corrected evaluation, a fail low below it, or an exact score;
        // never from a forced result (not an evaluation error) nor from MultiPV's later lines
        // (which leave no trace, see `multipv`).
        if shared.features.correction_history
            && self.excluded_len == 0
            && !score_is_win(best_score.abs())
            && match bound {
                Bound::Exact => true,
                Bound::Lower => best_score > eval,
                Bound::Upper => best_score < eval,
            }
        {
            self.correction.update(
                correction_slots,
                best_score - static_eval,
                depth,
                params.correction_limit,
                params.correction_weight,
            );
        }
        let stored_move = if bound == Bound::Upper {
            table_move
        } else {
            best_move
        };
        // MultiPV's later lines leave the table as line 1 left it (see `multipv`): their root
        // scores are not the position's, and their other entries would steer the next
        // iteration's line 1 away from what MultiPV 1 plays.
        if self.excluded_len == 0 {
            shared
                .tt
                .store(hash, stored_move, best_score, depth, bound, ply);
        }
        best_score
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

    fn update_pv_leaf(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        self.pv_len[ply] = ply + 1;
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
        let stand = evaluate(&self.pos);
        if depth <= -shared.params.tak_extension_plies
            || ply >= MAX_PLY - 2
            || !opponent_threatens(&mut self.pos)
        {
            return stand;
        }
        let me = self.pos.to_move();
        self.pos.do_null_move();
        let hot = self.pos.road_squares(!me);
        self.pos.undo_null_move();
        let mut frame_moves = std::mem::take(&mut self.frames[ply].moves);
        let mut frame_keys = std::mem::take(&mut self.frames[ply].keys);
        let mut picker = MovePicker::new(Move::NULL, [Move::NULL; 2], hot, self.last_move(ply));
        let mut best = -WIN;
        while let Some(mv) =
            picker.next(&self.pos, &mut frame_moves, &mut frame_keys, &self.history)
        {
            self.played[ply] = mv;
            let undo = self.pos.do_move(mv);
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
