//! A short reading of a result in plain words, in English or Simplified
//! Chinese, computed from the numbers (nothing canned): which way p95 and
//! the mean moved and by how much, whether the slowest task moved, what the
//! switches cost, which policy wins when several are compared, and whether
//! the machine is overloaded.
//!
//! The first policy is the baseline; each other policy gets one paragraph
//! against it.

use crate::experiment::metric::Metric;
use crate::experiment::summary::Summary;
use crate::experiment::{Experiment, PolicyRun, RunOutcome};
use crate::policy::PolicyKind;
use crate::stats::change_pct;
use crate::text::{Lang, Text};
use crate::workload::Arrivals;

/// Below this relative change (in %), a figure counts as unchanged.
pub(crate) const SAME_PCT: f64 = 0.5;

fn ms(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn pct(v: f64) -> String {
    let v = v.abs();
    if v >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Direction of a change from `base` to `value`: -1 lower, 0 same, 1 higher.
fn direction(base: f64, value: f64) -> i8 {
    match change_pct(base, value) {
        Some(p) if p <= -SAME_PCT => -1,
        Some(p) if p >= SAME_PCT => 1,
        Some(_) => 0,
        None if value > base => 1,
        None => 0,
    }
}

/// What the policy does to the order of work, for "X changes who finishes
/// first".
/// A policy with a finite shortest slice slices (`PolicyKind::min_slice`:
/// rr and mlfq by the quantum, xnu by its own 10 ms quanta).
fn mechanism(p: PolicyKind) -> Text {
    if p.min_slice(1.0).is_finite() {
        Text::new("slicing", "时间片轮转")
    } else if p == PolicyKind::Srpt {
        Text::new("preemption", "抢占")
    } else {
        Text::new("reordering", "调整顺序")
    }
}

const FULL_STOP: Text = Text::new(".", "。");

// One policy alone.
const SINGLE: Text = Text::new(
    "Under {}, half the tasks finish within {} ms, 95 % within {} ms and the last at {} ms; {} of {} finish within {} ms.",
    "在 {} 下，一半任务在 {} ms 内完成，95% 在 {} ms 内完成，最后一个在 {} ms 完成；{5} 个任务中有 {4} 个在 {6} ms 内完成。",
);

// p95 against the baseline: policy, change %, baseline, before, after.
const P95_CUT: Text = Text::new(
    "{} cuts p95 by {} % compared with {} ({} → {} ms)",
    "与 {2} 相比，{0} 把 p95 降低了 {1}%（{3} → {4} ms）",
);
const P95_RAISED: Text = Text::new(
    "{} raises p95 by {} % compared with {} ({} → {} ms)",
    "与 {2} 相比，{0} 把 p95 提高了 {1}%（{3} → {4} ms）",
);
// Policy, baseline, p95.
const P95_SAME: Text = Text::new(
    "{} leaves p95 where {} has it ({} ms)",
    "{} 与 {} 的 p95 基本相同（{} ms）",
);

// The slowest task.
const MAX_SAME_SOONER_TYPICAL: Text = Text::new(
    ", but the slowest task still finishes at {} ms: {} changes who finishes first, not when the last one does.",
    "，但最慢的任务仍在 {} ms 才完成：{}改变的是谁先完成，而不是最后一个何时完成。",
);
const MAX_SAME: Text = Text::new(
    ", and the slowest task finishes at {} ms either way.",
    "，最慢的任务都在 {} ms 完成。",
);
// Extra switches, switch cost, switching time.
const MAX_LATER_WHY: Text = Text::new(
    ": its {} extra switches at {} ms each add {} ms of switching",
    "：多出的 {} 次切换每次 {} ms，共增加 {} ms 切换开销",
);
// Before, after, change %, why.
const MAX_LATER: Text = Text::new(
    "; the slowest task also finishes later ({} → {} ms, +{} %){}.",
    "；最慢的任务也更晚完成（{} → {} ms，+{}%）{}。",
);
const MAX_SOONER: Text = Text::new(
    ", and even the slowest task finishes sooner ({} → {} ms).",
    "，连最慢的任务也更早完成（{} → {} ms）。",
);

// The typical task: now, before.
const MEDIAN_SOONER: Text = Text::new(
    "Half the tasks now finish within {} ms instead of {} ms",
    "现在一半任务在 {} ms 内完成，而不是 {} ms",
);
const MEDIAN_LATER: Text = Text::new(
    "Half the tasks now need up to {} ms instead of {} ms",
    "现在一半任务要到 {} ms 才完成，而不是 {} ms",
);
const MEDIAN_SAME: Text = Text::new("The median stays near {} ms", "中位数保持在 {} ms 左右");
const MEAN_SAME: Text = Text::new(
    " and the mean stays near {} ms.",
    "，平均值保持在 {} ms 左右。",
);
// Falls/rises, by, before, after.
const MEAN_MOVED: Text = Text::new(
    "; the mean {} by {} ms ({} → {} ms).",
    "；平均值{} {} ms（{} → {} ms）。",
);
const FALLS: Text = Text::new("falls", "下降");
const RISES: Text = Text::new("rises", "上升");

// Now, threshold, before.
const DONE_WITHIN_MOVED: Text = Text::new(
    "{} tasks finish within {} ms instead of {}.",
    "{1} ms 内完成的任务从 {2} 个变为 {0} 个。",
);

// What switching costs.
const SWITCH_SHARE: Text = Text::new(
    "That switching is {} % of the work",
    "这些切换占总工作量的 {}%",
);
// Switch cost, policy, extra switches, switching time, share.
const SWITCH_COST: Text = Text::new(
    "With a switch cost of {} ms, {}'s {} extra switches spend {} ms switching ({} % of the work)",
    "切换开销为 {} ms 时，{} 多出的 {} 次切换共耗费 {} ms（占总工作量的 {}%）",
);
const OVERHEAD_EATS_GAIN: Text = Text::new(
    ": the overhead eats the gain from {}.",
    "：这些开销吃掉了{}带来的好处。",
);
const WINS_AND_LOSES: Text = Text::new(
    "; it wins on one of p95 and the mean and loses on the other.",
    "；p95 与平均值一项变好、一项变差。",
);
const STILL_AHEAD: Text = Text::new(
    "; {} still comes out ahead on p95 and the mean.",
    "；{} 的 p95 和平均值仍然更好。",
);
const BARELY_MOVE: Text = Text::new(
    "; p95 and the mean barely move.",
    "；p95 和平均值几乎不变。",
);
// Policy, switches.
const FREE_SWITCHES: Text = Text::new(
    "Switches are free in this run; {} makes {} of them, so set a switch cost to see what they would cost.",
    "本次运行中切换没有开销；{} 切换了 {} 次，可以设置切换开销看看它们的代价。",
);

// Several policies: count, best on p95, its p95, its mean.
const BEST_BOTH: Text = Text::new(
    "Of the {} policies, {} has both the lowest p95 ({} ms) and the lowest mean ({} ms)",
    "在 {} 个策略中，{} 的 p95（{} ms）和平均值（{} ms）都最低",
);
// Count, best on p95, its p95, best on the mean, its mean.
const BEST_EACH: Text = Text::new(
    "Of the {} policies, {} has the lowest p95 ({} ms) and {} the lowest mean ({} ms)",
    "在 {} 个策略中，{} 的 p95 最低（{} ms），{} 的平均值最低（{} ms）",
);
const SAME_LAST: Text = Text::new(
    "; under every one the last task finishes at {} ms: they change who finishes first, not when the last one does.",
    "；无论哪种策略，最后一个任务都在 {} ms 完成：它们改变的是谁先完成，而不是最后一个何时完成。",
);

const OVERLOADED: Text = Text::new(
    "The offered load ({}) is at or above what the cores can do, so the queue keeps growing: latencies here depend on how many tasks you simulate, whatever the policy.",
    "提供的负载（{}）达到或超过了核心的处理能力，队列会不断增长：无论哪种策略，这里的延迟都取决于模拟的任务数量。",
);
// Load, busy %.
const HIGH_LOAD: Text = Text::new(
    "At a load of {} the cores are busy {} % of the time, so queues form and the tail is long.",
    "负载为 {} 时，核心有 {}% 的时间在忙，队列会形成，尾部延迟较长。",
);

// p95, the slowest task.
const NOTHING_WAITS: Text = Text::new(
    "Every policy gives each task the same latency here (p95 {} ms, the slowest {} ms): no task waits behind another, since each arrives after the one before it has finished, so there is nothing to reorder, and slicing only cuts a long task into pieces that run back to back.",
    "这里每个策略给每个任务的延迟都相同（p95 {} ms，最慢的 {} ms）：没有任务排在别的任务后面等待，因为每个任务都在前一个结束后才到达，所以没有可调整的顺序，时间片只是把长任务切成首尾相接运行的几段。",
);

/// Whether no task waits under any of the policies (each latency is the
/// task's own work): then every policy replays the tasks alike, as a
/// recorded trace's tasks at their recorded starts are.
pub(crate) fn nothing_waits(outcome: &RunOutcome) -> bool {
    outcome.runs.len() > 1
        && outcome
            .runs
            .iter()
            .all(|r| r.summary.mean_wait <= 1e-9 * r.summary.mean.max(1.0))
}

/// The reading of one result, a few sentences long.
pub fn explain(exp: &Experiment, outcome: &RunOutcome, lang: Lang) -> String {
    let mut out: Vec<String> = Vec::new();
    let Some((base, rest)) = outcome.runs.split_first() else {
        return String::new();
    };
    let n = outcome.workload.len();
    let total_work = outcome.workload.total_work();
    if rest.is_empty() {
        out.push(single(exp, base, n, lang));
    } else if nothing_waits(outcome) {
        // "rr leaves p95 where fifo has it" would read as slicing being
        // useless, where it has simply nothing to act on.
        out.push(NOTHING_WAITS.fill(lang, &[&ms(base.summary.p95), &ms(base.summary.max)]));
        return lang.join(&out);
    }
    for r in rest {
        out.push(versus(exp, base, r, total_work, rest.len() > 1, lang));
    }
    if outcome.runs.len() >= 3 {
        out.push(ranking(&outcome.runs, lang));
    }
    if let Some(s) = load_note(exp, &outcome.runs, lang) {
        out.push(s);
    }
    lang.join(&out)
}

fn single(exp: &Experiment, r: &PolicyRun, n: usize, lang: Lang) -> String {
    let m = &r.summary;
    SINGLE.fill(
        lang,
        &[
            &policy_title(r.policy.name(), lang),
            &ms(m.p50),
            &ms(m.p95),
            &ms(m.max),
            &m.done_within.to_string(),
            &n.to_string(),
            &exp.within.to_string(),
        ],
    )
}

/// One policy against the baseline. `brief` (when several policies are
/// compared) keeps p95, the slowest task and the switch cost only.
fn versus(
    exp: &Experiment,
    b: &PolicyRun,
    r: &PolicyRun,
    total_work: f64,
    brief: bool,
    lang: Lang,
) -> String {
    let (bs, rs): (&Summary, &Summary) = (&b.summary, &r.summary);
    let (b_title, r_title) = (
        policy_title(b.policy.name(), lang),
        policy_title(r.policy.name(), lang),
    );
    let (bn, rn) = (b_title.as_str(), r_title.as_str());
    let mechanism = mechanism(r.policy).get(lang);
    let mut s: Vec<String> = Vec::new();

    // 1. p95, and what happened to the slowest task.
    let d95 = direction(bs.p95, rs.p95);
    let c95 = pct(change_pct(bs.p95, rs.p95).unwrap_or(0.0));
    let p95_part = match d95 {
        -1 => P95_CUT.fill(lang, &[rn, &c95, bn, &ms(bs.p95), &ms(rs.p95)]),
        1 => P95_RAISED.fill(lang, &[rn, &c95, bn, &ms(bs.p95), &ms(rs.p95)]),
        _ => P95_SAME.fill(lang, &[rn, bn, &ms(rs.p95)]),
    };
    let dmax = direction(bs.max, rs.max);
    let extra_switches = rs.context_switches.saturating_sub(bs.context_switches);
    let switch_ms = extra_switches as f64 * exp.switch_cost;
    let max_part = match (dmax, d95) {
        // Several policies: the ranking sentence says it once for all.
        (0, _) if brief => FULL_STOP.get(lang).to_string(),
        (0, -1) => MAX_SAME_SOONER_TYPICAL.fill(lang, &[&ms(rs.max), mechanism]),
        (0, _) => MAX_SAME.fill(lang, &[&ms(rs.max)]),
        (1, _) => {
            let why = if switch_ms > 0.0 {
                MAX_LATER_WHY.fill(
                    lang,
                    &[
                        &extra_switches.to_string(),
                        &exp.switch_cost.to_string(),
                        &ms(switch_ms),
                    ],
                )
            } else {
                String::new()
            };
            let change = pct(change_pct(bs.max, rs.max).unwrap_or(0.0));
            MAX_LATER.fill(lang, &[&ms(bs.max), &ms(rs.max), &change, &why])
        }
        _ => MAX_SOONER.fill(lang, &[&ms(bs.max), &ms(rs.max)]),
    };
    s.push(format!("{p95_part}{max_part}"));

    // 2. The typical task: median and mean.
    let d50 = direction(bs.p50, rs.p50);
    let dmean = direction(bs.mean, rs.mean);
    if !brief {
        let typical = match d50 {
            -1 => MEDIAN_SOONER.fill(lang, &[&ms(rs.p50), &ms(bs.p50)]),
            1 => MEDIAN_LATER.fill(lang, &[&ms(rs.p50), &ms(bs.p50)]),
            _ => MEDIAN_SAME.fill(lang, &[&ms(rs.p50)]),
        };
        let mean_part = match dmean {
            0 => MEAN_SAME.fill(lang, &[&ms(rs.mean)]),
            d => MEAN_MOVED.fill(
                lang,
                &[
                    if d < 0 { FALLS } else { RISES }.get(lang),
                    &ms((rs.mean - bs.mean).abs()),
                    &ms(bs.mean),
                    &ms(rs.mean),
                ],
            ),
        };
        s.push(format!("{typical}{mean_part}"));
    }

    // 3. The threshold count, when it moved.
    if rs.done_within != bs.done_within && !brief {
        s.push(DONE_WITHIN_MOVED.fill(
            lang,
            &[
                &rs.done_within.to_string(),
                &exp.within.to_string(),
                &bs.done_within.to_string(),
            ],
        ));
    }

    // 4. What the switches cost (the slowest-task clause may already have
    // counted them).
    if switch_ms > 0.0 {
        let share = if total_work > 0.0 {
            switch_ms / total_work * 100.0
        } else {
            0.0
        };
        let cost = if dmax == 1 {
            SWITCH_SHARE.fill(lang, &[&pct(share)])
        } else {
            SWITCH_COST.fill(
                lang,
                &[
                    &exp.switch_cost.to_string(),
                    rn,
                    &extra_switches.to_string(),
                    &ms(switch_ms),
                    &pct(share),
                ],
            )
        };
        let worse = dmean > 0 || d95 > 0;
        let better = dmean < 0 || d95 < 0;
        let verdict = match (worse, better) {
            (true, false) => OVERHEAD_EATS_GAIN.fill(lang, &[mechanism]),
            (true, true) => WINS_AND_LOSES.get(lang).to_string(),
            (false, true) => STILL_AHEAD.fill(lang, &[rn]),
            (false, false) => BARELY_MOVE.get(lang).to_string(),
        };
        s.push(format!("{cost}{verdict}"));
    } else if exp.switch_cost == 0.0 && extra_switches > 0 && !brief {
        s.push(FREE_SWITCHES.fill(lang, &[rn, &rs.context_switches.to_string()]));
    }
    lang.join(&s)
}

fn ranking(runs: &[PolicyRun], lang: Lang) -> String {
    let best = |f: fn(&Summary) -> f64| {
        runs.iter()
            .min_by(|a, b| f(&a.summary).total_cmp(&f(&b.summary)))
            .expect("at least one run")
    };
    let b95 = best(|s| s.p95);
    let bmean = best(|s| s.mean);
    let first_max = runs[0].summary.max;
    let same_max = runs
        .iter()
        .all(|r| direction(first_max, r.summary.max) == 0);
    let count = runs.len().to_string();
    let mut s = if b95.policy == bmean.policy {
        BEST_BOTH.fill(
            lang,
            &[
                &count,
                &policy_title(b95.policy.name(), lang),
                &ms(b95.summary.p95),
                &ms(bmean.summary.mean),
            ],
        )
    } else {
        BEST_EACH.fill(
            lang,
            &[
                &count,
                &policy_title(b95.policy.name(), lang),
                &ms(b95.summary.p95),
                &policy_title(bmean.policy.name(), lang),
                &ms(bmean.summary.mean),
            ],
        )
    };
    if same_max {
        s.push_str(&SAME_LAST.fill(lang, &[&ms(first_max)]));
    } else {
        s.push_str(FULL_STOP.get(lang));
    }
    s
}

fn load_note(exp: &Experiment, runs: &[PolicyRun], lang: Lang) -> Option<String> {
    let Arrivals::Poisson { load } = exp.arrivals else {
        return None;
    };
    let util = runs
        .iter()
        .map(|r| r.summary.utilisation)
        .fold(0.0, f64::max);
    if load >= 1.0 {
        Some(OVERLOADED.fill(lang, &[&load.to_string()]))
    } else if load >= 0.8 {
        Some(HIGH_LOAD.fill(lang, &[&load.to_string(), &pct(util * 100.0)]))
    } else {
        None
    }
}

pub use super::row_policy::policy_title;
pub(crate) use super::row_policy::RECORDED_TITLE;

/// A relative change as the table shows it: `−28 %`, `+3.1 %`, or `±0 %`
/// below [`SAME_PCT`] (the threshold the sentences use too).
pub(crate) fn change_text(pct: f64) -> String {
    let a = pct.abs();
    if a < SAME_PCT {
        return "±0 %".to_string();
    }
    let digits = if a >= 9.95 { 0 } else { 1 };
    let sign = if pct < 0.0 { '−' } else { '+' };
    format!("{sign}{a:.digits$} %")
}

/// Whether a change of `metric` by `pct` % is `better`, `worse` or `same`
/// (a table cell's class).
pub(crate) fn verdict(metric: Metric, pct: f64) -> &'static str {
    if pct.abs() < SAME_PCT {
        "same"
    } else if (pct < 0.0) == metric.lower_is_better() {
        "better"
    } else {
        "worse"
    }
}

// The table's reading, one sentence per row: policy, baseline, the
// figures' changes, how the maximum moved.
const ROW: Text = Text::new("{} vs {}: {}; {}", "{} 对比 {}：{}；{}");
const LIST_GAP: Text = Text::new(", ", "，");
const NOT_AVAILABLE: Text = Text::new("n/a", "无");
const MAX_UNMOVED: Text = Text::new(
    "max does not move: the last task still finishes when all the work is done.",
    "最大值不变：最后一个任务仍要等所有工作做完才结束。",
);
const MAX_MOVED: Text = Text::new("max {}.", "最大值 {}。");

/// The table's reading: one sentence per row against the first (mean, p50
/// and p95 moves, and whether the slowest task moved). `rows` are
/// `(policy name, figures)`, baseline first.
pub(crate) fn comparison(rows: &[(&str, &Summary)], lang: Lang) -> String {
    let Some(((base_name, base), rest)) = rows.split_first() else {
        return String::new();
    };
    let base_title = policy_title(base_name, lang);
    let change = |m: Metric, s: &Summary| change_pct(m.of(base), m.of(s));
    let text = |c: Option<f64>| match c {
        Some(p) => change_text(p),
        None => NOT_AVAILABLE.get(lang).to_string(),
    };
    rest.iter()
        .map(|(name, s)| {
            let parts: Vec<String> = [Metric::Mean, Metric::P50, Metric::P95]
                .into_iter()
                .map(|m| format!("{} {}", m.title().get(lang), text(change(m, s))))
                .collect();
            let max = change(Metric::Max, s);
            let tail = if max.is_some_and(|p| p.abs() < SAME_PCT) {
                MAX_UNMOVED.get(lang).to_string()
            } else {
                MAX_MOVED.fill(lang, &[&text(max)])
            };
            ROW.fill(
                lang,
                &[
                    &policy_title(name, lang),
                    &base_title,
                    &parts.join(LIST_GAP.get(lang)),
                    &tail,
                ],
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Limits;

    fn run(exp: &Experiment) -> RunOutcome {
        exp.run(&Limits::CLI, false).unwrap()
    }

    #[test]
    fn the_tables_reading_of_the_study() {
        let o = run(&Experiment::default());
        let rows: Vec<(&str, &Summary)> = o
            .runs
            .iter()
            .map(|r| (r.policy.name(), &r.summary))
            .collect();
        let en = comparison(&rows, Lang::En);
        assert!(
            en.starts_with("RR vs FIFO: mean −41 %, p50 −49 %, p95 −28 %; "),
            "{en}"
        );
        assert!(en.contains("max does not move"), "{en}");
        let zh = comparison(&rows, Lang::Zh);
        assert!(
            zh.starts_with("RR 对比 FIFO：平均 −41 %，p50 −49 %，p95 −28 %；"),
            "{zh}"
        );
        assert!(zh.contains("最大值不变"), "{zh}");
        assert_eq!(comparison(&rows[..1], Lang::En), "");
    }

    #[test]
    fn one_same_threshold_for_cells_and_sentences() {
        assert_eq!(change_text(0.49), "±0 %");
        assert_eq!(change_text(-0.5), "−0.5 %");
        assert_eq!(change_text(9.94), "+9.9 %");
        assert_eq!(change_text(-27.9), "−28 %");
        assert_eq!(verdict(Metric::P95, -0.4), "same");
        assert_eq!(verdict(Metric::P95, -3.0), "better");
        assert_eq!(verdict(Metric::DoneWithin, -3.0), "worse");
        assert_eq!(verdict(Metric::DoneWithin, 3.0), "better");
    }

    #[test]
    fn the_study() {
        let exp = Experiment::default();
        let o = run(&exp);
        let en = explain(&exp, &o, Lang::En);
        assert!(en.contains("RR cuts p95 by 28 %"), "{en}");
        assert!(en.contains("still finishes at 5209 ms"), "{en}");
        assert!(en.contains("slicing changes who finishes first"), "{en}");
        let zh = explain(&exp, &o, Lang::Zh);
        assert!(zh.contains("降低了 28%"), "{zh}");
        assert!(zh.contains("5209 ms"), "{zh}");
    }

    #[test]
    fn switch_cost_eats_the_gain() {
        let exp = Experiment {
            switch_cost: 2.0,
            quantum: 1.0,
            ..Experiment::default()
        };
        let o = run(&exp);
        let en = explain(&exp, &o, Lang::En);
        assert!(en.contains("finishes later"), "{en}");
        assert!(en.contains("switch"), "{en}");
    }

    #[test]
    fn many_policies_and_one() {
        let mut exp = Experiment {
            policies: vec![PolicyKind::Fifo, PolicyKind::Rr, PolicyKind::Srpt],
            ..Experiment::default()
        };
        let en = explain(&exp, &run(&exp), Lang::En);
        assert!(
            en.contains("Of the 3 policies, SRPT has both the lowest p95"),
            "{en}"
        );
        exp.policies = vec![PolicyKind::Rr];
        let en = explain(&exp, &run(&exp), Lang::En);
        assert!(en.starts_with("Under RR, half the tasks"), "{en}");
    }

    #[test]
    fn when_no_task_waits_the_reading_says_so() {
        // One task every second, none longer than 200 ms: nothing waits.
        let exp = Experiment {
            arrivals: Arrivals::Burst {
                count: 1,
                period: 1000.0,
            },
            ..Experiment::default()
        };
        let o = run(&exp);
        assert!(nothing_waits(&o));
        let en = explain(&exp, &o, Lang::En);
        assert!(
            en.starts_with("Every policy gives each task the same latency"),
            "{en}"
        );
        assert!(!en.contains("leaves p95"), "{en}");
        assert!(explain(&exp, &o, Lang::Zh).contains("延迟都相同"));
        // The study's tasks all wait at t = 0.
        assert!(!nothing_waits(&run(&Experiment::default())));
    }

    #[test]
    fn languages() {
        assert_eq!(Lang::parse("--lang", "zh-CN"), Ok(Lang::Zh));
        assert_eq!(Lang::from_tag("fr-FR"), Lang::En);
        assert!(Lang::parse("--lang", "fr").is_err());
    }
}
