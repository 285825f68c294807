#!/usr/bin/env bash
# THE test command: ./scripts/test.sh
#
#   1. setup (tools; quick when present)
#   2. cargo fmt --check
#   3. cargo clippy -D warnings (host, all targets; and the wasm32 library)
#   4. cargo test: core unit/property/CLI tests
#   5. trunk build (release) -> dist/
#   6. wasm-bindgen tests in headless Chromium (only if some exist: see below)
#   7. end-to-end tests against dist/ in headless Chromium (tests/ crate)
#
# Stops at the first failing step. The output ends with cargo test's summary.
# Environment: SKIP_SETUP=1 skips step 1; E2E_HEADFUL=1 shows the browser.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
step_start=$started
step() {
  local now; now=$(date +%s)
  printf '\n\033[1m==> [%3ss] %s\033[0m\n' "$((now - started))" "$*"
  step_start=$now
}
fail() {
  printf '\n\033[1;31mFAILED:\033[0m %s\n' "$*" >&2
  exit 1
}

if [ "${SKIP_SETUP:-0}" != 1 ]; then
  step "setup"
  ./scripts/setup.sh || fail "setup: could not install the tools (see above)"
fi
# shellcheck source=env.sh
source scripts/env.sh

step "cargo fmt --all -- --check"
cargo fmt --all -- --check || fail "formatting: run \`cargo fmt --all\`"
# The fuzz crate is outside the workspace (scripts/fuzz.sh builds it).
cargo fmt --manifest-path crate/fuzz/Cargo.toml -- --check ||
  fail "formatting: run \`cargo fmt --manifest-path crate/fuzz/Cargo.toml\`"

step "cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings || fail "clippy (host) reported warnings/errors"

step "cargo clippy -p tailslice --lib --target wasm32-unknown-unknown -- -D warnings"
cargo clippy -p tailslice --lib --target wasm32-unknown-unknown -- -D warnings ||
  fail "clippy (wasm32: the web bindings) reported warnings/errors"
step "cargo clippy -p tailslice-trace-web --lib --target wasm32-unknown-unknown -- -D warnings"
cargo clippy -p tailslice-trace-web --lib --target wasm32-unknown-unknown -- -D warnings ||
  fail "clippy (wasm32: the trace reader module) reported warnings/errors"

step "cargo test --workspace --exclude tailslice-e2e"
cargo test --workspace --exclude tailslice-e2e || fail "core tests (cargo test -p tailslice)"

step "trunk build (release) -> dist/"
trunk build || fail "trunk build"
ls -l dist/

# wasm-bindgen tests: any crate/tests/*.rs that uses wasm_bindgen_test runs as
# `--test <name>`; wasm_bindgen_test in crate/src/ adds `--lib`.
wasm_tests=()
for f in crate/tests/*.rs; do
  [ -f "$f" ] && grep -q 'wasm_bindgen_test' "$f" && wasm_tests+=(--test "$(basename "$f" .rs)")
done
if grep -rqs 'wasm_bindgen_test' crate/src; then
  wasm_tests+=(--lib)
fi
if [ ${#wasm_tests[@]} -gt 0 ]; then
  step "cargo test --target wasm32-unknown-unknown -p tailslice ${wasm_tests[*]} (headless Chromium)"
  cargo test --target wasm32-unknown-unknown -p tailslice "${wasm_tests[@]}" ||
    fail "wasm-bindgen tests in Chromium"
else
  step "wasm-bindgen tests: SKIPPED (no wasm_bindgen_test in crate/tests/*.rs or crate/src/)"
fi

step "cargo test -p tailslice-e2e (headless Chromium against dist/)"
cargo test -p tailslice-e2e || fail "end-to-end tests (screenshots in tests/artifacts/)"
