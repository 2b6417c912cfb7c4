#!/usr/bin/env bash
# Prints Menhir's search-speed figures (issue 3): bench nps; depth reached in 2 s and 10 s from
# the 6x6 start and a 6x6 midgame (one thread); time to a fixed depth with Threads 2 vs 1, on
# those two positions and summed over the 30 bench positions (one position alone varies a lot
# from run to run: two threads race).
# Usage: scripts/search-speed.sh [start_depth] [midgame_depth]   (build: cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/menhir
START_DEPTH=${1:-10}
MID_DEPTH=${2:-9}
[ -x "$BIN" ] || cargo build --release --quiet
MIDGAME="x2,1,x3/x,1,1,2,x2/x2,1,2,21,221C/x,111112C,2,112112,x2/x2,2,x,1,1/x,1,2,2S,x2 1 28"

field() { # field NAME LINE -> value after NAME
  awk -v k="$1" '{for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit }}' <<<"$2"
}
last_info() { grep '^info' | tail -1; }
speedup() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 1) }'; } # one thread / two

echo "bench: $($BIN bench | tail -1)"
for ms in 2000 10000; do
  start=$($BIN analyze --size 6 --movetime "$ms" | last_info)
  mid=$($BIN analyze --tps "$MIDGAME" --movetime "$ms" | last_info)
  echo "movetime ${ms} ms: 6x6 start depth $(field depth "$start"), 6x6 midgame depth $(field depth "$mid")"
done
for name in start midgame; do
  if [ "$name" = start ]; then pos=(--size 6); depth=$START_DEPTH; else pos=(--tps "$MIDGAME"); depth=$MID_DEPTH; fi
  t1=$($BIN analyze "${pos[@]}" --depth "$depth" --threads 1 | last_info)
  t2=$($BIN analyze "${pos[@]}" --depth "$depth" --threads 2 | last_info)
  ms1=$(field time "$t1"); ms2=$(field time "$t2")
  echo "time to depth $depth ($name): Threads 1 ${ms1} ms, Threads 2 ${ms2} ms, speed-up $(speedup "$ms1" "$ms2")x"
done
seconds() { $BIN bench "$@" | tail -1 | awk '{ printf "%.2f", $1 / $3 }'; } # nodes / nps
b1=$(seconds --threads 1); b2=$(seconds --threads 2)
echo "bench time to depth (30 positions): Threads 1 ${b1} s, Threads 2 ${b2} s, speed-up $(speedup "$b1" "$b2")x"
