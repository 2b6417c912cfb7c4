#!/usr/bin/env bash
# One generation of the evaluation's training loop, resumable: self-play data in shards (each
# finished shard is a file of its own, so a stopped run loses at most the shard in progress),
# then the fit of one size's weights.
#
#   scripts/train-generation.sh gen1                  # 6x6, komi 2, 20000 games in 40 shards
#   SIZE=5 GAMES=10000 scripts/train-generation.sh gen1
#
# Environment: SIZE (6), KOMI (2), GAMES (20000), SHARDS (40), NODES (5000), SEED (1),
# THREADS (nproc), EPOCHS (20), LAMBDA (0.5), DIR (target/train/NAME-SIZExSIZE), BIN (menhir to
# use; default: built here in release mode), NICE (0; 19 lets matches run beside it).
# Output: DIR/shard-K.data, DIR/datagen.log, DIR/tune.log and DIR/eval-SIZExSIZE.txt, the
# weights file to copy over weights/eval-SIZExSIZE.txt before the match that decides it.
set -euo pipefail

name=${1:?usage: scripts/train-generation.sh NAME}
size=${SIZE:-6}
komi=${KOMI:-2}
games=${GAMES:-20000}
shards=${SHARDS:-40}
nodes=${NODES:-5000}
seed=${SEED:-1}
threads=${THREADS:-$(nproc 2>/dev/null || echo 2)}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
dir=${DIR:-$repo/target/train/$name-${size}x$size}
mkdir -p "$dir"
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
    BIN=$repo/target/release/menhir
fi
run() { nice -n "${NICE:-0}" "$@"; }

for ((k = 0; k < shards; k++)); do
    [ -f "$dir/shard-$k.data" ] && continue
    run "$BIN" datagen --size "$size" --komi "$komi" --games "$games" --nodes "$nodes" \
        --threads "$threads" --seed "$seed" --shard "$k/$shards" \
        --out "$dir/shard-$k.data" 2>>"$dir/datagen.log"
done

run "$BIN" tune-eval "$dir"/shard-*.data --size "$size" --epochs "${EPOCHS:-20}" \
    --lambda "${LAMBDA:-0.5}" --threads "$threads" --out "$dir/eval-${size}x$size.txt" \
    2>&1 | tee "$dir/tune.log"
echo "weights: $dir/eval-${size}x$size.txt (copy over weights/eval-${size}x$size.txt, rebuild,"
echo "then scripts/selfplay.sh --size $size --komi $komi --tc 5+0.05 --sprt elo0=0,elo1=10 ...)"
