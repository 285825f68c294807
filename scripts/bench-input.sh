#!/usr/bin/env bash
# Input delay in a real browser beside the model (printed, not a pass/fail
# test): headless Chromium replays busy tasks whole and sliced with
# scheduler.yield() at 50 and 16 ms while key presses arrive at uniformly
# random times through its input path; prints measured against modelled
# mean/p50/p98, the transit time and the share handled at the yield.
# tests/benches/input_delay.rs. Needs no build of dist/ (the page is a test
# fixture in tests/pages/). Measure on a quiet machine: the load average is
# printed before and after.
#   ./scripts/bench-input.sh
#   BENCH_INPUT_REPEATS=20 BENCH_INPUT_PRESSES=100 ./scripts/bench-input.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
uptime
exec cargo bench -q -p tailslice-e2e --profile dev --bench input_delay
