//! `menhir playtak`: the command line of the playtak bot (see docs/playtak.md). The password
//! never comes from a flag: `PLAYTAK_PASSWORD` or `--password-file`. Exit statuses: 2 for a
//! bad command line (as clap gives for its own errors), 1 for a failure while running.

use crate::matchrun::engine::EngineSpec;
use crate::playtak::{
    self, AcceptFilter, ChatConfig, ChatMode, Endpoint, EngineChoice, Login, Mode, OnTerm,
    PlaytakConfig, Seek, SeekColor, StopRequests, DEFAULT_SERVER,
};
use crate::search::level::{FULL_STRENGTH, LEVEL_RANGE, SEED_MAX as LEVEL_SEED_MAX};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// The environment variable holding a registered account's password.
pub const PASSWORD_ENV: &str = "PLAYTAK_PASSWORD";

/// Flags of `menhir playtak`.
#[derive(Args, Debug, Clone)]
pub struct PlaytakArgs {
    /// The server: HOST:PORT (the telnet port, plain TCP) or ws://HOST:PORT/PATH.
    #[arg(long, default_value = DEFAULT_SERVER)]
    pub server: String,
    /// Log in as this registered user (password from PLAYTAK_PASSWORD or --password-file);
    /// without it the bot logs in as a guest.
    #[arg(long)]
    pub user: Option<String>,
    /// A file whose first line is the password of --user.
    #[arg(long)]
    pub password_file: Option<PathBuf>,
    /// Post a seek and re-post it after each game (the default unless --accept is given).
    #[arg(long, conflicts_with = "accept")]
    pub seek: bool,
    /// Accept seeks by these players instead of seeking (comma-separated; 'any' for anyone).
    #[arg(long, value_delimiter = ',')]
    pub accept: Vec<String>,
    /// With --accept: only these board sizes (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub accept_sizes: Vec<usize>,
    /// Board size of the seek (3 to 8).
    #[arg(long, default_value_t = 6)]
    pub size: usize,
    /// Time per player in seconds.
    #[arg(long, default_value_t = 600)]
    pub time: u32,
    /// Increment per move in seconds.
    #[arg(long, default_value_t = 10)]
    pub increment: u32,
    /// Our colour: white, black or any.
    #[arg(long, default_value = "any")]
    pub color: String,
    /// Komi in half flats, 0 to 8 (4 = 2 flats).
    #[arg(long, default_value_t = 4)]
    pub half_komi: i32,
    /// Stones per player (default: the standard number for the size; others are refused).
    #[arg(long)]
    pub pieces: Option<u32>,
    /// Capstones per player (default: the standard number for the size).
    #[arg(long)]
    pub capstones: Option<u32>,
    /// Rated seeks (seeks are unrated by default); with --accept, take rated seeks too.
    #[arg(long)]
    pub rated: bool,
    /// Only this player may accept the seek.
    #[arg(long)]
    pub opponent: Option<String>,
    /// A TEI engine instead of the built-in search: cmd=PROGRAM[,args=..][,option.X=V].
    #[arg(long)]
    pub engine: Option<String>,
    /// Built-in search: transposition table in MiB.
    #[arg(long, default_value_t = 256)]
    pub hash: usize,
    /// Built-in search: threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Built-in search: strength level, 1 (weakest) to 10 (full strength).
    #[arg(long, default_value_t = crate::search::level::FULL_STRENGTH)]
    pub level: u32,
    /// Built-in search: the seed of a level's choices (default: a new one each game).
    #[arg(long)]
    pub level_seed: Option<u64>,
    /// Think on the opponent's time: 'on' or 'off' (default: on for the built-in search at
    /// full strength, off for --engine).
    #[arg(long)]
    pub ponder: Option<String>,
    /// Accept a draw offer when the engine's last score is below this (centi-flats).
    #[arg(long, allow_hyphen_values = true)]
    pub accept_draw_below: Option<i32>,
    /// Grant the opponent's undo requests (never by default).
    #[arg(long)]
    pub accept_undo: bool,
    /// Write each game's PTN into this directory.
    #[arg(long)]
    pub ptn_dir: Option<PathBuf>,
    /// Stop after this many games.
    #[arg(long)]
    pub max_games: Option<u32>,
    /// Seconds between keep-alive PINGs.
    #[arg(long, default_value_t = 30)]
    pub ping_secs: u64,
    /// Longest wait between reconnect attempts, in seconds (the wait doubles from 1 s).
    #[arg(long, default_value_t = 60)]
    pub reconnect_max_secs: u64,
    /// Milliseconds kept off our own clock for network lag when the engine is told its time.
    #[arg(long, default_value_t = 500)]
    pub move_margin_ms: u64,
    /// On SIGTERM: 'resign' the current game and quit, or 'abandon' it (disconnect and leave
    /// it to the server).
    #[arg(long, default_value = "resign")]
    pub on_term: String,
    /// Chat: 'commands' (answer, and take players' wishes for the next game), 'help' (answer
    /// only) or 'off'.
    #[arg(long, default_value = "commands")]
    pub chat: String,
    /// Chat: the board sizes players may ask for (comma-separated; default all, 3 to 8).
    #[arg(long, value_delimiter = ',')]
    pub chat_sizes: Vec<usize>,
    /// Chat: the shortest time per player players may ask for, in seconds.
    #[arg(long, default_value_t = 60)]
    pub chat_min_time: u32,
    /// Chat: the longest time per player players may ask for, in seconds.
    #[arg(long, default_value_t = 1800)]
    pub chat_max_time: u32,
    /// Chat: the largest increment players may ask for, in seconds.
    #[arg(long, default_value_t = 30)]
    pub chat_max_increment: u32,
    /// Chat: the strength levels players may ask for (comma-separated; default all, 1 to 10;
    /// none with --engine).
    #[arg(long, value_delimiter = ',')]
    pub chat_levels: Vec<u32>,
    /// Chat: at most one reply per player in this many seconds.
    #[arg(long, default_value_t = 5)]
    pub chat_sender_secs: u64,
    /// Chat: at most this many replies a minute, over all players.
    #[arg(long, default_value_t = 10)]
    pub chat_replies_per_minute: usize,
    /// Chat: how long a seek made for one player stays theirs, in seconds.
    #[arg(long, default_value_t = 120)]
    pub chat_hold_secs: u64,
}

/// Why `menhir playtak` failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaytakError {
    /// The flags (or the password source they name) are wrong: nothing was connected. Exit 2.
    CommandLine(String),
    /// The run failed: a login or seek refused, an engine that would not start. Exit 1.
    Failed(String),
}

fn password(args: &PlaytakArgs) -> Result<String, String> {
    let password = match &args.password_file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read --password-file {}: {e}", path.display()))?
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string(),
        None => std::env::var(PASSWORD_ENV).map_err(|_| {
            format!("--user needs a password: set {PASSWORD_ENV} or give --password-file")
        })?,
    };
    if password.is_empty() || password.contains(char::is_whitespace) {
        return Err("the password is empty or contains spaces".into());
    }
    Ok(password)
}

/// Checks the flags into the bot's configuration.
pub fn playtak_config(args: &PlaytakArgs, stop: StopRequests) -> Result<PlaytakConfig, String> {
    let endpoint = Endpoint::parse(&args.server).map_err(|e| format!("bad --server {e}"))?;
    let login = match &args.user {
        Some(name) => Login::User {
            name: name.clone(),
            password: password(args)?,
        },
        None if args.password_file.is_some() => {
            return Err("--password-file needs --user".into());
        }
        None => Login::Guest,
    };
    let mode = if args.accept.is_empty() {
        let (stones, caps) = crate::core::starting_reserves(args.size.clamp(3, 8));
        let seek = Seek {
            size: args.size,
            time_s: args.time,
            increment_s: args.increment,
            color: SeekColor::parse(&args.color)
                .ok_or_else(|| format!("bad --color '{}': white, black or any", args.color))?,
            half_komi: args.half_komi,
            pieces: args.pieces.unwrap_or(u32::from(stones)),
            capstones: args.capstones.unwrap_or(u32::from(caps)),
            unrated: !args.rated,
            tournament: false,
            opponent: args.opponent.clone().unwrap_or_default(),
        };
        playtak::playable(&seek).map_err(|e| format!("bad seek: {e}"))?;
        if seek.time_s == 0 {
            return Err("bad seek: --time must be at least 1 second".into());
        }
        if !seek
            .opponent
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(format!("bad --opponent '{}'", seek.opponent));
        }
        Mode::Seek(seek)
    } else {
        let anyone = args.accept.iter().any(|n| n.eq_ignore_ascii_case("any"));
        for &size in &args.accept_sizes {
            if !(3..=8).contains(&size) {
                return Err(format!("bad --accept-sizes: {size} is not 3 to 8"));
            }
        }
        Mode::Accept(AcceptFilter {
            names: if anyone {
                Vec::new()
            } else {
                args.accept.clone()
            },
            sizes: args.accept_sizes.clone(),
            rated: args.rated,
        })
    };
    let engine = match &args.engine {
        Some(spec) => EngineChoice::External(spec.parse::<EngineSpec>()?),
        None => {
            if args.threads == 0 || args.hash == 0 {
                return Err("--threads and --hash must be at least 1".into());
            }
            EngineChoice::InProcess {
                hash_mb: args.hash,
                threads: args.threads,
            }
        }
    };
    if args.ping_secs == 0 {
        return Err("--ping-secs must be at least 1".into());
    }
    let on_term = OnTerm::parse(&args.on_term)
        .ok_or_else(|| format!("bad --on-term '{}': resign or abandon", args.on_term))?;
    let built_in = matches!(engine, EngineChoice::InProcess { .. });
    if !LEVEL_RANGE.contains(&args.level) {
        return Err(format!(
            "bad --level {}: {} to {FULL_STRENGTH} ({FULL_STRENGTH} is full strength)",
            args.level,
            LEVEL_RANGE.start()
        ));
    }
    if !built_in && (args.level != FULL_STRENGTH || args.level_seed.is_some()) {
        return Err(
            "--level and --level-seed are for the built-in search; with --engine set the \
             engine's own options (option.Level=N for Menhir)"
                .into(),
        );
    }
    if args.level_seed.is_some_and(|seed| seed > LEVEL_SEED_MAX) {
        return Err(format!("bad --level-seed: at most {LEVEL_SEED_MAX}"));
    }
    let ponder = match args
        .ponder
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None => built_in,
        Some("on") => true,
        Some("off") => false,
        Some(other) => return Err(format!("bad --ponder '{other}': on or off")),
    };
    Ok(PlaytakConfig {
        endpoint,
        login,
        client_name: format!("Menhir-{}", env!("CARGO_PKG_VERSION")),
        mode,
        engine,
        accept_draw_below: args.accept_draw_below,
        accept_undo: args.accept_undo,
        ptn_dir: args.ptn_dir.clone(),
        max_games: args.max_games,
        ping_interval: Duration::from_secs(args.ping_secs),
        reconnect_initial: Duration::from_secs(1),
        reconnect_max: Duration::from_secs(args.reconnect_max_secs.max(1)),
        max_reconnects: None,
        resume_wait: Duration::from_secs(5),
        move_margin: Duration::from_millis(args.move_margin_ms),
        stop,
        on_term,
        chat: chat_config(args, built_in)?,
        ponder,
        level: args.level,
        level_seed: args.level_seed,
    })
}

/// The chat flags, checked (levels are offered only with the built-in search).
fn chat_config(args: &PlaytakArgs, built_in: bool) -> Result<ChatConfig, String> {
    let mode = ChatMode::parse(&args.chat)
        .ok_or_else(|| format!("bad --chat '{}': commands, help or off", args.chat))?;
    let mut config = ChatConfig {
        mode,
        min_time_s: args.chat_min_time,
        max_time_s: args.chat_max_time,
        max_increment_s: args.chat_max_increment,
        per_sender: Duration::from_secs(args.chat_sender_secs),
        max_replies: args.chat_replies_per_minute,
        window: Duration::from_secs(60),
        hold: Duration::from_secs(args.chat_hold_secs),
        ..ChatConfig::default()
    };
    if !args.chat_sizes.is_empty() {
        if let Some(size) = args.chat_sizes.iter().find(|s| !(3..=8).contains(*s)) {
            return Err(format!("bad --chat-sizes: {size} is not 3 to 8"));
        }
        config.sizes = args.chat_sizes.clone();
    }
    if !built_in {
        if !args.chat_levels.is_empty() {
            return Err("--chat-levels is for the built-in search, not --engine".into());
        }
        config.levels.clear();
    } else if !args.chat_levels.is_empty() {
        if let Some(level) = args.chat_levels.iter().find(|l| !LEVEL_RANGE.contains(*l)) {
            return Err(format!(
                "bad --chat-levels: {level} is not {} to {FULL_STRENGTH}",
                LEVEL_RANGE.start()
            ));
        }
        config.levels = args.chat_levels.clone();
    }
    if config.min_time_s == 0 || config.min_time_s > config.max_time_s {
        return Err(format!(
            "bad --chat-min-time {} and --chat-max-time {}: need 1 <= min <= max",
            config.min_time_s, config.max_time_s
        ));
    }
    if config.hold.is_zero() {
        return Err("--chat-hold-secs must be at least 1".into());
    }
    Ok(config)
}

/// Runs the bot: Ctrl-C once stops after the current game, twice resigns and stops at once;
/// SIGTERM resigns (or abandons) the current game and stops at once.
pub fn playtak(args: &PlaytakArgs) -> Result<(), PlaytakError> {
    let stop = StopRequests::default();
    let config = playtak_config(args, stop.clone()).map_err(PlaytakError::CommandLine)?;
    stop.install_signal_handlers()
        .map_err(PlaytakError::Failed)?;
    let summary = playtak::run(config).map_err(PlaytakError::Failed)?;
    let finished = summary
        .games
        .iter()
        .filter(|g| g.result != crate::core::RecordResult::Unfinished)
        .count();
    eprintln!(
        "menhir: playtak: {} games ({finished} finished) over {} connections",
        summary.games.len(),
        summary.connections
    );
    Ok(())
}
