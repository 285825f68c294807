//! How a sliced task hands the event loop back between its pieces: the four
//! primitives a page yields with, what one yield costs, and when the
//! continuation may run again.
//!
//! | primitive   | continuation runnable at     | order among runnable work  |
//! |-------------|------------------------------|----------------------------|
//! | `scheduler` | e + c                        | ahead of every queued task |
//! | `message`   | e + c                        | by when it became runnable |
//! | `timeout`   | e + c (+ 4 ms once clamped)  | by when it became runnable |
//! | `raf`       | first frame boundary ≥ e + c | by when it became runnable |
//!
//! (`e`: the end of the piece, `c`: the yield's cost.) The cost is
//! event-loop time in which no chunk runs, so an input arriving then is
//! handled at once.

use crate::error::{NumberRange, ParamError};
use crate::experiment::SWITCH_COST_RANGE;
use crate::text::{either, Text};

/// A yield primitive. Named like Run for real's (`real_yield`), without its
/// `auto`: the model needs one behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YieldKind {
    /// `await scheduler.yield()`: the continuation runs before other queued
    /// tasks of its priority (the page's tasks are taken to share it).
    Scheduler,
    /// A `MessageChannel` message to itself: queued behind waiting tasks.
    Message,
    /// `setTimeout(0)`: queued behind waiting tasks, and the nested-timer
    /// clamp adds 4 ms to each yield from a task's clamped ones on.
    Timeout,
    /// `requestAnimationFrame` then `setTimeout(0)`: continues at the next
    /// frame boundary (the inner timeout is never nested, so never clamped).
    Raf,
}

impl YieldKind {
    pub const ALL: [YieldKind; 4] = [
        YieldKind::Scheduler,
        YieldKind::Message,
        YieldKind::Timeout,
        YieldKind::Raf,
    ];

    /// The CLI, URL and JSON value.
    pub(crate) fn name(self) -> &'static str {
        match self {
            YieldKind::Scheduler => "scheduler",
            YieldKind::Message => "message",
            YieldKind::Timeout => "timeout",
            YieldKind::Raf => "raf",
        }
    }

    /// How the primitive is written in JavaScript, for sentences.
    pub(crate) fn code(self) -> &'static str {
        match self {
            YieldKind::Scheduler => "scheduler.yield()",
            YieldKind::Message => "MessageChannel",
            YieldKind::Timeout => "setTimeout(0)",
            YieldKind::Raf => "requestAnimationFrame",
        }
    }

    /// How the primitive is written in JavaScript in full, for code and
    /// results (`raf` is a frame callback that then sets a timeout).
    pub(crate) fn written(self) -> &'static str {
        match self {
            YieldKind::Raf => "requestAnimationFrame + setTimeout(0)",
            k => k.code(),
        }
    }

    /// `scheduler`, `message`, `timeout` or `raf`.
    pub fn parse(field: &str, text: &str) -> Result<YieldKind, ParamError> {
        let t = text.trim();
        YieldKind::ALL
            .into_iter()
            .find(|k| k.name() == t)
            .ok_or_else(|| {
                ParamError::new(field, text, either(&YieldKind::ALL.map(YieldKind::name)))
            })
    }
}

/// The nested-timer clamp: `setTimeout(f, 0)` waits at least this long once
/// the chain is nested deeply enough.
pub(crate) const TIMEOUT_CLAMP_MS: f64 = 4.0;
/// Chromium clamps a chain's 5th `setTimeout`: it increments the nesting
/// level before the check and compares with `>=` (crbug.com/1108877).
/// Traces come from Chromium, so the model follows it.
pub(crate) const CHROMIUM_CLAMP_FROM: u32 = 5;
/// HTML's timer initialisation steps clamp when the calling task's nesting
/// level is greater than 5: a chain's 7th `setTimeout`.
#[cfg(test)]
pub(crate) const HTML_CLAMP_FROM: u32 = 7;
/// One frame at 60 Hz.
pub(crate) const FRAME_MS: f64 = 1000.0 / 60.0;
/// The default cost of one yield: a typical event-loop turn without
/// rendering, the same for every primitive (their structure — priority,
/// clamp, frames — is what the model adds). Published figures for the turn
/// itself are 0.02–0.1 ms; see the docs for the sources.
pub(crate) const DEFAULT_YIELD_COST_MS: f64 = 0.1;
/// The yield cost's range: 0 (free) or at least 1 µs, as the switch cost.
pub(crate) const YIELD_COST_RANGE: NumberRange = SWITCH_COST_RANGE;

/// Where the yield cost came from (`yield_cost_from` in the JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CostFrom {
    /// [`DEFAULT_YIELD_COST_MS`].
    #[default]
    Default,
    /// Given by the user (`--yield-cost`, or typed on the page).
    Given,
    /// Run for real's median gap on the visitor's own machine.
    Measured,
}

impl CostFrom {
    pub(crate) fn name(self) -> &'static str {
        match self {
            CostFrom::Default => "default",
            CostFrom::Given => "given",
            CostFrom::Measured => "measured",
        }
    }
}

/// The cost per yield the model takes from Run for real's measured cost of
/// one yield of primitive `kind` (its median gap between slices, or on a
/// coarse clock the median of yields timed in batches):
/// the gap itself for `scheduler` and `message`; for `timeout` the part
/// beyond the 4 ms clamp (Run for real's chain nests deeper with every
/// slice, so nearly every gap it measures is clamped, and the model adds
/// the clamp itself); none for `raf`, whose gap is mostly the wait for the
/// next frame (which the model adds) and rendering (which it leaves out).
pub(crate) fn measured_cost(kind: YieldKind, median_gap_ms: f64) -> Option<f64> {
    if !(median_gap_ms.is_finite() && median_gap_ms >= 0.0) {
        return None;
    }
    let c = match kind {
        YieldKind::Scheduler | YieldKind::Message => median_gap_ms,
        YieldKind::Timeout => (median_gap_ms - TIMEOUT_CLAMP_MS).max(0.0),
        YieldKind::Raf => return None,
    };
    Some(c.min(YIELD_COST_RANGE.max))
}

/// A measured yield cost as the page offers it and the URL writes it
/// (`cs=`, `resp_yield_cost=`): to 0.1 µs, finer than any clock times a
/// yield.
pub(crate) fn rounded_cost(ms: f64) -> f64 {
    (ms * 1e4).round() / 1e4
}

const NO_RUN: Text = Text::new(
    "Run for real first: its measured gap between slices becomes the cost per yield.",
    "请先进行真机运行：它测得的切片间隔会成为每次让出的开销。",
);
const RAF_GAP: Text = Text::new(
    "Run for real used requestAnimationFrame: its gap is mostly the wait for the next frame, which the model adds itself, plus rendering, which it leaves out; pick another primitive in Run for real.",
    "真机运行用的是 requestAnimationFrame：它的间隔主要是等待下一帧（模型自己会加上）和渲染（模型不计），请在真机运行中换一种让出方式。",
);
const UNTIMED: Text = Text::new(
    "Run for real could not time a yield on this clock (see its yield cost line); type a cost instead.",
    "真机运行在这个时钟上测不出一次让出的耗时（见其让出开销一行），请直接输入开销。",
);

/// "Use my measured yield cost": Run for real's primitive (`yield_used`,
/// absent before a run) and its measured cost of one yield (`yield_ms`,
/// absent when none could be timed) as the model's primitive and cost
/// ([`measured_cost`], [`rounded_cost`]), or why there is none.
pub(crate) fn measured_choice(
    yield_used: Option<&str>,
    yield_ms: Option<f64>,
) -> Result<(YieldKind, f64), Text> {
    let kind = yield_used
        .and_then(|u| YieldKind::parse("yield", u).ok())
        .ok_or(NO_RUN)?;
    if kind == YieldKind::Raf {
        return Err(RAF_GAP);
    }
    yield_ms
        .and_then(|ms| measured_cost(kind, ms))
        .map(|c| (kind, rounded_cost(c)))
        .ok_or(UNTIMED)
}

/// A yield primitive and what each yield costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Yielding {
    pub kind: YieldKind,
    /// Event-loop time each yield takes, ms: no chunk runs, input waits 0.
    pub cost_ms: f64,
    /// `raf` only: the frame period; boundaries fall at whole multiples of
    /// it from time 0 (the first task's start).
    pub frame_ms: f64,
    /// `timeout` only: the first yield of a task (counted from 1) that the
    /// 4 ms clamp applies to.
    pub clamp_from: u32,
}

impl Yielding {
    /// `kind` at `cost_ms` a yield, with 60 Hz frames and Chromium's clamp.
    pub fn new(kind: YieldKind, cost_ms: f64) -> Yielding {
        Yielding {
            kind,
            cost_ms,
            frame_ms: FRAME_MS,
            clamp_from: CHROMIUM_CLAMP_FROM,
        }
    }

    /// When the continuation after a task's `nth` yield (from 1) becomes
    /// runnable, for a piece that ended at `end`.
    pub(crate) fn continuation_ready(&self, end: f64, nth: u32) -> f64 {
        let after_cost = end + self.cost_ms;
        match self.kind {
            YieldKind::Scheduler | YieldKind::Message => after_cost,
            YieldKind::Timeout if nth >= self.clamp_from => after_cost + TIMEOUT_CLAMP_MS,
            YieldKind::Timeout => after_cost,
            YieldKind::Raf => next_boundary(after_cost, self.frame_ms),
        }
    }
}

/// The first multiple of `period` at or after `t` (a `t` within float noise
/// of a boundary counts as on it).
fn next_boundary(t: f64, period: f64) -> f64 {
    let m = t / period;
    let r = m.round();
    if (m - r).abs() <= 1e-9 * r.abs().max(1.0) {
        r * period
    } else {
        m.ceil() * period
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_auto_is_refused() {
        for k in YieldKind::ALL {
            assert_eq!(YieldKind::parse("--yield", k.name()), Ok(k));
        }
        let e = YieldKind::parse("--yield", "auto").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid --yield 'auto': expected scheduler, message, timeout or raf"
        );
    }

    #[test]
    fn continuations_follow_the_primitive() {
        let y = |k| Yielding::new(k, 0.5);
        assert_eq!(y(YieldKind::Scheduler).continuation_ready(10.0, 9), 10.5);
        assert_eq!(y(YieldKind::Message).continuation_ready(10.0, 9), 10.5);
        assert_eq!(y(YieldKind::Timeout).continuation_ready(10.0, 4), 10.5);
        assert_eq!(y(YieldKind::Timeout).continuation_ready(10.0, 5), 14.5);
        let raf = y(YieldKind::Raf).continuation_ready(10.0, 1);
        assert!((raf - FRAME_MS).abs() < 1e-12);
    }

    #[test]
    fn next_boundary_is_at_or_after() {
        assert_eq!(next_boundary(0.0, 10.0), 0.0);
        assert_eq!(next_boundary(10.0, 10.0), 10.0);
        assert_eq!(next_boundary(10.5, 10.0), 20.0);
        assert!((next_boundary(3.0 * FRAME_MS, FRAME_MS) - 3.0 * FRAME_MS).abs() < 1e-12);
    }

    #[test]
    fn measured_gaps_become_costs() {
        assert_eq!(measured_cost(YieldKind::Scheduler, 0.18), Some(0.18));
        assert_eq!(measured_cost(YieldKind::Message, 1.06), Some(1.06));
        // The clamp is the model's own: only the dispatch beyond it is c.
        let t = measured_cost(YieldKind::Timeout, 4.26).unwrap();
        assert!((t - 0.26).abs() < 1e-12);
        assert_eq!(measured_cost(YieldKind::Timeout, 1.0), Some(0.0));
        assert_eq!(measured_cost(YieldKind::Raf, 7.78), None);
        assert_eq!(measured_cost(YieldKind::Message, f64::NAN), None);
    }
}
