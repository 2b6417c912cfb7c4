//! Time management: how long one move may take, set before the search (the budgets) and
//! checked between iterations (whether the next one fits).
//!
//! The clock is shared over the moves the game has left, estimated from the position: a Tak
//! game ends when a reserve runs out or the board fills (`moves_left`); `movestogo` wins when
//! given. The soft budget is what the move should take in total: an iteration is started only
//! when it is predicted, from the growth of the last iterations, to end within it. The soft
//! budget is stretched when the best move just changed or the score dropped, and shrunk when
//! the best move has been stable or the move is forced. The hard budget is a safety cap that
//! only a mispredicted iteration reaches. `movetime` is used nearly fully.

use super::params::{
    CLOCK_RESERVE, DEFAULT_GROWTH, FORCED_SHARE, GROWTH_MIN_SAMPLE, GROWTH_RANGE,
    HALF_MOVES_PER_STONE, HARD_OVER_SOFT, INCREMENT_OVERHEAD, INCREMENT_SHARE,
    LAST_MOVE_CLOCK_SHARE, LOW_CLOCK_INCREMENTS, MAX_CLOCK_SHARE, MAX_MOVES_TO_GO, MAX_STRETCH,
    MIN_MOVES_LEFT, MOVES_LEFT_MARGIN, MOVETIME_MARGIN_MIN, MOVETIME_MARGIN_PARTS, MOVE_OVERHEAD,
    SCORE_DROP_STRETCH, SOFT_OVER_SHARE_HALVES, STABILITY_STRETCH,
};
use super::Limits;
use crate::core::{Color, Position};
use std::time::{Duration, Instant};

/// Own moves the game is expected to last from `pos`, for the side to move.
pub fn moves_left(pos: &Position) -> u32 {
    moves_left_for(pos.placements_left())
}

/// Own moves the game is expected to last when the nearer end (a reserve or the empty squares)
/// is `stones` placements away.
pub fn moves_left_for(stones: u32) -> u32 {
    (stones * HALF_MOVES_PER_STONE / 2 + MOVES_LEFT_MARGIN).max(MIN_MOVES_LEFT)
}

/// What the game and the earlier moves tell the time manager about this move.
#[derive(Clone, Copy, Debug)]
pub struct MoveContext {
    /// The side to move, whose clock is used.
    pub side: Color,
    /// Own moves the game is expected to last (`moves_left`).
    pub moves_left: u32,
    /// Added to `CLOCK_RESERVE`: the delays observed on earlier moves.
    pub extra_reserve: Duration,
    /// The largest delay observed on a recent move: in time trouble it comes off the increment
    /// too, since each move costs its budget plus about this much.
    pub lag: Duration,
    /// At most one move does not lose at once: spend little.
    pub forced: bool,
}

impl MoveContext {
    /// The context of a move from `pos` with no delay observed and nothing forced.
    pub fn of(pos: &Position) -> MoveContext {
        MoveContext {
            side: pos.to_move(),
            moves_left: moves_left(pos),
            extra_reserve: Duration::ZERO,
            lag: Duration::ZERO,
            forced: false,
        }
    }
}

/// The budgets of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// `movetime`: iterate until the hard budget, whatever the stability.
    fixed: bool,
    forced: bool,
}

fn movetime_margin(movetime: Duration) -> Duration {
    (movetime / MOVETIME_MARGIN_PARTS).clamp(MOVETIME_MARGIN_MIN, MOVE_OVERHEAD)
}

/// The growth from the iteration before the last (`previous`) to the last (`last`).
pub fn iteration_growth(previous: Duration, last: Duration) -> f64 {
    if previous < GROWTH_MIN_SAMPLE {
        DEFAULT_GROWTH
    } else {
        (last.as_secs_f64() / previous.as_secs_f64()).clamp(GROWTH_RANGE.0, GROWTH_RANGE.1)
    }
}

/// How much to stretch the soft budget: more when the best move just changed or the score
/// dropped, less when the best move has been stable. `stable_iterations` counts the completed
/// iterations since the best move last changed; `drop` is how far the score fell against two
/// iterations before (same parity: Tak scores swing with the side that moved last).
pub fn stretch(stable_iterations: u32, drop: i32) -> f64 {
    let stability = STABILITY_STRETCH
        .iter()
        .find(|&&(most, _)| stable_iterations <= most)
        .map_or(1.0, |&(_, factor)| factor);
    let trend = SCORE_DROP_STRETCH
        .iter()
        .find(|&&(least, _)| drop >= least)
        .map_or(1.0, |&(_, factor)| factor);
    stability * trend
}

impl TimeManager {
    /// The budgets for `limits` in `ctx`, counted from `start`.
    pub fn new(limits: &Limits, ctx: &MoveContext, start: Instant) -> TimeManager {
        let none = TimeManager {
            start,
            soft: None,
            hard: None,
            fixed: false,
            forced: false,
        };
        if limits.infinite {
            return none;
        }
        if let Some(movetime) = limits.movetime {
            let budget = movetime.saturating_sub(movetime_margin(movetime));
            return TimeManager {
                soft: Some(budget),
                hard: Some(budget),
                fixed: true,
                ..none
            };
        }
        let (time, inc) = match ctx.side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return none;
        };
        let inc = inc.unwrap_or_default();
        // A fixed reserve is never spent: with a short clock and a small increment the clock
        // settles about `LOW_CLOCK_INCREMENTS` increments above it, and a reserve that shrank
        // with the clock would leave a few milliseconds against scheduling and pipe delays.
        let usable = time.saturating_sub(CLOCK_RESERVE + ctx.extra_reserve);
        let moves_to_go = limits
            .movestogo
            .unwrap_or(ctx.moves_left)
            .clamp(1, MAX_MOVES_TO_GO);
        let net_inc = inc.saturating_sub(INCREMENT_OVERHEAD);
        // What a move may spend in time trouble and still not lose ground: the increment less
        // the fixed overhead and the delays seen lately (on a busy machine a 5 ms search costs
        // 15-25 ms of clock, and a budget of the whole net increment drained the clock of long
        // 8x8 games by 10 ms a move).
        let trouble_budget = net_inc.saturating_sub(ctx.lag);
        // Moves end when the next iteration would not fit, on average at about two thirds of
        // the soft budget, so the soft budget is half as much again as the clock's share.
        let share = usable / moves_to_go + net_inc * INCREMENT_SHARE.0 / INCREMENT_SHARE.1;
        let ideal = share * SOFT_OVER_SHARE_HALVES / 2;
        let cap = if moves_to_go == 1 {
            usable * LAST_MOVE_CLOCK_SHARE.0 / LAST_MOVE_CLOCK_SHARE.1
        } else {
            usable / MAX_CLOCK_SHARE
        };
        // In time trouble (fewer than `LOW_CLOCK_INCREMENTS` increments above the reserve),
        // live on the increment: only a hard budget below the increment lets the clock climb
        // back.
        let cap = if !net_inc.is_zero() && usable < inc * LOW_CLOCK_INCREMENTS {
            cap.min(trouble_budget)
        } else {
            cap
        };
        let hard = (ideal * HARD_OVER_SOFT)
            .min(cap)
            .max(Duration::from_millis(1));
        TimeManager {
            soft: Some(ideal.min(hard)),
            hard: Some(hard),
            forced: ctx.forced,
            ..none
        }
    }

    /// When the search must stop, if ever.
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.hard.map(|h| self.start + h)
    }

    /// The hard budget, if the search is timed.
    pub fn hard_budget(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether the search stops on its own (a clock or movetime was given).
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// Whether to start another iteration now, one predicted to take `predicted`.
    pub fn next_iteration_fits(&self, predicted: Duration, stretch: f64) -> bool {
        self.fits_after(self.start.elapsed(), predicted, stretch)
    }

    /// `next_iteration_fits` with `elapsed` given: the next iteration must end within the
    /// stretched soft budget (with `movetime`, within the hard one).
    pub fn fits_after(&self, elapsed: Duration, predicted: Duration, stretch: f64) -> bool {
        let (Some(soft), Some(hard)) = (self.soft, self.hard) else {
            return true;
        };
        if elapsed >= hard {
            return false;
        }
        if self.fixed {
            return true;
        }
        let share = if self.forced { FORCED_SHARE } else { 1.0 };
        let budget = soft
            .mul_f64(stretch.clamp(0.0, MAX_STRETCH) * share)
            .min(hard);
        elapsed + predicted <= budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc_ms: u64) -> Limits {
        clock_limits(Duration::from_millis(ms), Duration::from_millis(inc_ms))
    }

    fn ctx(moves_left: u32) -> MoveContext {
        MoveContext {
            side: Color::White,
            moves_left,
            extra_reserve: Duration::ZERO,
            lag: Duration::ZERO,
            forced: false,
        }
    }

    #[test]
    fn movetime_is_used_nearly_fully_never_exceeded() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, &ctx(30), Instant::now());
        let hard = tm.hard.unwrap();
        assert!(hard < Duration::from_millis(1000) && hard >= Duration::from_millis(960));
        // Stability does not end a movetime search early.
        assert!(tm.fits_after(Duration::from_millis(900), Duration::from_secs(5), 0.5));
        assert!(!tm.fits_after(hard, Duration::ZERO, 1.0));
    }

    #[test]
    fn the_game_length_comes_from_the_reserves_and_the_board() {
        let start = Position::start(6).unwrap();
        let six = moves_left(&start);
        assert!((40..=70).contains(&six), "6x6 start: {six}");
        assert!(moves_left(&Position::start(8).unwrap()) > six);
        assert!(moves_left(&Position::start(5).unwrap()) < six);
        // Black has one stone left: the game ends within a move or two, but never below the floor.
        let late = Position::from_tps("x5/x5/x5/x5/x5 1 20").unwrap();
        assert!(moves_left(&late) < six);
        assert_eq!(moves_left_for(0), MIN_MOVES_LEFT.max(MOVES_LEFT_MARGIN));
        // `movestogo` wins over the estimate.
        let mut limits = clock(60_000, 0);
        let estimated = TimeManager::new(&limits, &ctx(50), Instant::now());
        limits.movestogo = Some(5);
        let given = TimeManager::new(&limits, &ctx(50), Instant::now());
        assert!(given.soft.unwrap() > estimated.soft.unwrap() * 5);
    }

    #[test]
    fn an_iteration_starts_only_if_it_is_predicted_to_fit() {
        let tm = TimeManager::new(&clock(60_000, 0), &ctx(40), Instant::now());
        let soft = tm.soft.unwrap();
        assert!(tm.fits_after(soft / 4, soft / 2, 1.0));
        assert!(!tm.fits_after(soft / 4, soft, 1.0));
        // A stretched budget lets it start; a stable best move does not.
        assert!(tm.fits_after(soft / 4, soft, 1.5));
        assert!(!tm.fits_after(soft / 4, soft / 2, 0.6));
        // Never past the hard budget, however stretched.
        let hard = tm.hard.unwrap();
        assert!(!tm.fits_after(hard / 2, hard, 100.0));
        // A forced move takes a tenth.
        let forced = TimeManager::new(
            &clock(60_000, 0),
            &MoveContext {
                forced: true,
                ..ctx(40)
            },
            Instant::now(),
        );
        assert!(!forced.fits_after(soft / 8, soft / 8, 1.0));
        assert!(forced.fits_after(Duration::ZERO, soft / 20, 1.0));
    }

    #[test]
    fn stretch_follows_stability_and_score_drops() {
        assert!(stretch(0, 0) > stretch(1, 0));
        assert!(stretch(1, 0) > stretch(4, 0));
        assert!(stretch(4, 0) > stretch(8, 0));
        assert!(stretch(2, 60) > stretch(2, 25));
        assert!(stretch(2, 25) > stretch(2, -40));
        assert!(stretch(0, 100) <= MAX_STRETCH);
    }

    #[test]
    fn growth_is_measured_once_iterations_are_long_enough() {
        let ms = Duration::from_millis;
        assert_eq!(
            iteration_growth(Duration::from_micros(10), ms(5)),
            DEFAULT_GROWTH
        );
        assert_eq!(iteration_growth(ms(10), ms(30)), 3.0);
        assert_eq!(iteration_growth(ms(10), ms(10)), 1.5);
        assert_eq!(iteration_growth(ms(1), ms(100)), 8.0);
    }

    /// A deterministic stream of numbers in [0, 1) for the game model.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// One move modelled as the search plays it: iterations growing 2–5 times from one to the
    /// next (the growth varies, so predictions miss), the stretch of a best move that changes
    /// now and then, the hard budget ending a mispredicted iteration (one poll interval late),
    /// and the same decisions as `threads::iterate_main`.
    fn model_move(tm: &TimeManager, first: Duration, rng: &mut Lcg) -> Duration {
        let mut elapsed = Duration::ZERO;
        let mut took = first;
        let mut previous = Duration::ZERO;
        let mut stable = 0;
        let hard = tm.hard.unwrap();
        for _depth in 1..40 {
            if elapsed + took > hard {
                return hard + Duration::from_millis(1);
            }
            elapsed += took;
            stable = if rng.next() < 0.25 { 0 } else { stable + 1 };
            let drop = if rng.next() < 0.1 { 30 } else { 0 };
            let predicted = took.mul_f64(iteration_growth(previous, took));
            if !tm.fits_after(elapsed, predicted, stretch(stable, drop)) {
                break;
            }
            previous = took;
            took = took.mul_f64(2.0 + 3.0 * rng.next());
        }
        elapsed
    }

    /// Whole games at 5+0.05, 10+0.1 and 60+0.5 on 5×5, 6×6 and 8×8, as long as long real games
    /// are (own moves: 45 at 5×5, 60 at 6×6, 90 at 8×8, the reserves emptying evenly over them),
    /// each move modelled by `model_move` plus 5 ms of pipe delay. At the midpoint of the game
    /// the clock must still hold 35 % of the base time, no move may pass its hard budget (plus
    /// one poll), no hard budget may pass its share of the clock, and the clock never runs out.
    /// With the old manager (the clock shared over 24 moves, an iteration started whenever the
    /// soft budget was not yet reached, the hard budget four soft ones) the 5×5 5+0.05 clock
    /// held 14 % of the base at the midpoint, and the test failed.
    #[test]
    fn whole_games_keep_a_third_of_the_clock_for_the_second_half() {
        for (size, own_moves, first_us) in [(5usize, 45u32, 300u64), (6, 60, 500), (8, 90, 900)] {
            let stones = {
                let (s, c) = crate::core::starting_reserves(size);
                (s + c) as u32
            };
            for (base_s, inc_ms) in [(5u64, 50u64), (10, 100), (60, 500)] {
                let base = Duration::from_secs(base_s);
                let inc = Duration::from_millis(inc_ms);
                let mut rng = Lcg(size as u64 * 1000 + base_s);
                let mut clock = base;
                let mut at_midpoint = None;
                for k in 0..own_moves {
                    let reserve = stones - stones * k / own_moves;
                    let empty = ((size * size) as u32 * reserve / stones).max(1);
                    let context = ctx(moves_left_for(reserve.min(empty)));
                    let limits = clock_limits(clock, inc);
                    let tm = TimeManager::new(&limits, &context, Instant::now());
                    let hard = tm.hard.unwrap();
                    let usable = clock.saturating_sub(CLOCK_RESERVE);
                    assert!(
                        hard <= (usable / MAX_CLOCK_SHARE).max(Duration::from_millis(1)),
                        "{size}x{size} {base_s}+{inc_ms}: move {k} hard {hard:?} of {clock:?}"
                    );
                    let think = model_move(&tm, Duration::from_micros(first_us), &mut rng);
                    assert!(think <= hard + Duration::from_millis(1));
                    let used = think + Duration::from_millis(5);
                    assert!(used < clock, "{size}x{size} {base_s}+{inc_ms}: flagged");
                    clock = clock - used + inc;
                    if k == own_moves / 2 {
                        at_midpoint = Some(clock);
                    }
                }
                let mid = at_midpoint.unwrap();
                assert!(
                    mid >= base * 35 / 100,
                    "{size}x{size} {base_s}+{inc_ms}: {mid:?} of {base:?} left at the midpoint"
                );
                // The clock is used, not hoarded: no more than the base is left at the end.
                assert!(
                    clock <= base,
                    "{size}x{size} {base_s}+{inc_ms}: {clock:?} left at the end"
                );
            }
        }
    }

    fn clock_limits(clock: Duration, inc: Duration) -> Limits {
        Limits {
            wtime: Some(clock),
            winc: Some(inc),
            ..Limits::default()
        }
    }

    /// Whole fast games on a loaded machine: every move takes its soft budget (its hard one
    /// every fourth move) plus 5 ms of pipe delay, with a 30 ms stall every tenth move. The
    /// clock must never run out.
    #[test]
    fn a_fast_game_with_delays_never_flags() {
        for (start_ms, inc_ms, moves) in [
            (1_000u64, 10u64, 400),
            (1_000, 0, 30),
            (300, 20, 400),
            (10_000, 100, 400),
        ] {
            let mut clock = Duration::from_millis(start_ms);
            let inc = Duration::from_millis(inc_ms);
            for ply in 0..moves {
                let limits = clock_limits(clock, inc);
                // A late middlegame's estimate, kept all game long.
                let tm = TimeManager::new(&limits, &ctx(moves_left_for(10)), Instant::now());
                let think = if ply % 4 == 3 { tm.hard } else { tm.soft }.unwrap();
                let delay = Duration::from_millis(if ply % 10 == 9 { 30 } else { 5 });
                let used = think + delay;
                assert!(
                    used < clock,
                    "{start_ms}+{inc_ms}: ply {ply}, {clock:?} left"
                );
                clock = clock - used + inc;
            }
        }
    }

    /// A long 8×8 game at 1 s + 0.01 s where every move runs to its hard budget and costs 4 ms
    /// more: the clock must settle well above the reserve (so stalls eat that cushion, not the
    /// reserve), and a burst of six 25 ms stalls must not flag.
    #[test]
    fn the_clock_settles_above_the_reserve() {
        let inc = Duration::from_millis(10);
        let mut clock = Duration::from_millis(1_000);
        let mut lowest_settled = clock;
        for ply in 0..400 {
            let limits = clock_limits(clock, inc);
            let tm = TimeManager::new(&limits, &ctx(MIN_MOVES_LEFT), Instant::now());
            let stall = if (300..306).contains(&ply) { 25 } else { 4 };
            let used = tm.hard.unwrap() + Duration::from_millis(stall);
            assert!(used < clock, "ply {ply}: {used:?} used, {clock:?} left");
            clock = clock - used + inc;
            if (200..300).contains(&ply) {
                lowest_settled = lowest_settled.min(clock);
            }
        }
        assert!(
            lowest_settled >= CLOCK_RESERVE + inc * 5,
            "settled at {lowest_settled:?}"
        );
    }

    #[test]
    fn an_observed_delay_enlarges_the_reserve() {
        let limits = clock(1_000, 10);
        let calm = TimeManager::new(&limits, &ctx(30), Instant::now());
        let busy = TimeManager::new(
            &limits,
            &MoveContext {
                extra_reserve: Duration::from_millis(300),
                ..ctx(30)
            },
            Instant::now(),
        );
        assert!(busy.hard.unwrap() < calm.hard.unwrap());
        // The hard budget is a fifth of what is left above the larger reserve.
        assert!(busy.hard.unwrap() <= Duration::from_millis(600) / MAX_CLOCK_SHARE);
    }

    /// In time trouble each move costs its budget plus the delays outside the search; a budget
    /// of the whole net increment let a busy machine drain the clock of long 8x8 games at
    /// 1 s + 0.01 s (`scripts/timesafety.sh` beside a CPU-bound process, 4 losses with under
    /// 30 ms left).
    #[test]
    fn in_time_trouble_the_recent_delay_comes_off_the_increment() {
        let limits = clock(150, 10);
        let calm = TimeManager::new(&limits, &ctx(30), Instant::now());
        assert_eq!(
            calm.hard.unwrap(),
            Duration::from_millis(10) - INCREMENT_OVERHEAD
        );
        let lagging = |lag_ms| MoveContext {
            lag: Duration::from_millis(lag_ms),
            ..ctx(30)
        };
        let busy = TimeManager::new(&limits, &lagging(3), Instant::now());
        assert_eq!(busy.hard.unwrap(), Duration::from_millis(2));
        // A delay as large as the increment leaves the shortest search there is.
        let swamped = TimeManager::new(&limits, &lagging(12), Instant::now());
        assert_eq!(swamped.hard.unwrap(), Duration::from_millis(1));
        // With time to spare the delay changes nothing but the reserve.
        let easy = clock(60_000, 10);
        assert_eq!(
            TimeManager::new(&easy, &lagging(3), Instant::now()).hard,
            TimeManager::new(&easy, &ctx(30), Instant::now()).hard
        );
    }

    #[test]
    fn clock_budgets_stay_inside_the_clock() {
        for ms in [5u64, 50, 300, 2_000, 60_000] {
            for inc in [0u64, 100, 2_000] {
                let limits = Limits {
                    btime: Some(Duration::from_millis(ms)),
                    binc: Some(Duration::from_millis(inc)),
                    ..Limits::default()
                };
                let black = MoveContext {
                    side: Color::Black,
                    ..ctx(30)
                };
                let tm = TimeManager::new(&limits, &black, Instant::now());
                let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
                assert!(soft <= hard, "{ms} {inc}");
                assert!(
                    hard <= Duration::from_millis(ms).max(Duration::from_millis(1)),
                    "{ms}"
                );
                assert!(hard <= Duration::from_millis(ms / 2).max(Duration::from_millis(1)));
            }
        }
        // White's clock is not Black's.
        let limits = Limits {
            btime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        assert!(TimeManager::new(&limits, &ctx(30), Instant::now())
            .hard
            .is_none());
    }
}
