//! DevTools-protocol commands sent to the page through chromedriver (e.g.
//! `Page.setWebLifecycleState` to freeze a tab).

use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::{json, Value};

use crate::{Browser, Result};

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

impl Browser {
    /// Sends one DevTools-protocol command (e.g. `Page.setWebLifecycleState`)
    /// to the page through chromedriver; returns its result.
    pub async fn cdp(&self, cmd: &str, params: Value) -> Result<Value> {
        self.client
            .issue_cmd(CdpExecute(json!({ "cmd": cmd, "params": params })))
            .await
            .map_err(|e| format!("DevTools command {cmd}: {e}").into())
    }
}
