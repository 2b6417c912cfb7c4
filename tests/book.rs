//! `menhir book`: balanced openings, scored by a fixed-node search. Run: `cargo test --test book`.

use menhir::core::Position;
use menhir::matchrun::book::{balanced_openings, BookLine, BookSettings};
use menhir::matchrun::openings::parse_openings;
use std::process::{Command, Stdio};

const MENHIR: &str = env!("CARGO_BIN_EXE_menhir");

fn settings(seed: u64) -> BookSettings {
    BookSettings {
        size: 4,
        half_komi: 0,
        plies: 4,
        count: 6,
        nodes: 3000,
        max_score: 60,
        seed,
    }
}

fn book(settings: &BookSettings) -> Vec<BookLine> {
    let mut seen = Vec::new();
    let book = balanced_openings(settings, &mut |line| seen.push(line.clone())).unwrap();
    assert_eq!(seen, book, "every line kept is reported as it is found");
    book
}

#[test]
fn lines_are_legal_distinct_near_even_and_repeat_from_a_seed() {
    let first = book(&settings(3));
    assert_eq!(first.len(), 6);
    let mut hashes = Vec::new();
    for line in &first {
        assert_eq!(line.moves.len(), 4);
        assert!(line.white_score.abs() <= 60, "{}", line.to_text());
        assert!(line.depth >= 1);
        let mut pos = Position::start(4).unwrap();
        for &mv in &line.moves {
            assert!(pos.is_legal(mv));
            pos.do_move(mv);
        }
        assert!(pos.result().is_none());
        assert!(!hashes.contains(&pos.hash()), "{}", line.to_text());
        hashes.push(pos.hash());
    }
    assert_eq!(book(&settings(3)), first, "one seed, one book");
    assert_ne!(book(&settings(4)), first);
    // A tighter bound keeps only lines within it.
    let tight = book(&BookSettings {
        max_score: 10,
        count: 2,
        ..settings(3)
    });
    assert!(tight.iter().all(|l| l.white_score.abs() <= 10));
}

#[test]
fn the_text_is_an_openings_file() {
    let lines = book(&settings(5));
    let text: String = lines.iter().map(|l| l.to_text() + "\n").collect();
    let openings = parse_openings(&text, 4, 0).unwrap();
    let expected: Vec<_> = lines.iter().map(|l| l.opening()).collect();
    assert_eq!(openings, expected);
}

#[test]
fn bad_settings_are_refused() {
    for bad in [
        BookSettings {
            size: 9,
            ..settings(1)
        },
        BookSettings {
            plies: 0,
            ..settings(1)
        },
        BookSettings {
            count: 0,
            ..settings(1)
        },
        BookSettings {
            nodes: 0,
            ..settings(1)
        },
        BookSettings {
            max_score: -1,
            ..settings(1)
        },
    ] {
        assert!(balanced_openings(&bad, &mut |_| {}).is_err(), "{bad:?}");
    }
}

#[test]
fn the_command_writes_a_book_or_one_error_line() {
    let run = |args: &[&str]| {
        Command::new(MENHIR)
            .arg("book")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let good = run(&[
        "--size", "3", "--count", "2", "--nodes", "500", "--seed", "2",
    ]);
    assert!(good.status.success());
    let stdout = String::from_utf8(good.stdout).unwrap();
    assert!(stdout.starts_with("# menhir book --size 3"), "{stdout}");
    assert_eq!(parse_openings(&stdout, 3, 0).unwrap().len(), 2, "{stdout}");
    for bad in [
        &["--size", "9"][..],
        &["--komi", "0.3"],
        &["--count", "0"],
        &["--max-score", "-5"],
        &["--nodes", "lots"],
    ] {
        let out = run(bad);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{bad:?}");
        assert!(out.stdout.is_empty(), "{bad:?}");
        assert_eq!(stderr.lines().count(), 1, "{bad:?}: {stderr}");
        assert!(stderr.starts_with("menhir: "), "{bad:?}: {stderr}");
    }
}

/// A committed book (made by the command in its first line) is an openings file of 200
/// distinct lines, each scored within its bound.
fn check_committed_book(text: &str, size: usize, half_komi: i32, header: &str) {
    assert!(text.starts_with(header));
    let openings = parse_openings(text, size, half_komi).unwrap();
    assert_eq!(openings.len(), 200);
    let mut hashes: Vec<u64> = openings
        .iter()
        .map(|o| o.position(size, half_komi).unwrap().hash())
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), 200);
    for line in text.lines().skip(1) {
        let score: i32 = line
            .split("White ")
            .nth(1)
            .unwrap()
            .split(" cp")
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(score.abs() <= 50, "{line}");
    }
}

/// The 4×4 komi-0 book the matches of STRENGTH.md use.
#[test]
fn the_committed_4x4_book_reads_as_openings() {
    let text = include_str!("data/book-4x4.txt");
    check_committed_book(text, 4, 0, "# menhir book --size 4 --komi 0 ");
}

/// The 5×5 komi-2 book the matches of STRENGTH.md use.
#[test]
fn the_committed_5x5_book_reads_as_openings() {
    let text = include_str!("data/book-5x5.txt");
    check_committed_book(text, 5, 4, "# menhir book --size 5 --komi 2 ");
}
