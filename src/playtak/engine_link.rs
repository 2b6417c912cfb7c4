//! The engine behind the bot, on a worker thread of its own so the connection keeps being read
//! (and pinged) while it thinks. Either Menhir's own search in-process (a `tei::Session` whose
//! output lines come back through a channel) or any TEI engine as a child process
//! (`matchrun::engine::Engine`, restarted after a crash). Every wait has a deadline.
//!
//! Pondering: on the opponent's time the worker searches the position after the reply the
//! engine expects (`go infinite`), until the bot wants something else; it then sends `stop`
//! and waits at most [`STOP_GRACE`] for the `bestmove`, which is thrown away. What it gains
//! is a warm engine: the built-in search keeps its table between searches, and a TEI engine
//! keeps whatever it keeps.

use crate::matchrun::engine::{pv_second, ChildEngine, EngineSpec};
use crate::tei::{Output, Session};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long a new game's `isready` may take (the in-process engine allocates its table then).
const READY_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a search told to stop (a ponder search when the opponent's move comes) may take
/// to write its `bestmove`.
pub const STOP_GRACE: Duration = Duration::from_secs(2);
/// Longer than any opponent thinks: a ponder search is stopped by the bot, not by this.
const PONDER_LIMIT: Duration = Duration::from_secs(24 * 3600);

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
    /// The reply the engine expects (PTN, unchecked), to ponder on.
    pub ponder: Option<String>,
}

/// How a ponder search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pondered {
    /// Whether the engine was sent `go infinite` (not when the bot wanted something else
    /// before the worker got to it).
    pub searched: bool,
    /// `info` lines the search wrote (the built-in search's only; 0 for a TEI engine).
    pub infos: u32,
    /// From the moment the bot wanted something else to the search's `bestmove`.
    pub stop_took: Duration,
}

/// Who plays at what strength: `Level` and `LevelSeed` for the built-in search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// 1 to `search::level::FULL_STRENGTH`.
    pub level: u32,
    /// The seed of the level's choices.
    pub seed: u64,
}

impl Default for Strength {
    fn default() -> Strength {
        Strength {
            level: crate::search::level::FULL_STRENGTH,
            seed: 0,
        }
    }
}

/// One request to the worker.
enum Job {
    NewGame {
        size: usize,
        half_komi: i32,
        strength: Strength,
    },
    Think {
        tag: u64,
        position: String,
        go: String,
        limit: Duration,
    },
    Ponder {
        tag: u64,
        position: String,
    },
}

/// One answer from the worker.
pub enum Done {
    /// A new game is set up (or failed to be).
    Ready(Result<(), String>),
    /// The answer to the think request with this tag.
    Thought(u64, Result<Thought, String>),
    /// The end of the ponder search with this tag.
    Pondered(u64, Result<Pondered, String>),
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
                    Job::NewGame {
                        size,
                        half_komi,
                        strength,
                    } => Done::Ready(backend.new_game(size, half_komi, strength)),
                    Job::Think {
                        tag,
                        position,
                        go,
                        limit,
                    } => {
                        let aborted = || worker_wanted.load(Ordering::SeqCst) != tag;
                        Done::Thought(tag, backend.think(&position, &go, limit, &aborted))
                    }
                    Job::Ponder { tag, position } => {
                        let aborted = || worker_wanted.load(Ordering::SeqCst) != tag;
                        Done::Pondered(tag, backend.ponder(&position, &aborted))
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

    /// Sets up a new game and waits for it (bounded). `strength` is for the built-in search;
    /// a TEI engine plays as its `--engine` options say.
    pub fn new_game(
        &mut self,
        size: usize,
        half_komi: i32,
        strength: Strength,
    ) -> Result<(), String> {
        self.abort();
        self.send(Job::NewGame {
            size,
            half_komi,
            strength,
        })?;
        let deadline = Instant::now() + READY_TIMEOUT * 2;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.done.recv_timeout(left) {
                Ok(Done::Ready(result)) => return result,
                // A stale search or ponder finishing.
                Ok(Done::Thought(..) | Done::Pondered(..)) => continue,
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

    /// Searches `position` (the opponent's move expected, or to come) until anything else is
    /// asked for; the end comes from [`EngineLink::poll`] as `Done::Pondered` with the tag.
    pub fn ponder(&mut self, tag: u64, position: String) -> Result<(), String> {
        self.wanted.store(tag, Ordering::SeqCst);
        self.send(Job::Ponder { tag, position })
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

    fn new_game(&mut self, size: usize, half_komi: i32, strength: Strength) -> Result<(), String> {
        match self {
            Backend::InProcess { session, .. } => {
                session.handle_line("stop");
                session.handle_line(&format!("setoption name Level value {}", strength.level));
                session.handle_line(&format!("setoption name LevelSeed value {}", strength.seed));
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
                let mut ponder = None;
                let mut stopped_at: Option<Instant> = None;
                loop {
                    match lines.recv_timeout(Duration::from_millis(20)) {
                        Ok(line) => {
                            if let Some(score) = info_score(&line) {
                                score_cp = Some(score);
                            }
                            if let Some(reply) = pv_second(&line) {
                                ponder = reply;
                            }
                            if let Some(rest) = line.strip_prefix("bestmove") {
                                if stopped_at.is_some() && start.elapsed() > limit {
                                    return Err("the engine did not move in time".into());
                                }
                                return Ok(Thought {
                                    bestmove: rest.trim().to_string(),
                                    score_cp,
                                    ponder,
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
                // Abortable, so a search nobody wants any more (the game ended, the bot was
                // told to terminate) does not hold the worker for the rest of its time.
                match engine.go_abortable(position, go, limit, aborted) {
                    Ok(reply) => Ok(Thought {
                        bestmove: reply.bestmove,
                        score_cp: reply.eval.map(|e| e.score_cp),
                        ponder: reply.ponder,
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
                            .and_then(|_| engine.go_abortable(position, go, left, aborted))
                            .map(|reply| Thought {
                                bestmove: reply.bestmove,
                                score_cp: reply.eval.map(|e| e.score_cp),
                                ponder: reply.ponder,
                            })
                            .map_err(|e| format!("engine '{}' {e} (after a restart)", spec.name))
                    }
                    Err(e) => Err(format!("engine '{}' {e}", spec.name)),
                }
            }
        }
    }

    /// `go infinite` on `position` until `aborted`, then `stop`; the search's answer is thrown
    /// away. Errs when the engine would not search or stop (a TEI engine that does not stop
    /// within `STOP_GRACE` is killed, and started again for the next request).
    fn ponder(&mut self, position: &str, aborted: &dyn Fn() -> bool) -> Result<Pondered, String> {
        // When the bot first wanted something else, as this search saw it.
        let noticed = std::cell::Cell::new(None::<Instant>);
        let watch = || {
            let now_aborted = aborted();
            if now_aborted && noticed.get().is_none() {
                noticed.set(Some(Instant::now()));
            }
            now_aborted
        };
        if watch() {
            return Ok(Pondered {
                searched: false,
                infos: 0,
                stop_took: Duration::ZERO,
            });
        }
        let mut infos = 0;
        let ended = match self {
            Backend::InProcess { session, lines } => {
                while lines.try_recv().is_ok() {}
                session.handle_line(position);
                session.handle_line("go infinite");
                let mut stopped = false;
                loop {
                    match lines.recv_timeout(Duration::from_millis(20)) {
                        Ok(line) if line.starts_with("bestmove") => break Ok(()),
                        Ok(line)
                            if line.starts_with("info ") && !line.starts_with("info string") =>
                        {
                            infos += 1
                        }
                        Ok(line) if line.starts_with("info string error") => {
                            break Err(format!("the engine refused to ponder: {line}"))
                        }
                        Ok(_) | Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => {
                            break Err("the in-process engine has gone".into())
                        }
                    }
                    if !stopped && watch() {
                        session.handle_line("stop");
                        stopped = true;
                    }
                    if noticed.get().is_some_and(|t| t.elapsed() > STOP_GRACE) {
                        break Err("the engine did not stop pondering".into());
                    }
                }
            }
            Backend::External {
                spec, engine, size, ..
            } => match engine.go_abortable(position, "go infinite", PONDER_LIMIT, &watch) {
                Ok(_) => Ok(()),
                Err(e) => {
                    // Killed (or crashed): start it again for the next request.
                    let restarted = engine.new_game(*size);
                    Err(format!(
                        "engine '{}' {e} while pondering{}",
                        spec.name,
                        if restarted.is_ok() { "; restarted" } else { "" }
                    ))
                }
            },
        };
        ended.map(|()| Pondered {
            searched: true,
            infos,
            stop_took: noticed.get().map_or(Duration::ZERO, |t| t.elapsed()),
        })
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
