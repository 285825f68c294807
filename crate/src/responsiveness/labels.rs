//! The page's words for the Responsiveness section, English and Chinese:
//! headings, controls, chart axes and captions, and the yield primitives'
//! names. Sent once with the catalog; the sentences made from numbers are
//! [`super::text`]'s.

use crate::param_spec::Params;
use serde::Serialize;

use super::settings::{RespParam, Settings, DEFAULT_QUANTA_MS, MAX_QUANTA};
use super::text::{column, Column, PAGE_COLUMNS};
use super::yielding::{YieldKind, DEFAULT_YIELD_COST_MS, YIELD_COST_RANGE};
use crate::text::{Filled, Text};

/// One yield primitive, as the section's menu shows it.
#[derive(Clone, Debug, Serialize)]
pub struct YieldEntry {
    pub name: &'static str,
    pub label: Text,
}

/// A column of the section's table.
#[derive(Clone, Debug, Serialize)]
pub struct ColumnEntry {
    /// `td[data-metric]`.
    pub key: &'static str,
    pub head: Text,
    /// The column group's heading it sits under.
    pub group: Text,
}

/// Everything the section's controls and headings say.
#[derive(Clone, Debug, Serialize)]
pub struct Labels {
    pub title: Text,
    pub help: Text,
    pub yields: Vec<YieldEntry>,
    pub yield_label: Filled,
    pub cost_label: Filled,
    pub cost_hint: Text,
    pub use_measured: Text,
    pub quanta_label: Filled,
    pub quanta_hint: Text,
    pub window_label: Filled,
    pub window_hint: Text,
    pub row_head: Text,
    pub columns: Vec<ColumnEntry>,
    pub cdf_caption: Text,
    pub cdf_aria: Text,
    pub tradeoff_caption: Text,
    pub tradeoff_aria: Text,
    pub computing: Text,
    /// The URL keys of the controls, in [`RespParam::ALL`] order.
    pub keys: Vec<&'static str>,
    /// Defaults and bounds, for the controls' placeholders.
    pub default_cost_ms: f64,
    pub max_cost_ms: f64,
    pub default_quanta: String,
    pub max_quanta: usize,
}

const YIELD_LABELS: [Text; 4] = [
    Text::new(
        "scheduler.yield() (continues first)",
        "scheduler.yield()（优先继续）",
    ),
    Text::new(
        "MessageChannel (behind waiting tasks)",
        "MessageChannel（排在等待的任务之后）",
    ),
    Text::new(
        "setTimeout(0) (4 ms from the 5th yield)",
        "setTimeout(0)（第 5 次起至少 4 ms）",
    ),
    Text::new(
        "requestAnimationFrame (next frame)",
        "requestAnimationFrame（下一帧）",
    ),
];

fn group(c: &Column) -> Text {
    use super::text::{GROUP_BLOCKING, GROUP_DELAY, GROUP_LATER, GROUP_OVER};
    match c.key {
        "over50" | "over100" | "over200" => GROUP_OVER,
        "tbt" | "long" => GROUP_BLOCKING,
        "later_mean" | "later_p95" | "later_max" | "later_total" | "yields" => GROUP_LATER,
        _ => GROUP_DELAY,
    }
}

/// The section's words.
pub(crate) fn labels() -> Labels {
    Labels {
        title: Text::new("Responsiveness", "响应性"),
        help: Text::new(
            "How long an input would wait on this main thread (its input delay, the first part of INP), as recorded and if every task yielded every q ms (the page's quantum), and what the yields would cost. Computed exactly from the tasks.",
            "输入在这个主线程上要等多久（输入延迟，INP 的第一部分）：按记录，以及如果每个任务每 q ms（页面的时间片）让出一次；还有让出的代价。由任务精确计算。",
        ),
        yields: YieldKind::ALL
            .into_iter()
            .zip(YIELD_LABELS)
            .map(|(k, label)| YieldEntry {
                name: k.name(),
                label,
            })
            .collect(),
        yield_label: RespParam::Yield.spec().label(),
        cost_label: RespParam::YieldCost.spec().label(),
        cost_hint: Text::new(
            "empty: 0.1 ms, a typical event-loop turn",
            "留空：0.1 ms，一次事件循环的典型开销",
        ),
        use_measured: Text::new("Use my measured yield cost", "使用我测得的让出开销"),
        quanta_label: RespParam::Quanta.spec().label(),
        quanta_hint: Text::new("joined by commas", "用逗号分隔"),
        window_label: RespParam::Window.spec().label(),
        window_hint: Text::new(
            "START-END; empty: the tasks' span",
            "START-END；留空：任务的时间跨度",
        ),
        row_head: super::text::QUANTUM_HEAD,
        columns: PAGE_COLUMNS
            .iter()
            .filter_map(|k| column(k))
            .map(|c| ColumnEntry {
                key: c.key,
                head: c.head,
                group: group(&c),
            })
            .collect(),
        cdf_caption: Text::new(
            "Input delay: the share of inputs that wait at most so long, as recorded and sliced.",
            "输入延迟：等待不超过某一时长的输入所占比例，按记录与切分后。",
        ),
        cdf_aria: Text::new(
            "Cumulative distribution of input delay, as recorded and sliced at the page's quantum",
            "输入延迟的累积分布：按记录，以及按页面时间片切分后",
        ),
        tradeoff_caption: Text::new(
            "The trade-off over q: p98 input delay (left axis) falls as q shrinks while tasks finish later (right axis); the knee is marked.",
            "随 q 的权衡：q 变小时 p98 输入延迟（左轴）下降，任务完成得更晚（右轴）；标出了拐点。",
        ),
        tradeoff_aria: Text::new(
            "p98 input delay and mean finish-later cost against the quantum, with the knee marked",
            "p98 输入延迟与平均晚完成代价随时间片的变化，标出了拐点",
        ),
        computing: Text::new("Computing…", "计算中…"),
        keys: RespParam::ALL.into_iter().map(RespParam::url_key).collect(),
        default_cost_ms: DEFAULT_YIELD_COST_MS,
        max_cost_ms: YIELD_COST_RANGE.max,
        default_quanta: Settings {
            quanta: DEFAULT_QUANTA_MS.to_vec(),
            ..Settings::default()
        }
        .get(RespParam::Quanta),
        max_quanta: MAX_QUANTA,
    }
}
