//! `menhir playtak`: Menhir (or any TEI engine) as a bot on a playtak server.
//!
//! - [`protocol`]: the server's lines, parsed; the `Seek` command written.
//! - [`notation`]: the server's move notation (`P A1 C`, `M A1 A3 1 2`) to and from [`Move`].
//! - [`game`]: one game's position, clocks and PTN record.
//! - [`transport`]: text lines over TCP or WebSocket.
//! - [`engine_link`]: the engine on a worker thread (in-process search or a TEI child).
//! - [`session`]: the bot itself: login, seeks, games, draw and undo policy, reconnects.
//! - [`turns`]: when the engine thinks and ponders, and which of its answers count.
//! - [`summary`]: a finished game's PTN file, log line and summary.
//! - [`chat`], [`chat_command`], [`rate_limit`]: answering people, and their wishes for the
//!   next game within the operator's limits.
//! - [`stop`]: Ctrl-C and SIGTERM, told apart.
//!
//! The protocol follows the server repository's README (USTakAssociation/playtak-api,
//! `server/README.md`).
//!
//! [`Move`]: crate::core::Move

pub mod chat;
pub mod chat_command;
pub mod engine_link;
pub mod game;
pub mod notation;
pub mod protocol;
pub mod rate_limit;
pub mod session;
pub mod stop;
pub mod summary;
pub mod transport;
pub mod turns;

pub use chat::{ChatConfig, ChatMode};
pub use engine_link::{EngineChoice, STOP_GRACE};
pub use notation::{from_server, parse_server_move, to_server};
pub use protocol::{GameStart, ListedSeek, Seek, SeekColor, ServerLine};
pub use session::run;
pub use stop::{OnTerm, StopRequests};
pub use summary::{GameSummary, RunSummary};
pub use transport::Endpoint;

use std::path::PathBuf;
use std::time::Duration;

/// The public server's telnet port (the README's production table).
pub const DEFAULT_SERVER: &str = "playtak.com:10000";

/// How to log in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Login {
    /// `Login Guest TOKEN`: the token (20 random lower-case letters, made per run) lets the
    /// same guest log back in after a dropped connection and resume its game.
    Guest,
    /// `Login NAME PASSWORD`.
    User {
        /// The account name.
        name: String,
        /// The password (from the environment or a file, never the command line).
        password: String,
    },
}

/// Which games to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Post this seek, and again after each game.
    Seek(Seek),
    /// Accept seeks that pass the filter.
    Accept(AcceptFilter),
}

/// Which seeks `--accept` takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AcceptFilter {
    /// Seekers to accept (case-insensitive); empty for anyone.
    pub names: Vec<String>,
    /// Board sizes to accept; empty for any size Menhir plays.
    pub sizes: Vec<usize>,
    /// Whether rated seeks are taken too (unrated ones always are).
    pub rated: bool,
}

impl AcceptFilter {
    /// Whether the bot takes this seek (it must also be playable, see [`playable`]).
    pub fn accepts(&self, listed: &ListedSeek, me: &str) -> bool {
        let by_name = self.names.is_empty()
            || self
                .names
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&listed.name));
        let by_size = self.sizes.is_empty() || self.sizes.contains(&listed.seek.size);
        let for_us =
            listed.seek.opponent.is_empty() || listed.seek.opponent.eq_ignore_ascii_case(me);
        by_name
            && by_size
            && for_us
            && (self.rated || listed.seek.unrated)
            && !listed.name.eq_ignore_ascii_case(me)
            && playable(&listed.seek).is_ok()
    }
}

/// Whether Menhir can play a game with these settings: sizes 3 to 8, komi 0 to 8 half flats
/// (the server's range, within Menhir's HalfKomi option), the standard reserves.
pub fn playable(seek: &Seek) -> Result<(), String> {
    if !(crate::core::MIN_SIZE..=crate::core::MAX_SIZE).contains(&seek.size) {
        return Err(format!("size {} is not 3 to 8", seek.size));
    }
    if !(0..=8).contains(&seek.half_komi) {
        return Err(format!(
            "komi {} half flats is not 0 to 8 (the server's range)",
            seek.half_komi
        ));
    }
    let (stones, caps) = crate::core::starting_reserves(seek.size);
    if seek.pieces != u32::from(stones) || seek.capstones != u32::from(caps) {
        return Err(format!(
            "{} pieces and {} capstones: Menhir plays only the standard {stones} and {caps} on {}x{}",
            seek.pieces, seek.capstones, seek.size, seek.size
        ));
    }
    Ok(())
}

/// Everything `menhir playtak` needs (the command line's `PlaytakArgs` builds it).
#[derive(Clone, Debug)]
pub struct PlaytakConfig {
    /// Where the server is.
    pub endpoint: Endpoint,
    /// How to log in.
    pub login: Login,
    /// The `Client` name sent first.
    pub client_name: String,
    /// Seek or accept.
    pub mode: Mode,
    /// The engine.
    pub engine: EngineChoice,
    /// Accept a draw offer when the engine's last score is below this many centi-flats.
    pub accept_draw_below: Option<i32>,
    /// Accept the opponent's undo requests (never by default).
    pub accept_undo: bool,
    /// Where each game's PTN is written.
    pub ptn_dir: Option<PathBuf>,
    /// Stop after this many finished games (an unfinished one, `*`, does not count).
    pub max_games: Option<u32>,
    /// Keep-alive interval (`PING`; the README recommends 30 s).
    pub ping_interval: Duration,
    /// First wait before reconnecting; doubled after each failure up to `reconnect_max`.
    pub reconnect_initial: Duration,
    /// Longest wait between reconnects.
    pub reconnect_max: Duration,
    /// Give up after this many failed connection attempts in a row (`None`: never).
    pub max_reconnects: Option<u32>,
    /// How long after logging back in the server has to restart an interrupted game.
    pub resume_wait: Duration,
    /// Time kept off our own clock for the network when telling the engine its time.
    pub move_margin: Duration,
    /// Ctrl-C presses (1 stops after the game, 2 resign and stop at once) and SIGTERM.
    pub stop: StopRequests,
    /// What SIGTERM does with the current game.
    pub on_term: OnTerm,
    /// How the bot answers chat and which wishes it takes.
    pub chat: ChatConfig,
    /// Search on the opponent's time (at full strength only).
    pub ponder: bool,
    /// The built-in search's strength level, 1 to `search::level::FULL_STRENGTH`, unless a
    /// player's wish sets another for their game.
    pub level: u32,
    /// The seed of a level's choices; `None`: a new one each game.
    pub level_seed: Option<u64>,
}
