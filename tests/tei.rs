//! TEI sessions against the built `menhir` binary over pipes: handshake, options, every class of
//! bad input (one `info string error:` line, state kept, next command answered), `go` limits,
//! `stop`/`quit`/end of input mid-search, a clean stdout under `RUST_LOG=debug`, and the exact
//! command sequences of Racetrack and PTN Ninja. Run with `cargo test --test tei`.
//!
//! Positions are checked with Menhir's debug command `d` (`info string tps <TPS> halfkomi <k>`);
//! best moves are checked for legality with the library, not for quality (the search is tested
//! elsewhere).

mod common;

use common::{EngineProcess, PROMPT};
use menhir::core::Position;
use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// This file's helpers on the shared harness.
impl EngineProcess {
    /// The engine with no rule for its stdout beyond what each case asserts.
    fn start() -> EngineProcess {
        EngineProcess::spawn(|_| {})
    }

    /// The current position as `d` prints it.
    fn shown(&mut self) -> String {
        self.send("d");
        let lines = self.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        lines[0].clone()
    }

    /// Sends a `go`, returns its lines up to `bestmove`, and checks their shape.
    fn go(&mut self, go: &str, timeout: Duration) -> Vec<String> {
        self.send(go);
        let lines = self.until_word("bestmove", timeout);
        check_search_output(&lines);
        lines
    }
}

/// The `d` line of a position.
fn shows(tps: &str, half_komi: i32) -> String {
    format!("info string tps {tps} halfkomi {half_komi}")
}

/// Info lines with `score cp`, and the line right before `bestmove` is such a line.
fn check_search_output(lines: &[String]) {
    let (last, infos) = lines.split_last().unwrap();
    assert!(last.starts_with("bestmove "), "{lines:?}");
    assert!(!infos.is_empty(), "no info line before bestmove: {lines:?}");
    let final_info = infos.last().unwrap();
    assert!(
        final_info.starts_with("info depth ") && final_info.contains(" score cp "),
        "the line before bestmove is not a final info line: {lines:?}"
    );
    for line in infos {
        assert!(line.starts_with("info "), "{line}");
        if let Some(at) = line.find(" pv") {
            let after = &line[at + 3..];
            for keyword in ["depth", "score", "nodes", "time", "nps", "hashfull"] {
                assert!(!after.contains(keyword), "pv is not last: {line}");
            }
        }
    }
}

/// The move of a `bestmove` line, checked legal in `pos`.
fn legal_bestmove(lines: &[String], pos: &Position) -> String {
    let last = lines.last().unwrap();
    let mv = last
        .split_whitespace()
        .nth(1)
        .expect("a move after bestmove");
    pos.parse_move(mv)
        .unwrap_or_else(|e| panic!("bestmove {mv} in {}: {e}", pos.to_tps()));
    mv.to_string()
}

fn position(size: usize, moves: &str) -> Position {
    let mut pos = Position::start(size).unwrap();
    for text in moves.split_whitespace() {
        let mv = pos.parse_move(text).unwrap();
        pos.do_move(mv);
    }
    pos
}

#[test]
fn handshake_transcript() {
    let mut engine = EngineProcess::start();
    engine.send("tei");
    let lines = engine.until_word("teiok", PROMPT);
    let expected = [
        format!("id name Menhir {}", env!("CARGO_PKG_VERSION")),
        "id author the Menhir developers".to_string(),
        "option name HalfKomi type spin default 0 min -10 max 10".to_string(),
        "option name Threads type spin default 1 min 1 max 256".to_string(),
        "option name Hash type spin default 64 min 1 max 65536".to_string(),
        "option name MultiPV type spin default 1 min 1 max 64".to_string(),
        "option name ScoreMate type check default false".to_string(),
        "option name ScoreSolved type check default false".to_string(),
        "option name EvalFile type string default <builtin>".to_string(),
        "option name Level type spin default 10 min 1 max 10".to_string(),
        "option name LevelSeed type spin default 0 min 0 max 2147483647".to_string(),
        "size 3 4 5 6 7 8 halfkomi -10 -9 -8 -7 -6 -5 -4 -3 -2 -1 0 1 2 3 4 5 6 7 8 9 10"
            .to_string(),
        "teiok".to_string(),
    ];
    assert_eq!(lines, expected);
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("quit");
    assert!(engine.exit_within(PROMPT).is_some());
}

#[test]
fn commands_before_tei_are_accepted_and_tei_may_repeat() {
    let mut engine = EngineProcess::start();
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("position startpos moves a1");
    assert_eq!(engine.shown(), shows("x5/x5/x5/x5/2,x4 2 1", 0));
    engine.send("tei");
    engine.until_word("teiok", PROMPT);
    engine.send("tei");
    engine.until_word("teiok", PROMPT);
}

#[test]
fn options_take_case_insensitive_names_and_komi_applies_now_and_later() {
    let mut engine = EngineProcess::start();
    engine.send("teinewgame 5");
    engine.send("position startpos moves a1");
    engine.send("setoption name halfkomi value 4");
    engine.send("setoption name HASH value 16");
    engine.send("setoption name threads value 2");
    engine.send("setoption name Threads value 1");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.shown(), shows("x5/x5/x5/x5/2,x4 2 1", 4));
    engine.send("teinewgame 6");
    assert_eq!(engine.shown(), shows("x6/x6/x6/x6/x6/x6 1 1", 4));
    engine.send("position tps x6/x6/x6/x6/x6/x6 1 1");
    assert_eq!(engine.shown(), shows("x6/x6/x6/x6/x6/x6 1 1", 4));
    // The search still works after resizing the table and the worker pool.
    let lines = engine.go("go depth 1", PROMPT);
    legal_bestmove(&lines, &Position::start(6).unwrap());
}

/// Each line alone is bad input: it gets exactly one error line, the position stays as it was,
/// and the engine still answers (`d`, `isready`, `go`).
#[test]
fn each_class_of_bad_input_gets_one_error_line_and_changes_nothing() {
    let bad_lines = [
        // unknown commands
        "frobnicate",
        "uci",
        "TEI",
        // bad setoption
        "setoption HalfKomi 4",
        "setoption name",
        "setoption name MultiPV value 0",
        "setoption name HalfKomi value lots",
        "setoption name HalfKomi value 2.5",
        "setoption name HalfKomi",
        "setoption name HalfKomi value 11",
        "setoption name HalfKomi value -11",
        "setoption name Threads value 0",
        "setoption name Threads value 257",
        "setoption name Hash value 0",
        // bad TPS
        "position tps x5/x5/x5/x5 1 1",
        "position tps x5/x5/x5/x5/x5 3 1",
        "position tps x5/x5/x5/x5/x5 1 0",
        "position tps x5/x5/x5/x5/x9 1 1",
        "position tps x5/x5/x5/x5/x5,3 1 1",
        "position tps x5/x5/x5/x5/x5 1",
        "position tps 1111111111111111111111111111,x4/x5/x5/x5/x5 1 5",
        // illegal moves
        "position startpos moves a1 a1",
        "position startpos moves Ca1",
        "position startpos moves a1 e5 a1+",
        "position tps 1,1,1/x3/2,2,x 2 3 moves a3",
        // unparsable moves
        "position startpos moves z9",
        "position startpos moves a1 e5 6a1>",
        "position startpos moves a1 e5 2b2>3",
        "position startpos moves a1 hello",
        "position startpos a1",
        "position",
        // bad sizes
        "teinewgame 9",
        "teinewgame 2",
        "teinewgame size 0",
        "teinewgame size five",
        "teinewgame size 6 halfkomi 12",
        // bad go values
        "go depth many",
        "go movetime",
    ];
    let mut engine = EngineProcess::start();
    engine.send("teinewgame 5");
    engine.send("setoption name HalfKomi value 2");
    engine.send("position startpos moves a1 e5");
    let before = shows(&position(5, "a1 e5").to_tps(), 2);
    assert_eq!(engine.shown(), before);
    for bad in bad_lines {
        engine.send(bad);
        engine.send("d");
        let lines = engine.sync();
        assert_eq!(lines.len(), 2, "'{bad}' → {lines:?}");
        assert!(
            lines[0].starts_with("info string error: ") && lines[0].len() > 25,
            "'{bad}' → {lines:?}"
        );
        assert_eq!(lines[1], before, "'{bad}' changed the position");
    }
    let lines = engine.go("go depth 1", PROMPT);
    legal_bestmove(&lines, &position(5, "a1 e5"));
}

#[test]
fn non_utf8_crlf_tabs_and_blank_lines_are_tolerated() {
    let mut engine = EngineProcess::start();
    engine.write(b"\xff\xfe garbage\r\n");
    engine.write(b"\r\n\n   \t \n");
    engine.write(b"teinewgame\t4\r\n");
    engine.write(b"position   startpos\tmoves  a1   d4 \t \r\n");
    engine.write(b"d\r\n");
    let lines = engine.sync();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string error: unknown command"));
    assert_eq!(lines[1], shows(&position(4, "a1 d4").to_tps(), 0));
}

#[test]
fn game_over_answers_an_error_and_bestmove_dashes() {
    let mut engine = EngineProcess::start();
    engine.send("teinewgame 3");
    engine.send("position tps 1,1,1/x3/2,2,x 2 3");
    engine.send("go depth 1");
    let lines = engine.until_word("bestmove", PROMPT);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string error: ") && lines[0].contains("R-0"));
    assert_eq!(lines[1], "bestmove --");
}

#[test]
fn go_depth_nodes_movetime_and_clock_each_give_one_legal_bestmove() {
    let mut engine = EngineProcess::start();
    engine.send("teinewgame 6");
    engine.send("position startpos moves a1 f6 c3");
    engine.sync();
    let pos = position(6, "a1 f6 c3");
    for go in [
        "go depth 1",
        "go depth 2",
        "go nodes 2000",
        "go movetime 150",
        "go wtime 2000 btime 2000 winc 50 binc 50",
        // `solved` would run the tinue solver instead (tests/tinue_tei.rs).
        "go movestogo 10 wtime 1000 btime 1000 ponder frobnicate 3",
    ] {
        let started = Instant::now();
        let lines = engine.go(go, Duration::from_secs(10));
        legal_bestmove(&lines, &pos);
        // Exactly one bestmove: nothing more arrives before the next readyok.
        assert_eq!(engine.sync(), Vec::<String>::new(), "{go}");
        if go == "go movetime 150" {
            assert!(started.elapsed() < Duration::from_millis(1500), "{go}");
        }
    }
}

#[test]
fn infinite_search_answers_isready_and_setoption_refuses_go_and_stops_promptly() {
    for go in ["go infinite", "go"] {
        let mut engine = EngineProcess::start();
        engine.send("teinewgame 5");
        engine.send("position startpos moves a1 e5");
        engine.sync();
        engine.send(go);
        thread::sleep(Duration::from_millis(300));
        // Mid-search: isready at once, a second go refused with one error line.
        // Settings that need the searcher wait for the search instead of blocking the input.
        let asked = Instant::now();
        engine.send("setoption name Hash value 8");
        engine.send("setoption name Threads value 2");
        engine.send("isready");
        engine.send("go depth 1");
        engine.send("d");
        let mut lines = Vec::new();
        while lines.len() < 3 {
            let line = engine.next(PROMPT).expect("replies mid-search");
            if line.starts_with("info depth") {
                continue; // progress of the running search
            }
            assert!(
                !line.starts_with("bestmove"),
                "no bestmove before stop: {line}"
            );
            lines.push(line);
        }
        assert_eq!(lines[0], "readyok");
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "isready took {:?}",
            asked.elapsed()
        );
        assert!(
            lines[1].starts_with("info string error: go ignored"),
            "{lines:?}"
        );
        assert_eq!(lines[2], shows(&position(5, "a1 e5").to_tps(), 0));
        let stopped = Instant::now();
        engine.send("stop");
        let lines = engine.until_word("bestmove", PROMPT);
        let latency = stopped.elapsed();
        check_search_output(&lines);
        legal_bestmove(&lines, &position(5, "a1 e5"));
        assert!(
            latency < Duration::from_millis(500),
            "stop took {latency:?}"
        );
        // One bestmove only, and stop when idle is ignored.
        engine.send("stop");
        assert_eq!(engine.sync(), Vec::<String>::new());
        // The deferred settings are applied before the next search.
        engine.send("teinewgame 5");
        let lines = engine.go("go depth 1", PROMPT);
        legal_bestmove(&lines, &Position::start(5).unwrap());
    }
}

#[test]
fn quit_mid_search_exits_promptly() {
    let mut engine = EngineProcess::start();
    engine.send("teinewgame 6");
    engine.send("position startpos");
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(300));
    let quit = Instant::now();
    engine.send("quit");
    let status = engine
        .exit_within(Duration::from_secs(1))
        .expect("quit took too long");
    assert!(status.success());
    log_elapsed("quit", quit);
}

#[test]
fn end_of_input_mid_search_exits_promptly() {
    let mut engine = EngineProcess::start();
    engine.send("teinewgame 6");
    engine.send("position startpos");
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(300));
    let eof = Instant::now();
    engine.close_input();
    let status = engine
        .exit_within(Duration::from_secs(1))
        .expect("EOF took too long");
    assert!(status.success());
    log_elapsed("EOF", eof);
}

fn log_elapsed(what: &str, since: Instant) {
    eprintln!("{what} → exit in {:?}", since.elapsed());
}

/// Runs a whole session with `RUST_LOG=debug`, capturing stdout and stderr to the end.
#[test]
fn debug_logging_goes_to_stderr_only() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menhir"))
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "tei\nsetoption name HalfKomi value 4\nteinewgame 4\nnonsense here\n\
                  position startpos moves a1 d4\ngo depth 2\nisready\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("DEBUG"),
        "debug logs expected on stderr: {stderr}"
    );
    let protocol = [
        "id ",
        "option ",
        "size ",
        "teiok",
        "readyok",
        "info ",
        "bestmove ",
    ];
    for line in stdout.lines() {
        assert!(
            protocol.iter().any(|p| line.starts_with(p)),
            "non-protocol stdout line: {line:?}"
        );
    }
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        1
    );
}

/// Racetrack (tei.md 1.5): options once, then per game `teinewgame N` + `isready`, per ply
/// `position … moves <list> ` with a trailing space and a clock `go`; uncompressed TPS when komi
/// is set; `quit` at the end.
#[test]
fn racetrack_session() {
    let mut engine = EngineProcess::start();
    engine.send("tei");
    engine.until_word("teiok", PROMPT);
    engine.send("setoption name HalfKomi value 4");
    assert_eq!(engine.sync(), Vec::<String>::new());

    // A game with komi: the root is sent as uncompressed TPS.
    engine.send("teinewgame 5");
    assert_eq!(engine.sync(), Vec::<String>::new());
    let root = "x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x 1 1";
    let mut played: Vec<String> = Vec::new();
    for _ in 0..4 {
        engine.send(&format!("position tps {root} moves {} ", played.join(" ")));
        let lines = engine.go("go wtime 3000 btime 3000 winc 100 binc 100", PROMPT);
        let pos = position(5, &played.join(" "));
        played.push(legal_bestmove(&lines, &pos));
    }
    engine.send(&format!("position tps {root} moves {} ", played.join(" ")));
    let expected = position(5, &played.join(" ")).to_tps();
    assert_eq!(engine.shown(), shows(&expected, 4));

    // A second game on the same process, from the start with `moves ` and nothing after it.
    engine.send("teinewgame 6");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("position startpos moves ");
    let lines = engine.go("go wtime 3000 btime 3000 winc 100 binc 100", PROMPT);
    let first = legal_bestmove(&lines, &Position::start(6).unwrap());
    engine.send(&format!("position startpos moves {first} "));
    let lines = engine.go("go wtime 2900 btime 3000 winc 100 binc 100", PROMPT);
    legal_bestmove(&lines, &position(6, &first));
    assert_eq!(engine.shown(), shows(&position(6, &first).to_tps(), 4));

    engine.send("quit");
    assert!(engine.exit_within(Duration::from_secs(1)).is_some());
}

/// PTN Ninja: the v1 `teinewgame size N halfkomi k` (we print the `size` line), and the legacy
/// `setoption name HalfKomi` + `teinewgame N`; positions with and without `moves`, moves with a
/// trailing `*`; `go movetime`, `go infinite` + `stop`.
#[test]
fn ptn_ninja_session() {
    let mut engine = EngineProcess::start();
    engine.send("tei");
    engine.until_word("teiok", PROMPT);
    engine.send("teinewgame size 6 halfkomi 4");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("position startpos");
    assert_eq!(engine.shown(), shows("x6/x6/x6/x6/x6/x6 1 1", 4));
    let lines = engine.go("go movetime 100", PROMPT);
    legal_bestmove(&lines, &Position::start(6).unwrap());

    // A capstone flattening a wall, written with PTN Ninja's `*`.
    let tps = "x5/x5/x5/x,2S,x3/x,1C,x3 2 3";
    engine.send(&format!("position tps {tps} moves e5 b1+*"));
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    let lines = engine.until_word("bestmove", PROMPT);
    check_search_output(&lines);
    let mut pos = Position::from_tps(tps).unwrap();
    for mv in ["e5", "b1+"] {
        let mv = pos.parse_move(mv).unwrap();
        pos.do_move(mv);
    }
    legal_bestmove(&lines, &pos);

    // Legacy dialect, a new game of another size.
    engine.send("setoption name HalfKomi value -3");
    engine.send("teinewgame 3");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("position startpos moves a1");
    assert_eq!(engine.shown(), shows("x3/x3/2,x2 2 1", -3));
}

/// A GUI answers each `bestmove` with the next `position` and `go` at once: the engine must be
/// idle by the time its `bestmove` is read. Plays a whole 3×3 game this way.
#[test]
fn back_to_back_searches_play_a_whole_game() {
    let mut engine = EngineProcess::start();
    engine.send("teinewgame 3");
    let mut played: Vec<String> = Vec::new();
    let mut pos = Position::start(3).unwrap();
    while pos.result().is_none() && !pos.is_threefold() && played.len() < 100 {
        engine.send(&format!("position startpos moves {}", played.join(" ")));
        let lines = engine.go("go depth 2", PROMPT);
        let mv = legal_bestmove(&lines, &pos);
        pos.do_move(pos.parse_move(&mv).unwrap());
        played.push(mv);
    }
    engine.send(&format!("position startpos moves {}", played.join(" ")));
    assert_eq!(engine.shown(), shows(&pos.to_tps(), 0));
}

/// On a terminal the engine prints a one-line hint on stderr (never stdout); over pipes it is
/// silent. The terminal half needs util-linux `script` to provide a pseudo-terminal and is
/// skipped (with a note) where it is missing.
#[test]
fn terminal_hint_goes_to_stderr_only_and_only_on_a_terminal() {
    let piped = Command::new(env!("CARGO_BIN_EXE_menhir"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = piped.wait_with_output().unwrap();
    assert!(output.status.success());
    assert!(output.stderr.is_empty() && output.stdout.is_empty());

    let dir = std::env::temp_dir().join(format!("menhir-hint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stderr_file = dir.join("stderr.txt");
    let inner = format!(
        "{} 2>{}",
        env!("CARGO_BIN_EXE_menhir"),
        stderr_file.display()
    );
    let script = Command::new("script")
        .args(["-qec", &inner, "/dev/null"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut script) = script else {
        eprintln!("skipped the terminal half: `script` is not available");
        return;
    };
    thread::sleep(Duration::from_millis(300));
    script.stdin.as_mut().unwrap().write_all(b"quit\r").unwrap();
    let output = script.wait_with_output().unwrap();
    let hint = std::fs::read_to_string(&stderr_file).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(output.status.success());
    assert_eq!(hint.lines().count(), 1, "{hint:?}");
    assert!(hint.contains("tei") && hint.contains("--help"), "{hint:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("--help"), "hint on stdout: {stdout:?}");
}

/// `depth` and `seldepth` of an `info` line.
fn depths(line: &str) -> (u32, u32) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let field = |name: &str| {
        let at = words.iter().position(|w| *w == name).unwrap();
        words[at + 1].parse::<u32>().unwrap()
    };
    (field("depth"), field("seldepth"))
}

#[test]
fn go_infinite_on_a_proven_position_reports_each_change_once_and_waits_for_stop() {
    // Issue 47: this ran to depth 120 in two seconds with over 100 identical lines.
    let mut engine = EngineProcess::start();
    engine.send("setoption name ScoreSolved value true");
    engine.send("position tps x4/x4/x,1,x2/1,1,x,2 1 5");
    engine.send("go infinite");
    let mut lines = engine.until("a solved score", Duration::from_secs(60), |l| {
        l.contains(" score solved win ")
    });
    // Then nothing more until `stop`: whatever comes within a few quiet seconds is counted.
    while let Some(line) = engine.next(Duration::from_secs(3)) {
        assert!(
            !line.starts_with("bestmove"),
            "bestmove before stop: {line}"
        );
        lines.push(line);
        assert!(lines.len() < 50, "{lines:#?}");
    }
    assert!(
        lines.len() < 10,
        "{} lines before stop: {lines:#?}",
        lines.len()
    );
    engine.send("stop");
    lines.extend(engine.until_word("bestmove", PROMPT));
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let (depth, seldepth) = depths(line);
        assert!(seldepth >= depth, "{line}");
        assert!(depth < 30, "{line}");
    }
}

#[test]
fn a_win_in_one_reads_depth_1_seldepth_1() {
    let mut engine = EngineProcess::start();
    engine.send("position tps x,1,2,2,2/x,1,x,x,x/x,1,x,x,x/x,1,x,x,x/x5 1 10");
    let lines = engine.go("go depth 1", PROMPT);
    let last = &lines[lines.len() - 2];
    assert_eq!(depths(last), (1, 1), "{last}");
}
