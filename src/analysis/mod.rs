//! Game analysis: `menhir annotate` reads PTN games, analyses every position with the search
//! and a [`TinueProver`], and writes each game back with every move's evaluation, win chance
//! and the engine's preferred move in a comment, and the PTN marks (`'`, `"`, `?`, `??`, `!`).
//! Games of a file are analysed in parallel. See `docs/analysis.md` for the comment format.
//! `plot` draws a game's winning chances as an SVG chart (`menhir annotate --plot`).
//!
//! Depends on `search` and `core`.

mod game;
mod marks;
mod plot;
mod position;
mod progress;
mod prover;
mod ptn_writer;
mod report;

pub use game::{annotate_game, AnnotatedPly};
pub use marks::{expected_score, is_tak, Judgement, Marks, BLUNDER_DROP, GOOD_GAIN, MISTAKE_DROP};
pub use plot::{marker_colour, plot_svg, white_chances};
pub use position::{analyse_position, PositionAnalysis};
pub use progress::Progress;
pub use prover::{new_prover, Outcome, Proof, SearchMates, SolverProver, TinueProver};
pub use ptn_writer::write_annotated;
pub use report::{GameReport, SideReport};

use crate::core::{GameRecord, TaggedGame};
use crate::search::{Limits, Searcher};
use rayon::prelude::*;

/// How to annotate.
#[derive(Clone, Debug)]
pub struct AnnotateConfig {
    /// What bounds the search (and the prover) in each position.
    pub limits: Limits,
    /// Threads in all: games run in parallel, each search gets the threads left over.
    pub threads: usize,
    /// Transposition-table megabytes in all, shared out between the games running at once.
    pub hash_mb: usize,
    /// Draw the progress bar on stderr.
    pub progress: bool,
}

/// One game of a file with what annotation adds to each of its plies.
#[derive(Clone, Debug)]
pub struct AnnotatedGame {
    /// The game as read.
    pub record: GameRecord,
    /// One per ply of the record.
    pub plies: Vec<AnnotatedPly>,
    /// `game 2 (alice vs bob, round 3)`: how messages and the plot's title name the game.
    pub name: String,
}

impl AnnotatedGame {
    /// The annotated PTN of the game.
    pub fn ptn(&self) -> String {
        write_annotated(&self.record, &self.plies)
    }
}

/// Reads every game of `text` and returns the annotated PTN of all of them, in file order.
/// A game that cannot be read fails the whole run, before anything is analysed, with one
/// line naming the game (number, players, round) and the move.
pub fn annotate_text(text: &str, config: &AnnotateConfig) -> Result<String, String> {
    let games = annotate_games(text, config)?;
    Ok(games
        .iter()
        .map(AnnotatedGame::ptn)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Reads and analyses every game of `text` (as [`annotate_text`] does), in file order.
pub fn annotate_games(text: &str, config: &AnnotateConfig) -> Result<Vec<AnnotatedGame>, String> {
    let games = read_games(text)?;
    let threads = config.threads.max(1);
    let workers = threads.min(games.len()).max(1);
    let search_threads = (threads / workers).max(1);
    let hash_mb = (config.hash_mb / workers).max(1);
    let positions = games.iter().map(|g| g.plies.len() + 1).sum();
    let progress = Progress::new(positions, games.len(), config.progress);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("menhir-annotate-{i}"))
        .build()
        .map_err(|e| format!("cannot start the analysis threads: {e}"))?;
    let annotated: Vec<Result<AnnotatedGame, String>> = pool.install(|| {
        games
            .into_par_iter()
            .enumerate()
            .map(|(index, record)| {
                let mut searcher = Searcher::new(hash_mb, search_threads);
                let mut prover = new_prover(hash_mb);
                let name = game_name(index, &record.tags);
                let plies = annotate_game(
                    &record,
                    &config.limits,
                    &mut searcher,
                    prover.as_mut(),
                    &mut || progress.position_done(),
                )
                .map_err(|e| format!("{name}: {e}"))?;
                progress.game_done();
                Ok(AnnotatedGame {
                    record,
                    plies,
                    name,
                })
            })
            .collect()
    });
    progress.finish();
    annotated.into_iter().collect()
}

/// Every game of `text`, or the first that cannot be read, named.
fn read_games(text: &str) -> Result<Vec<GameRecord>, String> {
    let games: Vec<TaggedGame> = GameRecord::parse_each_with_tags(text);
    if games.is_empty() {
        return Err("no game found".into());
    }
    games
        .into_iter()
        .enumerate()
        .map(|(index, (tags, game))| game.map_err(|e| format!("{}: {e}", game_name(index, &tags))))
        .collect()
}

/// `game 2 (alice vs bob, round 3)`: the game's number in the file, and its players and
/// round when its tags name them.
fn game_name(index: usize, tags: &[(String, String)]) -> String {
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    };
    let mut about = Vec::new();
    if let (Some(white), Some(black)) = (tag("Player1"), tag("Player2")) {
        about.push(format!("{white} vs {black}"));
    }
    if let Some(round) = tag("Round") {
        about.push(format!("round {round}"));
    }
    if about.is_empty() {
        format!("game {}", index + 1)
    } else {
        format!("game {} ({})", index + 1, about.join(", "))
    }
}
