//! The built page loads in a real browser: the wasm module is fetched, the
//! title is right, and nothing is logged as an error.

use std::time::Duration;

use tailslice_e2e::{Browser, Result};

#[tokio::test]
async fn page_loads_without_console_errors() -> Result<()> {
    let b = Browser::start().await?;
    b.open("/").await?;
    b.wait_for("body", Duration::from_secs(10)).await?;
    // The page's own loader fetches tailslice_bg.wasm (however it is
    // wired: Trunk's inline loader or a module script such as main.js).
    b.wait_js(
        "document.readyState === 'complete' && performance.getEntriesByType('resource')\
         .some(e => e.name.split('?')[0].endsWith('.wasm'))",
        Duration::from_secs(15),
    )
    .await?;
    // The module started and either drew its first result or reported
    // the error it hit.
    b.wait_js(
        "['ready', 'error'].includes(document.body.dataset.state)",
        Duration::from_secs(30),
    )
    .await?;

    let title = b.title().await?;
    assert!(
        title.to_lowercase().contains("tailslice"),
        "document.title is {title:?}, expected it to contain \"tailslice\""
    );
    b.screenshot("smoke-index").await?;
    b.finish().await
}
