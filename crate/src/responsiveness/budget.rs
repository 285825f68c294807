//! `--budget inp=MS,p98=MS,tbt=MS`: a gate for continuous integration, as
//! Lighthouse CI's budgets are. Each budget is checked against the
//! **recorded** row — the trace or tasks as they ran — since a gate judges
//! what was measured, not what slicing might make of it: INP (a trace's
//! interactions), the p98 input delay of the uniform-arrival model (the
//! transit included) and Total Blocking Time.

use super::answer::Answer;
use crate::error::{fmt_number, unit, NumberRange, ParamError};
use crate::text::{Filled, Text};

/// One budget's range, ms.
pub(crate) const BUDGET_RANGE: NumberRange = NumberRange::new(0.001, 1e7, unit::MS).or_zero();

const ALLOWED: Text = Text::new(
    "KEY=MS joined by commas, each KEY (inp, p98 or tbt) at most once, each MS {} (e.g. inp=200,tbt=300)",
    "用逗号隔开的 KEY=MS，KEY 为 inp、p98 或 tbt，各至多一次，MS 为{}（例如 inp=200,tbt=300）",
);
const OVER: Text = Text::new(
    "budget exceeded: {} is {} ms, over its budget of {} ms (as recorded)",
    "超出预算：{}为 {} ms，超过预算 {} ms（按记录）",
);
const NO_INP: Text = Text::new(
    "budget not checked: INP has a budget of {} ms, but these tasks have no interactions (a trace with EventTiming events is needed)",
    "预算无法检查：INP 的预算为 {} ms，但这些任务没有交互（需要含 EventTiming 事件的 trace）",
);

/// The budgets given; `None`: not given.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    pub inp: Option<f64>,
    pub p98: Option<f64>,
    pub tbt: Option<f64>,
}

impl Budget {
    /// Parses `inp=200,p98=50,tbt=300` (any subset, any order).
    pub fn parse(field: &str, text: &str) -> Result<Budget, ParamError> {
        let bad = || ParamError::new(field, text, BUDGET_RANGE.allowed().within(ALLOWED, &[]));
        let mut b = Budget::default();
        if text.trim().is_empty() {
            return Err(bad());
        }
        for part in text.split(',') {
            let (k, v) = part.split_once('=').ok_or_else(bad)?;
            let v = BUDGET_RANGE.parse(field, v).map_err(|_| bad())?;
            let slot = match k.trim() {
                "inp" => &mut b.inp,
                "p98" => &mut b.p98,
                "tbt" => &mut b.tbt,
                _ => return Err(bad()),
            };
            if slot.replace(v).is_some() {
                return Err(bad());
            }
        }
        Ok(b)
    }

    /// One line per budget exceeded (or not checkable), in both languages;
    /// none when every budget holds.
    pub fn check(&self, answer: &Answer) -> Vec<Filled> {
        let rec = answer.report.recorded();
        let mut out = Vec::new();
        let mut over = |name: Text, value: f64, limit: f64| {
            if value > limit {
                let (value, limit) = (ms(value), fmt_number(limit));
                out.push(Filled::each(|lang| {
                    OVER.fill(lang, &[name.get(lang), &value, &limit])
                }));
            }
        };
        if let Some(limit) = self.p98 {
            over(
                Text::new("the p98 input delay", "p98 输入延迟"),
                rec.input_delay_ms.p98,
                limit,
            );
        }
        if let Some(limit) = self.tbt {
            over(
                Text::new("Total Blocking Time", "总阻塞时间"),
                rec.tbt_ms,
                limit,
            );
        }
        if let Some(limit) = self.inp {
            match answer.inp(0) {
                Some(inp) => over(Text::new("INP", "INP "), inp, limit),
                None => out.push(NO_INP.both(&[&fmt_number(limit)])),
            }
        }
        out
    }
}

fn ms(v: f64) -> String {
    format!("{v:.1}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_subset_parses_and_bad_syntax_names_the_flag() {
        assert_eq!(
            Budget::parse("--budget", "tbt=300, inp=200").unwrap(),
            Budget {
                inp: Some(200.0),
                p98: None,
                tbt: Some(300.0)
            }
        );
        for bad in [
            "",
            "inp",
            "inp=",
            "inp=-1",
            "lcp=2",
            "inp=1,inp=2",
            "inp=NaN",
        ] {
            let e = Budget::parse("--budget", bad).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("invalid --budget '{bad}': expected KEY=MS")),
                "{e}"
            );
        }
    }
}
