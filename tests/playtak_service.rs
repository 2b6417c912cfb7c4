//! `menhir playtak` as a service (systemd, docker): SIGTERM mid-game ends the real binary
//! within 10 s, resigning the game or (`--on-term abandon`) dropping the connection without a
//! word; Ctrl-C (SIGINT) once finishes the game, twice resigns it; `--max-games` counts
//! finished games only; one log line per game without RUST_LOG.
//! Against the in-process server double (tests/playtak_double), on 127.0.0.1 only.
//! Run: `cargo test --test playtak_service` (needs python3 for the scripted engine, and `kill`).

mod playtak_double;

use menhir::core::RecordResult;
use menhir::playtak::Mode;
use playtak_double::bot::{config, misbehave, run, seek, temp_dir, wait_at_most, RUN_CAP};
use playtak_double::{Double, Scenario};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// What the spec promises for SIGTERM.
const TERM_LIMIT: Duration = Duration::from_secs(10);

fn engine_arg(mode: &str, at: usize) -> String {
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.py");
    format!("cmd={},args=--mode {mode} --at {at}", engine.display())
}

/// The built binary against the double, its stderr read line by line on a thread (so a full
/// pipe never blocks it).
fn spawn_bot(double: &Double, extra: &[&str], engine: &str) -> (Child, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menhir"))
        .args(["playtak", "--server", &double.server_arg(false)])
        .args([
            "--size",
            "5",
            "--half-komi",
            "0",
            "--time",
            "600",
            "--increment",
            "0",
        ])
        .args(["--engine", engine])
        .args(extra)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, lines)
}

/// The bot's stderr once it has exited: up to the end of the pipe, or 5 s, as an engine the
/// bot failed to reap would hold the pipe open.
fn stderr_of(lines: Receiver<String>) -> String {
    let until = Instant::now() + Duration::from_secs(5);
    let mut text = String::new();
    while let Ok(line) = lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// Waits (bounded by `RUN_CAP`) until the bot's first move of game 1 reached the double, read
/// as it comes (`received` waits for the client to settle); the bot must still be running.
fn wait_for_first_move(double: &Double, child: &mut Child) {
    let start = Instant::now();
    while !double
        .observed
        .lock()
        .unwrap()
        .received
        .iter()
        .any(|l| l.starts_with("Game#1 P"))
    {
        assert!(start.elapsed() < RUN_CAP, "the game never started");
        assert!(child.try_wait().unwrap().is_none(), "the bot ended early");
        thread::sleep(Duration::from_millis(20));
    }
}

fn alive(pid: &str) -> bool {
    Command::new("kill")
        .args(["-0", pid])
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// Starts a game whose engine falls silent at its second move with ten minutes on the clock,
/// sends SIGTERM while it thinks, and returns how long the exit took, the status, the
/// bot's stderr and the double.
fn sigterm_mid_game(extra: &[&str]) -> (Option<Duration>, Option<ExitStatus>, String, Double) {
    let double = Double::start(Scenario {
        placements_only: true,
        clock_ms: 600_000,
        ..Scenario::default()
    });
    let (mut child, stderr) = spawn_bot(&double, extra, &engine_arg("silent", 2));
    // The bot plays White in the double's first game: its first move is in, its second is
    // being thought about (forever, by this engine).
    wait_for_first_move(&double, &mut child);
    thread::sleep(Duration::from_millis(300));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let sent = Instant::now();
    // Three times the promise before giving up, so a fault fails in seconds, not minutes.
    let status = wait_at_most(&mut child, TERM_LIMIT * 3);
    let took = status.map(|_| sent.elapsed());
    let stderr = stderr_of(stderr);
    // The scripted engine says its pid; the bot must not leave it running.
    for line in stderr.lines() {
        if let Some(pid) = line.strip_prefix("pid ") {
            if alive(pid.trim()) {
                let _ = Command::new("kill").args(["-KILL", pid.trim()]).status();
                panic!("engine {pid} left running: {stderr}");
            }
        }
    }
    (took, status, stderr, double)
}

#[test]
fn sigterm_mid_game_resigns_and_exits_within_10_s() {
    let (took, status, stderr, double) = sigterm_mid_game(&[]);
    let took = took.unwrap_or_else(|| panic!("still running after SIGTERM: {stderr}"));
    assert!(took < TERM_LIMIT, "SIGTERM took {took:?}: {stderr}");
    assert_eq!(status.unwrap().code(), Some(0), "{stderr}");
    let received = double.received();
    let resign = received.iter().position(|l| l == "Game#1 Resign");
    let resign = resign.unwrap_or_else(|| panic!("no resignation: {received:?}"));
    assert_eq!(received[resign + 1..], ["quit".to_string()]);
    let played = double.games();
    assert_eq!(played.len(), 1);
    assert_eq!(played[0].result, "0-1", "White resigned");
    assert!(stderr.contains("terminated: resigning game 1"), "{stderr}");
}

#[test]
fn sigterm_with_on_term_abandon_drops_the_connection_without_resigning() {
    let (took, status, stderr, double) = sigterm_mid_game(&["--on-term", "abandon"]);
    let took = took.unwrap_or_else(|| panic!("still running after SIGTERM: {stderr}"));
    assert!(took < TERM_LIMIT, "SIGTERM took {took:?}: {stderr}");
    assert_eq!(status.unwrap().code(), Some(0), "{stderr}");
    // The double notices the closed connection on its next read (every 10 ms).
    let start = Instant::now();
    while double.observed.lock().unwrap().dropped_in_game == 0 && start.elapsed() < RUN_CAP {
        thread::sleep(Duration::from_millis(10));
    }
    let observed = double.observed.lock().unwrap();
    assert_eq!(
        observed.dropped_in_game, 1,
        "the game's connection was dropped"
    );
    assert!(
        !observed
            .received
            .iter()
            .any(|l| l.ends_with("Resign") || l == "quit"),
        "{:?}",
        observed.received
    );
    assert!(observed.games.is_empty(), "the game is the server's to end");
    assert!(stderr.contains("leaving game 1 to the server"), "{stderr}");
}

#[test]
fn max_games_counts_only_finished_games() {
    // The server loses the first game in a restart: it comes back recorded `*`, and the bot
    // plays another, finished game before it stops at --max-games 1.
    let double = Double::start(Scenario {
        placements_only: true,
        max_plies: 8,
        drop_after_plies: Some(3),
        forget_game_on_drop: true,
        ..Scenario::default()
    });
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), misbehave("good", 0));
    cfg.max_games = Some(1);
    cfg.resume_wait = Duration::from_millis(500);
    let summary = run(cfg).unwrap();
    let results: Vec<String> = summary.games.iter().map(|g| g.result.to_string()).collect();
    assert_eq!(summary.games.len(), 2, "{results:?}");
    assert_eq!(summary.games[0].result, RecordResult::Unfinished);
    let played = double.games();
    assert_eq!(played.len(), 1);
    assert_eq!(summary.games[1].id, played[0].id);
    assert_eq!(results[1], played[0].result);
    assert_eq!(played[0].plies.len(), 8, "played out to the ply cap");
}

#[test]
fn the_binary_logs_one_line_per_game_by_default() {
    let double = Double::start(Scenario {
        placements_only: true,
        max_plies: 8,
        ..Scenario::default()
    });
    let dir = temp_dir("log-line");
    let dir_arg = dir.display().to_string();
    let (mut child, stderr) = spawn_bot(
        &double,
        &["--max-games", "2", "--ptn-dir", &dir_arg],
        &engine_arg("good", 0),
    );
    let status = wait_at_most(&mut child, RUN_CAP).expect("the bot hung");
    let stderr = stderr_of(stderr);
    assert!(status.success(), "{stderr}");
    for (id, white, black) in [(1, "Guest1", "alice"), (2, "alice", "Guest1")] {
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains(&format!("game {id}:")))
            .collect();
        assert_eq!(lines.len(), 1, "one line for game {id}: {stderr}");
        let line = lines[0];
        assert!(
            line.contains(&format!("{white} vs {black}, 1/2-1/2")),
            "{line}"
        );
        let ptn = line.split("PTN ").nth(1).expect("the PTN file named");
        assert!(ptn.starts_with(&dir_arg), "{line}");
        assert!(Path::new(ptn.trim()).is_file(), "{line}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sigint_once_finishes_the_game_and_twice_resigns_it() {
    for presses in [1, 2] {
        let double = Double::start(Scenario {
            placements_only: true,
            max_plies: 8,
            ..Scenario::default()
        });
        let engine = format!("{} --delay-ms 300", engine_arg("slow", 0));
        let (mut child, stderr) = spawn_bot(&double, &[], &engine);
        wait_for_first_move(&double, &mut child);
        for _ in 0..presses {
            let sent = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status()
                .unwrap();
            assert!(sent.success());
            thread::sleep(Duration::from_millis(50));
        }
        let status = wait_at_most(&mut child, RUN_CAP);
        let stderr = stderr_of(stderr);
        assert_eq!(status.and_then(|s| s.code()), Some(0), "{stderr}");
        let received = double.received();
        assert_eq!(
            received.last().map(String::as_str),
            Some("quit"),
            "{received:?}"
        );
        let played = double.games();
        assert_eq!(played.len(), 1, "no second game: {received:?}");
        if presses == 1 {
            assert_eq!(played[0].result, "1/2-1/2", "played out to the ply cap");
            assert!(stderr.contains("stopping after this game"), "{stderr}");
        } else {
            assert_eq!(played[0].result, "0-1", "White resigned");
            assert!(played[0].plies.len() < 8, "{:?}", played[0]);
        }
    }
}
