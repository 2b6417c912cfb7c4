#!/usr/bin/env bash
# One network of the evaluation's training loop, resumable: self-play data in binary shards
# (each finished shard is a file of its own, so a stopped run loses at most the shard in
# progress; run it again to go on), then the trainer (trainer/train.py, PyTorch).
#
#   scripts/network-generation.sh net1                 # 6x6, komi 2, 40000 games in 80 shards
#   SIZE=5 GAMES=60000 scripts/network-generation.sh net1
#   DATA_ONLY=1 scripts/network-generation.sh net1     # only the data (e.g. on a batch node)
#
# Environment: SIZE (6), KOMI (2; 0 at 4x4 and below), GAMES (40000), SHARDS (80), NODES
# (5000), SEED (101), THREADS (nproc), NICE (0), DIR (target/train/NAME-SIZExSIZE), BIN (menhir
# to use; default: built here in release mode), PYTHON (python with torch and numpy; default
# .venv/bin/python, see docs/training.md), and the trainer's HIDDEN (64), EPOCHS (30), BATCH
# (8192), LR (0.01, decaying to LR_END 0.0005 on a cosine), LAMBDA (0.5) and RESIDUAL (1: the
# network corrects the linear evaluation, file kind 1; 0: it stands alone). Output: DIR/shard-K.mhd, DIR/datagen.log, DIR/train.log,
# DIR/checkpoint.pt and DIR/nnue-SIZExSIZE.mhn, the network to try with
# `--engine ...,option.EvalFile=DIR/nnue-SIZExSIZE.mhn` before it is compiled in.
set -euo pipefail

name=${1:?usage: scripts/network-generation.sh NAME}
size=${SIZE:-6}
if [ "$size" -le 4 ]; then komi=${KOMI:-0}; else komi=${KOMI:-2}; fi
games=${GAMES:-40000}
shards=${SHARDS:-80}
nodes=${NODES:-5000}
seed=${SEED:-101}
threads=${THREADS:-$(nproc 2>/dev/null || echo 2)}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
dir=${DIR:-$repo/target/train/$name-${size}x$size}
python=${PYTHON:-$repo/.venv/bin/python}
mkdir -p "$dir"
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
    BIN=$repo/target/release/menhir
fi
run() { nice -n "${NICE:-0}" "$@"; }

for ((k = 0; k < shards; k++)); do
    [ -f "$dir/shard-$k.mhd" ] && continue
    run "$BIN" datagen --size "$size" --komi "$komi" --games "$games" --nodes "$nodes" \
        --threads "$threads" --seed "$seed" --shard "$k/$shards" \
        --out "$dir/shard-$k.mhd" 2>>"$dir/datagen.log"
done
[ -n "${DATA_ONLY:-}" ] && exit 0

run "$python" "$repo/trainer/train.py" train "$dir"/shard-*.mhd --size "$size" \
    --hidden "${HIDDEN:-64}" --epochs "${EPOCHS:-30}" --batch "${BATCH:-8192}" \
    --lr "${LR:-0.01}" --lr-end "${LR_END:-0.0005}" --lambda "${LAMBDA:-0.5}" \
    --threads "$threads" --augment $([ "${RESIDUAL:-1}" = 1 ] && echo --residual) \
    --checkpoint "$dir/checkpoint.pt" --out "$dir/nnue-${size}x$size.mhn" \
    2>&1 | tee "$dir/train.log"
echo "network: $dir/nnue-${size}x$size.mhn (try it with option.EvalFile=..., then"
echo "scripts/selfplay.sh --size $size --komi $komi --tc 5+0.05 --sprt elo0=0,elo1=10 ...)"
