//! `menhir datagen` and `menhir tune-eval` end to end, on small fixtures (4×4, a few hundred nodes a
//! move): reproducible data whatever the thread count, shards that add up to the run, one-line
//! errors for bad arguments and files, no file under the final name before a run completes,
//! and a weights file that reads back. Run: `cargo test --test train` (a few seconds).

use menhir::search::EvalWeights;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const MENHIR: &str = env!("CARGO_BIN_EXE_menhir");

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menhir-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn menhir(args: &[&str]) -> Output {
    Command::new(MENHIR)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs `menhir datagen` with small defaults plus `extra`, writing `out`; must succeed.
fn datagen(out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["datagen", "--size", "4", "--nodes", "300"];
    args.extend_from_slice(extra);
    if !extra.contains(&"--seed") {
        args.extend_from_slice(&["--seed", "11"]);
    }
    let out_arg = out.to_str().unwrap();
    args.extend_from_slice(&["--out", out_arg]);
    let run = menhir(&args);
    assert!(
        run.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

fn sorted_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    lines
}

/// The files in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn datagen_is_reproducible_and_shards_add_up() {
    let dir = scratch("repro");
    let a = datagen(&dir.join("a.txt"), &["--games", "6", "--threads", "1"]);
    let b = datagen(&dir.join("b.txt"), &["--games", "6", "--threads", "1"]);
    let c = datagen(&dir.join("c.txt"), &["--games", "6", "--threads", "2"]);
    assert!(a.lines().count() > 30, "{a}");
    assert_eq!(a, b, "same seed, same file");
    assert_eq!(
        a, c,
        "--threads 2 writes the same lines (in the same order)"
    );
    for line in a.lines() {
        // Every line names the search's move (legal: `parse` checks) and the move before it.
        assert_eq!(line.split(';').count(), 6, "{line}");
        let data = menhir::train::data_line::DataLine::parse(line).unwrap();
        assert!(data.best.is_some() && data.last.is_some(), "{line}");
    }
    let other = datagen(
        &dir.join("d.txt"),
        &["--games", "6", "--threads", "1", "--seed", "12"],
    );
    assert_ne!(a, other, "another seed, other games");

    let shards: Vec<String> = (0..3)
        .map(|k| {
            let name = format!("shard{k}.txt");
            let shard = format!("{k}/3");
            datagen(&dir.join(name), &["--games", "6", "--shard", &shard])
        })
        .collect();
    let joined = shards.concat();
    assert_eq!(sorted_lines(&joined), sorted_lines(&a));
    assert!(shards.iter().all(|s| !s.is_empty()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn datagen_refuses_bad_arguments_with_one_line() {
    let dir = scratch("bad");
    let out = dir.join("out.txt");
    let out_arg = out.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["--size", "9"],
        &["--size", "2"],
        &["--games", "0"],
        &["--nodes", "0"],
        &["--threads", "0"],
        &["--komi", "0.3"],
        &["--noise-chance", "1.5"],
        &["--shard", "3/3", "--seed", "1"],
        &["--shard", "0/0", "--seed", "1"],
        &["--shard", "one/two", "--seed", "1"],
        &["--shard", "0/2"],
    ];
    for case in cases {
        let mut args = vec!["datagen", "--out", out_arg];
        args.extend_from_slice(case);
        let run = menhir(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{case:?} accepted");
        assert_eq!(stderr.lines().count(), 1, "{case:?}: {stderr}");
        assert!(stderr.starts_with("menhir: "), "{case:?}: {stderr}");
    }
    let unwritable = dir.join("no/such/dir/out.txt");
    let run = menhir(&["datagen", "--out", unwritable.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert_eq!(names(&dir), Vec::<String>::new(), "nothing written");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_datagen_leaves_no_file_under_the_final_name() {
    let dir = scratch("kill");
    let out = dir.join("data.txt");
    // Far more games than the test waits for.
    let mut child = Command::new(MENHIR)
        .args([
            "datagen", "--size", "6", "--games", "100000", "--nodes", "2000",
        ])
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let temp = loop {
        let found = names(&dir)
            .into_iter()
            .find(|n| n.starts_with(".data.txt.tmp"));
        if let Some(name) = found {
            break dir.join(name);
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no data written");
        std::thread::sleep(Duration::from_millis(20));
    };
    // Let it play (and write) a while.
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !out.exists(),
        "the final name exists before the run is done"
    );
    assert!(child.try_wait().unwrap().is_none(), "finished already");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!out.exists(), "a killed run left {}", out.display());
    assert!(temp.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn datagen_then_tune_writes_weights_that_read_back() {
    let dir = scratch("e2e");
    let data = dir.join("data.txt");
    let lines = datagen(&data, &["--games", "4", "--threads", "2", "--komi", "1.5"]);
    assert!(
        lines.lines().all(|l| l.split(';').nth(1) == Some("1.5")),
        "{lines}"
    );
    let weights = dir.join("w4.txt");
    let run = menhir(&[
        "tune", // the old name of tune-eval, kept as an alias
        data.to_str().unwrap(),
        "--size",
        "4",
        "--epochs",
        "2",
        "--batch",
        "32",
        "--threads",
        "2",
        "--out",
        weights.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("epoch 1/2: train") && stderr.contains("epoch 2/2: train"));
    let text = std::fs::read_to_string(&weights).unwrap();
    let parsed = EvalWeights::parse(&text).unwrap();
    assert_eq!(parsed.size(), 4);
    let count = lines.lines().count();
    assert!(
        text.contains(&format!("# data: {} ({count} lines", data.display())),
        "{text}"
    );
    assert!(
        text.contains("# written by: ") && text.contains(" tune "),
        "{text}"
    );
    assert!(
        text.contains("# K ") && text.contains("# loss: train "),
        "{text}"
    );
    // The fitted K is the file's scale, which the engine's `wdl` uses.
    let k: f64 = stderr
        .split("tune: K = ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|k| k.parse().ok())
        .expect("K on stderr");
    assert!(text.contains(&format!("\nscale {k:.1}\n")), "{text}");
    assert_eq!(parsed.logistic_scale(), k);
    assert_ne!(k, 505.0, "K is fitted, not the default");
    assert_eq!(
        names(&dir),
        ["data.txt", "w4.txt"],
        "no temporary file left"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_counts_malformed_lines_and_refuses_files_without_data() {
    let dir = scratch("tunebad");
    let out = dir.join("w.txt");
    let out_arg = out.to_str().unwrap();
    let good = "x4/x,1S,x2/x3,2/x2,2S,1 1 3;0;118;1.0\nx4/x,1S,x2/x2,1,2/x2,2S,1 2 3;0;15;1.0\n";
    let tune = |file: &Path, extra: &[&str]| {
        let mut args = vec!["tune-eval", file.to_str().unwrap()];
        args.extend_from_slice(&["--epochs", "1", "--threads", "1"]);
        args.extend_from_slice(extra);
        if !extra.contains(&"--out") {
            args.extend_from_slice(&["--out", out_arg]);
        }
        if !extra.contains(&"--size") {
            args.extend_from_slice(&["--size", "4"]);
        }
        let run = menhir(&args);
        (
            run.status.success(),
            String::from_utf8_lossy(&run.stderr).into_owned(),
        )
    };

    // Some lines bad: they are counted and named, the rest is used.
    let mixed = dir.join("mixed.txt");
    let text = format!("# comment\n{good}not a line\nx4/x4/x4/x4 1 1;0;0;2.0\n");
    std::fs::write(&mixed, text).unwrap();
    let (ok, stderr) = tune(&mixed, &[]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("4 lines, 2 used, 0 of other sizes, 2 malformed"),
        "{stderr}"
    );
    assert!(
        stderr.contains("mixed.txt:4: expected 4 or 6 fields"),
        "{stderr}"
    );
    assert!(stderr.contains("mixed.txt:5: bad result"), "{stderr}");
    assert!(EvalWeights::parse(&std::fs::read_to_string(&out).unwrap()).is_ok());
    std::fs::remove_file(&out).unwrap();

    // Nothing usable, a missing file, a bad flag: one line, non-zero exit, no weights file.
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, b"junk\n\xff\xfe;;;\n").unwrap();
    let (ok, stderr) = tune(&junk, &[]);
    assert!(!ok);
    assert!(stderr.contains("no usable 4x4 position"), "{stderr}");
    assert!(stderr.contains("2 malformed lines"), "{stderr}");
    let (ok, stderr) = tune(&mixed, &["--size", "6"]);
    assert!(
        !ok && stderr.contains("2 malformed lines, 2 of other sizes"),
        "{stderr}"
    );
    let (ok, stderr) = tune(&dir.join("missing.txt"), &[]);
    assert!(!ok && stderr.contains("cannot read"), "{stderr}");
    let (ok, stderr) = tune(&mixed, &["--lambda", "2"]);
    assert!(!ok && stderr.contains("--lambda"), "{stderr}");
    for bad in ["-1", "NaN", "inf"] {
        let (ok, stderr) = tune(&mixed, &[&format!("--l2={bad}")]);
        assert!(
            !ok && stderr.contains("--l2") && stderr.lines().count() == 1,
            "{stderr}"
        );
    }
    let (ok, stderr) = tune(&mixed, &["--init", junk.to_str().unwrap()]);
    assert!(!ok && stderr.contains("junk.txt"), "{stderr}");
    let (ok, stderr) = tune(
        &mixed,
        &["--out", dir.join("no/dir/w.txt").to_str().unwrap()],
    );
    assert!(!ok && stderr.contains("cannot write"), "{stderr}");
    assert!(!out.exists());
    assert_eq!(
        names(&dir),
        ["junk.txt", "mixed.txt"],
        "no temporary file left"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn datagen_then_tune_policy_writes_a_policy_that_reads_back() {
    let dir = scratch("policy");
    let data = dir.join("data.txt");
    let lines = datagen(&data, &["--games", "8", "--threads", "2"]);
    let out = dir.join("p4.txt");
    let run = menhir(&[
        "tune-policy",
        data.to_str().unwrap(),
        "--size",
        "4",
        "--epochs",
        "3",
        "--lr",
        "0.1",
        "--units",
        "500",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let count = lines.lines().count();
    assert!(
        stderr.contains(&format!("{count} lines, {count} used")),
        "{stderr}"
    );
    // The fit learns: the validation loss falls below the start (uniform over the moves).
    let start: f64 = stderr
        .split("start: loss ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|v| v.parse().ok())
        .expect("start loss");
    let last: f64 = stderr
        .split("epoch 3/3: train ")
        .nth(1)
        .and_then(|rest| rest.split("validation ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|v| v.parse().ok())
        .expect("last validation loss");
    assert!(last < start, "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    let weights = menhir::search::policy::PolicyWeights::parse(&text).unwrap();
    assert_eq!((weights.size(), weights.units()), (4, Some(500.0)));
    assert!(text.contains("# written by: ") && text.contains("# validation: loss "));
    assert_eq!(
        names(&dir),
        ["data.txt", "p4.txt"],
        "no temporary file left"
    );

    // Bad input: one line on stderr, a non-zero exit, no file written.
    let old = dir.join("old.txt");
    std::fs::write(&old, "x4/x4/x4/x4 1 1;0;0;0.5\n").unwrap();
    let bad = dir.join("bad.txt");
    let cases: [(&[&str], &str); 4] = [
        (&[old.to_str().unwrap()], "no usable 4x4 position"),
        (&[data.to_str().unwrap(), "--units", "0"], "--units 0"),
        (&[data.to_str().unwrap(), "--lr", "nan"], "--lr NaN"),
        (
            &[data.to_str().unwrap(), "--init", old.to_str().unwrap()],
            "expected `size N` first",
        ),
    ];
    for (extra, why) in cases {
        let mut args = vec!["tune-policy", "--size", "4", "--out", bad.to_str().unwrap()];
        args.extend_from_slice(extra);
        let run = menhir(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{extra:?}");
        assert!(stderr.contains(why), "{why}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(!bad.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
