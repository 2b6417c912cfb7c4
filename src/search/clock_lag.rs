//! The delay the engine cannot see from inside a search: how much more a manager took off the
//! clock than the search measured (pipes, the manager's own latency, and on a busy machine the
//! process waiting for a core), plus how far the search itself ran past its hard budget (on a
//! busy machine the search threads too wait for a core, and the stop is seen late). Measured
//! from consecutive moves of one side, it enlarges the clock reserve, so the clock keeps a
//! cushion as large as the stalls seen on this machine.

use super::Limits;
use crate::core::Color;
use std::time::Duration;

/// Moves over which the largest delay is remembered.
const WINDOW: usize = 8;
/// The reserve grows by this many times the largest recent delay.
const LAG_FACTOR: u32 = 3;
/// A larger clock gap is not a delay but another game or a GUI setting clocks by hand.
const MAX_LAG: Duration = Duration::from_secs(1);

/// One side's clock as the last timed search saw it.
#[derive(Clone, Copy, Debug)]
struct LastMove {
    side: Color,
    clock: Duration,
    inc: Duration,
    used: Duration,
    /// How far `used` went past the hard budget.
    overrun: Duration,
}

/// Recent clock delays, per engine (cleared with a new game).
#[derive(Clone, Debug, Default)]
pub struct ClockLag {
    last: Option<LastMove>,
    recent: [Duration; WINDOW],
    next: usize,
}

fn side_clock(limits: &Limits, side: Color) -> Option<(Duration, Duration)> {
    let (time, inc) = match side {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    time.map(|t| (t, inc.unwrap_or_default()))
}

impl ClockLag {
    /// Compares the clock `limits` gives `side` now with what the last search of that side
    /// left it: the shortfall is a delay outside the search.
    pub fn observe(&mut self, limits: &Limits, side: Color) {
        let (Some(last), Some((clock, _))) = (self.last, side_clock(limits, side)) else {
            return;
        };
        // The same clock again is a GUI analysing, not a move played.
        if last.side != side || clock == last.clock {
            return;
        }
        let expected = (last.clock + last.inc).saturating_sub(last.used);
        let lag = expected.saturating_sub(clock) + last.overrun;
        if lag < MAX_LAG {
            self.recent[self.next] = lag;
            self.next = (self.next + 1) % WINDOW;
        }
    }

    /// Remembers what a timed search of `side` used against its hard budget, for the next
    /// `observe`.
    pub fn record(&mut self, limits: &Limits, side: Color, used: Duration, hard: Option<Duration>) {
        self.last = side_clock(limits, side).map(|(clock, inc)| LastMove {
            side,
            clock,
            inc,
            used,
            overrun: hard.map_or(Duration::ZERO, |h| used.saturating_sub(h)),
        });
    }

    /// The largest delay of the recent moves.
    pub fn largest(&self) -> Duration {
        self.recent.iter().max().copied().unwrap_or_default()
    }

    /// What to add to the clock reserve.
    pub fn extra_reserve(&self) -> Duration {
        self.largest() * LAG_FACTOR
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = ClockLag::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn white(ms: u64, inc: u64) -> Limits {
        Limits {
            wtime: Some(Duration::from_millis(ms)),
            winc: Some(Duration::from_millis(inc)),
            ..Limits::default()
        }
    }

    #[test]
    fn a_clock_that_fell_more_than_the_search_used_shows_a_delay() {
        let mut lag = ClockLag::default();
        lag.observe(&white(10_000, 100), Color::White);
        assert_eq!(lag.extra_reserve(), Duration::ZERO);
        lag.record(
            &white(10_000, 100),
            Color::White,
            Duration::from_millis(500),
            Some(Duration::from_millis(600)),
        );
        // Expected 10 000 + 100 − 500 = 9 600; the manager gave 9 560: 40 ms lost outside.
        lag.observe(&white(9_560, 100), Color::White);
        assert_eq!(lag.extra_reserve(), Duration::from_millis(40) * LAG_FACTOR);
        // The largest of the last `WINDOW` moves is kept, then forgotten after calm moves.
        let mut clock = 9_560;
        for calm in 1..=WINDOW {
            assert_eq!(lag.extra_reserve(), Duration::from_millis(120), "{calm}");
            lag.record(
                &white(clock, 100),
                Color::White,
                Duration::from_millis(50),
                None,
            );
            clock += 50;
            lag.observe(&white(clock, 100), Color::White);
        }
        assert_eq!(lag.extra_reserve(), Duration::ZERO);
    }

    #[test]
    fn other_sides_games_and_analysis_are_not_delays() {
        let mut lag = ClockLag::default();
        lag.record(
            &white(10_000, 0),
            Color::White,
            Duration::from_millis(100),
            None,
        );
        // Black's clock, the same clock again (analysis), a jump of seconds (another game).
        let black = Limits {
            btime: Some(Duration::from_millis(5_000)),
            ..Limits::default()
        };
        lag.observe(&black, Color::Black);
        lag.observe(&white(10_000, 0), Color::White);
        lag.observe(&white(3_000, 0), Color::White);
        assert_eq!(lag.extra_reserve(), Duration::ZERO);
        lag.observe(&white(9_850, 0), Color::White);
        assert_eq!(lag.extra_reserve(), Duration::from_millis(150));
        lag.clear();
        assert_eq!(lag.extra_reserve(), Duration::ZERO);
    }

    /// A search that ran past its hard budget was kept off the cores (its polls come every
    /// 128 nodes, well under a millisecond): the overrun counts as a delay, on top of what the
    /// manager's clock shows. Seen in `scripts/timesafety.sh` beside a CPU-bound process: a
    /// 4x4 move with a 90 ms budget took 0.26 s by the engine's own clock, and two moves later
    /// another stall lost the game.
    #[test]
    fn a_search_that_overran_its_hard_budget_shows_a_delay() {
        let mut lag = ClockLag::default();
        let hard = Some(Duration::from_millis(90));
        lag.record(
            &white(600, 10),
            Color::White,
            Duration::from_millis(260),
            hard,
        );
        // The manager took 265 ms: 5 ms outside the engine, 170 ms past the budget inside it.
        lag.observe(&white(345, 10), Color::White);
        assert_eq!(lag.extra_reserve(), Duration::from_millis(175) * LAG_FACTOR);
        // A move within its budget adds nothing.
        let mut calm = ClockLag::default();
        calm.record(
            &white(600, 10),
            Color::White,
            Duration::from_millis(80),
            hard,
        );
        calm.observe(&white(530, 10), Color::White);
        assert_eq!(calm.extra_reserve(), Duration::ZERO);
    }
}
