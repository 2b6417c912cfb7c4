//! Property tests over random games of every size 3–8, with fixed seeds so every run is the same.
//!
//! Each test plays random legal games (optionally biased towards placements, so flat endings
//! happen) and checks one family of invariants after every ply, against `tests/reference/`.

mod reference;

use menhir::core::{Color, Direction, GameResult, Move, MoveList, PieceKind, Position};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestCaseResult, TestRunner};
use reference::RefGame;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Longest game played (in plies); most random games end well before.
const MAX_PLIES: usize = 240;

/// One random game: board size, komi, a bias towards placements (0 = none, 3 = strong), a
/// tendency to take back one's previous one-square spread (0 = none, 3 = strong; this makes
/// positions repeat) and one random number per ply that picks the move.
#[derive(Clone, Debug)]
struct Game {
    size: usize,
    half_komi: i32,
    placement_bias: u16,
    shuffle: u16,
    choices: Vec<u16>,
}

fn games(size: usize) -> impl Strategy<Value = Game> {
    (
        prop_oneof![Just(0), Just(1), Just(4)],
        0u16..4,
        0u16..4,
        vec(any::<u16>(), 0..MAX_PLIES),
    )
        .prop_map(move |(half_komi, placement_bias, shuffle, choices)| Game {
            size,
            half_komi,
            placement_bias,
            shuffle,
            choices,
        })
}

/// The spread that carries a one-square spread's pieces back, if `mv` is one.
fn reverse(mv: Move, size: usize) -> Option<Move> {
    if mv.is_placement() || mv.distance() != 1 {
        return None;
    }
    let dir = mv.direction();
    let back = match dir {
        Direction::North => Direction::South,
        Direction::South => Direction::North,
        Direction::East => Direction::West,
        Direction::West => Direction::East,
    };
    Move::spread_from_drops(mv.square().step(dir, size)?, back, &[mv.count()])
}

/// Runs `test` on `cases` random games of each size, from a fixed seed.
fn check_games(seed: u64, cases: u32, test: impl Fn(&Game) -> TestCaseResult) {
    for size in 3..=8 {
        let config = Config {
            cases,
            rng_seed: RngSeed::Fixed(seed * 16 + size as u64),
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        if let Err(e) = runner.run(&games(size), |game| test(&game)) {
            panic!("size {size}: {e}");
        }
    }
}

/// Plays `game`, calling `visit` on every position reached (the start included) with its legal
/// moves and the move that led there, until the game ends or its choices run out.
fn walk(
    game: &Game,
    mut visit: impl FnMut(&mut Position, &[Move], Option<Move>) -> TestCaseResult,
) -> TestCaseResult {
    let mut pos = Position::start(game.size).unwrap();
    pos.set_half_komi(game.half_komi);
    let mut moves = MoveList::new();
    let mut last = None;
    let mut played = Vec::new();
    for ply in 0.. {
        moves.clear();
        pos.generate_moves(&mut moves);
        visit(&mut pos, &moves, last)?;
        if pos.result().is_some() || ply == game.choices.len() {
            return Ok(());
        }
        let choice = game.choices[ply];
        let placements: Vec<Move> = moves.iter().copied().filter(|m| m.is_placement()).collect();
        let take_back = played.len() >= 2 && (choice >> 12) % 4 < game.shuffle;
        let mv = match take_back.then(|| reverse(played[played.len() - 2], game.size)) {
            Some(Some(back)) if pos.is_legal(back) => back,
            _ if choice % 4 < game.placement_bias && !placements.is_empty() => {
                placements[(choice / 4) as usize % placements.len()]
            }
            _ => moves[(choice / 4) as usize % moves.len()],
        };
        pos.do_move(mv);
        played.push(mv);
        last = Some(mv);
    }
    unreachable!()
}

fn fail(why: String) -> TestCaseResult {
    Err(TestCaseError::fail(why))
}

/// (a) Unmake restores the position bit for bit, for every legal move of every position.
#[test]
fn undo_restores_position() {
    check_games(1, 12, |game| {
        walk(game, |pos, moves, _| {
            let before = pos.clone();
            for &mv in moves {
                let undo = pos.do_move(mv);
                pos.undo_move(mv, undo);
                if *pos != before
                    || pos.to_tps() != before.to_tps()
                    || pos.hash() != before.hash()
                    || pos.history() != before.history()
                {
                    return fail(format!(
                        "{} then undo changed {}",
                        mv.to_ptn(),
                        before.to_tps()
                    ));
                }
            }
            Ok(())
        })
    });
}

/// (b) The incremental hash equals the hash from scratch after every move, and equal
/// positions (same TPS) have equal hashes however they were reached.
#[test]
fn incremental_hash_matches_scratch() {
    check_games(2, 12, |game| {
        let mut seen: HashMap<String, u64> = HashMap::new();
        walk(game, |pos, moves, _| {
            for &mv in moves {
                let undo = pos.do_move(mv);
                let (hash, scratch) = (pos.hash(), pos.hash_from_scratch());
                let consistent = pos.is_consistent();
                let tps = pos.to_tps();
                pos.undo_move(mv, undo);
                if hash != scratch || !consistent {
                    return fail(format!("after {} from {}", mv.to_ptn(), pos.to_tps()));
                }
                // The move number is not part of the position, so key on board and side only.
                let key = tps.rsplit_once(' ').unwrap().0.to_string();
                if *seen.entry(key).or_insert(hash) != hash {
                    return fail(format!("two hashes for {tps}"));
                }
            }
            Ok(())
        })
    });
}

/// Writes every `xN` run of a compressed TPS out as `N` single `x` cells.
fn spell_out(tps: &str) -> String {
    let (board, rest) = tps.split_once(' ').unwrap();
    let rows: Vec<String> = board
        .split('/')
        .map(|row| {
            let cells: Vec<String> = row
                .split(',')
                .map(|cell| match cell.strip_prefix('x') {
                    Some("") => "x".to_string(),
                    Some(n) => vec!["x"; n.parse().unwrap()].join(","),
                    None => cell.to_string(),
                })
                .collect();
            cells.join(",")
        })
        .collect();
    format!("{} {rest}", rows.join("/"))
}

/// (c) TPS written, then read (compressed and spelled out), gives back the same position.
#[test]
fn tps_round_trips() {
    check_games(3, 24, |game| {
        walk(game, |pos, _, _| {
            let tps = pos.to_tps();
            for text in [tps.clone(), spell_out(&tps)] {
                let mut back = match Position::from_tps(&text) {
                    Ok(back) => back,
                    Err(e) => return fail(format!("{text}: {e}")),
                };
                back.set_half_komi(game.half_komi);
                prop_assert_eq!(back.to_tps(), tps.clone());
                prop_assert_eq!(back.hash(), pos.hash());
                prop_assert_eq!((back.to_move(), back.ply()), (pos.to_move(), pos.ply()));
                for sq in pos.board() {
                    prop_assert_eq!(back.stack(sq), pos.stack(sq), "{} at {}", text, sq);
                    prop_assert_eq!(back.top(sq), pos.top(sq), "{} at {}", text, sq);
                }
                for c in Color::ALL {
                    prop_assert_eq!(back.stones(c), pos.stones(c));
                    prop_assert_eq!(back.capstones(c), pos.capstones(c));
                }
                prop_assert_eq!(back.result(), pos.result());
                prop_assert!(back.is_consistent());
            }
            Ok(())
        })
    });
}

/// Whether `mv` ends with a capstone flattening a wall here.
fn is_smash(pos: &Position, mv: &Move) -> bool {
    if mv.is_placement() {
        return false;
    }
    let mut sq = mv.square();
    for _ in 0..mv.distance() {
        sq = sq.step(mv.direction(), pos.size()).unwrap();
    }
    pos.walls().contains(sq)
}

/// The long PTN forms of `mv` that must parse to it (canonical PTN not included).
fn long_forms(pos: &Position, mv: Move) -> Vec<String> {
    let canonical = mv.to_ptn();
    let mut forms = Vec::new();
    if mv.is_placement() {
        if mv.kind() == PieceKind::Flat {
            forms.push(format!("F{canonical}"));
        }
    } else {
        let (count, sq, dir) = (mv.count(), mv.square(), mv.direction().symbol());
        let drops: String = mv.drops().map(|d| d.to_string()).collect();
        forms.push(format!("{count}{sq}{dir}{drops}"));
        forms.push(format!(
            "{count}{sq}{dir}{}",
            if mv.distance() == 1 { "" } else { &drops }
        ));
        if count == 1 {
            forms.push(format!("{sq}{dir}1"));
        }
        if is_smash(pos, &mv) {
            forms.push(format!("{canonical}*"));
            forms.push(format!("{count}{sq}{dir}{drops}*"));
            forms.push(format!("{canonical}*'"));
        }
    }
    for mark in ["'", "''", "\"", "!", "?", "'!", "!!", "??", "!?", "''!"] {
        forms.push(format!("{canonical}{mark}"));
    }
    forms
}

/// Canonical PTN: no `F`, no `*`, count only above 1, drops only over two or more squares.
fn is_canonical(mv: Move, text: &str) -> bool {
    let no_marks = !text.contains(['F', '*', '\'', '"', '!', '?']);
    if mv.is_placement() {
        return no_marks && text.len() == 2 + (mv.kind() != PieceKind::Flat) as usize;
    }
    let count_written = text.starts_with(|c: char| c.is_ascii_digit());
    let after_dir = text.split(['+', '-', '<', '>']).nth(1).unwrap_or("x");
    no_marks && count_written == (mv.count() > 1) && after_dir.is_empty() == (mv.distance() == 1)
}

/// (d) Each generated move's PTN, canonical and long forms, parses back to the same move.
#[test]
fn ptn_round_trips() {
    check_games(4, 8, |game| {
        walk(game, |pos, moves, _| {
            let over = pos.result().is_some();
            for &mv in moves {
                let text = mv.to_ptn();
                prop_assert!(is_canonical(mv, &text), "{} is not canonical", text);
                if over {
                    let err = pos.parse_move(&text).unwrap_err();
                    prop_assert!(err.contains("game is over"), "{}", err);
                    continue;
                }
                prop_assert_eq!(pos.parse_move(&text), Ok(mv), "{}", text);
                for form in long_forms(pos, mv) {
                    prop_assert_eq!(
                        pos.parse_move(&form),
                        Ok(mv),
                        "{} in {}",
                        form,
                        pos.to_tps()
                    );
                    prop_assert_eq!(Move::parse_ptn(&form, pos.size()), Ok(mv), "{}", form);
                }
            }
            Ok(())
        })
    });
}

/// Kinds of ending seen by `results_match_reference`, to show it met every case.
#[derive(Default, Debug)]
struct Endings {
    road: [u32; 2],
    double_road: u32,
    road_for_opponent: u32,
    flats: [u32; 2],
    draw: u32,
    komi_decided: u32,
}

/// (e) Roads and flat results agree with the reference after every ply, for the move played
/// and for every other legal move of each position (which is where double roads and roads made
/// for the opponent turn up).
#[test]
fn results_match_reference() {
    let endings = RefCell::new(Endings::default());
    check_games(5, 10, |game| {
        let mut model = RefGame::new(game.size, game.half_komi);
        walk(game, |pos, moves, last| {
            if let Some(mv) = last {
                model.apply(mv);
            }
            if let Some(diff) = model.difference(pos) {
                return fail(format!("{diff} in {}", pos.to_tps()));
            }
            prop_assert_eq!(pos.result(), model.result(), "{}", pos.to_tps());
            if pos.result().is_some() {
                return Ok(());
            }
            for &mv in moves {
                let mut child = model.clone();
                child.apply(mv);
                let undo = pos.do_move(mv);
                let (got, want) = (pos.result(), child.result());
                // The result a caller gets by naming the move (road tests the move cannot
                // change are skipped) is the same.
                let after = pos.result_after(mv);
                let roads = [Color::White, Color::Black].map(|c| pos.has_road(c));
                let flats = pos.flat_counts();
                let tps = pos.to_tps();
                pos.undo_move(mv, undo);
                prop_assert_eq!(got, want, "{} after {}", tps, mv.to_ptn());
                prop_assert_eq!(after, want, "result_after: {} after {}", tps, mv.to_ptn());
                prop_assert_eq!(roads, [child.has_road(0), child.has_road(1)], "{}", tps);
                prop_assert_eq!(flats, child.flat_counts(), "{}", tps);
                tally(&mut endings.borrow_mut(), &child, got);
            }
            Ok(())
        })
    });
    let e = endings.into_inner();
    println!("{e:?}");
    assert!(e.road.iter().chain(&e.flats).all(|&n| n > 0), "{e:?}");
    assert!(e.road_for_opponent > 0, "{e:?}");
    assert!(e.draw > 0 && e.komi_decided > 0, "{e:?}");
}

/// A random board: per square a height of 0–3, colour bits and a top kind; side to move; komi.
fn boards(size: usize) -> impl Strategy<Value = (Vec<(u8, u8, u8)>, usize, i32)> {
    (
        vec((0u8..4, any::<u8>(), 0u8..8), size * size),
        0usize..2,
        prop_oneof![Just(0), Just(4)],
    )
}

/// The reference cells of a random board: tops are mostly flats, with some walls and caps.
fn board_cells(size: usize, squares: &[(u8, u8, u8)]) -> Vec<Vec<reference::Cell>> {
    (0..size)
        .map(|rank| {
            (0..size)
                .map(|file| {
                    let (height, colours, kind) = squares[rank * size + file];
                    reference::Cell {
                        pieces: (0..height).map(|i| (colours >> i) as usize & 1).collect(),
                        top: match kind {
                            6 => PieceKind::Wall,
                            7 => PieceKind::Cap,
                            _ => PieceKind::Flat,
                        },
                    }
                })
                .collect()
        })
        .collect()
}

/// (e) on random crowded boards rather than games: every legal move's result (and roads and
/// flat counts) agree with the reference. Crowded boards give many double roads and roads
/// made for the opponent, which random games rarely reach.
#[test]
fn results_match_reference_on_random_boards() {
    let endings = RefCell::new(Endings::default());
    for size in 3..=8 {
        let config = Config {
            cases: 40,
            rng_seed: RngSeed::Fixed(700 + size as u64),
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let result = runner.run(&boards(size), |(squares, to_move, half_komi)| {
            let cells = board_cells(size, &squares);
            let Some(model) = RefGame::from_cells(cells, to_move, 20 + to_move, half_komi) else {
                return Ok(()); // more pieces than the reserves hold: not a position
            };
            let tps = model.to_tps();
            let mut pos = match Position::from_tps(&tps) {
                Ok(pos) => pos,
                Err(e) => return fail(format!("{tps}: {e}")),
            };
            pos.set_half_komi(half_komi);
            if let Some(diff) = model.difference(&pos) {
                return fail(format!("{diff} in {tps}"));
            }
            prop_assert_eq!(pos.result(), model.result(), "{}", tps);
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            for &mv in moves.iter() {
                let mut child = model.clone();
                child.apply(mv);
                let undo = pos.do_move(mv);
                let got = pos.result();
                let roads = [Color::White, Color::Black].map(|c| pos.has_road(c));
                let diff = child.difference(&pos);
                pos.undo_move(mv, undo);
                prop_assert_eq!(diff, None, "{} after {}", tps, mv.to_ptn());
                prop_assert_eq!(got, child.result(), "{} after {}", tps, mv.to_ptn());
                prop_assert_eq!(roads, [child.has_road(0), child.has_road(1)], "{}", tps);
                tally(&mut endings.borrow_mut(), &child, got);
            }
            Ok(())
        });
        if let Err(e) = result {
            panic!("size {size}: {e}");
        }
    }
    let e = endings.into_inner();
    println!("{e:?}");
    assert!(e.road.iter().all(|&n| n > 0), "{e:?}");
    assert!(e.double_road > 0 && e.road_for_opponent > 0, "{e:?}");
}

fn tally(e: &mut Endings, child: &RefGame, result: Option<GameResult>) {
    let mover = 1 - child.to_move;
    let roads = [child.has_road(mover), child.has_road(1 - mover)];
    match result {
        Some(GameResult::Road(c)) => {
            e.road[c.index()] += 1;
            e.double_road += (roads[0] && roads[1]) as u32;
            e.road_for_opponent += (!roads[0]) as u32;
        }
        Some(GameResult::Flats(c)) => e.flats[c.index()] += 1,
        Some(GameResult::Draw) => e.draw += 1,
        _ => {}
    }
    if matches!(result, Some(GameResult::Flats(_) | GameResult::Draw)) {
        // Komi decided it when the bare flat margin points another way.
        let (w, b) = child.flat_counts();
        let bare = (2 * w as i32 - 2 * b as i32).signum();
        let with_komi = (2 * w as i32 - 2 * b as i32 - child.half_komi).signum();
        e.komi_decided += (bare != with_komi) as u32;
    }
}

/// A small deterministic generator for sampling move encodings.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// (f) Generation equals the brute-force reference, `count_moves` agrees, moves are distinct
/// and legal, and `is_legal` rejects encodings outside the list: every one of the 65,536 in
/// some positions, a random sample in the others.
#[test]
fn movegen_matches_reference_and_is_legal() {
    check_games(6, 10, |game| {
        let mut model = RefGame::new(game.size, game.half_komi);
        let mut rng = game.choices.iter().fold(game.size as u64, |h, &c| {
            h.wrapping_mul(31).wrapping_add(c as u64)
        });
        walk(game, |pos, moves, last| {
            if let Some(mv) = last {
                model.apply(mv);
            }
            prop_assert_eq!(pos.count_moves(), moves.len() as u64, "{}", pos.to_tps());
            let set: HashSet<u16> = moves.iter().map(|m| m.to_bits()).collect();
            prop_assert_eq!(set.len(), moves.len(), "duplicates in {}", pos.to_tps());
            let want: HashSet<u16> = model.legal_moves().iter().map(|m| m.to_bits()).collect();
            if set != want {
                let show = |s: &HashSet<u16>| {
                    let mut v: Vec<String> =
                        s.iter().map(|&b| Move::from_bits(b).to_ptn()).collect();
                    v.sort();
                    v.join(" ")
                };
                return fail(format!(
                    "{}: extra [{}] missing [{}]",
                    pos.to_tps(),
                    show(&set.difference(&want).copied().collect()),
                    show(&want.difference(&set).copied().collect())
                ));
            }
            for &mv in moves {
                prop_assert!(pos.is_legal(mv), "{} in {}", mv.to_ptn(), pos.to_tps());
            }
            let exhaustive = pos.ply() % 12 == 0;
            let samples = if exhaustive { 1 << 16 } else { 256 };
            for i in 0..samples {
                let bits = if exhaustive {
                    i as u16
                } else {
                    splitmix(&mut rng) as u16
                };
                let mv = Move::from_bits(bits);
                prop_assert_eq!(pos.is_legal(mv), set.contains(&bits), "{:#06x}", bits);
            }
            Ok(())
        })
    });
}

/// The two rarest road cases, spelled out: a spread that makes roads for both players (the
/// mover wins) and one that makes a road only for the opponent. Core and reference agree.
#[test]
fn double_road_and_road_for_opponent_examples() {
    for (tps, ptn, want) in [
        (
            "2,2,21/1,1,x/x3 1 10",
            "c3-",
            GameResult::Road(Color::White),
        ),
        (
            "2,2,21/x,1,x/x3 1 10",
            "c3-",
            GameResult::Road(Color::Black),
        ),
        (
            "1,1,12/2,2,x/x3 2 10",
            "c3-",
            GameResult::Road(Color::Black),
        ),
        (
            "1,1,12/x,2,x/x3 2 10",
            "c3-",
            GameResult::Road(Color::White),
        ),
    ] {
        let mut pos = Position::from_tps(tps).unwrap();
        let mv = pos.parse_move(ptn).unwrap();
        pos.do_move(mv);
        assert_eq!(pos.result(), Some(want), "{tps} {ptn}");
        assert_eq!(pos.result().unwrap().to_string(), want.to_string());
        let mut model = RefGame::from_cells(board_of(tps), pos.to_move().index() ^ 1, 19, 0)
            .expect("a legal position");
        model.apply(mv);
        assert_eq!(model.result(), Some(want), "reference: {tps} {ptn}");
    }
}

/// Reads the board field of a spelled-out or compressed TPS into reference cells.
fn board_of(tps: &str) -> Vec<Vec<reference::Cell>> {
    let pos = Position::from_tps(&spell_out(tps)).unwrap();
    let size = pos.size();
    (0..size)
        .map(|rank| {
            (0..size)
                .map(|file| {
                    let sq = menhir::core::Square::new(file, rank, size).unwrap();
                    reference::Cell {
                        pieces: pos.stack(sq).iter().map(|c| c.index()).collect(),
                        top: pos.top_kind(sq),
                    }
                })
                .collect()
        })
        .collect()
}

/// (g) `repetitions()` counts the earlier occurrences of the position (board and side to move)
/// since the last placement, as a plain list of TPS boards counts them.
#[test]
fn repetitions_match_a_plain_history() {
    let repeats = RefCell::new(0);
    check_games(7, 24, |game| {
        // Boards (TPS without the move number) since the last placement, oldest first.
        let mut since_placement: Vec<String> = Vec::new();
        walk(game, |pos, _, last| {
            let board = pos.to_tps().rsplit_once(' ').unwrap().0.to_string();
            if last.is_some_and(|mv| mv.is_placement()) {
                since_placement.clear();
            }
            let want = since_placement.iter().filter(|b| **b == board).count();
            prop_assert_eq!(pos.repetitions(), want, "{}", pos.to_tps());
            prop_assert_eq!(pos.is_threefold(), want >= 2);
            *repeats.borrow_mut() += (want > 0) as u32;
            since_placement.push(board);
            Ok(())
        })
    });
    println!("positions seen before: {}", repeats.borrow());
    assert!(*repeats.borrow() > 0, "no game repeated a position");
}
