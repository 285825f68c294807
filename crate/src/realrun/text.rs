//! Every sentence of the "Run for real" panel, in English and Simplified
//! Chinese, generated from the numbers (nothing canned): the notes before a
//! run, the reading after it, why a run is invalid, and "not available".

use crate::explain::Lang;

use super::plan::{Plan, PlanError, MAX_PASS_MS, MAX_REAL_SLICES};
use super::report::{Report, RunState};
use super::settings::YieldKind;

/// The panel's sentences in one language.
#[derive(Clone, Debug, Default)]
pub struct Text {
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
    pub en: Text,
    pub zh: Text,
}

/// "not available".
pub fn na(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "not available",
        Lang::Zh => "不可用",
    }
}

fn ms(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn signed_pct(v: f64) -> String {
    let s = if v.abs() >= 10.0 {
        format!("{:.0}", v.abs())
    } else {
        format!("{:.1}", v.abs())
    };
    format!("{}{s} %", if v < 0.0 { "−" } else { "+" })
}

/// A duration in words' units: `2.6 s` from a second on, else `260 ms`.
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

/// Why a run cannot be planned.
pub fn plan_error(e: &PlanError, lang: Lang) -> String {
    match (e, lang) {
        (PlanError::TooLong { pass_ms, scale }, Lang::En) => format!(
            "At scale {}× one pass would keep this tab busy for {}; at most {}: lower real_scale.",
            scale_text(*scale),
            dur(*pass_ms),
            dur(MAX_PASS_MS)
        ),
        (PlanError::TooLong { pass_ms, scale }, Lang::Zh) => format!(
            "按 {}× 的比例，一轮要让本页忙 {}；上限是 {}：请调小 real_scale。",
            scale_text(*scale),
            dur(*pass_ms),
            dur(MAX_PASS_MS)
        ),
        (PlanError::TooManySlices { slices }, Lang::En) => format!(
            "The sliced pass would have about {slices} slices; a real run allows at most {MAX_REAL_SLICES}: use a larger quantum or fewer tasks."
        ),
        (PlanError::TooManySlices { slices }, Lang::Zh) => format!(
            "分片运行约有 {slices} 个时间片；实测最多 {MAX_REAL_SLICES} 个：请加大时间片或减少任务。"
        ),
        (PlanError::NoTasks, Lang::En) => "There are no tasks to run.".to_string(),
        (PlanError::NoTasks, Lang::Zh) => "没有可运行的任务。".to_string(),
        (PlanError::Engine(err), Lang::En) => err.to_string(),
        (PlanError::Engine(err), Lang::Zh) => format!("模拟失败：{err}"),
    }
}

/// What to know before pressing the button.
pub fn plan_notes(plan: &Plan, repeats: u32, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    let pass = plan.pass_ms();
    let total = pass * 2.0 * f64::from(repeats);
    let s = scale_text(plan.scale);
    let q = ms(plan.quantum);
    out.push(match lang {
        Lang::En => format!(
            "Scale {s}×: every task and the quantum ({q} ms) at {s} times the model's; one pass is {} of busy work, {repeats} repeats of FIFO and sliced about {}.",
            dur(pass),
            dur(total)
        ),
        Lang::Zh => format!(
            "比例 {s}×：每个任务和时间片（{q} ms）都是模型的 {s} 倍；一轮忙 {}，FIFO 和分片各重复 {repeats} 次，共约 {}。",
            dur(pass),
            dur(total)
        ),
    });
    if pass > 1000.0 {
        out.push(match lang {
            Lang::En => format!(
                "Each FIFO pass blocks this tab for {} by design (no yields). Stop takes effect at the next task boundary: during a FIFO pass only where the browser reports your click as pending input, otherwise when the pass ends.",
                dur(pass)
            ),
            Lang::Zh => format!(
                "每轮 FIFO 会按设计阻塞本页 {}（不让出）。“停止”在下一个任务边界生效：FIFO 运行中只有浏览器报告有待处理输入时才行，否则要等这一轮结束。",
                dur(pass)
            ),
        });
    }
    if plan.experiment_cores > 1 {
        let c = plan.experiment_cores;
        out.push(match lang {
            Lang::En => format!(
                "The experiment has {c} cores, but a page has one main thread: the real run, and the simulated rows beside it, use the one-core schedule."
            ),
            Lang::Zh => format!(
                "实验设了 {c} 个核，但页面只有一个主线程：实测和旁边的模拟行都按单核调度。"
            ),
        });
    }
    if plan.switch_cost > 0.0 {
        let cs = ms(plan.switch_cost);
        out.push(match lang {
            Lang::En => format!(
                "The simulated rows charge the experiment's switch cost of {cs} ms per switch (not scaled); the real run spins none: its yields are the real cost."
            ),
            Lang::Zh => format!(
                "模拟行按实验的切换开销每次 {cs} ms 计算（不按比例缩放）；实测不额外空转：真实的让出就是开销。"
            ),
        });
    }
    out
}

/// Isolation and the clock, measured before a run.
pub fn environment(isolated: bool, resolution_ms: f64, lang: Lang) -> String {
    let r = if resolution_ms > 0.0 {
        format!("{}", (resolution_ms * 1000.0).round() / 1000.0)
    } else {
        "?".to_string()
    };
    match (isolated, lang) {
        (true, Lang::En) => format!(
            "Cross-origin isolated: yes. The clock's step measured here: {r} ms."
        ),
        (true, Lang::Zh) => format!("跨源隔离：是。这里测得的时钟步长：{r} ms。"),
        (false, Lang::En) => format!(
            "Cross-origin isolated: no, so the clock is coarsened (its step measured here: {r} ms) and gaps shorter than that read as 0 or one step. Served with COOP/COEP headers (scripts/serve.sh sends them) it ticks every 0.005 ms."
        ),
        (false, Lang::Zh) => format!(
            "跨源隔离：否，因此时钟被粗化（这里测得的步长：{r} ms），比它短的间隔会读成 0 或一个步长。用 COOP/COEP 响应头提供页面（scripts/serve.sh 会发送）时步长为 0.005 ms。"
        ),
    }
}

fn status(report: &Report, env_invalid: Option<&str>, lang: Lang) -> String {
    let reps = report.complete[0].min(report.complete[1]);
    match (report.state, lang) {
        (RunState::Invalid, Lang::En) => match env_invalid {
            Some("hidden") | None => "Invalid: the tab was hidden during the run, and background tabs throttle timers and draw no frames. Keep the tab in view and run again.".to_string(),
            Some(other) => format!("Invalid: {other}."),
        },
        (RunState::Invalid, Lang::Zh) => match env_invalid {
            Some("hidden") | None => "无效：运行期间标签页被隐藏，而后台标签页会节流定时器、不再绘制帧。请让标签页保持可见后重新运行。".to_string(),
            Some(other) => format!("无效：{other}。"),
        },
        (RunState::Stopped, Lang::En) => format!(
            "Stopped: {reps} complete repeat(s) of FIFO and sliced; the figures come from complete passes only."
        ),
        (RunState::Stopped, Lang::Zh) => format!(
            "已停止：FIFO 和分片各完成 {reps} 次；数字只来自完整的轮次。"
        ),
        (RunState::Done, Lang::En) => format!(
            "Done: {reps} repeat(s) of FIFO and sliced, yielding with {}.",
            yield_code(&report.yield_used)
        ),
        (RunState::Done, Lang::Zh) => format!(
            "完成：FIFO 和分片各 {reps} 次，用 {} 让出。",
            yield_code(&report.yield_used)
        ),
    }
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
    let v = |r: &super::report::Row| ms(r.value("p95").unwrap_or(f64::NAN));
    let y = yield_code(&report.yield_used);
    let mut out: Vec<String> = Vec::new();
    out.push(match lang {
        Lang::En => format!(
            "Sliced ({y}): p95 {} measured against {} simulated ({} → {} ms measured, {} → {} ms simulated).",
            signed_pct(mea_c),
            signed_pct(sim_c),
            v(fm),
            v(rm),
            v(fs),
            v(rs)
        ),
        Lang::Zh => format!(
            "分片（{y}）：p95 实测 {}，模拟 {}（实测 {} → {} ms，模拟 {} → {} ms）。",
            signed_pct(mea_c),
            signed_pct(sim_c),
            v(fm),
            v(rm),
            v(fs),
            v(rs)
        ),
    });
    if sim_c < -0.5 && mea_c < 0.0 {
        let kept = mea_c / sim_c * 100.0;
        out.push(match lang {
            Lang::En => format!("The machine keeps {kept:.0} % of the simulated p95 gain."),
            Lang::Zh => format!("真机保留了模拟 p95 收益的 {kept:.0}%。"),
        });
    } else if sim_c < -0.5 {
        out.push(match lang {
            Lang::En => "On this machine slicing loses the whole simulated p95 gain: sliced is slower than FIFO.".to_string(),
            Lang::Zh => "在这台机器上分片失去了全部模拟的 p95 收益：分片比 FIFO 还慢。".to_string(),
        });
    }
    if let Some(yc) = &report.yield_cost {
        out.push(match lang {
            Lang::En => format!(
                "Each yield cost {} ms (median; p95 {} ms) over {:.0} yields a pass, {} ms in all.",
                ms(yc.gaps.p50),
                ms(yc.gaps.p95),
                yc.per_pass,
                ms(yc.gaps.total / yc.pass_median.n as f64)
            ),
            Lang::Zh => format!(
                "每次让出耗时 {} ms（中位数；p95 {} ms），每轮 {:.0} 次，共 {} ms。",
                ms(yc.gaps.p50),
                ms(yc.gaps.p95),
                yc.per_pass,
                ms(yc.gaps.total / yc.pass_median.n as f64)
            ),
        });
    }
    let (cf, cr) = (report.compare("fifo"), report.compare("rr"));
    if let (Some(cf), Some(cr)) = (cf, cr) {
        if let (Some(ff), Some(fr)) = (cf.frames, cr.frames) {
            out.push(match lang {
                Lang::En => format!(
                    "{:.0} frames drawn sliced instead of {:.0} under FIFO.",
                    fr.median, ff.median
                ),
                Lang::Zh => format!(
                    "分片时绘制了 {:.0} 帧，FIFO 时 {:.0} 帧。",
                    fr.median, ff.median
                ),
            });
        }
        if let (Some(pf), Some(pr)) = (cf.probe, cr.probe) {
            out.push(match lang {
                Lang::En => format!(
                    "The 50 ms probe timer (a stand-in for input delay) ran up to {} ms late sliced against {} ms under FIFO.",
                    ms(pr.max),
                    ms(pf.max)
                ),
                Lang::Zh => format!(
                    "每 50 ms 一次的探测定时器（代替输入延迟的估计）分片时最多晚 {} ms，FIFO 时晚 {} ms。",
                    ms(pr.max),
                    ms(pf.max)
                ),
            });
        }
        out.push(match (&cf.input, &cr.input, lang) {
            (Some(a), Some(b), Lang::En) if a.n + b.n > 0 => format!(
                "Your own input waited up to {} ms sliced and {} ms under FIFO (Event Timing, {} events).",
                b.sample.map_or("–".to_string(), |s| ms(s.max)),
                a.sample.map_or("–".to_string(), |s| ms(s.max)),
                a.n + b.n
            ),
            (Some(a), Some(b), Lang::Zh) if a.n + b.n > 0 => format!(
                "你自己的输入分片时最多等了 {} ms，FIFO 时 {} ms（Event Timing，{} 次）。",
                b.sample.map_or("–".to_string(), |s| ms(s.max)),
                a.sample.map_or("–".to_string(), |s| ms(s.max)),
                a.n + b.n
            ),
            (Some(_), Some(_), Lang::En) => "No clicks or keys of yours during the run, so no real input delay to show (Event Timing reports them when there are).".to_string(),
            (Some(_), Some(_), Lang::Zh) => "运行期间你没有点击或按键，所以没有真实的输入延迟（有输入时 Event Timing 会报告）。".to_string(),
            (_, _, Lang::En) => "Real input delay: not available (this browser has no Event Timing).".to_string(),
            (_, _, Lang::Zh) => "真实输入延迟：不可用（此浏览器没有 Event Timing）。".to_string(),
        });
    }
    out.join(match lang {
        Lang::En => " ",
        Lang::Zh => "",
    })
}

/// Both languages' sentences for a finished run.
pub fn texts(plan: &Plan, report: &Report, env: &super::report::Environment) -> Texts {
    let one = |lang: Lang| {
        let mut notes = plan_notes(plan, plan.settings.repeats, lang);
        notes.insert(0, environment(env.isolated, env.resolution_ms, lang));
        let show = report.state != RunState::Invalid;
        Text {
            status: status(report, env.invalid.as_deref(), lang),
            reading: if show {
                reading(report, lang)
            } else {
                String::new()
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
