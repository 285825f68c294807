//! Helpers shared by the end-to-end tests and the page benchmarks.
//!
//! The tests drive the *built* page (`dist/`, made by `trunk build`) in
//! headless Chromium, the way a user would see it. One job per file:
//!
//! * `server.rs`: [`StaticServer`] serves `dist/` on a free loopback port.
//! * `chromedriver.rs`: [`ChromeDriver`] starts chromedriver on another free
//!   port and kills it *and* every Chromium process it started when dropped,
//!   even if the test panicked.
//! * `browser.rs`: [`Browser`], the WebDriver session with a fresh profile
//!   (open, find, click, run a script).
//! * `wait.rs`: waits on the page's own state (an element, a JavaScript
//!   condition, any condition, the next frame); tests never sleep.
//! * `console.rs`: the page's console messages and errors.
//! * `devtools.rs`: DevTools-protocol commands.
//! * `cdp_socket.rs`: the page's own DevTools-protocol socket, for commands
//!   sent without waiting for each reply (pipelined inputs).
//! * [`input_delay`]: real key presses on a page replaying busy tasks.
//! * [`delay_check`]: those presses' delays beside tailslice's model.
//! * `trace_record.rs`: recording a Chromium trace of a session.
//! * `artifacts.rs`: screenshots and files in `tests/artifacts/`.
//! * `cli.rs`: builds the `tailslice` binary once and runs it.
//! * `paths.rs`: where the repository and the built page are.
//! * `task_list.rs`: large task-list files for imports.
//! * [`page`]: reading the playground page (results, tables, canvases).
//! * [`bench_report`]: printing the benchmarks' figures beside their goals.
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

mod artifacts;
pub mod bench_report;
mod browser;
mod cdp_socket;
mod chromedriver;
mod cli;
mod console;
pub mod delay_check;
mod devtools;
mod error;
pub mod input_delay;
pub mod page;
mod paths;
mod server;
mod task_list;
mod trace_record;
mod wait;

pub use artifacts::artifacts_dir;
pub use browser::Browser;
pub use cdp_socket::CdpSocket;
pub use chromedriver::ChromeDriver;
pub use cli::{cli, cli_path, run_cli};
pub use console::LogEntry;
pub use error::{Error, Result};
pub use paths::{dist_dir, repo_root, require_dist, test_pages_dir};
pub use server::{content_type, FailedRequest, Serving, StaticServer, ISOLATION_HEADERS};
pub use task_list::{million_line_task_list, million_line_task_list_drawn};
pub use trace_record::TIMELINE_CATEGORIES;
pub use wait::DEFAULT_TIMEOUT;
