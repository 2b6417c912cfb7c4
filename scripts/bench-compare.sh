#!/usr/bin/env bash
# Runs `menhir bench` for the working tree and a baseline revision (built as in selfplay.sh)
# and prints each build's nodes and nps and their ratios (new / base). Extra arguments go to
# `menhir bench` (e.g. --depth 6).
#
#   scripts/bench-compare.sh
#   BASE=HEAD~1 scripts/bench-compare.sh --depth 7
set -euo pipefail

source "$(dirname "$0")/build-pair.sh"

# `menhir bench` ends with a line `<nodes> nodes <nps> nps`.
run_bench() {
    "$1" bench "${@:2}" 2>/dev/null | tail -n 1
}
new_line=$(run_bench "$new_bin" "$@")
base_line=$(run_bench "$base_bin" "$@")
echo "new:  $new_line"
echo "base: $base_line (${base_sha:0:10})"
awk -v n="$new_line" -v b="$base_line" 'BEGIN {
    split(n, x, " "); split(b, y, " ");
    if (x[2] != "nodes" || y[2] != "nodes") { print "bench output not understood" > "/dev/stderr"; exit 1 }
    printf "nodes ratio %.4f, nps ratio %.4f\n", x[1] / y[1], x[3] / y[3]
}'
