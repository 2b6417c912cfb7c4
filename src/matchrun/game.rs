//! One game between two engines: `teinewgame` + `isready` for each, then `position … moves …`
//! and `go` per ply, the clock kept here, and the game judged by the core's rules. Every fault
//! ends the game against the offender with a reason; nothing here can stop the match.

use super::clock::{Clock, TimeControl};
use super::engine::{ChildEngine, EngineError};
use super::openings::Opening;
use crate::core::{Color, GameResult, Move, Position, RecordedPly};
use std::fmt::Write;
use std::time::Duration;

pub use crate::common::DEFAULT_MAX_PLIES;

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Board size.
    pub size: usize,
    /// Komi in half flats.
    pub half_komi: i32,
    /// Time control.
    pub time: TimeControl,
    /// Extra time past the clock before a silent engine is killed.
    pub grace: Duration,
    /// Ply cap: a draw after this many plies from the root.
    pub max_plies: usize,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// A road.
    Road,
    /// The flat count decided (board full or a reserve empty).
    Flats,
    /// The flat count was equal.
    DrawFlatTie,
    /// Threefold repetition.
    DrawRepetition,
    /// The ply cap.
    DrawPlyCap,
    /// A side ran out of time (or stopped answering and was killed).
    Time,
    /// A side sent a legal-looking but illegal move.
    IllegalMove,
    /// A side sent something that is not a PTN move.
    MalformedMove,
    /// A side crashed or closed its output.
    Crash,
    /// A win by other means whose reason a PTN file does not name (resignation, adjudication…);
    /// only `menhir report` meets these.
    Other,
}

impl Termination {
    /// Every kind, in report order.
    pub const ALL: [Termination; 10] = [
        Termination::Road,
        Termination::Flats,
        Termination::DrawFlatTie,
        Termination::DrawRepetition,
        Termination::DrawPlyCap,
        Termination::Time,
        Termination::IllegalMove,
        Termination::MalformedMove,
        Termination::Crash,
        Termination::Other,
    ];

    /// Short label for reports.
    pub fn label(self) -> &'static str {
        match self {
            Termination::Road => "road",
            Termination::Flats => "flats",
            Termination::DrawFlatTie => "flat tie",
            Termination::DrawRepetition => "repetition",
            Termination::DrawPlyCap => "ply cap",
            Termination::Time => "time",
            Termination::IllegalMove => "illegal move",
            Termination::MalformedMove => "malformed move",
            Termination::Crash => "crash",
            Termination::Other => "other",
        }
    }

    /// Whether the rule book ends the game this way (no `Termination` tag is written).
    pub fn is_normal(self) -> bool {
        matches!(
            self,
            Termination::Road | Termination::Flats | Termination::DrawFlatTie
        )
    }

    /// Whether it is a draw.
    pub fn is_draw(self) -> bool {
        matches!(
            self,
            Termination::DrawFlatTie | Termination::DrawRepetition | Termination::DrawPlyCap
        )
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// Book plies then engine plies, with `{score/depth time}` comments on engine plies.
    pub plies: Vec<RecordedPly>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// A sentence on how it ended, for the `Termination` tag and logs.
    pub detail: String,
    /// Rule-book points of the winner: board area plus the winner's unplayed pieces.
    pub points: u32,
}

/// Plays one game; `engines` are White's and Black's. `opening` must be an unfinished game.
pub fn play_game(
    engines: [&mut ChildEngine; 2],
    opening: &Opening,
    settings: &GameSettings,
) -> GameOutcome {
    let size = settings.size;
    let mut pos = opening
        .root(size, settings.half_komi)
        .expect("openings are checked when loaded");
    let root_command = match &opening.root_tps {
        Some(tps) => format!("position tps {tps} moves"),
        None => "position startpos moves".to_string(),
    };
    let mut game = Game {
        plies: Vec::new(),
        moves_text: String::new(),
    };
    for &mv in &opening.moves {
        pos.do_move(mv);
        game.push(mv, Some("book".into()));
    }
    let names = [engines[0].name().to_string(), engines[1].name().to_string()];
    for color in Color::ALL {
        if let Err(e) = engines[color.index()].new_game(size) {
            let why = format!("{} failed to start the game: {e}", names[color.index()]);
            return game.forfeit(&pos, color, fault_kind(&e), why);
        }
    }
    let mut clock = Clock::new(settings.time);
    let mut engine_plies = 0;
    loop {
        if let Some(result) = pos.result() {
            let termination = match result {
                GameResult::Road(_) => Termination::Road,
                GameResult::Flats(_) => Termination::Flats,
                _ => Termination::DrawFlatTie,
            };
            return game.finish(&pos, result, termination, String::new());
        }
        if pos.is_threefold() {
            let why = "draw by threefold repetition".to_string();
            return game.finish(&pos, GameResult::Draw, Termination::DrawRepetition, why);
        }
        if opening.moves.len() + engine_plies >= settings.max_plies {
            let why = format!("draw after {} plies", settings.max_plies);
            return game.finish(&pos, GameResult::Draw, Termination::DrawPlyCap, why);
        }
        let side = pos.to_move();
        let name = &names[side.index()];
        let position = format!("{root_command}{}", game.moves_text);
        let limit = clock.kill_after(side, settings.grace);
        let reply = match engines[side.index()].go(&position, &clock.go_command(), limit) {
            Ok(reply) => reply,
            Err(e) => {
                let why = format!("{name} {e}");
                return game.forfeit(&pos, side, fault_kind(&e), why);
            }
        };
        if !clock.charge(side, reply.elapsed, settings.grace) {
            let own = match reply.eval.and_then(|e| e.time_ms) {
                Some(ms) => format!(", {:.3}s by its own last info", ms as f64 / 1000.0),
                None => String::new(),
            };
            let why = format!(
                "{name} lost on time ({:.3}s used{own}, {:.3}s left)",
                reply.elapsed.as_secs_f64(),
                clock.allowed(side, settings.grace).as_secs_f64()
            );
            return game.forfeit(&pos, side, Termination::Time, why);
        }
        let mv = match Move::parse_ptn(&reply.bestmove, size) {
            Ok(mv) => mv,
            Err(e) => {
                let why = format!("{name} sent a malformed move: {e}");
                return game.forfeit(&pos, side, Termination::MalformedMove, why);
            }
        };
        if !pos.is_legal(mv) {
            let why = format!("{name} made an illegal move: {}", reply.bestmove);
            return game.forfeit(&pos, side, Termination::IllegalMove, why);
        }
        let mut comment = String::new();
        if let Some(eval) = reply.eval {
            // Scores are from the mover's view; the record shows White's, as Racetrack does.
            let white_cp = eval.score_cp * side.sign();
            let _ = write!(comment, "{:+.2}/{} ", white_cp as f64 / 100.0, eval.depth);
        }
        let _ = write!(comment, "{:.2}s", reply.elapsed.as_secs_f64());
        pos.do_move(mv);
        game.push(mv, Some(comment));
        engine_plies += 1;
    }
}

/// Rule-book points of a game that ended in `pos` with `result`: the board area plus the
/// winner's unplayed pieces; 0 for a draw.
pub fn rule_book_points(pos: &Position, result: GameResult) -> u32 {
    match result.winner() {
        Some(winner) => (pos.size() * pos.size()) as u32 + pos.pieces_in_reserve(winner),
        None => 0,
    }
}

/// Plies played so far and their `moves` text for `position`.
struct Game {
    plies: Vec<RecordedPly>,
    moves_text: String,
}

impl Game {
    fn push(&mut self, mv: Move, comment: Option<String>) {
        let _ = write!(self.moves_text, " {}", mv.to_ptn());
        self.plies.push(RecordedPly { mv, comment });
    }

    fn finish(
        self,
        pos: &Position,
        result: GameResult,
        termination: Termination,
        detail: String,
    ) -> GameOutcome {
        let points = rule_book_points(pos, result);
        GameOutcome {
            plies: self.plies,
            result,
            termination,
            detail,
            points,
        }
    }

    fn forfeit(
        self,
        pos: &Position,
        loser: Color,
        termination: Termination,
        detail: String,
    ) -> GameOutcome {
        log::info!("{detail}");
        self.finish(pos, GameResult::Other(!loser), termination, detail)
    }
}

fn fault_kind(error: &EngineError) -> Termination {
    match error {
        EngineError::Timeout(_) => Termination::Time,
        EngineError::Crashed(_) => Termination::Crash,
    }
}
