//! An in-process playtak server double for `tests/playtak.rs`, written from the protocol in the
//! server repository's README (USTakAssociation/playtak-api, `server/README.md`): the greeting,
//! `Client`, `Protocol`, `Login`/`Login Guest [token]`, `Seek` (V2), `Accept`, `Game Start`,
//! `Game#N P/M` moves checked by Menhir's core, `Timems`, `OfferDraw`, `RequestUndo`/`Undo`,
//! `Resign`, `Over`, `PING`/`OK`, `NOK`, `quit`; and, on logging back in during a game, the
//! game restarted (`Game Start`, every move, the clocks, `Message Your game is resumed`); chat:
//! scripted `Tell <NAME> TEXT` and `Shout <NAME> TEXT` lines delivered mid-game, and the
//! client's `Tell NAME TEXT` confirmed with `Told <NAME> TEXT` (the server never answers a
//! `Tell` with `OK`).
//! One client at a time, on 127.0.0.1 only, over plain TCP or WebSocket. The opponent inside
//! plays seeded random legal moves. Its move notation conversion is its own (from the README),
//! not the library's, so the two check each other. To pair two real clients with each other
//! (seek and accept, moves relayed, the server's clock), see `pair`.
#![allow(dead_code)]
// tungstenite's handshake callback type fixes the size of its error.
#![allow(clippy::result_large_err)]

pub mod bot;
pub mod pair;

use menhir::core::{Color, Move, MoveList, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};
use tungstenite::handshake::server::{Request, Response};
use tungstenite::http::HeaderValue;
use tungstenite::{Message, WebSocket};

/// What the double does.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Registered accounts (name, password).
    pub accounts: Vec<(String, String)>,
    /// Answer every `Seek` with `NOK`.
    pub reject_seek: bool,
    /// The opponent's name.
    pub opponent: String,
    /// Seed of the opponent's moves.
    pub seed: u64,
    /// The opponent only places flats on empty squares (for the scripted Python engines).
    pub placements_only: bool,
    /// Close the connection once, after this many plies.
    pub drop_after_plies: Option<usize>,
    /// The opponent offers a draw before its move at this ply.
    pub offer_draw_at: Option<usize>,
    /// The opponent asks for an undo after its move at this ply.
    pub request_undo_at: Option<usize>,
    /// Send unknown, truncated and garbled lines at login and during games.
    pub garbage: bool,
    /// Serve WebSocket instead of plain TCP.
    pub websocket: bool,
    /// Lines sent after login (`Seek new ...` for accept mode).
    pub listed_seeks: Vec<String>,
    /// Seek numbers whose `Accept` is refused (someone else was quicker).
    pub refuse_accepts: Vec<String>,
    /// A game reaching this many plies is declared drawn.
    pub max_plies: usize,
    /// The clock each side is shown, in ms.
    pub clock_ms: u64,
    /// The opponent thinks this long before each move (the client's time to ponder).
    pub opponent_delay_ms: u64,
    /// Chat lines (as the server delivers them) sent once the first game reaches this ply.
    pub chat_at_ply: Option<usize>,
    pub chat: Vec<String>,
    /// At the scheduled drop the game is lost too, as in a server restart: it is not
    /// restarted when the client logs back in, and not recorded.
    pub forget_game_on_drop: bool,
}

impl Default for Scenario {
    fn default() -> Scenario {
        Scenario {
            accounts: vec![("menhirbot".into(), "secret-pw".into())],
            reject_seek: false,
            opponent: "alice".into(),
            seed: 1,
            placements_only: false,
            drop_after_plies: None,
            offer_draw_at: None,
            request_undo_at: None,
            garbage: false,
            websocket: false,
            listed_seeks: Vec::new(),
            refuse_accepts: Vec::new(),
            max_plies: 60,
            clock_ms: 5000,
            opponent_delay_ms: 0,
            chat_at_ply: None,
            chat: Vec::new(),
            forget_game_on_drop: false,
        }
    }
}

/// A finished game as the double saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub id: u64,
    pub size: usize,
    pub half_komi: i32,
    pub client_color: Color,
    pub result: String,
    /// The plies in PTN.
    pub plies: Vec<String>,
}

/// What the double observed.
#[derive(Default, Debug)]
pub struct Observed {
    /// Every line received from the client, in order (across connections).
    pub received: Vec<String>,
    /// Finished games.
    pub games: Vec<Played>,
    /// Connections accepted.
    pub connections: usize,
    /// `NOK` sent for a move.
    pub move_noks: usize,
    /// Games started.
    pub started: usize,
    /// Connections the client closed (without `quit`) while it had a game.
    pub dropped_in_game: usize,
}

pub struct Double {
    pub addr: SocketAddr,
    pub observed: Arc<Mutex<Observed>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Double {
    pub fn start(scenario: Scenario) -> Double {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let observed = Arc::new(Mutex::new(Observed::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (obs, st) = (observed.clone(), stop.clone());
        let thread = thread::spawn(move || {
            let mut server = Server {
                scenario: scenario.clone(),
                observed: obs,
                game: None,
                next_game: 1,
                games_started: 0,
                rng: StdRng::seed_from_u64(scenario.seed),
                dropped: false,
                name: String::new(),
                guest_tokens: Vec::new(),
                protocol: 0,
                undo_asked: false,
                chat_sent: false,
                hung_up: false,
            };
            while !st.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        server.observed.lock().unwrap().connections += 1;
                        if let Some(conn) = Conn::open(stream, scenario.websocket) {
                            server.serve(conn, &st);
                        }
                    }
                    Err(_) => thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        Double {
            addr,
            observed,
            stop,
            thread: Some(thread),
        }
    }

    /// `HOST:PORT`, or `ws://HOST:PORT/` for a WebSocket double.
    pub fn server_arg(&self, websocket: bool) -> String {
        if websocket {
            format!("ws://{}/", self.addr)
        } else {
            self.addr.to_string()
        }
    }

    /// Waits (at most 10 s) until the client's `quit` has been read, so the double has seen
    /// everything the client sent before it returned.
    fn settle(&self) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            let o = self.observed.lock().unwrap();
            if o.received.last().map(String::as_str) == Some("quit") {
                return;
            }
            drop(o);
            thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn received(&self) -> Vec<String> {
        self.settle();
        self.observed.lock().unwrap().received.clone()
    }

    pub fn games(&self) -> Vec<Played> {
        self.settle();
        self.observed.lock().unwrap().games.clone()
    }
}

impl Drop for Double {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

enum Conn {
    Tcp(TcpStream, Vec<u8>),
    Ws(Box<WebSocket<TcpStream>>),
}

impl Conn {
    fn open(stream: TcpStream, websocket: bool) -> Option<Conn> {
        stream.set_nonblocking(false).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        let conn = if websocket {
            let callback = |_req: &Request, mut resp: Response| {
                resp.headers_mut()
                    .insert("Sec-WebSocket-Protocol", HeaderValue::from_static("binary"));
                Ok(resp)
            };
            Conn::Ws(Box::new(tungstenite::accept_hdr(stream, callback).ok()?))
        } else {
            Conn::Tcp(stream, Vec::new())
        };
        let s = match &conn {
            Conn::Tcp(s, _) => s,
            Conn::Ws(ws) => ws.get_ref(),
        };
        s.set_read_timeout(Some(Duration::from_millis(10))).ok()?;
        Some(conn)
    }

    fn send(&mut self, line: &str) {
        match self {
            Conn::Tcp(s, _) => {
                let _ = s.write_all(format!("{line}\n").as_bytes());
            }
            // The README's server sends binary frames ending in a newline.
            Conn::Ws(ws) => {
                let _ = ws.send(Message::Binary(format!("{line}\n").into_bytes().into()));
            }
        }
    }

    /// Ok(None): nothing yet; Err: closed.
    fn recv(&mut self) -> Result<Option<String>, ()> {
        match self {
            Conn::Tcp(s, buf) => {
                if let Some(i) = buf.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = buf.drain(..=i).collect();
                    return Ok(Some(String::from_utf8_lossy(&line).trim_end().to_string()));
                }
                let mut chunk = [0u8; 1024];
                match s.read(&mut chunk) {
                    Ok(0) => Err(()),
                    Ok(n) => {
                        buf.extend_from_slice(&chunk[..n]);
                        Ok(None)
                    }
                    Err(e) if read_timed_out(&e) => Ok(None),
                    Err(_) => Err(()),
                }
            }
            Conn::Ws(ws) => match ws.read() {
                Ok(Message::Text(t)) => Ok(Some(t.trim_end().to_string())),
                Ok(Message::Binary(b)) => {
                    Ok(Some(String::from_utf8_lossy(&b).trim_end().to_string()))
                }
                Ok(Message::Close(_)) => Err(()),
                Ok(_) => Ok(None),
                Err(tungstenite::Error::Io(e)) if read_timed_out(&e) => Ok(None),
                Err(_) => Err(()),
            },
        }
    }

    fn close(&mut self) {
        match self {
            Conn::Tcp(s, _) => {
                let _ = s.shutdown(std::net::Shutdown::Both);
            }
            Conn::Ws(ws) => {
                let _ = ws.get_mut().shutdown(std::net::Shutdown::Both);
            }
        }
    }
}

/// The server's seek (README V2 form).
#[derive(Clone, Debug)]
struct SeekSettings {
    size: usize,
    time: u64,
    inc: u64,
    color: String,
    komi: i32,
    pieces: u32,
    caps: u32,
}

struct GameState {
    id: u64,
    size: usize,
    half_komi: i32,
    client_color: Color,
    pos: Position,
    plies: Vec<Move>,
    time_s: u64,
    draw_offered: bool,
    undo_requested: bool,
}

struct Server {
    scenario: Scenario,
    observed: Arc<Mutex<Observed>>,
    game: Option<GameState>,
    next_game: u64,
    games_started: usize,
    rng: StdRng,
    dropped: bool,
    name: String,
    guest_tokens: Vec<String>,
    protocol: u32,
    undo_asked: bool,
    chat_sent: bool,
    /// The double closed this connection itself (a scheduled drop).
    hung_up: bool,
}

/// Server text to PTN, as the README describes the server notation.
pub fn server_to_ptn(text: &str) -> Option<String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    let sq = |s: &str| -> Option<String> {
        let b = s.as_bytes();
        (b.len() == 2 && b[0].is_ascii_uppercase() && b[1].is_ascii_digit())
            .then(|| s.to_ascii_lowercase())
    };
    match w.as_slice() {
        ["P", s] => sq(s),
        ["P", s, "W"] => Some(format!("S{}", sq(s)?)),
        ["P", s, "C"] => Some(format!("C{}", sq(s)?)),
        ["M", from, to, drops @ ..] if !drops.is_empty() => {
            let (f, t) = (from.as_bytes(), to.as_bytes());
            let dir = if f[0] == t[0] {
                if t[1] > f[1] {
                    '+'
                } else {
                    '-'
                }
            } else if t[0] > f[0] {
                '>'
            } else {
                '<'
            };
            let nums: Vec<u32> = drops
                .iter()
                .map(|d| d.parse().ok())
                .collect::<Option<_>>()?;
            let count: u32 = nums.iter().sum();
            // Canonical PTN: no count of 1, no drops for a single square.
            let count = if count > 1 {
                count.to_string()
            } else {
                String::new()
            };
            let drops: String = if nums.len() > 1 {
                nums.iter().map(|n| n.to_string()).collect()
            } else {
                String::new()
            };
            Some(format!("{count}{}{dir}{drops}", sq(from)?))
        }
        _ => None,
    }
}

/// Canonical PTN to server text.
pub fn ptn_to_server(ptn: &str) -> String {
    let upper = |s: &str| s.to_ascii_uppercase();
    if let Some(s) = ptn.strip_prefix('S') {
        return format!("P {} W", upper(s));
    }
    if let Some(s) = ptn.strip_prefix('C') {
        return format!("P {} C", upper(s));
    }
    let digits: String = ptn.chars().take_while(|c| c.is_ascii_digit()).collect();
    let rest = &ptn[digits.len()..];
    if rest.len() == 2 {
        return format!("P {}", upper(rest));
    }
    let count: u32 = if digits.is_empty() {
        1
    } else {
        digits.parse().unwrap()
    };
    let (sq, tail) = rest.split_at(2);
    let dir = tail.chars().next().unwrap();
    let drops: Vec<u32> = if tail.len() > 1 {
        tail[1..].chars().map(|c| c.to_digit(10).unwrap()).collect()
    } else {
        vec![count]
    };
    let (df, dr) = match dir {
        '+' => (0, 1),
        '-' => (0, -1),
        '>' => (1, 0),
        _ => (-1, 0),
    };
    let b = sq.as_bytes();
    let n = drops.len() as i32;
    let end = format!(
        "{}{}",
        (b[0] as i32 - 32 + df * n) as u8 as char,
        (b[1] as i32 + dr * n) as u8 as char
    );
    let drops: Vec<String> = drops.iter().map(|d| d.to_string()).collect();
    format!("M {} {} {}", upper(sq), end, drops.join(" "))
}

const GARBAGE: [&str; 7] = [
    "Frobnicate the widgets",
    "Game Start 5",
    "Game#",
    "Game#1 Timems x y",
    "Seek new 3 bob",
    "\u{1}\u{2}\u{fffd}garbage",
    "Game#999999 P A1",
];

impl Server {
    fn serve(&mut self, mut conn: Conn, stop: &AtomicBool) {
        self.hung_up = false;
        conn.send("Welcome!");
        conn.send("Login or Register");
        let mut logged_in = false;
        let idle_limit = Instant::now() + Duration::from_secs(120);
        while !stop.load(Ordering::SeqCst) && Instant::now() < idle_limit {
            let line = match conn.recv() {
                Ok(Some(line)) => line,
                Ok(None) => continue,
                Err(()) => {
                    if self.game.is_some() && !self.hung_up {
                        self.observed.lock().unwrap().dropped_in_game += 1;
                    }
                    return;
                }
            };
            self.observed.lock().unwrap().received.push(line.clone());
            let w: Vec<&str> = line.split_whitespace().collect();
            if line == "quit" {
                conn.close();
                return;
            }
            if line == "PING" {
                conn.send("OK");
                continue;
            }
            if !logged_in {
                match w.as_slice() {
                    ["Client", _] => conn.send("OK"),
                    ["Protocol", v] => {
                        self.protocol = v.parse().unwrap_or(0);
                        conn.send("OK");
                    }
                    ["Login", "Guest", rest @ ..] => {
                        let token = rest.first().map(|t| t.to_string()).unwrap_or_default();
                        let known = self.guest_tokens.iter().position(|t| *t == token);
                        let n = match known {
                            Some(i) => i + 1,
                            None => {
                                self.guest_tokens.push(token);
                                self.guest_tokens.len()
                            }
                        };
                        self.name = format!("Guest{n}");
                        // As the server does for guests: the game restarts before the welcome.
                        self.resume(&mut conn);
                        conn.send(&format!("Welcome {}!", self.name));
                        logged_in = true;
                        self.after_login(&mut conn);
                    }
                    ["Login", name, pass] => {
                        let ok = self
                            .scenario
                            .accounts
                            .iter()
                            .any(|(n, p)| n == name && p == pass);
                        if ok {
                            self.name = name.to_string();
                            conn.send(&format!("Welcome {name}!"));
                            self.resume(&mut conn);
                            logged_in = true;
                            self.after_login(&mut conn);
                        } else {
                            conn.send("Authentication failure");
                        }
                    }
                    _ => conn.send("NOK"),
                }
                continue;
            }
            if !self.command(&mut conn, &line) {
                conn.close();
                return;
            }
        }
    }

    fn after_login(&mut self, conn: &mut Conn) {
        if self.scenario.garbage {
            for g in GARBAGE {
                conn.send(g);
            }
        }
        for s in self.scenario.listed_seeks.clone() {
            conn.send(&s);
        }
        if self.game.is_some() {
            self.opponent_turn(conn);
        }
    }

    fn resume(&mut self, conn: &mut Conn) {
        let Some(g) = &self.game else { return };
        let (white, black) = self.names(g.client_color);
        conn.send(&format!(
            "Game Start {} {} {white} vs {black} {} {} {} 0 0",
            g.id,
            g.size,
            if g.client_color == Color::White {
                "white"
            } else {
                "black"
            },
            g.time_s,
            g.half_komi
        ));
        for mv in &g.plies {
            conn.send(&format!("Game#{} {}", g.id, ptn_to_server(&mv.to_ptn())));
        }
        self.send_time(conn);
        conn.send("Message Your game is resumed");
    }

    fn names(&self, client_color: Color) -> (String, String) {
        let (me, them) = (self.name.clone(), self.scenario.opponent.clone());
        if client_color == Color::White {
            (me, them)
        } else {
            (them, me)
        }
    }

    fn send_time(&self, conn: &mut Conn) {
        let Some(g) = &self.game else { return };
        let ms = self.scenario.clock_ms;
        if self.protocol >= 1 {
            conn.send(&format!("Game#{} Timems {ms} {ms}", g.id));
        } else {
            conn.send(&format!("Game#{} Time {} {}", g.id, ms / 1000, ms / 1000));
        }
    }

    /// Returns false to drop the connection.
    fn command(&mut self, conn: &mut Conn, line: &str) -> bool {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["Seek", size, time, inc, color, komi, pieces, caps, "0" | "1", "0" | "1", ..]
                if self.game.is_none() =>
            {
                if self.scenario.reject_seek {
                    conn.send("NOK");
                    return true;
                }
                let parsed = (|| {
                    Some(SeekSettings {
                        size: size.parse().ok()?,
                        time: time.parse().ok()?,
                        inc: inc.parse().ok()?,
                        color: color.to_string(),
                        komi: komi.parse().ok()?,
                        pieces: pieces.parse().ok()?,
                        caps: caps.parse().ok()?,
                    })
                })();
                let Some(seek) = parsed else {
                    conn.send("NOK");
                    return true;
                };
                conn.send(&format!(
                    "Seek new 1 {} {} {} {} {} {} {} {} 1 0 0 0 ",
                    self.name,
                    seek.size,
                    seek.time,
                    seek.inc,
                    seek.color,
                    seek.komi,
                    seek.pieces,
                    seek.caps
                ));
                // The opponent accepts at once; colour A alternates, starting with White.
                let client_color = match seek.color.as_str() {
                    "W" => Color::White,
                    "B" => Color::Black,
                    _ if self.games_started.is_multiple_of(2) => Color::White,
                    _ => Color::Black,
                };
                conn.send(&format!(
                    "Seek remove 1 {} {} {} {} {} {} {} {} 1 0 0 0 ",
                    self.name,
                    seek.size,
                    seek.time,
                    seek.inc,
                    seek.color,
                    seek.komi,
                    seek.pieces,
                    seek.caps
                ));
                self.start_game(conn, &seek, client_color);
            }
            ["Tell", name, ..] if w.len() > 2 => {
                let text = line.splitn(3, ' ').nth(2).unwrap_or("");
                conn.send(&format!("Told <{name}> {text}"));
            }
            ["Accept", n] if self.scenario.refuse_accepts.iter().any(|r| r == n) => {
                conn.send(&format!("Seek remove {n} alice"));
                conn.send("NOK");
            }
            ["Accept", n] if self.game.is_none() => {
                let listed = self.scenario.listed_seeks.iter().find_map(|s| {
                    let f: Vec<&str> = s.split_whitespace().collect();
                    (f.get(2) == Some(n))
                        .then(|| f.iter().map(|x| x.to_string()).collect::<Vec<_>>())
                });
                let Some(f) = listed else {
                    conn.send("NOK");
                    return true;
                };
                let seek = SeekSettings {
                    size: f[4].parse().unwrap(),
                    time: f[5].parse().unwrap(),
                    inc: f[6].parse().unwrap(),
                    color: f[7].clone(),
                    komi: f[8].parse().unwrap(),
                    pieces: f[9].parse().unwrap(),
                    caps: f[10].parse().unwrap(),
                };
                // The seeker is the opponent: its colour W makes the client Black.
                let client_color = if seek.color == "W" {
                    Color::Black
                } else {
                    Color::White
                };
                self.start_game(conn, &seek, client_color);
            }
            [g, rest @ ..] if g.starts_with("Game#") => {
                let id: u64 = g[5..].parse().unwrap_or(0);
                let Some(game) = self.game.as_mut().filter(|x| x.id == id) else {
                    conn.send("NOK");
                    return true;
                };
                match rest {
                    ["P", ..] | ["M", ..] => {
                        let text = rest.join(" ");
                        let mv = server_to_ptn(&text)
                            .and_then(|p| game.pos.parse_move(&p).ok())
                            .filter(|&mv| {
                                game.pos.to_move() == game.client_color && game.pos.is_legal(mv)
                            });
                        let Some(mv) = mv else {
                            self.observed.lock().unwrap().move_noks += 1;
                            conn.send("NOK");
                            conn.send("Error:Invalid move");
                            return true;
                        };
                        game.pos.do_move(mv);
                        game.plies.push(mv);
                        conn.send("OK");
                        self.send_time(conn);
                        if self.after_ply(conn) {
                            return false;
                        }
                        self.opponent_turn(conn);
                    }
                    ["Resign"] => {
                        let r = if game.client_color == Color::White {
                            "0-1"
                        } else {
                            "1-0"
                        };
                        self.over(conn, r);
                    }
                    ["OfferDraw"] => {
                        conn.send("OK");
                        if game.draw_offered {
                            self.over(conn, "1/2-1/2");
                        }
                    }
                    ["RequestUndo"] => {
                        conn.send("OK");
                        if game.undo_requested {
                            game.undo_requested = false;
                            let mut pos = Position::start(game.size).unwrap();
                            pos.set_half_komi(game.half_komi);
                            game.plies.pop();
                            for &mv in &game.plies {
                                pos.do_move(mv);
                            }
                            game.pos = pos;
                            conn.send(&format!("Game#{id} Undo"));
                            self.opponent_turn(conn);
                        }
                    }
                    _ => conn.send("NOK"),
                }
            }
            _ => conn.send("NOK"),
        }
        true
    }

    fn start_game(&mut self, conn: &mut Conn, seek: &SeekSettings, client_color: Color) {
        let id = self.next_game;
        self.next_game += 1;
        self.games_started += 1;
        self.observed.lock().unwrap().started += 1;
        let mut pos = Position::start(seek.size).unwrap();
        pos.set_half_komi(seek.komi);
        self.game = Some(GameState {
            id,
            size: seek.size,
            half_komi: seek.komi,
            client_color,
            pos,
            plies: Vec::new(),
            time_s: seek.time,
            draw_offered: false,
            undo_requested: false,
        });
        let (white, black) = self.names(client_color);
        conn.send(&format!(
            "Game Start {id} {} {white} vs {black} {} {} {} {} {} 0 0",
            seek.size,
            if client_color == Color::White {
                "white"
            } else {
                "black"
            },
            seek.time,
            seek.komi,
            seek.pieces,
            seek.caps
        ));
        self.send_time(conn);
        self.opponent_turn(conn);
    }

    /// After any ply: the end of the game, the ply cap, the scheduled drop. True: drop now.
    fn after_ply(&mut self, conn: &mut Conn) -> bool {
        let g = self.game.as_ref().unwrap();
        if let Some(result) = g.pos.result() {
            let r = result.to_string();
            self.over(conn, &r);
            return false;
        }
        if g.plies.len() >= self.scenario.max_plies {
            self.over(conn, "1/2-1/2");
            return false;
        }
        if self.scenario.garbage && g.plies.len() == 3 {
            for l in GARBAGE {
                conn.send(l);
            }
        }
        if !self.chat_sent && self.scenario.chat_at_ply == Some(g.plies.len()) {
            self.chat_sent = true;
            for l in &self.scenario.chat {
                conn.send(l);
            }
        }
        if !self.dropped && self.scenario.drop_after_plies == Some(g.plies.len()) {
            self.dropped = true;
            if self.scenario.forget_game_on_drop {
                self.game = None;
            }
            return true;
        }
        false
    }

    fn over(&mut self, conn: &mut Conn, result: &str) {
        let g = self.game.take().unwrap();
        conn.send(&format!("Game#{} Over {result}", g.id));
        self.observed.lock().unwrap().games.push(Played {
            id: g.id,
            size: g.size,
            half_komi: g.half_komi,
            client_color: g.client_color,
            result: result.to_string(),
            plies: g.plies.iter().map(|m| m.to_ptn()).collect(),
        });
    }

    fn opponent_turn(&mut self, conn: &mut Conn) {
        loop {
            let Some(g) = self.game.as_mut() else { return };
            if g.pos.to_move() == g.client_color {
                return;
            }
            if self.scenario.offer_draw_at == Some(g.plies.len()) && !g.draw_offered {
                g.draw_offered = true;
                conn.send(&format!("Game#{} OfferDraw", g.id));
            }
            if self.scenario.opponent_delay_ms > 0 {
                thread::sleep(Duration::from_millis(self.scenario.opponent_delay_ms));
            }
            let mut moves = MoveList::new();
            g.pos.generate_moves(&mut moves);
            let candidates: Vec<Move> = if self.scenario.placements_only {
                moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_placement() && m.to_ptn().len() == 2)
                    .collect()
            } else {
                moves.to_vec()
            };
            let mv = candidates[self.rng.random_range(0..candidates.len())];
            g.pos.do_move(mv);
            g.plies.push(mv);
            let id = g.id;
            let ply = g.plies.len();
            conn.send(&format!("Game#{id} {}", ptn_to_server(&mv.to_ptn())));
            if self.scenario.request_undo_at == Some(ply) && !self.undo_asked {
                self.undo_asked = true;
                g.undo_requested = true;
                conn.send(&format!("Game#{id} RequestUndo"));
            }
            self.send_time(conn);
            if self.after_ply(conn) {
                self.hung_up = true;
                conn.close();
                return;
            }
        }
    }
}

/// Whether a read on a socket with a read timeout ended for want of data, not by a fault.
fn read_timed_out(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}
