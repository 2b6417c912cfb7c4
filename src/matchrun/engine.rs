//! One TEI engine process as the match runner drives it (tei.md 1.5): spawn, `tei`…`teiok`
//! handshake, options, `teinewgame` + `isready`, `position` + `go` → `bestmove`. Output lines
//! arrive on a reader thread through a channel, so every wait has a deadline and a silent
//! engine is killed instead of hanging the match. Every path that drops a process reaps it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to start (`teiok`) or to answer `isready`. Generous: an
/// engine may allocate a large hash table then.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long `quit` may take before the process is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);
/// How often an abortable `go` asks whether it is still wanted.
const ABORT_POLL: Duration = Duration::from_millis(50);
/// How long an aborted search may take to answer `stop` before the process is killed.
const STOP_WAIT: Duration = Duration::from_secs(2);

/// An engine as given on the command line:
/// `name=new,cmd=target/release/menhir,args=tei --flag,option.Hash=64`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Display name in reports and PTN tags.
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Arguments, split on whitespace.
    pub args: Vec<String>,
    /// TEI options to set, in order.
    pub options: Vec<(String, String)>,
}

impl FromStr for EngineSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            options: Vec::new(),
        };
        for item in text.split(',') {
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!("engine '{text}': '{item}' is not key=value"));
            };
            let (key, value) = (key.trim(), value.trim());
            match key {
                "name" => spec.name = value.to_string(),
                "cmd" => spec.cmd = value.to_string(),
                "args" => spec.args = value.split_whitespace().map(String::from).collect(),
                _ => match key.strip_prefix("option.") {
                    Some(name) if name.eq_ignore_ascii_case("HalfKomi") => {
                        return Err(format!("engine '{text}': set komi with --komi, not {key}"))
                    }
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "engine '{text}': unknown key '{key}' (name, cmd, args, option.NAME)"
                        ))
                    }
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err(format!("engine '{text}': cmd=PROGRAM is required"));
        }
        if spec.name.is_empty() {
            spec.name = spec.cmd.rsplit('/').next().unwrap_or(&spec.cmd).to_string();
        }
        Ok(spec)
    }
}

/// Why an engine did not answer as it should.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// No answer before the deadline; the process has been killed.
    Timeout(String),
    /// The process ended, closed its output, or could not be written to or started.
    Crashed(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            EngineError::Timeout(what) => write!(f, "did not answer in time ({what}), killed"),
            EngineError::Crashed(what) => write!(f, "crashed ({what})"),
        }
    }
}

/// The engine's last `info` with a centi-flat score, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    /// `score cp`.
    pub score_cp: i32,
    /// `depth`, 0 when absent.
    pub depth: u32,
    /// `time` in milliseconds: how long the engine itself thinks it searched. Set beside the
    /// time the manager measured, it tells a search that overran its budget (both long) from
    /// a process that waited for a core or a pipe (only the manager's long).
    pub time_ms: Option<u64>,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The second token of the `bestmove` line (empty when there is none).
    pub bestmove: String,
    /// The last `info` line with a score.
    pub eval: Option<Eval>,
    /// Wall time from sending `position` to reading `bestmove`.
    pub elapsed: Duration,
    /// The reply the engine expects: `bestmove X ponder Y`'s `Y`, else the second move of the
    /// last `info … pv` line (what a pondering bot searches on the opponent's time).
    pub ponder: Option<String>,
}

/// A running process with its input and a channel of output lines (each stamped on arrival).
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Process {
    fn spawn(spec: &EngineSpec) -> Result<Process, EngineError> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| EngineError::Crashed(format!("cannot start '{}': {e}", spec.cmd)))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        let name = spec.name.clone();
        // The thread ends at end of output, which the kill in `Drop` guarantees.
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer).trim().to_string();
                        log::debug!("{name} > {line}");
                        if sender.send((Instant::now(), line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Crashed(format!("cannot write '{line}': {e}")))
    }

    /// The next line before `deadline`.
    fn recv(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<(Instant, String), EngineError> {
        let timeout = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                Err(EngineError::Timeout(format!("waiting for {waiting_for}")))
            }
            Err(RecvTimeoutError::Disconnected) => {
                // The exit status, when already known, says more than "end of output".
                let status = match self.child.try_wait() {
                    Ok(Some(status)) => format!(", {status}"),
                    _ => String::new(),
                };
                Err(EngineError::Crashed(format!(
                    "end of output while waiting for {waiting_for}{status}"
                )))
            }
        }
    }

    /// Reads until a line whose first token is `token`; returns the arrival time and line.
    fn wait_for(
        &mut self,
        token: &str,
        deadline: Instant,
        mut other: impl FnMut(&str),
    ) -> Result<(Instant, String), EngineError> {
        loop {
            let (at, line) = self.recv(deadline, token)?;
            if line.split_whitespace().next() == Some(token) {
                return Ok((at, line));
            }
            other(&line);
        }
    }

    /// Asks the process to quit, then kills it if it has not, and reaps it.
    fn stop(mut self, polite: bool) {
        if polite && self.send("quit").is_ok() {
            let until = Instant::now() + QUIT_WAIT;
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TEI engine that is (re)started on demand and reaped on every path.
pub struct ChildEngine {
    spec: EngineSpec,
    half_komi: i32,
    process: Option<Process>,
    /// The option names the engine listed after `tei`, as it spelled them.
    advertised: Vec<String>,
}

impl ChildEngine {
    /// Starts the engine and sets its options. `half_komi` is sent as `HalfKomi` when it is
    /// not zero or when the engine advertises that option.
    pub fn start(spec: &EngineSpec, half_komi: i32) -> Result<ChildEngine, EngineError> {
        let mut engine = ChildEngine {
            spec: spec.clone(),
            half_komi,
            process: None,
            advertised: Vec::new(),
        };
        engine.ensure_running()?;
        Ok(engine)
    }

    /// The display name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The option names the engine listed in its last handshake.
    pub fn advertised_options(&self) -> &[String] {
        &self.advertised
    }

    /// Sets TEI options from now on: sent at once with `setoption` (they take effect by the
    /// next `isready`, which every game starts with), and again after any restart. A name set
    /// before keeps its place and takes the new value.
    pub fn set_options(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        for (name, value) in options {
            match self.spec.options.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1 = value.clone(),
                None => self.spec.options.push((name.clone(), value.clone())),
            }
        }
        self.with_process(|p| {
            for (name, value) in options {
                p.send(&format!("setoption name {name} value {value}"))?;
            }
            Ok(())
        })
    }

    /// The process id, while the process runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::pid)
    }

    /// Starts the process if it is not running (after a crash or a kill): handshake, options
    /// and `isready`.
    fn ensure_running(&mut self) -> Result<(), EngineError> {
        if self.process.is_some() {
            return Ok(());
        }
        let mut process = Process::spawn(&self.spec)?;
        let result = self.handshake(&mut process);
        match result {
            Ok(advertised) => {
                self.advertised = advertised;
                self.process = Some(process);
                Ok(())
            }
            Err(e) => {
                process.stop(false);
                Err(e)
            }
        }
    }

    /// `tei` … `teiok`, the options, `isready`; returns the advertised option names.
    fn handshake(&self, process: &mut Process) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        process.send("tei")?;
        let mut advertised = Vec::new();
        process.wait_for("teiok", deadline, |line| {
            let mut words = line.split_whitespace();
            if words.next() == Some("option") && words.next() == Some("name") {
                if let Some(name) = words.next() {
                    advertised.push(name.to_string());
                }
            }
        })?;
        for (name, value) in &self.spec.options {
            process.send(&format!("setoption name {name} value {value}"))?;
        }
        let knows_komi = advertised
            .iter()
            .any(|n| n.eq_ignore_ascii_case("HalfKomi"));
        if self.half_komi != 0 || knows_komi {
            process.send(&format!("setoption name HalfKomi value {}", self.half_komi))?;
        }
        process.send("isready")?;
        process.wait_for("readyok", deadline, |_| {})?;
        Ok(advertised)
    }

    /// Runs `f` on the process (starting it first if needed); on any failure the process is
    /// killed so that the next game restarts it.
    fn with_process<T>(
        &mut self,
        f: impl FnOnce(&mut Process) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        self.ensure_running()?;
        let process = self.process.as_mut().expect("running");
        let result = f(process);
        if result.is_err() {
            self.kill();
        }
        result
    }

    /// `teinewgame <size>` and `isready`, waiting for `readyok`.
    pub fn new_game(&mut self, size: usize) -> Result<(), EngineError> {
        self.with_process(|p| {
            p.send(&format!("teinewgame {size}"))?;
            p.send("isready")?;
            p.wait_for("readyok", Instant::now() + STARTUP_TIMEOUT, |_| {})?;
            Ok(())
        })
    }

    /// Sends `position` and `go`, and waits for `bestmove` at most `limit`; a silent engine is
    /// killed at the limit.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<Reply, EngineError> {
        self.go_abortable(position, go, limit, &|| false)
    }

    /// As [`ChildEngine::go`], but `aborted` is asked every 50 ms: once it says yes, the engine
    /// is sent `stop` and given 2 s to answer before it is killed, so whoever waits on the
    /// search (the playtak bot told to terminate) is not held for the rest of a long think.
    pub fn go_abortable(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
        aborted: &dyn Fn() -> bool,
    ) -> Result<Reply, EngineError> {
        self.with_process(|p| {
            let start = Instant::now();
            let mut deadline = start + limit;
            let mut stopped = false;
            p.send(position)?;
            p.send(go)?;
            let mut eval = None;
            let mut expected = None;
            loop {
                let until = deadline.min(Instant::now() + ABORT_POLL);
                let answer = p.wait_for("bestmove", until, |line| {
                    if let Some(e) = parse_info(line) {
                        eval = Some(e);
                    }
                    if let Some(reply) = pv_second(line) {
                        expected = reply;
                    }
                });
                match answer {
                    Ok((at, line)) => {
                        let words: Vec<&str> = line.split_whitespace().collect();
                        let ponder = match words.get(2..4) {
                            Some(["ponder", reply]) => Some(reply.to_string()),
                            _ => expected,
                        };
                        return Ok(Reply {
                            bestmove: words.get(1).unwrap_or(&"").to_string(),
                            eval,
                            elapsed: at.saturating_duration_since(start),
                            ponder,
                        });
                    }
                    Err(EngineError::Timeout(_)) if Instant::now() < deadline => {
                        if !stopped && aborted() {
                            p.send("stop")?;
                            stopped = true;
                            deadline = deadline.min(Instant::now() + STOP_WAIT);
                        }
                    }
                    Err(e) => return Err(e),
                }
            }
        })
    }

    /// Kills and reaps the process at once (it restarts on next use).
    pub fn kill(&mut self) {
        if let Some(process) = self.process.take() {
            process.stop(false);
        }
    }
}

impl Drop for ChildEngine {
    fn drop(&mut self) {
        if let Some(process) = self.process.take() {
            process.stop(true);
        }
    }
}

/// For an `info` line with a `pv`: `Some` of its second move (`None` inside when the line is
/// one move long); `None` for other lines.
pub fn pv_second(line: &str) -> Option<Option<String>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
        return None;
    }
    let at = words.iter().position(|w| *w == "pv")?;
    Some(words.get(at + 2).map(|w| w.to_string()))
}

/// The score and depth of an `info` line with `score cp` (other lines give `None`, as in
/// Racetrack).
fn parse_info(line: &str) -> Option<Eval> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let after = |key: &str| words.iter().position(|w| *w == key).map(|i| i + 1);
    let score = after("score")?;
    if words.get(score) != Some(&"cp") {
        return None;
    }
    let score_cp = words.get(score + 1)?.parse().ok()?;
    let word = |key: &str| after(key).and_then(|i| words.get(i));
    Some(Eval {
        score_cp,
        depth: word("depth").and_then(|d| d.parse().ok()).unwrap_or(0),
        time_ms: word("time").and_then(|t| t.parse().ok()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expected_reply_is_the_pvs_second_move() {
        assert_eq!(
            pv_second("info depth 3 score cp 5 pv a1 b2 c3"),
            Some(Some("b2".into()))
        );
        assert_eq!(pv_second("info depth 1 score cp 5 pv a1"), Some(None));
        assert_eq!(pv_second("info string pv a1 b2"), None);
        assert_eq!(pv_second("info depth 1 score cp 5"), None);
        assert_eq!(pv_second("bestmove a1 ponder b2"), None);
    }

    #[test]
    fn parses_engine_specs() {
        let spec: EngineSpec = "name=new,cmd=target/release/menhir,args=tei -v,option.Hash=64"
            .parse()
            .unwrap();
        assert_eq!(spec.name, "new");
        assert_eq!(spec.cmd, "target/release/menhir");
        assert_eq!(spec.args, ["tei", "-v"]);
        assert_eq!(spec.options, [("Hash".to_string(), "64".to_string())]);
        let bare: EngineSpec = "cmd=/usr/bin/tiltak".parse().unwrap();
        assert_eq!(bare.name, "tiltak");
        for bad in [
            "name=x",
            "cmd=a,foo=1",
            "cmd=a,option.HalfKomi=4",
            "cmd=a,oops",
        ] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_score_and_depth_from_info_lines() {
        let line = "info depth 7 seldepth 5 nodes 2000 score cp -67 time 3 pv b1 c2";
        assert_eq!(
            parse_info(line),
            Some(Eval {
                score_cp: -67,
                depth: 7,
                time_ms: Some(3)
            })
        );
        assert_eq!(
            parse_info("info score cp 5 pv a1").map(|e| (e.depth, e.time_ms)),
            Some((0, None))
        );
        assert_eq!(parse_info("info depth 3 score mate 2"), None);
        assert_eq!(parse_info("info string hello"), None);
        assert_eq!(parse_info("bestmove a1"), None);
    }
}
