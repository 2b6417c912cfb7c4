#!/usr/bin/env bash
# The tinue benchmark runs of ANALYSIS.md (issue 26), one job at a time:
#   1. the solver (menhir tinue --positions) and the normal search (menhir analyze, via
#      scripts/tinue-search-bench.py) at 1 s per position on the whole set;
#   2. both again at 10 s, each on the positions it left unsettled at 1 s (a position settled
#      at 1 s is counted settled at 10 s with its 1 s time).
# Usage: scripts/tinue-bench-run.sh MENHIR BENCH_FILE OUT_DIR
# SEARCH_FROM=DIR takes the search's results (search-*.tsv) from an earlier run's OUT_DIR instead
# of running the search again (for a change to the solver only); SOLVER_ONLY=1 runs no search.
# Timed: on a shared machine run it under the timing lock, e.g.
#   flock /work/logs/timed.lock nice -n 0 scripts/tinue-bench-run.sh ...
set -euo pipefail
bin=${1:?menhir binary}
bench=${2:?bench file}
out=${3:?output directory}
here=$(dirname "$0")
mkdir -p "$out"
"$bin" tinue --positions "$bench" --movetime 1000 --hash 64 --half-komi 4 > "$out/solver-1s.tsv" 2> "$out/solver-1s.err"
if [ -n "${SOLVER_ONLY:-}" ]; then
    :
elif [ -n "${SEARCH_FROM:-}" ]; then
    cp "$SEARCH_FROM"/search-1s.tsv "$SEARCH_FROM"/search-10s.tsv "$SEARCH_FROM"/search-10s-input.txt "$out/"
else
    python3 "$here/tinue-search-bench.py" "$bin" "$bench" 1000 4 > "$out/search-1s.tsv" 2> "$out/search-1s.err"
fi
# The lines each left unknown at 1 s (the positions' own lines, comments kept).
python3 - "$bench" "$out/solver-1s.tsv" > "$out/solver-10s-input.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
for row in open(sys.argv[2]):
    f = row.rstrip("\n").split("\t")
    if len(f) > 1 and f[1] == "unknown" and f[0].isdigit():
        print(lines[int(f[0]) - 1])
PY
[ -n "${SEARCH_FROM:-}${SOLVER_ONLY:-}" ] || python3 - "$bench" "$out/search-1s.tsv" > "$out/search-10s-input.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
for row in open(sys.argv[2]):
    f = row.rstrip("\n").split("\t")
    if len(f) > 1 and f[1] == "unknown" and f[0].isdigit():
        print(lines[int(f[0]) - 1])
PY
if [ -s "$out/solver-10s-input.txt" ]; then
    "$bin" tinue --positions "$out/solver-10s-input.txt" --movetime 10000 --hash 256 --half-komi 4 > "$out/solver-10s.tsv" 2> "$out/solver-10s.err"
fi
if [ -z "${SEARCH_FROM:-}${SOLVER_ONLY:-}" ] && [ -s "$out/search-10s-input.txt" ]; then
    python3 "$here/tinue-search-bench.py" "$bin" "$out/search-10s-input.txt" 10000 4 > "$out/search-10s.tsv" 2> "$out/search-10s.err"
fi
echo done > "$out/DONE"
