//! MultiPV: with k lines, the first moves of the lines are k distinct legal moves, and line 1
//! is the move (and score and variation) MultiPV 1 finds at the same depth, on every bench
//! position (one bench depth less, to keep the test short).

use menhir::commands::{default_depth, BENCH_POSITIONS};
use menhir::core::{Move, MoveList, Position};
use menhir::search::{Info, Limits, Searcher};
use std::sync::atomic::AtomicBool;

/// Best move and the last completed depth's lines (by `multipv`) of a fresh search.
fn search(pos: &Position, depth: u32, lines: usize) -> (Move, Vec<Info>) {
    let mut searcher = Searcher::new(16, 1);
    searcher.set_multipv(lines);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut reports: Vec<Info> = Vec::new();
    let result = searcher.search(pos, &limits, &AtomicBool::new(false), &mut |info| {
        reports.push(info.clone())
    });
    // The last report repeats line 1 (the final one); the depth's lines come before it.
    reports.pop();
    let last: Vec<Info> = reports
        .iter()
        .filter(|i| i.depth == depth)
        .cloned()
        .collect();
    (result.best_move.unwrap(), last)
}

#[test]
fn lines_are_distinct_legal_moves_and_line_one_is_the_single_best() {
    const LINES: usize = 3;
    for (i, &(half_komi, tps)) in BENCH_POSITIONS.iter().enumerate() {
        let mut pos = Position::from_tps(tps).unwrap();
        pos.set_half_komi(half_komi);
        let depth = default_depth(pos.size()) - 1;
        let (single, single_lines) = search(&pos, depth, 1);
        assert_eq!(single_lines.len(), 1, "position {i}");
        assert_eq!(single_lines[0].multipv, 1);
        let (best, lines) = search(&pos, depth, LINES);
        let mut legal = MoveList::new();
        pos.generate_moves(&mut legal);
        let expected = LINES.min(legal.len());
        let numbers: Vec<u32> = lines.iter().map(|l| l.multipv).collect();
        assert_eq!(
            numbers,
            (1..=expected as u32).collect::<Vec<_>>(),
            "position {i}"
        );
        let firsts: Vec<Move> = lines.iter().map(|l| l.pv[0]).collect();
        for (k, mv) in firsts.iter().enumerate() {
            assert!(legal.contains(*mv), "position {i} line {}: {mv:?}", k + 1);
            assert!(!firsts[..k].contains(mv), "position {i}: {firsts:?} repeat");
        }
        assert_eq!(firsts[0], best, "position {i}: bestmove is line 1");
        // Line 1 is MultiPV 1's very search: same score and variation.
        assert_eq!(lines[0].score_cp, single_lines[0].score_cp, "position {i}");
        assert_eq!(lines[0].pv, single_lines[0].pv, "position {i}");
        assert_eq!(
            best,
            single,
            "position {i} ({tps}): MultiPV {LINES} line 1 {} vs MultiPV 1 {}",
            best.to_ptn(),
            single.to_ptn()
        );
    }
}
