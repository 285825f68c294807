//! The reading in plain words, English and Chinese, generated from the
//! numbers: how long inputs wait as recorded, which quantum the tasks
//! favour and what it costs, where the trade-off bends, and the notes a
//! primitive or a cut window call for. Each sentence is one [`Text`] pair;
//! `{}` are filled in order, so both languages take the same arguments.

use super::reading::{Favoured, Knee, NoKnee};
use super::report::{PlanRow, ResponsivenessReport};
use super::yielding::{YieldKind, CHROMIUM_CLAMP_FROM};
use crate::text::{Lang, Text};

/// Where the tasks came from, for how the sentences name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A trace's tasks at their recorded starts: the first row is the
    /// trace as it ran.
    Trace,
    /// A task list, the study's workload, or a trace's tasks all posted at
    /// once: the first row runs every task whole, first come first served.
    Tasks,
}

impl Source {
    /// A trace's tasks at their recorded starts (`at_recorded`), or any
    /// other tasks.
    pub(crate) fn of(at_recorded: bool) -> Source {
        if at_recorded {
            Source::Trace
        } else {
            Source::Tasks
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Source::Trace => "trace",
            Source::Tasks => "tasks",
        }
    }
}

/// A sentence or caption of the page's section.
pub(crate) const TBT_BEFORE_AFTER: Text = Text::new(
    "Total blocking time: {} ms {}, {} ms sliced at q = {} ms.",
    "总阻塞时间：{} ms（{}），切分后 {} ms（q = {} ms）。",
);
/// A sentence or caption of the page's section.
pub(crate) const INP_HEADLINE: Text = Text::new(
    "INP {} ms as recorded → sliced at q = {} ms: {} ms",
    "INP：按记录 {} ms → 按 q = {} ms 切分后 {} ms",
);
/// A sentence or caption of the page's section.
pub(crate) const BARS_CAPTION: Text = Text::new(
    "Each interaction's input delay, processing and presentation delay from its input, as recorded and as the model predicts them sliced at q = {} ms",
    "每个交互从输入起的输入延迟、处理与呈现延迟：按记录，以及模型预测的按 q = {} ms 切分后",
);
/// A sentence or caption of the page's section.
pub(crate) const TASKS_CAPTION: Text = Text::new(
    "The trace's main-thread tasks on the same timeline, as recorded; an interaction's own handlers marked",
    "同一时间轴上 trace 的主线程任务（按记录）；标出交互自身的处理程序",
);
const BASE_TRACE: Text = Text::new("As recorded", "按记录");
const BASE_TASKS: Text = Text::new("With every task run whole", "每个任务整体运行时");
const SPAN: Text = Text::new("span", "时间跨度");
const WINDOW: Text = Text::new("window", "时间窗口");

/// The first row's name in tables and charts.
pub(crate) const RECORDED_ROW: Text = Text::new("as recorded", "按记录");
/// The same row when the tasks are not a trace's as it ran.
pub(crate) const WHOLE_ROW: Text = Text::new("whole tasks", "整体运行");

const WAITS: Text = Text::new(
    "{}, an input waits {} ms on average; 1 in 50 waits over {} ms and the worst {} ms ({} % over 50 ms).",
    "{}，输入平均等待 {} ms；每 50 次中有 1 次超过 {} ms，最长 {} ms（{}% 超过 50 ms）。",
);
const RARELY_WAITS: Text = Text::new(
    "{}, the thread is busy {} % of the {}, so fewer than 1 input in 50 lands in a task (p98 is the transit alone, {} ms); the worst wait is {} ms.",
    "{}，主线程忙碌 {}%（占{}），每 50 次输入中不到 1 次落在任务中（p98 仅为传递时间 {} ms）；最长等待 {} ms。",
);
const IDLE: Text = Text::new(
    "{}, no task runs in the {}: no input waits for one.",
    "{}，{}中没有任务运行：没有输入需要等待任务。",
);
const TBT: Text = Text::new(
    "Total blocking time {} ms in {} long tasks.",
    "总阻塞时间 {} ms，来自 {} 个长任务。",
);
const TBT_ONE: Text = Text::new(
    "Total blocking time {} ms in 1 long task.",
    "总阻塞时间 {} ms，来自 1 个长任务。",
);
const NO_LONG: Text = Text::new(
    "No task runs 50 ms or more, so total blocking time is 0.",
    "没有任务达到 50 ms，总阻塞时间为 0。",
);
const FAVOURS_TRACE: Text = Text::new("Your trace favours", "你的 trace 适合");
const FAVOURS_TASKS: Text = Text::new("These tasks favour", "这些任务适合");
const FAVOURED: Text = Text::new(
    "{} yielding every {} ms with {}: p98 goes from {} to {} ms and TBT from {} to {} ms, while tasks finish {} ms later on average ({} ms at p95, {} ms at worst; {} ms in all).",
    "{}每 {} ms 用 {} 让出一次：p98 从 {} ms 变为 {} ms，TBT 从 {} ms 变为 {} ms；代价是任务平均晚完成 {} ms（p95 {} ms，最多 {} ms，共 {} ms）。",
);
const FAVOURED_EARLIER: Text = Text::new(
    "{} yielding every {} ms with {}: p98 goes from {} to {} ms and TBT from {} to {} ms, and tasks finish {} ms earlier on average ({} ms in all), because queued tasks no longer wait for whole long ones.",
    "{}每 {} ms 用 {} 让出一次：p98 从 {} ms 变为 {} ms，TBT 从 {} ms 变为 {} ms；任务平均反而早完成 {} ms（共 {} ms），因为排队的任务不必再等整个长任务做完。",
);
const KEEPS_TRACE: Text = Text::new("Your trace keeps", "你的 trace");
const KEEPS_TASKS: Text = Text::new("These tasks keep", "这些任务");
const NO_SLICING_NEEDED: Text = Text::new(
    "{} p98 within 50 ms without slicing ({} ms).",
    "{}不切分也能让 p98 保持在 50 ms 以内（{} ms）。",
);
const STILL_BLOCKING: Text = Text::new(
    "Its {} long tasks still block for {} ms in all; any quantum of 50 ms or less removes that: at {} ms tasks finish {} ms later on average.",
    "其 {} 个长任务仍共阻塞 {} ms；任何不超过 50 ms 的时间片都能消除它：用 {} ms 时，任务平均晚完成 {} ms。",
);
const STILL_BLOCKING_UNTRIED: Text = Text::new(
    "Its {} long tasks still block for {} ms in all; any quantum of 50 ms or less would remove that.",
    "其 {} 个长任务仍共阻塞 {} ms；任何不超过 50 ms 的时间片都能消除它。",
);
const NOT_MET: Text = Text::new(
    "No quantum tried brings p98 within 50 ms; the best, {} ms, gives {} ms.",
    "所试的时间片都不能让 p98 降到 50 ms 以内；最好的是 {} ms，p98 为 {} ms。",
);
const NOT_MET_NOR_LOWER: Text = Text::new(
    "No quantum tried brings p98 within 50 ms, or below the unsliced {} ms.",
    "所试的时间片都不能让 p98 降到 50 ms 以内，也不能低于不切分时的 {} ms。",
);
const KNEE: Text = Text::new(
    "Below {} ms the gain flattens: down to {} ms p98 falls a further {} ms while tasks finish {} ms later on average.",
    "低于 {} ms 收益变小：一直降到 {} ms，p98 只再降 {} ms，而任务平均再晚完成 {} ms。",
);
const NEARLY_FREE: Text = Text::new(
    "Even at {} ms tasks finish only {} ms later on average, so finer slicing is nearly free here.",
    "即使在 {} ms，任务平均也只晚完成 {} ms，更细的切分在这里几乎没有代价。",
);
const FREE_YIELDS: Text = Text::new(
    "Yielding costs next to nothing here, so the finest quantum is as good as any.",
    "这里让出几乎没有代价，最细的时间片也一样好。",
);
const NO_KNEE: Text = Text::new(
    "There is no clear knee: each step down in q buys about as much as it costs.",
    "没有明显的拐点：q 每降一级，所得与代价大致相当。",
);
const CLAMP: Text = Text::new(
    "setTimeout(0) is clamped to 4 ms from a task's 5th yield on, so at {} ms every task longer than {} ms waits 4 ms more at each later yield.",
    "从一个任务的第 5 次让出起，setTimeout(0) 被限制为至少 4 ms，所以在 {} ms 时，长于 {} ms 的任务之后每次让出都多等 4 ms。",
);
const FRAMES: Text = Text::new(
    "Each piece waits for the next frame (60 Hz assumed, rendering not counted), so rows near 16.7 ms are optimistic.",
    "每一片都要等下一帧（假定 60 Hz，不计渲染），因此接近 16.7 ms 的行偏乐观。",
);
const OVERRUN: Text = Text::new(
    "At {} ms the work runs {} ms past the {}; inputs after it are not counted.",
    "在 {} ms 时，工作超出 {} ms，越过了{}的末尾；之后的输入不计入。",
);

/// The model's assumptions, in one sentence (`{}`: span or window).
pub const ASSUMPTIONS: Text = Text::new(
    "The model: inputs arrive uniformly over the {}; every input takes the transit time to reach the main thread; one that lands in a running piece waits for that piece to end and is then handled first, ahead of continuations and queued tasks; yields and idle time delay no input further; rendering costs nothing, and every task can be sliced.",
    "模型假设：输入在{}内均匀到达；每个输入都要经过传递时间才到达主线程；落在正在运行的片段中的输入要等该片段结束，然后先于后续片段和排队任务处理；让出和空闲时间不会让输入再多等；不计渲染开销，且每个任务都能切分。",
);

fn ms(v: f64) -> String {
    format!("{:.1}", v + 0.0)
}

/// A quantum as it was given (4, 0.5).
fn q(v: f64) -> String {
    crate::error::fmt_number(v)
}

fn pct(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 9.95 {
        format!("{p:.1}")
    } else {
        format!("{p:.0}")
    }
}

/// The span or window, as the sentences call it.
pub fn span_word(report: &ResponsivenessReport) -> Text {
    if report.window_given {
        WINDOW
    } else {
        SPAN
    }
}

/// The reading, one sentence or paragraph per item.
pub(crate) fn reading(
    report: &ResponsivenessReport,
    favoured: Option<Favoured>,
    knee: Result<Knee, NoKnee>,
    kind: YieldKind,
    source: Source,
    lang: Lang,
) -> Vec<String> {
    let mut out = Vec::new();
    let rec = report.recorded();
    let base = match source {
        Source::Trace => BASE_TRACE,
        Source::Tasks => BASE_TASKS,
    }
    .get(lang);
    let span = span_word(report).get(lang);
    let d = rec.input_delay_ms;
    // Every delay holds the transit: a wait beyond it is a task's.
    let transit = report.transit_ms;
    out.push(if d.max <= transit {
        IDLE.fill(lang, &[base, span])
    } else if d.p98 > transit {
        WAITS.fill(
            lang,
            &[
                base,
                &ms(d.mean),
                &ms(d.p98),
                &ms(d.max),
                &pct(rec.delayed_over[0].1),
            ],
        )
    } else {
        RARELY_WAITS.fill(
            lang,
            &[base, &pct(rec.busy_share), span, &ms(transit), &ms(d.max)],
        )
    });
    out.push(match rec.long_tasks {
        0 => NO_LONG.get(lang).to_string(),
        1 => TBT_ONE.fill(lang, &[&ms(rec.tbt_ms)]),
        n => TBT.fill(lang, &[&ms(rec.tbt_ms), &n.to_string()]),
    });
    if let Some(f) = favoured {
        out.push(favoured_sentence(report, f, kind, source, lang));
    }
    if let Some(s) = knee_sentence(report, knee, lang) {
        out.push(s);
    }
    out.extend(notes(report, kind, lang));
    out
}

fn favoured_sentence(
    report: &ResponsivenessReport,
    f: Favoured,
    kind: YieldKind,
    source: Source,
    lang: Lang,
) -> String {
    let rec = report.recorded();
    let row = &report.rows[f.row];
    if !f.meets_target {
        return match row.quantum_ms {
            Some(quantum) => NOT_MET.fill(lang, &[&q(quantum), &ms(row.input_delay_ms.p98)]),
            None => NOT_MET_NOR_LOWER.fill(lang, &[&ms(rec.input_delay_ms.p98)]),
        };
    }
    let Some(quantum) = row.quantum_ms else {
        let keeps = match source {
            Source::Trace => KEEPS_TRACE,
            Source::Tasks => KEEPS_TASKS,
        };
        let mut s = NO_SLICING_NEEDED.fill(lang, &[keeps.get(lang), &ms(rec.input_delay_ms.p98)]);
        if rec.tbt_ms > 0.0 {
            let cheapest = report.rows[1..]
                .iter()
                .filter(|r| r.tbt_ms == 0.0)
                .min_by(|a, b| a.finish_later_ms.mean.total_cmp(&b.finish_later_ms.mean));
            let n = rec.long_tasks.to_string();
            s.push_str(lang.sentence_gap());
            s.push_str(&match cheapest {
                Some(c) => STILL_BLOCKING.fill(
                    lang,
                    &[
                        &n,
                        &ms(rec.tbt_ms),
                        &q(c.quantum_ms.unwrap_or_default()),
                        &ms(c.finish_later_ms.mean),
                    ],
                ),
                None => STILL_BLOCKING_UNTRIED.fill(lang, &[&n, &ms(rec.tbt_ms)]),
            });
        }
        return s;
    };
    let subject = match source {
        Source::Trace => FAVOURS_TRACE,
        Source::Tasks => FAVOURS_TASKS,
    }
    .get(lang);
    let fl = row.finish_later_ms;
    let head = [
        subject.to_string(),
        q(quantum),
        kind.code().to_string(),
        ms(rec.input_delay_ms.p98),
        ms(row.input_delay_ms.p98),
        ms(rec.tbt_ms),
        ms(row.tbt_ms),
    ];
    let mut args: Vec<String> = head.to_vec();
    let template = if fl.mean < 0.0 {
        args.extend([ms(-fl.mean), ms(-fl.total)]);
        FAVOURED_EARLIER
    } else {
        args.extend([ms(fl.mean), ms(fl.p95), ms(fl.max), ms(fl.total)]);
        FAVOURED
    };
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    template.fill(lang, &refs)
}

fn knee_sentence(
    report: &ResponsivenessReport,
    knee: Result<Knee, NoKnee>,
    lang: Lang,
) -> Option<String> {
    let finest = report.rows[1..]
        .iter()
        .filter_map(|r| Some((r, r.quantum_ms?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(r, _)| r)?;
    let qmin = finest.quantum_ms?;
    match knee {
        Ok(k) => {
            let kr = &report.rows[k.row];
            let mut s = KNEE.fill(
                lang,
                &[
                    &q(kr.quantum_ms.unwrap_or_default()),
                    &q(qmin),
                    &ms(kr.input_delay_ms.p98 - finest.input_delay_ms.p98),
                    &ms(finest.finish_later_ms.mean - kr.finish_later_ms.mean),
                ],
            );
            // Only for a real, small cost: a queueing list's tasks can
            // finish earlier on average (a negative cost is no "only").
            if (0.0..1.0).contains(&finest.finish_later_ms.mean) {
                s.push_str(lang.sentence_gap());
                s.push_str(&NEARLY_FREE.fill(lang, &[&q(qmin), &ms(finest.finish_later_ms.mean)]));
            }
            Some(s)
        }
        Err(NoKnee::FreeYields) => Some(FREE_YIELDS.get(lang).to_string()),
        Err(NoKnee::Straight) => Some(NO_KNEE.get(lang).to_string()),
        Err(NoKnee::FlatDelay | NoKnee::TooFewRows) => None,
    }
}

fn notes(report: &ResponsivenessReport, kind: YieldKind, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    let sliced = &report.rows[1..];
    if kind == YieldKind::Timeout {
        let clamped = sliced
            .iter()
            .find(|r| r.most_yields >= u64::from(CHROMIUM_CLAMP_FROM));
        if let Some(r) = clamped {
            let quantum = r.quantum_ms.unwrap_or_default();
            out.push(CLAMP.fill(
                lang,
                &[&q(quantum), &q(quantum * f64::from(CHROMIUM_CLAMP_FROM))],
            ));
        }
    }
    if kind == YieldKind::Raf {
        out.push(FRAMES.get(lang).to_string());
    }
    if !report.window_given {
        let worst = sliced
            .iter()
            .map(|r| (r, r.end_ms - report.window.end))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((r, over)) = worst.filter(|&(_, over)| over >= 0.05) {
            out.push(OVERRUN.fill(
                lang,
                &[
                    &q(r.quantum_ms.unwrap_or_default()),
                    &ms(over),
                    span_word(report).get(lang),
                ],
            ));
        }
    }
    out
}

/// The name of a row in tables and chart legends: "as recorded" (or
/// "whole tasks") and "q = 16 ms".
pub fn row_name(row: &PlanRow, source: Source, lang: Lang) -> String {
    match row.quantum_ms {
        None => match source {
            Source::Trace => RECORDED_ROW,
            Source::Tasks => WHOLE_ROW,
        }
        .get(lang)
        .to_string(),
        Some(quantum) => format!("q = {} ms", q(quantum)),
    }
}

/// What the figures are about: the tasks, their busy time and the
/// inputs' window.
const ABOUT_SPAN: Text = Text::new(
    "{} tasks, busy {} ms over a span of {} ms ({} %): inputs arrive from the first task's start ({} ms) to the last task's end ({} ms).",
    "{} 个任务，忙碌 {} ms，时间跨度 {} ms（忙碌 {}%）：输入在第一个任务开始（{} ms）到最后一个任务结束（{} ms）之间到达。",
);
const ABOUT_WINDOW: Text = Text::new(
    "{} tasks, busy {} ms; inputs arrive over the window given, from {} to {} ms ({} ms).",
    "{} 个任务，忙碌 {} ms；输入在指定的时间窗口内到达：从 {} ms 到 {} ms（共 {} ms）。",
);
const ABOUT_YIELD: Text = Text::new(
    "Each task yields with {} every q ms; each yield costs {} ms ({}).",
    "每个任务每 q ms 用 {} 让出一次；每次让出耗时 {} ms（{}）。",
);
const ABOUT_TRANSIT: Text = Text::new(
    "Every input also takes {} ms to reach the main thread ({}), added to every input delay below.",
    "每个输入到达主线程还需 {} ms（{}），已计入下面的每个输入延迟。",
);
const TRANSIT_DEFAULT: Text = Text::new(
    "the transit measured in headless Chromium; --transit or the URL key transit sets it",
    "在 headless Chromium 中测得的传递时间；可用 --transit 或 URL 键 transit 设置",
);
const TRANSIT_GIVEN: Text = Text::new("the transit as given", "按指定的传递时间");
const COST_DEFAULT: Text = Text::new(
    "a typical event-loop turn without rendering; measure yours with Run for real",
    "不含渲染的一次事件循环的典型值；可用“真机运行”测量你自己的",
);
const COST_GIVEN: Text = Text::new("as given", "按指定");
const COST_MEASURED: Text = Text::new(
    "the median measured by Run for real",
    "“真机运行”测得的中位数",
);

/// The lines that say what the rows are about: the tasks and the window,
/// and the yield.
pub fn about(answer: &super::Answer, lang: Lang) -> Vec<String> {
    let r = &answer.report;
    let w = r.window;
    let n = r.tasks.to_string();
    let first = if r.window_given {
        ABOUT_WINDOW.fill(
            lang,
            &[&n, &ms(r.busy_ms), &ms(w.start), &ms(w.end), &ms(w.len())],
        )
    } else {
        let share = if w.len() > 0.0 {
            r.busy_ms / w.len()
        } else {
            0.0
        };
        ABOUT_SPAN.fill(
            lang,
            &[
                &n,
                &ms(r.busy_ms),
                &ms(w.len()),
                &pct(share),
                &ms(w.start),
                &ms(w.end),
            ],
        )
    };
    let y = answer.settings.yielding;
    let from = match answer.settings.cost_from {
        super::CostFrom::Default => COST_DEFAULT,
        super::CostFrom::Given => COST_GIVEN,
        super::CostFrom::Measured => COST_MEASURED,
    };
    let second = ABOUT_YIELD.fill(lang, &[y.kind.code(), &q(y.cost_ms), from.get(lang)]);
    let transit = answer.settings.transit_ms;
    let said = if transit == super::settings::DEFAULT_TRANSIT_MS {
        TRANSIT_DEFAULT
    } else {
        TRANSIT_GIVEN
    };
    let third = ABOUT_TRANSIT.fill(lang, &[&q(transit), said.get(lang)]);
    vec![first, second, third]
}

/// A column of the rows' table: its key (`data-metric` on the page) and
/// heading.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    pub key: &'static str,
    pub head: Text,
}

impl Column {
    /// The row's figure in this column, as the table shows it.
    pub fn cell(&self, row: &PlanRow) -> String {
        let d = row.input_delay_ms;
        let f = row.finish_later_ms;
        match self.key {
            "mean" => format!("{:.2}", d.mean),
            "p50" => ms(d.p50),
            "p75" => ms(d.p75),
            "p95" => ms(d.p95),
            "p98" => ms(d.p98),
            "max" => ms(d.max),
            "over50" => pct1(row.delayed_over[0].1),
            "over100" => pct1(row.delayed_over[1].1),
            "over200" => pct1(row.delayed_over[2].1),
            "tbt" => ms(row.tbt_ms),
            "long" => row.long_tasks.to_string(),
            "later_mean" => format!("{:.2}", f.mean + 0.0),
            "later_p95" => ms(f.p95),
            "later_max" => ms(f.max),
            "later_total" => ms(f.total),
            "yields" => row.yields.to_string(),
            _ => String::new(),
        }
    }
}

fn pct1(share: f64) -> String {
    format!("{:.1}", share * 100.0)
}

const fn col(key: &'static str, en: &'static str, zh: &'static str) -> Column {
    Column {
        key,
        head: Text::new(en, zh),
    }
}

/// Every column, as the CLI prints them.
pub const COLUMNS: [Column; 16] = [
    col("mean", "mean", "平均"),
    col("p50", "p50", "p50"),
    col("p75", "p75", "p75"),
    col("p95", "p95", "p95"),
    col("p98", "p98", "p98"),
    col("max", "max", "最大"),
    col("over50", ">50", ">50"),
    col("over100", ">100", ">100"),
    col("over200", ">200", ">200"),
    col("tbt", "TBT", "TBT"),
    col("long", "long", "长任务"),
    col("later_mean", "mean", "平均"),
    col("later_p95", "p95", "p95"),
    col("later_max", "max", "最大"),
    col("later_total", "total", "合计"),
    col("yields", "yields", "让出"),
];

/// The page's shorter table.
pub(crate) const PAGE_COLUMNS: [&str; 9] = [
    "mean",
    "p98",
    "max",
    "over50",
    "tbt",
    "long",
    "later_mean",
    "later_max",
    "yields",
];

/// The column groups' headings.
pub const GROUP_DELAY: Text = Text::new("input delay (ms)", "输入延迟（ms）");
pub const GROUP_OVER: Text = Text::new("inputs over (%)", "超过的输入（%）");
pub const GROUP_BLOCKING: Text = Text::new("blocking", "阻塞");
pub const GROUP_LATER: Text = Text::new("finish later (ms)", "晚完成（ms）");
/// Where the tasks come from, when not a trace: a file, or the study.
pub const FROM_FILE: Text = Text::new("Tasks from {}", "任务来自 {}");
pub const FROM_STUDY: Text = Text::new(
    "The study's workload: seed {}, {} tasks, mix {}, arrivals {}",
    "研究的工作负载：种子 {}，{} 个任务，组合 {}，到达 {}",
);
pub const QUANTUM_HEAD: Text = Text::new("q (ms)", "q（ms）");
/// Marks beside the favoured row and the knee.
pub const FAVOURED_MARK: Text = Text::new("favoured", "推荐");
pub const KNEE_MARK: Text = Text::new("knee", "拐点");

/// A column by its key.
pub(crate) fn column(key: &str) -> Option<Column> {
    COLUMNS.into_iter().find(|c| c.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both languages of a template take the same arguments.
    #[test]
    fn both_languages_take_the_same_arguments() {
        let all = [
            WAITS,
            RARELY_WAITS,
            IDLE,
            TBT,
            TBT_ONE,
            NO_LONG,
            FAVOURED,
            FAVOURED_EARLIER,
            NO_SLICING_NEEDED,
            STILL_BLOCKING,
            STILL_BLOCKING_UNTRIED,
            NOT_MET,
            NOT_MET_NOR_LOWER,
            KNEE,
            NEARLY_FREE,
            FREE_YIELDS,
            NO_KNEE,
            CLAMP,
            FRAMES,
            OVERRUN,
            ASSUMPTIONS,
            ABOUT_SPAN,
            ABOUT_WINDOW,
            ABOUT_YIELD,
            ABOUT_TRANSIT,
            FROM_FILE,
            FROM_STUDY,
        ];
        for t in all {
            assert_eq!(
                t.en.matches("{}").count(),
                t.zh.matches("{}").count(),
                "{t:?}"
            );
        }
    }
}
