//! The WebDriver session: a headless Chromium (started through
//! [`ChromeDriver`]) showing a [`StaticServer`]'s files, and the few calls
//! every test makes on it (open, find, click, run a script). Waiting is in
//! `wait.rs`, the console in `console.rs`, screenshots in `artifacts.rs`.

use std::path::PathBuf;
use std::sync::Mutex;

use fantoccini::wd::Capabilities;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use crate::console::LogEntry;
use crate::server::{Serving, StaticServer};
use crate::{require_dist, ChromeDriver, Error, Result};

/// A headless Chromium showing `dist/`, driven over WebDriver.
///
/// Fields drop in order: the client first, then chromedriver (which kills the
/// browser), then the static server.
pub struct Browser {
    pub(crate) client: Client,
    driver: ChromeDriver,
    pub(crate) server: StaticServer,
    pub(crate) logs: Mutex<Vec<LogEntry>>,
    pub(crate) ignored: Mutex<Vec<String>>,
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
    /// Serves `dist/` the way a deployment does, with caching allowed, and
    /// starts a browser for it: a second load is a returning visitor's
    /// (files from the browser's cache). For the benchmark's warm loads.
    pub async fn start_caching() -> Result<Self> {
        Self::start_caching_at(require_dist()?).await
    }

    /// [`Self::start_caching`] for another build of the page (a benchmark
    /// measures the previous build beside the current one).
    pub async fn start_caching_at(dist: impl Into<PathBuf>) -> Result<Self> {
        Self::start_server(StaticServer::start_as(
            dist,
            Serving {
                cache: true,
                ..Serving::default()
            },
        )?)
        .await
    }

    /// Serves an arbitrary directory cross-origin isolated (COOP/COEP) and
    /// starts a browser for it.
    pub async fn start_serving_isolated(root: impl Into<PathBuf>) -> Result<Self> {
        Self::start_server(StaticServer::start_with(root, true)?).await
    }

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

    /// Asserts no errors, then closes the session cleanly.
    pub async fn finish(self) -> Result<()> {
        let check = self.assert_no_errors().await;
        let _ = self.client.clone().close().await;
        check
    }

    /// Adds the page's recent console errors to an error message.
    pub(crate) fn context(&self, msg: String) -> Error {
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
