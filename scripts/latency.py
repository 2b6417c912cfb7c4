#!/usr/bin/env python3
"""Responsiveness of `menhir` during a search: `isready` -> `readyok` and `stop` -> `bestmove`.

Each trial starts `go infinite` on a start or midgame position (sizes 5 to 8), lets it search a
random 10-150 ms, sends `isready` and times `readyok`, then sends `stop` and times `bestmove`.
Times are taken on a reader thread as each line arrives. Prints median, 99th percentile and
worst for Threads 1 and 2; exits 1 if a worst case reaches the target (20 ms).

    cargo build --release && scripts/latency.py                # 200 trials per thread count
    scripts/latency.py --trials 500 --bin target/release/menhir --hash 256
"""

import argparse
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

TARGET_MS = 20.0

SIZES = (5, 6, 7, 8)
MIDGAME_PLIES = 16


class Engine:
    def __init__(self, binary):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode().rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return time.perf_counter()

    def until(self, word, timeout=10.0):
        """Time and line of the first line starting with `word`."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise RuntimeError(f"no {word!r} within {timeout} s")
            at, line = self.lines.get(timeout=left)
            if line is None:
                raise RuntimeError(f"the engine closed its output waiting for {word!r}")
            if line.split(" ", 1)[0] == word:
                return at, line

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=3)
        except Exception:
            self.proc.kill()


def measure(binary, threads, trials, hash_mb, rng):
    engine = Engine(binary)
    engine.send("tei")
    engine.until("teiok")
    engine.send(f"setoption name Threads value {threads}")
    engine.send(f"setoption name Hash value {hash_mb}")
    engine.send("isready")
    engine.until("readyok")
    # Start positions and midgames (16 plies of the engine's own fast play) of every size.
    positions = []
    for size in SIZES:
        engine.send(f"teinewgame {size}")
        moves = []
        for _ in range(MIDGAME_PLIES):
            engine.send("position startpos moves " + " ".join(moves))
            engine.send("go movetime 20")
            _, line = engine.until("bestmove")
            moves.append(line.split()[1])
        positions.append((size, "position startpos"))
        positions.append((size, "position startpos moves " + " ".join(moves)))
    ready, stop = [], []
    for trial in range(trials):
        size, position = positions[trial % len(positions)]
        # A new game before each, so a table clear happens between measured searches too.
        engine.send(f"teinewgame {size}")
        engine.send(position)
        engine.send("go infinite")
        engine.until("info")
        time.sleep(rng.uniform(0.010, 0.150))
        sent = engine.send("isready")
        at, _ = engine.until("readyok")
        ready.append((at - sent) * 1000)
        sent = engine.send("stop")
        at, _ = engine.until("bestmove")
        stop.append((at - sent) * 1000)
    engine.close()
    return ready, stop


def describe(values):
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"median {statistics.median(ordered):6.2f} ms   p99 {p99:6.2f} ms   "
            f"worst {ordered[-1]:6.2f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..",
                                                      "target", "release", "menhir"))
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--hash", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"menhir latency: {args.bin}, {args.trials} trials per thread count, Hash {args.hash}, "
          f"{os.cpu_count()} cores")
    worst = 0.0
    for threads in (1, 2):
        ready, stop = measure(args.bin, threads, args.trials, args.hash, rng)
        print(f"Threads {threads}  isready->readyok  {describe(ready)}")
        print(f"Threads {threads}  stop->bestmove    {describe(stop)}")
        worst = max(worst, max(ready), max(stop))
    verdict = "meets" if worst < TARGET_MS else "MISSES"
    print(f"worst case {worst:.2f} ms: {verdict} the {TARGET_MS:.0f} ms target")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
