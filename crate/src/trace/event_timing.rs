//! One `EventTiming` trace event: the browser's Event Timing entry for one
//! input event, as Chrome 103+ records it with the `devtools.timeline`
//! category.
//!
//! The event is an async pair (`ph` `b`, then `e`); only the `b` carries
//! `args.data`: `type`, `interactionId` (0: not part of an interaction),
//! `timeStamp`, `processingStart`, `processingEnd` and `duration`, all in
//! ms of the page's clock (`performance.now()`); the `b` event's `ts` is the
//! input's time on the trace's clock (µs), so `ts − timeStamp` maps the
//! page's clock onto the trace. Anything else about the event is skipped.
//!
//! A `b` event whose data is missing, malformed or impossible (a negative
//! duration, processing that ends before it starts or starts before the
//! input) is not kept; [`Skipped`] counts each kind, so the summary can say
//! how many were left out and why, and no such event stops the import.

use serde::{Deserialize, Serialize};

/// Most `EventTiming` events kept from one trace; more are counted, not
/// kept (a real session of a few minutes holds hundreds).
pub(crate) const MAX_EVENT_TIMINGS: usize = 200_000;
/// The longest latency kept, ms: Event Timing reports no more than a
/// minute for any real input; longer is a broken event.
pub(crate) const MAX_DURATION_MS: f64 = 60_000.0;
/// The latest page-clock time accepted, ms (about three years after the
/// page's time origin): later ones lose the precision that places an entry
/// on the trace's clock.
pub(crate) const MAX_PAGE_CLOCK_MS: f64 = 1e11;
/// Most characters of an event's type kept (`pointerdown` is 11).
const MAX_TYPE_CHARS: usize = 32;
/// Most characters of a frame id kept (Chrome's are 32 hex digits).
const MAX_FRAME_CHARS: usize = 64;

/// One Event Timing entry as kept.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Timing {
    pub pid: i64,
    /// The input's time on the trace's clock, µs.
    pub ts: f64,
    /// 0: not part of an interaction.
    pub interaction_id: u64,
    /// The DOM event's type (`pointerdown`, `click`, `keydown`, …).
    pub kind: String,
    /// The input's time on the page's clock, ms.
    pub time_stamp: f64,
    pub processing_start: f64,
    pub processing_end: f64,
    /// Input to the next paint, ms (the page's Event Timing API rounds it
    /// to 8 ms; the trace does not).
    pub duration: f64,
    /// The frame it happened in (`args.data.frame`, Chrome 103+); empty
    /// when the event does not say.
    pub frame: String,
}

impl Timing {
    /// The processing's start and end on the trace's clock, µs.
    pub(crate) fn processing_us(&self) -> (f64, f64) {
        let offset = self.ts - self.time_stamp * 1000.0;
        (
            offset + self.processing_start * 1000.0,
            offset + self.processing_end * 1000.0,
        )
    }

    /// When the frame after it was presented, on the page's clock, ms.
    pub(crate) fn render_time(&self) -> f64 {
        self.time_stamp + self.duration
    }

    /// The fields that tell two copies of one event apart from two events.
    pub(crate) fn key(&self) -> (u64, &str, [u64; 4]) {
        (
            self.interaction_id,
            &self.kind,
            [
                self.time_stamp.to_bits(),
                self.processing_start.to_bits(),
                self.processing_end.to_bits(),
                self.duration.to_bits(),
            ],
        )
    }
}

/// `EventTiming` events not kept, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// `args.data` missing, or a field missing or not a number.
    pub malformed: usize,
    /// Times that cannot be: negative or past [`MAX_PAGE_CLOCK_MS`],
    /// processing ending before it starts or starting before the input, a
    /// duration over a minute.
    pub impossible: usize,
    /// Presented after the trace's last event.
    pub past_end: usize,
    /// Over [`MAX_EVENT_TIMINGS`], or over the entries kept for one
    /// interaction.
    pub over_limit: usize,
}

impl Skipped {
    pub(crate) fn total(&self) -> usize {
        self.malformed + self.impossible + self.past_end + self.over_limit
    }
}

#[derive(serde::Deserialize)]
struct Args {
    data: Option<Data>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Data {
    #[serde(rename = "type")]
    kind: Option<String>,
    interaction_id: Option<f64>,
    time_stamp: Option<f64>,
    processing_start: Option<f64>,
    processing_end: Option<f64>,
    duration: Option<f64>,
    frame: Option<String>,
}

/// Why an event was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    Malformed,
    Impossible,
}

/// Reads the `b` event's `args` (raw JSON) at trace time `ts` (µs) of
/// process `pid`.
pub(crate) fn read(pid: i64, ts: f64, args: Option<&str>) -> Result<Timing, Refused> {
    let args: Args = args
        .and_then(|a| serde_json::from_str(a).ok())
        .ok_or(Refused::Malformed)?;
    let d = args.data.ok_or(Refused::Malformed)?;
    let (
        Some(kind),
        Some(id),
        Some(time_stamp),
        Some(processing_start),
        Some(processing_end),
        Some(duration),
    ) = (
        d.kind,
        d.interaction_id,
        d.time_stamp,
        d.processing_start,
        d.processing_end,
        d.duration,
    )
    else {
        return Err(Refused::Malformed);
    };
    if !(id >= 0.0 && id.fract() == 0.0 && id < 9.0e15) {
        return Err(Refused::Malformed);
    }
    let times = [ts, time_stamp, processing_start, processing_end, duration];
    if times.iter().any(|t| !t.is_finite())
        || time_stamp < 0.0
        || processing_end > MAX_PAGE_CLOCK_MS
        || processing_start < time_stamp
        || processing_end < processing_start
        || !(0.0..=MAX_DURATION_MS).contains(&duration)
        || processing_end - time_stamp > MAX_DURATION_MS
    {
        return Err(Refused::Impossible);
    }
    Ok(Timing {
        pid,
        ts,
        interaction_id: id as u64,
        kind: kind
            .chars()
            .filter(|c| !crate::error::is_hidden_char(*c))
            .take(MAX_TYPE_CHARS)
            .collect(),
        time_stamp,
        processing_start,
        processing_end,
        duration,
        frame: d.frame.as_deref().map(clean_frame).unwrap_or_default(),
    })
}

fn clean_frame(frame: &str) -> String {
    frame
        .chars()
        .filter(|c| !crate::error::is_hidden_char(*c))
        .take(MAX_FRAME_CHARS)
        .collect()
}

/// Chrome's own summary of one interaction, as its INP code sees it: a
/// `Responsiveness.Renderer.UserInteraction` event (Blink's
/// `responsiveness_metrics.cc`), `args.data.maxDuration` the interaction's
/// latency in whole ms and `args.data.interactionType` its kind
/// (`keyboard`, `tapOrClick` or `drag`); `args.frame` the frame. Lighthouse
/// computes INP from these (see `super::interactions::lighthouse_inp`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ChromeInteraction {
    pub pid: i64,
    /// On the trace's clock, µs.
    pub ts: f64,
    pub frame: String,
    /// `interactionType`.
    pub kind: String,
    pub max_duration: f64,
}

#[derive(serde::Deserialize)]
struct ChromeArgs {
    data: Option<ChromeData>,
    frame: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChromeData {
    interaction_type: Option<String>,
    max_duration: Option<f64>,
}

/// Reads a `Responsiveness.Renderer.UserInteraction` event's `args`; `None`
/// when they are missing, malformed or impossible (the event is then
/// ignored, as Lighthouse ignores what it cannot match).
pub(crate) fn read_chrome_interaction(
    pid: i64,
    ts: f64,
    args: Option<&str>,
) -> Option<ChromeInteraction> {
    let a: ChromeArgs = serde_json::from_str(args?).ok()?;
    let d = a.data?;
    let max_duration = d.max_duration?;
    let possible = (0.0..=MAX_DURATION_MS).contains(&max_duration) && ts.is_finite();
    if !possible {
        return None;
    }
    Some(ChromeInteraction {
        pid,
        ts,
        frame: clean_frame(a.frame.as_deref().unwrap_or_default()),
        kind: d
            .interaction_type?
            .chars()
            .filter(|c| !crate::error::is_hidden_char(*c))
            .take(MAX_TYPE_CHARS)
            .collect(),
        max_duration,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(fields: &str) -> String {
        format!(r#"{{"data":{{{fields}}}}}"#)
    }

    #[test]
    fn a_whole_event_is_read_and_a_broken_one_refused_by_kind() {
        let ok = data(
            r#""type":"click","interactionId":7,"timeStamp":100.5,"processingStart":110,"processingEnd":130,"duration":48,"nodeId":3"#,
        );
        let t = read(1, 5_000_000.0, Some(&ok)).unwrap();
        assert_eq!((t.interaction_id, t.kind.as_str()), (7, "click"));
        // ts − timeStamp: 5e6 − 100500 µs; processing 110 → 5e6 + 9500.
        assert_eq!(t.processing_us(), (5_009_500.0, 5_029_500.0));
        assert_eq!(t.render_time(), 148.5);
        let refuse = |fields: &str| read(1, 0.0, Some(&data(fields))).unwrap_err();
        assert_eq!(
            refuse(r#""type":"click","interactionId":7"#),
            Refused::Malformed
        );
        assert_eq!(
            refuse(
                r#""type":"click","interactionId":"7","timeStamp":1,"processingStart":1,"processingEnd":1,"duration":8"#
            ),
            Refused::Malformed
        );
        assert_eq!(
            refuse(
                r#""type":"click","interactionId":7,"timeStamp":10,"processingStart":20,"processingEnd":15,"duration":8"#
            ),
            Refused::Impossible
        );
        assert_eq!(
            refuse(
                r#""type":"click","interactionId":7,"timeStamp":10,"processingStart":5,"processingEnd":15,"duration":8"#
            ),
            Refused::Impossible
        );
        assert_eq!(
            refuse(
                r#""type":"click","interactionId":7,"timeStamp":10,"processingStart":10,"processingEnd":15,"duration":-8"#
            ),
            Refused::Impossible
        );
        assert_eq!(
            refuse(
                r#""type":"click","interactionId":7,"timeStamp":10,"processingStart":10,"processingEnd":15,"duration":1e300"#
            ),
            Refused::Impossible
        );
        assert_eq!(read(1, 0.0, None).unwrap_err(), Refused::Malformed);
        assert_eq!(read(1, 0.0, Some("{}")).unwrap_err(), Refused::Malformed);
    }

    #[test]
    fn chrome_interaction_summaries_are_read_or_ignored() {
        let c = read_chrome_interaction(
            3,
            9.0,
            Some(r#"{"data":{"interactionType":"tapOrClick","maxDuration":131},"frame":"AB"}"#),
        )
        .unwrap();
        assert_eq!(
            (c.kind.as_str(), c.max_duration, c.frame.as_str()),
            ("tapOrClick", 131.0, "AB")
        );
        for bad in [
            r#"{"data":{"interactionType":"tapOrClick"}}"#,
            r#"{"data":{"interactionType":"tapOrClick","maxDuration":-1}}"#,
            r#"{"data":{"interactionType":"tapOrClick","maxDuration":"x"}}"#,
            r#"{"data":{"maxDuration":5}}"#,
            "[]",
        ] {
            assert_eq!(read_chrome_interaction(3, 9.0, Some(bad)), None, "{bad}");
        }
        assert_eq!(read_chrome_interaction(3, 9.0, None), None);
        let t = read(1, 0.0, Some(&data(
            r#""type":"click","interactionId":7,"timeStamp":1,"processingStart":1,"processingEnd":2,"duration":8,"frame":"F1""#,
        ))).unwrap();
        assert_eq!(t.frame, "F1");
    }
}
