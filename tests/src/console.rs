//! The browser's console as the tests read it: every message kept, the
//! `SEVERE` ones (console.error, uncaught exceptions, failed loads) as the
//! page's errors, and the check that a page reported none.

use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::json;

use crate::{Browser, Result};

/// One message from the browser console (or a failed network request).
#[derive(Debug, Clone)]
pub struct LogEntry {
    /// `SEVERE`, `WARNING`, `INFO`, `DEBUG`.
    pub level: String,
    pub message: String,
}

/// The `/session/{id}/se/log` command chromedriver offers for `goog:loggingPrefs`.
#[derive(Debug)]
pub(crate) struct GetLog(pub(crate) &'static str);

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

impl Browser {
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
}
