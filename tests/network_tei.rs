//! The `EvalFile` option over TEI: a network file takes over its board size's evaluation, a bad
//! file gets one `info string error:` line and changes nothing, and `<builtin>` goes back.
//! Run: `cargo test --test network_tei`.

#[allow(dead_code)] // each test file uses part of the shared harness
mod common;

use common::{EngineProcess, PROMPT};
use std::time::Duration;

const NETWORK: &str = "tests/data/network/small-6x6.mhn";

/// A depth-5 search of a 6×6 position after a new game (an empty table, so the same
/// evaluation gives the same search): its final `info` line without the time-dependent fields.
fn search(engine: &mut EngineProcess) -> String {
    engine.send("teinewgame 6");
    engine.send("position startpos moves a1 f6 c3 d4 Cc4 d3");
    engine.send("go depth 5");
    let lines = engine.until_word("bestmove", Duration::from_secs(60));
    let info = &lines[lines.len() - 2];
    let keep = ["score", "cp", "nodes", "pv"];
    let mut out = Vec::new();
    let mut words = info.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if keep.contains(&w) {
            out.push(w.to_string());
            if w != "score" && w != "pv" {
                out.push(words.next().unwrap().to_string());
            }
        } else if w == "cp" {
            out.push(words.next().unwrap().to_string());
        }
    }
    format!("{} | {}", out.join(" "), lines.last().unwrap())
}

fn refused(engine: &mut EngineProcess, value: &str) {
    engine.send(&format!("setoption name EvalFile value {value}"));
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: option EvalFile: "),
        "{lines:?}"
    );
}

#[test]
fn eval_file_swaps_the_evaluation_and_a_bad_file_changes_nothing() {
    let mut engine = EngineProcess::spawn(|_| {});
    engine.send("tei");
    engine.until_word("teiok", PROMPT);
    let linear = search(&mut engine);

    engine.send(&format!("setoption name EvalFile value {NETWORK}"));
    assert_eq!(
        engine.sync(),
        [format!("info string EvalFile: {NETWORK}, a 6x6 network")]
    );
    let network = search(&mut engine);
    assert_ne!(network, linear, "the network did not change the search");

    let dir = std::env::temp_dir().join(format!("menhir-network-tei-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let truncated = dir.join("truncated.mhn");
    let bytes = std::fs::read(NETWORK).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    refused(&mut engine, truncated.to_str().unwrap());
    refused(&mut engine, "/nonexistent/net.mhn");
    refused(&mut engine, "tests/data/network/positions-6x6.mhd");
    assert_eq!(
        search(&mut engine),
        network,
        "a refused file changed the evaluation"
    );

    engine.send("setoption name EvalFile value <builtin>");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(search(&mut engine), linear);
    engine.send("quit");
    assert!(engine.exit_within(PROMPT).is_some());
}
