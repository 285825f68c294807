#!/usr/bin/env bash
# Records the trace fixtures with real interactions into
# crate/tests/fixtures/traces/ (or $TRACE_FIXTURES_DIR): headless Chromium
# traces tests/pages/interactions.html with DevTools' timeline categories
# while clicks and key presses arrive through its input path; beside each
# gzipped trace, the page's own Event Timing readings of the same run.
# tests/tests/record_traces.rs (an ignored test). Needs no build of dist/.
#   ./scripts/record-traces.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
exec cargo test -q -p tailslice-e2e --test record_traces -- --ignored --nocapture
