#!/usr/bin/env bash
# What embedding costs, in headless Chromium (printed, each figure beside its
# goal; never a pass/fail test): the full page's first view by file (goal
# <= 250 KB gzipped), the live snippet's loader (goal <= 5 KB gzipped), and
# a host page of another origin holding five live snippets as the Embed
# dialog writes them, loaded BENCH_LOADS times (default 5): bytes fetched
# from the deployment before any click (goal <= 100 KB, no .wasm), the
# host's longest main-thread task while loading (goal <= 50 ms) and click
# to live table (goal <= 1 s). Builds dist/ unless --no-build.
#   ./scripts/bench-embed.sh [--no-build]
#   BENCH_LOADS=10 ./scripts/bench-embed.sh --no-build
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
if [ "${1:-}" != "--no-build" ]; then
  trunk build
fi
# The dev profile: the harness shares the e2e tests' build (the page itself
# is dist/, built by Trunk in release).
exec cargo bench -q -p tailslice-e2e --profile dev --bench embed
