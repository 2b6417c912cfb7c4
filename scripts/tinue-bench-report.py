#!/usr/bin/env python3
"""Sums up the tinue benchmark runs of scripts/tinue-bench-run.sh (ANALYSIS.md).

Usage: scripts/tinue-bench-report.py RESULTS_DIR
The 10 s runs cover only the positions left unknown at 1 s; a position settled at 1 s counts as
settled at 10 s with its 1 s time.
"""
import os
import statistics
import sys

d = sys.argv[1]


def rows(name):
    path = os.path.join(d, name)
    if not os.path.exists(path):
        return None
    out = {}
    for r in open(path):
        f = r.rstrip("\n").split("\t")
        if f[0].isdigit():
            out[int(f[0])] = (f[1], f[2], int(f[3]))
    return out


def merged(one, ten, limit_ms, inputs):
    if one is None:
        return None
    if ten is None:
        return None
    # The 10 s file numbers its own input's lines: map them back by order.
    unknown = [k for k in sorted(one) if one[k][0] == "unknown"]
    out = dict(one)
    for i, k in enumerate(unknown):
        if i + 1 in ten:
            out[k] = ten[i + 1]
        else:
            out[k] = ("not run", "-", limit_ms)
    return out


def summary(name, res, limit_ms):
    if res is None:
        print(f"| {name} | not finished | | | | |")
        return
    v = [x[0] for x in res.values()]
    times = [x[2] if x[0] in ("win", "loss", "disproved") else limit_ms for x in res.values()]
    print(f"| {name} | {len(res)} | {v.count('win') + v.count('loss')} (win {v.count('win')}, "
          f"loss {v.count('loss')}) | {v.count('disproved')} | {v.count('unknown') + v.count('not run')} "
          f"| {statistics.median(times):.0f} ms |")


s1, s10, q1, q10 = (rows(n) for n in ("solver-1s.tsv", "solver-10s.tsv", "search-1s.tsv", "search-10s.tsv"))
S10 = merged(s1, s10, 10000, None)
Q10 = merged(q1, q10, 10000, None)
print("| run | positions | proved | disproved | unknown | median time |")
print("|---|---|---|---|---|---|")
summary("solver 1 s", s1, 1000)
summary("solver 10 s", S10, 10000)
summary("search 1 s", q1, 1000)
summary("search 10 s", Q10, 10000)
for label, S, Q in (("1 s", s1, q1), ("10 s", S10, Q10)):
    if S is None or Q is None:
        continue
    both = [k for k in S if S[k][0] == "win" and Q[k][0] == "win"]
    only_q = [k for k in S if S[k][0] != "win" and Q[k][0] == "win"]
    only_s = [k for k in S if S[k][0] == "win" and Q[k][0] != "win"]
    long_s = [k for k in only_s if S[k][1].isdigit() and int(S[k][1]) >= 9]
    print(f"\nAt {label}: both prove {len(both)}; the solver alone {len(only_s)} "
          f"({len(long_s)} of them 9+ plies); the search alone {len(only_q)}: "
          + ", ".join(f"line {k} (solver: {S[k][0]}, search win {Q[k][1]})" for k in only_q))
    lens = sorted(int(S[k][1]) for k in S if S[k][0] == "win" and S[k][1].isdigit())
    if lens:
        buckets = {}
        for n in lens:
            b = "1-7" if n <= 7 else "9-13" if n <= 13 else "15+"
            buckets[b] = buckets.get(b, 0) + 1
        print(f"Solver proof lengths at {label}: {buckets}; longest {lens[-1]} plies")
