#!/usr/bin/env bash
# The page's speed, size and responsiveness in headless Chromium (printed,
# each figure beside its goal; never a pass/fail test). Builds dist/ unless
# --no-build, then runs two benchmarks of the tests crate (tests/benches/):
#   page            the first view's gzipped size (goal <= 250 KB); BENCH_LOADS
#                   loads (default 10, cached after the first): navigation to
#                   the first table and Gantt (goal <= 100 ms p95 warm) and the
#                   first update (goal <= 16 ms p95); the quantum slider dragged
#                   through BENCH_DRAG frames (default 100): updates (goal
#                   <= 16 ms p95) and main-thread tasks over 50 ms (goal: none);
#                   the sweeps panel's 1000-seed sweep.
#   responsiveness  the longest main-thread task while large results are shown
#                   (goal <= 50 ms), and how soon edits are answered during
#                   long runs.
#   ./scripts/bench-page.sh [--no-build] [page|responsiveness]
#   BENCH_LOADS=20 BENCH_DRAG=300 ./scripts/bench-page.sh --no-build page
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  trunk build
fi
# The dev profile: the harness shares the e2e tests' build (the page itself
# is dist/, built by Trunk in release).
for bench in ${1:-page responsiveness}; do
  cargo bench -q -p tailslice-e2e --profile dev --bench "$bench"
done
