#!/usr/bin/env bash
# Page speed benchmark (printed, not a pass/fail test): builds dist/ unless
# --no-build, then loads the default experiment BENCH_LOADS times (default 10)
# and drags the quantum slider through BENCH_DRAG frames (default 100) in
# headless Chromium, printing p50/p95 of the page's User Timing measures
# (tailslice:simulate, tailslice:render, tailslice:update), the long tasks
# seen while dragging, and the gzipped transfer size; then times the sweeps
# panel's 1000-seed sweep.
#   ./scripts/bench-page.sh [--no-build]
#   BENCH_LOADS=20 BENCH_DRAG=300 ./scripts/bench-page.sh --no-build
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
if [ "${1:-}" != "--no-build" ]; then
  trunk build
fi
cargo test -q -p tailslice-e2e --test page_bench -- --ignored --nocapture
# The 1000-seed × 400-task × 2-policy sweep in the sweeps panel (request to drawn).
exec cargo test -q -p tailslice-e2e --test page_sweep sweep_bench -- --ignored --nocapture
