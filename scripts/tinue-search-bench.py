#!/usr/bin/env python3
"""Menhir's normal search on the tinue benchmark (issue 26): `menhir analyze` per position at a
fixed move time; a position counts as proved when the search reports a forced result
(|score cp| > 9872, i.e. `score mate`), timed at the first info line that reports it.

Usage: scripts/tinue-search-bench.py MENHIR BENCH_FILE MOVETIME_MS [HALF_KOMI] > results.tsv
Prints one line per position (line, verdict, plies, ms) and a summary like `menhir tinue
--positions`.
"""
import subprocess
import sys


def main():
    binary, bench, movetime = sys.argv[1], sys.argv[2], int(sys.argv[3])
    half_komi = sys.argv[4] if len(sys.argv) > 4 else "4"
    rows = []
    lines = open(bench).read().splitlines()
    todo = [(i + 1, l.split("#")[0].strip()) for i, l in enumerate(lines) if l.split("#")[0].strip()]
    print("line\tverdict\tplies\tms")
    for k, (number, tps) in enumerate(todo):
        sys.stderr.write(f"\r{k}/{len(todo)}")
        sys.stderr.flush()
        out = subprocess.run(
            [binary, "analyze", "--tps", tps, "--movetime", str(movetime), "--half-komi", half_komi],
            capture_output=True, text=True).stdout
        verdict, plies, ms = "unknown", "-", movetime
        for line in out.splitlines():
            words = line.split()
            if words[:1] != ["info"] or "cp" not in words:
                continue
            cp = int(words[words.index("cp") + 1])
            if abs(cp) > 9872:
                verdict = "win" if cp > 0 else "loss"
                plies = str(10000 - abs(cp))
                ms = int(words[words.index("time") + 1])
                break
        rows.append((verdict, ms))
        print(f"{number}\t{verdict}\t{plies}\t{ms}", flush=True)
    sys.stderr.write("\n")
    times = sorted(ms for _, ms in rows)
    proved = sum(v in ("win", "loss") for v, _ in rows)
    print(f"summary: {len(rows)} positions, proved {proved} "
          f"(win {sum(v == 'win' for v, _ in rows)}, loss {sum(v == 'loss' for v, _ in rows)}), "
          f"unknown {len(rows) - proved}, median time {times[len(times) // 2]} ms")


main()
