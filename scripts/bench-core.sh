#!/usr/bin/env bash
# The page worker's everyday jobs timed natively (printed, each beside the
# limit the core tests held it to; never a pass/fail test): every scenario
# at its default knobs and the sweeps panel's 1000-seed sweep, best of
# BENCH_RUNS (default 5). crate/benches/jobs.rs, release build.
#   ./scripts/bench-core.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
exec cargo bench -q -p tailslice --bench jobs
