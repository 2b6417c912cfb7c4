//! How the bot is asked to stop: Ctrl-C (SIGINT) presses, counted, and a termination request
//! (SIGTERM, as systemd and `docker stop` send, or SIGHUP), kept apart because they mean
//! different things: Ctrl-C lets the game finish, SIGTERM must end the process within seconds.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// What the bot does with its current game on SIGTERM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnTerm {
    /// Resign the game, then quit: the result is settled at once and the opponent is free.
    #[default]
    Resign,
    /// Close the connection without a word and leave the game to the server's rule for a
    /// player who disconnects (it may wait for the player to come back, then end the game).
    Abandon,
}

impl OnTerm {
    /// From `--on-term`.
    pub fn parse(text: &str) -> Option<OnTerm> {
        match text.to_ascii_lowercase().as_str() {
            "resign" => Some(OnTerm::Resign),
            "abandon" => Some(OnTerm::Abandon),
            _ => None,
        }
    }
}

/// The stop requests, shared between the signal thread (or a test) and the bot.
#[derive(Clone, Debug, Default)]
pub struct StopRequests {
    interrupts: Arc<AtomicUsize>,
    terminated: Arc<AtomicBool>,
}

impl StopRequests {
    /// One Ctrl-C press.
    pub fn interrupt(&self) {
        self.interrupts.fetch_add(1, Ordering::SeqCst);
    }

    /// A termination request (SIGTERM).
    pub fn terminate(&self) {
        self.terminated.store(true, Ordering::SeqCst);
    }

    /// Ctrl-C presses so far.
    pub fn interrupts(&self) -> usize {
        self.interrupts.load(Ordering::SeqCst)
    }

    /// Whether termination was asked for.
    pub fn terminated(&self) -> bool {
        self.terminated.load(Ordering::SeqCst)
    }

    /// Routes this process's signals here: SIGINT counts a press, SIGTERM and SIGHUP (the
    /// terminal is gone, so nobody is left to press Ctrl-C twice) terminate. Call once.
    #[cfg(unix)]
    pub fn install_signal_handlers(&self) -> Result<(), String> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            .map_err(|e| format!("cannot install the signal handlers: {e}"))?;
        let stop = self.clone();
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    log::debug!("signal {signal} received");
                    if signal == SIGINT {
                        stop.interrupt();
                    } else {
                        stop.terminate();
                    }
                }
            })
            .map_err(|e| format!("cannot start the signal thread: {e}"))?;
        Ok(())
    }

    /// Elsewhere only Ctrl-C can be caught (and the console's close, which ctrlc reports the
    /// same way): every event counts as a press.
    #[cfg(not(unix))]
    pub fn install_signal_handlers(&self) -> Result<(), String> {
        let stop = self.clone();
        ctrlc::set_handler(move || stop.interrupt())
            .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presses_count_and_termination_is_apart() {
        let stop = StopRequests::default();
        let seen_by_the_bot = stop.clone();
        stop.interrupt();
        stop.interrupt();
        assert_eq!(seen_by_the_bot.interrupts(), 2);
        assert!(!seen_by_the_bot.terminated());
        stop.terminate();
        assert!(seen_by_the_bot.terminated());
        assert_eq!(OnTerm::parse("Abandon"), Some(OnTerm::Abandon));
        assert_eq!(OnTerm::parse("resign"), Some(OnTerm::Resign));
        assert_eq!(OnTerm::parse("quit"), None);
    }
}
