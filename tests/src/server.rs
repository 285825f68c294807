//! A tiny static file server for `dist/` on `127.0.0.1:<free port>`.
//!
//! Good enough for a browser under test: GET/HEAD, `Connection: close`,
//! correct MIME types (`.wasm` as `application/wasm`), `index.html` for
//! directories, query strings ignored. In-process, `std::net`, one thread
//! per connection; stops when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::Result;

/// A request the static server answered with an error status (usually 404).
#[derive(Debug, Clone)]
pub struct FailedRequest {
    pub path: String,
    pub status: u16,
}

/// The response headers that make a page cross-origin isolated (what
/// `scripts/serve.sh` sends by default).
pub const ISOLATION_HEADERS: &str =
    "Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n";

/// What the server sends besides the files.
#[derive(Debug, Clone, Copy, Default)]
pub struct Serving {
    /// The COOP/COEP headers ([`ISOLATION_HEADERS`]).
    pub isolated: bool,
    /// `Cache-Control: max-age=3600` instead of `no-store`, so that a second
    /// load comes from the browser's cache as a returning visitor's does
    /// (the benchmark's warm loads). Tests leave it off: every load fetches
    /// the files of this build.
    pub cache: bool,
}

/// The server; see the module documentation.
pub struct StaticServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    failed: Arc<Mutex<Vec<FailedRequest>>>,
}

impl StaticServer {
    /// Serves `root` on a free loopback port.
    pub fn start(root: impl Into<PathBuf>) -> Result<Self> {
        Self::start_as(root, Serving::default())
    }

    /// Serves `root`, with the COOP/COEP headers when `isolated`.
    pub fn start_with(root: impl Into<PathBuf>, isolated: bool) -> Result<Self> {
        Self::start_as(
            root,
            Serving {
                isolated,
                ..Serving::default()
            },
        )
    }

    /// Serves `root` with the headers `serving` asks for.
    pub fn start_as(root: impl Into<PathBuf>, serving: Serving) -> Result<Self> {
        let root: PathBuf = root.into();
        let root = root
            .canonicalize()
            .map_err(|e| format!("cannot serve {}: {e}", root.display()))?;
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let failed = Arc::new(Mutex::new(Vec::new()));
        let (stop2, failed2) = (stop.clone(), failed.clone());
        std::thread::Builder::new()
            .name("e2e-static-server".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    if stop2.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (root, failed) = (root.clone(), failed2.clone());
                    std::thread::spawn(move || {
                        let _ = serve_one(stream, &root, &failed, serving);
                    });
                }
            })?;
        Ok(Self { addr, stop, failed })
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Requests answered with a 4xx/5xx status so far.
    pub fn failed_requests(&self) -> Vec<FailedRequest> {
        self.failed.lock().unwrap().clone()
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

/// MIME type by file extension. `.wasm` must be `application/wasm` for
/// `WebAssembly.instantiateStreaming`.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        "txt" | "csv" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn serve_one(
    stream: TcpStream,
    root: &Path,
    failed: &Mutex<Vec<FailedRequest>>,
    serving: Serving,
) -> Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let rel = percent_decode(path);

    let mut out = stream;
    let mut respond = |status: u16, reason: &str, ctype: &str, body: &[u8]| -> Result<()> {
        if status >= 400 {
            failed.lock().unwrap().push(FailedRequest {
                path: target.to_string(),
                status,
            });
        }
        let head = format!(
            "HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\
             Cache-Control: {}\r\nConnection: close\r\n{}\r\n",
            body.len(),
            if serving.cache && status == 200 {
                "max-age=3600"
            } else {
                "no-store"
            },
            if serving.isolated {
                ISOLATION_HEADERS
            } else {
                ""
            }
        );
        out.write_all(head.as_bytes())?;
        if method != "HEAD" {
            out.write_all(body)?;
        }
        out.flush()?;
        Ok(())
    };

    if method != "GET" && method != "HEAD" {
        return respond(
            405,
            "Method Not Allowed",
            "text/plain",
            b"method not allowed\n",
        );
    }
    if rel.split('/').any(|seg| seg == "..") {
        return respond(403, "Forbidden", "text/plain", b"forbidden\n");
    }
    let mut file = root.join(rel.trim_start_matches('/'));
    if file.is_dir() {
        file = file.join("index.html");
    }
    match std::fs::File::open(&file) {
        Ok(mut f) => {
            let mut body = Vec::new();
            f.read_to_end(&mut body)?;
            respond(200, "OK", content_type(&file), &body)
        }
        // Browsers ask for /favicon.ico on their own; don't count that as the page's error.
        Err(_) if rel == "/favicon.ico" => respond(204, "No Content", "image/x-icon", b""),
        Err(_) => respond(404, "Not Found", "text/plain", b"not found\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("/a%20b.txt"), "/a b.txt");
        assert_eq!(percent_decode("/100%"), "/100%");
        assert_eq!(percent_decode("/x%2"), "/x%2");
    }

    #[test]
    fn wasm_mime() {
        assert_eq!(content_type(Path::new("x_bg.wasm")), "application/wasm");
        assert!(content_type(Path::new("x.js")).starts_with("text/javascript"));
    }

    fn get(srv: &StaticServer, path: &str) -> String {
        let mut s = TcpStream::connect(srv.addr).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut buf = String::new();
        s.read_to_string(&mut buf).unwrap();
        buf
    }

    #[test]
    fn server_serves_index_and_ignores_query() {
        let dir = std::env::temp_dir().join(format!("tailslice-e2e-srv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<title>t</title>").unwrap();
        std::fs::write(dir.join("m.wasm"), b"\0asm").unwrap();
        let srv = StaticServer::start(&dir).unwrap();
        let r = get(&srv, "/?policy=rr&seed=3");
        assert!(r.starts_with("HTTP/1.1 200"), "{r}");
        assert!(r.contains("text/html") && r.ends_with("<title>t</title>"));
        assert!(r.contains("Cache-Control: no-store\r\n"), "{r}");
        assert!(get(&srv, "/m.wasm?v=1").contains("Content-Type: application/wasm"));
        assert!(get(&srv, "/nope.js").starts_with("HTTP/1.1 404"));
        assert!(get(&srv, "/../etc/passwd").starts_with("HTTP/1.1 403"));
        assert_eq!(srv.failed_requests().len(), 2);
        assert!(!get(&srv, "/").contains("Cross-Origin-Embedder-Policy"));
        let iso = StaticServer::start_with(&dir, true).unwrap();
        let r = get(&iso, "/");
        assert!(
            r.contains("Cross-Origin-Opener-Policy: same-origin\r\n"),
            "{r}"
        );
        assert!(
            r.contains("Cross-Origin-Embedder-Policy: require-corp\r\n"),
            "{r}"
        );
        assert!(r.ends_with("<title>t</title>"), "{r}");
        let cached = StaticServer::start_as(
            &dir,
            Serving {
                cache: true,
                ..Serving::default()
            },
        )
        .unwrap();
        assert!(get(&cached, "/").contains("Cache-Control: max-age=3600\r\n"));
        assert!(get(&cached, "/nope.js").contains("Cache-Control: no-store\r\n"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
