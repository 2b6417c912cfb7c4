//! The progress bar of a long annotation, on stderr (stdout may carry the PTN).
//!
//! On a terminal one line is redrawn in place, at most ten times a second; otherwise (a log
//! file, a test) a line is written as each game is done, so the log does not fill with bars.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const BAR_WIDTH: usize = 30;
const REDRAW_EVERY: Duration = Duration::from_millis(100);

/// Positions and games done out of the totals, shared by the threads analysing games.
pub struct Progress {
    positions: usize,
    games: usize,
    positions_done: AtomicUsize,
    games_done: AtomicUsize,
    started: Instant,
    /// When the bar was last drawn; also serialises the writes.
    drawn: Mutex<Option<Instant>>,
    terminal: bool,
    enabled: bool,
}

impl Progress {
    /// Progress over `games` games of `positions` positions in all; `enabled` false keeps
    /// it silent.
    pub fn new(positions: usize, games: usize, enabled: bool) -> Progress {
        Progress {
            positions,
            games,
            positions_done: AtomicUsize::new(0),
            games_done: AtomicUsize::new(0),
            started: Instant::now(),
            drawn: Mutex::new(None),
            terminal: std::io::stderr().is_terminal(),
            enabled,
        }
    }

    /// One more position analysed.
    pub fn position_done(&self) {
        self.positions_done.fetch_add(1, Relaxed);
        if self.enabled && self.terminal {
            self.draw(false);
        }
    }

    /// One more game annotated.
    pub fn game_done(&self) {
        let games = self.games_done.fetch_add(1, Relaxed) + 1;
        if !self.enabled {
            return;
        }
        if self.terminal {
            self.draw(true);
        } else {
            let _lock = self.drawn.lock();
            eprintln!(
                "annotate: {games}/{} games, {}/{} positions, {:.1}s",
                self.games,
                self.positions_done.load(Relaxed),
                self.positions,
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    /// Ends the bar's line.
    pub fn finish(&self) {
        if self.enabled && self.terminal {
            self.draw(true);
            eprintln!();
        }
    }

    fn draw(&self, always: bool) {
        let Ok(mut drawn) = self.drawn.lock() else {
            return;
        };
        let now = Instant::now();
        if !always && drawn.is_some_and(|at| now - at < REDRAW_EVERY) {
            return;
        }
        *drawn = Some(now);
        let done = self.positions_done.load(Relaxed);
        eprint!(
            "\r{} {done}/{} positions, {}/{} games, {:.0}s ",
            bar(done, self.positions),
            self.positions,
            self.games_done.load(Relaxed),
            self.games,
            self.started.elapsed().as_secs_f64()
        );
        let _ = std::io::stderr().flush();
    }
}

/// `[#####.....]`: `done` of `total` as a bar of `BAR_WIDTH` cells.
fn bar(done: usize, total: usize) -> String {
    let filled = (done * BAR_WIDTH)
        .checked_div(total)
        .unwrap_or(BAR_WIDTH)
        .min(BAR_WIDTH);
    format!("[{}{}]", "#".repeat(filled), ".".repeat(BAR_WIDTH - filled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_in_proportion() {
        assert_eq!(bar(0, 10), format!("[{}]", ".".repeat(BAR_WIDTH)));
        assert_eq!(
            bar(5, 10),
            format!("[{}{}]", "#".repeat(15), ".".repeat(15))
        );
        assert_eq!(bar(10, 10), format!("[{}]", "#".repeat(BAR_WIDTH)));
        assert_eq!(bar(0, 0), format!("[{}]", "#".repeat(BAR_WIDTH)));
    }
}
