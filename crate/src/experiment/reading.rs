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
use crate::experiment::{Experiment, Outcome, PolicyRun};
use crate::policy::PolicyKind;
use crate::stats::change_pct;
use crate::text::Lang;
use crate::workload::Arrivals;

/// Below this relative change (in %), a figure counts as unchanged.
pub const SAME_PCT: f64 = 0.5;

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
fn mechanism(p: PolicyKind, lang: Lang) -> &'static str {
    let slices = p.min_slice(1.0).is_finite();
    match (p, lang) {
        (_, Lang::En) if slices => "slicing",
        (_, Lang::Zh) if slices => "时间片轮转",
        (PolicyKind::Srpt, Lang::En) => "preemption",
        (PolicyKind::Srpt, Lang::Zh) => "抢占",
        (_, Lang::En) => "reordering",
        (_, Lang::Zh) => "调整顺序",
    }
}

/// The reading of one result, a few sentences long.
pub fn explain(exp: &Experiment, outcome: &Outcome, lang: Lang) -> String {
    let mut out: Vec<String> = Vec::new();
    let Some((base, rest)) = outcome.runs.split_first() else {
        return String::new();
    };
    let n = outcome.workload.len();
    let total_work = outcome.workload.total_work();
    if rest.is_empty() {
        out.push(single(exp, base, n, lang));
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
    out.join(match lang {
        Lang::En => " ",
        Lang::Zh => "",
    })
}

fn single(exp: &Experiment, r: &PolicyRun, n: usize, lang: Lang) -> String {
    let m = &r.summary;
    let p = r.policy.name();
    match lang {
        Lang::En => format!(
            "Under {p}, half the tasks finish within {} ms, 95 % within {} ms and the last at {} ms; {} of {n} finish within {} ms.",
            ms(m.p50),
            ms(m.p95),
            ms(m.max),
            m.done_within,
            exp.within
        ),
        Lang::Zh => format!(
            "在 {p} 下，一半任务在 {} ms 内完成，95% 在 {} ms 内完成，最后一个在 {} ms 完成；{n} 个任务中有 {} 个在 {} ms 内完成。",
            ms(m.p50),
            ms(m.p95),
            ms(m.max),
            m.done_within,
            exp.within
        ),
    }
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
    let (bn, rn) = (b.policy.name(), r.policy.name());
    let mut s: Vec<String> = Vec::new();

    // 1. p95, and what happened to the slowest task.
    let d95 = direction(bs.p95, rs.p95);
    let c95 = change_pct(bs.p95, rs.p95).unwrap_or(0.0);
    let p95_part = match (d95, lang) {
        (-1, Lang::En) => format!(
            "{rn} cuts p95 by {} % compared with {bn} ({} → {} ms)",
            pct(c95),
            ms(bs.p95),
            ms(rs.p95)
        ),
        (-1, Lang::Zh) => format!(
            "与 {bn} 相比，{rn} 把 p95 降低了 {}%（{} → {} ms）",
            pct(c95),
            ms(bs.p95),
            ms(rs.p95)
        ),
        (1, Lang::En) => format!(
            "{rn} raises p95 by {} % compared with {bn} ({} → {} ms)",
            pct(c95),
            ms(bs.p95),
            ms(rs.p95)
        ),
        (1, Lang::Zh) => format!(
            "与 {bn} 相比，{rn} 把 p95 提高了 {}%（{} → {} ms）",
            pct(c95),
            ms(bs.p95),
            ms(rs.p95)
        ),
        (_, Lang::En) => format!("{rn} leaves p95 where {bn} has it ({} ms)", ms(rs.p95)),
        (_, Lang::Zh) => format!("{rn} 与 {bn} 的 p95 基本相同（{} ms）", ms(rs.p95)),
    };
    let dmax = direction(bs.max, rs.max);
    let extra_switches = rs.context_switches.saturating_sub(bs.context_switches);
    let switch_ms = extra_switches as f64 * exp.switch_cost;
    let max_part = match (dmax, d95, lang) {
        // Several policies: the ranking sentence says it once for all.
        (0, _, Lang::En) if brief => ".".to_string(),
        (0, _, Lang::Zh) if brief => "。".to_string(),
        (0, -1, Lang::En) => format!(
            ", but the slowest task still finishes at {} ms: {} changes who finishes first, not when the last one does.",
            ms(rs.max),
            mechanism(r.policy, lang)
        ),
        (0, -1, Lang::Zh) => format!(
            "，但最慢的任务仍在 {} ms 才完成：{}改变的是谁先完成，而不是最后一个何时完成。",
            ms(rs.max),
            mechanism(r.policy, lang)
        ),
        (0, _, Lang::En) => format!(", and the slowest task finishes at {} ms either way.", ms(rs.max)),
        (0, _, Lang::Zh) => format!("，最慢的任务都在 {} ms 完成。", ms(rs.max)),
        (1, _, Lang::En) => {
            let why = if switch_ms > 0.0 {
                format!(
                    ": its {extra_switches} extra switches at {} ms each add {} ms of switching",
                    exp.switch_cost,
                    ms(switch_ms)
                )
            } else {
                String::new()
            };
            format!(
                "; the slowest task also finishes later ({} → {} ms, +{} %){why}.",
                ms(bs.max),
                ms(rs.max),
                pct(change_pct(bs.max, rs.max).unwrap_or(0.0))
            )
        }
        (1, _, Lang::Zh) => {
            let why = if switch_ms > 0.0 {
                format!(
                    "：多出的 {extra_switches} 次切换每次 {} ms，共增加 {} ms 切换开销",
                    exp.switch_cost,
                    ms(switch_ms)
                )
            } else {
                String::new()
            };
            format!(
                "；最慢的任务也更晚完成（{} → {} ms，+{}%）{why}。",
                ms(bs.max),
                ms(rs.max),
                pct(change_pct(bs.max, rs.max).unwrap_or(0.0))
            )
        }
        (_, _, Lang::En) => format!(
            ", and even the slowest task finishes sooner ({} → {} ms).",
            ms(bs.max),
            ms(rs.max)
        ),
        (_, _, Lang::Zh) => format!(
            "，连最慢的任务也更早完成（{} → {} ms）。",
            ms(bs.max),
            ms(rs.max)
        ),
    };
    s.push(format!("{p95_part}{max_part}"));

    // 2. The typical task: median and mean.
    let d50 = direction(bs.p50, rs.p50);
    let dmean = direction(bs.mean, rs.mean);
    let typical = match (d50, lang) {
        (-1, Lang::En) => format!(
            "Half the tasks now finish within {} ms instead of {} ms",
            ms(rs.p50),
            ms(bs.p50)
        ),
        (-1, Lang::Zh) => format!(
            "现在一半任务在 {} ms 内完成，而不是 {} ms",
            ms(rs.p50),
            ms(bs.p50)
        ),
        (1, Lang::En) => format!(
            "Half the tasks now need up to {} ms instead of {} ms",
            ms(rs.p50),
            ms(bs.p50)
        ),
        (1, Lang::Zh) => format!(
            "现在一半任务要到 {} ms 才完成，而不是 {} ms",
            ms(rs.p50),
            ms(bs.p50)
        ),
        (_, Lang::En) => format!("The median stays near {} ms", ms(rs.p50)),
        (_, Lang::Zh) => format!("中位数保持在 {} ms 左右", ms(rs.p50)),
    };
    let mean_part = match (dmean, lang) {
        (0, Lang::En) => format!(" and the mean stays near {} ms.", ms(rs.mean)),
        (0, Lang::Zh) => format!("，平均值保持在 {} ms 左右。", ms(rs.mean)),
        (d, Lang::En) => format!(
            "; the mean {} by {} ms ({} → {} ms).",
            if d < 0 { "falls" } else { "rises" },
            ms((rs.mean - bs.mean).abs()),
            ms(bs.mean),
            ms(rs.mean)
        ),
        (d, Lang::Zh) => format!(
            "；平均值{} {} ms（{} → {} ms）。",
            if d < 0 { "下降" } else { "上升" },
            ms((rs.mean - bs.mean).abs()),
            ms(bs.mean),
            ms(rs.mean)
        ),
    };
    if !brief {
        s.push(format!("{typical}{mean_part}"));
    }

    // 3. The threshold count, when it moved.
    if rs.done_within != bs.done_within && !brief {
        s.push(match lang {
            Lang::En => format!(
                "{} tasks finish within {} ms instead of {}.",
                rs.done_within, exp.within, bs.done_within
            ),
            Lang::Zh => format!(
                "{} ms 内完成的任务从 {} 个变为 {} 个。",
                exp.within, bs.done_within, rs.done_within
            ),
        });
    }

    // 4. What the switches cost (the slowest-task clause may already have
    // counted them).
    if switch_ms > 0.0 {
        let share = if total_work > 0.0 {
            switch_ms / total_work * 100.0
        } else {
            0.0
        };
        let cost = match (dmax == 1, lang) {
            (true, Lang::En) => format!("That switching is {} % of the work", pct(share)),
            (true, Lang::Zh) => format!("这些切换占总工作量的 {}%", pct(share)),
            (false, Lang::En) => format!(
                "With a switch cost of {} ms, {rn}'s {extra_switches} extra switches spend {} ms switching ({} % of the work)",
                exp.switch_cost,
                ms(switch_ms),
                pct(share)
            ),
            (false, Lang::Zh) => format!(
                "切换开销为 {} ms 时，{rn} 多出的 {extra_switches} 次切换共耗费 {} ms（占总工作量的 {}%）",
                exp.switch_cost,
                ms(switch_ms),
                pct(share)
            ),
        };
        let worse = dmean > 0 || d95 > 0;
        let better = dmean < 0 || d95 < 0;
        let verdict = match (worse, better, lang) {
            (true, false, Lang::En) => format!(
                ": the overhead eats the gain from {}.",
                mechanism(r.policy, lang)
            ),
            (true, false, Lang::Zh) => {
                format!("：这些开销吃掉了{}带来的好处。", mechanism(r.policy, lang))
            }
            (true, true, Lang::En) => {
                "; it wins on one of p95 and the mean and loses on the other.".to_string()
            }
            (true, true, Lang::Zh) => "；p95 与平均值一项变好、一项变差。".to_string(),
            (false, true, Lang::En) => {
                format!("; {rn} still comes out ahead on p95 and the mean.")
            }
            (false, true, Lang::Zh) => format!("；{rn} 的 p95 和平均值仍然更好。"),
            (false, false, Lang::En) => "; p95 and the mean barely move.".to_string(),
            (false, false, Lang::Zh) => "；p95 和平均值几乎不变。".to_string(),
        };
        s.push(format!("{cost}{verdict}"));
    } else if exp.switch_cost == 0.0 && extra_switches > 0 && !brief {
        s.push(match lang {
            Lang::En => format!(
                "Switches are free in this run; {rn} makes {} of them, so set a switch cost to see what they would cost.",
                rs.context_switches
            ),
            Lang::Zh => format!(
                "本次运行中切换没有开销；{rn} 切换了 {} 次，可以设置切换开销看看它们的代价。",
                rs.context_switches
            ),
        });
    }
    s.join(match lang {
        Lang::En => " ",
        Lang::Zh => "",
    })
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
    let same = b95.policy == bmean.policy;
    let mut s = match (same, lang) {
        (true, Lang::En) => format!(
            "Of the {} policies, {} has both the lowest p95 ({} ms) and the lowest mean ({} ms)",
            runs.len(),
            b95.policy.name(),
            ms(b95.summary.p95),
            ms(bmean.summary.mean)
        ),
        (true, Lang::Zh) => format!(
            "在 {} 个策略中，{} 的 p95（{} ms）和平均值（{} ms）都最低",
            runs.len(),
            b95.policy.name(),
            ms(b95.summary.p95),
            ms(bmean.summary.mean)
        ),
        (false, Lang::En) => format!(
            "Of the {} policies, {} has the lowest p95 ({} ms) and {} the lowest mean ({} ms)",
            runs.len(),
            b95.policy.name(),
            ms(b95.summary.p95),
            bmean.policy.name(),
            ms(bmean.summary.mean)
        ),
        (false, Lang::Zh) => format!(
            "在 {} 个策略中，{} 的 p95 最低（{} ms），{} 的平均值最低（{} ms）",
            runs.len(),
            b95.policy.name(),
            ms(b95.summary.p95),
            bmean.policy.name(),
            ms(bmean.summary.mean)
        ),
    };
    if same_max {
        s.push_str(&match lang {
            Lang::En => format!(
                "; under every one the last task finishes at {} ms: they change who finishes first, not when the last one does.",
                ms(first_max)
            ),
            Lang::Zh => format!(
                "；无论哪种策略，最后一个任务都在 {} ms 完成：它们改变的是谁先完成，而不是最后一个何时完成。",
                ms(first_max)
            ),
        });
    } else {
        s.push_str(match lang {
            Lang::En => ".",
            Lang::Zh => "。",
        });
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
        Some(match lang {
            Lang::En => format!(
                "The offered load ({load}) is at or above what the cores can do, so the queue keeps growing: latencies here depend on how many tasks you simulate, whatever the policy."
            ),
            Lang::Zh => format!(
                "提供的负载（{load}）达到或超过了核心的处理能力，队列会不断增长：无论哪种策略，这里的延迟都取决于模拟的任务数量。"
            ),
        })
    } else if load >= 0.8 {
        Some(match lang {
            Lang::En => format!(
                "At a load of {load} the cores are busy {} % of the time, so queues form and the tail is long.",
                pct(util * 100.0)
            ),
            Lang::Zh => format!(
                "负载为 {load} 时，核心有 {}% 的时间在忙，队列会形成，尾部延迟较长。",
                pct(util * 100.0)
            ),
        })
    } else {
        None
    }
}

/// The heading of a trace's "as recorded" row, in English and Chinese.
pub const RECORDED_TITLE: (&str, &str) = ("as recorded", "按记录");

/// A policy's (or the "as recorded" row's) name in headings and sentences:
/// the CLI name in capitals.
pub fn policy_title(name: &str, lang: Lang) -> String {
    match (name, lang) {
        (crate::experiment::recorded::RECORDED, Lang::En) => RECORDED_TITLE.0.to_string(),
        (crate::experiment::recorded::RECORDED, Lang::Zh) => RECORDED_TITLE.1.to_string(),
        _ => name.to_ascii_uppercase(),
    }
}

/// A relative change as the table shows it: `−28 %`, `+3.1 %`, or `±0 %`
/// below [`SAME_PCT`] (the threshold the sentences use too).
pub fn change_text(pct: f64) -> String {
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
pub fn verdict(metric: Metric, pct: f64) -> &'static str {
    if pct.abs() < SAME_PCT {
        "same"
    } else if (pct < 0.0) == metric.lower_is_better() {
        "better"
    } else {
        "worse"
    }
}

/// The table's reading: one sentence per row against the first (mean, p50
/// and p95 moves, and whether the slowest task moved). `rows` are
/// `(policy name, figures)`, baseline first.
pub fn comparison(rows: &[(&str, &Summary)], lang: Lang) -> String {
    let Some(((base_name, base), rest)) = rows.split_first() else {
        return String::new();
    };
    let base_title = policy_title(base_name, lang);
    let change = |m: Metric, s: &Summary| change_pct(m.of(base), m.of(s));
    let text = |c: Option<f64>| match (c, lang) {
        (Some(p), _) => change_text(p),
        (None, Lang::En) => "n/a".to_string(),
        (None, Lang::Zh) => "无".to_string(),
    };
    rest.iter()
        .map(|(name, s)| {
            let parts: Vec<String> = [Metric::Mean, Metric::P50, Metric::P95]
                .into_iter()
                .map(|m| {
                    let title = match lang {
                        Lang::En => m.title().0,
                        Lang::Zh => m.title().1,
                    };
                    format!("{title} {}", text(change(m, s)))
                })
                .collect();
            let max = change(Metric::Max, s);
            let same = max.is_some_and(|p| p.abs() < SAME_PCT);
            let name = policy_title(name, lang);
            match lang {
                Lang::En => {
                    let tail = if same {
                        "max does not move: the last task still finishes when all the work is done."
                            .to_string()
                    } else {
                        format!("max {}.", text(max))
                    };
                    format!("{name} vs {base_title}: {}; {tail}", parts.join(", "))
                }
                Lang::Zh => {
                    let tail = if same {
                        "最大值不变：最后一个任务仍要等所有工作做完才结束。".to_string()
                    } else {
                        format!("最大值 {}。", text(max))
                    };
                    format!("{name} 对比 {base_title}：{}；{tail}", parts.join("，"))
                }
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Limits;

    fn run(exp: &Experiment) -> Outcome {
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
        assert!(en.contains("rr cuts p95 by 28 %"), "{en}");
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
            en.contains("Of the 3 policies, srpt has both the lowest p95"),
            "{en}"
        );
        exp.policies = vec![PolicyKind::Rr];
        let en = explain(&exp, &run(&exp), Lang::En);
        assert!(en.starts_with("Under rr, half the tasks"), "{en}");
    }

    #[test]
    fn languages() {
        assert_eq!(Lang::parse("--lang", "zh-CN"), Ok(Lang::Zh));
        assert_eq!(Lang::from_tag("fr-FR"), Lang::En);
        assert!(Lang::parse("--lang", "fr").is_err());
    }
}
