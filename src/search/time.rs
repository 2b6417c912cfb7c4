//! Time management: a soft budget checked between iterations and a hard one inside the search.
//!
//! `movetime` is used nearly fully (soft = hard = movetime minus a small margin for process and
//! pipe delay). With a clock, the soft budget is a share of the remaining time plus most of the
//! increment, stretched when the best move keeps changing and shrunk when it is stable; the
//! hard budget caps any one move at a fraction of the clock, so a game is never lost on time.

use super::Limits;
use crate::core::Color;
use std::time::{Duration, Instant};

/// Kept back from every budget for process start-up, pipes and the GUI.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// Never spent from a clock (tournament managers time the pipe round trip too). With 60 ms,
/// 1 of 536 games at 1 s + 0.01 s was lost on time (8×8, Threads 2, loaded machine: a 23 ms
/// stall with 14 ms left), so it absorbs stalls of up to about 100 ms.
pub const CLOCK_RESERVE: Duration = Duration::from_millis(100);
/// Part of every increment kept back for what a move costs beyond its budget: handing the
/// search to the workers, writing the reply, the manager reading it. Measured at 8×8 with
/// Threads 2 and a 1 ms budget: 2–4 ms median, 9 ms worst. Without it the clock settled right
/// at the reserve and a run of stalls on a busy machine could spend the reserve (1 game in 744
/// at 1 s + 0.01 s).
pub const INCREMENT_OVERHEAD: Duration = Duration::from_millis(5);
/// Below this many increments above the reserve, a move's hard budget is the increment (less
/// `INCREMENT_OVERHEAD`).
pub const LOW_CLOCK_INCREMENTS: u32 = 10;
/// Moves the remaining clock is shared over when `movestogo` is not given.
pub const DEFAULT_MOVES_TO_GO: u32 = 24;
/// The hard budget is at most this many soft budgets.
pub const HARD_OVER_SOFT: u32 = 4;

/// The budgets of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// `movetime`: the budget is not scaled by stability.
    fixed: bool,
}

fn movetime_margin(movetime: Duration) -> Duration {
    (movetime / 20).clamp(Duration::from_millis(2), MOVE_OVERHEAD)
}

impl TimeManager {
    /// The budgets for `limits` with `side` to move, counted from `start`.
    pub fn new(limits: &Limits, side: Color, start: Instant) -> TimeManager {
        let none = TimeManager {
            start,
            soft: None,
            hard: None,
            fixed: false,
        };
        if limits.infinite {
            return none;
        }
        if let Some(movetime) = limits.movetime {
            let budget = movetime.saturating_sub(movetime_margin(movetime));
            return TimeManager {
                start,
                soft: Some(budget),
                hard: Some(budget),
                fixed: true,
            };
        }
        let (time, inc) = match side {
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
        let usable = time.saturating_sub(CLOCK_RESERVE);
        let moves_to_go = limits
            .movestogo
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, 100);
        let net_inc = inc.saturating_sub(INCREMENT_OVERHEAD);
        let ideal = usable / moves_to_go + net_inc * 3 / 4;
        // An iteration started before the soft budget may run to the hard one, so the hard
        // budget is what a move often takes: a quarter of the clock at most.
        let cap = if moves_to_go == 1 {
            usable * 4 / 5
        } else {
            usable / 4
        };
        // In time trouble (fewer than `LOW_CLOCK_INCREMENTS` increments above the reserve),
        // live on the increment: an iteration often runs on to the hard budget, so only a
        // hard budget below the increment lets the clock climb back.
        let cap = if !net_inc.is_zero() && usable < inc * LOW_CLOCK_INCREMENTS {
            cap.min(net_inc)
        } else {
            cap
        };
        let hard = (ideal * HARD_OVER_SOFT)
            .min(cap)
            .max(Duration::from_millis(1));
        let soft = ideal.min(hard);
        TimeManager {
            start,
            soft: Some(soft),
            hard: Some(hard),
            fixed: false,
        }
    }

    /// When the search must stop, if ever.
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.hard.map(|h| self.start + h)
    }

    /// Whether to start no new iteration. `scale` stretches the soft budget (above 1 when the
    /// best move just changed, below 1 when it has been stable).
    pub fn soft_exceeded(&self, scale: f64) -> bool {
        match (self.soft, self.hard) {
            (Some(soft), Some(hard)) => {
                let elapsed = self.start.elapsed();
                let scale = if self.fixed { 1.0 } else { scale };
                elapsed >= hard || elapsed.as_secs_f64() >= soft.as_secs_f64() * scale
            }
            _ => false,
        }
    }

    /// Whether the search stops on its own (a clock or movetime was given).
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_used_nearly_fully_never_exceeded() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, Instant::now());
        let hard = tm.hard.unwrap();
        assert!(hard < Duration::from_millis(1000) && hard >= Duration::from_millis(960));
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
                let limits = Limits {
                    wtime: Some(clock),
                    winc: Some(inc),
                    ..Limits::default()
                };
                let tm = TimeManager::new(&limits, Color::White, Instant::now());
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
            let limits = Limits {
                wtime: Some(clock),
                winc: Some(inc),
                ..Limits::default()
            };
            let tm = TimeManager::new(&limits, Color::White, Instant::now());
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
    fn clock_budgets_stay_inside_the_clock() {
        for ms in [5u64, 50, 300, 2_000, 60_000] {
            for inc in [0u64, 100, 2_000] {
                let limits = Limits {
                    btime: Some(Duration::from_millis(ms)),
                    binc: Some(Duration::from_millis(inc)),
                    ..Limits::default()
                };
                let tm = TimeManager::new(&limits, Color::Black, Instant::now());
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
        assert!(TimeManager::new(&limits, Color::White, Instant::now())
            .hard
            .is_none());
    }
}
