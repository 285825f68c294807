//! A trace's real interactions: its `EventTiming` entries grouped by
//! `interactionId`, each split into the three phases of INP, placed on the
//! tasks' timeline, and INP itself.
//!
//! The rules, and where they come from:
//!
//! - An interaction is the entries sharing one non-zero `interactionId`
//!   (0: an event that is not part of one, e.g. `pointerover`) — as
//!   web-vitals groups them (`src/lib/interactions.ts`). The same entry can
//!   appear more than once in a trace: copies (same id, type and four
//!   times) count once.
//! - Its latency is the largest `duration` of its entries (web-vitals,
//!   Chrome's own INP).
//! - Phases, as web-vitals' attribution (`src/attribution/onINP.ts`) and
//!   DevTools' "INP by phase" split them: the *input delay* is the first
//!   entry's `processingStart − timeStamp`; *processing* runs from there to
//!   the last `processingEnd` of the entries presented in the same frame
//!   (render times `timeStamp + duration` within 8 ms of the first
//!   entry's, interaction or not); the *presentation delay* is the rest of
//!   the latency (at least 0: durations are rounded to 8 ms).
//! - INP is Lighthouse's (its `interaction-to-next-paint` audit, from
//!   `core/computed/metrics/responsiveness.js`) whenever the trace holds
//!   what that audit reads: Chrome's own per-interaction summaries
//!   (`Responsiveness.Renderer.UserInteraction`, `maxDuration` in whole
//!   ms) sorted longest first, the one at index `min(9, floor(n / 50))`;
//!   then INP is the `duration` of the `EventTiming` entry of the same
//!   frame and a matching type (key events for `keyboard`; pointer, mouse
//!   and click events for `tapOrClick` and `drag`) closest to that
//!   `maxDuration`, the earliest in the trace on ties, none if none is
//!   within 5 ms ([`lighthouse_inp`]). As `maxDuration` is truncated to
//!   whole ms, the entry picked can be a shorter one of the interaction
//!   than its longest (138.39 rather than 138.664 ms), so INP can be up to
//!   1 ms below the interaction's latency. Without those summaries (a
//!   trace cut down to `EventTiming`, or one they do not match), INP is
//!   web-vitals' rule over the interactions found here: the latencies
//!   sorted longest first, the one at index
//!   `min(9, len − 1, floor(len / 50))` (`src/onINP.ts` keeps the ten
//!   longest).
//! - The tasks it met, on the main thread: the task running when the
//!   input arrived (it waited behind it); its *handler tasks*, the
//!   top-level tasks that hold any of its entries' processing (typically a
//!   `RunTask` around `EventDispatch`); and what ran between the end of
//!   processing and the paint: other tasks' script, and the rendering work
//!   the trace records there ([`RENDERING_EVENTS`]).
//!
//! Times on the timeline are ms from the first task's start, the axis of
//! the tasks and of their Gantt; an entry's page-clock times map onto it
//! through its own `ts − timeStamp`.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::event_timing::{ChromeInteraction, Skipped, Timing};
use super::events::Events;
use super::tasks::{thread_events, TaskList};
use crate::text::{Lang, Text};

/// Most interactions kept from one trace (the earliest); the rest are
/// counted.
pub const MAX_INTERACTIONS: usize = 10_000;
/// Entries whose render times are this close were presented in the same
/// frame (web-vitals; durations are rounded to 8 ms).
pub(crate) const SAME_FRAME_MS: f64 = 8.0;
/// The main thread's rendering work between the handlers and the paint:
/// style, layout, paint, layerization and the commit to the compositor
/// (DevTools' "Rendering" and "Painting" categories).
pub(crate) const RENDERING_EVENTS: [&str; 10] = [
    "UpdateLayoutTree",
    "RecalculateStyles",
    "Layout",
    "PrePaint",
    "Paint",
    "Layerize",
    "UpdateLayerTree",
    "Commit",
    "CompositeLayers",
    "ScrollLayer",
];
/// A presentation later than the trace's last event by more than this is
/// past the trace: the entry is skipped.
const PAST_END_SLACK_MS: f64 = 8.0;
/// Bounds on the work one interaction can cost, whatever the trace: entries
/// looked at for its frame, tasks listed per phase, tasks and events
/// summed after its handlers.
const MAX_FRAME_SCAN: usize = 1024;
const MAX_TASKS_LISTED: usize = 64;
const MAX_SCAN: usize = 4096;
/// Most entries kept for one interaction (a real one has two to five:
/// pointerdown, pointerup, click; keydown, keyup).
const MAX_ENTRIES_PER_INTERACTION: usize = 64;

/// What kind of input an interaction was, from its entries' types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Keyboard,
    TapClick,
    Drag,
    Other,
}

impl Kind {
    /// Drag events make a drag; key events a keyboard interaction;
    /// pointer, mouse, touch and click events a tap or click.
    pub(crate) fn of<'a>(types: impl IntoIterator<Item = &'a str> + Clone) -> Kind {
        let any = |f: fn(&str) -> bool| types.clone().into_iter().any(f);
        if any(|t| t.starts_with("drag") || t == "drop") {
            Kind::Drag
        } else if any(|t| t.starts_with("key")) {
            Kind::Keyboard
        } else if any(|t| {
            t.starts_with("pointer")
                || t.starts_with("mouse")
                || t.starts_with("touch")
                || t == "click"
                || t == "auxclick"
                || t == "contextmenu"
        }) {
            Kind::TapClick
        } else {
            Kind::Other
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Keyboard => "keyboard",
            Kind::TapClick => "tap-click",
            Kind::Drag => "drag",
            Kind::Other => "other",
        }
    }

    pub fn label(self) -> Text {
        match self {
            Kind::Keyboard => Text::new("keyboard", "键盘"),
            Kind::TapClick => Text::new("tap/click", "点按/点击"),
            Kind::Drag => Text::new("drag", "拖动"),
            Kind::Other => Text::new("other", "其他"),
        }
    }
}

/// One interaction, as recorded. Times in ms; `start_ms` and the other
/// `_at_ms` on the tasks' timeline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interaction {
    pub id: u64,
    pub kind: Kind,
    /// Its entries' types, in time order, copies removed.
    pub events: Vec<String>,
    /// When the input happened.
    pub start_ms: f64,
    pub latency_ms: f64,
    pub input_delay_ms: f64,
    pub processing_ms: f64,
    pub presentation_ms: f64,
    /// When processing ended (the presentation delay starts).
    pub processing_end_at_ms: f64,
    /// When the next frame was presented: `start_ms + latency_ms`, or the
    /// end of processing if later.
    pub paint_at_ms: f64,
    /// The task running when the input arrived (an index into the tasks),
    /// unless that was one of its own handlers.
    pub waited_behind: Option<usize>,
    /// Its own handler tasks.
    pub handlers: Vec<usize>,
    /// Other tasks that ran between the end of processing and the paint.
    pub after: Vec<usize>,
    /// Rendering work on the main thread in that stretch, ms.
    pub rendering_ms: f64,
    /// Other tasks' time in that stretch, less the rendering in them: the
    /// part of the presentation delay spent waiting behind other script.
    pub script_after_ms: f64,
}

/// INP and the interaction that sets it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inp {
    pub latency_ms: f64,
    /// Index into [`Interactions::list`].
    pub interaction: usize,
}

/// A trace's interactions, and what was left out.
/// Serialisable both ways, so a front end can carry it from the trace
/// reader to the model (two wasm modules) and back.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Interactions {
    /// In time order.
    pub list: Vec<Interaction>,
    pub inp: Option<Inp>,
    /// `EventTiming` entries read in the whole trace (any process) before
    /// copies were removed: 0 means the trace has none at all.
    pub entries_in_trace: usize,
    /// Entries of the page's process used, copies removed.
    pub entries: usize,
    pub duplicates: usize,
    pub skipped: Skipped,
    /// Interactions over [`MAX_INTERACTIONS`], not kept.
    pub not_kept: usize,
}

/// A trace's interactions and which of its tasks are their handlers, as a
/// front end carries them from the trace reader to the model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Carried {
    pub interactions: Interactions,
    /// One flag per task of the trace's task list.
    pub handler: Vec<bool>,
}

/// How many of the longest interactions web-vitals and Chrome keep, and so
/// the deepest index INP can take.
pub(crate) const LONGEST_KEPT: usize = 10;

/// INP of `latencies` (any order), the index of the one that sets it:
/// sorted longest first, index `min(kept − 1, floor(len / 50))` where only
/// the [`LONGEST_KEPT`] longest are kept (web-vitals `src/onINP.ts`;
/// Lighthouse's `core/computed/metrics/responsiveness.js` writes it
/// `min(9, floor(len / 50))`); `None` for none.
pub fn inp_index(latencies: &[f64]) -> Option<usize> {
    if latencies.is_empty() {
        return None;
    }
    let mut order: Vec<usize> = (0..latencies.len()).collect();
    order.sort_by(|&a, &b| latencies[b].total_cmp(&latencies[a]).then(a.cmp(&b)));
    let kept = latencies.len().min(LONGEST_KEPT);
    let at = (latencies.len() / 50).min(kept - 1);
    Some(order[at])
}

/// Largest gap between Chrome's `maxDuration` and the `EventTiming` entry
/// Lighthouse matches to it, ms (beyond it Lighthouse gives up).
pub(crate) const LIGHTHOUSE_MATCH_MS: f64 = 5.0;

/// The `EventTiming` types Lighthouse matches to an `interactionType`.
fn lighthouse_types(interaction_type: &str) -> Option<&'static [&'static str]> {
    const KEYBOARD: &[&str] = &["keydown", "keypress", "keyup"];
    const POINTER: &[&str] = &["mousedown", "mouseup", "pointerdown", "pointerup", "click"];
    match interaction_type {
        "keyboard" => Some(KEYBOARD),
        "tapOrClick" | "drag" => Some(POINTER),
        _ => None,
    }
}

/// INP as Lighthouse's `interaction-to-next-paint` audit computes it
/// (`core/computed/metrics/responsiveness.js`): over Chrome's summaries of
/// process `pid` (`summaries`, trace order), the one at index
/// `min(9, floor(n / 50))` by `maxDuration`, longest first (earliest on
/// ties); then, among `timings` (trace order, any process), the entries of
/// its frame and of a matching type, the one whose `duration` is closest
/// to that `maxDuration` (the first on ties). Returns that entry's
/// `duration` and `interactionId` (0 when it is not part of one), or
/// `None` when Lighthouse would find no INP (no summary) or give up (no
/// entry names its frame, no entry matches, or the closest is over
/// [`LIGHTHOUSE_MATCH_MS`] away).
pub(crate) fn lighthouse_inp(
    summaries: &[ChromeInteraction],
    timings: &[Timing],
    pid: i64,
) -> Option<(f64, u64)> {
    let mut mine: Vec<&ChromeInteraction> = summaries.iter().filter(|c| c.pid == pid).collect();
    if mine.is_empty() || timings.iter().all(|t| t.frame.is_empty()) {
        return None;
    }
    // Lighthouse's events are in time order, then sorted (stably) by
    // maxDuration, longest first.
    mine.sort_by(|a, b| a.ts.total_cmp(&b.ts));
    mine.sort_by(|a, b| b.max_duration.total_cmp(&a.max_duration));
    let worst = mine[(mine.len() / 50).min(LONGEST_KEPT - 1)];
    let types = lighthouse_types(&worst.kind)?;
    let mut best: Option<&Timing> = None;
    let mut gap = f64::INFINITY;
    for t in timings {
        if t.frame != worst.frame || !types.contains(&t.kind.as_str()) {
            continue;
        }
        let d = (t.duration - worst.max_duration).abs();
        if d < gap {
            best = Some(t);
            gap = d;
        }
    }
    let best = best?;
    (gap <= LIGHTHOUSE_MATCH_MS).then_some((best.duration, best.interaction_id))
}

/// The interactions of process `pid`, placed on the tasks of `thread`
/// (its main thread), and which of those tasks are an interaction's own
/// handlers.
pub(crate) fn find(
    ev: &Events,
    pid: i64,
    thread: u32,
    list: &TaskList,
) -> (Interactions, Vec<bool>) {
    let mut handler = vec![false; list.tasks.len()];
    let mut out = Interactions {
        entries_in_trace: ev.timings.len() + ev.timings_skipped.total(),
        skipped: ev.timings_skipped,
        ..Interactions::default()
    };
    let Some(first_task) = list.tasks.first() else {
        return (out, handler);
    };
    let t0 = first_task.start;
    let mut kept: Vec<&Timing> = Vec::new();
    for t in ev.timings.iter().filter(|t| t.pid == pid) {
        if t.ts + (t.duration - PAST_END_SLACK_MS) * 1000.0 > ev.end {
            out.skipped.past_end += 1;
        } else {
            kept.push(t);
        }
    }
    // The input first: the earliest entry, then the one processed first.
    kept.sort_by(|a, b| {
        a.time_stamp
            .total_cmp(&b.time_stamp)
            .then(a.processing_start.total_cmp(&b.processing_start))
            .then_with(|| a.key().cmp(&b.key()))
    });
    let before = kept.len();
    kept.dedup_by(|a, b| a.key() == b.key());
    out.duplicates = before - kept.len();
    out.entries = kept.len();

    // Every entry by render time, for the frame each interaction shares.
    let mut by_render: Vec<&Timing> = kept.clone();
    by_render.sort_by(|a, b| a.render_time().total_cmp(&b.render_time()));

    let mut groups: HashMap<u64, Vec<&Timing>> = HashMap::new();
    let mut order: Vec<u64> = Vec::new();
    for &t in &kept {
        if t.interaction_id == 0 {
            continue;
        }
        let g = groups.entry(t.interaction_id).or_default();
        if g.is_empty() {
            order.push(t.interaction_id);
        }
        if g.len() < MAX_ENTRIES_PER_INTERACTION {
            g.push(t);
        } else {
            out.skipped.over_limit += 1;
        }
    }
    out.not_kept = order.len().saturating_sub(MAX_INTERACTIONS);
    order.truncate(MAX_INTERACTIONS);
    let rendering: Vec<bool> = ev
        .names
        .iter()
        .map(|n| RENDERING_EVENTS.contains(&n.as_str()))
        .collect();
    let events = thread_events(ev, thread);
    for id in order {
        let entries = &groups[&id];
        let one = place(id, entries, &by_render, list, t0, events, &rendering);
        for &h in &one.handlers {
            handler[h] = true;
        }
        out.list.push(one);
    }
    let latencies: Vec<f64> = out.list.iter().map(|i| i.latency_ms).collect();
    let lighthouse =
        lighthouse_inp(&ev.chrome_interactions, &ev.timings, pid).filter(|_| !out.list.is_empty());
    out.inp = match lighthouse {
        // The interaction that set it: the one of the matched entry, or
        // (an entry outside any interaction) the one of closest latency.
        Some((ms, id)) => {
            let by_id = out.list.iter().position(|i| id != 0 && i.id == id);
            let closest = || {
                (0..latencies.len()).min_by(|&a, &b| {
                    (latencies[a] - ms)
                        .abs()
                        .total_cmp(&(latencies[b] - ms).abs())
                        .then(a.cmp(&b))
                })
            };
            by_id.or_else(closest).map(|i| Inp {
                latency_ms: ms,
                interaction: i,
            })
        }
        None => inp_index(&latencies).map(|i| Inp {
            latency_ms: latencies[i],
            interaction: i,
        }),
    };
    (out, handler)
}

/// The tasks overlapping `(from, to)` (µs), or holding `from` when the
/// two are equal; at most [`MAX_SCAN`] of them.
fn tasks_in(list: &TaskList, from: f64, to: f64) -> impl Iterator<Item = usize> + '_ {
    let lo = list.tasks.partition_point(|t| t.end <= from);
    (lo..list.tasks.len())
        .take(MAX_SCAN)
        .take_while(move |&i| list.tasks[i].start < to || list.tasks[i].start <= from)
}

fn place(
    id: u64,
    entries: &[&Timing],
    by_render: &[&Timing],
    list: &TaskList,
    t0: f64,
    events: &[super::events::Ev],
    rendering: &[bool],
) -> Interaction {
    // `entries` are in page-clock order: the first is the input.
    let first = entries[0];
    let latency = entries.iter().map(|e| e.duration).fold(0.0, f64::max);
    let input_delay = first.processing_start - first.time_stamp;
    let render = first.render_time();
    let lo = by_render.partition_point(|e| e.render_time() < render - SAME_FRAME_MS);
    let frame_end = by_render[lo..]
        .iter()
        .take(MAX_FRAME_SCAN)
        .take_while(|e| e.render_time() <= render + SAME_FRAME_MS)
        .map(|e| e.processing_end)
        .fold(first.processing_end, f64::max);
    let processing = frame_end - first.processing_start;
    let presentation = (latency - input_delay - processing).max(0.0);

    // On the trace's clock, µs.
    let offset = first.ts - first.time_stamp * 1000.0;
    let end_us = offset + frame_end * 1000.0;
    let paint_us = offset + (first.time_stamp + latency).max(frame_end) * 1000.0;
    let mut handlers: Vec<usize> = Vec::new();
    // One budget of tasks looked at for all its entries together.
    let mut budget = MAX_SCAN;
    for e in entries {
        let (ps, pe) = e.processing_us();
        for i in tasks_in(list, ps, pe).take(budget) {
            budget -= 1;
            if !handlers.contains(&i) && handlers.len() < MAX_TASKS_LISTED {
                handlers.push(i);
            }
        }
    }
    handlers.sort_unstable();
    let at = list.tasks.partition_point(|t| t.end <= first.ts);
    let waited_behind = list
        .tasks
        .get(at)
        .filter(|t| t.start <= first.ts)
        .map(|_| at)
        .filter(|i| !handlers.contains(i));
    let mut after = Vec::new();
    let mut busy_after = 0.0;
    for i in tasks_in(list, end_us, paint_us) {
        if handlers.contains(&i) {
            continue;
        }
        let t = &list.tasks[i];
        busy_after += (t.end.min(paint_us) - t.start.max(end_us)).max(0.0);
        if after.len() < MAX_TASKS_LISTED {
            after.push(i);
        }
    }
    let rendering_us = rendering_between(events, rendering, end_us, paint_us);
    let ms = |us: f64| (us - t0) / 1000.0;
    let mut types: Vec<String> = Vec::new();
    for e in entries {
        if !types.contains(&e.kind) {
            types.push(e.kind.clone());
        }
    }
    Interaction {
        id,
        kind: Kind::of(types.iter().map(String::as_str)),
        events: types,
        start_ms: ms(first.ts),
        latency_ms: latency,
        input_delay_ms: input_delay,
        processing_ms: processing,
        presentation_ms: presentation,
        processing_end_at_ms: ms(end_us),
        paint_at_ms: ms(paint_us),
        waited_behind,
        handlers,
        after,
        rendering_ms: rendering_us / 1000.0,
        script_after_ms: ((busy_after - rendering_us) / 1000.0).max(0.0),
    }
}

/// The union of the thread's rendering events (`X` events) that start in
/// `[from, to)`, clipped at `to`, µs.
fn rendering_between(events: &[super::events::Ev], rendering: &[bool], from: f64, to: f64) -> f64 {
    let lo = events.partition_point(|e| e.ts < from);
    let mut total = 0.0;
    let mut reach = from;
    for e in events[lo..]
        .iter()
        .take(MAX_SCAN)
        .take_while(|e| e.ts < to)
        .filter(|e| e.ph == b'X' && !e.dur.is_nan() && rendering[e.name as usize])
    {
        let end = (e.ts + e.dur).min(to);
        let start = e.ts.max(reach);
        if end > start {
            total += end - start;
            reach = end;
        }
    }
    total
}

const NO_EVENT_TIMING: Text = Text::new(
    "interactions: none; the trace holds no EventTiming events (Chrome records them from version 103 with the devtools.timeline category), so INP and its phases cannot be read from it",
    "交互：无；此 trace 不含 EventTiming 事件（Chrome 从 103 版起在 devtools.timeline 类别下记录），因此无法从中读出 INP 及其各阶段",
);
const NO_INTERACTION: Text = Text::new(
    "interactions: none; the trace holds {} EventTiming entries but no interaction (no click, tap or key press while it was recorded), so it has no INP",
    "交互：无；此 trace 含 {} 个 EventTiming 条目，但没有交互（记录期间没有点击、点按或按键），因此没有 INP",
);
const FOUND: Text = Text::new(
    "interactions: {} from {} EventTiming entries; INP {} ms (interaction {}, {})",
    "交互：{} 个，来自 {} 个 EventTiming 条目；INP {} ms（交互 {}，{}）",
);
const LEFT_OUT: Text = Text::new(
    "EventTiming entries left out: {} copies of the same entry, {} malformed, {} with impossible times, {} presented after the trace's end, {} over the limits ({} in all, {} per interaction); interactions not kept over the limit of {}: {}",
    "未使用的 EventTiming 条目：重复 {} 个，格式错误 {} 个，时间不可能 {} 个，呈现晚于 trace 结尾 {} 个，超出上限的 {} 个（上限共 {} 个、每个交互 {} 个）；超出上限 {} 而未保留的交互：{} 个",
);

impl Interactions {
    /// What was found, in one or two lines: the count and INP, or why there
    /// is none; then what was left out, if anything.
    pub fn lines(&self, lang: Lang) -> Vec<String> {
        let mut out = Vec::new();
        match self.inp {
            Some(inp) => {
                let i = &self.list[inp.interaction];
                out.push(FOUND.fill(
                    lang,
                    &[
                        &self.list.len().to_string(),
                        &self.entries.to_string(),
                        &format!("{:.0}", inp.latency_ms),
                        &i.id.to_string(),
                        i.kind.label().get(lang),
                    ],
                ));
            }
            None if self.entries_in_trace == 0 => out.push(NO_EVENT_TIMING.get(lang).to_string()),
            None => out.push(NO_INTERACTION.fill(lang, &[&self.entries_in_trace.to_string()])),
        }
        let s = self.skipped;
        if self.duplicates + s.total() + self.not_kept > 0 {
            out.push(LEFT_OUT.fill(
                lang,
                &[
                    &self.duplicates.to_string(),
                    &s.malformed.to_string(),
                    &s.impossible.to_string(),
                    &s.past_end.to_string(),
                    &s.over_limit.to_string(),
                    &super::event_timing::MAX_EVENT_TIMINGS.to_string(),
                    &MAX_ENTRIES_PER_INTERACTION.to_string(),
                    &MAX_INTERACTIONS.to_string(),
                    &self.not_kept.to_string(),
                ],
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(id: u64, kind: &str, duration: f64, frame: &str) -> Timing {
        Timing {
            pid: 1,
            ts: 0.0,
            interaction_id: id,
            kind: kind.into(),
            time_stamp: 0.0,
            processing_start: 0.0,
            processing_end: 0.0,
            duration,
            frame: frame.into(),
        }
    }

    fn summary(kind: &str, max_duration: f64, ts: f64) -> ChromeInteraction {
        ChromeInteraction {
            pid: 1,
            ts,
            frame: "F".into(),
            kind: kind.into(),
            max_duration,
        }
    }

    #[test]
    fn lighthouse_takes_the_entry_closest_to_chromes_whole_ms_maximum() {
        // Chrome's maxDuration 131 for an interaction whose longest entry
        // is 131.734 ms: Lighthouse's INP is the pointerup's 130.785 (0.215
        // away), not the pointerdown's 131.734 (0.734 away).
        let timings = [
            timing(2076, "pointerdown", 131.734, "F"),
            timing(2076, "pointerup", 130.785, "F"),
            timing(2076, "click", 130.785, "F"),
            timing(2083, "pointerdown", 125.449, "F"),
            // Another frame, and a key event: never matched to a click.
            timing(9, "pointerup", 131.0, "G"),
            timing(10, "keydown", 131.0, "F"),
        ];
        let summaries = [
            summary("tapOrClick", 125.0, 2.0),
            summary("tapOrClick", 131.0, 1.0),
        ];
        assert_eq!(
            lighthouse_inp(&summaries, &timings, 1),
            Some((130.785, 2076))
        );
        // Another process's summaries are not this page's.
        assert_eq!(lighthouse_inp(&summaries, &timings, 2), None);
        // Entries that name no frame (Chrome before 103): Lighthouse refuses.
        let old: Vec<Timing> = timings
            .iter()
            .map(|t| Timing {
                frame: String::new(),
                ..t.clone()
            })
            .collect();
        assert_eq!(lighthouse_inp(&summaries, &old, 1), None);
        // Nothing within 5 ms: Lighthouse gives up.
        assert_eq!(
            lighthouse_inp(&[summary("tapOrClick", 140.0, 1.0)], &timings, 1),
            None
        );
        // 50 summaries: the second longest.
        let many: Vec<ChromeInteraction> = (0..50)
            .map(|k| summary("keyboard", f64::from(k), f64::from(k)))
            .collect();
        let keys = [
            timing(1, "keyup", 48.2, "F"),
            timing(2, "keydown", 49.0, "F"),
        ];
        assert_eq!(lighthouse_inp(&many, &keys, 1), Some((48.2, 1)));
    }

    #[test]
    fn inp_ignores_one_interaction_per_fifty() {
        assert_eq!(inp_index(&[]), None);
        assert_eq!(inp_index(&[10.0, 30.0, 20.0]), Some(1));
        // 49 interactions: the worst; 50: the second worst; 120: the third.
        let mut l: Vec<f64> = (0..49).map(f64::from).collect();
        assert_eq!(inp_index(&l), Some(48));
        l.push(1000.0);
        assert_eq!(inp_index(&l), Some(48));
        let l: Vec<f64> = (0..120).map(|i| f64::from(i) * 2.0).collect();
        assert_eq!(l[inp_index(&l).unwrap()], 119.0 * 2.0 - 4.0);
        // Index floor(n / 50), but from 500 on the tenth worst (index 9):
        // only ten are kept.
        for (n, index) in [(449, 8), (500, 9), (2000, 9)] {
            let l: Vec<f64> = (0..n).map(f64::from).collect();
            assert_eq!(l[inp_index(&l).unwrap()], f64::from(n - 1 - index), "{n}");
        }
    }

    #[test]
    fn both_languages_take_the_same_arguments() {
        for t in [NO_EVENT_TIMING, NO_INTERACTION, FOUND, LEFT_OUT] {
            assert_eq!(
                t.en.matches("{}").count(),
                t.zh.matches("{}").count(),
                "{t:?}"
            );
        }
    }

    #[test]
    fn kinds_come_from_the_types() {
        assert_eq!(Kind::of(["keydown", "keyup"]), Kind::Keyboard);
        assert_eq!(
            Kind::of(["pointerdown", "pointerup", "click"]),
            Kind::TapClick
        );
        assert_eq!(Kind::of(["pointerdown", "dragstart"]), Kind::Drag);
        assert_eq!(Kind::of(["input"]), Kind::Other);
    }
}
