//! A second double, for matches between two real clients (the ponder match of
//! tests/playtak_ponder.rs): it pairs them as the server does, from the same README
//! (USTakAssociation/playtak-api, `server/README.md`). One client posts a seek, the server lists
//! it to everyone (`Seek new`), the other sends `Accept N`; the seeks of both players are removed
//! (`Seek remove`) and both get `Game Start` with their colour. Each move is checked on Menhir's
//! board, answered `OK` (a refused one `NOK`), relayed to the opponent, and followed by both
//! clocks to both players (`Timems`, or `Time` in seconds under protocol 0). The clock is the
//! server's: the side to move loses time from the last move (from the start for the first), the
//! increment is added after each move, and a flag that falls ends the game at once, lost on time
//! (`1-0`/`0-1`). Games end as the server ends them: a road (`R-0`/`0-R`), flats on a full
//! board or when a side has no pieces left (`F-0`/`0-F`, or `1/2-1/2` on a tie), a resignation
//! (`1-0`/`0-1`), a draw agreed by both sides' `OfferDraw`, a player who quits or drops
//! (`Game#N Abandoned. NAME quit`; the server keeps a dropped player's game for a while, this
//! double does not).
//!
//! Two things the real server does not do, for a fair match: a seek open to either colour (`A`)
//! gives the seeker White in the first game, Black in the second, and so on (the server draws
//! lots); and the double can start each game from a book opening: after `Game Start` it sends
//! the opening's plies to both players as it sends every ply on a resume, so the clients play on
//! from there, then starts the clocks. Game k (from 0) uses opening k / 2, so each opening is
//! played with both colours. Undo is not relayed (`NOK`); `PING`, `Client`, `Protocol` get
//! `OK`. On 127.0.0.1 only, plain TCP only.
#![allow(dead_code)]

use menhir::core::{Color, Move, Position};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::ptn_to_server;
use super::server_to_ptn;

/// What the pairing double does.
#[derive(Clone, Debug)]
pub struct PairScenario {
    /// Registered accounts (name, password); guests are welcome too.
    pub accounts: Vec<(String, String)>,
    /// Book openings as PTN plies; game k starts from opening (k / 2) modulo their number.
    /// Empty: every game starts from the empty board.
    pub openings: Vec<Vec<String>>,
    /// A guard, not a server rule: a game reaching this many plies is drawn.
    pub max_plies: usize,
}

impl Default for PairScenario {
    fn default() -> PairScenario {
        PairScenario {
            accounts: Vec::new(),
            openings: Vec::new(),
            max_plies: 1000,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    Road,
    Flats,
    Time,
    Resign,
    Draw,
    Abandoned,
    PlyCap,
}

/// A finished game as the double saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct PairGame {
    pub id: u64,
    pub size: usize,
    pub half_komi: i32,
    pub white: String,
    pub black: String,
    /// As sent in `Over`: `R-0`, `0-F`, `1-0`, `1/2-1/2`, ...
    pub result: String,
    pub ending: Ending,
    /// Every ply in PTN, the book's first.
    pub plies: Vec<String>,
    pub book_plies: usize,
    /// Both clocks at the end, in ms.
    pub clocks_ms: [u64; 2],
    /// The clock the game was played at, in seconds.
    pub time_s: u64,
    pub increment_s: u64,
}

impl PairGame {
    /// The score of `name` in this game: 1, 0.5 or 0 (None if it did not play).
    pub fn score_of(&self, name: &str) -> Option<f64> {
        let white = if name == self.white {
            true
        } else if name == self.black {
            false
        } else {
            return None;
        };
        let (w, b) = match self.result.as_str() {
            "R-0" | "F-0" | "1-0" => (1.0, 0.0),
            "0-R" | "0-F" | "0-1" => (0.0, 1.0),
            _ => (0.5, 0.5),
        };
        Some(if white { w } else { b })
    }
}

/// What the double observed.
#[derive(Default, Debug)]
pub struct PairObserved {
    pub games: Vec<PairGame>,
    pub started: usize,
    pub connections: usize,
    /// Moves refused (`NOK`).
    pub move_noks: usize,
    /// Every line received, with the sender's name (empty before login).
    pub received: Vec<(String, String)>,
}

pub struct PairDouble {
    pub addr: SocketAddr,
    pub observed: Arc<Mutex<PairObserved>>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

enum Event {
    Connected(usize, TcpStream),
    Line(usize, String),
    Closed(usize),
}

impl PairDouble {
    pub fn start(scenario: PairScenario) -> PairDouble {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let observed = Arc::new(Mutex::new(PairObserved::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let st = stop.clone();
        let acceptor = thread::spawn(move || accept_loop(listener, tx, st));
        let (obs, st) = (observed.clone(), stop.clone());
        let server = thread::spawn(move || {
            let mut server = PairServer {
                scenario,
                observed: obs,
                clients: HashMap::new(),
                seeks: Vec::new(),
                next_seek: 1,
                games: HashMap::new(),
                next_game: 1,
                guests: 0,
            };
            server.run(rx, &st);
        });
        PairDouble {
            addr,
            observed,
            stop,
            threads: vec![acceptor, server],
        }
    }

    pub fn games(&self) -> Vec<PairGame> {
        self.observed.lock().unwrap().games.clone()
    }

    /// Waits until `n` games are finished or `limit` passes; returns the games.
    pub fn wait_for_games(&self, n: usize, limit: Duration) -> Vec<PairGame> {
        let start = Instant::now();
        loop {
            let games = self.games();
            if games.len() >= n || start.elapsed() > limit {
                return games;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for PairDouble {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

fn accept_loop(listener: TcpListener, tx: Sender<Event>, stop: Arc<AtomicBool>) {
    let mut next = 0;
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                let id = next;
                next += 1;
                let Ok(reader) = stream.try_clone() else {
                    continue;
                };
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_nodelay(true);
                if tx.send(Event::Connected(id, stream)).is_err() {
                    return;
                }
                let (tx, stop) = (tx.clone(), stop.clone());
                thread::spawn(move || read_loop(id, reader, tx, stop));
            }
            Err(_) => thread::sleep(Duration::from_millis(10)),
        }
    }
}

/// One client's lines onto the server's channel, as they come.
fn read_loop(id: usize, mut stream: TcpStream, tx: Sender<Event>, stop: Arc<AtomicBool>) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 4096];
    while !stop.load(Ordering::SeqCst) {
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                while let Some(i) = buf.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = buf.drain(..=i).collect();
                    let line = String::from_utf8_lossy(&line).trim_end().to_string();
                    if tx.send(Event::Line(id, line)).is_err() {
                        return;
                    }
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
    }
    let _ = tx.send(Event::Closed(id));
}

struct Client {
    stream: TcpStream,
    name: Option<String>,
    protocol: u32,
    game: Option<u64>,
}

struct ListedSeek {
    no: u64,
    owner: usize,
    /// What follows `Seek new NO NAME ` in the listing.
    fields: Vec<String>,
    name: String,
}

struct LiveGame {
    id: u64,
    size: usize,
    half_komi: i32,
    /// White's and Black's clients.
    players: [usize; 2],
    names: [String; 2],
    pos: Position,
    plies: Vec<Move>,
    book_plies: usize,
    clocks_ms: [u64; 2],
    /// When the side to move's clock started running.
    since: Instant,
    time_s: u64,
    increment_ms: u64,
    draw_offered: [bool; 2],
}

impl LiveGame {
    /// The side to move's time left now, in ms.
    fn left_ms(&self, now: Instant) -> u64 {
        let side = self.pos.to_move().index();
        let spent = now.saturating_duration_since(self.since).as_millis() as u64;
        self.clocks_ms[side].saturating_sub(spent)
    }
}

struct PairServer {
    scenario: PairScenario,
    observed: Arc<Mutex<PairObserved>>,
    clients: HashMap<usize, Client>,
    seeks: Vec<ListedSeek>,
    next_seek: u64,
    games: HashMap<u64, LiveGame>,
    next_game: u64,
    guests: usize,
}

impl PairServer {
    fn run(&mut self, rx: Receiver<Event>, stop: &AtomicBool) {
        while !stop.load(Ordering::SeqCst) {
            // Wake for the earliest flag, or every 50 ms to see `stop`.
            let now = Instant::now();
            let wait = self
                .games
                .values()
                .map(|g| Duration::from_millis(g.left_ms(now)))
                .min()
                .unwrap_or(Duration::from_millis(50))
                .min(Duration::from_millis(50));
            match rx.recv_timeout(wait) {
                Ok(Event::Connected(id, stream)) => {
                    self.observed.lock().unwrap().connections += 1;
                    self.clients.insert(
                        id,
                        Client {
                            stream,
                            name: None,
                            protocol: 0,
                            game: None,
                        },
                    );
                    self.send(id, "Welcome!");
                    self.send(id, "Login or Register");
                }
                Ok(Event::Line(id, line)) => self.line(id, &line),
                Ok(Event::Closed(id)) => self.gone(id),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            self.flags();
        }
    }

    fn send(&mut self, id: usize, line: &str) {
        if let Some(c) = self.clients.get_mut(&id) {
            let _ = c.stream.write_all(format!("{line}\n").as_bytes());
        }
    }

    fn logged_in(&self) -> Vec<usize> {
        let mut ids: Vec<usize> = self
            .clients
            .iter()
            .filter(|(_, c)| c.name.is_some())
            .map(|(&id, _)| id)
            .collect();
        ids.sort_unstable();
        ids
    }

    fn broadcast(&mut self, line: &str) {
        for id in self.logged_in() {
            self.send(id, line);
        }
    }

    fn name(&self, id: usize) -> String {
        self.clients
            .get(&id)
            .and_then(|c| c.name.clone())
            .unwrap_or_default()
    }

    fn line(&mut self, id: usize, line: &str) {
        let name = self.name(id);
        self.observed
            .lock()
            .unwrap()
            .received
            .push((name.clone(), line.to_string()));
        let w: Vec<&str> = line.split_whitespace().collect();
        let logged_in = !name.is_empty();
        match w.as_slice() {
            ["PING"] | ["Client", ..] => self.send(id, "OK"),
            ["Protocol", v] if !logged_in => {
                let v = v.parse().unwrap_or(0);
                if let Some(c) = self.clients.get_mut(&id) {
                    c.protocol = v;
                }
                self.send(id, "OK");
            }
            ["quit"] => {
                self.gone(id);
            }
            ["Login", "Guest", ..] if !logged_in => {
                self.guests += 1;
                let name = format!("Guest{}", self.guests);
                self.login(id, name);
            }
            ["Login", user, pass] if !logged_in => {
                let ok = self
                    .scenario
                    .accounts
                    .iter()
                    .any(|(n, p)| n == user && p == pass);
                if ok && !self.logged_in().iter().any(|&c| self.name(c) == *user) {
                    self.login(id, user.to_string());
                } else {
                    self.send(id, "Authentication failure");
                }
            }
            _ if !logged_in => self.send(id, "NOK"),
            ["Seek", size, time, inc, color, komi, pieces, caps, unrated, tournament, rest @ ..] => {
                let valid = size.parse::<usize>().is_ok_and(|s| (3..=8).contains(&s))
                    && time.parse::<u64>().is_ok()
                    && inc.parse::<u64>().is_ok()
                    && ["W", "B", "A"].contains(color)
                    && komi.parse::<i32>().is_ok_and(|k| (0..=8).contains(&k))
                    && pieces.parse::<u32>().is_ok()
                    && caps.parse::<u32>().is_ok()
                    && ["0", "1"].contains(unrated)
                    && ["0", "1"].contains(tournament)
                    && rest.len() <= 1;
                if !valid || self.clients[&id].game.is_some() {
                    self.send(id, "NOK");
                    return;
                }
                self.remove_seeks_of(id);
                let no = self.next_seek;
                self.next_seek += 1;
                let mut fields: Vec<String> = [size, time, inc, color, komi, pieces, caps]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                fields.push(unrated.to_string());
                fields.push(tournament.to_string());
                fields.push(rest.first().map(|s| s.to_string()).unwrap_or_default());
                let seek = ListedSeek {
                    no,
                    owner: id,
                    fields,
                    name: name.clone(),
                };
                let listing = format!("Seek new {no} {name} {}", seek.fields.join(" "));
                self.seeks.push(seek);
                self.broadcast(&listing);
            }
            ["Accept", n] => {
                let n: u64 = n.parse().unwrap_or(0);
                let Some(i) = self.seeks.iter().position(|s| s.no == n) else {
                    self.send(id, "NOK");
                    return;
                };
                let seeker = self.seeks[i].owner;
                let fields = self.seeks[i].fields.clone();
                let opponent = &fields[9];
                if seeker == id
                    || self.clients[&id].game.is_some()
                    || (!opponent.is_empty() && !opponent.eq_ignore_ascii_case(&name))
                {
                    self.send(id, "NOK");
                    return;
                }
                self.remove_seeks_of(seeker);
                self.remove_seeks_of(id);
                self.start_game(seeker, id, &fields);
            }
            [g, rest @ ..] if g.starts_with("Game#") => {
                let gid: u64 = g[5..].parse().unwrap_or(0);
                let in_it = self
                    .games
                    .get(&gid)
                    .and_then(|game| game.players.iter().position(|&p| p == id));
                let Some(side) = in_it else {
                    self.send(id, "NOK");
                    return;
                };
                match rest {
                    ["P", ..] | ["M", ..] => self.game_move(gid, side, &rest.join(" ")),
                    ["Resign"] => {
                        let result = if side == 0 { "0-1" } else { "1-0" };
                        self.over(gid, result, Ending::Resign);
                    }
                    ["OfferDraw"] => {
                        let game = self.games.get_mut(&gid).unwrap();
                        game.draw_offered[side] = true;
                        let both = game.draw_offered == [true, true];
                        let other = game.players[1 - side];
                        self.send(id, "OK");
                        if both {
                            self.over(gid, "1/2-1/2", Ending::Draw);
                        } else {
                            self.send(other, &format!("Game#{gid} OfferDraw"));
                        }
                    }
                    ["RemoveDraw"] => {
                        let game = self.games.get_mut(&gid).unwrap();
                        game.draw_offered[side] = false;
                        let other = game.players[1 - side];
                        self.send(id, "OK");
                        self.send(other, &format!("Game#{gid} RemoveDraw"));
                    }
                    _ => self.send(id, "NOK"),
                }
            }
            ["Tell", to, ..] if w.len() > 2 => {
                let text = line.splitn(3, ' ').nth(2).unwrap_or("").to_string();
                self.send(id, &format!("Told <{to}> {text}"));
                let target = self.logged_in().into_iter().find(|&c| self.name(c) == *to);
                if let Some(t) = target {
                    self.send(t, &format!("Tell <{name}> {text}"));
                }
            }
            _ => self.send(id, "NOK"),
        }
    }

    fn login(&mut self, id: usize, name: String) {
        if let Some(c) = self.clients.get_mut(&id) {
            c.name = Some(name.clone());
        }
        self.send(id, &format!("Welcome {name}!"));
        let listings: Vec<String> = self
            .seeks
            .iter()
            .map(|s| format!("Seek new {} {} {}", s.no, s.name, s.fields.join(" ")))
            .collect();
        for l in listings {
            self.send(id, &l);
        }
    }

    fn remove_seeks_of(&mut self, id: usize) {
        let (gone, kept): (Vec<ListedSeek>, Vec<ListedSeek>) = std::mem::take(&mut self.seeks)
            .into_iter()
            .partition(|s| s.owner == id);
        self.seeks = kept;
        for s in gone {
            self.broadcast(&format!(
                "Seek remove {} {} {}",
                s.no,
                s.name,
                s.fields.join(" ")
            ));
        }
    }

    fn start_game(&mut self, seeker: usize, acceptor: usize, fields: &[String]) {
        let size: usize = fields[0].parse().unwrap();
        let time_s: u64 = fields[1].parse().unwrap();
        let increment_s: u64 = fields[2].parse().unwrap();
        let half_komi: i32 = fields[4].parse().unwrap();
        let k = self.observed.lock().unwrap().started;
        let seeker_white = match fields[3].as_str() {
            "W" => true,
            "B" => false,
            _ => k.is_multiple_of(2),
        };
        let players = if seeker_white {
            [seeker, acceptor]
        } else {
            [acceptor, seeker]
        };
        let names = [self.name(players[0]), self.name(players[1])];
        let id = self.next_game;
        self.next_game += 1;
        self.observed.lock().unwrap().started += 1;
        let mut pos = Position::start(size).unwrap();
        pos.set_half_komi(half_komi);
        let mut plies = Vec::new();
        if !self.scenario.openings.is_empty() {
            let book = &self.scenario.openings[(k / 2) % self.scenario.openings.len()];
            for ptn in book {
                let mv = pos.parse_move(ptn).expect("a book ply");
                assert!(pos.is_legal(mv), "book ply {ptn} is illegal");
                pos.do_move(mv);
                plies.push(mv);
            }
            assert!(pos.result().is_none(), "the book ends the game");
        }
        for (side, &p) in players.iter().enumerate() {
            if let Some(c) = self.clients.get_mut(&p) {
                c.game = Some(id);
            }
            let colour = if side == 0 { "white" } else { "black" };
            self.send(
                p,
                &format!(
                    "Game Start {id} {size} {} vs {} {colour} {time_s} {half_komi} {} {} {} {}",
                    names[0], names[1], fields[5], fields[6], fields[7], fields[8]
                ),
            );
            for mv in &plies {
                self.send(p, &format!("Game#{id} {}", ptn_to_server(&mv.to_ptn())));
            }
        }
        let game = LiveGame {
            id,
            size,
            half_komi,
            players,
            names,
            pos,
            book_plies: plies.len(),
            plies,
            clocks_ms: [time_s * 1000; 2],
            since: Instant::now(),
            time_s,
            increment_ms: increment_s * 1000,
            draw_offered: [false; 2],
        };
        self.games.insert(id, game);
        self.send_time(id);
    }

    fn send_time(&mut self, gid: u64) {
        let Some(g) = self.games.get(&gid) else {
            return;
        };
        let ([w, b], players) = (g.clocks_ms, g.players);
        for p in players {
            let protocol = self.clients.get(&p).map_or(0, |c| c.protocol);
            let line = if protocol >= 1 {
                format!("Game#{gid} Timems {w} {b}")
            } else {
                format!("Game#{gid} Time {} {}", w / 1000, b / 1000)
            };
            self.send(p, &line);
        }
    }

    fn game_move(&mut self, gid: u64, side: usize, text: &str) {
        let now = Instant::now();
        let game = self.games.get_mut(&gid).unwrap();
        let mover = game.players[side];
        let mv = server_to_ptn(text)
            .and_then(|p| game.pos.parse_move(&p).ok())
            .filter(|&mv| game.pos.to_move().index() == side && game.pos.is_legal(mv));
        let Some(mv) = mv else {
            self.observed.lock().unwrap().move_noks += 1;
            self.send(mover, "NOK");
            self.send(mover, "Error:Invalid move");
            return;
        };
        if game.left_ms(now) == 0 {
            // Too late: the flag fell before the move came.
            self.send(mover, "NOK");
            self.flags();
            return;
        }
        game.clocks_ms[side] = game.left_ms(now) + game.increment_ms;
        game.since = now;
        game.pos.do_move(mv);
        game.plies.push(mv);
        game.draw_offered = [false; 2];
        let other = game.players[1 - side];
        let result = game.pos.result();
        let capped = game.plies.len() >= self.scenario.max_plies;
        self.send(mover, "OK");
        self.send(
            other,
            &format!("Game#{gid} {}", ptn_to_server(&mv.to_ptn())),
        );
        self.send_time(gid);
        if let Some(result) = result {
            let ending = match result {
                menhir::core::GameResult::Road(_) => Ending::Road,
                _ => Ending::Flats,
            };
            self.over(gid, &result.to_string(), ending);
        } else if capped {
            self.over(gid, "1/2-1/2", Ending::PlyCap);
        }
    }

    /// Ends every game whose side to move has run out of time.
    fn flags(&mut self) {
        let now = Instant::now();
        let fallen: Vec<(u64, Color)> = self
            .games
            .values()
            .filter(|g| g.left_ms(now) == 0)
            .map(|g| (g.id, g.pos.to_move()))
            .collect();
        for (gid, loser) in fallen {
            if let Some(g) = self.games.get_mut(&gid) {
                g.clocks_ms[loser.index()] = 0;
                g.since = now;
            }
            self.send_time(gid);
            let result = if loser == Color::White { "0-1" } else { "1-0" };
            self.over(gid, result, Ending::Time);
        }
    }

    fn over(&mut self, gid: u64, result: &str, ending: Ending) {
        let Some(g) = self.games.remove(&gid) else {
            return;
        };
        let now = Instant::now();
        let mut clocks = g.clocks_ms;
        clocks[g.pos.to_move().index()] = g.left_ms(now);
        for p in g.players {
            if let Some(c) = self.clients.get_mut(&p) {
                c.game = None;
            }
            self.send(p, &format!("Game#{gid} Over {result}"));
        }
        self.record(&g, result, ending, clocks);
    }

    fn record(&mut self, g: &LiveGame, result: &str, ending: Ending, clocks_ms: [u64; 2]) {
        self.observed.lock().unwrap().games.push(PairGame {
            id: g.id,
            size: g.size,
            half_komi: g.half_komi,
            white: g.names[0].clone(),
            black: g.names[1].clone(),
            result: result.to_string(),
            ending,
            plies: g.plies.iter().map(|m| m.to_ptn()).collect(),
            book_plies: g.book_plies,
            clocks_ms,
            time_s: g.time_s,
            increment_s: g.increment_ms / 1000,
        });
    }

    /// A client quit or dropped: its seeks go, its game is abandoned (lost).
    fn gone(&mut self, id: usize) {
        if !self.clients.contains_key(&id) {
            return;
        }
        self.remove_seeks_of(id);
        let name = self.name(id);
        if let Some(gid) = self.clients[&id].game {
            if let Some(g) = self.games.remove(&gid) {
                let side = g.players.iter().position(|&p| p == id).unwrap();
                let other = g.players[1 - side];
                self.send(other, &format!("Game#{gid} Abandoned. {name} quit"));
                if let Some(c) = self.clients.get_mut(&other) {
                    c.game = None;
                }
                let result = if side == 0 { "0-1" } else { "1-0" };
                let clocks = g.clocks_ms;
                self.record(&g, result, Ending::Abandoned, clocks);
            }
        }
        if let Some(c) = self.clients.remove(&id) {
            let _ = c.stream.shutdown(std::net::Shutdown::Both);
        }
    }
}
