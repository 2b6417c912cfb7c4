//! TEI over WebSocket (`menhir serve`), driven by a WebSocket client: PTN Ninja's sequence,
//! independent connections, several lines per message, bad frames, a client that vanishes
//! mid-search, the connection limit and a server stop. Each test runs its own server on a free
//! loopback port, so the tests run in parallel.

use menhir::commands::PositionArgs;
use menhir::core::Position;
use menhir::tei::websocket::{ServeConfig, Server, ServerHandle};
use std::net::{SocketAddr, TcpStream};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};
use tungstenite::protocol::frame::coding::{CloseCode, Data, OpCode};
use tungstenite::protocol::frame::Frame;
use tungstenite::{Message, WebSocket};

/// A reply that should come at once (generous: the machine is shared).
const PROMPT: Duration = Duration::from_secs(5);

struct Running {
    addr: SocketAddr,
    handle: ServerHandle,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    fn start(max_connections: usize, max_message_bytes: usize) -> Running {
        let server = Server::bind(ServeConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            max_connections,
            max_message_bytes,
        })
        .expect("a free loopback port");
        let addr = server.local_addr().unwrap();
        let handle = server.handle();
        let thread = Some(thread::spawn(move || server.run()));
        Running {
            addr,
            handle,
            thread,
        }
    }

    fn default() -> Running {
        Running::start(4, 64 * 1024)
    }

    fn connect(&self) -> Client {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(PROMPT)).unwrap();
        let (ws, _) = tungstenite::client(format!("ws://{}/", self.addr), stream).unwrap();
        Client { ws }
    }

    /// Waits until `active()` is `n`; false after `limit`.
    fn wait_active(&self, n: usize, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if self.handle.active() == n {
                return true;
            }
            thread::sleep(Duration::from_millis(5));
        }
        false
    }

    /// Stops the server; `run` must return promptly.
    fn stop(&mut self) {
        self.handle.stop();
        let thread = self.thread.take().unwrap();
        let deadline = Instant::now() + PROMPT;
        while !thread.is_finished() {
            assert!(Instant::now() < deadline, "the server did not stop");
            thread::sleep(Duration::from_millis(5));
        }
        thread.join().unwrap();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.handle.stop();
    }
}

struct Client {
    ws: WebSocket<TcpStream>,
}

/// What the client read.
#[derive(Debug)]
enum Received {
    Line(String),
    Closed(Option<(CloseCode, String)>),
}

impl Client {
    fn send(&mut self, text: &str) {
        self.ws.send(Message::text(text)).unwrap();
    }

    fn receive(&mut self) -> Received {
        match self.ws.read() {
            Ok(Message::Text(t)) => Received::Line(t.to_string()),
            Ok(Message::Close(frame)) => {
                Received::Closed(frame.map(|f| (f.code, f.reason.to_string())))
            }
            Ok(other) => panic!("unexpected message {other:?}"),
            Err(tungstenite::Error::ConnectionClosed) => Received::Closed(None),
            Err(e) => panic!("read failed: {e}"),
        }
    }

    fn line(&mut self) -> String {
        match self.receive() {
            Received::Line(line) => line,
            closed => panic!("expected a line, got {closed:?}"),
        }
    }

    /// Lines up to and including the first whose first word is `word`.
    fn until_word(&mut self, word: &str) -> Vec<String> {
        let deadline = Instant::now() + PROMPT * 4;
        let mut lines = Vec::new();
        loop {
            assert!(Instant::now() < deadline, "no '{word}' in {lines:?}");
            let line = self.line();
            assert!(!line.contains('\n'), "one line per message: {line:?}");
            let done = line.split_whitespace().next() == Some(word);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// The close frame, skipping lines sent before it.
    fn close_frame(&mut self) -> Option<(CloseCode, String)> {
        loop {
            if let Received::Closed(frame) = self.receive() {
                return frame;
            }
        }
    }
}

fn legal_bestmove(lines: &[String], pos: &Position) {
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    pos.parse_move(mv)
        .unwrap_or_else(|e| panic!("bestmove {mv} in {}: {e}", pos.to_tps()));
}

fn position(size: usize, moves: &str) -> Position {
    let args = PositionArgs {
        size,
        tps: None,
        moves: moves.into(),
    };
    args.position().unwrap()
}

/// An `info` line as PTN Ninja reads it: depth, score cp, wdl summing to 1000, pv last.
fn check_info(line: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "info", "{line}");
    let at = |key: &str| words.iter().position(|w| *w == key);
    assert!(at("depth").is_some() && at("score").is_some(), "{line}");
    let wdl = at("wdl").unwrap_or_else(|| panic!("no wdl: {line}"));
    let sum: u32 = words[wdl + 1..wdl + 4]
        .iter()
        .map(|w| w.parse::<u32>().unwrap())
        .sum();
    assert_eq!(sum, 1000, "{line}");
    if let Some(pv) = at("pv") {
        assert!(
            pv > wdl && words[pv + 1..].iter().all(|w| !w.starts_with("nodes")),
            "{line}"
        );
    }
}

/// PTN Ninja's TEI v1 sequence over one connection.
#[test]
fn ptn_ninja_sequence() {
    let server = Running::default();
    let mut client = server.connect();
    client.send("tei");
    let hello = client.until_word("teiok");
    assert!(hello[0].starts_with("id name Menhir"), "{hello:?}");
    assert!(hello
        .iter()
        .any(|l| l.starts_with("size 3 4 5 6 7 8 halfkomi")));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name MultiPV type spin")));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name ScoreMate type check")));
    client.send("setoption name MultiPV value 2");
    client.send("isready");
    assert_eq!(client.line(), "readyok");
    client.send("teinewgame size 6 halfkomi 4");
    client.send("isready");
    assert_eq!(client.line(), "readyok");
    client.send("position startpos moves a1 f6 c3");
    client.send("go infinite");
    // Both lines of the first iteration, then stop.
    let mut infos = Vec::new();
    while !infos
        .iter()
        .any(|l: &String| l.starts_with("info multipv 2 "))
    {
        let line = client.line();
        check_info(&line);
        infos.push(line);
    }
    client.send("stop");
    let lines = client.until_word("bestmove");
    let pos = position(6, "a1 f6 c3");
    legal_bestmove(&lines, &pos);
    let final_info = &lines[lines.len() - 2];
    assert!(final_info.starts_with("info multipv 1 "), "{lines:?}");
    check_info(final_info);
    client.send("setoption name MultiPV value 1");
    client.send("go movetime 200");
    let lines = client.until_word("bestmove");
    for line in &lines[..lines.len() - 1] {
        check_info(line);
        assert!(line.starts_with("info depth "), "{line}");
    }
    legal_bestmove(&lines, &pos);
}

#[test]
fn two_connections_keep_independent_positions() {
    let server = Running::default();
    let mut a = server.connect();
    let mut b = server.connect();
    a.send("teinewgame size 4 halfkomi 0");
    b.send("teinewgame size 6 halfkomi 2");
    a.send("position startpos moves a1 d4");
    b.send("position startpos moves f6");
    a.send("go depth 4");
    b.send("go depth 4");
    let a_lines = a.until_word("bestmove");
    let b_lines = b.until_word("bestmove");
    legal_bestmove(&a_lines, &position(4, "a1 d4"));
    legal_bestmove(&b_lines, &position(6, "f6"));
    a.send("d");
    b.send("d");
    assert_eq!(a.line(), "info string tps x3,1/x4/x4/2,x3 1 2 halfkomi 0");
    assert_eq!(
        b.line(),
        "info string tps x5,2/x6/x6/x6/x6/x6 2 1 halfkomi 2"
    );
}

#[test]
fn several_lines_in_one_message_each_reply_its_own_message() {
    let server = Running::default();
    let mut client = server.connect();
    client.send("teinewgame 5\r\nisready\nposition startpos moves a1\n\nd\nbogus\nisready\n");
    assert_eq!(client.line(), "readyok");
    assert_eq!(
        client.line(),
        "info string tps x5/x5/x5/x5/2,x4 2 1 halfkomi 0"
    );
    assert!(client.line().starts_with("info string error: "));
    assert_eq!(client.line(), "readyok");
}

#[test]
fn binary_and_non_utf8_frames_get_an_error_line_and_change_nothing() {
    let server = Running::default();
    let mut client = server.connect();
    client.send("teinewgame 4\nposition startpos moves a1");
    client
        .ws
        .send(Message::binary(b"isready".to_vec()))
        .unwrap();
    let line = client.line();
    assert!(
        line.starts_with("info string error: ") && line.contains("binary"),
        "{line}"
    );
    let bad_text = Frame::message(vec![b'd', 0xff, 0xfe], OpCode::Data(Data::Text), true);
    client.ws.send(Message::Frame(bad_text)).unwrap();
    let line = client.line();
    assert!(
        line.starts_with("info string error: ") && line.contains("UTF-8"),
        "{line}"
    );
    client.send("d");
    assert_eq!(
        client.line(),
        "info string tps x4/x4/x4/2,x3 2 1 halfkomi 0"
    );
}

#[test]
fn an_oversized_message_gets_an_error_line_then_a_close() {
    let server = Running::start(4, 1024);
    let mut client = server.connect();
    client.send(&format!("position startpos moves {}", "a1 ".repeat(400)));
    let line = client.line();
    assert!(
        line.starts_with("info string error: ") && line.contains("limit of 1024"),
        "{line}"
    );
    let (code, reason) = client.close_frame().expect("a close frame");
    assert_eq!(code, CloseCode::Size);
    assert!(reason.contains("1024"), "{reason}");
    assert!(server.wait_active(0, PROMPT));
    // The server goes on.
    let mut other = server.connect();
    other.send("isready");
    assert_eq!(other.line(), "readyok");
}

#[test]
fn a_client_that_vanishes_mid_search_stops_its_search_and_the_server_lives() {
    let server = Running::default();
    let mut client = server.connect();
    client.send("teinewgame 6\nposition startpos\ngo infinite");
    assert!(client.line().starts_with("info depth "));
    assert_eq!(server.handle.active(), 1);
    // No close handshake: the socket just goes.
    let vanished = Instant::now();
    drop(client);
    assert!(
        server.wait_active(0, Duration::from_secs(1)),
        "the session (search and table) outlived its connection"
    );
    eprintln!("session gone {:?} after the client", vanished.elapsed());
    let mut next = server.connect();
    next.send("isready");
    assert_eq!(next.line(), "readyok");
}

#[test]
fn connections_beyond_the_limit_are_refused_with_a_reason() {
    let server = Running::start(2, 64 * 1024);
    let mut first = server.connect();
    let mut second = server.connect();
    for c in [&mut first, &mut second] {
        c.send("isready");
        assert_eq!(c.line(), "readyok");
    }
    let mut third = server.connect();
    let (code, reason) = third.close_frame().expect("a close frame");
    assert_eq!(code, CloseCode::Again);
    assert!(reason.contains("busy") && reason.contains('2'), "{reason}");
    assert_eq!(server.handle.active(), 2);
    // A place frees up once one leaves (here by `quit`, closed normally).
    first.send("quit");
    let (code, _) = first.close_frame().expect("a close frame");
    assert_eq!(code, CloseCode::Normal);
    assert!(server.wait_active(1, PROMPT));
    let mut fourth = server.connect();
    fourth.send("isready");
    assert_eq!(fourth.line(), "readyok");
}

#[test]
fn stopping_the_server_ends_searches_with_bestmove_and_closes() {
    let mut server = Running::default();
    let mut client = server.connect();
    client.send("teinewgame 5\nposition startpos moves a1\ngo infinite");
    assert!(client.line().starts_with("info depth "));
    server.stop();
    let lines = client.until_word("bestmove");
    legal_bestmove(&lines, &position(5, "a1"));
    let (code, reason) = client.close_frame().expect("a close frame");
    assert_eq!(code, CloseCode::Away);
    assert!(reason.contains("shutting down"), "{reason}");
    assert_eq!(server.handle.active(), 0);
}

/// `scripts/browser-check.sh`: headless Chromium runs PTN Ninja's sequence against
/// `menhir serve` (installs Chromium with apt-get if missing; needs root and network then).
#[test]
#[ignore = "runs headless Chromium (installs it if missing): cargo test --test websocket -- --ignored"]
fn browser_check() {
    let status = std::process::Command::new("bash")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/browser-check.sh"
        ))
        .env("MENHIR", env!("CARGO_BIN_EXE_menhir"))
        .status()
        .expect("bash runs");
    assert!(status.success(), "scripts/browser-check.sh failed");
}

/// The `menhir serve` process: prints where it listens, a vanished client's search thread is
/// gone at once (no `menhir-search` thread left, no CPU burnt), and SIGTERM ends it cleanly.
#[cfg(target_os = "linux")]
#[test]
fn serve_process_stops_an_abandoned_search_and_exits_on_sigterm() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_menhir"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut banner = String::new();
    stderr.read_line(&mut banner).unwrap();
    let addr: SocketAddr = banner
        .split("ws://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {banner:?}"))
        .parse()
        .unwrap();
    let search_threads = || {
        std::fs::read_dir(format!("/proc/{pid}/task"))
            .unwrap()
            .filter_map(|t| std::fs::read_to_string(t.unwrap().path().join("comm")).ok())
            .filter(|name| name.trim() == "menhir-search")
            .count()
    };
    let cpu_ticks = || {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let fields: Vec<u64> = stat
            .rsplit(')')
            .next()
            .unwrap()
            .split_whitespace()
            .filter_map(|f| f.parse().ok())
            .collect();
        // utime and stime: fields 14 and 15 of the whole line, 12 and 13 after the name.
        fields[10] + fields[11]
    };

    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PROMPT)).unwrap();
    let (ws, _) = tungstenite::client(format!("ws://{addr}/"), stream).unwrap();
    let mut client = Client { ws };
    client.send("teinewgame 6\nposition startpos\ngo infinite");
    assert!(client.line().starts_with("info depth "));
    assert_eq!(search_threads(), 1);
    drop(client);
    let deadline = Instant::now() + Duration::from_secs(1);
    while search_threads() > 0 {
        assert!(
            Instant::now() < deadline,
            "the search outlived its connection"
        );
        thread::sleep(Duration::from_millis(5));
    }
    let before = cpu_ticks();
    thread::sleep(Duration::from_millis(500));
    // An idle server polls its listener; a search would burn ~50 ticks in this time.
    assert!(cpu_ticks() - before < 10, "the server is still busy");

    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + PROMPT;
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(Instant::now() < deadline, "no exit after SIGTERM");
        thread::sleep(Duration::from_millis(10));
    };
    assert!(exit.success(), "{exit:?}");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert!(rest.contains("menhir: stopped"), "{rest}");
}

/// Bad `menhir serve` flags: one line on stderr, a non-zero exit, nothing listening.
#[test]
fn serve_refuses_bad_flags_with_one_line() {
    use std::process::Command;
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = taken.local_addr().unwrap().to_string();
    for (flags, says) in [
        (vec!["--listen", "0.0.0.0:7731"], "--allow-remote"),
        (vec!["--listen", "localhost"], "bad --listen"),
        (
            vec!["--listen", "127.0.0.1:0", "--max-connections", "0"],
            "--max-connections",
        ),
        (
            vec!["--listen", "127.0.0.1:0", "--max-message-bytes", "9"],
            "--max-message-bytes",
        ),
        (vec!["--listen", taken.as_str()], "cannot listen on"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_menhir"))
            .arg("serve")
            .args(&flags)
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flags:?}");
        assert_eq!(stderr.lines().count(), 1, "{flags:?}: {stderr}");
        assert!(
            stderr.starts_with("menhir: ") && stderr.contains(says),
            "{flags:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{flags:?}");
    }
}

#[test]
fn over_serve_score_solved_is_on_by_default_and_go_infinite_shows_a_proof() {
    let server = Running::default();
    let mut client = server.connect();
    client.send("tei");
    let hello = client.until_word("teiok");
    assert!(
        hello.contains(&"option name ScoreSolved type check default true".to_string()),
        "{hello:?}"
    );
    // A 4×4 tinue, with no option changed: the proof shows as PTN Ninja reads it.
    client.send("teinewgame size 4 halfkomi 0");
    client.send("position tps x4/x4/x,1,x2/1,1,x,2 1 5");
    client.send("go infinite");
    // Each solved line has its whole line (the solver's 9 plies may come before the search's 7;
    // a longer one never comes after a shorter one), until the search's 7.
    let pv_len = |line: &str| {
        line.split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .count()
    };
    let mut shortest = u32::MAX;
    while shortest != 7 {
        let line = client.line();
        check_info(&line);
        if let Some(rest) = line.split(" score solved win ").nth(1) {
            let n: u32 = rest.split_whitespace().next().unwrap().parse().unwrap();
            assert_eq!(pv_len(&line), n as usize, "{line}");
            assert!(n < shortest, "{line}");
            shortest = n;
        }
    }
    client.send("stop");
    let lines = client.until_word("bestmove");
    let final_info = &lines[lines.len() - 2];
    assert!(final_info.contains(" score solved win 7 "), "{final_info}");
    assert_eq!(pv_len(final_info), 7, "{final_info}");
    assert_eq!(lines.last().unwrap(), "bestmove c2");
}
