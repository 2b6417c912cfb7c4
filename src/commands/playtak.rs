//! `menhir playtak`: the command line of the playtak bot (see docs/playtak.md). The password
//! never comes from a flag: `PLAYTAK_PASSWORD` or `--password-file`.

use crate::matchrun::engine::EngineSpec;
use crate::playtak::{
    self, AcceptFilter, Endpoint, EngineChoice, Login, Mode, PlaytakConfig, Seek, SeekColor,
    DEFAULT_SERVER,
};
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
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
pub fn playtak_config(
    args: &PlaytakArgs,
    interrupts: Arc<AtomicUsize>,
) -> Result<PlaytakConfig, String> {
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
        interrupts,
    })
}

/// Runs the bot: Ctrl-C once stops after the current game, twice resigns and stops at once.
pub fn playtak(args: &PlaytakArgs) -> Result<(), String> {
    let interrupts = Arc::new(AtomicUsize::new(0));
    let config = playtak_config(args, interrupts.clone())?;
    ctrlc::set_handler(move || {
        interrupts.fetch_add(1, Ordering::SeqCst);
    })
    .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))?;
    let summary = playtak::run(config)?;
    eprintln!(
        "menhir: playtak: {} games played over {} connections",
        summary.games.len(),
        summary.connections
    );
    Ok(())
}
