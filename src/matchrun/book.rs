//! Balanced openings for a match: random opening lines kept only when a search of a fixed number
//! of nodes scores them close to even.
//!
//! Random openings alone can be lopsided: at 4×4 without komi, two engines of about the same
//! strength each win every game as White after two random plies, so a pair of games splits 1–1
//! whatever their strength and the match measures nothing. From openings a search calls even,
//! either colour can lose, and the games tell the engines apart.

use super::openings::Opening;
use crate::common::random_line;
use crate::core::{check_size, Color, Move, Position};
use crate::search::{score_is_win, Limits, Searcher};
use fxhash::FxHashSet;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;

/// Random lines tried per line wanted before the book maker gives up.
pub const TRIES_PER_LINE: usize = 200;

/// Transposition table of the scoring search, in MB.
const BOOK_HASH_MB: usize = 64;

/// What `menhir book` makes.
#[derive(Clone, Debug)]
pub struct BookSettings {
    /// Board size, 3 to 8.
    pub size: usize,
    /// Komi in half flats.
    pub half_komi: i32,
    /// Random plies in each line.
    pub plies: usize,
    /// Lines wanted.
    pub count: usize,
    /// Nodes the search spends on each line.
    pub nodes: u64,
    /// Largest score, either way, of a line kept (centi-flats).
    pub max_score: i32,
    /// Seed of the random lines.
    pub seed: u64,
}

impl BookSettings {
    /// Refuses settings that cannot make a book.
    pub fn check(&self) -> Result<(), String> {
        check_size(self.size)?;
        if self.plies == 0 || self.count == 0 || self.nodes == 0 {
            return Err("--plies, --count and --nodes must be at least 1".into());
        }
        if self.max_score < 0 {
            return Err("--max-score must not be negative".into());
        }
        Ok(())
    }
}

/// One opening of the book and the score that let it in.
#[derive(Clone, Debug, PartialEq)]
pub struct BookLine {
    /// The plies from the empty board.
    pub moves: Vec<Move>,
    /// The search's score of the position after them, in centi-flats, for White.
    pub white_score: i32,
    /// The depth the search completed.
    pub depth: u32,
}

impl BookLine {
    /// The line as an openings-file line (`menhir match --openings`): the plies in PTN, then the
    /// score as a comment.
    pub fn to_text(&self) -> String {
        let plies: Vec<String> = self.moves.iter().map(|m| m.to_ptn()).collect();
        format!(
            "{} {{White {:+} cp, depth {}}}",
            plies.join(" "),
            self.white_score,
            self.depth
        )
    }

    /// The line as a match opening.
    pub fn opening(&self) -> Opening {
        Opening {
            root_tps: None,
            moves: self.moves.clone(),
        }
    }
}

/// Draws random lines from the seed and scores each by a fresh single-threaded search of
/// `nodes` (so a seed gives the same book on every machine), keeping a line when its score is
/// within `max_score` either way, is no proven result, and reaches a position no earlier line
/// reached. Stops at `count` lines or after `count × TRIES_PER_LINE` tries; `on_line` sees each
/// line kept as it is found.
pub fn balanced_openings(
    settings: &BookSettings,
    on_line: &mut dyn FnMut(&BookLine),
) -> Result<Vec<BookLine>, String> {
    settings.check()?;
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut searcher = Searcher::new(BOOK_HASH_MB, 1);
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut seen = FxHashSet::default();
    let mut book = Vec::new();
    for _ in 0..settings.count.saturating_mul(TRIES_PER_LINE) {
        if book.len() == settings.count {
            break;
        }
        let (pos, moves) = random_line(settings.size, settings.half_komi, settings.plies, &mut rng);
        if !seen.insert(pos.hash()) {
            continue;
        }
        searcher.new_game();
        let info = searcher.search(&pos, &limits, &stop, &mut |_| {}).info;
        if score_is_win(info.score_cp.abs()) || info.score_cp.abs() > settings.max_score {
            continue;
        }
        let line = BookLine {
            moves,
            white_score: white_view(&pos, info.score_cp),
            depth: info.depth,
        };
        on_line(&line);
        book.push(line);
    }
    if book.is_empty() {
        return Err(format!(
            "no line of {} random plies scored within {} cp in {} tries",
            settings.plies,
            settings.max_score,
            settings.count.saturating_mul(TRIES_PER_LINE)
        ));
    }
    Ok(book)
}

/// A side-to-move score as White's.
fn white_view(pos: &Position, score: i32) -> i32 {
    match pos.to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}
