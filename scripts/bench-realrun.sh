#!/usr/bin/env bash
# "Run for real" benchmark (printed, not a pass/fail test): builds dist/
# unless --no-build, then runs the study at a small scale with each yield
# primitive (scheduler.yield(), MessageChannel, setTimeout(0), rAF +
# setTimeout) in headless Chromium, served cross-origin isolated, and prints
# measured against simulated p50/p95, the yield cost, frames and probe delay.
# tests/benches/realrun.rs.
#   ./scripts/bench-realrun.sh [--no-build]
#   BENCH_REAL_SCALE=0.2 BENCH_REAL_REPEATS=5 ./scripts/bench-realrun.sh --no-build
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
if [ "${1:-}" != "--no-build" ]; then
  trunk build
fi
exec cargo bench -q -p tailslice-e2e --profile dev --bench realrun
