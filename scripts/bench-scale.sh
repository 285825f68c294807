#!/usr/bin/env bash
# 1,000,000-task experiments natively and on the page, side by side in one
# run (printed, each figure beside its goal; never a pass/fail test): the
# default mix (fifo + rr) and an imported 1,000,000-line list, each the best
# of three, with the ratio page / native (goal <= 2x) and the longest
# main-thread task seen on the page (Long Tasks API; goal <= 50 ms).
# tests/benches/scale.rs. Builds the release CLI and dist/ unless --no-build.
# BENCH_BEFORE=DIR (a previous build's dist/, scripts/build-before.sh)
# measures it beside the current build.
#   ./scripts/bench-scale.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
if [ "${1:-}" != "--no-build" ]; then
  cargo build -q --release -p tailslice
  trunk build
fi
export TAILSLICE_NATIVE="$PWD/target/release/tailslice"
exec cargo bench -q -p tailslice-e2e --profile dev --bench scale
