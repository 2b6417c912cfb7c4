#!/usr/bin/env bash
# Self-play: builds the working tree and a baseline revision in release mode, in separate
# folders, and plays `menhir match` between them. Extra arguments go to `menhir match` and
# override the defaults (clap keeps the last value of a repeated flag).
#
#   scripts/selfplay.sh                       # working tree vs main, 6x6, 10+0.1, 100 games
#   BASE=HEAD~3 scripts/selfplay.sh --games 400 --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05
#
# Environment: BASE (git revision, default: main, else origin/main, else HEAD), WORK (build folder,
# default: target/selfplay), OPTIONS (engine options for both sides, e.g. `option.Threads=2`,
# comma-separated as in `menhir match --engine`).
set -euo pipefail

source "$(dirname "$0")/build-pair.sh"
jobs=$(nproc 2>/dev/null || echo 2)
# Each game runs two engines; one game per two cores keeps them from stealing time.
concurrency=$(( jobs / 2 > 0 ? jobs / 2 : 1 ))

# Defaults for the flags the caller did not give (clap rejects a repeated flag).
defaults=()
default() {
    local flag=$1
    shift
    for arg in "${user_args[@]}"; do
        case "$arg" in "$flag" | "$flag="*) return ;; esac
    done
    defaults+=("$flag" "$@")
}
user_args=("$@")
default --size 6
default --tc 10+0.1
default --games 100
default --concurrency "$concurrency"
default --ptn "$work/selfplay.ptn"
# Random openings make the games differ; --openings replaces them.
for arg in "$@"; do
    case "$arg" in --openings | --openings=*) user_args+=(--random-plies) ;; esac
done
default --random-plies 2

options=${OPTIONS:+,$OPTIONS}
exec "$new_bin" match \
    --engine "name=new,cmd=$new_bin$options" \
    --engine "name=base-${base_sha:0:7},cmd=$base_bin$options" \
    "${defaults[@]}" "$@"
