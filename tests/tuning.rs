//! Search parameters as data: the TEI options that only tuning mode (`menhir tei --tune`,
//! `MENHIR_TUNE=1`) offers, and `menhir spsa` end to end (bad arguments, a tiny run, resume).
//! The parameter table of docs/training.md is checked against `search::PARAMS`. Run: `cargo test
//! --test tuning` (a few seconds).

#[allow(dead_code)] // each test file uses part of the shared harness
mod common;

use common::{EngineProcess, PROMPT};
use menhir::search::{find_param, PruningSwitches, SearchParams, PARAMS, SWITCHES, TUNED_FOR_SIZE};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const MENHIR: &str = env!("CARGO_BIN_EXE_menhir");

/// The advertised line of every search parameter, then of every pruning switch.
fn parameter_lines() -> Vec<String> {
    PARAMS
        .iter()
        .map(|p| {
            format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            )
        })
        .chain(SWITCHES.iter().map(|f| {
            format!(
                "option name {} type check default {}",
                f.name,
                f.get(&PruningSwitches::default())
            )
        }))
        .collect()
}

impl EngineProcess {
    /// The `option` lines after `tei`.
    fn options(&mut self) -> Vec<String> {
        self.send("tei");
        let lines = self.until_word("teiok", PROMPT);
        lines
            .into_iter()
            .filter(|l| l.starts_with("option "))
            .collect()
    }

    /// The lines answering one command (fenced by `isready`).
    fn answer(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Nodes of a fresh-table `go depth` search of a `size` board after its corners and centre
    /// square (`a1`, the far corner, then a centre placement).
    fn nodes_at(&mut self, size: usize, depth: u32) -> u64 {
        let far = format!("{}{size}", (b'a' + size as u8 - 1) as char);
        let centre = format!("{}{}", (b'a' + size as u8 / 2) as char, size / 2 + 1);
        self.send(&format!("teinewgame {size}"));
        self.send(&format!("position startpos moves a1 {far} {centre}"));
        self.send(&format!("go depth {depth}"));
        let lines = self.until_word("bestmove", Duration::from_secs(60));
        let last_info = &lines[lines.len() - 2];
        let words: Vec<&str> = last_info.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "nodes").expect("nodes");
        words[at + 1].parse().unwrap()
    }
}

#[test]
fn search_parameters_are_hidden_without_tuning_mode() {
    let mut engine = EngineProcess::spawn(|_| {});
    let options = engine.options();
    assert!(
        !options.iter().any(|l| l.contains("NullMoveDepth")),
        "{options:?}"
    );
    let before = engine.nodes_at(5, 4);
    let answer = engine.answer("setoption name NullMoveDepth value 5");
    let unknown = engine.answer("setoption name NoSuchOption value 5");
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(
        answer[0].starts_with("info string error: unknown option 'NullMoveDepth' (Menhir has "),
        "{answer:?}"
    );
    // Worded as for any unknown option.
    assert_eq!(
        answer[0].replace("NullMoveDepth", "NoSuchOption"),
        unknown[0]
    );
    assert_eq!(engine.nodes_at(5, 4), before, "the search changed");
}

/// The options every session advertises (HalfKomi, Threads, Hash, MultiPV, ScoreMate,
/// ScoreSolved, EvalFile, Level, LevelSeed), before the tuning ones.
const PUBLIC_OPTIONS: usize = 9;

#[test]
fn tuning_mode_lists_every_parameter_by_flag_or_environment() {
    for (args, env) in [
        (&["tei", "--tune"][..], &[][..]),
        (&[][..], &[("MENHIR_TUNE", "1")][..]),
        (&["tei"][..], &[("MENHIR_TUNE", "1")][..]),
    ] {
        let mut engine = EngineProcess::spawn_with(args, env, |_| {});
        let options = engine.options();
        assert_eq!(
            options.len(),
            PUBLIC_OPTIONS + PARAMS.len() + SWITCHES.len(),
            "{args:?} {env:?}: {options:?}"
        );
        assert_eq!(
            options[PUBLIC_OPTIONS..],
            parameter_lines()[..],
            "{args:?} {env:?}"
        );
    }
    // Only `1` turns it on.
    let mut engine = EngineProcess::spawn_with(&[], &[("MENHIR_TUNE", "0")], |_| {});
    assert_eq!(engine.options().len(), PUBLIC_OPTIONS);
}

/// A parameter set over TEI changes a fixed-depth search, and setting it back restores it;
/// bad values are refused with one error line each and change nothing.
#[test]
fn a_set_parameter_changes_the_search_and_bad_values_change_nothing() {
    let mut engine = EngineProcess::spawn_with(&["tei", "--tune"], &[], |_| {});
    engine.options();
    let default = engine.nodes_at(5, 5);
    for bad in [
        "setoption name LateMovePruningBase value 0",
        "setoption name LateMovePruningBase value 41",
        "setoption name LateMovePruningBase value 8.5",
        "setoption name LateMovePruningBase value many",
        "setoption name LateMovePruningBase value 99999999999999999999",
        "setoption name LateMovePruningBase",
        "setoption name LateMoveReductionDivisor100 value -200",
    ] {
        let answer = engine.answer(bad);
        assert_eq!(answer.len(), 1, "{bad}: {answer:?}");
        assert!(
            answer[0].starts_with("info string error: "),
            "{bad}: {answer:?}"
        );
    }
    assert_eq!(
        engine.nodes_at(5, 5),
        default,
        "a refused value changed the search"
    );
    assert_eq!(
        engine.answer("setoption name latemovepruningbase value 1"),
        Vec::<String>::new()
    );
    let pruned = engine.nodes_at(5, 5);
    assert_ne!(pruned, default);
    // The engine's value at 5×5 (its own, if it has one).
    let default_of = |name: &str| find_param(name).unwrap().get(&SearchParams::for_size(5));
    assert_eq!(
        engine.answer(&format!(
            "setoption name LateMovePruningBase value {}",
            default_of("LateMovePruningBase")
        )),
        Vec::<String>::new()
    );
    assert_eq!(engine.nodes_at(5, 5), default);
    // The reduction table is rebuilt for a new divisor.
    engine.answer("setoption name LateMoveReductionDivisor100 value 100");
    assert_ne!(engine.nodes_at(5, 5), default);
    engine.answer(&format!(
        "setoption name LateMoveReductionDivisor100 value {}",
        default_of("LateMoveReductionDivisor100")
    ));
    assert_eq!(engine.nodes_at(5, 5), default);
    engine.send("quit");
    assert!(engine.exit_within(PROMPT).is_some());
}

/// A pruning switch set over TEI changes a fixed-depth search, and setting it back to its
/// default restores it; a bad value is refused and changes nothing. Without tuning mode it is
/// unknown.
#[test]
fn a_pruning_switch_turns_its_rule_off_and_on() {
    let mut engine = EngineProcess::spawn_with(&["tei", "--tune"], &[], |_| {});
    engine.options();
    let default = engine.nodes_at(5, 6);
    let answer = engine.answer("setoption name CorrectionHistory value maybe");
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(answer[0].starts_with("info string error: "), "{answer:?}");
    assert_eq!(engine.nodes_at(5, 6), default);
    for (name, on) in [("CorrectionHistory", true), ("Improving", true)] {
        assert_eq!(
            engine.answer(&format!("setoption name {name} value {}", !on)),
            Vec::<String>::new()
        );
        assert_ne!(engine.nodes_at(5, 6), default, "{name} switched");
        engine.answer(&format!("setoption name {name} value {on}"));
        assert_eq!(engine.nodes_at(5, 6), default, "{name} back");
    }
    engine.send("quit");
    assert!(engine.exit_within(PROMPT).is_some());

    let mut plain = EngineProcess::spawn(|_| {});
    let answer = plain.answer("setoption name CorrectionHistory value false");
    assert!(
        answer[0].starts_with("info string error: unknown option"),
        "{answer:?}"
    );
}

/// A size with values of its own (`TUNED_FOR_SIZE`) searches with them: the node count of a
/// fixed-depth search is the one with those values set by hand, not the one with the defaults;
/// a size without stays on the defaults. A value set by hand replaces a size's own.
#[test]
fn a_size_tuned_apart_searches_with_its_own_values() {
    let mut engine = EngineProcess::spawn_with(&["tei", "--tune"], &[], |_| {});
    engine.options();
    let set_all = |engine: &mut EngineProcess, values: &[(&str, i32)]| {
        for (name, value) in values {
            let answer = engine.answer(&format!("setoption name {name} value {value}"));
            assert!(answer.is_empty(), "{answer:?}");
        }
    };
    for &(size, tuned) in &TUNED_FOR_SIZE {
        let defaults: Vec<(&str, i32)> = tuned
            .iter()
            .map(|(name, _)| (*name, find_param(name).unwrap().default))
            .collect();
        let own = engine.nodes_at(size, 5);
        set_all(&mut engine, &defaults);
        assert_ne!(
            engine.nodes_at(size, 5),
            own,
            "{size}x{size} on the defaults"
        );
        set_all(&mut engine, tuned);
        assert_eq!(engine.nodes_at(size, 5), own, "{size}x{size} set by hand");
    }
    // A size with no values of its own, with and without its defaults set by hand.
    let plain = (3..=8)
        .find(|s| TUNED_FOR_SIZE.iter().all(|(size, _)| size != s))
        .unwrap();
    let mut fresh = EngineProcess::spawn_with(&["tei", "--tune"], &[], |_| {});
    fresh.options();
    let before = fresh.nodes_at(plain, 5);
    for p in &PARAMS {
        fresh.answer(&format!("setoption name {} value {}", p.name, p.default));
    }
    assert_eq!(fresh.nodes_at(plain, 5), before);
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menhir-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn menhir(args: &[&str]) -> Output {
    Command::new(MENHIR)
        .args(args)
        .stdin(Stdio::null())
        .env_remove("MENHIR_TUNE")
        .output()
        .unwrap()
}

#[test]
fn spsa_refuses_bad_arguments_with_one_line() {
    let dir = scratch("bad");
    let out = dir.join("out.txt");
    let out_arg = out.to_str().unwrap();
    let missing = dir.join("missing.txt");
    let unwritable = dir.join("no/such/dir/out.txt");
    let wrong_size = dir.join("book-5x5.txt");
    std::fs::write(&wrong_size, "x5/x5/x2,1,x2/x5/x5 2 2\n").unwrap();
    let cases: &[&[&str]] = &[
        &["--out", out_arg, "--params", "NullMoveDepth,NoSuchParam"],
        &["--out", out_arg, "--params", "NullMoveDepth,nullmovedepth"],
        &["--out", out_arg, "--tc", "fast"],
        &["--out", out_arg, "--tc", "0+1"],
        &["--out", out_arg, "--iterations", "0"],
        &["--out", out_arg, "--size", "9"],
        &["--out", out_arg, "--komi", "0.3"],
        &["--out", out_arg, "--concurrency", "0"],
        &["--out", out_arg, "--resume", missing.to_str().unwrap()],
        &["--out", out_arg, "--openings", missing.to_str().unwrap()],
        &["--out", out_arg, "--openings", wrong_size.to_str().unwrap()],
        &[
            "--out",
            out_arg,
            "--openings",
            wrong_size.to_str().unwrap(),
            "--random-plies",
            "3",
        ],
        &["--out", unwritable.to_str().unwrap()],
        &["--params", "NullMoveDepth"],
    ];
    for case in cases {
        let mut args = vec!["spsa"];
        args.extend_from_slice(case);
        let run = menhir(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{case:?} accepted");
        assert_eq!(stderr.lines().count(), 1, "{case:?}: {stderr}");
        assert!(stderr.starts_with("menhir: "), "{case:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{case:?}: {stderr}");
    }
    // An engine that is not in tuning mode is refused before any game.
    let run = menhir(&[
        "spsa",
        "--out",
        out_arg,
        "--engine-args",
        "tei",
        "--size",
        "3",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("does not offer the option"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The values of a state file, checked against their ranges; and its iteration line.
fn read_state(path: &std::path::Path) -> (String, Vec<(String, f64)>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut iteration = String::new();
    let mut values = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# iteration ") {
            iteration = rest.split(';').next().unwrap().to_string();
        } else if !line.starts_with('#') {
            let (name, value) = line.split_once(' ').unwrap();
            let spec = PARAMS.iter().find(|p| p.name == name).unwrap();
            let value: f64 = value.parse().unwrap();
            assert!(
                (spec.min as f64..=spec.max as f64).contains(&value),
                "{line}"
            );
            values.push((name.to_string(), value));
        }
    }
    (iteration, values)
}

#[test]
fn a_tiny_spsa_run_writes_valid_values_and_resumes() {
    let dir = scratch("run");
    let out = dir.join("theta.txt");
    let out_arg = out.to_str().unwrap();
    let common = [
        "--size",
        "3",
        "--tc",
        "0.3+0.01",
        "--params",
        "NullMoveDepth",
        "--seed",
        "7",
    ];
    let mut args = vec!["spsa", "--out", out_arg, "--iterations", "2"];
    args.extend_from_slice(&common);
    let run = menhir(&args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("iteration 2/2"), "{stderr}");
    let (iteration, values) = read_state(&out);
    assert_eq!(iteration, "2 of 2");
    assert_eq!(values.len(), 1);
    assert_eq!(values[0].0, "NullMoveDepth");

    let copy = dir.join("resume.txt");
    std::fs::copy(&out, &copy).unwrap();
    let mut args = vec!["spsa", "--out", out_arg, "--iterations", "3"];
    args.extend_from_slice(&["--resume", copy.to_str().unwrap()]);
    args.extend_from_slice(&common);
    let run = menhir(&args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("iterations 3..3 of 3"), "{stderr}");
    assert_eq!(read_state(&out).0, "3 of 3");
    // Only the two state files: no temporary file is left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);

    // Openings from a book instead of random plies.
    let book = dir.join("book.txt");
    std::fs::write(&book, "# a book\na1 c3 {White +0 cp}\nb2 a1\n").unwrap();
    let mut args = vec!["spsa", "--out", out_arg, "--iterations", "1"];
    args.extend_from_slice(&["--openings", book.to_str().unwrap()]);
    args.extend_from_slice(&common);
    let run = menhir(&args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert_eq!(read_state(&out).0, "1 of 1");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The table of search parameters in docs/training.md is the one in `search::PARAMS`.
#[test]
fn readme_lists_every_search_parameter() {
    let readme = include_str!("../docs/training.md");
    for p in &PARAMS {
        let row = format!("| {} | {} | {}..{} |", p.name, p.default, p.min, p.max);
        assert!(
            readme.contains(&row),
            "docs/training.md lacks the row '{row}'"
        );
    }
}
