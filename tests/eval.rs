//! The evaluation: one code path run two ways (trace · weights == score), colour symmetry,
//! what single features count, and the weight files and their parser.

use menhir::core::{MoveList, Position};
use menhir::search::policy::PolicyWeights;
use menhir::search::{eval_trace, evaluate, evaluate_with, EvalWeights, EVAL_LIMIT};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Positions along random playouts from the start of a `size` board, with random komi.
fn random_positions(size: usize, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves = MoveList::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(size).unwrap();
        pos.set_half_komi(rng.random_range(-4..=4));
        while pos.result().is_none() && pos.ply() < 300 {
            out.push(pos.clone());
            moves.clear();
            pos.generate_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            pos.do_move(mv);
        }
    }
    out
}

/// Weights with every feature random, so that every count is checked, not only those the
/// hand-set weights use.
fn random_weights(size: usize, rng: &mut StdRng) -> EvalWeights {
    let mut w = EvalWeights::builtin(size).clone();
    for i in 0..w.feature_count() {
        w.set(i, [rng.random_range(-60..=60), rng.random_range(-60..=60)]);
    }
    w
}

/// How often the feature called `name` fired in `pos` (side to move's view).
fn count(pos: &Position, name: &str) -> i32 {
    let names = EvalWeights::feature_names(pos.size());
    let index = names
        .iter()
        .position(|&n| n == name)
        .expect("a feature of that name") as u16;
    eval_trace(pos)
        .terms
        .iter()
        .find(|&&(i, _)| i == index)
        .map_or(0, |&(_, c)| c as i32)
}

#[test]
fn trace_times_weights_is_the_evaluation() {
    let mut rng = StdRng::seed_from_u64(11);
    for size in 3..=8 {
        let positions = random_positions(size, if size <= 4 { 150 } else { 40 }, size as u64);
        assert!(
            positions.len() > 1000,
            "{size}x{size}: {} positions",
            positions.len()
        );
        let weights = random_weights(size, &mut rng);
        let mut compared = 0;
        for pos in &positions {
            let trace = eval_trace(pos);
            assert!((0..=256).contains(&trace.phase));
            let mut seen = vec![false; weights.feature_count()];
            for &(i, c) in &trace.terms {
                assert!(
                    c != 0 && !seen[i as usize],
                    "{}: term {i} zero or repeated",
                    pos.to_tps()
                );
                seen[i as usize] = true;
            }
            for w in [EvalWeights::builtin(size), &weights] {
                let score = evaluate_with(pos, w);
                let model = trace.score(w);
                if score.abs() < EVAL_LIMIT {
                    compared += 1;
                    assert!(
                        (score as f64 - model).abs() <= 1.0,
                        "{}: evaluate {score}, trace · weights {model}",
                        pos.to_tps()
                    );
                } else {
                    assert_eq!(score, model.clamp(-9000.0, 9000.0).trunc() as i32);
                }
            }
        }
        assert!(compared > 1000, "{size}x{size}: only {compared} unclamped");
    }
}

/// The same position with the colours swapped: every stack and the side to move, and komi
/// given to the other colour.
fn swap_colours(pos: &Position) -> Position {
    let tps = pos.to_tps();
    let fields: Vec<&str> = tps.split(' ').collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .map(|row| {
            row.split(',')
                .map(|cell| {
                    if cell.starts_with('x') {
                        cell.to_string()
                    } else {
                        cell.chars()
                            .map(|c| match c {
                                '1' => '2',
                                '2' => '1',
                                other => other,
                            })
                            .collect()
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let (player, number) = match fields[1] {
        "1" => ("2", fields[2].parse::<u32>().unwrap()),
        _ => ("1", fields[2].parse::<u32>().unwrap() + 1),
    };
    let mut swapped =
        Position::from_tps(&format!("{} {player} {number}", board.join("/"))).unwrap();
    swapped.set_half_komi(-pos.half_komi());
    swapped
}

#[test]
fn colour_swapped_positions_score_the_same() {
    for size in 3..=8 {
        for pos in random_positions(size, 20, 100 + size as u64) {
            if pos.is_opening() {
                continue;
            }
            let swapped = swap_colours(&pos);
            assert_eq!(swapped.to_move(), !pos.to_move());
            assert_eq!(
                evaluate(&pos),
                evaluate(&swapped),
                "{} vs {}",
                pos.to_tps(),
                swapped.to_tps()
            );
            assert_eq!(eval_trace(&pos), eval_trace(&swapped));
        }
    }
}

#[test]
fn prefers_more_flats_and_komi_helps_black() {
    // White has one flat more; Black to move is behind.
    let a = Position::from_tps("1,1,x3/x5/x5/x5/2,x4 2 3").unwrap();
    assert!(evaluate(&a) < 0);
    let mut pos = Position::from_tps("1,x4/x5/x5/x5/2,x4 1 2").unwrap();
    let before = evaluate(&pos);
    pos.set_half_komi(4);
    // How much is the fitted weights' call (5×5 generation 3: 0.92 flats in the opening).
    assert!(
        evaluate(&pos) < before - 50,
        "komi 2 costs White over half a flat"
    );
    // Komi is a flat-lead feature, so its weight follows the phase: two half flats for Black.
    assert_eq!(count(&pos, "flat_lead_not_to_move"), 4);
    assert_eq!(count(&pos, "flat_lead_to_move"), 0);
}

#[test]
fn flat_ending_this_ply_by_the_count() {
    // 3×3, one empty square left, four flats each: White fills it and wins on flats.
    let mut pos = Position::from_tps("1,2,1/2,1,2/1,2,x 1 5").unwrap();
    assert_eq!(count(&pos, "flat_win_now"), 1);
    assert_eq!(count(&pos, "flat_draw_now"), 0);
    pos.set_half_komi(2);
    assert_eq!(count(&pos, "flat_win_now"), 0);
    assert_eq!(count(&pos, "flat_draw_now"), 1);
    pos.set_half_komi(4);
    assert_eq!(
        count(&pos, "flat_draw_now") + count(&pos, "flat_win_now"),
        0
    );
    // With two empty squares and pieces to spare nobody can end it now.
    let pos = Position::from_tps("1,2,1/2,1,2/x,2,x 1 5").unwrap();
    assert_eq!(count(&pos, "flat_win_now"), 0);
}

#[test]
fn critical_squares_by_what_stands_on_them() {
    // White a3 b3: only c3 completes the top row, and a Black flat stands there.
    let pos = Position::from_tps("1,1,2/x3/2,x2 1 3").unwrap();
    assert_eq!(count(&pos, "critical_to_move_their_flat"), 1);
    assert_eq!(count(&pos, "critical_to_move_empty"), 0);
    // The same board, Black to move: it is the opponent's critical square.
    let pos = Position::from_tps("1,1,2/x3/2,x2 2 3").unwrap();
    assert_eq!(count(&pos, "critical_not_to_move_their_flat"), 1);
    assert_eq!(count(&pos, "critical_to_move_their_flat"), 0);
    // A White wall on it: White's own wall (a capstone could flatten it).
    let pos = Position::from_tps("1,1,1S/x3/2,2,x 1 4").unwrap();
    assert_eq!(count(&pos, "critical_to_move_own_wall"), 1);
    // An empty one, counted for the side not to move.
    let pos = Position::from_tps("1,1,x/x3/2,2,x 2 3").unwrap();
    assert_eq!(count(&pos, "critical_not_to_move_empty"), 1);
    assert_eq!(count(&pos, "critical_to_move_empty"), 1);
}

#[test]
fn lines_by_what_the_opponent_has_in_them() {
    // White a3 b3 share the top row with a Black flat (contested); White's a-file holds a Black
    // flat too, its b-file nothing else. Black's lines: top row and a-file contested, bottom
    // row and c-file clear.
    let pos = Position::from_tps("1,1,2/x3/2,x2 1 3").unwrap();
    assert_eq!(count(&pos, "line_contested_2"), 1);
    assert_eq!(count(&pos, "line_contested_1"), 1 - 2);
    assert_eq!(count(&pos, "line_clear_1"), 1 - 2);
    // A Black wall in the row blocks it.
    let pos = Position::from_tps("1,1,2S/x3/2,x2 1 3").unwrap();
    assert_eq!(count(&pos, "line_blocked_2"), 1);
    assert_eq!(count(&pos, "line_contested_2"), 0);
}

#[test]
fn supports_and_captives_shallow_and_deep() {
    // 3×3: Black's stack 1,2,1,2 (bottom first). A full carry lifts three: the top and the two
    // under it (a White captive, a Black support); the bottom White piece is a deep captive.
    let pos = Position::from_tps("1212,x2/x3/1,x,2 2 4").unwrap();
    assert_eq!(count(&pos, "support_shallow_flat_mobile"), 1);
    assert_eq!(count(&pos, "captive_shallow_flat_mobile"), 1);
    assert_eq!(count(&pos, "captive_deep_flat_mobile"), 1);
    assert_eq!(count(&pos, "support_deep_flat_mobile"), 0);
    // Seen from White (to move), the same counts are the opponent's: negative.
    let pos = Position::from_tps("1212,x2/x3/1,x,2 1 5").unwrap();
    assert_eq!(count(&pos, "support_shallow_flat_mobile"), -1);
    // By the top's kind and the stack's square (a corner), all depths together; and a White
    // flat it could take.
    assert_eq!(count(&pos, "support_psqt_flat_a1"), -1);
    assert_eq!(count(&pos, "captive_psqt_flat_a1"), -2);
    assert_eq!(count(&pos, "support_psqt_wall_a1"), 0);
    assert_eq!(count(&pos, "tall_next_their_flat"), 0);
    // The same stack under a wall counts in the wall's tables, not the flat's.
    let pos = Position::from_tps("1212S,x2/x3/1,x,2 1 5").unwrap();
    assert_eq!(count(&pos, "support_psqt_wall_a1"), -1);
    assert_eq!(count(&pos, "captive_psqt_wall_a1"), -2);
    assert_eq!(count(&pos, "captive_psqt_flat_a1"), 0);
    assert_eq!(count(&pos, "captive_psqt_cap_a1"), 0);
    let pos = Position::from_tps("1212,1,x/2S,x2/x2,2 2 4").unwrap();
    assert_eq!(count(&pos, "tall_next_their_flat"), 1);
    assert_eq!(count(&pos, "tall_next_own_wall"), 1);
    assert_eq!(count(&pos, "tall_next_own_flat"), 0);
    // Walled in by White walls, the stack cannot move.
    let pos = Position::from_tps("1212,1S,x/1S,x2/x,2,2 2 5").unwrap();
    assert_eq!(count(&pos, "captive_deep_flat_stuck"), 1);
    assert_eq!(count(&pos, "captive_deep_flat_mobile"), 0);
}

#[test]
fn flat_lead_weighed_by_the_placements_left() {
    // 3×3, White to move, 3 flats to Black's 4 and two empty squares: the game can end on
    // flats within two placements, so the lead (−2 half flats) counts in `race_lead_2`.
    let mut pos = Position::from_tps("1,2,1/2,1,2/x,2,x 1 5").unwrap();
    assert_eq!(count(&pos, "race_lead_2"), -2);
    assert_eq!(count(&pos, "race_lead_1"), 0);
    // Komi is Black's: half komi 2 makes White's deficit two half flats larger.
    pos.set_half_komi(2);
    assert_eq!(count(&pos, "race_lead_2"), -4);
    // Black to move sees the same lead from its side.
    let pos = Position::from_tps("1,2,1/2,1,2/x,2,x 2 5").unwrap();
    assert_eq!(count(&pos, "race_lead_2"), 2);
    // Far from the end (many empty squares and pieces in reserve), the group is silent.
    let pos = Position::from_tps("x2,2,x2/x5/x2,1,x2/x5/x5 1 2").unwrap();
    for h in 1..=4 {
        assert_eq!(count(&pos, &format!("race_lead_{h}")), 0);
    }
}

#[test]
fn capstone_neighbours_and_piece_squares() {
    // 5×5: White capstone on c3 (the centre class), a White wall and a Black flat next to it.
    let pos = Position::from_tps("x5/x2,2,x2/x,1S,1C,x2/x5/2,x4 1 4").unwrap();
    assert_eq!(count(&pos, "cap_next_own_wall"), 1);
    assert_eq!(count(&pos, "cap_next_their_flat"), 1);
    assert_eq!(count(&pos, "psqt_cap_c3"), 1);
    assert_eq!(count(&pos, "psqt_wall_c2"), 1);
    assert_eq!(count(&pos, "cap_isolated"), 0);
    // Black flats on c4 (class c2) and a1 (corner).
    assert_eq!(count(&pos, "psqt_flat_c2"), -1);
    assert_eq!(count(&pos, "psqt_flat_a1"), -1);
}

#[test]
fn isolated_capstone() {
    // White's capstone on c3 has only its own flat next to it; Black's on a1 touches nothing:
    // both isolated.
    let pos = Position::from_tps("x5/x5/x,1,1C,x2/x5/2C,x4 1 3").unwrap();
    assert_eq!(count(&pos, "cap_isolated"), 0, "one each");
    assert_eq!(count(&pos, "cap_next_own_flat"), 1);
    let pos = Position::from_tps("x5/x5/x,1,1C,x2/x5/2C,1,x3 2 3").unwrap();
    // Black to move: its capstone now touches White's b1, White's is still alone.
    assert_eq!(count(&pos, "cap_isolated"), -1);
}

#[test]
#[should_panic(expected = "wrong board size")]
fn weights_of_another_size_are_refused() {
    evaluate_with(&Position::start(5).unwrap(), EvalWeights::builtin(6));
}

#[test]
fn weight_files_parse_and_name_every_feature() {
    for size in 3..=8 {
        let path = format!(
            "{}/weights/eval-{size}x{size}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# "), "{path}: a header comes first");
        let w = EvalWeights::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(w.size(), size);
        let names = EvalWeights::feature_names(size);
        assert_eq!(w.feature_count(), names.len());
        for name in &names {
            assert!(
                text.lines()
                    .any(|l| l.split_whitespace().next() == Some(name)),
                "{path}: no line for {name}"
            );
        }
        assert_eq!(&w, EvalWeights::builtin(size));
        // Written and read back, nothing changes; the header becomes comments.
        let header = vec!["made by a test".to_string(), "two\nlines".to_string()];
        let written = w.to_text(&header);
        assert!(written.starts_with("# made by a test\n# two\n# lines\n"));
        assert_eq!(EvalWeights::parse(&written), Ok(w));
    }
    assert!(EvalWeights::feature_names(9).is_empty());
    assert!(EvalWeights::feature_names(6).len() > 90);
}

#[test]
fn bad_weight_files_give_one_line_errors() {
    // A file independent of the shipped weights: all zero but tempo 25/25, the default scale.
    let mut weights = EvalWeights::zero(4).unwrap();
    let tempo = EvalWeights::feature_names(4)
        .iter()
        .position(|&n| n == "tempo")
        .unwrap();
    weights.set(tempo, [25, 25]);
    let good = weights.to_text(&[]);
    assert!(good.contains("\nscale 505.0\n"), "{good}");
    let first = EvalWeights::feature_names(4)[0];
    let with = |from: &str, to: &str| good.replacen(from, to, 1);
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "no `size N` line"),
        ("# only a comment\n".into(), "no `size N` line"),
        (with("size 4", "size 9"), "bad board size '9'"),
        (with("size 4", "size four"), "bad board size 'four'"),
        (with("size 4\n", ""), "expected `size N` first"),
        (
            good.clone() + "no_such_feature 1 2\n",
            "unknown feature 'no_such_feature'",
        ),
        (good.clone() + first + " 1 2\n", "given twice"),
        (
            good.clone() + "tempo 1\n",
            "expected '<feature> <opening> <end>'",
        ),
        (
            with("tempo ", "tempo 1.5 "),
            "expected '<feature> <opening> <end>'",
        ),
        (good.replacen(" 25 ", " 2x5 ", 1), "bad number '2x5'"),
        (
            good.replacen("     25\n", " 99999999999\n", 1),
            "bad number '99999999999'",
        ),
        (with("tempo", "# tempo"), "missing feature 'tempo' for 4x4"),
        (
            with("scale 505.0", "scale 0"),
            "bad scale '0': must be a positive number",
        ),
        (with("scale 505.0", "scale -3"), "bad scale '-3'"),
        (with("scale 505.0", "scale inf"), "bad scale 'inf'"),
        (with("scale 505.0", "scale K"), "bad scale 'K'"),
        (good.clone() + "scale 300\n", "`scale` given twice"),
        (
            "size 4\ntempo 1 1\n".into(),
            "missing feature 'flat_lead_to_move' and ",
        ),
    ];
    for (text, expected) in cases {
        let err = EvalWeights::parse(&text).expect_err(expected);
        assert!(err.contains(expected), "'{err}' should say '{expected}'");
        assert!(!err.contains('\n'), "one line: {err}");
    }
    assert!(EvalWeights::zero(2).is_err());
    assert_eq!(
        EvalWeights::zero(5).unwrap().feature_count(),
        EvalWeights::feature_names(5).len()
    );
}

#[test]
fn placements_to_a_road_by_side() {
    // 5×5, White to move: White's a1 b1 c1 are two placements from a road, Black's a2 b2
    // three.
    let pos = Position::from_tps("x5/x5/x5/2,2,x3/1,1,1,x2 1 6").unwrap();
    assert_eq!(count(&pos, "road_distance_to_move_2"), 1);
    assert_eq!(count(&pos, "road_distance_not_to_move_3"), 1);
    for p in [1, 3, 4] {
        assert_eq!(count(&pos, &format!("road_distance_to_move_{p}")), 0);
    }
}

/// A group whose weights are all zero is skipped by the weighted evaluation: one weight of
/// it set, at either end of the group, must bring it back.
#[test]
fn a_group_with_one_weight_set_is_evaluated() {
    /// Features in a group of a board of `size`.
    type GroupLen = fn(usize) -> usize;
    let groups: [(&str, GroupLen); 2] = [
        ("road_distance_", |_| 8),
        ("pair_", |size| (size / 2) * size.div_ceil(2) * 24),
    ];
    for (prefix, len) in groups {
        for size in 3..=8 {
            let names = EvalWeights::feature_names(size);
            let group: Vec<usize> = (0..names.len())
                .filter(|&i| names[i].starts_with(prefix))
                .collect();
            assert_eq!(group.len(), len(size));
            for index in [group[0], *group.last().unwrap()] {
                let mut weights = EvalWeights::builtin(size).clone();
                for &i in &group {
                    weights.set(i, [0, 0]);
                }
                weights.set(index, [0, 500]);
                for pos in random_positions(size, 20, 7) {
                    let score = evaluate_with(&pos, &weights);
                    if score.abs() < EVAL_LIMIT {
                        let model = eval_trace(&pos).score(&weights);
                        assert!(
                            (score as f64 - model).abs() <= 1.0,
                            "{}: evaluate {score}, trace · weights {model}",
                            pos.to_tps()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn neighbouring_squares_by_what_they_hold() {
    // 5×5, White to move: a White flat on a1 next to a Black flat on b1.
    let pos = Position::from_tps("x5/x5/x5/x5/1,2,x3 1 2").unwrap();
    // a1–b1 from White's side: own flat outside, their flat inside.
    assert_eq!(count(&pos, "pair_a1b1_Ff"), 1);
    // a1–a2 is the same kind of pair (the board's symmetry): own flat, empty.
    assert_eq!(count(&pos, "pair_a1b1_Fe"), 1);
    // Black's flat with an empty square inside it counts for the opponent: b1–c1 and b1–b2.
    assert_eq!(count(&pos, "pair_b1c1_Fe"), -1);
    assert_eq!(count(&pos, "pair_a2b2_Fe"), -1);
    // Black to move sees it all from its side.
    let pos = Position::from_tps("x5/x5/x5/x5/1,2,x3 2 2").unwrap();
    assert_eq!(count(&pos, "pair_a1b1_Ff"), -1);
    assert_eq!(count(&pos, "pair_b1c1_Fe"), 1);
}

/// Candidate weight files (weights a match has not decided yet) stay readable by the engine
/// they are meant for, so a later match can build with them: every file there is an
/// evaluation, a policy or a network file, and the text ones parse here (networks are binary
/// and load in tests/network.rs).
#[test]
fn candidate_weight_files_parse() {
    let dir = format!("{}/weights/candidates", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("nnue-") && name.ends_with(".mhn") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let parsed = if name.starts_with("eval-") {
            EvalWeights::parse(&text).map(drop)
        } else if name.starts_with("policy-") {
            PolicyWeights::parse(&text).map(drop)
        } else {
            panic!("{name}: neither an eval-, a policy- nor an nnue- file");
        };
        parsed.unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
