//! The Tak Engine Interface front end: reads commands, drives the `Searcher`, writes replies.
//!
//! [`run`] is the whole protocol loop over any line source and output closure, so tests can run
//! sessions in process; [`run_stdio`] connects it to stdin and stdout, and [`websocket`] runs
//! the same [`Session`] for each WebSocket connection (`menhir serve`, for PTN Ninja).
//!
//! Choices where TEI is silent (see `shared/spec/tei.md`):
//! - Commands before `tei` are accepted; `tei` may be sent again at any time.
//! - Without `teinewgame`, the game is 5×5 with the `HalfKomi` option's komi; `position tps` takes
//!   its size from the TPS (even if it differs from the game's), `position startpos` from the game.
//! - `teinewgame` without a size keeps the current size; `halfkomi k` inside it also sets the
//!   `HalfKomi` option for later games.
//! - `go` while a search runs is refused with an error line (the running search keeps its single
//!   `bestmove`). `go` on a finished game answers an error line and `bestmove --`.
//! - `go infinite` (or bare `go`) writes `bestmove` only after `stop`, `quit` or end of input.
//! - `d` prints `info string tps <TPS> halfkomi <k>`: the current position, for people and tests.
//! - The search parameters (`search::PARAMS`) are spin options, and the pruning switches
//!   (`search::SWITCHES`) check options, only in tuning mode (`menhir tei --tune` or
//!   `MENHIR_TUNE=1`); otherwise setting one is an unknown option.
//! - Every `info` line has `wdl W D L` (see `search::wdl`); `multipv k` leads the line only when
//!   MultiPV is above 1, so MultiPV 1 output is what it always was; `score mate N` (plies,
//!   negative when losing) replaces `score cp` only with the `ScoreMate` option on.

mod command;
mod info;
mod options;
mod proof_beside;
mod search_handle;
mod session;
pub mod websocket;

pub use command::{parse as parse_command, Command, Start};
pub use info::{format_info, InfoStyle};
pub use search_handle::Output;
pub use session::{Flow, Session, Snapshot};

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

/// Runs a TEI session over `input` lines until `quit` or the end of `input`, writing every reply
/// line through `out`. A running search is stopped (and given a moment to answer) before return.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// let lines = Arc::new(Mutex::new(Vec::<String>::new()));
/// let sink = Arc::clone(&lines);
/// let input = ["tei", "isready", "quit"].map(String::from);
/// menhir::tei::run(input, Arc::new(move |line: &str| sink.lock().unwrap().push(line.into())));
/// let lines = lines.lock().unwrap();
/// assert!(lines[0].starts_with("id name Menhir"));
/// assert_eq!(lines.last().unwrap(), "readyok");
/// ```
pub fn run<I: IntoIterator<Item = String>>(input: I, out: Output) {
    run_session(Session::new(out), input);
}

/// Runs `session` over `input` lines, as [`run`] does.
fn run_session<I: IntoIterator<Item = String>>(mut session: Session, input: I) {
    for line in input {
        if session.handle_line(&line) == Flow::Quit {
            break;
        }
    }
    session.finish();
}

/// The environment variable that starts `menhir tei` in tuning mode when set to `1`.
pub const TUNE_ENV: &str = "MENHIR_TUNE";

/// Speaks TEI on stdin/stdout until `quit` or end of input. With `tune` (`menhir tei --tune`)
/// or `MENHIR_TUNE=1` in the environment, the search parameters are options too (see
/// [`crate::search::PARAMS`]).
pub fn run_stdio(tune: bool) -> Result<(), String> {
    let tuning = tune || std::env::var_os(TUNE_ENV).is_some_and(|v| v == "1");
    if std::io::stdin().is_terminal() {
        eprintln!("menhir: speaking TEI on stdin/stdout; type 'tei' to begin and 'quit' to leave, or run 'menhir --help'");
    }
    let out: Output = Arc::new(|line: &str| {
        // One lock per line keeps lines whole between the input and search threads. A closed
        // stdout is not an error worth dying for: the GUI has gone, and EOF will follow.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    });
    run_session(Session::with_tuning(out, tuning), StdinLines::default());
    Ok(())
}

/// Stdin as lines of text: bytes up to `\n`, decoded leniently (bad UTF-8 becomes U+FFFD, which
/// then fails as an unknown command or move instead of ending the session).
#[derive(Default)]
struct StdinLines {
    buffer: Vec<u8>,
}

impl Iterator for StdinLines {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        self.buffer.clear();
        match std::io::stdin().lock().read_until(b'\n', &mut self.buffer) {
            Ok(0) => None,
            Ok(_) => Some(String::from_utf8_lossy(&self.buffer).into_owned()),
            Err(e) => {
                log::warn!("reading stdin failed: {e}");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::sync::Mutex;
    use std::time::Duration;

    /// A session fed through a channel: replies are collected in order, and `run` returns at
    /// the end of input, after the infinite search has written its `bestmove`.
    #[test]
    fn session_over_a_channel() {
        let lines = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = Arc::clone(&lines);
        let (tx, rx) = channel::<String>();
        let session = std::thread::spawn(move || {
            run(
                rx,
                Arc::new(move |l: &str| sink.lock().unwrap().push(l.into())),
            );
        });
        for line in [
            "teinewgame size 4 halfkomi 2",
            "position startpos moves a1",
            "go",
        ] {
            tx.send(line.into()).unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
        tx.send("isready".into()).unwrap();
        tx.send("d".into()).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        drop(tx);
        session.join().unwrap();
        let lines = lines.lock().unwrap();
        let replies: Vec<&str> = lines
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("info depth"))
            .collect();
        assert_eq!(replies[0], "readyok", "{lines:?}");
        assert_eq!(replies[1], "info string tps x4/x4/x4/2,x3 2 1 halfkomi 2");
        assert!(replies[2].starts_with("bestmove "), "{lines:?}");
        assert_eq!(replies.len(), 3);
    }
}
