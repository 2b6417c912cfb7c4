#!/usr/bin/env bash
# Self-play: builds the working tree and a baseline revision in release mode, in separate
# folders, and plays `menhir match` between them. Extra arguments go to `menhir match` and
# override the defaults (clap keeps the last value of a repeated flag).
#
#   scripts/selfplay.sh                       # working tree vs main, 6x6, 10+0.1, 100 games
#   BASE=HEAD~3 scripts/selfplay.sh --games 400 --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05
#
# Environment: BASE (git revision, default: main, else origin/main, else HEAD), WORK (build folder,
# default: target/selfplay).
set -euo pipefail

repo=$(git rev-parse --show-toplevel)
cd "$repo"
base=${BASE:-$(git rev-parse --verify --quiet main || git rev-parse --verify --quiet origin/main || git rev-parse HEAD)}
base_sha=$(git rev-parse --verify "$base^{commit}")
work=${WORK:-$repo/target/selfplay}
mkdir -p "$work"

# The baseline is exported with `git archive` (no worktree bookkeeping left behind) into a
# folder named by its commit, so rebuilding the same baseline reuses its target/ dir.
base_src="$work/base-$base_sha"
if [ ! -f "$base_src/Cargo.toml" ]; then
    rm -rf "$base_src"
    mkdir -p "$base_src"
    git archive "$base_sha" | tar -x -C "$base_src"
fi
echo "building baseline ${base_sha:0:10} in $base_src" >&2
cargo build --release --quiet --manifest-path "$base_src/Cargo.toml" --target-dir "$base_src/target"
echo "building the working tree" >&2
cargo build --release --quiet --target-dir "$work/new-target"

new_bin="$work/new-target/release/menhir"
base_bin="$base_src/target/release/menhir"
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

exec "$new_bin" match \
    --engine "name=new,cmd=$new_bin" \
    --engine "name=base-${base_sha:0:7},cmd=$base_bin" \
    "${defaults[@]}" "$@"
