//! `menhir serve`: TEI over WebSocket for PTN Ninja, on loopback port 7731 unless told otherwise.
//! Ctrl-C or SIGTERM stops every search and closes every connection, then the command returns.

use crate::tei::websocket::{
    ServeConfig, Server, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_PORT,
};
use clap::Args;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Connections `--max-connections` may allow.
const MAX_CONNECTIONS_RANGE: std::ops::RangeInclusive<usize> = 1..=64;
/// Message sizes `--max-message-bytes` may allow: a TEI line fits the lower end.
const MESSAGE_BYTES_RANGE: std::ops::RangeInclusive<usize> = 256..=16 * 1024 * 1024;

/// Flags of `menhir serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Where to listen: PORT, ADDR:PORT or localhost:PORT (port 0: any free port, printed on
    /// stderr). Only loopback addresses unless --allow-remote is given.
    #[arg(long, default_value_t = format!("127.0.0.1:{DEFAULT_PORT}"))]
    pub listen: String,
    /// Allow a non-loopback address: anyone who can connect can use this machine's CPU.
    #[arg(long)]
    pub allow_remote: bool,
    /// Simultaneous connections (each its own session, search and table); more are refused.
    #[arg(long, default_value_t = DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// Largest message accepted, in bytes; a larger one closes its connection.
    #[arg(long, default_value_t = DEFAULT_MAX_MESSAGE_BYTES)]
    pub max_message_bytes: usize,
}

/// The address `--listen` names.
pub fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    let bad = || format!("bad --listen '{text}': expected PORT, ADDR:PORT or localhost:PORT");
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        let port = port.parse::<u16>().map_err(|_| bad())?;
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    text.parse::<SocketAddr>().map_err(|_| bad())
}

/// Checks the flags into a server configuration; a non-loopback address needs `allow_remote`.
pub fn serve_config(args: &ServeArgs) -> Result<ServeConfig, String> {
    let addr = parse_listen(&args.listen)?;
    if !addr.ip().is_loopback() && !args.allow_remote {
        return Err(format!(
            "refusing to listen on {addr}: not a loopback address, so anyone who can connect \
             could use this machine's CPU (pass --allow-remote to do it anyway)"
        ));
    }
    if !MAX_CONNECTIONS_RANGE.contains(&args.max_connections) {
        return Err(format!(
            "bad --max-connections {}: must be {} to {}",
            args.max_connections,
            MAX_CONNECTIONS_RANGE.start(),
            MAX_CONNECTIONS_RANGE.end()
        ));
    }
    if !MESSAGE_BYTES_RANGE.contains(&args.max_message_bytes) {
        return Err(format!(
            "bad --max-message-bytes {}: must be {} to {}",
            args.max_message_bytes,
            MESSAGE_BYTES_RANGE.start(),
            MESSAGE_BYTES_RANGE.end()
        ));
    }
    Ok(ServeConfig {
        addr,
        max_connections: args.max_connections,
        max_message_bytes: args.max_message_bytes,
    })
}

/// Serves until Ctrl-C or SIGTERM.
pub fn serve(args: &ServeArgs) -> Result<(), String> {
    let config = serve_config(args)?;
    if !config.addr.ip().is_loopback() {
        eprintln!(
            "menhir: warning: listening on {}, which is not loopback: anyone who can reach it \
             can run searches on this machine",
            config.addr
        );
    }
    let server =
        Server::bind(config).map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = server
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let handle = server.handle();
    ctrlc::set_handler(move || handle.stop())
        .map_err(|e| format!("cannot install the Ctrl-C/SIGTERM handler: {e}"))?;
    eprintln!(
        "menhir: serving TEI over WebSocket at ws://{addr} (at most {} connections); Ctrl-C stops",
        config.max_connections
    );
    server.run();
    eprintln!("menhir: stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(listen: &str) -> ServeArgs {
        ServeArgs {
            listen: listen.into(),
            allow_remote: false,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        }
    }

    #[test]
    fn listen_forms() {
        assert_eq!(parse_listen("7731").unwrap().to_string(), "127.0.0.1:7731");
        assert_eq!(
            parse_listen("localhost:0").unwrap().to_string(),
            "127.0.0.1:0"
        );
        assert_eq!(
            parse_listen("[::1]:9000").unwrap().to_string(),
            "[::1]:9000"
        );
        assert!(parse_listen("localhost").is_err());
        assert!(parse_listen("127.0.0.1:99999").is_err());
    }

    #[test]
    fn remote_addresses_need_the_flag() {
        let err = serve_config(&args("0.0.0.0:7731")).unwrap_err();
        assert!(err.contains("--allow-remote"), "{err}");
        let mut remote = args("0.0.0.0:7731");
        remote.allow_remote = true;
        assert_eq!(
            serve_config(&remote).unwrap().addr.to_string(),
            "0.0.0.0:7731"
        );
        assert!(serve_config(&args("127.0.0.1:7731")).is_ok());
    }

    #[test]
    fn limits_are_checked() {
        let mut a = args("7731");
        a.max_connections = 0;
        assert!(serve_config(&a).unwrap_err().contains("--max-connections"));
        let mut a = args("7731");
        a.max_message_bytes = 10;
        assert!(serve_config(&a)
            .unwrap_err()
            .contains("--max-message-bytes"));
    }
}
