//! Every sentence and label of the "Run for real" panel, in English and
//! Simplified Chinese, generated from the numbers (nothing canned): the
//! notes and time estimate before a run, the tables' headings, labels and
//! cells, the yield cost, the reading after it, why a run is invalid, and
//! "not available". The page lays them out and knows none of them.
//!
//! Each sentence is one [`Text`]: a pair of templates (English, Chinese)
//! whose `{}` are filled in order with figures formatted once.

use serde::Serialize;

use crate::error::fmt_number;
use crate::experiment::metric::Metric;
use crate::experiment::reading::policy_title;
use crate::responsiveness::yielding::TIMEOUT_CLAMP_MS;
use crate::text::{Filled, Lang, Text};

use super::measure::{Sample, Spread};
use super::plan::{Plan, PlanError, PlanPass, MAX_PASS_MS, MAX_REAL_SLICES, PROBE_MS};
use super::report::{Compare, RealRunReport, RealRunRow, RunState};
use super::settings::RealYield;
use crate::responsiveness::YieldKind;

/// One cell of `table#real-results`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CellText {
    pub text: String,
    /// `min–max` over repeats (measured rows of more than one repeat).
    pub spread: Option<String>,
    /// The change against the base pass of the same kind, as a tooltip.
    pub change: Option<String>,
}

/// One row of `table#real-results`: its heading and cells (in the order of
/// [`super::report::METRICS`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RowText {
    pub label: String,
    pub cells: Vec<CellText>,
}

/// One row of `table#real-compare`: a key (the test hook
/// `tr[data-row]`), its heading and one cell per pass.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CompareRow {
    pub key: &'static str,
    pub label: String,
    pub cells: Vec<String>,
}

/// The panel's sentences in one language.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PanelText {
    /// One line for `#real-status`.
    pub status: String,
    /// The plain-words reading of the figures (empty when there are none).
    pub reading: String,
    pub notes: Vec<String>,
    /// What a figure the browser does not report shows instead.
    pub na: String,
    /// The yield cost in one sentence (empty when no sliced pass completed).
    pub yield_cost: String,
    /// Headings of the results table's figure columns.
    pub columns: Vec<String>,
    /// Each pass's name, the comparison's column headings.
    pub passes: Vec<String>,
    pub rows: Vec<RowText>,
    pub compare: Vec<CompareRow>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Texts {
    pub en: PanelText,
    pub zh: PanelText,
}

const NA: Text = Text::new("not available", "不可用");

/// "not available".
pub(crate) fn na(lang: Lang) -> &'static str {
    NA.get(lang)
}

/// A duration in ms with two significant digits below 1 ms (`0.0053`,
/// `0.50`), as [`ms`] from there: a yield of a few µs must not read 0.00.
fn fine_ms(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        return "0".to_string();
    }
    if a >= 1.0 || !a.is_finite() {
        return ms(v);
    }
    // (A step measured as 0.0999999 ms still reads 0.10.)
    let d = ((-a.log10() - 1e-6).ceil() as usize + 1).min(6);
    format!("{v:.d$}")
}

fn ms(v: f64) -> String {
    let a = v.abs();
    let d = if a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.d$}")
}

fn signed_pct(v: f64) -> String {
    let d = if v.abs() >= 10.0 { 0 } else { 1 };
    format!("{}{:.d$} %", if v < 0.0 { "−" } else { "+" }, v.abs())
}

/// A duration: `2.6 s` from a second on, else `260 ms`.
fn dur(v_ms: f64) -> String {
    if v_ms >= 1000.0 {
        format!("{:.1} s", v_ms / 1000.0)
    } else {
        format!("{v_ms:.0} ms")
    }
}

fn scale_text(s: f64) -> String {
    let t = format!("{s:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The primitive's name as written in JavaScript.
pub(crate) fn yield_code(name: &str) -> &'static str {
    RealYield::parse("real_yield", name)
        .unwrap_or(RealYield::Auto)
        .code()
}

const MENU_AUTO: Text = Text::new("auto ({} where it exists)", "自动（有 {} 时用它）");
const MENU_MESSAGE: Text = Text::new("{} message", "{} 消息");
const MENU_TIMEOUT: Text = Text::new(
    "{} (clamped to {} ms when nested)",
    "{}（嵌套时被限制为 {} ms）",
);
const MENU_RAF: Text = Text::new("{} (a frame each time)", "{}（每次一帧）");

/// The yield primitive as the page's menu offers it: how it is written and
/// what it costs beyond the event loop's turn.
pub(crate) fn yield_menu_label(y: RealYield) -> Filled {
    match y {
        RealYield::Auto => MENU_AUTO.both(&[YieldKind::Scheduler.written()]),
        RealYield::Primitive(YieldKind::Scheduler) => Filled::each(|_| y.code().to_string()),
        RealYield::Primitive(YieldKind::Message) => MENU_MESSAGE.both(&[y.code()]),
        RealYield::Primitive(YieldKind::Timeout) => {
            MENU_TIMEOUT.both(&[y.code(), &fmt_number(TIMEOUT_CLAMP_MS)])
        }
        RealYield::Primitive(YieldKind::Raf) => MENU_RAF.both(&[y.code()]),
    }
}

const TOO_LONG: Text = Text::new(
    "At scale {}× one pass would keep this tab busy for {}; at most {}: lower real_scale.",
    "按 {}× 的比例，一轮要让本页忙 {}；上限是 {}：请调小 real_scale。",
);
const TOO_MANY: Text = Text::new(
    "The sliced pass would have about {} slices; a real run allows at most {}: use a larger quantum or fewer tasks.",
    "分片运行约有 {} 个时间片；实测最多 {} 个：请加大时间片或减少任务。",
);
const NO_TASKS: Text = Text::new("There are no tasks to run.", "没有可运行的任务。");
const ENGINE: Text = Text::new("{}", "模拟失败：{}");

/// Why a run cannot be planned.
pub(crate) fn plan_error(e: &PlanError, lang: Lang) -> String {
    match e {
        PlanError::TooLong { pass_ms, scale } => TOO_LONG.fill(
            lang,
            &[&scale_text(*scale), &dur(*pass_ms), &dur(MAX_PASS_MS)],
        ),
        PlanError::TooManySlices { slices } => {
            TOO_MANY.fill(lang, &[&slices.to_string(), &MAX_REAL_SLICES.to_string()])
        }
        PlanError::NoTasks => NO_TASKS.fill(lang, &[]),
        PlanError::Engine(err) => ENGINE.fill(lang, &[&err.to_string()]),
    }
}

const SCALE: Text = Text::new(
    "Scale {}×: every task and the quantum ({} ms) at {} times the model's; one pass is {} of busy work. {} of FIFO and sliced: about {}, counting {} yields a sliced pass at about {} ms each ({}).",
    "比例 {}×：每个任务和时间片（{} ms）都是模型的 {} 倍；一轮忙 {}。FIFO 和分片各重复 {} 次，约需 {}，其中每轮分片让出 {} 次、每次约 {} ms（{}）。",
);
const REPEAT: Text = Text::new("1 repeat", "1");
const REPEATS: Text = Text::new("{} repeats", "{}");
const WHY_TURN: Text = Text::new("a turn of the event loop", "事件循环的一轮");
const WHY_CLAMP: Text = Text::new(
    "setTimeout(0) waits at least 4 ms once nested",
    "嵌套后 setTimeout(0) 至少等 4 ms",
);
const WHY_FRAME: Text = Text::new("a frame at 60 Hz", "60 Hz 下的一帧");
const BLOCKS: Text = Text::new(
    "Each FIFO pass blocks this tab for {} by design (no yields). Stop takes effect at the next task boundary: during a FIFO pass only where the browser reports your click as pending input, otherwise when the pass ends.",
    "每轮 FIFO 会按设计阻塞本页 {}（不让出）。“停止”在下一个任务边界生效：FIFO 运行中只有浏览器报告有待处理输入时才行，否则要等这一轮结束。",
);
const CORES: Text = Text::new(
    "The experiment has {} cores, but a page has one main thread: the real run, and the simulated rows beside it, use the one-core schedule.",
    "实验设了 {} 个核，但页面只有一个主线程：实测和旁边的模拟行都按单核调度。",
);
const SWITCH: Text = Text::new(
    "The simulated rows charge the experiment's switch cost of {} ms per switch (not scaled); the real run spins none: its yields are the real cost.",
    "模拟行按实验的切换开销每次 {} ms 计算（不按比例缩放）；实测不额外空转：真实的让出就是开销。",
);

/// `n` repeats, in words (`1 repeat`, `3 repeats`; Chinese counts with 次
/// in the sentence).
fn repeats(n: usize, lang: Lang) -> String {
    if n == 1 {
        REPEAT.fill(lang, &[])
    } else {
        REPEATS.fill(lang, &[&n.to_string()])
    }
}

/// Why a yield of `kind` costs what the estimate assumes.
fn why_yield(kind: RealYield) -> Text {
    match kind {
        RealYield::Auto | RealYield::Primitive(YieldKind::Scheduler | YieldKind::Message) => {
            WHY_TURN
        }
        RealYield::Primitive(YieldKind::Timeout) => WHY_CLAMP,
        RealYield::Primitive(YieldKind::Raf) => WHY_FRAME,
    }
}

/// A pass's name: the time-sliced one is "sliced", the other its policy.
pub(crate) fn pass_label(pass: &PlanPass, lang: Lang) -> String {
    if pass.yields {
        SLICED.fill(lang, &[])
    } else {
        policy_title(pass.policy.name(), lang)
    }
}

const SLICED: Text = Text::new("sliced", "分片");

/// What to know before pressing the button.
pub fn plan_notes(plan: &Plan, repeats_n: u32, lang: Lang) -> Vec<String> {
    let pass = plan.pass_ms();
    let s = scale_text(plan.scale);
    let kind = plan.settings.yield_kind;
    let yields: usize = plan.passes.iter().map(|p| plan.yields_in(p)).sum();
    let mut out = vec![SCALE.fill(
        lang,
        &[
            &s,
            &ms(plan.quantum),
            &s,
            &dur(pass),
            &repeats(repeats_n as usize, lang),
            &dur(plan.estimate_ms()),
            &yields.to_string(),
            &fine_ms(kind.assumed_ms()),
            why_yield(kind).get(lang),
        ],
    )];
    if pass > 1000.0 {
        out.push(BLOCKS.fill(lang, &[&dur(pass)]));
    }
    if plan.experiment_cores > 1 {
        out.push(CORES.fill(lang, &[&plan.experiment_cores.to_string()]));
    }
    if plan.switch_cost > 0.0 {
        out.push(SWITCH.fill(lang, &[&ms(plan.switch_cost)]));
    }
    out
}

const ISOLATED: Text = Text::new(
    "Cross-origin isolated: yes. The clock's step measured here: {} ms.",
    "跨源隔离：是。这里测得的时钟步长：{} ms。",
);
const NOT_ISOLATED: Text = Text::new(
    "Cross-origin isolated: no, so the clock is coarsened (its step measured here: {} ms) and gaps shorter than that read as 0 or one step. Served with COOP/COEP headers (scripts/serve.sh sends them) it ticks every 0.005 ms.",
    "跨源隔离：否，因此时钟被粗化（这里测得的步长：{} ms），比它短的间隔会读成 0 或一个步长。用 COOP/COEP 响应头提供页面（scripts/serve.sh 会发送）时步长为 0.005 ms。",
);

/// Isolation and the clock, measured before a run.
pub(crate) fn environment(isolated: bool, resolution_ms: f64, lang: Lang) -> String {
    let r = if resolution_ms > 0.0 && resolution_ms.is_finite() {
        ((resolution_ms * 1000.0).round() / 1000.0).to_string()
    } else {
        "?".to_string()
    };
    (if isolated { ISOLATED } else { NOT_ISOLATED }).fill(lang, &[&r])
}

const HIDDEN: Text = Text::new(
    "Invalid: the tab was hidden during the run, and background tabs throttle timers and draw no frames. Keep the tab in view and run again.",
    "无效：运行期间标签页被隐藏，而后台标签页会节流定时器、不再绘制帧。请让标签页保持可见后重新运行。",
);
const INVALID: Text = Text::new("Invalid: {}.", "无效：{}。");
const STOPPED: Text = Text::new(
    "Stopped: {} of FIFO and sliced; the figures come from complete passes only.",
    "已停止：FIFO 和分片各完成 {} 次；数字只来自完整的轮次。",
);
const COMPLETE: Text = Text::new("1 complete repeat", "1");
const COMPLETES: Text = Text::new("{} complete repeats", "{}");
const DONE: Text = Text::new(
    "Done: {} of FIFO and sliced, yielding with {}.",
    "完成：FIFO 和分片各 {} 次，用 {} 让出。",
);

fn status(report: &RealRunReport, env_invalid: Option<&str>, lang: Lang) -> String {
    let reps = report.complete[0].min(report.complete[1]);
    match (report.state, env_invalid) {
        (RunState::Invalid, Some("hidden") | None) => HIDDEN.fill(lang, &[]),
        (RunState::Invalid, Some(other)) => INVALID.fill(lang, &[other]),
        (RunState::Stopped, _) => {
            let n = if reps == 1 {
                COMPLETE.fill(lang, &[])
            } else {
                COMPLETES.fill(lang, &[&reps.to_string()])
            };
            STOPPED.fill(lang, &[&n])
        }
        (RunState::Done, _) => DONE.fill(
            lang,
            &[&repeats(reps, lang), yield_code(&report.yield_used)],
        ),
    }
}

const P95: Text = Text::new(
    "Sliced ({}): p95 {} measured against {} simulated ({} → {} ms measured, {} → {} ms simulated).",
    "分片（{}）：p95 实测 {}，模拟 {}（实测 {} → {} ms，模拟 {} → {} ms）。",
);
const KEEPS: Text = Text::new(
    "The machine keeps {} % of the simulated p95 gain.",
    "真机保留了模拟 p95 收益的 {}%。",
);
const LOSES: Text = Text::new(
    "On this machine slicing loses the whole simulated p95 gain: sliced is slower than FIFO.",
    "在这台机器上分片失去了全部模拟的 p95 收益：分片比 FIFO 还慢。",
);
const FRAMES: Text = Text::new(
    "Frames drawn: {} sliced, {} under FIFO.",
    "绘制的帧数：分片时 {}，FIFO 时 {}。",
);
const PROBE: Text = Text::new(
    "The {} ms probe timer (a stand-in for input delay) ran up to {} ms late sliced against {} ms under FIFO.",
    "每 {} ms 一次的探测定时器（代替输入延迟的估计）分片时最多晚 {} ms，FIFO 时晚 {} ms。",
);
const INPUT: Text = Text::new(
    "Your own input waited up to {} ms sliced and {} ms under FIFO (Event Timing, {} events).",
    "你自己的输入分片时最多等了 {} ms，FIFO 时 {} ms（Event Timing，{} 次）。",
);
const NO_INPUT: Text = Text::new(
    "No clicks or keys of yours during the run, so no real input delay to show (Event Timing reports them when there are).",
    "运行期间你没有点击或按键，所以没有真实的输入延迟（有输入时 Event Timing 会报告）。",
);
const NO_EVENT_TIMING: Text = Text::new(
    "Real input delay: not available (this browser has no Event Timing).",
    "真实输入延迟：不可用（此浏览器没有 Event Timing）。",
);

fn p95(r: &RealRunRow) -> String {
    ms(r.value("p95").unwrap_or(f64::NAN))
}

fn reading(report: &RealRunReport, lang: Lang) -> String {
    let (Some(fs), Some(rs), Some(fm), Some(rm)) = (
        report.row("fifo", "simulated"),
        report.row("rr", "simulated"),
        report.row("fifo", "measured"),
        report.row("rr", "measured"),
    ) else {
        return String::new();
    };
    let (Some(sim_c), Some(mea_c)) = (rs.change_of("p95"), rm.change_of("p95")) else {
        return String::new();
    };
    let mut out: Vec<String> = vec![P95.fill(
        lang,
        &[
            yield_code(&report.yield_used),
            &signed_pct(mea_c),
            &signed_pct(sim_c),
            &p95(fm),
            &p95(rm),
            &p95(fs),
            &p95(rs),
        ],
    )];
    if sim_c < -0.5 && mea_c < 0.0 {
        out.push(KEEPS.fill(lang, &[&format!("{:.0}", mea_c / sim_c * 100.0)]));
    } else if sim_c < -0.5 {
        out.push(LOSES.fill(lang, &[]));
    }
    if let (Some(cf), Some(cr)) = (report.compare("fifo"), report.compare("rr")) {
        if let (Some(ff), Some(fr)) = (cf.frames, cr.frames) {
            out.push(FRAMES.fill(
                lang,
                &[&format!("{:.0}", fr.median), &format!("{:.0}", ff.median)],
            ));
        }
        if let (Some(pf), Some(pr)) = (cf.probe, cr.probe) {
            out.push(PROBE.fill(lang, &[&fmt_number(PROBE_MS), &ms(pr.max), &ms(pf.max)]));
        }
        let worst =
            |i: &super::report::InputDelay| i.sample.map_or("–".to_string(), |s| ms(s.max));
        out.push(match (&cf.input, &cr.input) {
            (Some(a), Some(b)) if a.n + b.n > 0 => {
                INPUT.fill(lang, &[&worst(b), &worst(a), &(a.n + b.n).to_string()])
            }
            (Some(_), Some(_)) => NO_INPUT.fill(lang, &[]),
            _ => NO_EVENT_TIMING.fill(lang, &[]),
        });
    }
    lang.join(&out)
}

const YIELD_TIMED: Text = Text::new(
    "Yield cost ({}): median {} ms, p95 {} ms over {} yields between slices, {} ms of each sliced pass.",
    "让出开销（{}）：中位数 {} ms，p95 {} ms，切片之间共 {} 次让出，每轮分片合计 {} ms。",
);
const YIELD_ALONE: Text = Text::new(
    " Timed alone in batches of {}: {} ms a yield.",
    "单独成批计时（每批 {} 次）：每次 {} ms。",
);
const YIELD_BATCHED: Text = Text::new(
    "Yield cost ({}): {} ms a yield (p95 {} ms), the median of {} batches of {} yields timed together: this clock's step of {} ms is too coarse for one yield (single gaps between slices read {} ms at the median).",
    "让出开销（{}）：每次 {} ms（p95 {} ms），取 {} 批、每批 {} 次连续让出计时的中位数：这里时钟的步长 {} ms 太粗，测不出单次让出（切片之间单个间隔的中位数读作 {} ms）。",
);
const YIELD_BELOW: Text = Text::new(
    "Yield cost ({}): below what this clock can time (its step is {} ms): the gaps between slices read {} ms at the median over {} yields.",
    "让出开销（{}）：低于这个时钟能测的精度（步长 {} ms）：切片之间的间隔中位数读作 {} ms（共 {} 次让出）。",
);

/// The yield cost in one sentence, from whichever sample times it.
fn yield_cost(report: &RealRunReport, lang: Lang) -> String {
    let Some(yc) = &report.yield_cost else {
        return String::new();
    };
    let code = yield_code(&report.yield_used);
    let g = &yc.gaps;
    match (yc.resolved, yc.batches) {
        (true, batches) => {
            let mut s = YIELD_TIMED.fill(
                lang,
                &[
                    code,
                    &fine_ms(g.p50),
                    &fine_ms(g.p95),
                    &format!("{:.0}", yc.per_pass),
                    &ms(g.total / yc.pass_median.n as f64),
                ],
            );
            if let Some(b) = batches {
                s.push_str(
                    &YIELD_ALONE.fill(lang, &[&yc.batch_yields.to_string(), &fine_ms(b.p50)]),
                );
            }
            s
        }
        (false, Some(b)) => YIELD_BATCHED.fill(
            lang,
            &[
                code,
                &fine_ms(b.p50),
                &fine_ms(b.p95),
                &b.n.to_string(),
                &yc.batch_yields.to_string(),
                &fine_ms(yc.step_ms),
                &fine_ms(g.p50),
            ],
        ),
        (false, None) => YIELD_BELOW.fill(
            lang,
            &[
                code,
                &fine_ms(yc.step_ms),
                &fine_ms(g.p50),
                &g.n.to_string(),
            ],
        ),
    }
}

const KIND_SIMULATED: Text = Text::new("simulated", "模拟");
const KIND_MEASURED: Text = Text::new("measured", "实测");
const CHANGE: Text = Text::new("{} versus {} of the same kind", "相对同类 {} {}");

/// The threshold at the run's scale, as short as it reads exactly to 1 µs.
fn threshold(v: f64) -> String {
    let t = format!("{v:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The results table's figure headings (the "done within" threshold at
/// the run's scale).
fn columns(within: f64, lang: Lang) -> Vec<String> {
    Metric::ALL
        .iter()
        .map(|m| m.title().get(lang).replace("{ms}", &threshold(within)))
        .collect()
}

fn cell(metric: Metric, v: f64) -> String {
    if metric.is_ms() {
        format!("{v:.2}")
    } else {
        format!("{v:.0}")
    }
}

fn signed_change(v: f64) -> String {
    format!("{}{:.1} %", if v < 0.0 { "−" } else { "+" }, v.abs())
}

fn row_text(row: &RealRunRow, base: &str, lang: Lang) -> RowText {
    let kind = if row.measured {
        KIND_MEASURED
    } else {
        KIND_SIMULATED
    };
    let label = format!(
        "{} · {}",
        policy_title(row.policy.name(), lang),
        kind.get(lang)
    );
    let cells = Metric::ALL
        .iter()
        .enumerate()
        .map(|(i, &m)| CellText {
            text: row.values[i].map_or_else(|| "—".to_string(), |v| cell(m, v)),
            spread: row.spread[i]
                .filter(|_| row.repeats > 1)
                .map(|(lo, hi)| format!("{}–{}", cell(m, lo), cell(m, hi))),
            change: row.change[i]
                .filter(|_| m.is_ms())
                .map(|c| CHANGE.fill(lang, &[&signed_change(c), base])),
        })
        .collect();
    RowText { label, cells }
}

const ROW_FRAMES: Text = Text::new(
    "frames drawn (requestAnimationFrame)",
    "绘制的帧数（requestAnimationFrame）",
);
const ROW_WALL: Text = Text::new("pass wall time (ms)", "每轮实际耗时（ms）");
const ROW_PROBE: Text = Text::new(
    "{} ms probe timer lateness (a stand-in for input delay)",
    "{} ms 探测定时器的延迟（代替输入延迟的估计）",
);
const ROW_LONGTASKS: Text = Text::new("long tasks (count · total)", "长任务（次数 · 总时长）");
const ROW_LOAFS: Text = Text::new(
    "long animation frames (count · blocking)",
    "长动画帧（次数 · 阻塞时长）",
);
const ROW_INPUT: Text = Text::new(
    "your input delay (Event Timing)",
    "你的输入延迟（Event Timing）",
);
const SAMPLE: Text = Text::new("p50 {} ms, max {} ms", "p50 {} ms，最大 {} ms");
const NO_INPUT_CELL: Text = Text::new("no clicks or keys during the run", "运行期间没有点击或按键");
const NO_PROBE: Text = Text::new(
    "no probe was due during a pass (passes under {} ms)",
    "运行期间没有到期的探测（每轮不足 {} ms）",
);
const NO_PASS: Text = Text::new(
    "no complete pass: stopped before one ended",
    "没有完整的一轮：在一轮结束前已停止",
);
const NOT_COUNTED: Text = Text::new("not counted: the run is invalid", "不计入：本次运行无效");

/// `median (min–max)` over repeats, or the median alone when they agree.
fn spread(s: Option<Spread>, d: usize, na: &str) -> String {
    match s {
        Some(s) if s.n > 1 && s.min != s.max => {
            format!("{:.d$} ({:.d$}–{:.d$})", s.median, s.min, s.max)
        }
        Some(s) => format!("{:.d$}", s.median),
        None => na.to_string(),
    }
}

fn sample(s: Option<Sample>, lang: Lang) -> String {
    s.map_or_else(
        || na(lang).to_string(),
        |s| SAMPLE.fill(lang, &[&format!("{:.1}", s.p50), &format!("{:.1}", s.max)]),
    )
}

/// A row of the comparison: its key, its heading and how a pass's cell reads.
type CompareLine = (&'static str, Text, fn(&Compare, Lang) -> String);

/// The comparison's rows: what the page felt during each pass.
fn compare_rows(report: &RealRunReport, lang: Lang) -> Vec<CompareRow> {
    let rows: [CompareLine; 6] = [
        ("frames", ROW_FRAMES, |c, l| spread(c.frames, 0, na(l))),
        ("wall", ROW_WALL, |c, l| spread(c.wall_ms, 1, na(l))),
        ("probe", ROW_PROBE, |c, l| {
            if c.probe.is_some() {
                sample(c.probe, l)
            } else {
                NO_PROBE.fill(l, &[&fmt_number(PROBE_MS)])
            }
        }),
        ("longtasks", ROW_LONGTASKS, |c, l| match c.longtasks {
            Some(_) => format!(
                "{} · {} ms",
                spread(c.longtasks, 0, na(l)),
                spread(c.longtask_ms, 1, na(l))
            ),
            None => na(l).to_string(),
        }),
        ("loafs", ROW_LOAFS, |c, l| match c.loafs {
            Some(_) => format!(
                "{} · {} ms",
                spread(c.loafs, 0, na(l)),
                spread(c.loaf_blocking_ms, 1, na(l))
            ),
            None => na(l).to_string(),
        }),
        ("input", ROW_INPUT, |c, l| match &c.input {
            None => na(l).to_string(),
            Some(i) if i.n == 0 => NO_INPUT_CELL.fill(l, &[]),
            Some(i) => format!("{} ({})", sample(i.sample, l), i.n),
        }),
    ];
    rows.iter()
        .map(|(key, label, f)| CompareRow {
            key,
            label: label.fill(lang, &[&fmt_number(PROBE_MS)]),
            cells: report
                .compare
                .iter()
                .map(|c| match (report.state, c.passes) {
                    (RunState::Invalid, _) => NOT_COUNTED.fill(lang, &[]),
                    (_, 0) => NO_PASS.fill(lang, &[]),
                    _ => f(c, lang),
                })
                .collect(),
        })
        .collect()
}

/// Both languages' sentences, labels and cells for a finished run.
pub(crate) fn texts(
    plan: &Plan,
    report: &RealRunReport,
    env: &super::report::Environment,
) -> Texts {
    let one = |lang: Lang| {
        let mut notes = plan_notes(plan, plan.settings.repeats, lang);
        notes.insert(0, environment(env.isolated, env.resolution_ms, lang));
        let base = plan
            .passes
            .first()
            .map(|p| policy_title(p.policy.name(), lang))
            .unwrap_or_default();
        PanelText {
            status: status(report, env.invalid.as_deref(), lang),
            reading: if report.state == RunState::Invalid {
                String::new()
            } else {
                reading(report, lang)
            },
            notes,
            na: na(lang).to_string(),
            yield_cost: yield_cost(report, lang),
            columns: columns(plan.within, lang),
            rows: report
                .rows
                .iter()
                .map(|r| row_text(r, &base, lang))
                .collect(),
            passes: plan.passes.iter().map(|p| pass_label(p, lang)).collect(),
            compare: compare_rows(report, lang),
        }
    };
    Texts {
        en: one(Lang::En),
        zh: one(Lang::Zh),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_formatted_once() {
        assert_eq!(signed_pct(-27.94), "−28 %");
        assert_eq!(signed_pct(1.25), "+1.2 %");
        assert_eq!(
            (ms(0.3), ms(12.34), ms(4774.4)),
            ("0.30".into(), "12.3".into(), "4774".into())
        );
        assert_eq!((dur(2604.7), dur(260.4)), ("2.6 s".into(), "260 ms".into()));
        let fine: Vec<String> = [0.0053, 0.099_999_99, 0.5, 0.05, 0.0, 3.25, 0.000_001_2]
            .map(fine_ms)
            .to_vec();
        assert_eq!(
            fine,
            ["0.0053", "0.10", "0.50", "0.050", "0", "3.25", "0.000001"]
        );
    }
}
