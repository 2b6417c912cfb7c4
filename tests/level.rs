//! Strength levels (the `Level` option, `search::level`): on a fixed seed a weak level plays
//! legal moves that differ from full strength's on many positions, replays them exactly, and
//! shows only the lines the GUI asked for; over TEI the option takes effect and is checked.

use menhir::commands::BENCH_POSITIONS;
use menhir::core::{Move, MoveList, Position};
use menhir::search::level::{spec, FULL_STRENGTH};
use menhir::search::{Info, Limits, Searcher};
use menhir::tei::{Output, Session};
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Full strength's budget here: what a level's cap is compared with.
const NODES: u64 = 30_000;

fn positions() -> Vec<Position> {
    BENCH_POSITIONS
        .iter()
        .map(|&(half_komi, tps)| {
            let mut pos = Position::from_tps(tps).unwrap();
            pos.set_half_komi(half_komi);
            pos
        })
        .collect()
}

/// The move a fresh one-thread searcher plays at `level` on `go nodes NODES`, and its reports.
fn play(pos: &Position, level: u32, seed: u64) -> (Move, Vec<Info>) {
    let mut searcher = Searcher::new(16, 1);
    searcher.set_level(level, seed);
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let mut reports = Vec::new();
    let result = searcher.search(pos, &limits, &AtomicBool::new(false), &mut |info| {
        reports.push(info.clone())
    });
    (result.best_move.unwrap(), reports)
}

fn legal(pos: &Position, mv: Move) -> bool {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.contains(mv)
}

#[test]
fn a_weak_level_differs_from_full_strength_on_a_fixed_seed_and_stays_legal() {
    let positions = positions();
    let mut differ = 0;
    for (i, pos) in positions.iter().enumerate() {
        let (full, _) = play(pos, FULL_STRENGTH, 7);
        let (weak, reports) = play(pos, 1, 7);
        assert!(legal(pos, weak), "position {i}: {weak:?}");
        // Seeded: the same level, seed and position give the same move.
        assert_eq!(play(pos, 1, 7).0, weak, "position {i}");
        // The cap holds (the search stops within a poll of it), and the GUI sees line 1 only.
        let last = reports.last().unwrap();
        assert!(
            last.nodes <= spec(1).unwrap().nodes + 128,
            "position {i}: {last:?}"
        );
        assert!(reports.iter().all(|r| r.multipv <= 1), "position {i}");
        assert_eq!(last.pv.first(), Some(&weak), "position {i}");
        differ += usize::from(weak != full);
    }
    assert!(
        differ * 4 >= positions.len(),
        "level 1 played full strength's move on {} of {} positions",
        positions.len() - differ,
        positions.len()
    );
}

#[test]
fn another_seed_makes_other_choices_and_full_strength_ignores_the_seed() {
    let positions = positions();
    let changed = positions
        .iter()
        .filter(|pos| play(pos, 1, 1).0 != play(pos, 1, 2).0)
        .count();
    assert!(changed > 0, "seeds 1 and 2 chose alike everywhere");
    for pos in positions.iter().take(6) {
        assert_eq!(play(pos, FULL_STRENGTH, 1).0, play(pos, FULL_STRENGTH, 2).0);
    }
}

/// A TEI session in this process: its output lines come back on a channel.
fn session() -> (Session, mpsc::Receiver<String>) {
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let out: Output = Arc::new(move |line: &str| {
        let _ = tx.lock().unwrap().send(line.to_string());
    });
    (Session::new(out), rx)
}

/// `go nodes NODES` on the session's position: the info lines and the bestmove text.
fn go(session: &mut Session, lines: &mpsc::Receiver<String>) -> (Vec<String>, String) {
    session.handle_line(&format!("go nodes {NODES}"));
    let mut infos = Vec::new();
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .expect("a bestmove (a guard only)");
        if let Some(best) = line.strip_prefix("bestmove ") {
            return (infos, best.to_string());
        }
        infos.push(line);
    }
}

#[test]
fn the_level_option_over_tei_changes_the_move_and_refuses_bad_values() {
    let (mut session, lines) = session();
    session.handle_line("setoption name Level value 0");
    let error = lines.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(
        error.starts_with("info string error: option Level"),
        "{error}"
    );
    session.handle_line("setoption name LevelSeed value 7");
    let mut differ = 0;
    for &(half_komi, tps) in BENCH_POSITIONS.iter() {
        session.handle_line(&format!("setoption name HalfKomi value {half_komi}"));
        session.handle_line(&format!("position tps {tps}"));
        session.handle_line(&format!("setoption name Level value {FULL_STRENGTH}"));
        let (_, full) = go(&mut session, &lines);
        session.handle_line("setoption name Level value 1");
        let (infos, weak) = go(&mut session, &lines);
        assert!(
            infos.iter().all(|l| !l.contains("multipv")),
            "the level's extra lines stay inside: {infos:?}"
        );
        let pos = Position::from_tps(tps).unwrap();
        assert!(legal(&pos, pos.parse_move(&weak).unwrap()), "{tps}: {weak}");
        differ += usize::from(weak != full);
    }
    assert!(differ * 4 >= BENCH_POSITIONS.len(), "{differ}");
    session.finish();
}
