//! The engine behind the bot, on a worker thread of its own so the connection keeps being read
//! (and pinged) while it thinks. Either Menhir's own search in-process (a `tei::Session` whose
//! output lines come back through a channel) or any TEI engine as a child process
//! (`matchrun::engine::Engine`, restarted after a crash). Every wait has a deadline.

use crate::matchrun::engine::{ChildEngine, EngineSpec};
use crate::tei::{Output, Session};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long a new game's `isready` may take (the in-process engine allocates its table then).
const READY_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a search told to stop may take to write its `bestmove`.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Which engine plays.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineChoice {
    /// Menhir's own search in this process.
    InProcess {
        /// Transposition table size in MiB.
        hash_mb: usize,
        /// Search threads.
        threads: usize,
    },
    /// A TEI engine run as a child process (`--engine cmd=...,option.X=...`).
    External(EngineSpec),
}

/// What the engine chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The `bestmove` text (PTN), possibly illegal or malformed: the caller checks it.
    pub bestmove: String,
    /// The last `score cp` (mate scores as ±100000), from the mover's side.
    pub score_cp: Option<i32>,
}

/// One request to the worker.
enum Job {
    NewGame {
        size: usize,
        half_komi: i32,
    },
    Think {
        tag: u64,
        position: String,
        go: String,
        limit: Duration,
    },
}

/// One answer from the worker.
pub enum Done {
    /// A new game is set up (or failed to be).
    Ready(Result<(), String>),
    /// The answer to the think request with this tag.
    Thought(u64, Result<Thought, String>),
}

/// The worker thread and its channels.
pub struct EngineLink {
    jobs: Option<Sender<Job>>,
    done: Receiver<Done>,
    /// The tag of the search wanted now (0: none); a search with another tag stops.
    wanted: Arc<AtomicU64>,
    worker: Option<JoinHandle<()>>,
}

impl EngineLink {
    /// Starts the engine (a child process is started and handshaken at once, so a bad
    /// `--engine` fails here).
    pub fn start(choice: &EngineChoice) -> Result<EngineLink, String> {
        let mut backend = Backend::start(choice)?;
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (done_tx, done) = mpsc::channel();
        let wanted = Arc::new(AtomicU64::new(0));
        let worker_wanted = wanted.clone();
        let worker = thread::spawn(move || {
            for job in job_rx {
                let answer = match job {
                    Job::NewGame { size, half_komi } => {
                        Done::Ready(backend.new_game(size, half_komi))
                    }
                    Job::Think {
                        tag,
                        position,
                        go,
                        limit,
                    } => {
                        let aborted = || worker_wanted.load(Ordering::SeqCst) != tag;
                        Done::Thought(tag, backend.think(&position, &go, limit, &aborted))
                    }
                };
                if done_tx.send(answer).is_err() {
                    break;
                }
            }
            backend.quit();
        });
        Ok(EngineLink {
            jobs: Some(jobs),
            done,
            wanted,
            worker: Some(worker),
        })
    }

    fn send(&self, job: Job) -> Result<(), String> {
        self.jobs
            .as_ref()
            .and_then(|jobs| jobs.send(job).ok())
            .ok_or_else(|| "the engine worker has stopped".to_string())
    }

    /// Sets up a new game and waits for it (bounded).
    pub fn new_game(&mut self, size: usize, half_komi: i32) -> Result<(), String> {
        self.abort();
        self.send(Job::NewGame { size, half_komi })?;
        let deadline = Instant::now() + READY_TIMEOUT * 2;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.done.recv_timeout(left) {
                Ok(Done::Ready(result)) => return result,
                Ok(Done::Thought(..)) => continue, // a stale search finishing
                Err(_) => return Err("the engine did not get ready in time".into()),
            }
        }
    }

    /// Asks for a move; the answer comes from [`EngineLink::poll`] with the same tag.
    pub fn think(
        &mut self,
        tag: u64,
        position: String,
        go: String,
        limit: Duration,
    ) -> Result<(), String> {
        self.wanted.store(tag, Ordering::SeqCst);
        self.send(Job::Think {
            tag,
            position,
            go,
            limit,
        })
    }

    /// Tells a running search to stop (its answer will be stale).
    pub fn abort(&self) {
        self.wanted.store(0, Ordering::SeqCst);
    }

    /// An answer, if one is ready.
    pub fn poll(&mut self) -> Option<Done> {
        self.done.try_recv().ok()
    }
}

impl Drop for EngineLink {
    fn drop(&mut self) {
        self.abort();
        self.jobs.take();
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// The engine the worker drives.
enum Backend {
    InProcess {
        session: Box<Session>,
        lines: Receiver<String>,
    },
    External {
        spec: EngineSpec,
        engine: Box<ChildEngine>,
        half_komi: i32,
        size: usize,
    },
}

impl Backend {
    fn start(choice: &EngineChoice) -> Result<Backend, String> {
        match choice {
            EngineChoice::InProcess { hash_mb, threads } => {
                let (tx, lines) = mpsc::channel::<String>();
                let tx = std::sync::Mutex::new(tx);
                let out: Output = Arc::new(move |line: &str| {
                    if let Ok(tx) = tx.lock() {
                        let _ = tx.send(line.to_string());
                    }
                });
                let mut session = Box::new(Session::new(out));
                session.handle_line(&format!("setoption name Hash value {hash_mb}"));
                session.handle_line(&format!("setoption name Threads value {threads}"));
                let mut backend = Backend::InProcess { session, lines };
                backend.wait_ready()?;
                Ok(backend)
            }
            EngineChoice::External(spec) => {
                let engine = Box::new(
                    ChildEngine::start(spec, 0)
                        .map_err(|e| format!("engine '{}' {e}", spec.name))?,
                );
                Ok(Backend::External {
                    spec: spec.clone(),
                    engine,
                    half_komi: 0,
                    size: 0,
                })
            }
        }
    }

    /// In-process: `isready` and wait for `readyok`, reporting any error line on the way.
    fn wait_ready(&mut self) -> Result<(), String> {
        let Backend::InProcess { session, lines } = self else {
            return Ok(());
        };
        while lines.try_recv().is_ok() {}
        session.handle_line("isready");
        let deadline = Instant::now() + READY_TIMEOUT;
        let mut error = None;
        loop {
            match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) if line == "readyok" => break,
                Ok(line) if line.starts_with("info string error") => error = Some(line),
                Ok(_) => {}
                Err(_) => return Err("the in-process engine did not answer isready".into()),
            }
        }
        error.map_or(Ok(()), Err)
    }

    fn new_game(&mut self, size: usize, half_komi: i32) -> Result<(), String> {
        match self {
            Backend::InProcess { session, .. } => {
                session.handle_line("stop");
                session.handle_line(&format!("teinewgame size {size} halfkomi {half_komi}"));
                self.wait_ready()
            }
            Backend::External {
                spec,
                engine,
                half_komi: current,
                size: current_size,
            } => {
                // The child engine takes komi at its handshake; a new komi means a restart.
                if *current != half_komi {
                    **engine = ChildEngine::start(spec, half_komi)
                        .map_err(|e| format!("engine '{}' {e}", spec.name))?;
                    *current = half_komi;
                }
                *current_size = size;
                engine
                    .new_game(size)
                    .map_err(|e| format!("engine '{}' {e}", spec.name))
            }
        }
    }

    fn think(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
        aborted: &dyn Fn() -> bool,
    ) -> Result<Thought, String> {
        match self {
            Backend::InProcess { session, lines } => {
                if aborted() {
                    return Err("stale search skipped".into());
                }
                while lines.try_recv().is_ok() {}
                session.handle_line(position);
                session.handle_line(go);
                let start = Instant::now();
                let mut score_cp = None;
                let mut stopped_at: Option<Instant> = None;
                loop {
                    match lines.recv_timeout(Duration::from_millis(20)) {
                        Ok(line) => {
                            if let Some(score) = info_score(&line) {
                                score_cp = Some(score);
                            }
                            if let Some(rest) = line.strip_prefix("bestmove") {
                                if stopped_at.is_some() && start.elapsed() > limit {
                                    return Err("the engine did not move in time".into());
                                }
                                return Ok(Thought {
                                    bestmove: rest.trim().to_string(),
                                    score_cp,
                                });
                            }
                            if line.starts_with("info string error") {
                                return Err(format!("the engine refused the search: {line}"));
                            }
                        }
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => {
                            return Err("the in-process engine has gone".into())
                        }
                    }
                    let late = start.elapsed() > limit;
                    if (late || aborted()) && stopped_at.is_none() {
                        session.handle_line("stop");
                        stopped_at = Some(Instant::now());
                    }
                    if stopped_at.is_some_and(|t| t.elapsed() > STOP_GRACE) {
                        return Err("the engine did not stop".into());
                    }
                }
            }
            Backend::External {
                spec, engine, size, ..
            } => {
                if aborted() {
                    return Err("stale search skipped".into());
                }
                let start = Instant::now();
                match engine.go(position, go, limit) {
                    Ok(reply) => Ok(Thought {
                        bestmove: reply.bestmove,
                        score_cp: reply.eval.map(|e| e.score_cp),
                    }),
                    Err(first) if !aborted() => {
                        // A crash costs a restart and one more try within the same time.
                        log::warn!("engine '{}' {first}; restarting it", spec.name);
                        let left = limit.saturating_sub(start.elapsed());
                        if left.is_zero() {
                            return Err(format!("engine '{}' {first}", spec.name));
                        }
                        engine
                            .new_game(*size)
                            .and_then(|_| engine.go(position, go, left))
                            .map(|reply| Thought {
                                bestmove: reply.bestmove,
                                score_cp: reply.eval.map(|e| e.score_cp),
                            })
                            .map_err(|e| format!("engine '{}' {e} (after a restart)", spec.name))
                    }
                    Err(e) => Err(format!("engine '{}' {e}", spec.name)),
                }
            }
        }
    }

    fn quit(&mut self) {
        if let Backend::InProcess { session, .. } = self {
            session.finish();
        }
    }
}

/// The score of an `info` line: `score cp N`, or `score mate N` as ±100000.
fn info_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let at = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(value),
        "mate" => Some(if value >= 0 { 100_000 } else { -100_000 }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::info_score;

    #[test]
    fn scores_from_info_lines() {
        assert_eq!(info_score("info depth 3 score cp -40 pv a1"), Some(-40));
        assert_eq!(
            info_score("info depth 3 score mate -2 pv a1"),
            Some(-100_000)
        );
        assert_eq!(info_score("info string hi"), None);
        assert_eq!(info_score("bestmove a1"), None);
    }
}
