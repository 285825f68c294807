#!/usr/bin/env bash
# A 200 MB trace opened on the page (printed, not a pass/fail test): how
# long until its run and its Responsiveness section are drawn, and the
# main-thread tasks meanwhile, each with its CPU time (goal: none over
# 50 ms). tests/benches/trace.rs generates the trace (and deletes it after).
# Builds dist/ unless --no-build.
#   ./scripts/bench-trace.sh [--no-build]
#   TRACE_MB=50 ./scripts/bench-trace.sh --no-build
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
if [ "${1:-}" != "--no-build" ]; then
  trunk build
fi
exec cargo bench -q -p tailslice-e2e --profile dev --bench trace
