//! Waiting on the page's own state: an element, a JavaScript condition, any
//! condition the test can read, or the next rendered frame. Each wait polls
//! until its condition holds and fails with what it last saw once
//! `timeout` has passed; the timeout only bounds a hang, it is never the
//! thing a test checks.

use std::future::Future;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use fantoccini::Locator;
use serde_json::Value;

use crate::{Browser, Result};

/// Default time to wait for something to show up on the page.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);

/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(50);

/// JavaScript's truthiness of a script's JSON result.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

impl Browser {
    /// Waits until an element matching `css` exists.
    pub async fn wait_for(
        &self,
        css: &str,
        timeout: Duration,
    ) -> Result<fantoccini::elements::Element> {
        self.client
            .wait()
            .at_most(timeout)
            .every(POLL)
            .for_element(Locator::Css(css))
            .await
            .map_err(|e| self.context(format!("waiting {timeout:?} for `{css}`: {e}")))
    }

    /// Polls the JavaScript expression `expr` until it is truthy; returns its value.
    pub async fn wait_js(&self, expr: &str, timeout: Duration) -> Result<Value> {
        let deadline = Instant::now() + timeout;
        loop {
            let v = self.eval_js(&format!("return ({expr});")).await?;
            if truthy(&v) {
                return Ok(v);
            }
            if Instant::now() > deadline {
                return Err(self.context(format!(
                    "`{expr}` still falsy after {timeout:?} (last value {v})"
                )));
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Polls `check` until it says `Break(value)`; returns the value.
    /// `Continue(seen)` means "not yet": on timeout the error names the
    /// condition (`what`) and shows the last `seen`.
    pub async fn wait_until<T, S, F, Fut>(
        &self,
        what: &str,
        timeout: Duration,
        mut check: F,
    ) -> Result<T>
    where
        S: std::fmt::Debug,
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<ControlFlow<T, S>>>,
    {
        let deadline = Instant::now() + timeout;
        loop {
            let seen = match check().await? {
                ControlFlow::Break(v) => return Ok(v),
                ControlFlow::Continue(seen) => seen,
            };
            if Instant::now() > deadline {
                return Err(self.context(format!(
                    "{what}: not so after {timeout:?} (last seen {seen:?})"
                )));
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits until the page has rendered the next frame (two animation
    /// frames: whatever a resize or an event scheduled is painted), e.g.
    /// before a screenshot.
    pub async fn next_frame(&self) -> Result<()> {
        self.eval_js_async(
            "const done = arguments[arguments.length - 1]; \
             requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
        )
        .await?;
        Ok(())
    }
}
