//! Named search margins and limits, one per rule, so tuning touches one file.
//!
//! The fixed limits are constants; the margins worth tuning live in [`SearchParams`], described
//! once in [`PARAMS`] (name, default, range), which the TEI options (in tuning mode), `menhir
//! spsa` and docs/training.md all read. Each is named after the rule it controls (as Ethereal's
//! `search.h`). Their history (the matches that set them) is in `STRENGTH.md`.

use std::time::Duration;

/// Deepest ply the search stack is sized for.
pub const MAX_PLY: usize = 128;

/// History bonus cap (gravity keeps values within ±`HISTORY_MAX`).
pub const HISTORY_MAX: i32 = 16_384;

/// Iterations stop this many plies short of `MAX_PLY`, leaving room for the Tak extension.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 8;

/// History bonus of a cutoff at `depth` (and the malus of the moves tried before it):
/// `depth²` capped, scaled.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth).min(HISTORY_BONUS_DEPTH_SQUARED_CAP) * HISTORY_BONUS_SCALE
}

/// `depth²` stops growing the history bonus here (depth 20).
pub const HISTORY_BONUS_DEPTH_SQUARED_CAP: i32 = 400;

/// History points per unit of capped `depth²`.
pub const HISTORY_BONUS_SCALE: i32 = 16;

/// Moves tried before a cutoff move that lose history (the first ones searched).
pub const HISTORY_PENALIZED_MOVES: usize = 32;

/// The null-move search is a ply shallower per this many plies of depth (beyond the base
/// `null_move_reduction`).
pub const NULL_MOVE_DEPTH_PER_PLY: i32 = 4;

/// At PV nodes late-move reductions start this many moves later.
pub const LATE_MOVE_REDUCTION_PV_MOVES: usize = 2;

/// Once the aspiration window's half-width passes this (it doubles on each fail), the
/// window opens fully.
pub const ASPIRATION_GIVE_UP: i32 = 1000;

/// A proven result's line is completed to the end of the game with at most this many nodes of
/// searching (`proven_line.rs`), a fraction of a second; a line not completed within them is
/// reported as unproven.
pub const LINE_COMPLETION_NODES: u64 = 400_000;

/// The completion searches a few plies beyond the distance still claimed, as the main search's
/// reductions may have hidden a longer defence.
pub const LINE_COMPLETION_EXTRA_DEPTH: usize = 4;

/// The completion's own table (MB), so the main search's table is untouched.
pub const LINE_COMPLETION_HASH_MB: usize = 4;

/// A search without a depth limit (analysis, or a node limit) stops deepening once a proven
/// result has stood unchanged this many iterations (analysis then waits for `stop`): deeper iterations of a proven
/// position only repeat it (issue 47: a proven position ran to depth 120 in two seconds).
pub const PROVEN_STABLE_ITERATIONS: u32 = 3;

/// Nodes between polls of the stop flag and the clock: late 8×8 nodes have a thousand moves,
/// so a longer interval overshoots a 1 ms budget.
pub const POLL_INTERVAL: u64 = 128;

// Time management (`time.rs`).

/// Kept back from every `movetime` for process start-up, pipes and the GUI (at most).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// A `movetime` keeps back one part in this many of itself (within the two bounds around it).
pub const MOVETIME_MARGIN_PARTS: u32 = 20;
/// The least kept back from a `movetime`, however short.
pub const MOVETIME_MARGIN_MIN: Duration = Duration::from_millis(2);
/// Never spent from a clock: absorbs stalls of up to about 100 ms (plus the delays observed on
/// earlier moves, `ClockLag`).
pub const CLOCK_RESERVE: Duration = Duration::from_millis(100);
/// Part of every increment kept back for what a move costs beyond its budget (handing the
/// search to the workers, writing the reply, the manager reading it).
pub const INCREMENT_OVERHEAD: Duration = Duration::from_millis(5);
/// Below this many increments above the reserve, a move's hard budget is the increment (less
/// `INCREMENT_OVERHEAD`).
pub const LOW_CLOCK_INCREMENTS: u32 = 10;
/// Own moves expected per stone left (in halves): about one move in three is a spread.
pub const HALF_MOVES_PER_STONE: u32 = 3;
/// Own moves added to the estimate: games are not played to the last stone at once.
pub const MOVES_LEFT_MARGIN: u32 = 10;
/// The clock is never shared over fewer moves than this (without `movestogo`).
pub const MIN_MOVES_LEFT: u32 = 10;
/// `movestogo` (or the estimate) is capped here: the clock is never split finer.
pub const MAX_MOVES_TO_GO: u32 = 200;
/// Share of the net increment a move's clock share adds (numerator, denominator).
pub const INCREMENT_SHARE: (u32, u32) = (3, 4);
/// With one move to go, the hard budget is at most this share of the usable clock.
pub const LAST_MOVE_CLOCK_SHARE: (u32, u32) = (4, 5);
/// The soft budget over the clock's share for one move (in halves): see `TimeManager::new`.
pub const SOFT_OVER_SHARE_HALVES: u32 = 3;
/// The hard budget is at most this many soft budgets.
pub const HARD_OVER_SOFT: u32 = 3;
/// The hard budget is at most this share of the usable clock (one over it).
pub const MAX_CLOCK_SHARE: u32 = 5;
/// The soft budget is stretched at most this much.
pub const MAX_STRETCH: f64 = 2.5;
/// Soft-budget stretch by iterations the best move has held: up to `n` iterations, `factor`.
pub const STABILITY_STRETCH: [(u32, f64); 4] = [(0, 1.5), (2, 1.0), (5, 0.75), (u32::MAX, 0.55)];
/// Soft-budget stretch by the score's drop against two iterations before: at least `d`,
/// `factor` (no stretch below the last).
pub const SCORE_DROP_STRETCH: [(i32, f64); 2] = [(50, 1.5), (20, 1.2)];
/// A forced move (at most one move stops the opponent's road) takes this share of the budget.
pub const FORCED_SHARE: f64 = 0.1;
/// Growth assumed from one iteration to the next when the last ones were too short to tell.
pub const DEFAULT_GROWTH: f64 = 3.0;
/// A measured iteration growth is kept within this range.
pub const GROWTH_RANGE: (f64, f64) = (1.5, 8.0);
/// Iterations shorter than this do not measure the growth (timer and cache noise).
pub const GROWTH_MIN_SAMPLE: Duration = Duration::from_micros(500);

/// The tunable margins and limits of the search. `Default` gives the engine's values (from
/// [`PARAMS`]); the searcher holds one copy and every worker reads it from `Shared`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Aspiration window half-width in centi-flats, from `aspiration_depth` on.
    pub aspiration_window: i32,
    /// First depth searched with an aspiration window.
    pub aspiration_depth: i32,
    /// Reverse futility: deepest depth it applies at.
    pub reverse_futility_depth: i32,
    /// Reverse futility margin per ply of remaining depth.
    pub reverse_futility_margin: i32,
    /// Null move: shallowest depth it is tried at.
    pub null_move_depth: i32,
    /// Base reduction of the null-move search (plus a ply per 4 of depth).
    pub null_move_reduction: i32,
    /// Null move only while the side to move keeps at least this many stones: with few stones
    /// left, passing is never safe (flat endings are zugzwang-like).
    pub null_move_min_stones: i32,
    /// Null move only while at least this many squares are empty.
    pub null_move_min_empty: i32,
    /// Late-move reductions: shallowest depth they apply at (at least 2, so that the
    /// reduction's cap `depth - 2` is never negative).
    pub late_move_reduction_depth: i32,
    /// Moves searched in full before reductions start.
    pub late_move_reduction_moves: i32,
    /// Divisor of `ln(depth) * ln(move index)` in the reduction formula, times 100 (an integer
    /// for the TEI spin option: 200 is 2.0).
    pub late_move_reduction_divisor_100: i32,
    /// History points per ply of reduction taken off (good history) or added (bad history):
    /// history stays within ±`HISTORY_MAX`, so at most two plies either way at 8192.
    pub late_move_reduction_history: i32,
    /// Late-move pruning: deepest depth it applies at.
    pub late_move_pruning_depth: i32,
    /// Moves tried at depth `d` before the rest are skipped: `base + factor * d * d`.
    pub late_move_pruning_base: i32,
    /// See `late_move_pruning_base`.
    pub late_move_pruning_factor: i32,
    /// Extra plies a leaf may search while the side to move faces a road in one ("Tak"): the
    /// leaf must find a block, or it sees the loss.
    pub tak_extension_plies: i32,
    /// Correction history: the largest correction, in centi-flats, either way.
    pub correction_limit: i32,
    /// Correction history: the largest weight of one update, out of 256 (a node of depth `d`
    /// weighs `min(d + 1, this)`).
    pub correction_weight: i32,
}

/// One tunable parameter: its TEI option name, the engine's value, and the range the option
/// accepts (chosen so that no value can break the search: no zero window or divisor, no
/// negative reduction cap).
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The TEI option name (`setoption name <name> value <n>`) and `menhir spsa --params` name.
    pub name: &'static str,
    /// The engine's value.
    pub default: i32,
    /// Smallest accepted value.
    pub min: i32,
    /// Largest accepted value.
    pub max: i32,
    get: fn(&SearchParams) -> i32,
    set: fn(&mut SearchParams, i32),
}

impl ParamSpec {
    /// This parameter's value in `params`.
    pub fn get(&self, params: &SearchParams) -> i32 {
        (self.get)(params)
    }

    /// Sets this parameter in `params` (the caller checks the range).
    pub fn set(&self, params: &mut SearchParams, value: i32) {
        (self.set)(params, value)
    }
}

macro_rules! param {
    ($field:ident, $name:literal, $default:literal, $min:literal..=$max:literal) => {
        ParamSpec {
            name: $name,
            default: $default,
            min: $min,
            max: $max,
            get: |p| p.$field,
            set: |p, v| p.$field = v,
        }
    };
}

/// Every tunable parameter, in the order the TEI options are listed.
pub const PARAMS: [ParamSpec; 18] = [
    param!(aspiration_window, "AspirationWindow", 40, 5..=400),
    param!(aspiration_depth, "AspirationDepth", 4, 2..=12),
    param!(reverse_futility_depth, "ReverseFutilityDepth", 3, 0..=8),
    param!(
        reverse_futility_margin,
        "ReverseFutilityMargin",
        38,
        20..=600
    ),
    param!(null_move_depth, "NullMoveDepth", 3, 1..=10),
    param!(null_move_reduction, "NullMoveReduction", 2, 0..=6),
    param!(null_move_min_stones, "NullMoveMinStones", 4, 0..=20),
    param!(null_move_min_empty, "NullMoveMinEmpty", 3, 0..=20),
    param!(
        late_move_reduction_depth,
        "LateMoveReductionDepth",
        3,
        2..=10
    ),
    param!(
        late_move_reduction_moves,
        "LateMoveReductionMoves",
        3,
        1..=20
    ),
    param!(
        late_move_reduction_divisor_100,
        "LateMoveReductionDivisor100",
        153,
        50..=600
    ),
    param!(
        late_move_reduction_history,
        "LateMoveReductionHistory",
        8192,
        1024..=32768
    ),
    param!(late_move_pruning_depth, "LateMovePruningDepth", 4, 0..=8),
    param!(late_move_pruning_base, "LateMovePruningBase", 3, 1..=40),
    param!(late_move_pruning_factor, "LateMovePruningFactor", 2, 0..=20),
    param!(tak_extension_plies, "TakExtensionPlies", 2, 0..=6),
    param!(correction_limit, "CorrectionLimit", 300, 10..=2000),
    param!(correction_weight, "CorrectionWeight", 16, 1..=128),
];

/// The parameter called `name` (case-insensitive, as TEI option names are).
pub fn find_param(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        let mut params = SearchParams {
            aspiration_window: 0,
            aspiration_depth: 0,
            reverse_futility_depth: 0,
            reverse_futility_margin: 0,
            null_move_depth: 0,
            null_move_reduction: 0,
            null_move_min_stones: 0,
            null_move_min_empty: 0,
            late_move_reduction_depth: 0,
            late_move_reduction_moves: 0,
            late_move_reduction_divisor_100: 0,
            late_move_reduction_history: 0,
            late_move_pruning_depth: 0,
            late_move_pruning_base: 0,
            late_move_pruning_factor: 0,
            tak_extension_plies: 0,
            correction_limit: 0,
            correction_weight: 0,
        };
        for spec in &PARAMS {
            spec.set(&mut params, spec.default);
        }
        params
    }
}

/// Values tuned for one board size (`menhir spsa --size N`, confirmed by a match at that size;
/// STRENGTH.md has both), over [`PARAMS`]' defaults, which were tuned at 6×6. By TEI option
/// name, as `menhir spsa --out` writes them; a size not listed plays the defaults.
pub const TUNED_FOR_SIZE: [(usize, &[(&str, i32)]); 1] = [(
    5,
    // 400 SPSA iterations at 5×5 komi 2, 2+0.02, θ averaged over the last 100.
    &[
        ("ReverseFutilityMargin", 79),
        ("LateMovePruningBase", 10),
        ("LateMovePruningFactor", 0),
        ("LateMoveReductionDivisor100", 137),
    ],
)];

impl SearchParams {
    /// The engine's values on a board of `size`: the defaults, with the values tuned for that
    /// size (if any) over them.
    pub fn for_size(size: usize) -> SearchParams {
        let mut params = SearchParams::default();
        for (_, tuned) in TUNED_FOR_SIZE.iter().filter(|(s, _)| *s == size) {
            for &(name, value) in tuned.iter() {
                let spec = find_param(name).expect("TUNED_FOR_SIZE names a parameter");
                spec.set(&mut params, value);
            }
        }
        params
    }
}

/// Parameters set by hand (tuning mode's options, `menhir spsa`'s perturbations): each set one
/// replaces the engine's value at every size; the others follow [`SearchParams::for_size`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamOverrides([Option<i32>; PARAMS.len()]);

impl ParamOverrides {
    /// Sets parameter `index` of [`PARAMS`] to `value` (the caller checks the range).
    pub fn set(&mut self, index: usize, value: i32) {
        self.0[index] = Some(value);
    }

    /// The parameters a search on a board of `size` uses.
    pub fn at_size(&self, size: usize) -> SearchParams {
        let mut params = SearchParams::for_size(size);
        for (spec, value) in PARAMS.iter().zip(self.0) {
            if let Some(value) = value {
                spec.set(&mut params, value);
            }
        }
        params
    }
}

/// The pruning rules' on/off switches, all on: an A/B match turns one off in one engine
/// (tuning mode's check options, [`SWITCHES`]). Their match results are in `STRENGTH.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PruningSwitches {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub late_move_reduction: bool,
    /// Reverse futility pruning.
    pub reverse_futility: bool,
    /// Late-move pruning.
    pub late_move_pruning: bool,
    /// Correction history: the static evaluation the pruning rules read is corrected by what
    /// searches of positions where either colour tops the same squares found (`correction.rs`).
    pub correction_history: bool,
    /// The "improving" flag: when the side to move's corrected evaluation is above its value two
    /// plies earlier, reverse futility takes a ply off its margin and late-move pruning and
    /// reductions are a step less aggressive.
    pub improving: bool,
}

impl Default for PruningSwitches {
    fn default() -> PruningSwitches {
        PruningSwitches {
            null_move: true,
            late_move_reduction: true,
            reverse_futility: true,
            late_move_pruning: true,
            correction_history: true,
            improving: true,
        }
    }
}

/// One pruning switch as a TEI option (tuning mode only, like [`PARAMS`]): a check option with
/// the engine's setting as its default, so an A/B match can turn one rule off (or a rule under
/// test on) in one engine (`args=tei --tune,option.CorrectionHistory=false`).
#[derive(Clone, Copy, Debug)]
pub struct SwitchSpec {
    /// The TEI option name.
    pub name: &'static str,
    get: fn(&PruningSwitches) -> bool,
    set: fn(&mut PruningSwitches, bool),
}

impl SwitchSpec {
    /// Whether this switch is on in `switches`.
    pub fn get(&self, switches: &PruningSwitches) -> bool {
        (self.get)(switches)
    }

    /// Turns this switch on or off in `switches`.
    pub fn set(&self, switches: &mut PruningSwitches, on: bool) {
        (self.set)(switches, on)
    }
}

macro_rules! switch {
    ($field:ident, $name:literal) => {
        SwitchSpec {
            name: $name,
            get: |f| f.$field,
            set: |f, on| f.$field = on,
        }
    };
}

/// Every pruning switch, in the order the TEI options are listed (after [`PARAMS`]).
pub const SWITCHES: [SwitchSpec; 6] = [
    switch!(null_move, "NullMove"),
    switch!(late_move_reduction, "LateMoveReduction"),
    switch!(reverse_futility, "ReverseFutility"),
    switch!(late_move_pruning, "LateMovePruning"),
    switch!(correction_history, "CorrectionHistory"),
    switch!(improving, "Improving"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_in_range_and_names_unique() {
        let params = SearchParams::default();
        for (i, spec) in PARAMS.iter().enumerate() {
            assert!(
                spec.min <= spec.default && spec.default <= spec.max,
                "{}",
                spec.name
            );
            assert_eq!(spec.get(&params), spec.default, "{}", spec.name);
            for other in &PARAMS[i + 1..] {
                assert!(!spec.name.eq_ignore_ascii_case(other.name), "{}", spec.name);
            }
        }
        assert_eq!(find_param("nullmovedepth").unwrap().name, "NullMoveDepth");
        let switches = PruningSwitches::default();
        for (i, spec) in SWITCHES.iter().enumerate() {
            // A switch that stays off is removed (STRENGTH.md keeps its history): all are on.
            assert!(spec.get(&switches), "{}", spec.name);
            for other in SWITCHES[i + 1..]
                .iter()
                .map(|f| f.name)
                .chain(PARAMS.map(|p| p.name))
            {
                assert!(!spec.name.eq_ignore_ascii_case(other), "{}", spec.name);
            }
        }
        assert!(find_param("MaxPly").is_none());
    }

    #[test]
    fn tuned_values_name_parameters_in_range_once() {
        for (i, (size, tuned)) in TUNED_FOR_SIZE.iter().enumerate() {
            assert!((3..=8).contains(size));
            assert!(TUNED_FOR_SIZE[i + 1..].iter().all(|(s, _)| s != size));
            for (j, &(name, value)) in tuned.iter().enumerate() {
                let spec = find_param(name).unwrap_or_else(|| panic!("{name}"));
                assert!(spec.min <= value && value <= spec.max, "{name}");
                assert!(tuned[j + 1..].iter().all(|(other, _)| other != &name));
                assert_eq!(spec.get(&SearchParams::for_size(*size)), value, "{name}");
            }
        }
    }

    #[test]
    fn overrides_win_at_every_size_and_the_rest_follow_the_size() {
        let index = PARAMS
            .iter()
            .position(|p| p.name == "LateMovePruningBase")
            .unwrap();
        let mut overrides = ParamOverrides::default();
        assert_eq!(overrides.at_size(6), SearchParams::for_size(6));
        overrides.set(index, 7);
        for size in 3..=8 {
            let params = overrides.at_size(size);
            assert_eq!(params.late_move_pruning_base, 7);
            let mut expected = SearchParams::for_size(size);
            expected.late_move_pruning_base = 7;
            assert_eq!(params, expected);
        }
    }

    /// Each entry reads and writes its own field and no other (a copied macro line with the
    /// wrong field would fail here).
    #[test]
    fn each_entry_owns_one_field() {
        for spec in &PARAMS {
            let mut params = SearchParams::default();
            spec.set(&mut params, spec.default + 1);
            for other in &PARAMS {
                let expected = other.default + i32::from(other.name == spec.name);
                assert_eq!(
                    other.get(&params),
                    expected,
                    "{} then {}",
                    spec.name,
                    other.name
                );
            }
        }
        for spec in &SWITCHES {
            let default = PruningSwitches::default();
            let mut switches = default;
            spec.set(&mut switches, !spec.get(&default));
            for other in &SWITCHES {
                assert_eq!(
                    other.get(&switches),
                    other.get(&default) != (other.name == spec.name),
                    "{}",
                    spec.name
                );
            }
        }
    }
}
