//! Depth-first proof-number search (df-pn, Nagai 2002) over attacker taks and every defence.
//!
//! Values are kept from the attacker's view: `pn` is how many leaves still need proving for the
//! attacker to win, `dn` how many for the defender to hold. An attacker node takes the least `pn`
//! of its children and the sum of their `dn`; a defender node the reverse. Children live on one
//! preallocated stack (move, child key, values, whether the value is final), so the loop
//! allocates nothing per node.
//!
//! A node's children are only those its position does not settle: an attacker move that wins
//! at once settles the node, and one that is not a tak is left out; a defender move that wins or
//! draws at once settles it, and one after which the attacker wins at once is left out. The
//! rest are remembered per node (`table::Expansions`), so df-pn's later visits to a node replay
//! them instead of generating and testing every legal move again.
//!
//! A second search lets the attacker's first move be any move ("a free first move"): a forced
//! win that starts by preparing a tak instead of making one is what an alpha-beta search proves
//! and a tak-only solver cannot. Only the root differs (its key is salted); every node below is
//! a tak-only node, shared with the first search's table.
//!
//! A repetition is no win for the attacker (a win through it has a shorter one without it);
//! such a disproof holds on its path only, so it is flagged up the tree and never stored, and a
//! root disproof that needs one is reported as unknown.

use super::proof::{self, ProvenTable};
use super::table::{Entry, Expansions, Table, INF};
use super::{FREE_FIRST_MOVE, MAX_DEPTH};
use crate::core::{Bitboard, Color, Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The stop flag, clock and node budget are read every this many nodes.
const CHECK_EVERY: u64 = 8;
/// A node not yet expanded counts one more proof and disproof leaf every this many plies from the
/// root (deep df-pn): on the benchmark set at 20,000 nodes a position this proves one more and
/// gives 59 of 133 proofs shorter (proof lengths summed: 929 plies against 1,227 with 1 everywhere).
const PLIES_PER_LEAF_STEP: u32 = 2;
/// Keys of the search where Black attacks are changed by this, so a table shared by the two
/// searches of [`Solver::solve`] never mixes attacker and defender values of one position.
const BLACK_ATTACKS: u64 = 0x9e37_79b9_7f4a_7c15;

/// Share of the budget (in per cent) the tak-only search gets before the free first move is
/// tried: the tak-only verdict is the one that can say "no tinue".
const TAK_ONLY_SHARE: u64 = 50;

/// When to give up without a verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Nodes (positions expanded), if bounded.
    pub nodes: Option<u64>,
    /// Wall-clock time, if bounded.
    pub time: Option<Duration>,
}

impl Budget {
    /// A node budget only.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes: Some(nodes),
            time: None,
        }
    }

    /// A time budget only.
    pub fn time(time: Duration) -> Budget {
        Budget {
            nodes: None,
            time: Some(time),
        }
    }
}

/// What the solver found for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A forced win: the side to move forces a road (or flat win) in `plies` plies at most,
    /// counting its winning move, with taks only (a tinue) or taks after a first move that is
    /// not one; `pv` is the forcing line, the defence chosen as the longest.
    Win {
        /// Plies to the end of the game along the proof.
        plies: u32,
        /// The line, from the root.
        pv: Vec<Move>,
        /// Every attacker move of the line wins or is a tak (a tinue); false when the first
        /// is a quiet move.
        tinue: bool,
    },
    /// Every move of the side to move loses to the opponent's tinue, in `plies` plies at most.
    Loss {
        /// Plies to the end of the game along the proof.
        plies: u32,
        /// The longest defence and the opponent's forcing answer.
        pv: Vec<Move>,
    },
    /// Disproved: the side to move has no forcing sequence of taks (no tinue; a win with a
    /// free first move was not found either), and no loss was proven (the opponent's tinue, when it has a threat, was disproved too or not proven).
    NoTinue,
    /// The budget ended (or stop came) before a proof or a disproof.
    Unknown,
    /// The game is already over; nothing to solve.
    Finished,
}

/// A verdict with the effort it took.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// Positions expanded.
    pub nodes: u64,
    /// Wall-clock time spent.
    pub elapsed: Duration,
    /// Per mille of the table in use at the end.
    pub hashfull: u32,
}

impl Outcome {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// One child on the stack.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub mv: Move,
    pub key: u64,
    pub pn: u32,
    pub dn: u32,
    /// The value is settled (by the rules: a game end, a road in one, a repetition; or by a
    /// path-dependent disproof below) and is not looked up again.
    pub fixed: bool,
    /// The value is a disproof that holds only on the current path (a repetition below).
    pub path: bool,
}

/// The tinue solver; keep one and call [`Solver::solve`] for each position.
pub struct Solver {
    pub(super) table: Table,
    expansions: Expansions,
    /// The live moves of the expansion being made (to be cached).
    live: Vec<Move>,
    children: Vec<Child>,
    move_lists: Vec<MoveList>,
    pub(super) attacker: Color,
    pub(super) key_mask: u64,
    /// The attacker's first move may be any move (the second search of a solve).
    free_first: bool,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// Expansions made by generating every move, and taken from the cache (debug log).
    generated: u64,
    cached: u64,
}

impl Solver {
    /// A solver whose table and expansion cache take about `hash_mb` megabytes, reserved now
    /// (three quarters for the table).
    pub fn new(hash_mb: usize) -> Solver {
        Solver::with_table(Table::new((hash_mb * 3 / 4).max(1)), (hash_mb / 4).max(1))
    }

    /// A solver whose table holds `entries` positions (and a 1 MB expansion cache): for tests
    /// of what happens when the table is full.
    #[doc(hidden)]
    pub fn with_table_entries(entries: usize) -> Solver {
        Solver::with_table(Table::with_entries(entries), 1)
    }

    fn with_table(table: Table, cache_mb: usize) -> Solver {
        Solver {
            table,
            expansions: Expansions::new(cache_mb),
            live: Vec::with_capacity(1024),
            children: Vec::with_capacity(MAX_DEPTH * 64),
            move_lists: (0..=MAX_DEPTH).map(|_| MoveList::new()).collect(),
            attacker: Color::White,
            key_mask: 0,
            free_first: false,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            generated: 0,
            cached: 0,
        }
    }

    /// Solves `pos` for the side to move: first whether it has a tinue; if that is disproved and
    /// the opponent has a road threat, whether every move loses. Returns within about 20 ms of
    /// `stop` being set or the budget running out (then `Verdict::Unknown`, unless a verdict was
    /// reached).
    pub fn solve(&mut self, pos: &Position, budget: Budget, stop: &AtomicBool) -> Outcome {
        let start = Instant::now();
        self.nodes = 0;
        self.node_limit = budget.nodes.unwrap_or(u64::MAX);
        self.deadline = budget.time.map(|t| start + t);
        self.aborted = false;
        self.table.clear();
        self.expansions.clear();
        (self.generated, self.cached) = (0, 0);
        let mut pos = pos.clone();
        let verdict = self.verdict(&mut pos, stop);
        log::debug!(
            "tinue: {} nodes, {} expansions generated, {} from the cache",
            self.nodes,
            self.generated,
            self.cached
        );
        Outcome {
            verdict,
            nodes: self.nodes,
            elapsed: start.elapsed(),
            hashfull: self.table.permille(),
        }
    }

    /// Tak-only first (with part of the budget: its disproof is the "no tinue"), then the
    /// opponent's tinue against every move, then a win with a free first move with what is left.
    fn verdict(&mut self, pos: &mut Position, stop: &AtomicBool) -> Verdict {
        if pos.result().is_some() {
            return Verdict::Finished;
        }
        let me = pos.to_move();
        if let Some(mv) = pos.win_in_one() {
            return Verdict::Win {
                plies: 1,
                pv: vec![mv],
                tinue: true,
            };
        }
        let tak_only = self.within_share(TAK_ONLY_SHARE, |s| s.prove(pos, me, false, stop));
        if tak_only == Some(true) {
            return self.win_line(pos);
        }
        if tak_only == Some(false) && pos.opponent_wins_in_one() {
            let loss = self.within_share(TAK_ONLY_SHARE, |s| s.prove(pos, !me, false, stop));
            if loss == Some(true) {
                return match proof::line(&self.proven_table(), pos) {
                    Some((plies, pv)) => Verdict::Loss { plies, pv },
                    None => Verdict::NoTinue,
                };
            }
        }
        if !self.out_of_budget(stop) && self.prove(pos, me, true, stop) == Some(true) {
            return self.win_line(pos);
        }
        match tak_only {
            Some(false) => Verdict::NoTinue,
            _ => Verdict::Unknown,
        }
    }

    /// Runs `f` with `share` per cent of the budget left (when it is bounded), then restores
    /// the whole budget; an end of that share is not an end of the search.
    fn within_share<T>(&mut self, share: u64, f: impl FnOnce(&mut Solver) -> T) -> T {
        let (node_limit, deadline) = (self.node_limit, self.deadline);
        if node_limit != u64::MAX {
            self.node_limit = self.nodes + (node_limit - self.nodes) * share / 100;
        }
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now());
            self.deadline = Some(Instant::now() + left * share as u32 / 100);
        }
        let out = f(self);
        self.node_limit = node_limit;
        self.deadline = deadline;
        self.aborted = false;
        out
    }

    /// The last search's proven win with its length and line re-walked from the table; unknown
    /// if the walk does not confirm the proof.
    fn win_line(&self, pos: &mut Position) -> Verdict {
        match proof::line(&self.proven_table(), pos) {
            Some((plies, pv)) => {
                let tinue = !self.free_first || starts_with_tak(pos, &pv);
                Verdict::Win { plies, pv, tinue }
            }
            None => {
                log::warn!("tinue: a proof did not survive the re-walk");
                Verdict::Unknown
            }
        }
    }

    /// Runs df-pn from `pos` with `attacker` as the OR player: `Some(true)` proved,
    /// `Some(false)` disproved (and not through a path-dependent value), `None` unknown.
    fn prove(
        &mut self,
        pos: &mut Position,
        attacker: Color,
        free_first: bool,
        stop: &AtomicBool,
    ) -> Option<bool> {
        self.attacker = attacker;
        self.free_first = free_first;
        self.key_mask = if attacker == Color::Black {
            BLACK_ATTACKS
        } else {
            0
        };
        self.children.clear();
        let (pn, dn, path) = self.mid(pos, INF, INF, 0, stop);
        if self.aborted {
            return None;
        }
        if pn == 0 {
            Some(true)
        } else if dn == 0 && !path {
            Some(false)
        } else {
            log::debug!("tinue: pn {pn} dn {dn}, path-dependent {path}");
            None
        }
    }

    /// The table key of the position (`ply` from the root).
    #[inline]
    pub(super) fn key(&self, pos: &Position, ply: usize) -> u64 {
        let salt = if ply == 0 && self.free_first {
            FREE_FIRST_MOVE
        } else {
            0
        };
        pos.hash() ^ self.key_mask ^ salt
    }

    /// The table as the proof walk reads it.
    fn proven_table(&self) -> ProvenTable<'_> {
        ProvenTable {
            table: &self.table,
            attacker: self.attacker,
            key_mask: self.key_mask,
            free_first: self.free_first,
        }
    }

    fn out_of_budget(&mut self, stop: &AtomicBool) -> bool {
        if stop.load(Ordering::Relaxed)
            || self.nodes >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Multiple-iterative deepening: expands `pos` until its `pn` reaches `th_pn` or its `dn`
    /// reaches `th_dn` (or the budget ends), and returns its values and whether they are a
    /// disproof that holds only on this path (it went through a repetition or the depth cap;
    /// such a disproof is not stored, and the parent keeps it only while it is expanded).
    fn mid(
        &mut self,
        pos: &mut Position,
        th_pn: u32,
        th_dn: u32,
        ply: usize,
        stop: &AtomicBool,
    ) -> (u32, u32, bool) {
        self.nodes += 1;
        if (self.nodes == 1 || self.nodes.is_multiple_of(CHECK_EVERY)) && self.out_of_budget(stop) {
            return (1, 1, false);
        }
        let key = self.key(pos, ply);
        if let Some(e) = self.table.get(key) {
            if e.pn >= th_pn || e.dn >= th_dn {
                return (e.pn, e.dn, false);
            }
        }
        if ply >= MAX_DEPTH {
            return (INF, 0, true);
        }
        let start_nodes = self.nodes;
        let or_node = pos.to_move() == self.attacker;
        let base = self.children.len();
        let (mut pn, mut dn, path) = match self.expand(pos, key, or_node, ply) {
            Some(settled) => settled,
            None => {
                let end = self.children.len();
                let (mut pn, mut dn);
                loop {
                    // Refresh the children not settled by the rules from the table.
                    for i in base..end {
                        let c = self.children[i];
                        if !c.fixed {
                            if let Some(e) = self.table.get(c.key) {
                                self.children[i].pn = e.pn;
                                self.children[i].dn = e.dn;
                            }
                        }
                    }
                    let kids = &self.children[base..end];
                    let (best, second) = if or_node {
                        pn = kids.iter().map(|c| c.pn).min().unwrap_or(INF);
                        dn = sum(kids.iter().map(|c| c.dn));
                        best_two(kids, |c| c.pn)
                    } else {
                        pn = sum(kids.iter().map(|c| c.pn));
                        dn = kids.iter().map(|c| c.dn).min().unwrap_or(INF);
                        best_two(kids, |c| c.dn)
                    };
                    if pn >= th_pn || dn >= th_dn || self.aborted {
                        break;
                    }
                    let c = self.children[base + best];
                    let (c_th_pn, c_th_dn) = if or_node {
                        (
                            th_pn.min(second.saturating_add(second / 4 + 1)),
                            (th_dn - dn).saturating_add(c.dn).min(INF),
                        )
                    } else {
                        (
                            (th_pn - pn).saturating_add(c.pn).min(INF),
                            th_dn.min(second.saturating_add(second / 4 + 1)),
                        )
                    };
                    let undo = pos.do_move(c.mv);
                    let (cpn, cdn, path) = self.mid(pos, c_th_pn, c_th_dn, ply + 1, stop);
                    pos.undo_move(c.mv, undo);
                    let child = &mut self.children[base + best];
                    child.pn = cpn;
                    child.dn = cdn;
                    if path {
                        child.fixed = true;
                        child.path = true;
                    }
                    if self.aborted {
                        break;
                    }
                }
                // A disproof is path-dependent when it needs a path-dependent child: at an
                // attacker node any of them (all are disproved), at a defender node all the
                // disproving ones.
                let kids = &self.children[base..end];
                let path = dn == 0
                    && if or_node {
                        kids.iter().any(|c| c.path)
                    } else {
                        kids.iter().filter(|c| c.dn == 0).all(|c| c.path)
                    };
                (pn, dn, path)
            }
        };
        self.children.truncate(base);
        if pn == 0 {
            dn = INF;
        } else if dn == 0 {
            pn = INF;
        }
        if !self.aborted && !path {
            let work = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
            if !self.table.store(key, Entry { pn, dn, work }) {
                // The table is full of proofs: a value not stored could not be walked.
                log::debug!("tinue: the table is full of proofs; the search stops");
                self.aborted = true;
            }
        }
        (pn, dn, path)
    }

    /// Pushes the node's children that the position alone does not settle: at an attacker
    /// node its taks (every move for a free first move), at a defender node its moves after
    /// which the attacker cannot win at once. Returns the node's value instead when a child
    /// settles it: the attacker wins at once, or the defender wins or draws at once (or by a
    /// threefold repetition, a value of this path only).
    ///
    /// The children come from the cache of expansions when it has them, except at a defender
    /// node where a child could be a threefold repetition (the cached list leaves out the
    /// moves after which the attacker wins at once, which a threefold would save).
    fn expand(
        &mut self,
        pos: &mut Position,
        key: u64,
        or_node: bool,
        ply: usize,
    ) -> Option<(u32, u32, bool)> {
        // A threefold repetition needs the position twice among the last four plies or more.
        if or_node || pos.reversible_plies() < 3 {
            if let Some(moves) = self.expansions.get(key) {
                self.cached += 1;
                let mut live = std::mem::take(&mut self.live);
                live.clear();
                live.extend_from_slice(moves);
                for &mv in &live {
                    let undo = pos.do_move(mv);
                    self.push_child(pos, mv, ply);
                    pos.undo_move(mv, undo);
                }
                self.live = live;
                return None;
            }
        }
        self.generated += 1;
        let any_move = ply == 0 && self.free_first;
        let attacker = self.attacker;
        // The attacker's road pieces and the empty squares that complete its road (when it has
        // a piece to place there): a defender move that leaves both is no defence.
        let (pieces, squares) = if or_node || pos.pieces_in_reserve(attacker) == 0 {
            (Bitboard::EMPTY, Bitboard::EMPTY)
        } else {
            (pos.road_pieces(attacker), pos.road_squares(attacker))
        };
        let spread_threat = if or_node || !squares.is_empty() {
            Bitboard::EMPTY
        } else {
            spread_threat_squares(pos)
        };
        debug_assert!(
            !or_node || pos.win_in_one_in_play().is_none(),
            "an attacker node where the attacker wins at once"
        );
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        list.clear();
        pos.generate_moves(&mut list);
        let mut live = std::mem::take(&mut self.live);
        live.clear();
        let base = self.children.len();
        let mut settled = None;
        for &mv in list.iter() {
            let untouched =
                !spread_threat.is_empty() && (pos.move_squares(mv) & spread_threat).is_empty();
            let undo = pos.do_move(mv);
            let judged = self.judge(pos, mv, or_node, any_move, pieces, squares, untouched);
            match judged {
                Judged::Live => {
                    live.push(mv);
                    self.push_child(pos, mv, ply);
                }
                Judged::Drop => {}
                Judged::Settles(values) => settled = Some(values),
            }
            pos.undo_move(mv, undo);
            if settled.is_some() {
                break;
            }
        }
        self.move_lists[ply] = list;
        if settled.is_some() {
            self.children.truncate(base);
        } else {
            self.expansions.store(key, &live);
        }
        self.live = live;
        settled
    }

    /// What `mv`, just played from a node of this kind, does: settles the node, is left out
    /// (an attacker move that is neither a win nor a tak, unless `any_move`; a defender move
    /// after which the attacker wins at once), or is a child to search. `spread_kept`: the
    /// defender's move left every square of the attacker's winning spread as it was.
    ///
    /// The attacker never wins at once at its own nodes (the root's win in one is looked for
    /// first, and a defence that leaves one is dropped), so its move makes it no road, and a
    /// wall, which is no road piece and only blocks, makes it no road threat either.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn judge(
        &mut self,
        pos: &mut Position,
        mv: Move,
        or_node: bool,
        any_move: bool,
        pieces: Bitboard,
        squares: Bitboard,
        spread_kept: bool,
    ) -> Judged {
        let result = if or_node {
            pos.result_with_roads(false, !mv.is_placement())
        } else {
            pos.result_after(mv)
        };
        if let Some(result) = result {
            let win = result.winner() == Some(self.attacker);
            return match (or_node, win) {
                (true, true) => Judged::Settles((0, INF, false)),
                (false, false) => Judged::Settles((INF, 0, false)),
                _ => Judged::Drop,
            };
        }
        if or_node {
            // The attacker's move must leave a win in one (a road, or flats).
            if any_move {
                return Judged::Live;
            }
            pos.do_null_move();
            let threat = if mv.places_wall() {
                pos.flat_win_in_one_in_play()
            } else {
                pos.win_in_one_in_play()
            };
            pos.undo_null_move();
            return if threat.is_some() {
                Judged::Live
            } else {
                Judged::Drop
            };
        }
        if pos.is_threefold() {
            return Judged::Settles((INF, 0, true));
        }
        // Still threatened: no road piece of the attacker was covered and a completing square
        // is still empty (a flat there makes a road of a superset of the pieces that made one).
        let kept = !squares.is_empty()
            && (pos.road_pieces(self.attacker) & pieces) == pieces
            && !(squares & pos.empty()).is_empty()
            && !pos.is_opening();
        if kept || spread_kept || pos.win_in_one_in_play().is_some() {
            Judged::Drop
        } else {
            Judged::Live
        }
    }

    /// The proof and disproof numbers of a node not yet expanded, `ply` from the root: larger
    /// deeper down (deep df-pn), so the search finishes shallow lines before it follows long
    /// ones.
    #[inline]
    fn leaf_value(ply: usize) -> u32 {
        1 + ply as u32 / PLIES_PER_LEAF_STEP
    }

    /// Pushes the child reached by `mv` (already played): its values come from the table in
    /// the search loop; a repeated position is no win for the attacker, on this path only.
    #[inline]
    fn push_child(&mut self, pos: &Position, mv: Move, ply: usize) {
        let key = self.key(pos, 1);
        let child = if pos.repetitions() > 0 {
            // A win through a repeated position has a shorter one without it; so the position
            // counts as no win here, a verdict that holds on this path only.
            Child {
                mv,
                key,
                pn: INF,
                dn: 0,
                fixed: true,
                path: true,
            }
        } else {
            let leaf = Solver::leaf_value(ply + 1);
            Child {
                mv,
                key,
                pn: leaf,
                dn: leaf,
                fixed: false,
                path: false,
            }
        };
        self.children.push(child);
    }
}

/// What a move does at the node it is played from (see [`Solver::judge`]).
enum Judged {
    /// A child to search.
    Live,
    /// Left out: no tak, or no defence.
    Drop,
    /// The node's value (pn, dn, path-dependent), settled by this move.
    Settles((u32, u32, bool)),
}

/// At a defender node whose attacker threatens a road by a spread (and by no placement), the
/// squares that spread needs as they are: its origin, the squares it drops on and the road it
/// makes. A defender move that changes none of them leaves the threat as it was, so it is no
/// defence, and the solver need not look for the attacker's road again after it (most of a
/// defender node's moves, and the costliest test of the solver on tall stacks). Empty when the
/// threat is not such a spread.
fn spread_threat_squares(pos: &mut Position) -> Bitboard {
    pos.do_null_move();
    let squares = match pos.road_win_in_play() {
        Some(mv) if !mv.is_placement() => {
            let attacker = pos.to_move();
            let undo = pos.do_move(mv);
            let road = pos.road_pieces(attacker);
            pos.undo_move(mv, undo);
            road | pos.move_squares(mv)
        }
        _ => Bitboard::EMPTY,
    };
    pos.undo_null_move();
    squares
}

/// Whether the line's first move wins or leaves a threat to win at once.
fn starts_with_tak(pos: &mut Position, pv: &[Move]) -> bool {
    let Some(&first) = pv.first() else {
        return false;
    };
    let undo = pos.do_move(first);
    let tak = pos.result().is_some() || pos.opponent_wins_in_one();
    pos.undo_move(first, undo);
    tak
}

/// Sum of proof or disproof numbers: `INF` if any term is, else capped just below it.
#[inline]
fn sum(values: impl Iterator<Item = u32>) -> u32 {
    let mut total: u32 = 0;
    for v in values {
        if v >= INF {
            return INF;
        }
        total = total.saturating_add(v);
    }
    total.min(INF - 1)
}

/// The index of the child with the least `value` and the second least value.
#[inline]
fn best_two(kids: &[Child], value: impl Fn(&Child) -> u32) -> (usize, u32) {
    let mut best = 0;
    let mut best_value = INF;
    let mut second = INF;
    for (i, c) in kids.iter().enumerate() {
        let v = value(c);
        if v < best_value {
            second = best_value;
            best_value = v;
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}
