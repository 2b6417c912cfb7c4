//! `Position::road_win`, `road_squares`, `road_completions` and `win_in_one` agree with trying
//! every move, over random games.

use menhir::core::{has_road, Bitboard, MoveList, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[test]
fn road_win_matches_brute_force() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0001);
    let mut moves = MoveList::new();
    let mut positions = 0;
    let mut wins = 0;
    for game in 0..600 {
        let size = 3 + game % 6;
        let mut pos = Position::start(size).unwrap();
        while pos.result().is_none() && pos.ply() < 200 {
            moves.clear();
            pos.generate_moves(&mut moves);
            let me = pos.to_move();
            let winning: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    let undo = pos.do_move(mv);
                    let road = pos.has_road(me);
                    pos.undo_move(mv, undo);
                    road
                })
                .collect();
            let found = pos.road_win();
            assert_eq!(found.is_some(), !winning.is_empty(), "{}", pos.to_tps());
            assert_eq!(pos.road_win_in_play(), found, "{}", pos.to_tps());
            if let Some(mv) = found {
                assert!(winning.contains(&mv), "{} {}", pos.to_tps(), mv.to_ptn());
                wins += 1;
            }
            // Placement squares: exactly the empty squares where a flat would make a road.
            let by_placement: Vec<_> = winning
                .iter()
                .filter(|m| m.is_placement())
                .map(|m| m.square())
                .collect();
            for sq in pos.road_squares(me) {
                if !pos.is_opening() && pos.stones(me) + pos.capstones(me) > 0 {
                    assert!(by_placement.contains(&sq), "{} {sq}", pos.to_tps());
                }
            }
            for sq in by_placement {
                assert!(pos.road_squares(me).contains(sq));
            }
            // Completion squares, occupied or not: where one more road piece makes a road.
            for color in [me, !me] {
                let pieces = pos.road_pieces(color);
                let completions = pos.road_completions(color);
                if has_road(pieces, pos.size()) {
                    continue;
                }
                for sq in pos.board() {
                    let with = pieces | Bitboard::from_square(sq);
                    let completes = !pieces.contains(sq) && has_road(with, pos.size());
                    assert_eq!(completions.contains(sq), completes, "{} {sq}", pos.to_tps());
                }
            }
            positions += 1;
            let mv = moves[rng.random_range(0..moves.len())];
            pos.do_move(mv);
        }
    }
    assert!(
        positions > 10_000 && wins > 500,
        "{positions} positions, {wins} wins"
    );
}

/// A spread adds at most height − 1 road squares, so `road_win` skips lower stacks: a stack
/// exactly one higher than the road squares missing must still be tried.
#[test]
fn a_stack_one_higher_than_the_gap_spreads_to_a_road() {
    // White holds a1 b1 and a three-high c1; Black's d1 e1 close the row to placements. Two
    // road squares are missing, and 2c1>11 covers both.
    let mut pos = Position::from_tps("x5/x5/2,x4/x5/1,1,111,2,2 1 10").unwrap();
    let mv = pos.road_win().expect("a spread makes the road");
    assert_eq!(mv.to_ptn(), "2c1>11");
    assert_eq!(pos.road_win_in_play(), Some(mv));
    pos.do_move(mv);
    assert!(pos.has_road(menhir::core::Color::White));
}

/// `win_in_one` finds a winning move exactly when one exists, flat endings by spreads included
/// (the tinue solver once counted only placements there).
#[test]
fn win_in_one_matches_brute_force() {
    let (flat_wins, spread_flat_wins) = win_in_one_against_brute_force(1500, &[3, 4, 5, 6], 2);
    assert!(
        flat_wins > 200 && spread_flat_wins > 5,
        "{flat_wins} flat wins, {spread_flat_wins} by spreads only"
    );
}

/// The same on 7×7 and 8×8, where a spread carries up to seven pieces and can fill the last
/// empty squares from far away. (Random games there end on a reserve running out far more
/// often than on a full board, so a win only a spread gives is rare: 476 flat wins at once and
/// none by spreads only in these games; the agreement is what is tested.)
#[test]
fn win_in_one_matches_brute_force_on_large_boards() {
    let (flat_wins, _) = win_in_one_against_brute_force(120, &[7, 8], 3);
    assert!(flat_wins > 100, "{flat_wins} flat wins");
}

/// Random games of the given sizes (random komi), every position compared with trying every
/// move: `win_in_one`, its in-play form and the opponent's threat. Returns the positions whose
/// only wins at once are flat endings, and those where every such win is a spread.
fn win_in_one_against_brute_force(games: usize, sizes: &[usize], seed: u64) -> (u32, u32) {
    let mut rng = StdRng::seed_from_u64(0x5EED_0000 + seed);
    let mut moves = MoveList::new();
    let (mut flat_wins, mut spread_flat_wins) = (0, 0);
    for game in 0..games {
        let size = sizes[game % sizes.len()];
        let mut pos = Position::start(size).unwrap();
        pos.set_half_komi(rng.random_range(0..=4));
        while pos.result().is_none() {
            moves.clear();
            pos.generate_moves(&mut moves);
            let me = pos.to_move();
            let wins = |pos: &mut Position, mv| {
                let undo = pos.do_move(mv);
                let won = pos.result().and_then(|r| r.winner()) == Some(me);
                pos.undo_move(mv, undo);
                won
            };
            let winning: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&mv| wins(&mut pos, mv))
                .collect();
            let found = pos.win_in_one();
            assert_eq!(found.is_some(), !winning.is_empty(), "{}", pos.to_tps());
            assert_eq!(pos.win_in_one_in_play(), found, "{}", pos.to_tps());
            assert_eq!(
                pos.opponent_wins_in_one_in_play(),
                pos.opponent_wins_in_one(),
                "{}",
                pos.to_tps()
            );
            if let Some(mv) = found {
                assert!(winning.contains(&mv), "{} {}", pos.to_tps(), mv.to_ptn());
                if pos.road_win().is_none() {
                    flat_wins += 1;
                    spread_flat_wins += winning.iter().all(|m| !m.is_placement()) as u32;
                }
            }
            let mv = moves[rng.random_range(0..moves.len())];
            pos.do_move(mv);
        }
    }
    (flat_wins, spread_flat_wins)
}
