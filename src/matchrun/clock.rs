//! Time controls and game clocks: `--tc 10+0.1` (base seconds + increment seconds) or a fixed
//! `--movetime`, the `go` command for each, and the deadlines that decide losses on time.

use crate::core::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A game clock: `base` for the whole game, plus `increment` after each move.
    Clock {
        /// Starting time of each side.
        base: Duration,
        /// Added to the mover's clock after each move.
        increment: Duration,
    },
    /// A fixed time per move (`go movetime`).
    MoveTime(Duration),
}

impl FromStr for TimeControl {
    type Err = String;

    /// Parses `BASE+INC` in seconds (`10+0.1`, `60`, `0.5+0`).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |part: &str| -> Result<Duration, String> {
            let value: f64 = part
                .trim()
                .parse()
                .map_err(|_| format!("bad time control '{text}': '{part}' is not seconds"))?;
            if !(0.0..=1e7).contains(&value) {
                return Err(format!(
                    "bad time control '{text}': '{part}' is out of range"
                ));
            }
            Ok(Duration::from_secs_f64(value))
        };
        let base = seconds(base)?;
        if base.is_zero() {
            return Err(format!(
                "bad time control '{text}': the base time must be positive"
            ));
        }
        Ok(TimeControl::Clock {
            base,
            increment: seconds(increment)?,
        })
    }
}

impl fmt::Display for TimeControl {
    /// As PTN's `Clock` tag writes it: `"10:0 +5"` (minutes:seconds +increment seconds), or
    /// `"movetime 100ms"`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            TimeControl::Clock { base, increment } => {
                let secs = base.as_secs_f64();
                let minutes = (secs / 60.0).floor();
                write!(
                    f,
                    "{}:{} +{}",
                    minutes,
                    trim_float(secs - minutes * 60.0),
                    trim_float(increment.as_secs_f64())
                )
            }
            TimeControl::MoveTime(t) => write!(f, "movetime {}ms", t.as_millis()),
        }
    }
}

/// Formats seconds without trailing zeros (`10`, `0.1`).
fn trim_float(x: f64) -> String {
    let text = format!("{x:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Both players' remaining time during one game.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    remaining: [Duration; 2],
}

impl Clock {
    /// A fresh clock for a game.
    pub fn new(control: TimeControl) -> Clock {
        let base = match control {
            TimeControl::Clock { base, .. } => base,
            TimeControl::MoveTime(t) => t,
        };
        Clock {
            control,
            remaining: [base; 2],
        }
    }

    /// The `go` command for the side to move.
    pub fn go_command(&self) -> String {
        match self.control {
            TimeControl::Clock { increment, .. } => format!(
                "go wtime {} btime {} winc {} binc {}",
                self.remaining[0].as_millis(),
                self.remaining[1].as_millis(),
                increment.as_millis(),
                increment.as_millis()
            ),
            TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        }
    }

    /// How long `side` may take for this move before it loses on time. With a fixed move
    /// time, an engine's answer is late only after the grace period too (a move time is a
    /// target that engines overshoot by a little, not a clock).
    pub fn allowed(&self, side: Color, grace: Duration) -> Duration {
        match self.control {
            TimeControl::Clock { .. } => self.remaining[side.index()],
            TimeControl::MoveTime(t) => t + grace,
        }
    }

    /// When a silent engine is killed: its time for this move plus the grace period (with a
    /// fixed move time, the loss-on-time threshold already includes the grace).
    pub fn kill_after(&self, side: Color, grace: Duration) -> Duration {
        match self.control {
            TimeControl::Clock { .. } => self.remaining[side.index()] + grace,
            TimeControl::MoveTime(_) => self.allowed(side, grace),
        }
    }

    /// Charges `used` to `side`; returns false if that exceeded its time (a loss on time).
    /// Otherwise adds the increment.
    pub fn charge(&mut self, side: Color, used: Duration, grace: Duration) -> bool {
        if used > self.allowed(side, grace) {
            return false;
        }
        if let TimeControl::Clock { increment, .. } = self.control {
            let left = &mut self.remaining[side.index()];
            *left = *left - used + increment;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_writes_time_controls() {
        let tc: TimeControl = "90+0.5".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl::Clock {
                base: Duration::from_secs(90),
                increment: Duration::from_millis(500)
            }
        );
        assert_eq!(tc.to_string(), "1:30 +0.5");
        assert_eq!("10".parse::<TimeControl>().unwrap().to_string(), "0:10 +0");
        for bad in ["", "x+1", "10+y", "-1+0", "0+1", "10+-2"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_charges_time_and_adds_increment() {
        let mut clock = Clock::new("1+0.1".parse().unwrap());
        let grace = Duration::from_secs(1);
        assert_eq!(
            clock.go_command(),
            "go wtime 1000 btime 1000 winc 100 binc 100"
        );
        assert!(clock.charge(Color::White, Duration::from_millis(300), grace));
        assert_eq!(
            clock.go_command(),
            "go wtime 800 btime 1000 winc 100 binc 100"
        );
        assert!(!clock.charge(Color::Black, Duration::from_millis(1001), grace));
        let mut fixed = Clock::new(TimeControl::MoveTime(Duration::from_millis(50)));
        assert_eq!(fixed.go_command(), "go movetime 50");
        assert_eq!(
            fixed.kill_after(Color::White, grace),
            Duration::from_millis(1050)
        );
        assert!(fixed.charge(Color::White, Duration::from_millis(900), grace));
        assert!(!fixed.charge(Color::White, Duration::from_millis(1100), grace));
    }
}
