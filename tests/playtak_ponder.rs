//! `menhir playtak --ponder`: on the opponent's time the built-in search runs (its `info` lines
//! are counted), a TEI engine is sent `go infinite` on the position after our move and `stop`
//! before its next real `go`, and each ponder search stops within the promised `STOP_GRACE`
//! once the opponent's move comes. Without `--ponder`, or at a level below full strength, there
//! is none. Against the in-process server double, whose opponent here thinks a little.
//! Run: `cargo test --test playtak_ponder` (needs python3 for the scripted engine).

mod playtak_double;

use menhir::core::Color;
use menhir::playtak::{Mode, STOP_GRACE};
use playtak_double::bot::{config, in_process, misbehave_with, run, seek, temp_dir};
use playtak_double::{Double, Scenario};

/// A game whose opponent takes `delay_ms` over each move.
fn slow_opponent(delay_ms: u64, placements_only: bool) -> Double {
    Double::start(Scenario {
        placements_only,
        max_plies: 10,
        opponent_delay_ms: delay_ms,
        ..Scenario::default()
    })
}

#[test]
fn the_built_in_search_ponders_on_the_opponents_time_and_stops_in_time() {
    let double = slow_opponent(300, false);
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), in_process());
    cfg.ponder = true;
    let summary = run(cfg).unwrap();
    let game = &summary.games[0];
    // We are White: five moves, the first four followed by an opponent's move to wait for
    // (the fifth's ponder search is cut by the game's end).
    assert!(game.ponders >= 3, "{game:?}");
    assert!(
        game.ponder_infos >= game.ponders,
        "the search ran: {game:?}"
    );
    assert!(game.ponder_stop_max < STOP_GRACE, "{game:?}");
    let played = double.games();
    assert_eq!(played[0].plies.len(), 10);
    assert_eq!(double.observed.lock().unwrap().move_noks, 0);
}

#[test]
fn a_tei_engine_gets_go_infinite_after_our_move_and_stop_before_its_next_go() {
    let double = slow_opponent(200, true);
    let dir = temp_dir("ponder-log");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("engine.log");
    let engine = misbehave_with(&format!("--mode good --log {}", log.display()));
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), engine);
    cfg.ponder = true;
    let summary = run(cfg).unwrap();
    let game = &summary.games[0];
    assert_eq!(game.color, Color::White);
    assert!(game.ponder_stop_max < STOP_GRACE, "{game:?}");
    let lines: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut ponders = 0;
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with("go ") {
            continue;
        }
        // What precedes each go is its position; White searches after an even number of
        // plies, and ponders after its own move, an odd number (no reply expected: the
        // scripted engine's lines are one move long).
        let position = lines[..i]
            .iter()
            .rev()
            .find(|l| l.starts_with("position"))
            .unwrap();
        let plies = position.split_whitespace().skip(3).count();
        if line == "go infinite" {
            ponders += 1;
            assert_eq!(plies % 2, 1, "{position}");
            let next = &lines[i + 1..];
            let stop = next.iter().position(|l| l == "stop");
            let go = next.iter().position(|l| l.starts_with("go "));
            assert!(
                stop.is_some() && (go.is_none() || stop < go),
                "a ponder search is stopped before the next go: {lines:?}"
            );
        } else {
            assert_eq!(plies % 2, 0, "{position}");
        }
    }
    assert!(ponders >= 3, "{lines:?}");
    // The summary counts the ponder searches that ended in the game; the last may be stopped
    // by the game's end.
    assert!(
        game.ponders + 1 >= ponders && game.ponders <= ponders,
        "{game:?}"
    );
    assert_eq!(double.games()[0].plies.len(), 10);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn no_pondering_when_off_or_below_full_strength() {
    let double = slow_opponent(200, true);
    let dir = temp_dir("ponder-off");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("engine.log");
    let engine = misbehave_with(&format!("--mode good --log {}", log.display()));
    let cfg = config(&double, false, Mode::Seek(seek(5, 0)), engine);
    assert!(!cfg.ponder);
    let summary = run(cfg).unwrap();
    assert_eq!(summary.games[0].ponders, 0);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains("go infinite"), "{text}");
    assert!(!text.contains("stop"), "{text}");
    let _ = std::fs::remove_dir_all(dir);

    // A level is measured without pondering, so it plays without.
    let double = slow_opponent(200, false);
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), in_process());
    cfg.ponder = true;
    cfg.level = 2;
    let summary = run(cfg).unwrap();
    assert_eq!((summary.games[0].level, summary.games[0].ponders), (2, 0));
}
