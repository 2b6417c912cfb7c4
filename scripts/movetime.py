#!/usr/bin/env python3
"""The time promises that `cargo test` checks only loosely (a loaded CI machine): measured here.

Through the binary, per thread count: `go movetime 300` and `go movetime 400` must end within
the movetime and use at least three quarters of it, and `go wtime 60 btime 60` on a midgame
must answer within 60 ms. Times are taken from sending `go` to reading `bestmove`, on a reader
thread as each line arrives (`latency.py`'s engine driver). Prints median and worst per case;
exits 1 if any worst case breaks its promise. Run it on an idle machine.

    cargo build --release && scripts/movetime.py              # 10 trials per case and thread count
    scripts/movetime.py --trials 30 --bin target/release/menhir
"""

import argparse
import os
import statistics
import sys

from latency import Engine

MIDGAME = "position startpos moves a1 f6 c3 d4 c4 d3 c2 d2 Cc5 Cd5 b4 e4"


def timed(engine, position, go):
    engine.send("teinewgame 6")
    engine.send(position)
    engine.send("isready")
    engine.until("readyok")
    sent = engine.send(go)
    at, _ = engine.until("bestmove")
    return (at - sent) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..",
                                                      "target", "release", "menhir"))
    parser.add_argument("--trials", type=int, default=10)
    args = parser.parse_args()
    # (name, position, go command, lowest allowed ms, highest allowed ms)
    cases = [
        ("go movetime 300", "position startpos", "go movetime 300", 225, 300),
        ("go movetime 400", "position startpos", "go movetime 400", 300, 400),
        ("go wtime 60 btime 60", MIDGAME, "go wtime 60 btime 60", 0, 60),
    ]
    print(f"menhir movetime: {args.bin}, {args.trials} trials per case, {os.cpu_count()} cores")
    failed = False
    for threads in (1, 2):
        engine = Engine(args.bin)
        engine.send("tei")
        engine.until("teiok")
        engine.send(f"setoption name Threads value {threads}")
        for name, position, go, low, high in cases:
            times = [timed(engine, position, go) for _ in range(args.trials)]
            ok = low <= min(times) and max(times) <= high
            failed |= not ok
            print(f"Threads {threads}  {name:22} median {statistics.median(times):7.1f} ms   "
                  f"least {min(times):7.1f} ms   worst {max(times):7.1f} ms   "
                  f"promise {low}-{high} ms: {'kept' if ok else 'BROKEN'}")
        engine.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
