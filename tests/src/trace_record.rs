//! Recording a Chromium trace of a page: chromedriver's performance log with
//! `perfLoggingPrefs.traceCategories` traces the session through the
//! DevTools protocol's Tracing domain; reading the log ends the trace and
//! returns its events.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::console::GetLog;
use crate::{Browser, Result};

/// The categories DevTools' Performance panel records (tasks, with their
/// first-level children).
pub const TIMELINE_CATEGORIES: &str = "devtools.timeline,disabled-by-default-devtools.timeline";

impl Browser {
    /// Serves `root` and starts a browser whose session is traced with
    /// `categories` from its start.
    pub async fn start_tracing(root: impl Into<PathBuf>, categories: &str) -> Result<Self> {
        Self::start_serving_with(root, |caps| {
            caps.insert(
                "goog:loggingPrefs".into(),
                json!({"browser": "ALL", "performance": "ALL"}),
            );
            if let Some(chrome) = caps.get_mut("goog:chromeOptions") {
                chrome["perfLoggingPrefs"] = json!({
                    "enableNetwork": false,
                    "enablePage": false,
                    "traceCategories": categories,
                });
            }
        })
        .await
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

    /// Ends the trace of a [`Self::start_tracing`] session and returns its
    /// events (the `traceEvents` of a trace file).
    pub async fn trace_events(&self) -> Result<Vec<Value>> {
        let mut events = Vec::new();
        for entry in self.performance_log().await? {
            let Some(text) = entry["message"].as_str() else {
                continue;
            };
            let Ok(msg) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            if msg["message"]["method"] == "Tracing.dataCollected" {
                events.push(msg["message"]["params"].clone());
            }
        }
        Ok(events)
    }
}
