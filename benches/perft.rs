//! Criterion benchmarks of the game core: the three perft targets of issue 2 and move
//! generation on midgame positions, with what the search's move picker adds to it (the
//! policy's per-node context and the score of every move). Run with `cargo bench --bench perft`
//! (a few minutes); one group with `cargo bench --bench perft -- movegen`.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use menhir::core::{Move, MoveList, Perft, PerftMode, Position};
use menhir::search::policy::{policy_score, PolicyContext, PolicyWeights};
use std::hint::black_box;
use std::time::Duration;

/// Issue 2's speed targets: (name, size, depth, mode, nodes). The node counts are checked
/// before timing, so a benchmark never measures a wrong answer.
const PERFT_CASES: [(&str, usize, usize, PerftMode, u64); 3] = [
    (
        "counting 5x5 start depth 5",
        5,
        5,
        PerftMode::Counting,
        187_855_252,
    ),
    (
        "counting 6x6 start depth 5",
        6,
        5,
        PerftMode::Counting,
        1_253_506_520,
    ),
    ("full 5x5 start depth 5", 5, 5, PerftMode::Full, 187_855_252),
];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // Each run takes a good fraction of a second or more: few samples, one run per sample.
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    for (name, size, depth, mode, nodes) in PERFT_CASES {
        let mut pos = Position::start(size).unwrap();
        let mut perft = Perft::new();
        assert_eq!(perft.count(&mut pos, depth, mode), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| perft.count(black_box(&mut pos), depth, mode))
        });
    }
    group.finish();
}

/// Midgame positions from the published perft list (published.md rows G, H, K, U, X).
const MIDGAMES: [(&str, &str); 5] = [
    ("G 6x6", "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42"),
    ("H 6x6", "x,2,2,22S,2,111S/21S,22C,112,x,1112S,11S/x,2,112212,2,2S,2/x,2,121122,x,1112,211/21C,x,1,2S,21S,x/2S,x,212,1S,12S,1S 1 33"),
    ("K 7x7", "1,x2,22S,1,x2/1,2S,122,1S,1,12,22/2,1,x,2,1221C,11S,21/x,1211S,221,1,12122S,121,1/2,122C,212111,1S,22,12,1/2S,2,x,12122,2,21,2S/x2,1S,1,2,1,2 2 41"),
    ("U 5x5", "x5/x5/2S,211C,2C,212S,x/x5/x5 1 7"),
    ("X 8x8", "x,1S,1C,1S,x4/1,11,11111C,2S,2C,2S,2S,2S/x8/x8/x2,2C,x5/x2,1S,x5/x2,1S,x5/x2,1S,x5 1 14"),
];

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let mut moves = MoveList::new();
    for (name, tps) in MIDGAMES {
        let pos = Position::from_tps(tps).unwrap();
        moves.clear();
        pos.generate_moves(&mut moves);
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_function(format!("generate {name}"), |b| {
            b.iter(|| {
                moves.clear();
                black_box(&pos).generate_moves(&mut moves);
                moves.len()
            })
        });
        group.bench_function(format!("count {name}"), |b| {
            b.iter(|| black_box(&pos).count_moves())
        });
        group.bench_function(format!("policy context {name}"), |b| {
            b.iter(|| PolicyContext::new(black_box(&pos), Move::NULL))
        });
        group.bench_function(format!("policy context and scores {name}"), |b| {
            let weights = PolicyWeights::builtin(pos.size());
            b.iter(|| {
                let ctx = PolicyContext::new(black_box(&pos), Move::NULL);
                moves
                    .iter()
                    .map(|&mv| policy_score(&pos, &ctx, mv, weights))
                    .sum::<i32>()
            })
        });
        group.bench_function(format!("make/unmake all {name}"), |b| {
            let mut pos = pos.clone();
            let list = moves.clone();
            b.iter(|| {
                for &mv in list.iter() {
                    let undo = pos.do_move(mv);
                    pos.undo_move(mv, black_box(undo));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, perft, movegen);
criterion_main!(benches);
