#!/usr/bin/env bash
# Builds the page (dist/) and the release CLI of another revision, for the
# benchmarks to measure beside the current build in the same run:
#   ./scripts/build-before.sh [REV]        # default: the parent of HEAD
#   BENCH_BEFORE=target/before/dist ./scripts/bench-page.sh --no-build
# The revision is checked out in target/before/src (a detached git worktree)
# and built with its own target directory, target/before/target, kept
# between runs so that a second build of a nearby revision is quick.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
rev=$(git rev-parse --verify "${1:-HEAD~1}^{commit}")
out="$PWD/target/before"
src="$out/src"
mkdir -p "$out"
if [ -d "$src" ]; then
  git -C "$src" checkout -q --detach "$rev"
else
  git worktree add -q --detach "$src" "$rev"
fi
# The npm tools (wasm-opt, terser, esbuild) are the same for every revision.
ln -sfn "$PWD/.tools" "$src/.tools"
(
  cd "$src"
  export CARGO_TARGET_DIR="$out/target"
  cargo build -q --release -p tailslice
  trunk build --dist "$out/dist"
)
cp "$out/target/release/tailslice" "$out/tailslice"
echo "built $(git log -1 --format='%h %s' "$rev" | cut -c1-72)"
echo "  page: $out/dist   CLI: $out/tailslice"
