#!/usr/bin/env bash
# Installs what building and testing tailslice needs. Idempotent: every step
# checks the installed version first, so a second run takes about a second.
#
#   wasm32-unknown-unknown target, rustfmt, clippy   (rustup)
#   chromium + chromium-driver, fonts-wqy-zenhei     (Debian apt)
#   trunk 0.21.14                                    (cargo install --locked, ~8 min)
#   wasm-bindgen-cli 0.2.130                         (cargo install, ~2 min)
#   binaryen 132 (wasm-opt), terser 5 (JS minifier),
#   esbuild 0.28 (JS bundler),
#   lighthouse 12.8 (its INP audit checks tailslice's) (npm, into .tools/)
#
# Only package registries are needed (crates.io, apt, npm).
# Afterwards: `source scripts/env.sh` puts the tools on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[setup] error:\033[0m %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || die "cargo not found: install Rust (https://rustup.rs) first"

# --- Rust target and components -------------------------------------------
if command -v rustup >/dev/null; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "installing Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  for comp in rustfmt clippy; do
    if ! rustup component list --installed 2>/dev/null | grep -q "^$comp"; then
      say "installing rustup component $comp"
      rustup component add "$comp"
    fi
  done
else
  [ -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown" ] ||
    die "no rustup and no wasm32-unknown-unknown std: install the wasm32 target"
fi

# --- Chromium + chromedriver + a CJK font (Debian) -------------------------
# The font only matters for the tests' screenshots of the Chinese page
# (without one, Chromium draws empty boxes); visitors' browsers have their own.
apt_pkgs=()
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  apt_pkgs+=(chromium chromium-driver)
fi
if ! dpkg -s fonts-wqy-zenhei >/dev/null 2>&1; then
  apt_pkgs+=(fonts-wqy-zenhei)
fi
if [ ${#apt_pkgs[@]} -gt 0 ]; then
  command -v apt-get >/dev/null ||
    die "missing ${apt_pkgs[*]} and no apt-get: install Chromium, a matching chromedriver and a CJK font"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to apt-get install ${apt_pkgs[*]}"
    SUDO=sudo
  fi
  say "installing ${apt_pkgs[*]} (apt)"
  export DEBIAN_FRONTEND=noninteractive
  # apt-get update only when the package lists don't know the packages yet.
  if ! apt-cache show "${apt_pkgs[@]}" >/dev/null 2>&1 ||
     ! $SUDO apt-get install -y --no-install-recommends "${apt_pkgs[@]}"; then
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends "${apt_pkgs[@]}"
  fi
fi

# --- cargo-installed tools -------------------------------------------------
cargo_tool() { # <binary> <expected --version output> <crate> <version> [extra args]
  local bin=$1 want=$2 crate=$3 version=$4; shift 4
  local have
  have=$("$bin" --version 2>/dev/null | head -n1 || true)
  if [ "$have" != "$want" ]; then
    say "installing $crate $version${have:+ (found: $have)} — this takes a few minutes"
    cargo install "$crate" --version "$version" "$@"
  fi
}
cargo_tool trunk "trunk $TAILSLICE_TRUNK_VERSION" trunk "$TAILSLICE_TRUNK_VERSION" --locked
# No --locked: one locked dependency version of wasm-bindgen-cli is not on crates.io any more.
cargo_tool wasm-bindgen "wasm-bindgen $TAILSLICE_WASM_BINDGEN_VERSION" \
  wasm-bindgen-cli "$TAILSLICE_WASM_BINDGEN_VERSION"

# --- binaryen (wasm-opt) from npm ------------------------------------------
# Debian's binaryen (108) is too old: the page then fails with a
# WebAssembly.Table.set() error at run time.
want_opt="version ${TAILSLICE_BINARYEN_VERSION%%.*}"
if ! .tools/node_modules/.bin/wasm-opt --version 2>/dev/null | grep -q "$want_opt"; then
  command -v npm >/dev/null || die "npm not found: install Node.js 18+ (Debian: apt-get install nodejs npm)"
  say "installing binaryen@$TAILSLICE_BINARYEN_VERSION (npm) into .tools/"
  npm install --prefix "$TAILSLICE_ROOT/.tools" --no-audit --no-fund --silent \
    "binaryen@$TAILSLICE_BINARYEN_VERSION"
fi

# --- terser from npm (minifies the page's JavaScript in Trunk's post_build hook)
if [ "$(node -e "try{console.log(require('$TAILSLICE_ROOT/.tools/node_modules/terser/package.json').version)}catch(e){}" 2>/dev/null)" != "$TAILSLICE_TERSER_VERSION" ]; then
  command -v npm >/dev/null || die "npm not found: install Node.js 18+ (Debian: apt-get install nodejs npm)"
  say "installing terser@$TAILSLICE_TERSER_VERSION (npm) into .tools/"
  npm install --prefix "$TAILSLICE_ROOT/.tools" --no-audit --no-fund --silent \
    "terser@$TAILSLICE_TERSER_VERSION"
fi

# --- esbuild from npm (bundles the page's JavaScript in the same hook) -------
if [ "$(node -e "try{console.log(require('$TAILSLICE_ROOT/.tools/node_modules/esbuild/package.json').version)}catch(e){}" 2>/dev/null)" != "$TAILSLICE_ESBUILD_VERSION" ]; then
  command -v npm >/dev/null || die "npm not found: install Node.js 18+ (Debian: apt-get install nodejs npm)"
  say "installing esbuild@$TAILSLICE_ESBUILD_VERSION (npm) into .tools/"
  npm install --prefix "$TAILSLICE_ROOT/.tools" --no-audit --no-fund --silent \
    "esbuild@$TAILSLICE_ESBUILD_VERSION"
fi

# --- Lighthouse from npm (scripts/lighthouse-inp.mjs runs its INP audit; the
# test crate/tests/lighthouse_inp.rs compares tailslice's INP with it) ------
if [ "$(node -e "try{console.log(require('$TAILSLICE_ROOT/.tools/node_modules/lighthouse/package.json').version)}catch(e){}" 2>/dev/null)" != "$TAILSLICE_LIGHTHOUSE_VERSION" ]; then
  command -v npm >/dev/null || die "npm not found: install Node.js 18+ (Debian: apt-get install nodejs npm)"
  say "installing lighthouse@$TAILSLICE_LIGHTHOUSE_VERSION (npm) into .tools/"
  npm install --prefix "$TAILSLICE_ROOT/.tools" --no-audit --no-fund --silent \
    "lighthouse@$TAILSLICE_LIGHTHOUSE_VERSION"
fi

# --- final check -----------------------------------------------------------
for t in trunk wasm-bindgen wasm-bindgen-test-runner wasm-opt chromium chromedriver; do
  command -v "$t" >/dev/null || die "$t still not on PATH after setup"
done
say "ok: $(trunk --version), $(wasm-bindgen --version), wasm-opt $(wasm-opt --version | awk '{print $3}'), $(chromedriver --version | awk '{print $1, $2}')"
say "tools for your shell: source scripts/env.sh   (or: export PATH=\"$TAILSLICE_ROOT/.tools/node_modules/.bin:\$HOME/.cargo/bin:\$PATH\")"
