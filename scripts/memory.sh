#!/usr/bin/env bash
# Peak resident memory (VmHWM) of `menhir` over long self-played games, for Hash 1, 16, 64 and
# 1024 MB: each engine plays PLIES plies against itself over TEI (8x8, new games as needed),
# then its /proc/<pid>/status VmHWM is read. Prints the peak, and the peak minus the Hash setting
# (the fixed overhead). Linux only.
#
#   scripts/memory.sh                      # 300 plies at movetime 30 ms, Threads 2
#   PLIES=1000 MOVETIME=50 THREADS=1 scripts/memory.sh 16 64
#
# Environment: PLIES, MOVETIME (ms), THREADS, SIZE (default 8), BIN (default: release build).
set -euo pipefail

repo=$(git rev-parse --show-toplevel)
cd "$repo"
plies=${PLIES:-300}
movetime=${MOVETIME:-30}
threads=${THREADS:-2}
size=${SIZE:-8}
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    bin=$repo/target/release/menhir
else
    bin=$BIN
fi
hashes=("$@")
[ ${#hashes[@]} -gt 0 ] || hashes=(1 16 64 1024)
echo "menhir peak memory: $plies plies of ${size}x${size} at movetime $movetime ms, Threads $threads"

for hash in "${hashes[@]}"; do
    coproc ENGINE { exec "$bin"; }
    pid=$ENGINE_PID
    send() { echo "$1" >&"${ENGINE[1]}"; }
    reply() { # the first line starting with $1
        local line
        while IFS= read -r -t 30 -u "${ENGINE[0]}" line; do
            if [[ $line == "$1"* ]]; then REPLY_LINE=$line; return 0; fi
        done
        echo "no '$1' from menhir" >&2
        exit 1
    }
    send "setoption name Hash value $hash"
    send "setoption name Threads value $threads"
    send "isready"
    reply readyok
    moves=()
    games=1
    send "teinewgame $size"
    for ((ply = 0; ply < plies; ply++)); do
        send "position startpos moves ${moves[*]}"
        send "go movetime $movetime"
        reply bestmove
        move=${REPLY_LINE#bestmove }
        if [[ $move == "--" || ${#moves[@]} -ge 400 ]]; then
            moves=()
            games=$((games + 1))
            send "teinewgame $size"
            continue
        fi
        moves+=("$move")
        # The game may have just ended: a road or full board answers `bestmove --` next ply.
    done
    hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
    rss_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
    send "quit"
    wait "$pid" 2>/dev/null || true
    awk -v h="$hash" -v hwm="$hwm_kb" -v rss="$rss_kb" -v g="$games" 'BEGIN {
        printf "Hash %5d MB: peak RSS %7.1f MB (now %7.1f MB) = Hash + %5.1f MB, %d games\n",
            h, hwm / 1024, rss / 1024, hwm / 1024 - h, g
    }'
done
