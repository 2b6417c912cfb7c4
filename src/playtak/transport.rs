//! The connection to the server: text lines over plain TCP (the server's telnet port) or over
//! WebSocket (`ws://`, binary frames with the `binary` subprotocol, as the server's own
//! handshake answers). Reads wait at most a short poll interval so the caller can send
//! keep-alives and watch its engine between lines. TLS (`wss://`) is not built in: Menhir keeps
//! tungstenite's default features (see Cargo.toml), so use the telnet port or a local TLS proxy.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;
use tungstenite::client::IntoClientRequest;
use tungstenite::http::HeaderValue;
use tungstenite::{Message, WebSocket};

/// A line longer than this is cut off and dropped (the server's own messages are short).
const MAX_LINE: usize = 64 * 1024;

/// Where to connect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `HOST:PORT`: text lines over TCP.
    Tcp(String),
    /// `ws://HOST:PORT/PATH`.
    WebSocket(String),
}

impl Endpoint {
    /// From `--server`: `ws://...` is WebSocket, `wss://` is refused (no TLS built in), anything
    /// else is `HOST:PORT` over TCP.
    pub fn parse(text: &str) -> Result<Endpoint, String> {
        if text.starts_with("wss://") {
            return Err(format!(
                "'{text}': wss:// (TLS) is not built into menhir; use the telnet port \
                 (HOST:PORT) or ws:// through a local TLS proxy"
            ));
        }
        if text.starts_with("ws://") {
            return Ok(Endpoint::WebSocket(text.to_string()));
        }
        match text.rsplit_once(':') {
            Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
                Ok(Endpoint::Tcp(text.to_string()))
            }
            _ => Err(format!("'{text}' is not HOST:PORT or ws://HOST:PORT/PATH")),
        }
    }
}

enum Inner {
    Tcp(TcpStream),
    Ws(Box<WebSocket<TcpStream>>),
}

/// An open connection.
pub struct Connection {
    inner: Inner,
    pending: Vec<u8>,
    lines: VecDeque<String>,
}

fn host_port_of_ws(url: &str) -> Result<String, String> {
    let rest = url.trim_start_matches("ws://");
    let host_port = rest.split('/').next().unwrap_or("");
    if host_port.contains(':') {
        Ok(host_port.to_string())
    } else if !host_port.is_empty() {
        Ok(format!("{host_port}:80"))
    } else {
        Err(format!("'{url}' has no host"))
    }
}

fn connect_tcp(host_port: &str, timeout: Duration) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
    for addr in host_port.to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = e,
        }
    }
    Err(last)
}

impl Connection {
    /// Connects, waiting at most `timeout`; reads then wait at most `poll` each.
    pub fn open(endpoint: &Endpoint, timeout: Duration, poll: Duration) -> Result<Self, String> {
        let inner = match endpoint {
            Endpoint::Tcp(host_port) => {
                let stream = connect_tcp(host_port, timeout)
                    .map_err(|e| format!("cannot connect to {host_port}: {e}"))?;
                let _ = stream.set_nodelay(true);
                stream
                    .set_read_timeout(Some(poll))
                    .map_err(|e| e.to_string())?;
                Inner::Tcp(stream)
            }
            Endpoint::WebSocket(url) => {
                let host_port = host_port_of_ws(url)?;
                let stream = connect_tcp(&host_port, timeout)
                    .map_err(|e| format!("cannot connect to {host_port}: {e}"))?;
                let _ = stream.set_nodelay(true);
                // The handshake itself blocks (bounded by `timeout`), then reads poll.
                stream
                    .set_read_timeout(Some(timeout))
                    .map_err(|e| e.to_string())?;
                let mut request = url
                    .as_str()
                    .into_client_request()
                    .map_err(|e| format!("bad WebSocket URL '{url}': {e}"))?;
                request
                    .headers_mut()
                    .insert("Sec-WebSocket-Protocol", HeaderValue::from_static("binary"));
                let (ws, _) = tungstenite::client(request, stream)
                    .map_err(|e| format!("WebSocket handshake with {url} failed: {e}"))?;
                ws.get_ref()
                    .set_read_timeout(Some(poll))
                    .map_err(|e| e.to_string())?;
                Inner::Ws(Box::new(ws))
            }
        };
        Ok(Connection {
            inner,
            pending: Vec::new(),
            lines: VecDeque::new(),
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        let result = match &mut self.inner {
            Inner::Tcp(stream) => stream
                .write_all(format!("{line}\n").as_bytes())
                .and_then(|_| stream.flush())
                .map_err(|e| e.to_string()),
            Inner::Ws(ws) => ws
                .send(Message::Binary(line.as_bytes().to_vec().into()))
                .map_err(|e| e.to_string()),
        };
        result.map_err(|e| format!("cannot send to the server: {e}"))
    }

    /// The next line, `Ok(None)` if none came within the poll interval, `Err` when the
    /// connection is gone.
    pub fn recv(&mut self) -> Result<Option<String>, String> {
        if let Some(line) = self.lines.pop_front() {
            return Ok(Some(line));
        }
        match &mut self.inner {
            Inner::Tcp(stream) => {
                let mut buffer = [0u8; 4096];
                match stream.read(&mut buffer) {
                    Ok(0) => return Err("the server closed the connection".into()),
                    Ok(n) => self.pending.extend_from_slice(&buffer[..n]),
                    Err(e) if is_timeout(&e) => return Ok(None),
                    Err(e) => return Err(format!("connection lost: {e}")),
                }
            }
            Inner::Ws(ws) => match ws.read() {
                Ok(Message::Text(text)) => self.pending.extend_from_slice(text.as_bytes()),
                Ok(Message::Binary(bytes)) => self.pending.extend_from_slice(&bytes),
                Ok(Message::Close(_)) => return Err("the server closed the connection".into()),
                Ok(_) => return Ok(None),
                Err(tungstenite::Error::Io(e)) if is_timeout(&e) => return Ok(None),
                Err(e) => return Err(format!("connection lost: {e}")),
            },
        }
        // WebSocket messages are whole lines, possibly without the newline.
        if matches!(self.inner, Inner::Ws(_)) && self.pending.last() != Some(&b'\n') {
            self.pending.push(b'\n');
        }
        self.split_lines();
        Ok(self.lines.pop_front())
    }

    fn split_lines(&mut self) {
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let raw: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&raw);
            let text = text.trim_end_matches(['\n', '\r']);
            if !text.trim().is_empty() {
                self.lines.push_back(text.to_string());
            }
        }
        if self.pending.len() > MAX_LINE {
            log::warn!("dropped an over-long line from the server");
            self.pending.clear();
        }
    }

    /// Closes the connection (best effort).
    pub fn close(&mut self) {
        match &mut self.inner {
            Inner::Tcp(stream) => {
                let _ = stream.shutdown(std::net::Shutdown::Both);
            }
            Inner::Ws(ws) => {
                let _ = ws.close(None);
                let _ = ws.flush();
            }
        }
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}
