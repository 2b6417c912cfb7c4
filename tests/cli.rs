//! The command line's manners beyond its flags. Run: `cargo test --test cli`.

use std::process::{Command, Stdio};

/// A reader that stops reading (`menhir tactics … | head`) ends the program quietly with the
/// status of a program killed by SIGPIPE (141), not with a panic (status 101 and "panicked").
#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menhir"))
        .args(["tactics", "tests/data/tactics.txt", "--nodes", "300"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The only read end goes before the suite's first lines are written (the run takes
    // about a second; its lines come one a position).
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
}
