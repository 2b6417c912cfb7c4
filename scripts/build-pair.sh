# Sourced by selfplay.sh and bench-compare.sh: builds the working tree and a baseline revision
# in release mode, in separate folders, and sets `new_bin`, `base_bin` and `base_sha`.
#
# Environment: BASE (git revision, default: main, else origin/main, else HEAD), WORK (build
# folder, default: target/selfplay).

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
