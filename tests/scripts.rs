//! `scripts/timesafety.sh` judged with a fake `menhir` (a shell script that prints a match
//! summary at once): the real run takes 35 minutes. The script must pass a clean run and fail,
//! with a message, on a fault in a game, on a batch whose `menhir match` fails, and when fewer
//! games were played than planned. Run: `cargo test --test scripts` (needs bash, awk, git).

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fake `menhir match`: `FAKE_MODE` says what goes wrong, and in which batch (size 5,
/// Threads 2, komi 2 of the first round, found from the `--seed` the script builds).
const FAKE_MENHIR: &str = r#"#!/usr/bin/env bash
games=2; seed=0
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift ;;
        --seed) seed=$2; shift ;;
    esac
    shift
done
faults="time 0, illegal move 0, malformed move 0, crash 0"
if [ "$seed" = "1522" ]; then
    case "$FAKE_MODE" in
        fail) echo "menhir: engine a: crashed (cannot start)" >&2; exit 1 ;;
        short) games=1 ;;
        time) faults="time 1 (by a 1), illegal move 0, malformed move 0, crash 0" ;;
    esac
fi
echo "Games: $games"
echo "Terminations: road $games, flats 0, draw 0 (flat tie 0, repetition 0, ply cap 0), $faults"
"#;

struct Outcome {
    ok: bool,
    stdout: String,
}

fn run_timesafety(dir: &Path, mode: &str) -> Outcome {
    let fake = dir.join("menhir");
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/timesafety.sh"))
        .env("BIN", &fake)
        .env("OUT", dir.join(format!("out-{mode}")))
        .env("ROUNDS", "1")
        .env("GAMES", "2")
        .env("FAKE_MODE", mode)
        .output()
        .expect("bash runs");
    Outcome {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr),
    }
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menhir-scripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("menhir");
    std::fs::write(&fake, FAKE_MENHIR).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

#[test]
fn timesafety_fails_on_a_fault_a_failed_batch_or_missing_games() {
    let dir = scratch();

    let clean = run_timesafety(&dir, "ok");
    assert!(clean.ok, "{}", clean.stdout);
    assert!(
        clean.stdout.contains("TOTAL: 48 games in "),
        "{}",
        clean.stdout
    );
    assert!(!clean.stdout.contains("FAILED"), "{}", clean.stdout);

    let time = run_timesafety(&dir, "time");
    assert!(!time.ok, "a time loss passed:\n{}", time.stdout);
    assert!(time.stdout.contains("lost on time 1"), "{}", time.stdout);

    let failed = run_timesafety(&dir, "fail");
    assert!(!failed.ok, "a failed batch passed:\n{}", failed.stdout);
    assert!(
        failed
            .stdout
            .contains("FAILED: 1 batch(es) where menhir match failed: r1-s5-t2-k2"),
        "{}",
        failed.stdout
    );
    assert!(
        failed
            .stdout
            .contains("FAILED: 46 games played, 48 planned"),
        "{}",
        failed.stdout
    );

    let short = run_timesafety(&dir, "short");
    assert!(!short.ok, "a short batch passed:\n{}", short.stdout);
    assert!(
        short.stdout.contains("FAILED: 47 games played, 48 planned"),
        "{}",
        short.stdout
    );

    let _ = std::fs::remove_dir_all(&dir);
}
