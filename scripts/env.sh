# shellcheck shell=bash
# Common environment for tailslice scripts. Source it from anywhere:
#   source scripts/env.sh
# Puts the project's pinned tools first on PATH (binaryen 132 from npm in
# .tools/, cargo-installed trunk and wasm-bindgen in ~/.cargo/bin) and keeps
# Trunk offline.

TAILSLICE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export TAILSLICE_ROOT

_tailslice_prepend_path() {
  case ":$PATH:" in
    *":$1:"*) ;;
    *) PATH="$1:$PATH" ;;
  esac
}
_tailslice_prepend_path "${CARGO_HOME:-$HOME/.cargo}/bin"
_tailslice_prepend_path "$TAILSLICE_ROOT/.tools/node_modules/.bin"
export PATH
unset -f _tailslice_prepend_path

# Trunk: never download tools, never ask GitHub for a newer Trunk.
export TRUNK_SKIP_VERSION_CHECK=true
export TRUNK_OFFLINE=true

# wasm-bindgen-test-runner and the e2e harness look for these.
if [ -z "${CHROMEDRIVER:-}" ] && [ -x /usr/bin/chromedriver ]; then
  export CHROMEDRIVER=/usr/bin/chromedriver
fi

# Pinned versions (keep in sync with Trunk.toml and crate/Cargo.toml).
TAILSLICE_TRUNK_VERSION=0.21.14
TAILSLICE_WASM_BINDGEN_VERSION=0.2.130
TAILSLICE_BINARYEN_VERSION=132.0.0
TAILSLICE_TERSER_VERSION=5.51.4
TAILSLICE_ESBUILD_VERSION=0.28.2
# Lighthouse: only its INP audit, run by scripts/lighthouse-inp.mjs in the
# tests (12.x: the last major that runs on Node 20).
TAILSLICE_LIGHTHOUSE_VERSION=12.8.2
