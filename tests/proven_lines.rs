//! Proven results and their lines (issue 47): every proven score the search reports comes with
//! a line that, replayed, ends the game with the claimed winner in exactly the claimed number of
//! plies, on positions of random games of every size; `seldepth` is never below `depth`; an
//! analysis search of a proven position stops deepening and reports it once.
//! Bounded by nodes throughout. Run: `cargo test --test proven_lines`.

use menhir::core::{Move, MoveList, Position};
use menhir::search::{plies_to_result, Info, Limits, Searcher};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// Checks that a proven `info` from `root` ends the game with the right winner in exactly its
/// distance; returns whether it was a proven score.
fn check_proven_line(root: &Position, info: &Info) -> bool {
    let Some(plies) = plies_to_result(info.score_cp) else {
        return false;
    };
    let tps = root.to_tps();
    assert_eq!(
        info.pv.len(),
        plies as usize,
        "{tps}: a proven score of {plies} plies with a line of {}: {:?}",
        info.pv.len(),
        info.pv.iter().map(|m| m.to_ptn()).collect::<Vec<_>>()
    );
    let mut pos = root.clone();
    for (i, &mv) in info.pv.iter().enumerate() {
        assert!(
            pos.result().is_none(),
            "{tps}: the game ended before ply {i}"
        );
        assert!(pos.is_legal(mv), "{tps}: {} is illegal", mv.to_ptn());
        pos.do_move(mv);
    }
    let winner = pos
        .result()
        .unwrap_or_else(|| panic!("{tps}: the line does not end the game"))
        .winner();
    let expected = if info.score_cp > 0 {
        root.to_move()
    } else {
        !root.to_move()
    };
    assert_eq!(winner, Some(expected), "{tps}: the wrong side wins");
    true
}

/// The last `last` positions before the end of a random game of `size` (where forced results
/// are common).
fn random_game_end(size: usize, last: usize, rng: &mut StdRng) -> Vec<Position> {
    let mut pos = Position::start(size).unwrap();
    let mut out = Vec::new();
    while pos.result().is_none() {
        out.push(pos.clone());
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let mv: Move = moves[rng.random_range(0..moves.len())];
        pos.do_move(mv);
    }
    out.split_off(out.len().saturating_sub(last))
}

/// Searches `pos` for `nodes` and returns every report.
fn reports(searcher: &mut Searcher, pos: &Position, nodes: u64) -> Vec<Info> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut infos = Vec::new();
    searcher.search(pos, &limits, &AtomicBool::new(false), &mut |i| {
        infos.push(i.clone())
    });
    infos
}

#[test]
fn proven_scores_end_the_game_in_exactly_their_distance_at_every_size() {
    let mut rng = StdRng::seed_from_u64(47);
    for size in 3..=8 {
        let mut searcher = Searcher::new(2, 1);
        let mut proven = 0;
        for _ in 0..4 {
            for pos in random_game_end(size, 6, &mut rng) {
                for info in reports(&mut searcher, &pos, 6_000) {
                    assert!(
                        info.seldepth >= info.depth,
                        "{}: depth {} seldepth {}",
                        pos.to_tps(),
                        info.depth,
                        info.seldepth
                    );
                    proven += check_proven_line(&pos, &info) as usize;
                }
            }
        }
        assert!(proven >= 3, "size {size}: only {proven} proven reports");
    }
}

#[test]
fn known_proven_positions_have_full_lines() {
    // From issue 47: the search said `win 7` with a 5-ply line here, and `loss 8` with 6 plies
    // on the 3×3 one.
    for tps in [
        "x4/x4/x,1,x2/1,1,x,2 1 5",
        "2,x,1/x,2,x/1,x,x 1 3",
        "x,1,2,2,2/x,1,x,x,x/x,1,x,x,x/x5/x,x,1,1,1 1 10",
    ] {
        let pos = Position::from_tps(tps).unwrap();
        let mut searcher = Searcher::new(8, 1);
        let infos = reports(&mut searcher, &pos, 400_000);
        let last = infos.last().unwrap();
        assert!(check_proven_line(&pos, last), "{tps}: not proven: {last:?}");
        for info in &infos {
            check_proven_line(&pos, info);
        }
    }
}

#[test]
fn an_analysis_search_of_a_proven_position_reports_it_once_and_waits() {
    let pos = Position::from_tps("x4/x4/x,1,x2/1,1,x,2 1 5").unwrap();
    let infos = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut searcher = Searcher::new(8, 2);
    let nodes = searcher.node_counter();
    let worker = {
        let (infos, stop, pos) = (Arc::clone(&infos), Arc::clone(&stop), pos.clone());
        thread::spawn(move || {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            searcher.search(&pos, &limits, &stop, &mut |i| {
                infos.lock().unwrap().push(i.clone())
            })
        })
    };
    // Wait until the search has settled: a proof reported and the node count standing still
    // (it is waiting for `stop`). A slow machine only waits longer.
    let mut last = u64::MAX;
    for _ in 0..1200 {
        thread::sleep(Duration::from_millis(100));
        let now = nodes.load(Ordering::Relaxed);
        let proven = infos
            .lock()
            .unwrap()
            .iter()
            .any(|i| plies_to_result(i.score_cp).is_some());
        if proven && now == last {
            break;
        }
        last = now;
    }
    let before_stop = infos.lock().unwrap().clone();
    stop.store(true, Ordering::SeqCst);
    let result = worker.join().unwrap();
    assert!(
        before_stop.len() < 10,
        "{} reports before stop: {:?}",
        before_stop.len(),
        before_stop
            .iter()
            .map(|i| (i.depth, i.score_cp))
            .collect::<Vec<_>>()
    );
    let proven: Vec<&Info> = before_stop
        .iter()
        .filter(|i| plies_to_result(i.score_cp).is_some())
        .collect();
    assert!(!proven.is_empty(), "no proven report");
    // No two proven reports in a row say the same thing.
    for pair in proven.windows(2) {
        assert!(
            (pair[0].score_cp, &pair[0].pv) != (pair[1].score_cp, &pair[1].pv),
            "a repeated proven report at depth {}",
            pair[1].depth
        );
    }
    // It stopped deepening soon after the proof, far from the last depth.
    assert!(result.info.depth < 30, "depth {}", result.info.depth);
    assert!(check_proven_line(&pos, &result.info));
}
