#!/usr/bin/env bash
# Self-play games for the tinue benchmark (issue 26): Menhir against itself at a fast fixed
# move time on sizes 4 to 8, with random opening plies so the games differ.
# Usage: scripts/tinue-games.sh MENHIR_BINARY OUT_DIR [GAMES_PER_SIZE]
set -euo pipefail
bin=${1:?menhir binary}
out=${2:?output directory}
games=${3:-24}
mkdir -p "$out"
for size in 4 5 6 7 8; do
    "$bin" match --engine "name=a,cmd=$bin" --engine "name=b,cmd=$bin" \
        --size "$size" --komi 2 --games "$games" --movetime 20 --random-plies 4 \
        --seed "$size" --ptn "$out/selfplay-$size.ptn" > "$out/selfplay-$size.log" 2>&1
done
