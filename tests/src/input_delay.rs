//! Real key presses on a busy page: `tests/pages/input-delay.html` replays a
//! schedule of busy main-thread tasks (whole, or sliced with
//! `scheduler.yield()`) while [`press_keys_during`] sends key presses through
//! Chromium's input path at uniformly random times, pipelined on a
//! [`CdpSocket`]. What comes back is what the page recorded: the pieces that
//! ran, each press's timestamp and handler time, and its Event Timing entry
//! when the browser reported one. `delay_check.rs` compares it with the model.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tailslice::rng::{PyRandom, UniformSource};

use crate::cdp_socket::CdpSocket;
use crate::{test_pages_dir, Browser, Result};

/// One task of a replayed schedule: starts `start` ms after the run starts
/// (or when the thread is next free) and keeps the thread `dur` ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BusyTask {
    pub start: f64,
    pub dur: f64,
}

/// A schedule shaped like a loading page's main thread in a Lighthouse
/// trace: mostly short tasks (1–15 ms), about one in eight long (50–450
/// ms), each after an idle gap of 4–40 ms. Seeded, so every run replays the
/// same list.
pub fn lighthouse_like(seed: u64, n: usize) -> Vec<BusyTask> {
    let mut rng = PyRandom::new(seed);
    let mut t = 10.0;
    let mut tasks = Vec::with_capacity(n);
    for _ in 0..n {
        let long = rng.random() < 0.12;
        let u = rng.random();
        let dur = if long {
            50.0 + 400.0 * u
        } else {
            1.0 + 14.0 * u * u
        };
        // Whole milliseconds and tenths: a schedule a reader can print.
        let dur = (dur * 10.0).round() / 10.0;
        tasks.push(BusyTask { start: t, dur });
        t += dur + (4.0 + 36.0 * rng.random()).round();
    }
    tasks
}

/// The span a schedule takes as planned, ms.
pub fn planned_span(tasks: &[BusyTask]) -> f64 {
    tasks.iter().map(|t| t.start + t.dur).fold(0.0, f64::max)
}

/// How the tasks run: whole, or in pieces of `quantum` ms with
/// `scheduler.yield()` between them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    Whole,
    Sliced(f64),
}

impl Mode {
    pub fn quantum(self) -> f64 {
        match self {
            Mode::Whole => 0.0,
            Mode::Sliced(q) => q,
        }
    }

    pub fn label(self) -> String {
        match self {
            Mode::Whole => "whole tasks".into(),
            Mode::Sliced(q) => format!("sliced at {q} ms"),
        }
    }
}

/// One piece of a task as it ran, page clock (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RanPiece {
    pub task: usize,
    pub start: f64,
    pub end: f64,
}

/// One key press as the page saw it, page clock (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Press {
    /// `event.timeStamp`: when the browser process made the event.
    pub time_stamp: f64,
    /// `performance.now()` at the handler's first statement.
    pub handled: f64,
    /// Event Timing's `processingStart − startTime`, when an entry was reported.
    pub event_timing_delay: Option<f64>,
}

impl Press {
    /// The input delay measured in the handler.
    pub fn delay(&self) -> f64 {
        self.handled - self.time_stamp
    }
}

/// What one run of the page recorded.
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    pub pieces: Vec<RanPiece>,
    pub presses: Vec<Press>,
    /// Presses sent (each press is a keydown and a keyup).
    pub sent: usize,
}

impl Recorded {
    pub fn extend(&mut self, other: Recorded) {
        self.pieces.extend(other.pieces);
        self.presses.extend(other.presses);
        self.sent += other.sent;
    }
}

/// Opens the input-delay page (cross-origin isolated, so `performance.now()`
/// has 5 µs steps instead of 100) and a DevTools socket to it.
pub async fn open_input_page() -> Result<(Browser, CdpSocket)> {
    let b = Browser::start_serving_isolated(test_pages_dir()).await?;
    b.open("/input-delay.html").await?;
    b.wait_js(
        "window.inputDelay && crossOriginIsolated",
        Duration::from_secs(15),
    )
    .await?;
    let socket = b.devtools_socket(&b.url("/input-delay.html")).await?;
    Ok((b, socket))
}

/// Uniformly random send times over `[0, span)` ms, sorted.
fn send_times(seed: u64, n: usize, span: f64) -> Vec<f64> {
    let mut rng = PyRandom::new(seed);
    let mut t: Vec<f64> = (0..n).map(|_| rng.random() * span).collect();
    t.sort_by(f64::total_cmp);
    t
}

/// Starts `tasks` in `mode` and sends `presses` key presses at uniformly
/// random times over the schedule's planned span, then waits until the page
/// has handled them all and its tasks have ended, and returns what it
/// recorded.
pub async fn press_keys_during(
    b: &Browser,
    socket: &CdpSocket,
    tasks: &[BusyTask],
    mode: Mode,
    presses: usize,
    seed: u64,
) -> Result<Recorded> {
    let run = b
        .eval_js("return window.inputDelay.run;")
        .await?
        .as_u64()
        .unwrap_or(0)
        + 1;
    let schedule: Vec<Value> = tasks
        .iter()
        .map(|t| json!({"start": t.start, "dur": t.dur}))
        .collect();
    let start = format!(
        "window.inputDelay.start({}, {})",
        Value::Array(schedule),
        mode.quantum()
    );
    // The idle page gets a span of its own so its presses are spread out too.
    let span = if tasks.is_empty() {
        presses as f64 * 10.0
    } else {
        planned_span(tasks)
    };
    let times = send_times(seed, presses, span);
    // Sending is timed on a thread of its own (a timetable, not a wait on
    // the page): nothing here waits for a reply before the next press.
    let last = tokio::task::block_in_place(|| {
        std::thread::scope(|s| {
            s.spawn(|| -> Result<u64> {
                // The run has started (its presses counted from zero)
                // before the first press is sent: the reply comes back once
                // start() has returned, a few ms before the first task.
                socket.call(
                    "Runtime.evaluate",
                    json!({"expression": start, "returnByValue": true}),
                    Duration::from_secs(30),
                )?;
                let t0 = Instant::now();
                let mut last = 0;
                for &t in &times {
                    let at = t0 + Duration::from_secs_f64(t / 1000.0);
                    if let Some(wait) = at.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    for kind in ["rawKeyDown", "keyUp"] {
                        last = socket.send(
                            "Input.dispatchKeyEvent",
                            json!({"type": kind, "key": "a", "code": "KeyA",
                               "windowsVirtualKeyCode": 65, "nativeVirtualKeyCode": 65}),
                        )?;
                    }
                }
                Ok(last)
            })
            .join()
            .expect("the sending thread does not panic")
        })
    })?;
    let timeout = Duration::from_secs(60);
    tokio::task::block_in_place(|| socket.replies_through(last, timeout))?;
    let ended = format!(
        "Number(document.body.dataset.run) >= {run} && window.inputDelay.inputs.length >= {presses}"
    );
    if let Err(e) = b.wait_js(&ended, timeout).await {
        let seen = b
            .eval_js("const s = window.inputDelay; return {run: s.run, done: s.done, inputs: s.inputs.length, pieces: s.pieces.length};")
            .await?;
        return Err(format!("{e}; the page: {seen}").into());
    }
    // Event Timing entries are reported after the frame that follows their
    // event: two frames later every press has had its frame.
    b.next_frame().await?;
    b.next_frame().await?;
    let v = b
        .eval_js("const s = window.inputDelay; return {pieces: s.pieces, inputs: s.inputs, timings: s.timings};")
        .await?;
    Ok(parse_recorded(&v, presses))
}

fn num(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or(f64::NAN)
}

fn parse_recorded(v: &Value, sent: usize) -> Recorded {
    let list = |k: &str| v[k].as_array().cloned().unwrap_or_default();
    let pieces = list("pieces")
        .iter()
        .map(|p| RanPiece {
            task: p["task"].as_u64().unwrap_or(0) as usize,
            start: num(p, "start"),
            end: num(p, "end"),
        })
        .collect();
    let timings = list("timings");
    let presses = list("inputs")
        .iter()
        .map(|i| {
            let ts = num(i, "timeStamp");
            // Event Timing's startTime is the event's timeStamp.
            let event_timing_delay = timings
                .iter()
                .find(|e| (num(e, "startTime") - ts).abs() < 0.001)
                .map(|e| num(e, "processingStart") - num(e, "startTime"));
            Press {
                time_stamp: ts,
                handled: num(i, "handled"),
                event_timing_delay,
            }
        })
        .collect();
    Recorded {
        pieces,
        presses,
        sent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_is_seeded_and_has_a_few_long_tasks() {
        let a = lighthouse_like(23, 45);
        assert_eq!(a, lighthouse_like(23, 45));
        assert_eq!(a.len(), 45);
        let long = a.iter().filter(|t| t.dur >= 50.0).count();
        assert!((2..=12).contains(&long), "{long} long tasks");
        assert!(a
            .windows(2)
            .all(|w| w[1].start >= w[0].start + w[0].dur + 4.0));
    }

    #[test]
    fn send_times_are_sorted_inside_the_span() {
        let t = send_times(1, 500, 2000.0);
        assert!(t.windows(2).all(|w| w[0] <= w[1]));
        assert!(t[0] >= 0.0 && t[499] < 2000.0);
    }

    #[test]
    fn event_timing_entries_are_matched_by_their_start_time() {
        let v = json!({
            "pieces": [{"task": 0, "start": 1.0, "end": 5.0}],
            "inputs": [{"timeStamp": 2.0, "handled": 5.1}, {"timeStamp": 9.0, "handled": 9.9}],
            "timings": [{"startTime": 2.0, "processingStart": 5.05}],
        });
        let r = parse_recorded(&v, 2);
        assert_eq!(r.pieces.len(), 1);
        assert!((r.presses[0].event_timing_delay.unwrap() - 3.05).abs() < 1e-9);
        assert_eq!(r.presses[1].event_timing_delay, None);
        assert!((r.presses[1].delay() - 0.9).abs() < 1e-9);
    }
}
