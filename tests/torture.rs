//! Protocol torture against the built `menhir` binary: odd whitespace, very long lines, bytes
//! that are not UTF-8, commands split across writes or joined in one, `stop`/`isready` floods
//! and `go`/`position`/`setoption` during a search, option changes between searches, and `quit`
//! or end of input at every stage. Each case must end in a defined reply, and nothing may hang:
//! every wait has a deadline, and the child is killed when a case fails.
//!
//! Quick cases run in `cargo test --test torture` (well under a minute); the longer variants run
//! with `cargo test --test torture -- --ignored --nocapture`.

mod common;

use common::{EngineProcess, PROMPT};
use menhir::core::Position;
use std::sync::mpsc::RecvTimeoutError;
use std::thread;
use std::time::{Duration, Instant};

/// First words a TEI reply may start with.
const REPLIES: [&str; 7] = [
    "id", "option", "size", "teiok", "readyok", "info", "bestmove",
];

/// Fails unless a stdout line is a protocol reply (one that is not UTF-8 never is: the harness
/// passes it on marked `NOT UTF-8`).
fn protocol_reply(line: &str) {
    let word = line.split_whitespace().next().unwrap_or("");
    assert!(REPLIES.contains(&word), "non-protocol stdout line {line:?}");
}

/// This file's helpers on the shared harness.
impl EngineProcess {
    /// The engine with every line it prints checked to be a protocol reply.
    fn start() -> EngineProcess {
        EngineProcess::spawn(protocol_reply)
    }

    /// The error lines among everything answered so far.
    fn errors(&mut self) -> Vec<String> {
        self.sync()
            .into_iter()
            .filter(|l| l.starts_with("info string error:"))
            .collect()
    }

    /// The current position, as the debug command `d` prints it.
    fn tps(&mut self) -> String {
        self.send("d");
        let lines = self.sync();
        let shown: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string tps "))
            .collect();
        assert_eq!(shown.len(), 1, "{lines:?}");
        let rest = shown[0].strip_prefix("info string tps ").unwrap();
        rest.rsplit_once(" halfkomi ").unwrap().0.to_string()
    }

    /// Every remaining line until stdout closes, within `timeout`.
    fn drain(&self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.recv(left) {
                Ok(line) => seen.push(line),
                Err(RecvTimeoutError::Disconnected) => return seen,
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
        panic!("stdout still open after {timeout:?}; got {seen:#?}");
    }
}

/// Checks `bestmove` lines: exactly `n`, each legal in `pos`.
fn bestmoves(lines: &[String], n: usize, pos: &Position) {
    let moves: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(moves.len(), n, "{lines:?}");
    for mv in moves {
        assert!(
            pos.parse_move(mv).is_ok(),
            "bestmove {mv} in {}",
            pos.to_tps()
        );
    }
}

/// The TPS after `moves` from the empty board of `size`.
fn after(size: usize, moves: &str) -> String {
    let mut pos = Position::start(size).unwrap();
    for mv in moves.split_whitespace() {
        pos.do_move(pos.parse_move(mv).unwrap());
    }
    pos.to_tps()
}

fn start5() -> Position {
    Position::start(5).unwrap()
}

#[test]
fn blank_lines_crlf_tabs_and_runs_of_spaces() {
    let mut e = EngineProcess::start();
    e.write(b"\n\n   \n\t\t\r\n\r\n \t \r\n");
    assert!(e.errors().is_empty());
    e.write(b"  teinewgame\t\t4  \r\n\tposition   startpos\tmoves  a1 \t d4\t \r\n");
    assert_eq!(e.tps(), after(4, "a1 d4"));
    e.write(b"position tps   x4/x4/x4/2,x3\t2   1    moves \r\n");
    assert_eq!(e.tps(), "x4/x4/x4/2,x3 2 1");
    e.write(b"setoption    name\tHalfKomi  value   4\r\nisready\r\n");
    assert_eq!(e.until_word("readyok", PROMPT), vec!["readyok"]);
    e.send("d");
    assert!(e.sync()[0].ends_with("halfkomi 4"));
}

#[test]
fn very_long_lines_get_one_error_or_nothing() {
    let mut e = EngineProcess::start();
    let megabyte = 1 << 20;
    let mut garbage = vec![b'z'; megabyte];
    garbage.push(b'\n');
    e.write(&garbage);
    assert_eq!(e.errors().len(), 1, "1 MB unknown word");
    let mut spaces = vec![b' '; megabyte];
    spaces.push(b'\n');
    e.write(&spaces);
    assert!(e.errors().is_empty(), "1 MB of spaces is a blank line");
    // A 1 MB move list whose first move is illegal on 5x5 (f6 is off the board).
    let mut moves = b"position startpos moves a1 f6".to_vec();
    while moves.len() < megabyte {
        moves.extend_from_slice(b" a2");
    }
    moves.push(b'\n');
    e.write(&moves);
    assert_eq!(e.errors().len(), 1, "1 MB move list");
    assert_eq!(e.tps(), start5().to_tps(), "the position is kept");
    let mut tps = b"position tps ".to_vec();
    tps.extend(std::iter::repeat_n(b'x', megabyte));
    tps.extend_from_slice(b" 1 1\n");
    e.write(&tps);
    assert_eq!(e.errors().len(), 1, "1 MB TPS");
    let mut option = b"setoption name Hash value ".to_vec();
    option.extend(std::iter::repeat_n(b'9', megabyte));
    option.push(b'\n');
    e.write(&option);
    assert_eq!(e.errors().len(), 1, "1 MB number");
    let lines = {
        e.send("go depth 2");
        e.until_word("bestmove", PROMPT)
    };
    bestmoves(&lines, 1, &start5());
}

#[test]
fn bytes_that_are_not_utf8() {
    let mut e = EngineProcess::start();
    e.write(b"\xff\xfe\xfd\n");
    assert_eq!(e.errors().len(), 1);
    e.write(b"isready \xc3\x28 \xa0\xa1\n");
    assert_eq!(e.until_word("readyok", PROMPT), vec!["readyok"]);
    e.write(b"position startpos moves a1 \xe2\x82\n");
    assert_eq!(e.errors().len(), 1);
    e.write(b"setoption name Hash\xff value 16\n");
    assert_eq!(e.errors().len(), 1);
    e.write(b"\x00\x01\x02\x1b[2J\n");
    assert_eq!(e.errors().len(), 1);
    assert_eq!(e.tps(), start5().to_tps());
}

#[test]
fn commands_split_across_writes_and_joined_in_one() {
    let mut e = EngineProcess::start();
    for piece in [
        &b"teinew"[..],
        b"game 6\npos",
        b"ition startpos mo",
        b"ves a1 f6",
        b"\n",
    ] {
        e.write(piece);
        thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(e.tps(), after(6, "a1 f6"));
    e.write(b"teinewgame 3\nposition startpos moves a1\nd\nsetoption name HalfKomi value 2\nd\nisready\n");
    let lines = e.until_word("readyok", PROMPT);
    assert_eq!(
        lines,
        vec![
            "info string tps x3/x3/2,x2 2 1 halfkomi 0",
            "info string tps x3/x3/2,x2 2 1 halfkomi 2",
            "readyok"
        ]
    );
    // A line without its newline waits for the rest; an `isready` split in two is one command.
    e.write(b"isre");
    assert!(e.next(Duration::from_millis(200)).is_none());
    e.write(b"ady\n");
    assert_eq!(e.next(PROMPT).as_deref(), Some("readyok"));
}

/// Starts an infinite search on the 5x5 start position and waits until it reports.
fn searching() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("teinewgame 5");
    e.sync();
    e.send("go infinite");
    e.until_word("info", PROMPT);
    e
}

#[test]
fn stop_and_isready_floods_during_a_search() {
    let mut e = searching();
    let flood = "isready\n".repeat(1000);
    e.write(flood.as_bytes());
    let lines = e.until("1000 readyok", PROMPT, {
        let count = std::cell::Cell::new(0);
        move |l| {
            count.set(count.get() + usize::from(l == "readyok"));
            count.get() == 1000
        }
    });
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "still searching"
    );
    e.write("stop\nisready\n".repeat(1000).as_bytes());
    let lines = e.until("1000 readyok", PROMPT, {
        let count = std::cell::Cell::new(0);
        move |l| {
            count.set(count.get() + usize::from(l == "readyok"));
            count.get() == 1000
        }
    });
    // `readyok` comes from the input thread and `bestmove` from the search thread, so the
    // `bestmove` may follow the last `readyok`: wait for it, then fence for any extra one.
    let mut all = lines;
    if !all.iter().any(|l| l.starts_with("bestmove")) {
        all.extend(e.until_word("bestmove", PROMPT));
    }
    all.extend(e.sync());
    bestmoves(&all, 1, &start5());
    // Still usable.
    e.send("go depth 1");
    bestmoves(&e.until_word("bestmove", PROMPT), 1, &start5());
}

#[test]
fn go_and_bad_input_during_a_search_are_refused_position_is_taken() {
    let mut e = searching();
    e.send("go depth 1");
    e.send("position startpos moves a1 zz");
    e.send("frobnicate");
    let errors: Vec<String> = e
        .sync()
        .into_iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    e.send("position startpos moves a1 e5");
    e.send("stop");
    // The running search answers for the position it was given.
    bestmoves(&e.until_word("bestmove", PROMPT), 1, &start5());
    let mut after = start5();
    for mv in ["a1", "e5"] {
        after.do_move(after.parse_move(mv).unwrap());
    }
    assert_eq!(e.tps(), after.to_tps());
    e.send("go depth 2");
    bestmoves(&e.until_word("bestmove", PROMPT), 1, &after);
}

#[test]
fn stop_then_go_at_once_starts_the_new_search() {
    // A GUI browsing positions sends `stop`, `position`, `go` without waiting for `bestmove`.
    let mut e = searching();
    e.write(b"stop\nposition startpos moves a1\ngo depth 1\n");
    let lines = e.until("two bestmoves", PROMPT, {
        let count = std::cell::Cell::new(0);
        move |l| {
            count.set(count.get() + usize::from(l.starts_with("bestmove")));
            count.get() == 2
        }
    });
    assert!(
        lines.iter().all(|l| !l.starts_with("info string error")),
        "{lines:?}"
    );
}

#[test]
fn hash_and_threads_change_between_and_during_searches() {
    let mut e = EngineProcess::start();
    let settings = [(1, 1), (16, 2), (2, 1), (64, 2), (1, 2), (8, 1)];
    for (i, (hash, threads)) in settings.into_iter().enumerate() {
        e.send(&format!("setoption name Hash value {hash}"));
        e.send(&format!("setoption name Threads value {threads}"));
        assert!(e.errors().is_empty());
        let go = ["go depth 3", "go movetime 30", "go nodes 2000"][i % 3];
        e.send(go);
        bestmoves(&e.until_word("bestmove", PROMPT), 1, &start5());
    }
    e.send("go infinite");
    e.until_word("info", PROMPT);
    e.send("setoption name Threads value 2");
    e.send("setoption name Hash value 4");
    assert!(e.errors().is_empty(), "deferred, not refused");
    e.send("stop");
    bestmoves(&e.until_word("bestmove", PROMPT), 1, &start5());
    e.send("go depth 2");
    bestmoves(&e.until_word("bestmove", PROMPT), 1, &start5());
}

#[test]
fn extreme_go_values_still_answer_one_bestmove() {
    let mut e = EngineProcess::start();
    for go in [
        "go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807 binc 1",
        "go movetime 9223372036854775807",
        "go nodes 18446744073709551615",
        "go depth 99999999999999999999999 nodes 99999999999999999999999",
        "go depth 4294967296",
        "go wtime 0 btime 0",
        "go wtime -100 btime -100 winc 0 binc 0",
        "go movetime 0",
        "go depth 0",
        "go nodes 0",
        "go movestogo 0 wtime 100 btime 100",
    ] {
        e.send(go);
        thread::sleep(Duration::from_millis(30));
        e.send("stop");
        let lines = e.until_word("bestmove", PROMPT);
        assert!(
            lines.iter().all(|l| !l.contains("search failed")),
            "{go}: {lines:?}"
        );
        bestmoves(&lines, 1, &start5());
    }
    // Not an integer: refused with one error and no search.
    e.send("go depth 1e3");
    assert_eq!(e.errors().len(), 1);
}

/// The stages a session goes through; `quit` or end of input is tried after each.
const STAGES: [&[&str]; 9] = [
    &[],
    &["tei"],
    &["tei", "isready"],
    &["tei", "setoption name HalfKomi value 4", "teinewgame 6"],
    &["teinewgame 6", "position startpos moves a1 f6"],
    &["teinewgame 6", "position startpos moves zz"],
    &["go depth 1"],
    &["go infinite"],
    &["go movetime 60000"],
];

/// Whether a stage leaves a search running when it ends.
fn mid_search(stage: &[&str]) -> bool {
    stage
        .last()
        .is_some_and(|l| l.contains("infinite") || l.contains("movetime"))
}

fn end_at_every_stage(ending: &str, pause: Duration) {
    for stage in STAGES {
        let mut e = EngineProcess::start();
        for line in stage {
            e.send(line);
        }
        thread::sleep(pause);
        let started = Instant::now();
        match ending {
            "quit" => e.send("quit"),
            "eof" => e.close_input(),
            "partial" => {
                e.write(b"isready");
                e.close_input();
            }
            _ => unreachable!(),
        }
        let rest = e.drain(PROMPT);
        let status = e.exit_within(PROMPT).expect("exits in time");
        let took = started.elapsed();
        assert!(status.success(), "{ending} after {stage:?}: {status}");
        assert!(
            took < Duration::from_secs(3),
            "{ending} after {stage:?} took {took:?}"
        );
        let owed = stage.iter().filter(|l| l.starts_with("go")).count();
        let moves = rest.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(moves, owed, "{ending} after {stage:?}: {rest:?}");
        if ending == "partial" {
            assert_eq!(
                rest.iter().filter(|l| *l == "readyok").count(),
                1 + stage.iter().filter(|l| **l == "isready").count(),
                "an unterminated last line is still a command: {rest:?}"
            );
        }
        if mid_search(stage) {
            assert!(
                took < Duration::from_millis(500),
                "{ending} mid-search took {took:?}"
            );
        }
    }
}

#[test]
fn quit_at_every_stage() {
    end_at_every_stage("quit", Duration::from_millis(30));
}

#[test]
fn end_of_input_at_every_stage() {
    end_at_every_stage("eof", Duration::from_millis(30));
}

#[test]
fn end_of_input_inside_a_line_at_every_stage() {
    end_at_every_stage("partial", Duration::from_millis(30));
}

#[test]
fn commands_after_quit_are_not_read() {
    let mut e = EngineProcess::start();
    e.write(b"isready\nquit\nisready\ngo infinite\n");
    let rest = e.drain(PROMPT);
    assert_eq!(rest, vec!["readyok"]);
    assert!(e.exit_within(PROMPT).expect("exits in time").success());
}

#[test]
#[ignore = "long torture: cargo test --test torture -- --ignored --nocapture"]
fn long_go_stop_cycles() {
    let mut e = EngineProcess::start();
    e.send("setoption name Hash value 4");
    let started = Instant::now();
    for i in 0..2000 {
        e.send(if i % 2 == 0 {
            "go infinite"
        } else {
            "go movetime 5"
        });
        if i % 3 == 0 {
            thread::sleep(Duration::from_millis(1));
        }
        e.send("stop");
        bestmoves(&e.until_word("bestmove", PROMPT), 1, &start5());
        if i % 100 == 0 {
            e.send(&format!("setoption name Threads value {}", 1 + i % 2));
        }
    }
    eprintln!(
        "2000 go/stop cycles in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore = "long torture: cargo test --test torture -- --ignored --nocapture"]
fn long_end_at_every_stage_with_varied_pauses() {
    for pause in [0, 1, 5, 20, 100] {
        for ending in ["quit", "eof", "partial"] {
            end_at_every_stage(ending, Duration::from_millis(pause));
        }
    }
}
