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
#   update_profile  where the first update's main-thread time goes, by the
#                   browser's own trace events (layout, style, wasm
#                   compilation, script), median per update.
# With BENCH_BEFORE=DIR (a previous build's dist/, from
# scripts/build-before.sh) both builds are measured side by side, in
# alternating rounds, and every goal shows the previous figure beside.
# Run it on a quiet machine (load average below 1: no build, test run or
# other browser meanwhile); the load average is printed with the figures.
#   ./scripts/bench-page.sh [--no-build] [page|responsiveness|update_profile]
#   BENCH_LOADS=20 BENCH_DRAG=300 ./scripts/bench-page.sh --no-build page
#   ./scripts/build-before.sh main && BENCH_BEFORE=target/before/dist ./scripts/bench-page.sh
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
