//! The bot's side of the playtak tests: its configuration against a double, a seek, the
//! engines it may drive (the in-process search or a scripted misbehaving one), and a run bounded
//! by a generous cap that only catches a hang.

use super::Double;
use menhir::core::starting_reserves;
use menhir::matchrun::engine::EngineSpec;
use menhir::playtak::{
    self, ChatConfig, Endpoint, EngineChoice, Login, Mode, OnTerm, PlaytakConfig, RunSummary, Seek,
    SeekColor, StopRequests,
};
use menhir::search::level::FULL_STRENGTH;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A guard only: a run that takes this long is hung.
pub const RUN_CAP: Duration = Duration::from_secs(240);

/// Waits at most `limit` for the child; kills it if it is still running then.
pub fn wait_at_most(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

pub fn seek(size: usize, half_komi: i32) -> Seek {
    let (stones, caps) = starting_reserves(size);
    Seek {
        size,
        time_s: 5,
        increment_s: 0,
        color: SeekColor::Any,
        half_komi,
        pieces: u32::from(stones),
        capstones: u32::from(caps),
        unrated: true,
        tournament: false,
        opponent: String::new(),
    }
}

pub fn in_process() -> EngineChoice {
    EngineChoice::InProcess {
        hash_mb: 8,
        threads: 1,
    }
}

pub fn misbehave(mode: &str, at: usize) -> EngineChoice {
    misbehave_with(&format!("--mode {mode} --at {at}"))
}

/// The scripted engine with these arguments (see tests/engines/misbehave.py).
pub fn misbehave_with(args: &str) -> EngineChoice {
    let cmd = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines/misbehave.py")
        .display()
        .to_string();
    let spec: EngineSpec = format!("name=mis,cmd={cmd},args={args}").parse().unwrap();
    EngineChoice::External(spec)
}

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menhir-playtak-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn config(double: &Double, websocket: bool, mode: Mode, engine: EngineChoice) -> PlaytakConfig {
    config_for(&double.server_arg(websocket), mode, engine)
}

/// The test configuration for the server at `server` (`HOST:PORT` or a `ws://` URL).
pub fn config_for(server: &str, mode: Mode, engine: EngineChoice) -> PlaytakConfig {
    PlaytakConfig {
        endpoint: Endpoint::parse(server).unwrap(),
        login: Login::Guest,
        client_name: "Menhir-test".into(),
        mode,
        engine,
        accept_draw_below: None,
        accept_undo: false,
        ptn_dir: None,
        max_games: Some(1),
        // Short, so PINGs and their OKs mix with the game's lines.
        ping_interval: Duration::from_millis(150),
        reconnect_initial: Duration::from_millis(50),
        reconnect_max: Duration::from_millis(400),
        max_reconnects: Some(20),
        resume_wait: Duration::from_secs(5),
        move_margin: Duration::from_millis(100),
        stop: StopRequests::default(),
        on_term: OnTerm::Resign,
        chat: ChatConfig::default(),
        // Off unless a test is about it: the double's opponent answers at once, so a ponder
        // search would only start to be stopped.
        ponder: false,
        level: FULL_STRENGTH,
        level_seed: None,
    }
}

/// Runs the bot on its own thread; panics if it outlives `RUN_CAP`.
pub fn run(config: PlaytakConfig) -> Result<RunSummary, String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(playtak::run(config));
    });
    rx.recv_timeout(RUN_CAP).expect("the bot hung")
}
