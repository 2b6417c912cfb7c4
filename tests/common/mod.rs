//! The harness the engine-process tests share (`tei.rs`, `torture.rs`): the built `menhir` on
//! pipes, a thread that reads its stdout, and waits that each have a deadline. Each test file
//! adds its own helpers (`start`, and what its cases need) in an `impl EngineProcess` of its own.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// A reply that should come at once (generous: debug CI machines can be slow, the machine is
/// shared and tests run in parallel).
pub const PROMPT: Duration = Duration::from_secs(5);

/// The engine under test, with a thread that reads its stdout (so a full pipe never blocks it)
/// and passes on every line, UTF-8 or not. The child is killed when the test ends or fails.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Run on every line read, on the test's thread: the test file's rule for stdout.
    check: fn(&str),
}

impl EngineProcess {
    /// Starts `menhir` without `RUST_LOG` (stdout must stay protocol-only) or `MENHIR_TUNE`
    /// (tuning mode adds options), and stderr discarded.
    pub fn spawn(check: fn(&str)) -> EngineProcess {
        EngineProcess::spawn_with(&[], &[], check)
    }

    /// As `spawn`, with command-line `args` and extra environment variables `env`.
    pub fn spawn_with(args: &[&str], env: &[(&str, &str)], check: fn(&str)) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_menhir"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env_remove("RUST_LOG")
            .env_remove("MENHIR_TUNE")
            .envs(env.iter().copied())
            .spawn()
            .expect("menhir starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            // Bytes, not `lines()`: a line that is not UTF-8 shows up in the test instead of
            // ending the stream.
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8(buffer.clone())
                    .unwrap_or_else(|_| format!("NOT UTF-8: {buffer:?}"));
                if tx.send(line.trim_end_matches('\n').to_string()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        EngineProcess {
            child,
            stdin,
            lines,
            check,
        }
    }

    pub fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, line: &str) {
        self.write(format!("{line}\n").as_bytes());
    }

    /// Closes the engine's stdin: end of input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line within `timeout`, checked; the error tells a timeout from a closed stdout.
    pub fn recv(&self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        let line = self.lines.recv_timeout(timeout)?;
        (self.check)(&line);
        Ok(line)
    }

    /// The next line within `timeout`, checked.
    pub fn next(&self, timeout: Duration) -> Option<String> {
        self.recv(timeout).ok()
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn until(&self, what: &str, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next(left) else {
                panic!("no {what} within {timeout:?}; got {seen:#?}");
            };
            let stop = done(&line);
            seen.push(line);
            if stop {
                return seen;
            }
        }
    }

    /// Lines up to and including the first whose first word is `word`.
    pub fn until_word(&self, word: &str, timeout: Duration) -> Vec<String> {
        self.until(word, timeout, |l| l.split_whitespace().next() == Some(word))
    }

    /// The lines answering everything sent so far, fenced by an `isready`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until_word("readyok", PROMPT);
        lines.pop();
        lines
    }

    /// The exit status, or `None` if the process still runs after `timeout`.
    pub fn exit_within(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
