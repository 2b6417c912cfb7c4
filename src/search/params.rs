//! Named search margins and limits, one constant per rule, so tuning touches one file.
//!
//! Each constant is named after the rule it controls (as Ethereal's `search.h`).

/// Deepest ply the search stack is sized for.
pub const MAX_PLY: usize = 128;

/// Extra plies a leaf may search while the side to move faces a road in one ("Tak"):
/// the leaf must find a block, or it sees the loss.
pub const TAK_EXTENSION_PLIES: i32 = 2;

/// Aspiration window half-width in centi-flats, from this depth on.
pub const ASPIRATION_WINDOW: i32 = 40;
/// First depth searched with an aspiration window.
pub const ASPIRATION_DEPTH: i32 = 4;

/// Reverse futility: deepest depth it applies at, and its margin per ply.
pub const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// Margin per ply of remaining depth.
pub const REVERSE_FUTILITY_MARGIN: i32 = 120;

/// Null move: shallowest depth it is tried at.
pub const NULL_MOVE_DEPTH: i32 = 3;
/// Base reduction of the null-move search.
pub const NULL_MOVE_REDUCTION: i32 = 2;
/// Null move only while the side to move keeps at least this many stones: with few stones
/// left, passing is never safe (flat endings are zugzwang-like).
pub const NULL_MOVE_MIN_STONES: u32 = 4;
/// Null move only while at least this many squares are empty.
pub const NULL_MOVE_MIN_EMPTY: u32 = 3;

/// Late-move reductions: shallowest depth they apply at.
pub const LATE_MOVE_REDUCTION_DEPTH: i32 = 3;
/// Moves searched in full before reductions start.
pub const LATE_MOVE_REDUCTION_MOVES: usize = 3;
/// Divisor of `ln(depth) * ln(move index)` in the reduction formula.
pub const LATE_MOVE_REDUCTION_DIVISOR: f64 = 2.0;
/// History points per ply of reduction taken off (good history) or added (bad history):
/// history stays within ±`HISTORY_MAX`, so at most two plies either way.
pub const LATE_MOVE_REDUCTION_HISTORY: i32 = 8_192;

/// Late-move pruning: deepest depth it applies at.
pub const LATE_MOVE_PRUNING_DEPTH: i32 = 4;
/// Moves tried at depth `d` before the rest are skipped: `BASE + FACTOR * d * d`.
pub const LATE_MOVE_PRUNING_BASE: usize = 8;
/// See `LATE_MOVE_PRUNING_BASE`.
pub const LATE_MOVE_PRUNING_FACTOR: usize = 5;

/// History bonus cap (gravity keeps values within ±`HISTORY_MAX`).
pub const HISTORY_MAX: i32 = 16_384;

/// Nodes between polls of the stop flag and the clock. Late 8×8 games have nodes with a
/// thousand moves, where 1024 nodes took over 10 ms: with a 1 ms budget a move then took 14 ms
/// (median, Threads 2) and lost a game on time at 1 s + 0.01 s; with 128 it takes 2.4 ms, and
/// bench nps is unchanged.
pub const POLL_INTERVAL: u64 = 128;

/// Switches for the A/B self-play harness (`examples/selfplay.rs`). Results at 20k nodes a
/// move, 40 games each (sizes 5 and 6, 10 openings, both colours), "on" vs "off":
/// late-move pruning +21 =1 -18, null move +20 =0 -20, reverse futility +21 =2 -17.
/// Late-move reductions lost at 20k nodes (+14 =1 -25) but won at 100k nodes on 5x5
/// (+46 =5 -29, with the history adjustment), and at a real clock (6x6, 5+0.05, 400 games
/// through `scripts/selfplay.sh`) they scored +212 =12 -176, +31 ± 34 Elo, LOS 96.6 %; they
/// take the 6x6 start from depth 8 to depth 10 in 2 s.
///
/// Each other switch against main with that one switch off (60406ed, 6x6, 5+0.05, 300 games,
/// two random opening plies, concurrency 2, `menhir match`): late-move pruning +158 ± 42 Elo
/// (+206 =16 -78), reverse futility +70 ± 40 Elo (+175 =10 -115), null move -12 ± 39 Elo
/// (+138 =14 -148, LOS 28 %). Null move stays on for now: the match cannot tell it from zero,
/// and without it the 6x6 start reaches only depth 9 in 30 s (depth 10 in 2.6 s with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub late_move_reduction: bool,
    /// Reverse futility pruning.
    pub reverse_futility: bool,
    /// Late-move pruning.
    pub late_move_pruning: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            null_move: true,
            late_move_reduction: true,
            reverse_futility: true,
            late_move_pruning: true,
        }
    }
}
