//! One self-play game for the training data: Menhir against itself at a fixed node budget.
//!
//! A game is a pure function of the settings, the run's seed and the game's index: its random
//! numbers come from its own generator, and the searcher is reset at the start (table and
//! history), so the same game comes out whichever worker plays it.
//!
//! Variety: the first `random_plies` plies are uniformly random legal moves (the first ply of
//! each colour places the opponent's flat, as the core generates it). For the next
//! `noisy_plies` plies, with probability `noise_chance` the move is drawn uniformly among the
//! moves whose one-ply value is within `noise_margin` centi-flats of the one-ply value of the
//! search's best move. The search does not expose its root move scores, and a second search
//! per move would double the cost, so the one-ply value is the cheap stand-in: the static
//! evaluation after the move (from the mover's view), a move that ends the game scoring as its
//! result and a move that leaves the opponent a road in one as a loss.
//!
//! Every searched position is written, tactics included: where the search resolved the game (a
//! road in one, a forced road, a forced flat win), its score is written as the data's bound,
//! ±`RESOLVED_SCORE`, so the terms that see roads (critical squares, threats) are fitted to
//! positions that have them instead of keeping their hand values.

use super::data_line::DataLine;
use crate::common::random_line;
use crate::core::{Color, Move, MoveList, Position};
use crate::search::{evaluate_with, score_is_win, EvalWeights, Limits, Searcher, WIN};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;

/// How every game of a run is played.
#[derive(Clone, Debug)]
pub struct SelfPlaySettings {
    /// Board size, 3 to 8.
    pub size: usize,
    /// Komi in half flats.
    pub half_komi: i32,
    /// Search nodes per move.
    pub nodes: u64,
    /// Uniformly random plies at the start.
    pub random_plies: usize,
    /// Plies after the random ones in which a near-best move may replace the best one.
    pub noisy_plies: usize,
    /// The chance, per noisy ply, that the move is drawn among the near-best ones.
    pub noise_chance: f64,
    /// How far below the best move's one-ply value a near-best move may be, in centi-flats.
    pub noise_margin: i32,
    /// A game reaching this many plies is drawn.
    pub max_plies: usize,
}

/// What one game gave.
#[derive(Clone, Debug, Default)]
pub struct GameData {
    /// The data lines (see `data_line.rs`), in the order played.
    pub lines: Vec<DataLine>,
    /// Plies played, the random ones included.
    pub plies: usize,
}

/// The generator seed of game `index` of the run seeded `seed` (splitmix64 of both).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index)
        .wrapping_add(0x6D65_6E68_6972);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The score written for a position whose result the search resolved: the bound of the data
/// format (`data.rs`), so `sigmoid(score / K)` labels it as won or lost.
pub const RESOLVED_SCORE: i32 = 10_000;

/// The search's score as a data score: forced results become ±`RESOLVED_SCORE`.
fn data_score(search_score: i32) -> i32 {
    if score_is_win(search_score.abs()) {
        RESOLVED_SCORE * search_score.signum()
    } else {
        search_score.clamp(-RESOLVED_SCORE, RESOLVED_SCORE)
    }
}

/// The one-ply value of `mv` for the side to move (see the module documentation).
fn one_ply_value(pos: &mut Position, mv: Move, weights: &EvalWeights) -> i32 {
    let me = pos.to_move();
    let undo = pos.do_move(mv);
    let value = match pos.result() {
        Some(result) => match result.winner() {
            Some(c) if c == me => WIN,
            Some(_) => -WIN,
            None => 0,
        },
        None if pos.road_win().is_some() => -WIN,
        None => -evaluate_with(pos, weights),
    };
    pos.undo_move(mv, undo);
    value
}

/// The start of a game: `random_plies` random plies that do not end it, and the last of them.
fn random_start(settings: &SelfPlaySettings, rng: &mut StdRng) -> (Position, Option<Move>) {
    let (pos, line) = random_line(
        settings.size,
        settings.half_komi,
        settings.random_plies,
        rng,
    );
    (pos, line.last().copied())
}

/// Plays game `index` of the run seeded `seed` with `searcher` (Threads 1 for determinism).
pub fn play_game(
    settings: &SelfPlaySettings,
    searcher: &mut Searcher,
    seed: u64,
    index: u64,
) -> GameData {
    let mut rng = StdRng::seed_from_u64(game_seed(seed, index));
    let (mut pos, mut last) = random_start(settings, &mut rng);
    searcher.new_game();
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let weights = EvalWeights::builtin(settings.size);
    let mut moves = MoveList::new();
    let mut candidates = Vec::new();
    let mut kept: Vec<(Position, i32, Move, Option<Move>)> = Vec::new();
    let mut searched_plies = 0;
    while pos.result().is_none() && !pos.is_threefold() && pos.ply() < settings.max_plies {
        let found = searcher.search(&pos, &limits, &stop, &mut |_| {});
        let Some(best) = found.best_move else { break };
        kept.push((pos.clone(), data_score(found.info.score_cp), best, last));
        let mut mv = best;
        if searched_plies < settings.noisy_plies && rng.random_bool(settings.noise_chance) {
            moves.clear();
            pos.generate_moves(&mut moves);
            let floor = one_ply_value(&mut pos, best, weights) - settings.noise_margin;
            candidates.clear();
            for &m in moves.as_slice() {
                if m == best || one_ply_value(&mut pos, m, weights) >= floor {
                    candidates.push(m);
                }
            }
            mv = candidates[rng.random_range(0..candidates.len())];
        }
        pos.do_move(mv);
        last = Some(mv);
        searched_plies += 1;
    }
    let result = match pos.result().and_then(|r| r.winner()) {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    };
    GameData {
        lines: kept
            .iter()
            .map(|(p, score, best, last)| {
                DataLine::from_mover_score(p, *score, result, Some(*best), *last)
            })
            .collect(),
        plies: pos.ply(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(size: usize) -> SelfPlaySettings {
        SelfPlaySettings {
            size,
            half_komi: 0,
            nodes: 200,
            random_plies: 2,
            noisy_plies: 6,
            noise_chance: 0.5,
            noise_margin: 30,
            max_plies: 1000,
        }
    }

    #[test]
    fn a_game_is_a_function_of_seed_and_index() {
        let s = settings(4);
        let mut a = Searcher::new(1, 1);
        let mut b = Searcher::new(1, 1);
        // b plays another game first: nothing of it may leak into the next.
        play_game(&s, &mut b, 7, 1);
        let first = play_game(&s, &mut a, 7, 0);
        let text = |g: &GameData| g.lines.iter().map(DataLine::to_line).collect::<Vec<_>>();
        assert_eq!(text(&first), text(&play_game(&s, &mut b, 7, 0)));
        assert!(!first.lines.is_empty());
        assert_ne!(text(&first), text(&play_game(&s, &mut a, 7, 2)));
    }

    /// Whether the side to move could make a road with its next move.
    fn road_in_one(pos: &Position) -> bool {
        pos.road_win().is_some()
    }

    #[test]
    fn lines_keep_resolved_positions_with_the_bound_as_score() {
        let s = settings(3);
        let mut searcher = Searcher::new(1, 1);
        let (mut resolved, mut roads) = (0, 0);
        for index in 0..6 {
            for data in play_game(&s, &mut searcher, 3, index).lines {
                // Through the text format, as the tools read it.
                let line = data.to_line();
                let data = DataLine::parse(&line).unwrap();
                assert!(data.position.ply() >= s.random_plies, "{line}");
                assert!(data.position.result().is_none(), "{line}");
                if data.score.abs() == RESOLVED_SCORE {
                    resolved += 1;
                }
                if road_in_one(&data.position) {
                    roads += 1;
                    // The mover wins at once: the search resolves it, and the line says so.
                    let mover_won = match data.position.to_move() {
                        Color::White => data.score == RESOLVED_SCORE,
                        Color::Black => data.score == -RESOLVED_SCORE,
                    };
                    assert!(mover_won, "{line}");
                }
            }
        }
        assert!(
            roads > 0 && resolved >= roads,
            "{roads} roads in one, {resolved} resolved"
        );
    }

    #[test]
    fn data_scores_map_forced_results_to_the_bound() {
        assert_eq!(data_score(WIN - 3), RESOLVED_SCORE);
        assert_eq!(data_score(-(WIN - 4)), -RESOLVED_SCORE);
        assert_eq!(data_score(-35), -35);
    }
}
