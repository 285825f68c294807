//! Format detection and the Trace Event JSON reader.
//!
//! The file is read event by event with serde's visitors, never as one
//! `serde_json::Value` (a 200 MB trace would take gigabytes that way). Only
//! what the importer needs is kept:
//!
//! - duration events (`X`, `B`, `E`) as a compact [`Ev`] (32 bytes, names
//!   interned), for every thread, since which thread is the page's main
//!   thread is only known once the whole file has been read;
//! - thread and process names (`ph: "M"` metadata);
//! - the few events that say which frame and process the inspected page is
//!   (`TracingStartedInBrowser`, `FrameCommittedInBrowser`,
//!   `ProcessReadyInBrowser`, `TracingStartedInPage`), whose `args` are kept
//!   as raw JSON text and read afterwards;
//! - the latest time seen, where unterminated tasks are clipped.
//!
//! Both JSON forms are accepted: a bare array of events, and an object with
//! `traceEvents` (and anything else, e.g. `metadata`, in any key order).
//! Everything else is told apart with a message saying what it looks like.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::event_timing::{self, ChromeInteraction, Refused, Skipped, Timing, MAX_EVENT_TIMINGS};
use super::TraceError;
use crate::text::{Filled, Lang, Text};

/// Most duration events kept (about 320 MB of [`Ev`]); a trace within the
/// size limit has far fewer.
pub(crate) const MAX_KEPT_EVENTS: usize = 10_000_000;
/// Most distinct event names interned.
const MAX_NAMES: usize = 1_000_000;

/// One duration event, as kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Ev {
    /// Index into [`Events::threads`].
    pub thread: u32,
    /// Index into [`Events::names`].
    pub name: u32,
    /// Start, µs.
    pub ts: f64,
    /// Duration of an `X` event in µs; NaN when it has none (unterminated).
    pub dur: f64,
    /// `b'X'`, `b'B'` or `b'E'`.
    pub ph: u8,
}

/// A thread, keyed by (pid, tid): tids repeat across processes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadKey {
    pub pid: i64,
    pub tid: i64,
}

impl fmt::Display for ThreadKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.pid, self.tid)
    }
}

/// One of the events that identify the inspected page, with its raw args.
#[derive(Clone, Debug)]
pub(crate) struct PageEvent {
    pub name: String,
    pub pid: i64,
    pub args: Option<String>,
}

/// What the reader kept of a trace.
#[derive(Debug, Default)]
pub(crate) struct Events {
    pub events: Vec<Ev>,
    pub names: Vec<String>,
    pub threads: Vec<ThreadKey>,
    pub thread_names: HashMap<ThreadKey, String>,
    pub process_names: HashMap<i64, String>,
    pub page_events: Vec<PageEvent>,
    /// Latest time in the trace (µs): an event's start, or its end if it
    /// has a duration. `-inf` when no event has a time.
    pub end: f64,
    /// Events of any kind read.
    pub total: usize,
    /// Instant (`I`/`i`) events named like a task: not tasks, skipped.
    pub instant_tasks: usize,
    /// `EventTiming` entries (the `b` events), every process's.
    pub timings: Vec<Timing>,
    /// `EventTiming` events not kept, by reason.
    pub timings_skipped: Skipped,
    /// Chrome's per-interaction summaries
    /// (`Responsiveness.Renderer.UserInteraction`), every process's, in the
    /// trace's order; malformed ones are left out.
    pub chrome_interactions: Vec<ChromeInteraction>,
    name_ids: HashMap<String, u32>,
    thread_ids: HashMap<ThreadKey, u32>,
}

impl Events {
    fn name_id(&mut self, name: &str) -> Result<u32, TraceError> {
        if let Some(&id) = self.name_ids.get(name) {
            return Ok(id);
        }
        if self.names.len() >= MAX_NAMES {
            return Err(TraceError::new(
                Text::new(
                    "more than {} distinct event names; this is not a browser trace",
                    "不同的事件名称超过 {} 个；这不是浏览器 trace",
                )
                .both(&[&MAX_NAMES.to_string()]),
            ));
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_string());
        self.name_ids.insert(name.to_string(), id);
        Ok(id)
    }

    fn thread_id(&mut self, key: ThreadKey) -> u32 {
        if let Some(&id) = self.thread_ids.get(&key) {
            return id;
        }
        let id = self.threads.len() as u32;
        self.threads.push(key.clone());
        self.thread_ids.insert(key, id);
        id
    }
}

/// Reads a trace (already inflated). See the module documentation.
pub(crate) fn read(bytes: &[u8]) -> Result<Events, TraceError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
    match first.map(|i| bytes[i]) {
        None => {
            return Err(TraceError::new(Text::new(
                "the file is empty",
                "文件是空的",
            )))
        }
        Some(b'[') | Some(b'{') => {}
        Some(_) => {
            return Err(TraceError::new(Text::new(
                "this is not a trace: a Trace Event file is JSON, starting with [ or {",
                "这不是 trace：Trace Event 文件是 JSON，以 [ 或 { 开头",
            )))
        }
    }
    let mut state = Reader {
        out: Events {
            end: f64::NEG_INFINITY,
            ..Events::default()
        },
        error: None,
        shape: Shape::default(),
    };
    // Text, not bytes: the parser for &str is the one the rest of the crate
    // already uses (one copy of it in the page's wasm, not two).
    let text = std::str::from_utf8(bytes).map_err(|e| {
        TraceError::new(
            Text::new(
                "the file is not UTF-8 text (at byte {}): a Trace Event file is JSON",
                "文件不是 UTF-8 文本（第 {} 字节处）：Trace Event 文件是 JSON",
            )
            .both(&[&e.valid_up_to().to_string()]),
        )
    })?;
    let mut de = serde_json::Deserializer::from_str(text);
    let result = TopLevel(&mut state)
        .deserialize(&mut de)
        .and_then(|()| de.end());
    if let Some(e) = state.error.take() {
        return Err(e);
    }
    if let Err(e) = result {
        return Err(json_error(&e));
    }
    state.shape.check(&state.out)?;
    Ok(state.out)
}

fn json_error(e: &serde_json::Error) -> TraceError {
    use serde_json::error::Category;
    const AT: Text = Text::new("line {}, column {}", "第 {} 行第 {} 列");
    // serde's own detail is English: the Chinese message says what it means.
    let msg = match e.classify() {
        Category::Eof => Text::new("the file ends in the middle of the JSON ({}): it was cut short, e.g. by an interrupted download or save",
            "文件在 JSON 的中途结束（{}）：它被截断了，例如下载或保存被中断"),
        Category::Syntax if e.to_string().starts_with("recursion limit") => {
            Text::new("the JSON is nested too deeply ({}); a trace nests a few levels",
                "JSON 嵌套过深（{}）；trace 只嵌套几层")
        }
        _ => Text::new("the file is not valid JSON ({}): {}", "文件不是有效的 JSON（{}）：其中有 JSON 不允许的字符或结构"),
    };
    let (line, column) = (e.line().to_string(), e.column().to_string());
    let detail = strip_position(&e.to_string());
    TraceError::new(Filled::each(|lang: Lang| {
        msg.fill(lang, &[&AT.fill(lang, &[&line, &column]), &detail])
    }))
}

/// serde_json's message without its own " at line L column C" suffix.
fn strip_position(text: &str) -> String {
    let s = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => text,
    };
    crate::error::shown(s)
}

/// What the top level looked like, to tell apart files that are not traces.
#[derive(Default)]
struct Shape {
    object: bool,
    has_trace_events: bool,
    /// Keys of a top-level object (the first few), for the message.
    keys: Vec<String>,
    /// Array elements with `type` but no `ph` (the legacy Timeline format).
    legacy_records: usize,
    /// Elements that are not objects.
    non_objects: usize,
}

impl Shape {
    fn check(&self, ev: &Events) -> Result<(), TraceError> {
        if self.object && !self.has_trace_events {
            let has = |k: &str| self.keys.iter().any(|x| x == k);
            if has("nodes") && (has("samples") || has("startTime")) {
                return Err(TraceError::new(Text::new(
                    "this is a CPU profile (.cpuprofile), not a trace: it has samples but no tasks; save a trace from the Performance panel instead (Save profile…)",
                    "这是 CPU 性能剖析文件（.cpuprofile），不是 trace：它有采样但没有任务；请改为从“性能”面板保存 trace（“保存性能分析报告…”）",
                )));
            }
            let keys: Vec<&str> = self.keys.iter().take(5).map(String::as_str).collect();
            return Err(TraceError::new(
                Text::new(
                    "this is not a trace: a JSON object needs a traceEvents array (its keys are: {})",
                    "这不是 trace：JSON 对象需要一个 traceEvents 数组（它的键为：{}）",
                )
                .both(&[&crate::error::shown(&keys.join(", "))]),
            ));
        }
        if ev.total == 0 {
            return Err(TraceError::new(if self.non_objects > 0 {
                Text::new(
                    "this is not a trace: its array holds no events (objects with ph, ts, pid, tid)",
                    "这不是 trace：它的数组中没有事件（带 ph、ts、pid、tid 的对象）",
                )
            } else {
                Text::new("the trace has no events", "trace 中没有事件")
            }));
        }
        let with_ph = ev.total - self.legacy_records - self.non_objects;
        if with_ph == 0 && self.legacy_records > 0 {
            return Err(TraceError::new(Text::new(
                "this is the legacy DevTools Timeline format (records with type and children), not a Trace Event file; re-record it in a current Chrome",
                "这是旧版 DevTools Timeline 格式（带 type 和 children 的记录），不是 Trace Event 文件；请在新版 Chrome 中重新录制",
            )));
        }
        if with_ph == 0 {
            return Err(TraceError::new(Text::new(
                "this is not a trace: none of its array's elements is a trace event (an object with ph)",
                "这不是 trace：它的数组元素都不是 trace 事件（带 ph 的对象）",
            )));
        }
        Ok(())
    }
}

struct Reader {
    out: Events,
    /// A problem found by our own checks (serde only sees a marker then).
    error: Option<TraceError>,
    shape: Shape,
}

impl Reader {
    fn fail<E: de::Error>(&mut self, e: TraceError) -> E {
        self.error = Some(e);
        E::custom("stopped")
    }
}

struct TopLevel<'a>(&'a mut Reader);

impl<'de> DeserializeSeed<'de> for TopLevel<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopLevel<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of trace events or an object with traceEvents")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        EventList(self.0).visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.shape.object = true;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if self.0.shape.keys.len() < 16 {
                self.0.shape.keys.push(key.to_string());
            }
            if key == "traceEvents" && !self.0.shape.has_trace_events {
                self.0.shape.has_trace_events = true;
                map.next_value_seed(EventListSeed(self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

struct EventListSeed<'a>(&'a mut Reader);

impl<'de> DeserializeSeed<'de> for EventListSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(EventList(self.0))
    }
}

struct EventList<'a>(&'a mut Reader);

impl<'de> Visitor<'de> for EventList<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of trace events")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let r = self.0;
        while let Some(item) = seq.next_element::<Item<'de>>()? {
            r.out.total += 1;
            let index = r.out.total;
            match item {
                Item::Event(raw) => {
                    if let Err(e) = keep(&mut r.out, &mut r.shape, raw, index) {
                        return Err(r.fail(e));
                    }
                }
                Item::Other => r.shape.non_objects += 1,
            }
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, _map: A) -> Result<(), A::Error> {
        Err(self.0.fail(TraceError::new(Text::new(
            "this is not a trace: traceEvents must be an array of events",
            "这不是 trace：traceEvents 必须是事件数组",
        ))))
    }
}

/// An array element: an event object, or anything else (counted, skipped).
enum Item<'de> {
    Event(RawEvent<'de>),
    Other,
}

impl<'de> de::Deserialize<'de> for Item<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Item<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a trace event")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Item<'de>, A::Error> {
                <RawEvent<'de> as de::Deserialize>::deserialize(
                    de::value::MapAccessDeserializer::new(map),
                )
                .map(Item::Event)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Item::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Item<'de>, E> {
                Ok(Item::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Item<'de>, E> {
                Ok(Item::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Item<'de>, E> {
                Ok(Item::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Item<'de>, E> {
                Ok(Item::Other)
            }
            fn visit_str<E>(self, _: &str) -> Result<Item<'de>, E> {
                Ok(Item::Other)
            }
            fn visit_unit<E>(self) -> Result<Item<'de>, E> {
                Ok(Item::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// A field that should be a number: missing, a number, or something else.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Num {
    #[default]
    Missing,
    Value(f64),
    Bad,
}

impl<'de> de::Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Num, E> {
                Ok(Num::Value(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Num, E> {
                Ok(Num::Value(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Num, E> {
                Ok(if v.is_finite() {
                    Num::Value(v)
                } else {
                    Num::Bad
                })
            }
            fn visit_str<E>(self, _: &str) -> Result<Num, E> {
                Ok(Num::Bad)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Num, E> {
                Ok(Num::Bad)
            }
            fn visit_unit<E>(self) -> Result<Num, E> {
                Ok(Num::Bad)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Num, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Num::Bad)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Num, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Num::Bad)
            }
        }
        d.deserialize_any(V)
    }
}

/// A field that should be text: missing, text, or something else.
#[derive(Clone, Debug, Default, PartialEq)]
enum TextField<'de> {
    #[default]
    Missing,
    Value(Cow<'de, str>),
    Bad,
}

impl<'de: 'a, 'a> de::Deserialize<'de> for TextField<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = TextField<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("text")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<TextField<'a>, E> {
                Ok(TextField::Value(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<TextField<'a>, E> {
                Ok(TextField::Value(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<TextField<'a>, E> {
                Ok(TextField::Value(Cow::Owned(v)))
            }
            fn visit_i64<E>(self, _: i64) -> Result<TextField<'a>, E> {
                Ok(TextField::Bad)
            }
            fn visit_u64<E>(self, _: u64) -> Result<TextField<'a>, E> {
                Ok(TextField::Bad)
            }
            fn visit_f64<E>(self, _: f64) -> Result<TextField<'a>, E> {
                Ok(TextField::Bad)
            }
            fn visit_bool<E>(self, _: bool) -> Result<TextField<'a>, E> {
                Ok(TextField::Bad)
            }
            fn visit_unit<E>(self) -> Result<TextField<'a>, E> {
                Ok(TextField::Bad)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TextField<'a>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(TextField::Bad)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TextField<'a>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(TextField::Bad)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The fields of an event the importer reads; any others are skipped.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct RawEvent<'a> {
    #[serde(borrow)]
    ph: TextField<'a>,
    #[serde(borrow)]
    name: TextField<'a>,
    pid: Num,
    tid: Num,
    ts: Num,
    dur: Num,
    #[serde(rename = "type", borrow)]
    legacy_type: TextField<'a>,
    #[serde(borrow)]
    args: Option<&'a RawValue>,
}

/// Events whose args say which frame and process the inspected page is.
pub(crate) const PAGE_EVENTS: [&str; 6] = [
    "TracingStartedInBrowser",
    "FrameCommittedInBrowser",
    "ProcessReadyInBrowser",
    "TracingStartedInPage",
    "CommitLoad",
    "navigationStart",
];

fn bad_field(index: usize, name: &TextField, field: &str, what: Text) -> TraceError {
    const NAMED: Text = Text::new(" ('{}')", "（“{}”）");
    const EVENT: Text = Text::new("event {}{}: '{}' {}", "第 {} 个事件{}：“{}”{}");
    let index = index.to_string();
    TraceError::new(Filled::each(|lang: Lang| {
        let named = match name {
            TextField::Value(n) => NAMED.fill(lang, &[&crate::error::shown(n)]),
            _ => String::new(),
        };
        EVENT.fill(lang, &[&index, &named, field, what.get(lang)])
    }))
}

const MUST_BE_TEXT: Text = Text::new("must be text", "必须是文本");
const IS_MISSING: Text = Text::new("is missing", "缺失");
const NOT_A_NUMBER_OF_US: Text = Text::new("must be a number of µs", "必须是以 µs 为单位的数");

fn id_field(index: usize, name: &TextField, field: &str, v: Num) -> Result<i64, TraceError> {
    match v {
        Num::Value(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => Ok(x as i64),
        Num::Missing => Err(bad_field(index, name, field, IS_MISSING)),
        _ => Err(bad_field(
            index,
            name,
            field,
            Text::new("must be a whole number", "必须是整数"),
        )),
    }
}

fn time_field(index: usize, name: &TextField, field: &str, v: Num) -> Result<f64, TraceError> {
    match v {
        Num::Value(x) => Ok(x),
        Num::Missing => Err(bad_field(index, name, field, IS_MISSING)),
        Num::Bad => Err(bad_field(index, name, field, NOT_A_NUMBER_OF_US)),
    }
}

/// Keeps what matters of one event.
fn keep(
    out: &mut Events,
    shape: &mut Shape,
    raw: RawEvent,
    index: usize,
) -> Result<(), TraceError> {
    let ph = match &raw.ph {
        TextField::Value(p) => p.as_bytes().first().copied().unwrap_or(0),
        TextField::Missing => {
            if !matches!(raw.legacy_type, TextField::Missing) {
                shape.legacy_records += 1;
            } else {
                shape.non_objects += 1;
            }
            return Ok(());
        }
        TextField::Bad => return Err(bad_field(index, &raw.name, "ph", MUST_BE_TEXT)),
    };
    let name = match &raw.name {
        TextField::Value(n) => n.as_ref(),
        TextField::Missing => "",
        TextField::Bad => return Err(bad_field(index, &raw.name, "name", MUST_BE_TEXT)),
    };
    if PAGE_EVENTS.contains(&name) && out.page_events.len() < 10_000 {
        let pid = id_field(index, &raw.name, "pid", raw.pid)?;
        out.page_events.push(PageEvent {
            name: name.to_string(),
            pid,
            args: raw.args.map(|a| a.get().to_string()),
        });
    }
    if ph == b'b' && name == "EventTiming" {
        keep_timing(out, &raw);
    }
    if ph != b'e' && name == "Responsiveness.Renderer.UserInteraction" {
        if let (Num::Value(pid), Num::Value(ts)) = (raw.pid, raw.ts) {
            if pid.fract() == 0.0
                && pid.abs() < 9.0e15
                && out.chrome_interactions.len() < MAX_EVENT_TIMINGS
            {
                out.chrome_interactions
                    .extend(event_timing::read_chrome_interaction(
                        pid as i64,
                        ts,
                        raw.args.map(RawValue::get),
                    ));
            }
        }
    }
    match ph {
        b'X' | b'B' | b'E' => {
            let pid = id_field(index, &raw.name, "pid", raw.pid)?;
            let tid = id_field(index, &raw.name, "tid", raw.tid)?;
            let ts = time_field(index, &raw.name, "ts", raw.ts)?;
            let dur = match raw.dur {
                Num::Value(d) if ph == b'X' && d >= 0.0 => d,
                Num::Value(_) if ph == b'X' => {
                    return Err(bad_field(
                        index,
                        &raw.name,
                        "dur",
                        Text::new("must not be negative", "不能为负"),
                    ))
                }
                Num::Bad if ph == b'X' => {
                    return Err(bad_field(index, &raw.name, "dur", NOT_A_NUMBER_OF_US))
                }
                _ => f64::NAN,
            };
            out.end = out.end.max(if dur.is_nan() { ts } else { ts + dur });
            if out.events.len() >= MAX_KEPT_EVENTS {
                return Err(TraceError::new(
                    Text::new(
                        "more than {0} duration events; at most {0} are read",
                        "持续事件超过 {0} 个；最多读取 {0} 个",
                    )
                    .both(&[&MAX_KEPT_EVENTS.to_string()]),
                ));
            }
            let thread = out.thread_id(ThreadKey { pid, tid });
            let name = out.name_id(name)?;
            out.events.push(Ev {
                thread,
                name,
                ts,
                dur,
                ph,
            });
        }
        b'M' => {
            let which = match name {
                "thread_name" => true,
                "process_name" => false,
                _ => return Ok(()),
            };
            let label = raw
                .args
                .and_then(|a| serde_json::from_str::<NameArgs>(a.get()).ok())
                .map(|a| shown_name(&a.name))
                .unwrap_or_default();
            let pid = id_field(index, &raw.name, "pid", raw.pid)?;
            if which {
                let tid = id_field(index, &raw.name, "tid", raw.tid)?;
                out.thread_names.insert(ThreadKey { pid, tid }, label);
            } else {
                out.process_names.insert(pid, label);
            }
        }
        _ => {
            if let Num::Value(ts) = raw.ts {
                out.end = out.end.max(ts);
            }
            if matches!(ph, b'I' | b'i') && super::tasks::is_task_name(name) {
                out.instant_tasks += 1;
            }
        }
    }
    Ok(())
}

/// Keeps an `EventTiming` entry, or counts why not (never an error: one
/// broken input event does not make the tasks unreadable).
fn keep_timing(out: &mut Events, raw: &RawEvent) {
    let skipped = &mut out.timings_skipped;
    let (Num::Value(pid), Num::Value(ts)) = (raw.pid, raw.ts) else {
        skipped.malformed += 1;
        return;
    };
    if pid.fract() != 0.0 || pid.abs() >= 9.0e15 {
        skipped.malformed += 1;
        return;
    }
    if out.timings.len() >= MAX_EVENT_TIMINGS {
        skipped.over_limit += 1;
        return;
    }
    match event_timing::read(pid as i64, ts, raw.args.map(RawValue::get)) {
        Ok(t) => out.timings.push(t),
        Err(Refused::Malformed) => skipped.malformed += 1,
        Err(Refused::Impossible) => skipped.impossible += 1,
    }
}

/// A thread or process name as messages and summaries show it: control and
/// bidirectional formatting characters written visibly (`\u{202e}`), so
/// that a hostile name can neither break a line nor reverse the text
/// around it, and at most 100 characters. Real names ("CrRendererMain")
/// are unchanged.
fn shown_name(name: &str) -> String {
    const MAX: usize = 100;
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if i == MAX {
            out.push('…');
            break;
        }
        if crate::error::is_hidden_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

#[derive(serde::Deserialize)]
struct NameArgs {
    #[serde(default)]
    name: String,
}
