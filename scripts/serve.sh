#!/usr/bin/env bash
# Builds the page (release) and serves dist/ on http://127.0.0.1:${PORT:-8080}/.
#   ./scripts/serve.sh              build + serve
#   PORT=9000 ./scripts/serve.sh    another port
#   HOST=0.0.0.0 ./scripts/serve.sh listen on all interfaces
#   ./scripts/serve.sh --no-build   serve the existing dist/
#   ISOLATE=0 ./scripts/serve.sh    without the COOP/COEP headers (not cross-origin isolated)
# By default the page is served cross-origin isolated (COOP same-origin +
# COEP require-corp): "Run for real" then gets a 5 µs clock instead of 100 µs.
# For live reload while editing use `trunk serve` instead (after `source scripts/env.sh`).
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
[ "${1:-}" = "--no-build" ] && build=0

if [ $build = 1 ]; then
  ./scripts/setup.sh
  # shellcheck source=env.sh
  source scripts/env.sh
  echo "[serve] trunk build (release) -> dist/"
  trunk build
fi
[ -f dist/index.html ] || { echo "[serve] dist/index.html missing: run without --no-build" >&2; exit 1; }

export HOST="${HOST:-127.0.0.1}" PORT="${PORT:-8080}" ISOLATE="${ISOLATE:-1}"
echo "[serve] http://$HOST:$PORT/   (Ctrl-C to stop)"
# A small static server with explicit MIME types (.wasm must be
# application/wasm for streaming compilation) and no caching.
exec python3 - <<'PY'
import functools, http.server, os, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".html": "text/html",
        ".css": "text/css",
        ".json": "application/json",
        ".svg": "image/svg+xml",
    }
    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        if os.environ["ISOLATE"] != "0":
            # Cross-origin isolation: a precise performance.now() for "Run for real".
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()
handler = functools.partial(Handler, directory="dist")
host, port = os.environ["HOST"], int(os.environ["PORT"])
try:
    srv = http.server.ThreadingHTTPServer((host, port), handler)
except OSError as e:
    sys.exit(f"[serve] cannot listen on {host}:{port}: {e} (try PORT=...)")
try:
    srv.serve_forever()
except KeyboardInterrupt:
    pass
PY
