//! Every sentence of the "Run for real" panel, in English and Simplified
//! Chinese, generated from the numbers (nothing canned): the notes before a
//! run, the reading after it, why a run is invalid, and "not available".
//!
//! Each sentence is one [`Text`]: a pair of templates (English, Chinese)
//! whose `{}` are filled in order with figures formatted once.

use crate::text::{Lang, Text};

use super::plan::{Plan, PlanError, MAX_PASS_MS, MAX_REAL_SLICES};
use super::report::{Report, Row, RunState};
use super::settings::YieldKind;

/// The panel's sentences in one language.
#[derive(Clone, Debug, Default)]
pub struct PanelText {
    /// One line for `#real-status`.
    pub status: String,
    /// The plain-words reading of the figures (empty when there are none).
    pub reading: String,
    pub notes: Vec<String>,
    /// What a figure the browser does not report shows instead.
    pub na: String,
}

#[derive(Clone, Debug, Default)]
pub struct Texts {
    pub en: PanelText,
    pub zh: PanelText,
}

const NA: Text = Text::new("not available", "不可用");

/// "not available".
pub fn na(lang: Lang) -> &'static str {
    NA.get(lang)
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
pub fn yield_code(name: &str) -> &'static str {
    YieldKind::parse("real_yield", name)
        .unwrap_or(YieldKind::Auto)
        .code()
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
pub fn plan_error(e: &PlanError, lang: Lang) -> String {
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
    "Scale {}×: every task and the quantum ({} ms) at {} times the model's; one pass is {} of busy work, {} repeats of FIFO and sliced about {}.",
    "比例 {}×：每个任务和时间片（{} ms）都是模型的 {} 倍；一轮忙 {}，FIFO 和分片各重复 {} 次，共约 {}。",
);
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

/// What to know before pressing the button.
pub fn plan_notes(plan: &Plan, repeats: u32, lang: Lang) -> Vec<String> {
    let pass = plan.pass_ms();
    let s = scale_text(plan.scale);
    let mut out = vec![SCALE.fill(
        lang,
        &[
            &s,
            &ms(plan.quantum),
            &s,
            &dur(pass),
            &repeats.to_string(),
            &dur(pass * 2.0 * f64::from(repeats)),
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
pub fn environment(isolated: bool, resolution_ms: f64, lang: Lang) -> String {
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
    "Stopped: {} complete repeat(s) of FIFO and sliced; the figures come from complete passes only.",
    "已停止：FIFO 和分片各完成 {} 次；数字只来自完整的轮次。",
);
const DONE: Text = Text::new(
    "Done: {} repeat(s) of FIFO and sliced, yielding with {}.",
    "完成：FIFO 和分片各 {} 次，用 {} 让出。",
);

fn status(report: &Report, env_invalid: Option<&str>, lang: Lang) -> String {
    let reps = report.complete[0].min(report.complete[1]).to_string();
    match (report.state, env_invalid) {
        (RunState::Invalid, Some("hidden") | None) => HIDDEN.fill(lang, &[]),
        (RunState::Invalid, Some(other)) => INVALID.fill(lang, &[other]),
        (RunState::Stopped, _) => STOPPED.fill(lang, &[&reps]),
        (RunState::Done, _) => DONE.fill(lang, &[&reps, yield_code(&report.yield_used)]),
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
const YIELDS: Text = Text::new(
    "Each yield cost {} ms (median; p95 {} ms) over {} yields a pass, {} ms in all.",
    "每次让出耗时 {} ms（中位数；p95 {} ms），每轮 {} 次，共 {} ms。",
);
const FRAMES: Text = Text::new(
    "{} frames drawn sliced instead of {} under FIFO.",
    "分片时绘制了 {} 帧，FIFO 时 {} 帧。",
);
const PROBE: Text = Text::new(
    "The 50 ms probe timer (a stand-in for input delay) ran up to {} ms late sliced against {} ms under FIFO.",
    "每 50 ms 一次的探测定时器（代替输入延迟的估计）分片时最多晚 {} ms，FIFO 时晚 {} ms。",
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

fn p95(r: &Row) -> String {
    ms(r.value("p95").unwrap_or(f64::NAN))
}

fn reading(report: &Report, lang: Lang) -> String {
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
    if let Some(yc) = &report.yield_cost {
        out.push(YIELDS.fill(
            lang,
            &[
                &ms(yc.gaps.p50),
                &ms(yc.gaps.p95),
                &format!("{:.0}", yc.per_pass),
                &ms(yc.gaps.total / yc.pass_median.n as f64),
            ],
        ));
    }
    if let (Some(cf), Some(cr)) = (report.compare("fifo"), report.compare("rr")) {
        if let (Some(ff), Some(fr)) = (cf.frames, cr.frames) {
            out.push(FRAMES.fill(
                lang,
                &[&format!("{:.0}", fr.median), &format!("{:.0}", ff.median)],
            ));
        }
        if let (Some(pf), Some(pr)) = (cf.probe, cr.probe) {
            out.push(PROBE.fill(lang, &[&ms(pr.max), &ms(pf.max)]));
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

/// Both languages' sentences for a finished run.
pub fn texts(plan: &Plan, report: &Report, env: &super::report::Environment) -> Texts {
    let one = |lang: Lang| {
        let mut notes = plan_notes(plan, plan.settings.repeats, lang);
        notes.insert(0, environment(env.isolated, env.resolution_ms, lang));
        PanelText {
            status: status(report, env.invalid.as_deref(), lang),
            reading: if report.state == RunState::Invalid {
                String::new()
            } else {
                reading(report, lang)
            },
            notes,
            na: na(lang).to_string(),
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
    }
}
