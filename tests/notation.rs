//! Notation at the edges: every class of malformed TPS and PTN gets a clear error, never a
//! panic; valid spellings and long PTN forms are accepted; output is canonical.
//!
//! TPS cases live in `tests/data/valid.tps` and `tests/data/invalid.tps` (one test per class).

use menhir::core::{Direction, Move, PieceKind, Position, Square};
use std::collections::BTreeSet;
use std::panic::catch_unwind;

const INVALID_TPS: &str = include_str!("data/invalid.tps");
const VALID_TPS: &str = include_str!("data/valid.tps");

/// Lines of a data file split on `|`, comments and blank lines skipped.
fn records(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('|').map(str::trim).collect())
}

/// The error `from_tps` gives for `tps`; fails if it accepts it or panics.
fn tps_error(tps: &str) -> String {
    let owned = tps.to_string();
    match catch_unwind(move || Position::from_tps(&owned).map(|p| p.to_tps())) {
        Err(_) => panic!("from_tps panicked on '{tps}'"),
        Ok(Ok(back)) => panic!("'{tps}' was accepted (as '{back}')"),
        Ok(Err(e)) => e,
    }
}

/// Checks every line of `invalid.tps` in `class`; there must be at least one.
fn check_invalid_class(class: &str) {
    let mut seen = 0;
    for record in records(INVALID_TPS).filter(|r| r[0] == class) {
        let [_, tps, fragment] = record[..] else {
            panic!("bad line in invalid.tps: {record:?}");
        };
        let error = tps_error(tps);
        assert!(
            error.contains(fragment),
            "'{tps}': error '{error}' does not say '{fragment}'"
        );
        seen += 1;
    }
    assert!(seen > 0, "no cases of class {class}");
}

macro_rules! invalid_tps_tests {
    ($($class:ident),* $(,)?) => {
        $(#[test] fn $class() { check_invalid_class(stringify!($class)); })*

        /// Every class in the data file has a test above.
        #[test]
        fn every_invalid_tps_class_is_tested() {
            let tested: BTreeSet<&str> = [$(stringify!($class)),*].into_iter().collect();
            for record in records(INVALID_TPS) {
                assert!(tested.contains(record[0]), "class {} has no test", record[0]);
            }
        }
    };
}

mod invalid_tps {
    use super::*;
    invalid_tps_tests!(
        fields,
        rows,
        columns,
        characters,
        empty_cell,
        runs,
        below_top,
        empty_stack,
        reserves,
        capstones,
        side,
        move_number,
    );
}

/// A sign in a number is not TPS: notation.md's runs are `x` and one digit, and the move
/// number is plain digits. (Rust's integer parser accepts a leading `+`.)
#[test]
fn tps_numbers_with_a_plus_sign_are_rejected() {
    let accepted: Vec<String> = ["x+5/x5/x5/x5/x5 1 1", "x5/x5/x5/x5/x5 1 +3"]
        .into_iter()
        .filter_map(|tps| {
            Position::from_tps(tps)
                .ok()
                .map(|p| format!("'{tps}' as '{}'", p.to_tps()))
        })
        .collect();
    assert!(accepted.is_empty(), "accepted: {}", accepted.join(", "));
}

/// Each line of `valid.tps`: every spelling parses to the same position, written compressed.
#[test]
fn valid_tps_spellings_agree() {
    let mut lines = 0;
    for record in records(VALID_TPS) {
        let canonical = record[0];
        let first = Position::from_tps(canonical).unwrap_or_else(|e| panic!("{canonical}: {e}"));
        assert_eq!(
            first.to_tps(),
            canonical,
            "to_tps writes the compressed form"
        );
        assert!(first.is_consistent());
        for &text in &record[1..] {
            let other = Position::from_tps(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(other, first, "'{text}' differs from '{canonical}'");
            assert_eq!(other.to_tps(), canonical);
        }
        lines += 1;
    }
    assert!(lines >= 5);
}

/// Reserves come out of a TPS as starting reserves minus the pieces on the board.
#[test]
fn tps_reserves_follow_the_board() {
    use menhir::core::Color::{Black, White};
    let pos = Position::from_tps("x4,1/x5/x2,21C,x2/x5/2S,x4 1 9").unwrap();
    assert_eq!((pos.stones(White), pos.capstones(White)), (20, 0));
    assert_eq!((pos.stones(Black), pos.capstones(Black)), (19, 1));
    // Exactly the full reserve is fine.
    let full = "1111111111,x2/x3/x3 2 10";
    assert_eq!(Position::from_tps(full).unwrap().stones(White), 0);
}

// ---------------------------------------------------------------------------------------------
// PTN moves: syntax
// ---------------------------------------------------------------------------------------------

/// The error `Move::parse_ptn` gives on a board of `size`; fails if it accepts or panics.
fn ptn_error(text: &str, size: usize) -> String {
    let owned = text.to_string();
    match catch_unwind(move || Move::parse_ptn(&owned, size).map(Move::to_ptn)) {
        Err(_) => panic!("parse_ptn panicked on '{text}'"),
        Ok(Ok(mv)) => panic!("'{text}' was accepted (as '{mv}') on {size}x{size}"),
        Ok(Err(e)) => e,
    }
}

/// Checks each `(text, size, fragment)`; the message also quotes the text.
fn check_ptn_errors(cases: &[(&str, usize, &str)]) {
    for &(text, size, fragment) in cases {
        let error = ptn_error(text, size);
        assert!(
            error.contains(fragment) && error.contains(&format!("'{text}'")),
            "'{text}' on {size}x{size}: error '{error}' does not say '{fragment}'"
        );
    }
}

#[test]
fn ptn_empty() {
    check_ptn_errors(&[("", 5, "empty"), ("*", 5, "empty"), ("'!", 5, "empty")]);
}

#[test]
fn ptn_missing_square() {
    check_ptn_errors(&[
        ("a", 5, "no square"),
        ("S", 5, "no square"),
        ("3", 5, "no square"),
    ]);
}

#[test]
fn ptn_off_board_square() {
    check_ptn_errors(&[
        ("f1", 5, "square f1 is off the 5x5 board"),
        ("a6", 5, "square a6 is off the 5x5 board"),
        ("Cd4", 3, "square d4 is off the 3x3 board"),
        ("2h8<", 7, "square h8 is off the 7x7 board"),
    ]);
}

#[test]
fn ptn_bad_file_or_rank() {
    check_ptn_errors(&[
        ("i1", 8, "'i1' is not a square"),
        ("a9", 8, "'a9' is not a square"),
        ("a0", 5, "'a0' is not a square"),
        ("A1", 5, "'A1' is not a square"),
        ("Xa1", 5, "'Xa' is not a square"),
        ("11>", 5, "'1>' is not a square"),
    ]);
}

#[test]
fn ptn_count_zero() {
    check_ptn_errors(&[("0a1>", 5, "count must be at least 1")]);
}

#[test]
fn ptn_count_over_carry_limit() {
    check_ptn_errors(&[
        ("6a1>", 5, "the count 6 exceeds the carry limit 5"),
        ("4a1+", 3, "the count 4 exceeds the carry limit 3"),
        ("9a1>", 8, "the count 9 exceeds the carry limit 8"),
    ]);
}

#[test]
fn ptn_drops_not_summing_to_count() {
    check_ptn_errors(&[
        ("3a1>11", 5, "the drops sum to 2, not the count 3"),
        ("2a1>111", 5, "the drops sum to 3, not the count 2"),
        ("a1>2", 5, "the drops sum to 2, not the count 1"),
    ]);
}

#[test]
fn ptn_drop_of_zero() {
    check_ptn_errors(&[("2a1>20", 5, "a drop of 0"), ("2a1>02", 5, "a drop of 0")]);
}

#[test]
fn ptn_spread_leaving_the_board() {
    check_ptn_errors(&[
        ("a1<", 5, "leaves the board"),
        ("a1-", 5, "leaves the board"),
        ("e5+", 5, "leaves the board"),
        ("3a1>111", 3, "leaves the board"),
        ("5b3>1112", 5, "leaves the board"),
    ]);
}

#[test]
fn ptn_placement_with_direction() {
    check_ptn_errors(&[
        ("Sa1>", 5, "a placement has no direction"),
        ("Ca1+", 5, "a placement has no direction"),
        ("Fa1-", 5, "a placement has no direction"),
    ]);
}

#[test]
fn ptn_count_on_placement() {
    check_ptn_errors(&[("3a1", 5, "a count needs a direction")]);
}

#[test]
fn ptn_junk_characters() {
    check_ptn_errors(&[
        ("a1x", 5, "unexpected 'x' after the square"),
        ("a1 ", 5, "unexpected ' ' after the square"),
        ("a1>1x", 5, "unexpected 'x' in the drops"),
        ("a1>>", 5, "unexpected '>' in the drops"),
        ("a1*>", 5, "unexpected '*' after the square"),
        ("2a1>1*1", 5, "unexpected '*' in the drops"),
        ("a1>é", 5, "unexpected 'é' in the drops"),
    ]);
}

// ---------------------------------------------------------------------------------------------
// PTN moves: legality in a position
// ---------------------------------------------------------------------------------------------

fn tps(text: &str) -> Position {
    Position::from_tps(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// `parse_move` rejects each text in `pos` with a message naming it and saying it is illegal.
fn check_illegal(pos: &Position, texts: &[&str]) {
    for &text in texts {
        match pos.parse_move(text) {
            Ok(mv) => panic!("'{text}' accepted as {} in {}", mv.to_ptn(), pos.to_tps()),
            Err(e) => assert!(
                e.contains(&format!("'{text}'")) && e.contains("not legal"),
                "'{text}' in {}: {e}",
                pos.to_tps()
            ),
        }
    }
}

#[test]
fn ptn_occupied_square() {
    check_illegal(&tps("x4,1/x5/x5/x5/2,x4 1 2"), &["a1", "Se5", "Fe5"]);
    check_illegal(&tps("x4,1/x5/x5/x5/x5 2 1"), &["e5"]);
}

#[test]
fn ptn_capstone_when_none_left() {
    // 3x3 and 4x4 have no capstones; on 5x5 White's one is on the board.
    check_illegal(&tps("2,x2/x3/x2,1 1 2"), &["Cb2"]);
    check_illegal(&tps("2,x3/x4/x4/x3,1 1 2"), &["Cb2"]);
    check_illegal(&tps("2,x4/x5/x2,1C,x2/x5/x4,1 1 3"), &["Cb2"]);
    assert!(tps("2,x4/x5/x2,1C,x2/x5/x4,1 2 3")
        .parse_move("Cb2")
        .is_ok());
}

#[test]
fn ptn_wall_or_capstone_in_the_opening() {
    let start = Position::start(5).unwrap();
    check_illegal(&start, &["Sa1", "Ca1"]);
    check_illegal(&tps("x4,2/x5/x5/x5/x5 2 1"), &["Sa1", "Ca1", "e5<"]);
}

#[test]
fn ptn_moving_the_opponents_stack() {
    let pos = tps("x5/x5/x2,21,x2/x5/2,x3,1 2 5");
    check_illegal(&pos, &["c3+", "e1<"]);
    assert!(pos.parse_move("a1+").is_ok());
}

#[test]
fn ptn_onto_a_wall_or_capstone() {
    // a3 is White's flat, b3 a wall, c3 Black's cap; d3 White's capstone next to e3's wall.
    let pos = tps("x5/x5/1,2S,2C,1C,1S/x5/x5 1 10");
    check_illegal(&pos, &["a3>", "c3<", "d3<"]);
    assert!(
        pos.parse_move("d3>").is_ok(),
        "a lone capstone flattens a wall"
    );
    // The capstone must arrive alone on the wall's square.
    let stacked = tps("x5/x5/x2,121C,2S,x/x5/x5 1 10");
    check_illegal(&stacked, &["2c3>", "3c3>", "3c3>21", "3c3>12"]);
    assert!(stacked.parse_move("c3>").is_ok());
}

#[test]
fn ptn_more_pieces_than_the_stack() {
    let pos = tps("x5/x5/x2,21,x2/x5/1,x3,2 1 5");
    check_illegal(&pos, &["2a1>", "3c3+", "3c3+21"]);
    assert!(pos.parse_move("2c3+").is_ok());
}

/// Each kind of illegality is named in the message.
#[test]
fn illegal_moves_say_why() {
    for (tps_text, text, reason) in [
        ("x4,1/x5/x5/x5/2,x4 1 2", "a1", "a1 is occupied"),
        ("x5/x5/x5/x5/x5 1 1", "Sa1", "places a flat"),
        ("x4,2/x5/x5/x5/x5 2 1", "e5<", "is a placement"),
        ("2,x4/x5/x2,1C,x2/x5/x4,1 1 3", "Cb2", "no capstone left"),
        ("x5/x5/x2,21,x2/x5/2,x3,1 2 5", "c3+", "not the mover's"),
        ("x5/x5/x2,21,x2/x5/2,x3,1 2 5", "b2+", "b2 is empty"),
        (
            "x5/x5/x2,21,x2/x5/1,x3,2 1 5",
            "3c3+",
            "has 2 pieces, fewer than 3",
        ),
        ("x5/x5/x2,121C,2S,x/x5/x5 1 10", "2c3>", "arriving alone"),
    ] {
        let error = tps(tps_text).parse_move(text).unwrap_err();
        assert!(error.contains(reason), "{text} in {tps_text}: {error}");
    }
}

#[test]
fn ptn_after_the_game_is_over() {
    let pos = tps("1,1,1/x3/2,2,x 2 3");
    let error = pos.parse_move("c1").unwrap_err();
    assert!(error.contains("game is over"), "{error}");
}

// ---------------------------------------------------------------------------------------------
// PTN moves: accepted long forms and canonical output
// ---------------------------------------------------------------------------------------------

#[test]
fn ptn_long_forms_are_accepted() {
    let pos = tps("x5/x5/x2,1C,2S,x/x5/121,x4 1 10");
    let same = |short: &str, long: &[&str]| {
        let want = pos.parse_move(short).unwrap();
        for &text in long {
            assert_eq!(pos.parse_move(text), Ok(want), "'{text}' is '{short}'");
        }
    };
    same(
        "b2",
        &["Fb2", "b2'", "b2''", "b2\"", "b2!", "b2?", "b2'!", "Fb2!?"],
    );
    same("Sb2", &["Sb2'", "Sb2?"]);
    same("a1>", &["1a1>", "1a1>1", "a1>1", "a1>'", "1a1>1!"]);
    same("3a1>", &["3a1>3", "3a1>3''"]);
    same("3a1>12", &["3a1>12\"", "3a1>12?"]);
    same("2a1+", &["2a1+2", "2a1+'"]);
    // The smash marker, alone and with annotations.
    same(
        "c3>",
        &["c3>*", "1c3>*", "1c3>1*", "c3>*'", "c3>*''", "c3>*!"],
    );
}

#[test]
fn ptn_canonical_output() {
    let a1 = Square::new(0, 0, 5).unwrap();
    let spread = |dir, drops: &[u32]| Move::spread_from_drops(a1, dir, drops).unwrap();
    let cases = [
        (Move::place(a1, PieceKind::Flat), "a1"),
        (Move::place(a1, PieceKind::Wall), "Sa1"),
        (Move::place(a1, PieceKind::Cap), "Ca1"),
        (spread(Direction::East, &[1]), "a1>"),
        (spread(Direction::East, &[3]), "3a1>"),
        (spread(Direction::East, &[1, 2]), "3a1>12"),
        (spread(Direction::North, &[1, 1]), "2a1+11"),
        (spread(Direction::South, &[5]), "5a1-"),
        (spread(Direction::West, &[2, 1, 2]), "5a1<212"),
    ];
    for (mv, want) in cases {
        assert_eq!(mv.to_ptn(), want);
    }
    // A smash is written without `*`, a placement never with `F`.
    let pos = tps("x5/x5/x2,1C,2S,x/x5/121,x4 1 10");
    assert_eq!(pos.parse_move("1c3>1*").unwrap().to_ptn(), "c3>");
    assert_eq!(pos.parse_move("Fb2'").unwrap().to_ptn(), "b2");
    assert_eq!(pos.parse_move("3a1>3").unwrap().to_ptn(), "3a1>");
}

/// Arbitrary short strings never make the parsers panic.
#[test]
fn parsers_never_panic() {
    let alphabet: Vec<char> = "aeh0189xSCF12+-<>*'\"!?/, é".chars().collect();
    let pos = tps("x5/x5/x2,1C,2S,x/x5/121,x4 1 10");
    let mut state = 0x1234_5678_u64;
    for _ in 0..20_000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let len = (state >> 60) as usize;
        let text: String = (0..len)
            .map(|i| alphabet[(state >> (i * 4 % 56)) as usize % alphabet.len()])
            .collect();
        let tps_text = format!("{text}/x5/x5/x5/x5 1 1");
        let outcome = catch_unwind(|| {
            let _ = pos.parse_move(&text);
            let _ = Move::parse_ptn(&text, 8);
            let _ = Position::from_tps(&tps_text);
            let _ = Position::from_tps(&text);
        });
        assert!(outcome.is_ok(), "panic on '{text}'");
    }
}
