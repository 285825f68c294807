//! Helpers shared by the end-to-end tests.
//!
//! The tests drive the *built* page (`dist/`, made by `trunk build`) in
//! headless Chromium, the way a user would see it:
//!
//! * [`StaticServer`] serves `dist/` on a free loopback port (in-process,
//!   `std::net`, one thread per connection; `.wasm` as `application/wasm`,
//!   `index.html` for directories, query strings ignored).
//! * [`Browser`] starts `/usr/bin/chromedriver` on another free port, opens a
//!   WebDriver session with a fresh profile, and kills chromedriver *and* every
//!   Chromium process it started when dropped, even if the test panicked.
//! * [`cli`] builds the `tailslice` binary once and runs it.
//!
//! A typical test:
//!
//! ```no_run
//! # async fn t() -> tailslice_e2e::Result<()> {
//! let b = tailslice_e2e::Browser::start().await?;
//! b.open("/?seed=3").await?;
//! b.wait_for("#chart", std::time::Duration::from_secs(10)).await?;
//! b.screenshot("example").await?;
//! b.finish().await // fails if the page logged errors
//! # }
//! ```
//!
//! Paths can be overridden with environment variables: `TAILSLICE_DIST`
//! (default `<repo>/dist`), `CHROMEDRIVER` (default `chromedriver` on PATH,
//! then `/usr/bin/chromedriver`), `CHROMIUM` (default: chromedriver's choice,
//! `/usr/bin/chromium` on Debian), `E2E_HEADFUL=1` to watch the browser.

pub mod page;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use fantoccini::wd::{Capabilities, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// Error type of the harness and the tests: any error or message (`?` works on
/// `std::error::Error`s, `String`s and `&str`s). Its `Debug` prints the plain
/// message, so a failing test shows readable text instead of an escaped string.
pub struct Error(Box<dyn std::error::Error + Send + Sync + 'static>);

impl<E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>> From<E> for Error {
    fn from(e: E) -> Self {
        Error(e.into())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(s) = source {
            writeln!(f, "caused by: {s}")?;
            source = s.source();
        }
        Ok(())
    }
}
/// Result alias used by the harness and the tests.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Default time to wait for something to show up on the page.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);

/// Root of the repository (the workspace).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// The built site: `$TAILSLICE_DIST` or `<repo>/dist`.
pub fn dist_dir() -> PathBuf {
    std::env::var_os("TAILSLICE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("dist"))
}

/// Where screenshots and other outputs go: `tests/artifacts/` (gitignored).
pub fn artifacts_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("artifacts");
    std::fs::create_dir_all(&dir).expect("create tests/artifacts");
    dir
}

/// Checks that `dist/` holds a built page, with a message that says how to make one.
pub fn require_dist() -> Result<PathBuf> {
    let dist = dist_dir();
    if !dist.join("index.html").is_file() {
        return Err(format!(
            "no built page at {}/index.html. The end-to-end tests run against the \
             output of Trunk: run `trunk build` (after `source scripts/env.sh`) or \
             the whole suite with `./scripts/test.sh`",
            dist.display()
        )
        .into());
    }
    let has_wasm = std::fs::read_dir(&dist)?
        .filter_map(|e| e.ok())
        .any(|e| e.path().extension().is_some_and(|x| x == "wasm"));
    if !has_wasm {
        return Err(format!(
            "{} has no .wasm file: the Trunk build looks incomplete; run `trunk build` again",
            dist.display()
        )
        .into());
    }
    Ok(dist)
}

// ---------------------------------------------------------------------------
// Static file server
// ---------------------------------------------------------------------------

/// A request the static server answered with an error status (usually 404).
#[derive(Debug, Clone)]
pub struct FailedRequest {
    pub path: String,
    pub status: u16,
}

/// A tiny static file server for `dist/` on `127.0.0.1:<free port>`.
///
/// Good enough for a browser under test: GET/HEAD, `Connection: close`,
/// `Cache-Control: no-store`, correct MIME types. Stops when dropped.
pub struct StaticServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    failed: Arc<Mutex<Vec<FailedRequest>>>,
}

/// The response headers that make a page cross-origin isolated (what
/// `scripts/serve.sh` sends by default).
pub const ISOLATION_HEADERS: &str =
    "Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n";

impl StaticServer {
    /// Serves `root` on a free loopback port.
    pub fn start(root: impl Into<PathBuf>) -> Result<Self> {
        Self::start_with(root, false)
    }

    /// Serves `root`, with the COOP/COEP headers when `isolated`.
    pub fn start_with(root: impl Into<PathBuf>, isolated: bool) -> Result<Self> {
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
                        let _ = serve_one(stream, &root, &failed, isolated);
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
    isolated: bool,
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
             Cache-Control: no-store\r\nConnection: close\r\n{}\r\n",
            body.len(),
            if isolated { ISOLATION_HEADERS } else { "" }
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

// ---------------------------------------------------------------------------
// chromedriver + Chromium
// ---------------------------------------------------------------------------

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn find_chromedriver() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMEDRIVER") {
        return Ok(PathBuf::from(p));
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("chromedriver"))
            .find(|p| p.is_file())
    });
    let candidate = on_path.unwrap_or_else(|| PathBuf::from("/usr/bin/chromedriver"));
    if candidate.is_file() {
        Ok(candidate)
    } else {
        Err(
            "chromedriver not found (looked at $CHROMEDRIVER, PATH, /usr/bin/chromedriver). \
             Install it with ./scripts/setup.sh (Debian: apt-get install chromium chromium-driver)"
                .into(),
        )
    }
}

/// Every process whose parent chain leads to `root` (not including `root`).
fn descendants(root: u32) -> Vec<u32> {
    let mut parent_of: Vec<(u32, u32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                continue;
            };
            // "pid (comm) state ppid ..."; comm may contain spaces, so cut at the last ')'.
            let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
                continue;
            };
            if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|s| s.parse().ok()) {
                parent_of.push((pid, ppid));
            }
        }
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(parent_of.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    found.remove(0);
    found
}

/// Processes whose command line mentions `needle` (used with the unique profile dir).
fn processes_mentioning(needle: &str) -> Vec<u32> {
    let me = std::process::id();
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            if pid == me {
                continue;
            }
            if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
                if String::from_utf8_lossy(&cmd).contains(needle) {
                    out.push(pid);
                }
            }
        }
    }
    out
}

/// A running chromedriver. Dropping it kills chromedriver, every browser
/// process it started, and removes the temporary profile.
pub struct ChromeDriver {
    child: Child,
    port: u16,
    profile_dir: PathBuf,
}

impl ChromeDriver {
    /// Starts chromedriver on a free port and waits until it answers `/status`.
    pub fn start() -> Result<Self> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let exe = find_chromedriver()?;
        let port = free_port()?;
        let profile_dir = std::env::temp_dir().join(format!(
            "tailslice-e2e-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&profile_dir);
        std::fs::create_dir_all(&profile_dir)?;
        let log = std::fs::File::create(profile_dir.with_extension("chromedriver.log"))?;
        let child = Command::new(&exe)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let mut driver = ChromeDriver {
            child,
            port,
            profile_dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = driver.child.try_wait()? {
                return Err(format!(
                    "chromedriver exited at start ({status}); log: {}",
                    driver.log_path().display()
                )
                .into());
            }
            if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
                // chromedriver refuses HTTP/1.0; ask it to close so read_to_string ends.
                let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
                let _ = s.write_all(
                    format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
                        .as_bytes(),
                );
                let mut buf = String::new();
                let _ = s.read_to_string(&mut buf);
                if buf.contains("\"ready\"") {
                    return Ok(driver);
                }
            }
            if Instant::now() > deadline {
                return Err("chromedriver did not become ready within 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `http://127.0.0.1:<port>` for the WebDriver client.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The fresh `--user-data-dir` for this browser.
    pub fn profile_dir(&self) -> &Path {
        &self.profile_dir
    }

    /// chromedriver's own log (useful when a session fails to start).
    pub fn log_path(&self) -> PathBuf {
        self.profile_dir.with_extension("chromedriver.log")
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let mut pids = descendants(self.child.id());
        pids.extend(processes_mentioning(&self.profile_dir.to_string_lossy()));
        let _ = self.child.kill();
        for pid in pids {
            // SAFETY: plain kill(2) on pids we found as our own descendants.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile_dir);
        let _ = std::fs::remove_file(self.log_path());
    }
}

/// The `/session/{id}/se/log` command chromedriver offers for `goog:loggingPrefs`.
#[derive(Debug)]
struct GetLog(&'static str);

impl WebDriverCompatibleCommand for GetLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or("")))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({ "type": self.0 }).to_string()),
        )
    }
}

/// chromedriver's DevTools-protocol endpoint, `/session/{id}/goog/cdp/execute`.
#[derive(Debug)]
struct CdpExecute(Value);

impl WebDriverCompatibleCommand for CdpExecute {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or("")
        ))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.0.to_string()))
    }
}

/// One message from the browser console (or a failed network request).
#[derive(Debug, Clone)]
pub struct LogEntry {
    /// `SEVERE`, `WARNING`, `INFO`, `DEBUG`.
    pub level: String,
    pub message: String,
}

/// A headless Chromium showing `dist/`, driven over WebDriver.
///
/// Fields drop in order: the client first, then chromedriver (which kills the
/// browser), then the static server.
pub struct Browser {
    client: Client,
    driver: ChromeDriver,
    server: StaticServer,
    logs: Mutex<Vec<LogEntry>>,
    ignored: Mutex<Vec<String>>,
}

impl Browser {
    /// Serves `dist/` (which must exist) and starts a browser for it.
    pub async fn start() -> Result<Self> {
        let dist = require_dist()?;
        Self::start_serving(dist).await
    }

    /// Serves `dist/` with the COOP/COEP headers (cross-origin isolated,
    /// as `scripts/serve.sh` does) and starts a browser for it.
    pub async fn start_isolated() -> Result<Self> {
        let dist = require_dist()?;
        Self::start_server(StaticServer::start_with(dist, true)?).await
    }

    /// Serves an arbitrary directory and starts a browser for it.
    pub async fn start_serving(root: impl Into<PathBuf>) -> Result<Self> {
        Self::start_serving_with(root, |_| {}).await
    }

    /// [`Self::start_serving`] with the session's capabilities adjusted
    /// before it starts (e.g. chromedriver's performance log for tracing).
    pub async fn start_serving_with(
        root: impl Into<PathBuf>,
        adjust: impl FnOnce(&mut Capabilities),
    ) -> Result<Self> {
        Self::start_server_with(StaticServer::start(root)?, adjust).await
    }

    async fn start_server(server: StaticServer) -> Result<Self> {
        Self::start_server_with(server, |_| {}).await
    }

    async fn start_server_with(
        server: StaticServer,
        adjust: impl FnOnce(&mut Capabilities),
    ) -> Result<Self> {
        let driver = ChromeDriver::start()?;
        let mut args = vec![
            "--no-sandbox".to_string(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--window-size=1280,900".into(),
            format!("--user-data-dir={}", driver.profile_dir().display()),
        ];
        if std::env::var_os("E2E_HEADFUL").is_none() {
            args.insert(0, "--headless".into());
        }
        let mut chrome = json!({ "args": args });
        if let Some(bin) = std::env::var_os("CHROMIUM") {
            chrome["binary"] = json!(bin.to_string_lossy());
        }
        let mut caps = Capabilities::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert("goog:chromeOptions".into(), chrome);
        caps.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
        caps.insert("pageLoadStrategy".into(), json!("normal"));
        adjust(&mut caps);

        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&driver.url())
            .await
            .map_err(|e| {
                let log = std::fs::read_to_string(driver.log_path()).unwrap_or_default();
                let tail: String = log.lines().rev().take(15).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n");
                format!("could not start a Chromium session via chromedriver: {e}\nchromedriver log (tail):\n{tail}")
            })?;
        Ok(Browser {
            client,
            driver,
            server,
            logs: Mutex::new(Vec::new()),
            ignored: Mutex::new(Vec::new()),
        })
    }

    /// The underlying fantoccini client, for anything the helpers don't cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The static server (base URL, failed requests).
    pub fn server(&self) -> &StaticServer {
        &self.server
    }

    /// Absolute URL for a path (and query) on the static server.
    pub fn url(&self, path_and_query: &str) -> String {
        let p = path_and_query.trim_start_matches('/');
        format!("{}/{}", self.server.base_url(), p)
    }

    /// Navigates to `path_and_query` (e.g. `"/"`, `"/?policy=rr&seed=3"`,
    /// `"/embed.html#x"`) and waits for the load event.
    pub async fn open(&self, path_and_query: &str) -> Result<()> {
        let url = self.url(path_and_query);
        self.client
            .goto(&url)
            .await
            .map_err(|e| format!("opening {url}: {e}"))?;
        Ok(())
    }

    /// Waits until an element matching `css` exists.
    pub async fn wait_for(
        &self,
        css: &str,
        timeout: Duration,
    ) -> Result<fantoccini::elements::Element> {
        self.client
            .wait()
            .at_most(timeout)
            .every(Duration::from_millis(50))
            .for_element(Locator::Css(css))
            .await
            .map_err(|e| self.context(format!("waiting {timeout:?} for `{css}`: {e}")))
    }

    /// Polls the JavaScript expression `expr` until it is truthy; returns its value.
    pub async fn wait_js(&self, expr: &str, timeout: Duration) -> Result<Value> {
        let deadline = Instant::now() + timeout;
        loop {
            let v = self.eval_js(&format!("return ({expr});")).await?;
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return Ok(v);
            }
            if Instant::now() > deadline {
                return Err(self.context(format!(
                    "`{expr}` still falsy after {timeout:?} (last value {v})"
                )));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Finds the first element matching `css` (no waiting).
    pub async fn find(&self, css: &str) -> Result<fantoccini::elements::Element> {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(|e| self.context(format!("finding `{css}`: {e}")))
    }

    /// Visible text of the first element matching `css`.
    pub async fn text(&self, css: &str) -> Result<String> {
        Ok(self.find(css).await?.text().await?)
    }

    /// Attribute `name` of the first element matching `css`.
    pub async fn attr(&self, css: &str, name: &str) -> Result<Option<String>> {
        Ok(self.find(css).await?.attr(name).await?)
    }

    /// Clicks the first element matching `css`.
    pub async fn click(&self, css: &str) -> Result<()> {
        Ok(self.find(css).await?.click().await?)
    }

    /// Runs a script body in the page (use `return ...;` to get a value;
    /// `arguments[0]` etc. are not passed). Returns the JSON value.
    pub async fn eval_js(&self, body: &str) -> Result<Value> {
        self.client
            .execute(body, vec![])
            .await
            .map_err(|e| format!("running script `{}`: {e}", short(body)).into())
    }

    /// Runs an async script body: call `arguments[arguments.length-1](value)` to finish.
    pub async fn eval_js_async(&self, body: &str) -> Result<Value> {
        self.client
            .execute_async(body, vec![])
            .await
            .map_err(|e| format!("running async script `{}`: {e}", short(body)).into())
    }

    /// `document.title`.
    pub async fn title(&self) -> Result<String> {
        Ok(self.client.title().await?)
    }

    /// Current location (after any `history.replaceState`).
    pub async fn current_url(&self) -> Result<url::Url> {
        Ok(self.client.current_url().await?)
    }

    /// Resizes the window (CSS pixels of the outer window).
    pub async fn set_window_size(&self, width: u32, height: u32) -> Result<()> {
        Ok(self.client.set_window_size(width, height).await?)
    }

    /// Saves a PNG of the viewport to `tests/artifacts/<name>.png`; returns its path.
    pub async fn screenshot(&self, name: &str) -> Result<PathBuf> {
        let png = self.client.screenshot().await?;
        let path = artifacts_dir().join(format!("{name}.png"));
        std::fs::write(&path, png)?;
        eprintln!("screenshot: {}", path.display());
        Ok(path)
    }

    /// Sends one DevTools-protocol command (e.g. `Page.setWebLifecycleState`)
    /// to the page through chromedriver; returns its result.
    pub async fn cdp(&self, cmd: &str, params: Value) -> Result<Value> {
        self.client
            .issue_cmd(CdpExecute(json!({ "cmd": cmd, "params": params })))
            .await
            .map_err(|e| format!("DevTools command {cmd}: {e}").into())
    }

    /// Console messages (and failed loads) since the last call, also kept for [`Self::errors`].
    pub async fn console(&self) -> Result<Vec<LogEntry>> {
        let v = self
            .client
            .issue_cmd(GetLog("browser"))
            .await
            .map_err(|e| format!("reading the browser log: {e}"))?;
        let new: Vec<LogEntry> = v
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| LogEntry {
                        level: e["level"].as_str().unwrap_or("").to_string(),
                        message: e["message"].as_str().unwrap_or("").to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.logs.lock().unwrap().extend(new.iter().cloned());
        Ok(new)
    }

    /// chromedriver's performance log since the last call: raw entries whose
    /// `message` is JSON text (`{"message": {"method", "params"}}`). With
    /// `perfLoggingPrefs.traceCategories` set, reading it ends the trace and
    /// returns its events as `Tracing.dataCollected` messages.
    pub async fn performance_log(&self) -> Result<Vec<Value>> {
        let v = self
            .client
            .issue_cmd(GetLog("performance"))
            .await
            .map_err(|e| format!("reading the performance log: {e}"))?;
        Ok(v.as_array().cloned().unwrap_or_default())
    }

    /// Ignore console errors containing `substring` (e.g. an expected 404).
    pub fn ignore_error(&self, substring: &str) {
        self.ignored.lock().unwrap().push(substring.to_string());
    }

    /// All `SEVERE` console entries so far (console.error, uncaught
    /// exceptions, failed resource loads), minus ignored ones.
    pub async fn errors(&self) -> Result<Vec<String>> {
        self.console().await?;
        let ignored = self.ignored.lock().unwrap().clone();
        Ok(self
            .logs
            .lock()
            .unwrap()
            .iter()
            .filter(|e| e.level == "SEVERE")
            .map(|e| e.message.clone())
            .filter(|m| !ignored.iter().any(|i| m.contains(i.as_str())))
            .collect())
    }

    /// Fails if the page logged errors or requested missing files.
    pub async fn assert_no_errors(&self) -> Result<()> {
        let errors = self.errors().await?;
        let missing = self.server.failed_requests();
        if errors.is_empty() && missing.is_empty() {
            return Ok(());
        }
        let mut msg = String::from("the page reported problems:\n");
        // The same error often repeats (once per frame or per row): show each once.
        let mut seen: Vec<(String, usize)> = Vec::new();
        for e in errors {
            match seen.iter_mut().find(|(m, _)| *m == e) {
                Some((_, n)) => *n += 1,
                None => seen.push((e, 1)),
            }
        }
        for (e, n) in seen {
            let times = if n > 1 {
                format!(" (×{n})")
            } else {
                String::new()
            };
            msg.push_str(&format!("  console error{times}: {e}\n"));
        }
        for f in missing {
            msg.push_str(&format!("  HTTP {} for {}\n", f.status, f.path));
        }
        Err(msg.into())
    }

    /// Asserts no errors, then closes the session cleanly.
    pub async fn finish(self) -> Result<()> {
        let check = self.assert_no_errors().await;
        let _ = self.client.clone().close().await;
        check
    }

    /// Adds the page's recent console errors to an error message.
    fn context(&self, msg: String) -> Error {
        let logs = self.logs.lock().unwrap();
        if logs.is_empty() {
            msg.into()
        } else {
            let recent: Vec<String> = logs
                .iter()
                .rev()
                .take(5)
                .map(|e| format!("  [{}] {}", e.level, e.message))
                .collect();
            format!("{msg}\nrecent console:\n{}", recent.join("\n")).into()
        }
    }

    /// chromedriver (for its log path).
    pub fn driver(&self) -> &ChromeDriver {
        &self.driver
    }
}

fn short(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    }
}

// ---------------------------------------------------------------------------
// The CLI
// ---------------------------------------------------------------------------

/// Path of the `tailslice` binary, built once per test process with
/// `cargo build -p tailslice --bin tailslice` (debug profile, so it shares
/// the artifacts `cargo test --workspace` already built).
/// Set `TAILSLICE_BIN` to use a prebuilt binary instead.
pub fn cli_path() -> Result<PathBuf> {
    static PATH: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(p) = std::env::var_os("TAILSLICE_BIN") {
            return Ok(PathBuf::from(p));
        }
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .current_dir(repo_root())
            .args([
                "build",
                "-p",
                "tailslice",
                "--bin",
                "tailslice",
                "--message-format=json-render-diagnostics",
            ])
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("running cargo build for the CLI: {e}"))?;
        if !out.status.success() {
            return Err(
                "`cargo build -p tailslice --bin tailslice` failed (see above)".to_string(),
            );
        }
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "tailslice")
            .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
            .next_back()
            .ok_or_else(|| "cargo build did not report a tailslice executable".to_string())
    })
    .clone()
    .map_err(Into::into)
}

/// A `Command` for the `tailslice` CLI, run from the repository root.
pub fn cli() -> Result<Command> {
    let mut c = Command::new(cli_path()?);
    c.current_dir(repo_root());
    Ok(c)
}

/// Runs the CLI with `args`; fails (with stderr) unless it exits 0. Returns stdout.
pub fn run_cli<I, S>(args: I) -> Result<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let out: Output = cli()?.args(&args).output()?;
    if !out.status.success() {
        return Err(format!(
            "tailslice {:?} exited with {}\nstderr:\n{}",
            args,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(String::from_utf8(out.stdout)?)
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

    #[test]
    fn server_serves_index_and_ignores_query() {
        let dir = std::env::temp_dir().join(format!("tailslice-e2e-srv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<title>t</title>").unwrap();
        std::fs::write(dir.join("m.wasm"), b"\0asm").unwrap();
        let srv = StaticServer::start(&dir).unwrap();
        let get = |path: &str| {
            let mut s = TcpStream::connect(srv.addr).unwrap();
            write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            let mut buf = String::new();
            s.read_to_string(&mut buf).unwrap();
            buf
        };
        let r = get("/?policy=rr&seed=3");
        assert!(r.starts_with("HTTP/1.1 200"), "{r}");
        assert!(r.contains("text/html") && r.ends_with("<title>t</title>"));
        assert!(get("/m.wasm?v=1").contains("Content-Type: application/wasm"));
        assert!(get("/nope.js").starts_with("HTTP/1.1 404"));
        assert!(get("/../etc/passwd").starts_with("HTTP/1.1 403"));
        assert_eq!(srv.failed_requests().len(), 2);
        assert!(!get("/").contains("Cross-Origin-Embedder-Policy"));
        let iso = StaticServer::start_with(&dir, true).unwrap();
        let mut s = TcpStream::connect(iso.addr).unwrap();
        write!(s, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut r = String::new();
        s.read_to_string(&mut r).unwrap();
        assert!(
            r.contains("Cross-Origin-Opener-Policy: same-origin\r\n"),
            "{r}"
        );
        assert!(
            r.contains("Cross-Origin-Embedder-Policy: require-corp\r\n"),
            "{r}"
        );
        assert!(r.ends_with("<title>t</title>"), "{r}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
