//! TEI over WebSocket, for PTN Ninja (its TEI bot connects to `ws://localhost:7731`): each
//! connection is its own [`Session`], the same protocol code as stdin/stdout, on its own thread.
//!
//! Framing is tungstenite's. A text message may hold several lines (each is one command); each
//! reply line goes out as one text message. A binary message, or a text message that is not
//! UTF-8, is answered with one `info string error:` line and changes nothing. A message over
//! the size limit is answered the same way, then the connection is closed (code 1009): the rest
//! of the oversized frame cannot be skipped. Connections beyond the limit are accepted only to
//! be closed at once with code 1013 ("try again later") and a reason.
//!
//! A connection thread polls: it reads with a short timeout and, between reads, sends what the
//! session's search thread has queued. A dropped connection ends its session at once: the
//! search is told to stop, and the session (with its transposition table) is dropped when the
//! search thread has answered. [`ServerHandle::stop`] (Ctrl-C, SIGTERM in `menhir serve`) ends
//! every session the same way, then closes each connection with code 1001.

use super::search_handle::Output;
use super::session::{Flow, Session};
use std::io::{self, ErrorKind};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};
use tungstenite::error::{CapacityError, Error as WsError};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tungstenite::{Message, WebSocket};

/// PTN Ninja's default TEI port.
pub const DEFAULT_PORT: u16 = 7731;
/// Simultaneous connections by default: each may search with its own threads and table.
pub const DEFAULT_MAX_CONNECTIONS: usize = 4;
/// Largest message by default. A `position` with a thousand moves is under 10 kB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// How long a connection waits for input before sending queued replies: the added latency.
const POLL: Duration = Duration::from_millis(5);
/// How often the accept loop looks at the stop flag.
const ACCEPT_POLL: Duration = Duration::from_millis(20);
/// A client must finish the WebSocket handshake, and take each reply, within this.
const IO_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a closing connection waits for the client's close reply.
const CLOSE_WAIT: Duration = Duration::from_secs(1);
/// Refusals in progress beyond which a new connection is dropped without a handshake.
const MAX_REFUSALS: usize = 16;

/// Where to listen and the limits per server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeConfig {
    /// Address and port (port 0: any free port).
    pub addr: SocketAddr,
    /// Simultaneous connections; more are refused.
    pub max_connections: usize,
    /// Largest message (and frame) accepted, in bytes.
    pub max_message_bytes: usize,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        }
    }
}

/// A bound server, not yet serving.
pub struct Server {
    listener: TcpListener,
    config: ServeConfig,
    handle: ServerHandle,
}

/// Stops a running server and counts its connections; clones share one server.
#[derive(Clone, Debug, Default)]
pub struct ServerHandle {
    stop: Arc<AtomicBool>,
    active: Arc<AtomicUsize>,
}

impl ServerHandle {
    /// Asks the server to stop: searches stop, connections close, [`Server::run`] returns.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Connections with a live session (a refused connection is not counted). A connection
    /// leaves the count only after its search has stopped and its session is gone.
    pub fn active(&self) -> usize {
        self.active.load(Ordering::SeqCst)
    }
}

impl Server {
    /// Binds `config.addr`.
    pub fn bind(config: ServeConfig) -> io::Result<Server> {
        let listener = TcpListener::bind(config.addr)?;
        listener.set_nonblocking(true)?;
        Ok(Server {
            listener,
            config,
            handle: ServerHandle::default(),
        })
    }

    /// The address bound (with the actual port when port 0 was asked for).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// A handle to stop the server and watch its connections.
    pub fn handle(&self) -> ServerHandle {
        self.handle.clone()
    }

    /// Serves until [`ServerHandle::stop`], then waits for every connection to close.
    pub fn run(self) {
        let refusals = Arc::new(AtomicUsize::new(0));
        let mut threads: Vec<JoinHandle<()>> = Vec::new();
        while !self.handle.stop.load(Ordering::SeqCst) {
            let (stream, peer) = match self.listener.accept() {
                Ok(accepted) => accepted,
                Err(e)
                    if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted =>
                {
                    thread::sleep(ACCEPT_POLL);
                    continue;
                }
                Err(e) => {
                    log::warn!("accepting a connection failed: {e}");
                    thread::sleep(ACCEPT_POLL);
                    continue;
                }
            };
            threads.retain(|t| !t.is_finished());
            let active = Arc::clone(&self.handle.active);
            if active.load(Ordering::SeqCst) >= self.config.max_connections {
                if refusals.load(Ordering::SeqCst) >= MAX_REFUSALS {
                    log::warn!("{peer}: dropped (too many connections being refused)");
                    continue;
                }
                log::warn!(
                    "{peer}: refused, {} connections already",
                    self.config.max_connections
                );
                refusals.fetch_add(1, Ordering::SeqCst);
                let refusals = Arc::clone(&refusals);
                let (config, max) = (self.config, self.config.max_connections);
                let _ = thread::Builder::new()
                    .name("menhir-ws-refuse".into())
                    .spawn(move || {
                        refuse(stream, &config, max);
                        refusals.fetch_sub(1, Ordering::SeqCst);
                    });
                continue;
            }
            active.fetch_add(1, Ordering::SeqCst);
            let (config, stop) = (self.config, Arc::clone(&self.handle.stop));
            let spawned = thread::Builder::new()
                .name(format!("menhir-ws-{peer}"))
                .spawn(move || {
                    let _leaving = Leaving(active);
                    serve_connection(stream, peer, &config, &stop);
                });
            match spawned {
                Ok(t) => threads.push(t),
                Err(e) => log::warn!("{peer}: cannot start its thread: {e}"),
            }
        }
        for t in threads {
            let _ = t.join();
        }
    }
}

/// Takes a connection off the active count when its thread ends, however it ends.
struct Leaving(Arc<AtomicUsize>);

impl Drop for Leaving {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn ws_config(config: &ServeConfig) -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(config.max_message_bytes))
        .max_frame_size(Some(config.max_message_bytes))
}

/// The WebSocket handshake on `stream`, within `IO_TIMEOUT`.
fn handshake(stream: TcpStream, config: &ServeConfig) -> Option<WebSocket<TcpStream>> {
    let peer = stream.peer_addr().ok();
    let prepared = stream
        .set_nonblocking(false)
        .and_then(|()| stream.set_read_timeout(Some(IO_TIMEOUT)))
        .and_then(|()| stream.set_write_timeout(Some(IO_TIMEOUT)))
        .and_then(|()| stream.set_nodelay(true));
    if let Err(e) = prepared {
        log::warn!("{peer:?}: cannot set up the socket: {e}");
        return None;
    }
    match tungstenite::accept_with_config(stream, Some(ws_config(config))) {
        Ok(ws) => Some(ws),
        Err(e) => {
            log::info!("{peer:?}: WebSocket handshake failed: {e}");
            None
        }
    }
}

/// Accepts the handshake only to close with code 1013 and the reason.
fn refuse(stream: TcpStream, config: &ServeConfig, max: usize) {
    if let Some(mut ws) = handshake(stream, config) {
        let reason = format!("server busy: {max} connections already (the limit); try again later");
        close(&mut ws, CloseCode::Again, &reason);
    }
}

/// Sends a close frame and waits briefly for the client's reply.
fn close(ws: &mut WebSocket<TcpStream>, code: CloseCode, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.to_owned().into(),
    };
    if ws.close(Some(frame)).is_err() {
        return;
    }
    let deadline = Instant::now() + CLOSE_WAIT;
    while Instant::now() < deadline {
        match ws.read() {
            Ok(_) => {}
            Err(WsError::Io(e)) if is_timeout(&e) => {}
            Err(_) => return,
        }
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

/// Why a connection's loop ended.
enum End {
    /// The client closed or vanished: nothing more can be sent.
    Gone,
    /// `quit`: close normally.
    Quit,
    /// The server is stopping.
    ServerStop,
    /// A message over the limit.
    TooBig,
}

fn serve_connection(stream: TcpStream, peer: SocketAddr, config: &ServeConfig, stop: &AtomicBool) {
    let Some(mut ws) = handshake(stream, config) else {
        return;
    };
    if let Err(e) = ws.get_ref().set_read_timeout(Some(POLL)) {
        log::warn!("{peer}: cannot set the read timeout: {e}");
        return;
    }
    log::info!("{peer}: connected");
    let (tx, rx) = channel::<String>();
    let out: Output = Arc::new(move |line: &str| {
        // The receiver is gone only once the connection is over; the line has nowhere to go.
        let _ = tx.send(line.to_owned());
    });
    let mut session = Session::for_gui(out.clone());
    let end = session_loop(&mut ws, &mut session, &out, &rx, stop, peer);
    // Stops a running search (its `bestmove` is queued) and waits for it, so the table goes
    // with the session right here, whether or not the client is still there.
    session.finish();
    drop(session);
    match end {
        End::Gone => log::info!("{peer}: disconnected; its search is stopped"),
        End::Quit => {
            let _ = send_queued(&mut ws, &rx);
            close(&mut ws, CloseCode::Normal, "quit");
            log::info!("{peer}: quit");
        }
        End::ServerStop => {
            let _ = send_queued(&mut ws, &rx);
            close(&mut ws, CloseCode::Away, "server shutting down");
            log::info!("{peer}: closed, the server is stopping");
        }
        End::TooBig => {
            let _ = send_queued(&mut ws, &rx);
            let reason = format!("message over {} bytes", config.max_message_bytes);
            close(&mut ws, CloseCode::Size, &reason);
            log::info!("{peer}: closed after a message over the size limit");
        }
    }
}

/// Sends every queued reply line, one message each; `false` if the connection failed.
fn send_queued(ws: &mut WebSocket<TcpStream>, rx: &Receiver<String>) -> bool {
    let mut any = false;
    while let Ok(line) = rx.try_recv() {
        if ws.write(Message::text(line)).is_err() {
            return false;
        }
        any = true;
    }
    !any || ws.flush().is_ok()
}

fn session_loop(
    ws: &mut WebSocket<TcpStream>,
    session: &mut Session,
    out: &Output,
    rx: &Receiver<String>,
    stop: &AtomicBool,
    peer: SocketAddr,
) -> End {
    loop {
        if !send_queued(ws, rx) {
            return End::Gone;
        }
        if stop.load(Ordering::SeqCst) {
            return End::ServerStop;
        }
        let message = match ws.read() {
            Ok(message) => message,
            Err(WsError::Io(e)) if is_timeout(&e) => continue,
            Err(WsError::Utf8(_)) => {
                out("info string error: a text message that is not UTF-8 was ignored");
                continue;
            }
            Err(WsError::Capacity(CapacityError::MessageTooLong { size, max_size })) => {
                out(&format!(
                    "info string error: message of {size} bytes is over the limit of {max_size}; closing"
                ));
                return End::TooBig;
            }
            Err(e) => {
                log::debug!("{peer}: read ended: {e}");
                return End::Gone;
            }
        };
        match message {
            Message::Text(text) => {
                for line in text.as_str().lines() {
                    if session.handle_line(line) == Flow::Quit {
                        return End::Quit;
                    }
                }
            }
            Message::Binary(_) => {
                out("info string error: a binary message was ignored (TEI is text: send text messages)");
            }
            // Pings are answered by tungstenite itself.
            Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            Message::Close(_) => return End::Gone,
        }
    }
}
