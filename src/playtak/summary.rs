//! What a finished (or abandoned) game leaves behind: its PTN file, the one log line an
//! operator reads per game (who played, the result, the file), and its summary in the run's.

use super::game::Game;
use crate::core::{Color, RecordResult};
use std::path::Path;
use std::time::Duration;

/// One finished (or abandoned) game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Game number on the server.
    pub id: u64,
    /// Our colour.
    pub color: Color,
    /// The opponent.
    pub opponent: String,
    /// The result as the PTN writes it.
    pub result: RecordResult,
    /// Plies played.
    pub plies: usize,
    /// Whether the game was resumed after a dropped connection.
    pub resumed: bool,
    /// The strength level the engine played at.
    pub level: u32,
    /// Searches made on the opponent's time.
    pub ponders: u32,
    /// The `info` lines they wrote (the built-in search's; a TEI engine's are not counted).
    pub ponder_infos: u32,
    /// The longest any of them took to stop once the opponent's move came.
    pub ponder_stop_max: Duration,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSummary {
    /// The games, in order.
    pub games: Vec<GameSummary>,
    /// Connections opened (1 when none dropped).
    pub connections: u32,
}

/// Writes `game`'s PTN into `ptn_dir` (if any), logs its line, and sums it up. `how` says how
/// it ended; `site` is the PTN's `Site`.
pub fn finish(
    game: &Game,
    result: RecordResult,
    how: &str,
    resumed: bool,
    ptn_dir: Option<&Path>,
    site: &str,
) -> GameSummary {
    let ptn = match ptn_dir {
        Some(dir) => match game.write_ptn(dir, result, site) {
            Ok(path) => format!("PTN {}", path.display()),
            Err(why) => {
                log::error!("{why}");
                "PTN not written".to_string()
            }
        },
        None => "no PTN (no --ptn-dir)".to_string(),
    };
    log::info!(
        "game {}: {} vs {}, {result} ({how}), {} plies, we were {:?}, level {}; {ptn}",
        game.id(),
        game.start.white,
        game.start.black,
        game.plies.len(),
        game.color(),
        game.level
    );
    GameSummary {
        id: game.id(),
        color: game.color(),
        opponent: game.opponent().to_string(),
        result,
        plies: game.plies.len(),
        resumed,
        level: game.level,
        ponders: game.ponders,
        ponder_infos: game.ponder_infos,
        ponder_stop_max: game.ponder_stop_max,
    }
}
