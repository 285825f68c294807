#!/usr/bin/env bash
# Fuzz every parser of outside input with cargo fuzz (libFuzzer):
#
#   ./scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# SECONDS_PER_TARGET defaults to 60; TARGETs default to every file in
# crate/fuzz/src/bin/ (one target per parser). Each target starts from its
# committed seed corpus, crate/fuzz/corpus/<target>/ (read only: new inputs
# go to a scratch directory), and fails on a panic, a broken property
# (crate/tests/parser_props), an input slower than 10 s or 2 GB of memory.
# A crash leaves its input and the log in crate/fuzz/artifacts/<target>/;
# the script prints how to reproduce and minimise it, and exits 1 after the
# last target.
# The final line per target gives libFuzzer's executions and coverage.
# Targets run one after the other, under nice (the machine may be shared).
#
# Environment: FUZZ_KEEP=DIR keeps each run's new inputs in DIR/<target>/
# (to pick seeds from, or for `cargo fuzz cmin`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

secs=${1:-60}
shift || true
case $secs in
'' | *[!0-9]*) echo "usage: $0 [SECONDS_PER_TARGET] [TARGET...] (seconds: a whole number)" >&2; exit 2 ;;
esac

# cargo-fuzz, pinned, installed once (a minute or two of compiling).
CARGO_FUZZ_VERSION=0.13.2
if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  echo "==> installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

# cargo fuzz passes unstable flags (-Zsanitizer=address and friends) that a
# stable toolchain accepts only with RUSTC_BOOTSTRAP; the sanitizer runtimes
# ship with stable rustc, so no nightly toolchain is needed.
export RUSTC_BOOTSTRAP=1

fuzz_dir=crate/fuzz
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for f in "$fuzz_dir"/src/bin/*.rs; do targets+=("$(basename "$f" .rs)"); done
fi
for t in "${targets[@]}"; do
  [ -f "$fuzz_dir/src/bin/$t.rs" ] || { echo "unknown target '$t': expected one of $(ls "$fuzz_dir/src/bin" | sed 's/\.rs$//' | tr '\n' ' ')" >&2; exit 2; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$fuzz_dir/.." # cargo fuzz finds crate/fuzz from the crate

echo "==> building ${#targets[@]} fuzz targets"
nice cargo fuzz build -O --debug-assertions

run_one() {
  local t=$1 log="$scratch/$t.log" work="$scratch/corpus/$t"
  mkdir -p "$work" "fuzz/corpus/$t"
  # The first corpus directory receives new inputs; the committed one is
  # only read.
  if nice cargo fuzz run -O --debug-assertions "$t" "$work" "fuzz/corpus/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 >"$log" 2>&1; then
    local runs cov ft
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
    cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}')
    ft=$(grep -Eo 'ft: [0-9]+' "$log" | tail -1 | awk '{print $2}')
    printf 'ok    %-16s %10s runs in %ss, coverage %s edges, %s features, %s new inputs\n' \
      "$t" "${runs:-?}" "$secs" "${cov:-?}" "${ft:-?}" "$(find "$work" -type f | wc -l)"
    if [ -n "${FUZZ_KEEP:-}" ]; then mkdir -p "$FUZZ_KEEP/$t" && cp -a "$work/." "$FUZZ_KEEP/$t/"; fi
  else
    mkdir -p "fuzz/artifacts/$t"
    cp "$log" "fuzz/artifacts/$t/fuzz.log"
    printf 'FAIL  %s\n' "$t"
    grep -E "panicked at|ERROR: libFuzzer|SUMMARY|Test unit written|error\[|error:" "$log" | head -20 | sed 's/^/      /'
    echo "      log:        crate/fuzz/artifacts/$t/fuzz.log"
    echo "      reproduce:  cd crate && RUSTC_BOOTSTRAP=1 cargo fuzz run $t fuzz/artifacts/$t/<crash-file>"
    echo "      minimise:   cd crate && RUSTC_BOOTSTRAP=1 cargo fuzz tmin $t fuzz/artifacts/$t/<crash-file>"
    return 1
  fi
}

echo "==> fuzzing ${#targets[@]} targets for ${secs}s each"
failed=()
for t in "${targets[@]}"; do
  run_one "$t" || failed+=("$t")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]} (see above)" >&2
  exit 1
fi
echo "all ${#targets[@]} targets ran ${secs}s each without a crash"
