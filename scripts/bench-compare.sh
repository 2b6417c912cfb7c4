#!/usr/bin/env bash
# Runs `menhir bench` for the working tree and a baseline revision (built as in selfplay.sh)
# and prints each build's nodes and nps and their ratios (new / base). Extra arguments go to
# `menhir bench` (e.g. --depth 6).
#
#   scripts/bench-compare.sh
#   BASE=HEAD~1 scripts/bench-compare.sh --depth 7
set -euo pipefail

repo=$(git rev-parse --show-toplevel)
cd "$repo"
base=${BASE:-$(git rev-parse --verify --quiet main || git rev-parse --verify --quiet origin/main || git rev-parse HEAD)}
base_sha=$(git rev-parse --verify "$base^{commit}")
work=${WORK:-$repo/target/selfplay}
mkdir -p "$work"
base_src="$work/base-$base_sha"
if [ ! -f "$base_src/Cargo.toml" ]; then
    rm -rf "$base_src"
    mkdir -p "$base_src"
    git archive "$base_sha" | tar -x -C "$base_src"
fi
cargo build --release --quiet --manifest-path "$base_src/Cargo.toml" --target-dir "$base_src/target"
cargo build --release --quiet --target-dir "$work/new-target"

# `menhir bench` ends with a line `<nodes> nodes <nps> nps`.
run_bench() {
    "$1" bench "${@:2}" 2>/dev/null | tail -n 1
}
new_line=$(run_bench "$work/new-target/release/menhir" "$@")
base_line=$(run_bench "$base_src/target/release/menhir" "$@")
echo "new:  $new_line"
echo "base: $base_line (${base_sha:0:10})"
awk -v n="$new_line" -v b="$base_line" 'BEGIN {
    split(n, x, " "); split(b, y, " ");
    if (x[2] != "nodes" || y[2] != "nodes") { print "bench output not understood" > "/dev/stderr"; exit 1 }
    printf "nodes ratio %.4f, nps ratio %.4f\n", x[1] / y[1], x[3] / y[3]
}'
