#!/usr/bin/env bash
# A large trace opened on the page until its Responsiveness section is shown
# (printed, not a pass/fail test): how long it takes, and every main-thread
# task over 50 ms meanwhile (goal: none). The trace is generated first by
# scripts/gen-trace.py (TRACE_MB, default 200; kept in tests/artifacts/ and
# reused). Builds dist/ unless --no-build.
#   ./scripts/bench-responsiveness.sh [--no-build]
#   TRACE_MB=20 ./scripts/bench-responsiveness.sh --no-build
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
mb=${TRACE_MB:-200}
trace=tests/artifacts/bench-trace-${mb}mb.json
mkdir -p tests/artifacts
if [ ! -s "$trace" ]; then
  echo "==> generating a ${mb} MB trace: $trace"
  python3 scripts/gen-trace.py "$mb" "$trace"
fi
if [ "${1:-}" != "--no-build" ]; then
  trunk build
fi
TRACE="$PWD/$trace" exec cargo run -q -p tailslice-e2e --example trace_section
