#!/usr/bin/env bash
# Time safety: Menhir against itself at a very fast clock through `menhir match`, every size 3-8,
# Threads 1 and 2, komi 0 and 2. Counts the games lost on time, by an illegal or malformed move,
# or by a crash: all must be zero. Prints each batch's command and the totals. Exits non-zero
# on any such fault, when a batch's `menhir match` fails, or when fewer games were played than
# planned (ROUNDS x 24 settings x GAMES); `tests/scripts.rs` checks this with a fake binary.
#
# Games are played in rounds of 2 games (colours swapped) for each of the 24 settings, so a run
# stopped early still covers every size; the totals count every finished batch.
#
#   scripts/timesafety.sh                  # 21 rounds x 24 settings x 2 games = 1008 games
#   ROUNDS=2 TC=2+0.02 scripts/timesafety.sh
#   scripts/timesafety.sh --totals         # totals of the batches already played
#
# Environment: ROUNDS (default 21), GAMES (per batch, default 2), TC (default 1+0.01), CONCURRENCY (default 1: two
# cores, and Threads 2 uses both), OUT (default target/timesafety: summaries and PTN files),
# BIN (default: a fresh release build).
set -euo pipefail

repo=$(git rev-parse --show-toplevel)
cd "$repo"
rounds=${ROUNDS:-21}
games=${GAMES:-2}
tc=${TC:-1+0.01}
concurrency=${CONCURRENCY:-1}
out=${OUT:-$repo/target/timesafety}
mkdir -p "$out"
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    bin=$repo/target/release/menhir
else
    bin=$BIN
fi
echo "menhir time safety: $rounds rounds of $games games per setting at $tc, binary $bin ($(git rev-parse --short HEAD))"
[ "${1:-}" = "--totals" ] || rm -f "$out"/r*-s*-t*-k*.txt "$out"/r*-s*-t*-k*.failed
planned=$((rounds * 24 * games))

# `--totals` only adds up the batches already played (for a run stopped early).
[ "${1:-}" = "--totals" ] && rounds=0

started=$(date +%s)
for ((round = 1; round <= rounds; round++)); do
for size in 3 4 5 6 7 8; do
    for threads in 1 2; do
        for komi in 0 2; do
            name="r${round}-s${size}-t${threads}-k${komi}"
            cmd=("$bin" match
                --engine "name=a,cmd=$bin,option.Threads=$threads"
                --engine "name=b,cmd=$bin,option.Threads=$threads"
                --size "$size" --komi "$komi" --tc "$tc" --games "$games"
                --random-plies 2 --seed "$round$size$threads$komi" --concurrency "$concurrency"
                --ptn "$out/$name.ptn")
            echo "+ ${cmd[*]}"
            rm -f "$out/$name.ptn"
            if ! "${cmd[@]}" > "$out/$name.txt" 2> "$out/$name.err"; then
                echo "  menhir match failed: $(tail -1 "$out/$name.err")"
                touch "$out/$name.failed"
            fi
            grep -E '^(Games|Terminations)' "$out/$name.txt" | sed 's/^/  /' || true
        done
    done
done
done
elapsed=$(( $(date +%s) - started ))

# Totals over every batch's summary; any fault, failed batch or missing game fails the run.
shopt -s nullglob
summaries=("$out"/r*-s*-t*-k*.txt)
failed=("$out"/r*-s*-t*-k*.failed)
status=0
cat /dev/null "${summaries[@]}" | awk -v elapsed="$elapsed" '
    /^Games:/ { games += $2 }
    /^Terminations:/ {
        line = $0
        while (match(line, /(time|illegal move|malformed move|crash) [0-9]+/)) {
            part = substr(line, RSTART, RLENGTH)
            n = part; sub(/.* /, "", n); kind = part; sub(/ [0-9]+$/, "", kind)
            faults[kind] += n
            line = substr(line, RSTART + RLENGTH)
        }
    }
    END {
        printf "TOTAL: %d games in %d s; lost on time %d, illegal move %d, malformed move %d, crash %d\n",
            games, elapsed, faults["time"], faults["illegal move"], faults["malformed move"], faults["crash"]
        bad = faults["time"] + faults["illegal move"] + faults["malformed move"] + faults["crash"]
        exit bad > 0
    }' || { echo "FAILED: a game was lost on time, by an illegal or malformed move, or by a crash"; status=1; }
if [ ${#failed[@]} -gt 0 ]; then
    names=$(for f in "${failed[@]}"; do basename "$f" .failed; done | tr '\n' ' ')
    echo "FAILED: ${#failed[@]} batch(es) where menhir match failed: $names(see $out/<batch>.err)"
    status=1
fi
played=$(cat /dev/null "${summaries[@]}" | awk '/^Games:/ { games += $2 } END { print games + 0 }')
if [ "${1:-}" != "--totals" ] && [ "$played" -lt "$planned" ]; then
    echo "FAILED: $played games played, $planned planned"
    status=1
fi
exit $status
