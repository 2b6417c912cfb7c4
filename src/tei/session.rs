//! One TEI session's state (options, current game size and komi, current position) and the
//! mapping from each command to engine calls and reply lines.
//!
//! Every bad command is answered with one `info string error:` line and changes nothing.

use super::command::{self, Command, Start};
use super::options::{OptionChange, Options, EVAL_FILE_BUILTIN};
use super::search_handle::{Output, SearchHandle};
use crate::core::Position;
use crate::search::network::Network;
use crate::search::Limits;
use std::sync::Arc;
use std::time::Duration;

/// Board size before any `teinewgame` (the common tournament size, as Taktician defaults to).
pub const DEFAULT_SIZE: usize = 5;

/// How long `quit` or end of input waits for a running search to write its `bestmove`.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// How long `go` waits for a search already told to `stop` to finish before refusing.
const STOP_WAIT: Duration = Duration::from_secs(1);

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received.
    Quit,
}

/// A comparable copy of everything a command can change in a [`Session`]: options, game size
/// and the position with its repetition history. Tests use it to check that a rejected command
/// changes nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    options: Options,
    size: usize,
    position: Position,
    history: Vec<u64>,
}

impl Snapshot {
    /// The current position (the root the next `go` searches).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The current game's board size (what `position startpos` uses).
    pub fn size(&self) -> usize {
        self.size
    }
}

/// A TEI session.
pub struct Session {
    out: Output,
    options: Options,
    /// The options this session started with (what `tei` advertises as defaults).
    defaults: Options,
    /// The size of the current game, from the last `teinewgame`; `position startpos` uses it.
    size: usize,
    position: Position,
    engine: SearchHandle,
    /// Whether the search parameters are options (`menhir tei --tune`, `MENHIR_TUNE=1`).
    tuning: bool,
}

impl Session {
    /// A fresh session writing through `out`: size 5, komi 0, the start position.
    pub fn new(out: Output) -> Session {
        Session::with_tuning(out, false)
    }

    /// A fresh session that, when `tuning`, also offers every search parameter as an option
    /// (for `menhir spsa`; see [`crate::search::PARAMS`]).
    pub fn with_tuning(out: Output, tuning: bool) -> Session {
        Session::with_options(out, tuning, Options::default())
    }

    /// A fresh session for a GUI client (`menhir serve`): [`Options::for_gui`]'s defaults.
    pub fn for_gui(out: Output) -> Session {
        Session::with_options(out, false, Options::for_gui())
    }

    fn with_options(out: Output, tuning: bool, options: Options) -> Session {
        let mut engine = SearchHandle::new(out.clone(), options.hash_mb, options.threads);
        engine.set_score_mate(options.score_mate);
        engine.set_score_solved(options.score_solved);
        Session {
            out,
            defaults: options.clone(),
            options,
            size: DEFAULT_SIZE,
            position: Position::start(DEFAULT_SIZE).expect("the default size is valid"),
            engine,
            tuning,
        }
    }

    /// The session's state, for comparison before and after a command.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            options: self.options.clone(),
            size: self.size,
            position: self.position.clone(),
            history: self.position.history().to_vec(),
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        log::debug!("< {}", line.trim_end());
        match command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) => self.execute(cmd),
            Err(why) => {
                self.error(&why);
                Flow::Continue
            }
        }
    }

    /// Ends the session: stops a running search and waits briefly for its `bestmove`.
    pub fn finish(&mut self) {
        self.engine.shutdown(SHUTDOWN_GRACE);
    }

    fn send(&self, line: &str) {
        (self.out)(line);
    }

    fn error(&self, why: &str) {
        log::debug!("error: {why}");
        self.send(&format!("info string error: {why}"));
    }

    fn execute(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Tei => self.identify(),
            Command::IsReady => {
                self.engine.prepare();
                self.send("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame { size, half_komi } => self.new_game(size, half_komi),
            Command::Position { start, moves } => match self.build_position(&start, &moves) {
                Ok(pos) => self.position = pos,
                Err(why) => self.error(&why),
            },
            Command::Go(limits) => self.go(limits, false),
            Command::GoSolved(limits) => self.go(limits, true),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => {}
            Command::Quit => return Flow::Quit,
            Command::Show => self.send(&format!(
                "info string tps {} halfkomi {}",
                self.position.to_tps(),
                self.position.half_komi()
            )),
        }
        Flow::Continue
    }

    fn identify(&self) {
        self.send(&format!("id name Menhir {}", env!("CARGO_PKG_VERSION")));
        self.send("id author the Menhir developers");
        for line in Options::advertise_with(&self.defaults, self.tuning) {
            self.send(&line);
        }
        self.send("teiok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match Options::check(name, value, self.tuning) {
            Ok(change) => change,
            Err(why) => return self.error(&why),
        };
        self.options.apply(change);
        match change {
            // Komi applies to the game in progress too (Racetrack sends it once, before games).
            OptionChange::HalfKomi(k) => self.position.set_half_komi(k),
            OptionChange::Threads(n) => self.engine.set_threads(n),
            OptionChange::Hash(mb) => self.engine.set_hash_mb(mb),
            OptionChange::MultiPv(n) => self.engine.set_multipv(n),
            OptionChange::ScoreMate(on) => self.engine.set_score_mate(on),
            OptionChange::ScoreSolved(on) => self.engine.set_score_solved(on),
            OptionChange::SearchParam(..) => {
                self.engine.set_search_params(self.options.search_params)
            }
            OptionChange::Feature(..) => self.engine.set_switches(self.options.switches),
            OptionChange::EvalFile => self.set_eval_file(value.unwrap_or_default()),
            OptionChange::Level(_) | OptionChange::LevelSeed(_) => self
                .engine
                .set_level(self.options.level, self.options.level_seed),
        }
    }

    /// `setoption name EvalFile value <path>`: the network in the file evaluates its board
    /// size from the next search on; `<builtin>` goes back to the compiled-in evaluation at
    /// every size. A file that cannot be read or is not a network changes nothing.
    fn set_eval_file(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() || path == EVAL_FILE_BUILTIN {
            return self.engine.set_network(None);
        }
        match Network::load(std::path::Path::new(path)) {
            Ok(net) => {
                self.send(&format!(
                    "info string EvalFile: {path}, a {0}x{0} network",
                    net.size()
                ));
                self.engine.set_network(Some(Arc::new(net)));
            }
            Err(why) => self.error(&format!("option EvalFile: {why}")),
        }
    }

    fn new_game(&mut self, size: Option<usize>, half_komi: Option<i32>) {
        let size = size.unwrap_or(self.size);
        let mut position = match Position::start(size) {
            Ok(pos) => pos,
            Err(why) => return self.error(&why),
        };
        if let Some(k) = half_komi {
            self.options.half_komi = k;
        }
        position.set_half_komi(self.options.half_komi);
        self.size = size;
        self.position = position;
        self.engine.new_game();
    }

    /// The position a `position` command describes, every move checked; the session's own
    /// position is untouched until it all succeeds.
    fn build_position(&self, start: &Start, moves: &[String]) -> Result<Position, String> {
        let mut pos = match start {
            Start::StartPos => Position::start(self.size)?,
            Start::Tps(tps) => {
                let pos = Position::from_tps(tps).map_err(|e| format!("bad TPS '{tps}': {e}"))?;
                if pos.size() != self.size {
                    log::info!(
                        "TPS is {0}x{0} while the game is {1}x{1}; using the TPS",
                        pos.size(),
                        self.size
                    );
                }
                pos
            }
        };
        pos.set_half_komi(self.options.half_komi);
        for (i, text) in moves.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| format!("move {} of the position: {e}", i + 1))?;
            pos.do_move(mv);
        }
        Ok(pos)
    }

    fn go(&mut self, limits: Limits, solved: bool) {
        if !self.engine.idle_after_stop(STOP_WAIT) {
            return self.error("go ignored: a search is already running (send 'stop' first)");
        }
        let over = match self.position.result() {
            Some(result) => Some(result.to_string()),
            None if self.position.is_threefold() => Some("1/2-1/2 by threefold repetition".into()),
            None => None,
        };
        if let Some(result) = over {
            self.error(&format!("no move to search: the game is over ({result})"));
            return self.send("bestmove --");
        }
        let started = if solved {
            self.engine.go_solved(self.position.clone(), limits)
        } else {
            self.engine.go(self.position.clone(), limits)
        };
        if let Err(why) = started {
            self.error(&why);
        }
    }
}
