//! The hidden layer kept as an accumulator per colour's view, updated as the search makes moves.
//!
//! One accumulator per ply of the line (a stack, as Stockfish keeps it), so unmaking a move
//! costs nothing: the parent's accumulator is still there. Making a move records what it
//! changed (the stacks of the squares it touched, before and after, and the reserves); the
//! child's accumulator is brought up to date only when the child is evaluated, from the nearest
//! ancestor that has one, so a node cut off before its evaluation costs a few copies of
//! stacks and no row of weights. The updates are `acc += W1[i]` over H lanes, in i16 with
//! wrapping adds (exact whenever the final value fits, which the file's overflow check
//! guarantees), a loop the compiler vectorises.

use super::file::{Network, MAX_HIDDEN};
use super::inputs::{InputLayout, Reserves};
use crate::core::{Color, Move, PieceKind, Position, Square, Stack, MAX_SIZE};
use crate::search::{evaluate, EVAL_LIMIT};

/// The hidden layer of both views. Fixed arrays, so the search never allocates one.
#[derive(Clone)]
pub struct Accumulator {
    views: [[i16; MAX_HIDDEN]; 2],
}

impl Accumulator {
    /// An accumulator of zeros (recomputed before it is read).
    pub fn zeroed() -> Accumulator {
        Accumulator {
            views: [[0; MAX_HIDDEN]; 2],
        }
    }

    /// The hidden values of `color`'s view (the first H lanes are used).
    #[inline]
    pub fn view(&self, color: Color) -> &[i16] {
        &self.views[color.index()]
    }

    /// Computes both views of `pos` from scratch.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        let h = net.hidden;
        for color in [Color::White, Color::Black] {
            let acc = &mut self.views[color.index()][..h];
            acc.copy_from_slice(&net.input_bias);
            net.layout
                .position_inputs(pos, color, |i| add_row(acc, net.input_row(i)));
        }
    }

    /// The evaluation of `pos` (whose accumulator this is), centi-flats, side to move's view.
    #[inline]
    pub fn evaluate(&self, net: &Network, pos: &Position) -> i32 {
        let us = pos.to_move();
        let bucket = net.bucket(pos.placements_left() as usize);
        let out = net.output(self.view(us), self.view(!us), bucket);
        let base = if net.residual { evaluate(pos) } else { 0 };
        (base + out).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

#[inline]
fn add_row(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

#[inline]
fn sub_row(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}

/// A touched square's stack and top kind, before or after a move.
#[derive(Clone, Copy)]
struct SquareState {
    stack: Stack,
    kind: PieceKind,
}

impl SquareState {
    const EMPTY: SquareState = SquareState {
        stack: Stack::EMPTY,
        kind: PieceKind::Flat,
    };

    #[inline]
    fn of(pos: &Position, sq: Square) -> SquareState {
        SquareState {
            stack: pos.stack(sq),
            kind: pos.top_kind(sq),
        }
    }
}

/// The most squares one move touches: the origin and up to `MAX_SIZE` squares it drops on.
const MAX_TOUCHED: usize = MAX_SIZE + 1;

/// What one move changed.
#[derive(Clone, Copy)]
struct Change {
    squares: [Square; MAX_TOUCHED],
    before: [SquareState; MAX_TOUCHED],
    after: [SquareState; MAX_TOUCHED],
    len: usize,
    reserves: [Reserves; 2],
}

impl Change {
    const NONE: Change = Change {
        squares: [Square::from_index_unchecked(0); MAX_TOUCHED],
        before: [SquareState::EMPTY; MAX_TOUCHED],
        after: [SquareState::EMPTY; MAX_TOUCHED],
        len: 0,
        reserves: [Reserves {
            stones: [0; 2],
            caps: [0; 2],
        }; 2],
    };

    /// Applies the change to `acc`, for both views.
    fn apply(&self, net: &Network, acc: &mut Accumulator) {
        let layout: &InputLayout = &net.layout;
        let h = net.hidden;
        for color in [Color::White, Color::Black] {
            let view = &mut acc.views[color.index()][..h];
            for k in 0..self.len {
                let (sq, before, after) = (self.squares[k], self.before[k], self.after[k]);
                layout.square_inputs(sq, before.stack, before.kind, color, |i| {
                    sub_row(view, net.input_row(i))
                });
                layout.square_inputs(sq, after.stack, after.kind, color, |i| {
                    add_row(view, net.input_row(i))
                });
            }
            if self.reserves[0] != self.reserves[1] {
                layout.reserve_inputs(self.reserves[0], color, |i| sub_row(view, net.input_row(i)));
                layout.reserve_inputs(self.reserves[1], color, |i| add_row(view, net.input_row(i)));
            }
        }
    }
}

/// The accumulators of the current line, one per ply, and the change each move made.
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    changes: Vec<Change>,
    /// Whether `accumulators[ply]` is up to date for the line's position at that ply.
    fresh: Vec<bool>,
}

impl AccumulatorStack {
    /// A stack for lines of up to `plies` moves, allocated now.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            accumulators: (0..=plies).map(|_| Accumulator::zeroed()).collect(),
            changes: vec![Change::NONE; plies + 1],
            fresh: vec![false; plies + 1],
        }
    }

    /// A new root: its accumulator is computed at its first evaluation.
    pub fn reset(&mut self) {
        self.fresh[0] = false;
    }

    /// Records the squares `mv` will touch, before it is made at `ply` on `pos`.
    #[inline]
    pub fn before_move(&mut self, ply: usize, pos: &Position, mv: Move) {
        let change = &mut self.changes[ply + 1];
        change.len = 0;
        let size = pos.size();
        let mut sq = mv.square();
        change.squares[0] = sq;
        change.before[0] = SquareState::of(pos, sq);
        change.len = 1;
        if !mv.is_placement() {
            for _ in 0..mv.distance() {
                sq = sq
                    .step(mv.direction(), size)
                    .expect("a legal spread stays on the board");
                change.squares[change.len] = sq;
                change.before[change.len] = SquareState::of(pos, sq);
                change.len += 1;
            }
        }
        change.reserves[0] = Reserves::of(pos);
        self.fresh[ply + 1] = false;
    }

    /// Records what the move recorded by `before_move` left, once it is made (`pos` after it).
    #[inline]
    pub fn after_move(&mut self, ply: usize, pos: &Position) {
        let change = &mut self.changes[ply + 1];
        for k in 0..change.len {
            change.after[k] = SquareState::of(pos, change.squares[k]);
        }
        change.reserves[1] = Reserves::of(pos);
    }

    /// A null move at `ply`: the board is unchanged, only the side to move.
    #[inline]
    pub fn null_move(&mut self, ply: usize, pos: &Position) {
        let change = &mut self.changes[ply + 1];
        change.len = 0;
        change.reserves = [Reserves::of(pos); 2];
        self.fresh[ply + 1] = false;
    }

    /// The evaluation of `pos`, the line's position at `ply`: the accumulator is brought up to
    /// date from the nearest ancestor that has one (or from scratch at the root).
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        let mut base = ply;
        while !self.fresh[base] {
            if base == 0 {
                // No ancestor has one (the root was never evaluated): from scratch.
                self.accumulators[ply].refresh(net, pos);
                self.fresh[ply] = true;
                return self.accumulators[ply].evaluate(net, pos);
            }
            base -= 1;
        }
        for p in base + 1..=ply {
            let (done, rest) = self.accumulators.split_at_mut(p);
            let acc = &mut rest[0];
            let h = net.hidden;
            for color in 0..2 {
                acc.views[color][..h].copy_from_slice(&done[p - 1].views[color][..h]);
            }
            self.changes[p].apply(net, acc);
            self.fresh[p] = true;
        }
        self.accumulators[ply].evaluate(net, pos)
    }

    /// The accumulator of `ply` (up to date only after `evaluate` at that ply).
    pub fn at(&self, ply: usize) -> &Accumulator {
        &self.accumulators[ply]
    }
}
