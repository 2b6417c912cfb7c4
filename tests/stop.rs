//! `stop` is noticed within one poll interval: the guard against the time loss of a03dee4 (the
//! search polled its stop flag every 1024 nodes; a late 8×8 node with tall stacks has about a
//! thousand moves, so 1024 nodes took over 10 ms and a 1 ms budget took 14 ms).
//!
//! Counted, not clocked (CI machines are loaded): a watcher thread raises `stop` in the middle of
//! a search and reads the search's own published node count at once; the nodes the search goes on
//! to count after that are the nodes searched after `stop`. Each worker polls the flag (and
//! publishes its count) every `POLL_INTERVAL` nodes, so at most one interval per worker can follow
//! `stop`; a scheduler delay of the watcher only makes the count smaller. A generous wall-clock
//! check through the binary comes last: `stop` during `go infinite` is answered promptly (250 ms
//! here, for a loaded machine; the 20 ms promise is measured by `scripts/latency.py`).
//! Run: `cargo test --test stop`.

#[allow(dead_code)] // each test file uses part of the shared harness
mod common;

use common::{EngineProcess, PROMPT};
use menhir::core::Position;
use menhir::search::{Limits, Searcher};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::thread;
use std::time::{Duration, Instant};

/// The poll interval this file holds the search to (`POLL_INTERVAL` in `src/search/params.rs`).
/// Written out, not imported: raising the constant must fail here, not move the bound with it.
const PROMISED_POLL_INTERVAL: u64 = 128;

/// Nodes a worker may count after its last poll while it unwinds (none today: an aborted node
/// returns before it searches a child). Slack, so the bound is about polling only.
const UNWIND_SLACK: u64 = 16;

/// Late 8×8 positions with tall stacks and every top colour next to the other (no road for
/// either side in a few plies): the positions where 1024 nodes took over 10 ms. Generated with
/// stacks of 1–11 pieces, six empty squares, within the reserves; none has a road in one.
const TALL_8X8: [&str; 3] = [
    "2,1S,2,1,22,1,2,1/x,2,1,x,1,12S,x,11112/2,22221,112,21,2,1,2,1/111,2,1,112,x,2S,21,2/\
     22222,1,2,1,1112212,221C,2,1/1,x,1S,2,211,2,1C,2/2,111,2,1,2C,1,2,21/1,22,221111,12C,x,2,1,2 1 60",
    "2,1,x,1,2S,1C,112,221/211,2,1S,2S,1,2,1,2/2,1S,111112,1,2,1S,2,121/11S,2,x,2,1,x,221,22C/\
     2,222221,2,1,222S,1111,x,1/21,2,1S,2,1,2,222221S,x/x,1,2,11C,2,1,2C,1/2211,2,21,11112,1,2,1,2S 1 60",
    "2222222C,1S,2,1S,2,1S,2S,1/1,22S,x,2S,1,x,1,12/2,1C,2,1,x,1,2S,x/x,22,22221,2,1,2S,1111,2/\
     112,2222221S,2,1C,112,1S,2,221/1111S,12,1,2,11,2C,x,2/2,1S,2,1,2,11,2,1/11S,1112,1,2,1S,2,11111,2 1 60",
];

fn tall(i: usize) -> Position {
    Position::from_tps(TALL_8X8[i]).unwrap_or_else(|e| panic!("{}: {e}", TALL_8X8[i]))
}

/// Runs `go infinite` on `pos` with `threads` workers; once the search has published `warmup`
/// nodes a watcher raises `stop` and reads the published count. Returns the nodes the search
/// counted after that read, and the total.
fn nodes_after_stop(pos: &Position, threads: usize, warmup: u64) -> (u64, u64) {
    let mut searcher = Searcher::new(16, threads);
    let counter = searcher.node_counter();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    thread::scope(|s| {
        let watcher = s.spawn(|| {
            let deadline = Instant::now() + Duration::from_secs(60);
            while counter.load(SeqCst) < warmup && Instant::now() < deadline {
                thread::sleep(Duration::from_micros(200));
            }
            // Raise first, read second: whatever runs in between only lowers the count.
            stop.store(true, SeqCst);
            counter.load(SeqCst)
        });
        let result = searcher.search(pos, &limits, &stop, &mut |_| {});
        let at_stop = watcher.join().unwrap();
        assert!(pos.is_legal(result.best_move.expect("a move")));
        assert!(at_stop >= warmup, "the search never reached {warmup} nodes");
        (result.info.nodes - at_stop, result.info.nodes)
    })
}

#[test]
fn each_worker_stops_within_one_poll_interval_on_tall_8x8_stacks() {
    for threads in [1, 2] {
        let bound = threads as u64 * (PROMISED_POLL_INTERVAL + UNWIND_SLACK);
        for (i, _) in TALL_8X8.iter().enumerate() {
            // Several stops per position, at different points of different iterations.
            for warmup in [2_000, 5_000, 11_000] {
                let (after, total) = nodes_after_stop(&tall(i), threads, warmup);
                eprintln!("Threads {threads}, position {i}, warmup {warmup}: {after} of {total}");
                assert!(
                    after <= bound,
                    "Threads {threads}, position {i}, stop after {warmup} nodes: {after} nodes \
                     searched after stop (total {total}), more than one poll interval \
                     ({PROMISED_POLL_INTERVAL}) per worker: is POLL_INTERVAL raised, or is stop \
                     ignored inside an iteration?"
                );
            }
        }
    }
}

/// The time from `stop` to `bestmove` during `go infinite` on `tps`, through the binary.
fn stop_latency(engine: &mut EngineProcess, tps: &str, search_ms: u64) -> Duration {
    engine.send("teinewgame 8");
    engine.send(&format!("position tps {tps}"));
    engine.sync();
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(search_ms));
    let sent = Instant::now();
    engine.send("stop");
    let lines = engine.until_word("bestmove", PROMPT);
    let latency = sent.elapsed();
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    latency
}

/// RELIABILITY.md §3 promises 20 ms, measured by `scripts/latency.py` on an idle machine; this
/// allows 250 ms for the median of five stops, so a loaded 2-core machine does not fail it, while
/// a search that ignores `stop` until its iteration ends does. (The node-bound check above is
/// the precise one.)
#[test]
fn stop_during_go_infinite_answers_promptly_with_one_and_two_threads() {
    for threads in [1, 2] {
        let mut engine = EngineProcess::spawn(|_| {});
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send("setoption name Hash value 16");
        let mut latencies: Vec<Duration> = (0..5)
            .map(|k| {
                stop_latency(
                    &mut engine,
                    TALL_8X8[k % TALL_8X8.len()],
                    150 + 40 * k as u64,
                )
            })
            .collect();
        latencies.sort();
        let median = latencies[latencies.len() / 2];
        eprintln!("Threads {threads}: stop latencies {latencies:?}");
        assert!(
            median <= Duration::from_millis(250),
            "Threads {threads}: stop → bestmove took {latencies:?} (median {median:?})"
        );
    }
}
