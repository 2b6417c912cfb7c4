//! The bot: connects, logs in, seeks or accepts, plays each game through the engine link, and
//! answers draw offers and undo requests by policy. A dropped connection is reopened with
//! back-off and an interrupted game resumed when the server restarts it on login (it sends
//! `Game Start` again, then every move so far, then the clocks). Chat lines addressed to the
//! bot are answered through [`Chat`]; Ctrl-C and SIGTERM through [`StopRequests`].
//!
//! [`StopRequests`]: super::StopRequests

use super::chat::{self, Chat};
use super::engine_link::{EngineLink, Strength, Thought};
use super::game::Game;
use super::notation::to_server;
use super::protocol::{GameStart, ListedSeek, Seek, ServerLine};
use super::summary::{self, RunSummary};
use super::transport::{Connection, Endpoint};
use super::turns::Turns;
use super::{Login, Mode, OnTerm, PlaytakConfig};
use crate::core::{Color, GameResult, RecordResult};
use crate::search::level::SEED_MAX;
use rand::Rng;
use std::collections::VecDeque;
use std::thread;
use std::time::{Duration, Instant};

/// How long a read waits before the loop looks at its engine, clock and Ctrl-C.
const POLL: Duration = Duration::from_millis(20);
/// How long a connection attempt (and the WebSocket handshake) may take: short enough that a
/// SIGTERM arriving meanwhile still ends the process within its 10 s.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the server has to answer a login.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an accepted seek may take to become a game before the bot looks for another.
const ACCEPT_WAIT: Duration = Duration::from_secs(10);

/// Why one connection ended.
enum End {
    /// Stop: `--max-games` reached or Ctrl-C.
    Quit,
    /// The connection dropped: reconnect.
    Dropped(String),
}

/// A command whose reply is `OK`/`NOK`, or `NOK` only, in the order sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sent {
    /// Always answered `OK` (or `NOK`).
    Acked(Ack),
    /// Answered `NOK` on failure; success shows otherwise (our `Seek new`, `Game Start`).
    FailOnly(Ack),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ack {
    Client,
    Protocol,
    Ping,
    Move,
    Draw,
    Undo,
    Seek,
    Accept,
}

struct Bot {
    config: PlaytakConfig,
    /// The engine, and the searches asked of it.
    turns: Turns,
    guest_token: String,
    name: String,
    game: Option<Game>,
    /// The game was cut off by a dropped connection and awaits the server's restart.
    resume_pending: bool,
    resume_deadline: Option<Instant>,
    resumed: bool,
    sent: VecDeque<Sent>,
    /// Our seek is on the server (or sent and not refused).
    seek_posted: bool,
    /// The seek last posted (the operator's, or one a player asked for in chat).
    posted_seek: Option<Seek>,
    /// Chat replies, and the wishes players made there.
    chat: Chat,
    /// A seek we accepted and when, until its game starts (or `ACCEPT_WAIT` passes: someone
    /// else took it).
    accepted: Option<(ListedSeek, Instant)>,
    /// Accept mode: the seeks on the server's list, and those already tried.
    listed: Vec<ListedSeek>,
    tried: Vec<u64>,
    summary: RunSummary,
    last_ping: Instant,
    /// Interrupts already acted on.
    interrupts_seen: usize,
}

/// Runs the bot until `--max-games`, Ctrl-C or a fatal error (login refused, seek refused, too
/// many failed reconnects).
pub fn run(config: PlaytakConfig) -> Result<RunSummary, String> {
    let engine = EngineLink::start(&config.engine)?;
    let mut rng = rand::rng();
    let guest_token: String = (0..20)
        .map(|_| (b'a' + rng.random_range(0..26u8)) as char)
        .collect();
    let chat = Chat::new(config.chat.clone());
    let mut bot = Bot {
        config,
        turns: Turns::new(engine),
        guest_token,
        name: String::new(),
        game: None,
        resume_pending: false,
        resume_deadline: None,
        resumed: false,
        sent: VecDeque::new(),
        seek_posted: false,
        posted_seek: None,
        chat,
        accepted: None,
        listed: Vec::new(),
        tried: Vec::new(),
        summary: RunSummary::default(),
        last_ping: Instant::now(),
        interrupts_seen: 0,
    };
    let mut failures = 0u32;
    let mut delay = bot.config.reconnect_initial;
    loop {
        // On SIGTERM the bot leaves even a game that awaits its resumption: it cannot resign a
        // game the server has not restarted, and it has seconds, not a reconnect's back-off.
        if bot.finished() || (bot.game.is_none() && bot.interrupts() > 0) || bot.terminated() {
            break;
        }
        let endpoint: &Endpoint = &bot.config.endpoint;
        match Connection::open(endpoint, CONNECT_TIMEOUT, POLL) {
            Ok(connection) => {
                bot.summary.connections += 1;
                log::info!("connected to {endpoint:?}");
                match bot.connection(connection)? {
                    End::Quit => break,
                    End::Dropped(why) => {
                        log::warn!("{why}; reconnecting");
                        failures = 0;
                        delay = bot.config.reconnect_initial;
                    }
                }
            }
            Err(why) => {
                failures += 1;
                if bot.config.max_reconnects.is_some_and(|max| failures > max) {
                    return Err(format!("{why} (gave up after {failures} attempts)"));
                }
                log::warn!("{why}; retrying in {} ms", delay.as_millis());
            }
        }
        bot.sleep_interruptibly(delay);
        delay = (delay * 2).min(bot.config.reconnect_max);
    }
    Ok(bot.summary)
}

impl Bot {
    fn interrupts(&self) -> usize {
        self.config.stop.interrupts()
    }

    fn terminated(&self) -> bool {
        self.config.stop.terminated()
    }

    /// `--max-games` counts finished games only: one left unfinished (`*`, the server lost it
    /// in a restart) was not played out.
    fn finished(&self) -> bool {
        let played = self
            .summary
            .games
            .iter()
            .filter(|g| g.result != RecordResult::Unfinished)
            .count();
        self.config
            .max_games
            .is_some_and(|max| played as u64 >= u64::from(max))
    }

    fn sleep_interruptibly(&self, delay: Duration) {
        let until = Instant::now() + delay;
        let seen = self.interrupts();
        while Instant::now() < until && self.interrupts() == seen && !self.terminated() {
            thread::sleep(POLL);
        }
    }

    fn send(&self, connection: &mut Connection, line: &str) -> Result<(), String> {
        if line.starts_with("Login ") && !line.starts_with("Login Guest") {
            log::debug!("> Login {} ********", self.name_for_login());
        } else {
            log::debug!("> {line}");
        }
        connection.send(line)
    }

    fn name_for_login(&self) -> &str {
        match &self.config.login {
            Login::User { name, .. } => name,
            Login::Guest => "Guest",
        }
    }

    /// One connection, from the greeting to a drop or the end of the run. `Err` is fatal.
    fn connection(&mut self, mut connection: Connection) -> Result<End, String> {
        self.sent.clear();
        self.seek_posted = false;
        self.accepted = None;
        // The server lists every seek again after the login.
        self.listed.clear();
        // The server restarts a game from its start: searches of the old connection are stale.
        self.turns.forget();
        if self.game.is_some() {
            self.resume_pending = true;
        }
        let login = match &self.config.login {
            Login::Guest => format!("Login Guest {}", self.guest_token),
            Login::User { name, password } => format!("Login {name} {password}"),
        };
        let opening = [
            format!("Client {}", self.config.client_name),
            "Protocol 1".to_string(),
        ];
        for (line, ack) in opening.iter().zip([Ack::Client, Ack::Protocol]) {
            if let Err(why) = self.send(&mut connection, line) {
                return Ok(End::Dropped(why));
            }
            self.sent.push_back(Sent::Acked(ack));
        }
        if let Err(why) = self.send(&mut connection, &login) {
            return Ok(End::Dropped(why));
        }
        // Until the login is answered: the server's greeting, the OKs, perhaps a resumed game.
        let deadline = Instant::now() + LOGIN_TIMEOUT;
        let mut early = Vec::new();
        loop {
            if Instant::now() > deadline {
                return Ok(End::Dropped("no answer to the login".into()));
            }
            if self.terminated() {
                log::warn!("terminated while logging in: quitting");
                let _ = self.send(&mut connection, "quit");
                connection.close();
                return Ok(End::Quit);
            }
            let line = match connection.recv() {
                Ok(Some(line)) => line,
                Ok(None) => continue,
                Err(why) => return Ok(End::Dropped(why)),
            };
            log::trace!("< {line}");
            match ServerLine::parse(&line) {
                ServerLine::LoggedIn(name) => {
                    log::info!("logged in as {name}");
                    self.name = name;
                    break;
                }
                ServerLine::LoginFailed(why) => {
                    connection.close();
                    return Err(format!(
                        "login as {} refused by the server: {why}",
                        self.name_for_login()
                    ));
                }
                ServerLine::Ok => {
                    self.sent.pop_front();
                }
                // `Client` and `Protocol` are answered first; a NOK after them is the login's.
                ServerLine::Nok if self.sent.is_empty() => {
                    connection.close();
                    return Err(format!(
                        "login as {} refused by the server (NOK)",
                        self.name_for_login()
                    ));
                }
                ServerLine::Nok => {
                    log::warn!("the server refused {:?}", self.sent.pop_front());
                }
                // A guest login restarts the game before the welcome: keep those lines.
                _ => early.push(line),
            }
        }
        if self.resume_pending {
            self.resume_deadline = Some(Instant::now() + self.config.resume_wait);
        }
        self.last_ping = Instant::now();
        for line in early {
            if let Some(end) = self.handle(&mut connection, &line)? {
                return Ok(end);
            }
        }
        loop {
            if let Some(end) = self.tick(&mut connection)? {
                return Ok(end);
            }
            match connection.recv() {
                Ok(Some(line)) => {
                    log::trace!("< {line}");
                    if let Some(end) = self.handle(&mut connection, &line)? {
                        return Ok(end);
                    }
                }
                Ok(None) => {}
                Err(why) => return Ok(End::Dropped(why)),
            }
        }
    }

    /// Everything that is not a server line: Ctrl-C, keep-alive, the resume deadline, the
    /// seek, the engine's answers and starting a search.
    fn tick(&mut self, connection: &mut Connection) -> Result<Option<End>, String> {
        let result = self.tick_inner(connection);
        match result {
            Ok(end) => Ok(end),
            Err(Fault::Dropped(why)) => Ok(Some(End::Dropped(why))),
            Err(Fault::Fatal(why)) => Err(why),
        }
    }

    fn tick_inner(&mut self, connection: &mut Connection) -> Result<Option<End>, Fault> {
        if self.terminated() {
            return self.on_term(connection).map(Some);
        }
        let interrupts = self.interrupts();
        if interrupts > self.interrupts_seen {
            self.interrupts_seen = interrupts;
            match (interrupts, self.game.is_some()) {
                (_, false) => {
                    log::warn!("interrupted: quitting");
                    return self.quit(connection).map(Some);
                }
                (1, true) => log::warn!(
                    "interrupted: stopping after this game (Ctrl-C again to resign and quit now)"
                ),
                (_, true) => {
                    log::warn!("interrupted again: resigning and quitting");
                    self.resign_as_asked(connection, "interrupted")?;
                    return self.quit(connection).map(Some);
                }
            }
        }
        if self.last_ping.elapsed() >= self.config.ping_interval {
            self.send_tracked(connection, "PING", Sent::Acked(Ack::Ping))?;
            self.last_ping = Instant::now();
        }
        if self.resume_pending && self.resume_deadline.is_some_and(|d| Instant::now() > d) {
            log::warn!("the server did not restart the interrupted game: it is lost");
            self.resume_pending = false;
            self.resume_deadline = None;
            self.end_game(
                RecordResult::Unfinished,
                "not resumed after a dropped connection",
            );
            if self.stop_now() {
                return self.quit(connection).map(Some);
            }
        }
        if self.game.is_none() && !self.resume_pending {
            self.look_for_game(connection)?;
        }
        while let Some(answer) = self.turns.poll(self.game.as_mut()) {
            self.thought(connection, answer)?;
            if self.game.is_none() && self.stop_now() {
                return self.quit(connection).map(Some);
            }
        }
        if let (Some(game), false) = (&self.game, self.resume_pending) {
            self.turns
                .think(game, self.config.move_margin)
                .map_err(Fault::Fatal)?;
            if self.config.ponder {
                self.turns.ponder(game).map_err(Fault::Fatal)?;
            }
        }
        Ok(None)
    }

    fn stop_now(&self) -> bool {
        self.finished() || self.interrupts() > 0 || self.terminated()
    }

    /// SIGTERM: leave now. The current game is resigned, or (`--on-term abandon`) left to the
    /// server by closing the connection without a word, as a crash would.
    fn on_term(&mut self, connection: &mut Connection) -> Result<End, Fault> {
        match (&self.game, self.config.on_term) {
            (None, _) => log::warn!("terminated: quitting"),
            (Some(game), OnTerm::Resign) => {
                log::warn!("terminated: resigning game {} and quitting", game.id());
                self.resign_as_asked(connection, "terminated (SIGTERM)")?;
            }
            (Some(game), OnTerm::Abandon) => {
                log::warn!(
                    "terminated: leaving game {} to the server and disconnecting",
                    game.id()
                );
                self.end_game(RecordResult::Unfinished, "left to the server on SIGTERM");
                connection.close();
                return Ok(End::Quit);
            }
        }
        self.quit(connection)
    }

    fn quit(&mut self, connection: &mut Connection) -> Result<End, Fault> {
        let _ = self.send(connection, "quit");
        connection.close();
        Ok(End::Quit)
    }

    fn send_tracked(
        &mut self,
        connection: &mut Connection,
        line: &str,
        sent: Sent,
    ) -> Result<(), Fault> {
        self.send(connection, line).map_err(Fault::Dropped)?;
        self.sent.push_back(sent);
        Ok(())
    }

    /// Posts our seek when there is none (seek mode); accept mode waits for `Seek new`.
    fn look_for_game(&mut self, connection: &mut Connection) -> Result<(), Fault> {
        if self.stop_now() {
            return Ok(());
        }
        if self
            .accepted
            .as_ref()
            .is_some_and(|(_, at)| at.elapsed() > ACCEPT_WAIT)
        {
            log::warn!("the seek we accepted did not start a game: looking for another");
            self.accepted = None;
        }
        self.accept_from_list(connection)?;
        if let Mode::Seek(base) = &self.config.mode {
            let now = Instant::now();
            if self.chat.expired(now) {
                self.seek_posted = false;
            }
            if !self.seek_posted {
                let seek = self.chat.seek(base, now);
                self.send_tracked(connection, &seek.command(), Sent::FailOnly(Ack::Seek))?;
                self.posted_seek = Some(seek);
                self.seek_posted = true;
            }
        }
        Ok(())
    }

    /// A `Tell` or `Shout`: answered (as a private `Tell`, which the server confirms with
    /// `Told`, never `OK`) when it is for the bot and the rate limit allows.
    fn chat_line(
        &mut self,
        connection: &mut Connection,
        from: &str,
        text: &str,
        private: bool,
    ) -> Result<(), Fault> {
        let context = chat::Context {
            base: match &self.config.mode {
                Mode::Seek(seek) => Some(seek),
                Mode::Accept(_) => None,
            },
            level: self.config.level,
            in_game: self.game.is_some(),
            now: Instant::now(),
        };
        let Some(answer) = self.chat.message(&self.name, from, text, private, &context) else {
            log::debug!("chat from {from} not for us or not answered: {text:?}");
            return Ok(());
        };
        log::info!("chat: {from} wrote {text:?}; answered {:?}", answer.reply);
        if answer.seek_changed && self.game.is_none() {
            self.seek_posted = false;
        }
        let line = format!("Tell {from} {}", answer.reply);
        self.send(connection, &line).map_err(Fault::Dropped)
    }

    /// The engine's answer for the current position: play it, or resign if it is illegal,
    /// malformed or late.
    fn thought(
        &mut self,
        connection: &mut Connection,
        answer: Result<Thought, String>,
    ) -> Result<(), Fault> {
        let Some(game) = &mut self.game else {
            return Ok(());
        };
        let thought = match answer {
            Ok(thought) => thought,
            Err(why) => return self.resign(connection, &why),
        };
        if thought.score_cp.is_some() {
            game.last_score = thought.score_cp;
        }
        let mv = match game.position.parse_move(&thought.bestmove) {
            Ok(mv) if game.position.is_legal(mv) => mv,
            Ok(_) | Err(_) => {
                let why = format!("the engine's move '{}' is illegal here", thought.bestmove);
                return self.resign(connection, &why);
            }
        };
        let line = format!("Game#{} {}", game.id(), to_server(mv, game.start.size));
        game.apply_ours(mv, thought.ponder.as_deref());
        self.send_tracked(connection, &line, Sent::Acked(Ack::Move))
    }

    /// Resigns the current game on a fault and records it as lost.
    fn resign(&mut self, connection: &mut Connection, why: &str) -> Result<(), Fault> {
        if let Some(game) = &self.game {
            log::error!("resigning game {}: {why}", game.id());
        }
        self.resign_as_asked(connection, why)
    }

    /// Resigns the current game (the caller has said why) and records it as lost.
    fn resign_as_asked(&mut self, connection: &mut Connection, why: &str) -> Result<(), Fault> {
        let Some(game) = &self.game else {
            return Ok(());
        };
        let line = format!("Game#{} Resign", game.id());
        let loss = RecordResult::Game(GameResult::Other(!game.color()));
        self.end_game(loss, why);
        self.send(connection, &line).map_err(Fault::Dropped)
    }

    /// Writes the game's PTN, counts it and forgets it.
    fn end_game(&mut self, result: RecordResult, how: &str) {
        let Some(game) = self.game.take() else {
            return;
        };
        self.turns.forget();
        self.resume_pending = false;
        self.resume_deadline = None;
        let site = match &self.config.endpoint {
            Endpoint::Tcp(s) | Endpoint::WebSocket(s) => format!("playtak {s}"),
        };
        let resumed = std::mem::take(&mut self.resumed);
        let summary = summary::finish(
            &game,
            result,
            how,
            resumed,
            self.config.ptn_dir.as_deref(),
            &site,
        );
        self.summary.games.push(summary);
        self.seek_posted = false;
    }

    /// One server line. `Err` is fatal; `Some(end)` ends the connection.
    fn handle(&mut self, connection: &mut Connection, line: &str) -> Result<Option<End>, String> {
        match self.handle_inner(connection, line) {
            Ok(end) => Ok(end),
            Err(Fault::Dropped(why)) => Ok(Some(End::Dropped(why))),
            Err(Fault::Fatal(why)) => Err(why),
        }
    }

    fn current(&mut self, id: u64) -> Option<&mut Game> {
        self.game.as_mut().filter(|g| g.id() == id)
    }

    fn handle_inner(
        &mut self,
        connection: &mut Connection,
        line: &str,
    ) -> Result<Option<End>, Fault> {
        match ServerLine::parse(line) {
            ServerLine::Ok => {
                while let Some(Sent::FailOnly(_)) = self.sent.front() {
                    self.sent.pop_front();
                }
                self.sent.pop_front();
            }
            ServerLine::Nok => self.refused(connection)?,
            ServerLine::GameStart(start) => self.game_start(connection, start)?,
            ServerLine::Move(id, text) => {
                let Some(game) = self.current(id) else {
                    log::warn!("ignored a move for game {id}, which is not ours: {line}");
                    return Ok(None);
                };
                if let Err(why) = game.apply_server_move(&text) {
                    // The server checks moves, so this is a desync: resign rather than hang.
                    let why = format!("the server's move does not fit our board: {why}");
                    self.resign(connection, &why)?;
                }
            }
            ServerLine::Time(id, white, black) => {
                if let Some(game) = self.current(id) {
                    game.set_clocks(white, black);
                }
            }
            ServerLine::Over(id, result) => {
                let unanswered = self
                    .sent
                    .iter()
                    .filter(|s| **s == Sent::Acked(Ack::Move))
                    .count();
                if let Some(game) = self.current(id) {
                    for _ in 0..too_late(game.position.result(), &result, unanswered) {
                        game.plies.pop();
                    }
                    let result = RecordResult::parse(&result).unwrap_or_else(|| {
                        log::warn!("unknown result '{result}' recorded as *");
                        RecordResult::Unfinished
                    });
                    self.end_game(result, "the server ended it");
                    if self.stop_now() {
                        return self.quit(connection).map(Some);
                    }
                }
            }
            ServerLine::Abandoned(id, who) => {
                if let Some(game) = self.current(id) {
                    let quitter = if who.eq_ignore_ascii_case(&game.start.white) {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let result = RecordResult::Game(GameResult::Other(!quitter));
                    self.end_game(result, &format!("abandoned by {who}"));
                    if self.stop_now() {
                        return self.quit(connection).map(Some);
                    }
                }
            }
            ServerLine::OfferDraw(id) => self.draw_offered(connection, id)?,
            ServerLine::RequestUndo(id) => {
                if self.current(id).is_some() {
                    if self.config.accept_undo {
                        log::info!("the opponent asks to undo: accepted (--accept-undo)");
                        let line = format!("Game#{id} RequestUndo");
                        self.send_tracked(connection, &line, Sent::Acked(Ack::Undo))?;
                    } else {
                        log::info!("the opponent asks to undo: declined (undo is never granted by default)");
                    }
                }
            }
            ServerLine::Undo(id) => {
                if let Some(game) = self.current(id) {
                    match game.undo() {
                        Ok(()) => {
                            game.generation += 1;
                            log::info!("undo: back to ply {}", game.plies.len());
                        }
                        Err(why) => log::warn!("ignored an undo: {why}"),
                    }
                }
            }
            ServerLine::RemoveDraw(_) | ServerLine::RemoveUndo(_) => {
                log::info!("{line}");
            }
            ServerLine::SeekNew(listed) => self.seek_listed(listed)?,
            ServerLine::SeekRemove(id) => {
                self.listed.retain(|l| l.id != id);
            }
            ServerLine::Message(text) => log::info!("server: {text}"),
            ServerLine::Chat {
                from,
                text,
                private,
            } => self.chat_line(connection, &from, &text, private)?,
            ServerLine::LoggedIn(_) | ServerLine::Greeting => {}
            ServerLine::LoginFailed(text) => log::warn!("unexpected: {text}"),
            ServerLine::Other(text) => log::debug!("ignored: {text}"),
            ServerLine::Bad(why) => log::warn!("ignored a bad server line: {why}"),
        }
        Ok(None)
    }

    /// `NOK`: the oldest command still waiting for an answer was refused.
    fn refused(&mut self, connection: &mut Connection) -> Result<(), Fault> {
        let which = self.sent.pop_front();
        match which {
            Some(Sent::FailOnly(Ack::Seek)) => {
                let seek = self
                    .posted_seek
                    .as_ref()
                    .map(Seek::command)
                    .unwrap_or_default();
                let _ = self.send(connection, "quit");
                connection.close();
                Err(Fault::Fatal(format!(
                    "the server refused the seek '{seek}' (NOK)"
                )))
            }
            Some(Sent::FailOnly(Ack::Accept)) => {
                log::warn!("the server refused our accept (the seek is gone?)");
                self.accepted = None;
                Ok(())
            }
            Some(Sent::Acked(Ack::Move)) => self.resign(connection, "the server refused our move"),
            Some(other) => {
                log::warn!("the server refused {other:?}");
                Ok(())
            }
            None => {
                log::warn!("NOK for no command we know of");
                Ok(())
            }
        }
    }

    fn game_start(&mut self, connection: &mut Connection, start: GameStart) -> Result<(), Fault> {
        // Our seek or accept has turned into this game.
        self.sent.retain(|s| !matches!(s, Sent::FailOnly(_)));
        self.seek_posted = false;
        if let Some(game) = self.game.as_mut() {
            if game.id() == start.id {
                log::info!("game {} restarted by the server: resuming", start.id);
                game.restart();
                self.resume_pending = false;
                self.resume_deadline = None;
                self.resumed = true;
                return Ok(());
            }
            log::warn!(
                "game {} started while game {} was open: that one is dropped",
                start.id,
                game.id()
            );
            self.end_game(RecordResult::Unfinished, "replaced by another game");
        }
        let increment = match (&self.posted_seek, self.accepted.take()) {
            (_, Some((accepted, _))) => accepted.seek.increment_s,
            (Some(seek), None) => seek.increment_s,
            (None, None) => 0,
        };
        let id = start.id;
        match Game::new(start, Duration::from_secs(u64::from(increment))) {
            Ok(mut game) => {
                // A player's wish may have set this game's level; else the operator's.
                game.level = self
                    .chat
                    .game_started(game.opponent())
                    .unwrap_or(self.config.level);
                let strength = Strength {
                    level: game.level,
                    seed: self
                        .config
                        .level_seed
                        .unwrap_or_else(|| rand::rng().random_range(0..=SEED_MAX)),
                };
                log::debug!(
                    "game {id} starts: {} vs {}, {}x{}, komi {} half flats, we are {:?}",
                    game.start.white,
                    game.start.black,
                    game.start.size,
                    game.start.size,
                    game.start.half_komi,
                    game.color()
                );
                let ready = self
                    .turns
                    .new_game(game.start.size, game.start.half_komi, strength);
                if let Err(why) = ready {
                    self.game = Some(game);
                    return self.resign(connection, &why);
                }
                self.game = Some(game);
                Ok(())
            }
            Err(why) => {
                log::error!("{why}: resigning");
                self.send(connection, &format!("Game#{id} Resign"))
                    .map_err(Fault::Dropped)
            }
        }
    }

    fn draw_offered(&mut self, connection: &mut Connection, id: u64) -> Result<(), Fault> {
        let threshold = self.config.accept_draw_below;
        let Some(game) = self.current(id) else {
            return Ok(());
        };
        let score = game.last_score;
        match (threshold, score) {
            (Some(below), Some(score)) if score < below => {
                log::info!("draw offered: accepted (our score {score} < {below})");
                let line = format!("Game#{id} OfferDraw");
                self.send_tracked(connection, &line, Sent::Acked(Ack::Draw))
            }
            _ => {
                log::info!("draw offered: declined (score {score:?}, threshold {threshold:?})");
                Ok(())
            }
        }
    }

    fn seek_listed(&mut self, listed: ListedSeek) -> Result<(), Fault> {
        if listed.name.eq_ignore_ascii_case(&self.name) {
            // Our own seek is on the list: it was accepted by the server.
            if let Some(pos) = self
                .sent
                .iter()
                .position(|s| *s == Sent::FailOnly(Ack::Seek))
            {
                self.sent.remove(pos);
            }
            log::debug!("seek {} posted", listed.id);
            return Ok(());
        }
        if matches!(self.config.mode, Mode::Accept(_)) {
            self.listed.push(listed);
        }
        Ok(())
    }

    /// Accept mode: accepts the first listed seek that passes the filter and was not tried.
    fn accept_from_list(&mut self, connection: &mut Connection) -> Result<(), Fault> {
        let Mode::Accept(filter) = &self.config.mode else {
            return Ok(());
        };
        if self.accepted.is_some() {
            return Ok(());
        }
        let Some(listed) = self
            .listed
            .iter()
            .find(|l| !self.tried.contains(&l.id) && filter.accepts(l, &self.name))
            .cloned()
        else {
            return Ok(());
        };
        log::info!("accepting seek {} by {}", listed.id, listed.name);
        let line = format!("Accept {}", listed.id);
        self.tried.push(listed.id);
        self.accepted = Some((listed, Instant::now()));
        self.send_tracked(connection, &line, Sent::FailOnly(Ack::Accept))
    }
}

/// What stops handling a line: the connection dropped, or something fatal.
enum Fault {
    Dropped(String),
    Fatal(String),
}

/// How many of our `unanswered` moves to take back when the server ends the game with
/// `server_result`: a move still unanswered when the game ends otherwise (a draw agreed, a flag,
/// a cap) came too late and the server will refuse it; only when the server's result is the one
/// our last move made on the board (`board_result`) was that move the game's end.
fn too_late(board_result: Option<GameResult>, server_result: &str, unanswered: usize) -> usize {
    match board_result {
        Some(result) if result.to_string() == server_result => 0,
        _ => unanswered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unanswered_move_counts_only_when_it_made_the_servers_result() {
        let road = Some(GameResult::Road(Color::White));
        // Our road is the server's result: the move stands.
        assert_eq!(too_late(road, "R-0", 1), 0);
        // The server ended it first (a cap, a flag, a draw): our winning move came too late.
        assert_eq!(too_late(road, "1/2-1/2", 1), 1);
        assert_eq!(too_late(road, "0-1", 1), 1);
        // A move that ended nothing on our board never counts once the game is over.
        assert_eq!(too_late(None, "1/2-1/2", 1), 1);
        assert_eq!(too_late(None, "0-R", 0), 0);
    }
}
