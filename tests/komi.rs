//! Komi where it decides. The evaluation's komi term: raising komi never raises White's
//! evaluation, on positions of every size (a flipped sign fails at once). And positions of each
//! size 4–6 where komi changes the engine's move, judged by verdicts only (wins and losses the
//! exhaustive solver in tests/common/solver.rs confirms), so the tests survive a rewrite of the evaluation.
//! The 3×3 flat endings solved to a verdict are in `tests/tactics.rs`.
//! Run: `cargo test --test komi`.

#[path = "common/solver.rs"]
mod solver;

use menhir::core::{Color, GameResult, Move, Position};
use menhir::search::{evaluate, Limits, Searcher, EVAL_LIMIT, WIN};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use solver::{legal_moves, solve};
use std::sync::atomic::AtomicBool;

/// The evaluation from White's view.
fn white_view(pos: &Position) -> i32 {
    match pos.to_move() {
        Color::White => evaluate(pos),
        Color::Black => -evaluate(pos),
    }
}

#[test]
fn komi_never_raises_whites_evaluation_on_any_size() {
    let mut rng = StdRng::seed_from_u64(15);
    let mut strictly_lower = 0;
    let mut compared = 0;
    for size in 3..=8 {
        for _ in 0..20 {
            let mut pos = Position::start(size).unwrap();
            for _ in 0..size * size * 2 {
                if pos.result().is_some() {
                    break;
                }
                let mv = *legal_moves(&pos).choose(&mut rng).unwrap();
                pos.do_move(mv);
                if pos.result().is_some() {
                    break;
                }
                let mut previous = None;
                for half_komi in [-4, 0, 2, 4, 10] {
                    pos.set_half_komi(half_komi);
                    let value = white_view(&pos);
                    if let Some((k, before)) = previous {
                        assert!(
                            value <= before,
                            "{}: White's evaluation rose from {before} (half komi {k}) to \
                             {value} (half komi {half_komi})",
                            pos.to_tps()
                        );
                        if before.abs() < EVAL_LIMIT && value.abs() < EVAL_LIMIT {
                            compared += 1;
                            strictly_lower += (value < before) as u32;
                        }
                    }
                    previous = Some((half_komi, value));
                }
                pos.set_half_komi(0);
            }
        }
    }
    // Off the clamp, more komi must cost White something (not just nothing at all).
    assert!(
        strictly_lower * 10 >= compared * 9,
        "komi lowered White's evaluation in only {strictly_lower} of {compared} cases"
    );
}

fn search(pos: &Position, depth: u32) -> (Move, i32) {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = Searcher::new(16, 1).search(pos, &limits, &stop, &mut |_| {});
    (r.best_move.expect("a move"), r.info.score_cp)
}

/// Each side has one stone left (capstones already on the board) and one flat on the board;
/// White to move. Without komi, White's last placement ends the game a flat ahead: a win in
/// one. With komi that placement loses at once, and every other move loses in two (Black's last
/// placement ends the game with komi); the engine must take the longer way, a stack move.
const LAST_STONE: [(&str, i32); 3] = [
    ("2,x,x,1/x,x,2222222222222,x/x,1111111111111,x,x/x4 1 20", 4),
    (
        "2,x4/x5/x,11111111111111111111C,x,22222222222222222222C,x/x5/x4,1 1 30",
        4,
    ),
    (
        "2,x5/x6/x6/x,11111111111111111111111111111C,x,22222222222222222222222222222C,x,x/x6/\
         x5,1 1 40",
        10,
    ),
];

#[test]
fn komi_changes_the_move_of_the_last_stone_on_sizes_4_to_6() {
    for (tps, half_komi) in LAST_STONE {
        let mut pos = Position::from_tps(tps).unwrap_or_else(|e| panic!("{tps}: {e}"));
        assert_eq!(pos.stones(Color::White), 1, "{tps}");
        assert_eq!(pos.capstones(Color::White), 0, "{tps}");

        // No komi: the placement wins at once.
        assert_eq!(
            solve(&mut pos, 1),
            Some(1),
            "{tps}: no win in one without komi"
        );
        let (plain, score) = search(&pos, 3);
        assert_eq!(score, WIN - 1, "{tps}: {}", plain.to_ptn());
        let undo = pos.do_move(plain);
        assert_eq!(
            pos.result(),
            Some(GameResult::Flats(Color::White)),
            "{tps}: {}",
            plain.to_ptn()
        );
        pos.undo_move(plain, undo);

        // With komi: lost in two whatever White does, and the engine does not lose in one.
        pos.set_half_komi(half_komi);
        assert_eq!(
            solve(&mut pos, 2),
            Some(-1),
            "{tps} k{half_komi}: not lost in two"
        );
        let (with_komi, score) = search(&pos, 3);
        assert_eq!(
            score,
            -(WIN - 2),
            "{tps} k{half_komi}: {}",
            with_komi.to_ptn()
        );
        assert_ne!(with_komi, plain, "{tps}: komi did not change the move");
        assert!(
            !with_komi.is_placement(),
            "{tps} k{half_komi}: {} places the last stone and loses at once",
            with_komi.to_ptn()
        );
        let undo = pos.do_move(with_komi);
        assert_eq!(pos.result(), None, "{tps} k{half_komi}");
        pos.undo_move(with_komi, undo);
    }
}
