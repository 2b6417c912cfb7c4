//! `menhir report` on files it did not write: a Racetrack tournament's PTN (tests/data/
//! racetrack.ptn, written by hand in Racetrack's format: its tag order, `N...` for a first
//! ply by Black, `{score/depth time}` comments, and its Termination sentences; game 7 stands
//! for a game stopped at Racetrack's move cap, its moves shortened), and damaged files, whose
//! bad games are named and skipped. The match's own PTN is checked against the match summary
//! in tests/match.rs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MENHIR: &str = env!("CARGO_BIN_EXE_menhir");

fn report(args: &[&str], files: &[&Path]) -> Output {
    Command::new(MENHIR)
        .arg("report")
        .args(args)
        .args(files)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The directory of test `test`, removed by the test when it is done.
fn temp_dir(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("menhir-report-{test}-{}", std::process::id()))
}

/// A file in the directory of test `test`.
fn temp_file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = temp_dir(test);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn a_racetrack_file_is_read_whole() {
    let out = report(&[], &[&data("racetrack.ptn")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // By hand: tiltak won rounds 1, 6 by road (42 + 42 points: 25 squares and 17 unplayed
    // pieces), 2 on time (45), 3 by a crash (45), 5 by an illegal first move (47); round 4
    // repeated its position a third time; round 7 stopped at the move cap. Score 6/7: Elo
    // -400·log10(7/6 - 1) = +311.3; the 95% interval of the score reaches 1 (± inf).
    let expected = "\
Read 7 games from 1 file(s), 1 engine pair(s); skipped 0

Games: 7
tiltak: W 5 D 2 L 0, score 6.0/7 (85.7%)
  as white: W 3 D 1 L 0
  as black: W 2 D 1 L 0
menhir: W 0 D 2 L 5, score 1.0/7 (14.3%)
  as white: W 0 D 1 L 2
  as black: W 0 D 1 L 3
Elo (tiltak vs menhir): +311.3 ± inf (95%)
LOS (tiltak better): 98.7%
Terminations: road 2, flats 0, draw 2 (flat tie 0, repetition 1, ply cap 1), time 1 (by menhir 1), illegal move 1 (by menhir 1), malformed move 0, crash 1 (by menhir 1)
Points (rule book): tiltak 221, menhir 0
";
    assert_eq!(text(&out.stdout), expected);
    let sprt = report(
        &["--sprt", "elo0=0,elo1=50,alpha=0.05,beta=0.05"],
        &[&data("racetrack.ptn")],
    );
    let stdout = text(&sprt.stdout);
    assert!(
        stdout.contains("SPRT (elo0=0, elo1=50, alpha=0.05, beta=0.05): LLR "),
        "{stdout}"
    );
}

#[test]
fn damaged_files_name_their_skipped_games() {
    let good = "[Player1 \"a\"]\n[Player2 \"b\"]\n[Round \"1\"]\n[Size \"3\"]\n\n\
                1. c3 a1 2. a2 c2 3. a3 R-0\n\n";
    let damaged = [
        good,
        // 2: an illegal ply; 3: a broken tag; 4: a road the board does not show.
        "[Player1 \"b\"]\n[Player2 \"a\"]\n[Size \"3\"]\n\n1. c3 c3 R-0\n\n",
        "[Player1 \"b\"]\n[Player2 \"a\"\n[Size \"3\"]\n\n1. c3 a1 0-1\n\n",
        "[Player1 \"b\"]\n[Player2 \"a\"]\n[Size \"3\"]\n\n1. c3 a1 R-0\n\n",
        good,
        // 6: cut off inside a comment.
        "[Player1 \"b\"]\n[Player2 \"a\"]\n[Size \"3\"]\n\n1. c3 {+0.1",
    ]
    .concat();
    let path = temp_file("damaged", "damaged.ptn", &damaged);
    let missing = temp_file("damaged", "gone.ptn", "");
    std::fs::remove_file(&missing).unwrap();
    let out = report(&[], &[&path, &missing]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let skipped: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with("as "))
        .collect();
    let file = path.display().to_string();
    let expected = [
        format!("{file} game 2: "),
        format!("{file} game 3: "),
        format!("{file} game 4: "),
        format!("{file} game 6: "),
        format!("{}: cannot read: ", missing.display()),
    ];
    assert_eq!(skipped.len(), expected.len(), "{stdout}");
    for (line, start) in skipped.iter().zip(&expected) {
        assert!(
            line.starts_with(start.as_str()),
            "'{line}' is not '{start}…'"
        );
    }
    assert!(skipped[0].contains("not legal"), "{stdout}");
    assert!(skipped[1].contains("bad tag"), "{stdout}");
    assert!(skipped[2].contains("the board shows no result"), "{stdout}");
    assert!(skipped[3].contains("never closed"), "{stdout}");
    assert!(
        stdout.starts_with("Read 2 games from 2 file(s), 1 engine pair(s); skipped 5:\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\nGames: 2\na: W 2 D 0 L 0"), "{stdout}");
    let _ = std::fs::remove_dir_all(temp_dir("damaged"));
}

#[test]
fn nothing_readable_is_an_error() {
    let bad = temp_file("nothing", "bad.ptn", "[Size \"3\"]\n\n1. c3 c3 *\n");
    let empty = temp_file("nothing", "empty.ptn", "");
    let out = report(&[], &[&bad, &empty]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no game could be read"), "{stderr}");
    // The skipped game is still named on stdout.
    assert!(text(&out.stdout).contains("bad.ptn game 1: "));
    let out = report(&["--sprt", "elo0=5,elo1=0,alpha=0.05,beta=0.05"], &[&bad]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let out = report(&[], &[]);
    assert!(!out.status.success(), "no file is a usage error");
    let _ = std::fs::remove_dir_all(temp_dir("nothing"));
}
