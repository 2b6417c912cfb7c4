//! A/B self-play for pruning rules: two `Searcher`s that differ in one `Features` switch play
//! fixed-node games from seeded random openings, each opening with both colours.
//!
//! Run: `cargo run --release --example selfplay -- <feature> [games_per_size] [nodes]`
//! where `<feature>` is `null_move`, `late_move_reduction`, `reverse_futility`,
//! `late_move_pruning`, `correction_history` or `improving`; the "A" engine has it on, "B" off.
//! Prints wins/draws/losses for A.

use menhir::core::{Color, MoveList, Position};
use menhir::search::{Features, Limits, Searcher};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::sync::atomic::AtomicBool;

fn opening(size: usize, seed: u64) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::start(size).unwrap();
    let mut moves = MoveList::new();
    for _ in 0..4 {
        moves.clear();
        pos.generate_moves(&mut moves);
        // Flats only: random walls make silly openings.
        let flats: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| m.is_placement() && m.kind() == menhir::core::PieceKind::Flat)
            .collect();
        let mv = flats[rng.random_range(0..flats.len())];
        pos.do_move(mv);
    }
    pos
}

/// Plays one game; returns 1.0 / 0.5 / 0.0 for the engine playing White.
fn play(mut pos: Position, white: &mut Searcher, black: &mut Searcher, nodes: u64) -> f64 {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    for _ in 0..400 {
        if let Some(result) = pos.result() {
            return match result.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if pos.is_threefold() {
            return 0.5;
        }
        let engine = if pos.to_move() == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let mv = engine
            .search(&pos, &limits, &stop, &mut |_| {})
            .best_move
            .expect("a move");
        pos.do_move(mv);
    }
    0.5
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let feature = args.get(1).map(String::as_str).unwrap_or("null_move");
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let nodes: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let mut on = Features::default();
    let mut off = Features::default();
    match feature {
        "null_move" => (on.null_move, off.null_move) = (true, false),
        "late_move_reduction" => (on.late_move_reduction, off.late_move_reduction) = (true, false),
        "reverse_futility" => (on.reverse_futility, off.reverse_futility) = (true, false),
        "late_move_pruning" => (on.late_move_pruning, off.late_move_pruning) = (true, false),
        "correction_history" => (on.correction_history, off.correction_history) = (true, false),
        "improving" => (on.improving, off.improving) = (true, false),
        other => panic!("unknown feature {other}"),
    }
    let mut a = Searcher::new(16, 1);
    a.set_features(on);
    let mut b = Searcher::new(16, 1);
    b.set_features(off);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for size in [5usize, 6] {
        for g in 0..games {
            let start = opening(size, g * 31 + size as u64);
            for a_white in [true, false] {
                a.new_game();
                b.new_game();
                let score = if a_white {
                    play(start.clone(), &mut a, &mut b, nodes)
                } else {
                    1.0 - play(start.clone(), &mut b, &mut a, nodes)
                };
                match score {
                    s if s > 0.75 => wins += 1,
                    s if s < 0.25 => losses += 1,
                    _ => draws += 1,
                }
            }
        }
        println!("{feature} after size {size}: A (on) +{wins} ={draws} -{losses}");
    }
}
