//! The network's inputs (docs/network.md, "Network inputs"): per square the top piece by kind
//! and owner and the owners of the `depth` pieces under it, then each side's reserves, all
//! from one colour's view. Only colours swap between the two views; the board is not mirrored.

use crate::core::{starting_reserves, Color, PieceKind, Position, Square, Stack};

/// Input indices of one square's top and the pieces under it, before the square's offset.
const TOP_INPUTS: usize = 6;

/// Where each group of inputs starts, for one board size and stack depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputLayout {
    /// Board size N.
    pub size: usize,
    /// Pieces under a top that have inputs of their own.
    pub depth: usize,
    /// Inputs per square, `6 + 2·depth`.
    per_square: usize,
    /// Stones and capstones one player starts with.
    stones: usize,
    caps: usize,
}

impl InputLayout {
    /// The layout of a `size` board with `depth` pieces under each top.
    pub const fn new(size: usize, depth: usize) -> InputLayout {
        let (stones, caps) = starting_reserves(size);
        InputLayout {
            size,
            depth,
            per_square: TOP_INPUTS + 2 * depth,
            stones: stones as usize,
            caps: caps as usize,
        }
    }

    /// Number of inputs: `S·F + 2(stones + 1) + 2(caps + 1)`.
    pub const fn inputs(&self) -> usize {
        self.size * self.size * self.per_square + 2 * (self.stones + 1) + 2 * (self.caps + 1)
    }

    /// The most inputs one view can have active: every piece on the board (a top or one under a
    /// top) plus the four reserve inputs. The overflow bound of the i16 accumulator.
    pub const fn most_active(&self) -> usize {
        2 * (self.stones + self.caps) + 4
    }

    /// One player's full reserve, stones and capstones.
    pub const fn full_reserve(&self) -> usize {
        self.stones + self.caps
    }

    /// The dense board index, `rank · N + file`, of a square.
    #[inline]
    fn board_index(&self, sq: Square) -> usize {
        sq.rank() * self.size + sq.file()
    }

    /// Calls `f` with each input of `view` that a stack of `kind` on top activates at `sq`.
    #[inline]
    pub fn square_inputs(
        &self,
        sq: Square,
        stack: Stack,
        kind: PieceKind,
        view: Color,
        mut f: impl FnMut(usize),
    ) {
        let height = stack.len();
        if height == 0 {
            return;
        }
        let base = self.board_index(sq) * self.per_square;
        let theirs = |color: Color| usize::from(color != view);
        let top = stack.get(height - 1);
        f(base + kind as usize + 3 * theirs(top));
        for d in 0..self.depth.min(height - 1) {
            f(base + TOP_INPUTS + 2 * d + theirs(stack.get(height - 2 - d)));
        }
    }

    /// Calls `f` with the four reserve inputs of `view` for these reserves (stones, capstones
    /// of White and of Black).
    #[inline]
    pub fn reserve_inputs(&self, reserves: Reserves, view: Color, mut f: impl FnMut(usize)) {
        let own = view.index();
        let other = 1 - own;
        let base = self.size * self.size * self.per_square;
        f(base + reserves.stones[own] as usize);
        f(base + self.stones + 1 + reserves.stones[other] as usize);
        let caps = base + 2 * (self.stones + 1);
        f(caps + reserves.caps[own] as usize);
        f(caps + self.caps + 1 + reserves.caps[other] as usize);
    }

    /// Calls `f` with every input of `view` that `pos` activates.
    pub fn position_inputs(&self, pos: &Position, view: Color, mut f: impl FnMut(usize)) {
        for sq in pos.occupied() {
            self.square_inputs(sq, pos.stack(sq), pos.top_kind(sq), view, &mut f);
        }
        self.reserve_inputs(Reserves::of(pos), view, f);
    }
}

/// Both players' reserves, by colour index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reserves {
    /// Stones in reserve, White then Black.
    pub stones: [u8; 2],
    /// Capstones in reserve, White then Black.
    pub caps: [u8; 2],
}

impl Reserves {
    /// The reserves of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Reserves {
        Reserves {
            stones: [Color::White, Color::Black].map(|c| pos.stones(c) as u8),
            caps: [Color::White, Color::Black].map(|c| pos.capstones(c) as u8),
        }
    }
}
