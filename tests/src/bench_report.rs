//! Printing the page benchmarks' figures (`tests/benches/`, run by
//! `scripts/bench-*.sh`): percentiles, settings from the environment, and
//! each figure beside its goal. A benchmark prints; it never fails because
//! a goal is missed (a test that could would be a wall-clock assert on a
//! shared machine).

/// `$name` as a number, or `default`.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `$name`, or `default`.
pub fn env_str(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// The `p`th percentile (nearest rank) of `sorted`; NaN when empty.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 * p / 100.0) as usize).min(sorted.len() - 1)]
}

/// `values` sorted ascending (NaNs last).
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// One figure and the goal it is held to (`value ≤ at_most`).
#[derive(Debug, Clone)]
pub struct Figure {
    pub what: String,
    pub value: f64,
    pub at_most: f64,
    pub unit: &'static str,
}

impl Figure {
    pub fn new(what: impl Into<String>, value: f64, at_most: f64, unit: &'static str) -> Self {
        Figure {
            what: what.into(),
            value,
            at_most,
            unit,
        }
    }

    /// `meets`, `OVER` or `no value`.
    pub fn verdict(&self) -> &'static str {
        if self.value.is_nan() {
            "no value"
        } else if self.value <= self.at_most {
            "meets"
        } else {
            "OVER"
        }
    }

    /// One line: the figure, the goal, the verdict.
    pub fn line(&self) -> String {
        let digits = if self.at_most >= 100.0 { 0 } else { 1 };
        format!(
            "  {:<64} {:>9.*} {:<3} goal ≤ {:.*} {:<3} {}",
            self.what,
            digits,
            self.value,
            self.unit,
            digits,
            self.at_most,
            self.unit,
            self.verdict()
        )
    }
}

/// The machine's load average (`/proc/loadavg`: 1, 5 and 15 minutes), to
/// print beside figures: on two cores anything above 1 means the figures
/// were taken while other work competed for the CPU.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".to_string())
}

/// A build of the page to measure: its label and its `dist/`.
#[derive(Debug, Clone)]
pub struct Build {
    pub label: &'static str,
    pub dist: std::path::PathBuf,
}

/// The builds a benchmark measures: the current `dist/` (`now`), and the
/// previous build (`before`) when `BENCH_BEFORE` names its `dist/`, so that
/// both are timed side by side in one run under the same load.
pub fn builds() -> Vec<Build> {
    let mut out = Vec::new();
    if let Some(before) = std::env::var_os("BENCH_BEFORE") {
        out.push(Build {
            label: "before",
            dist: before.into(),
        });
    }
    out.push(Build {
        label: "now",
        dist: crate::dist_dir(),
    });
    out
}

/// The order to measure `n` builds in round `round`: reversed every other
/// round, so neither build always runs first (a warming machine, a cache
/// or a neighbour's burst would favour one side).
pub fn round_order(n: usize, round: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if round % 2 == 1 {
        order.reverse();
    }
    order
}

/// Prints, under a heading, each figure of the current build beside the
/// previous build's (`before`: the same figures in the same order, when
/// measured) and their ratio now / before.
pub fn print_side_by_side(heading: &str, now: &[Figure], before: Option<&[Figure]>) {
    println!("\n{heading}");
    let before = (0..now.len()).map(|k| before.map(|b| b[k].value));
    for (now, before) in now.iter().zip(before) {
        match before {
            Some(b) => println!(
                "{}   before {:.1} {}, now / before {:.2}",
                now.line(),
                b,
                now.unit,
                now.value / b
            ),
            None => println!("{}", now.line()),
        }
    }
}

/// Prints `figures` under a heading, one line each.
pub fn print_goals(heading: &str, figures: &[Figure]) {
    println!("\n{heading}");
    for f in figures {
        println!("{}", f.line());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let v = sorted(&[5.0, 1.0, 4.0, 2.0, 3.0]);
        assert_eq!(v, [1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(percentile(&v, 50.0), 3.0);
        assert_eq!(percentile(&v, 95.0), 5.0);
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert!(percentile(&[], 50.0).is_nan());
    }

    #[test]
    fn rounds_alternate_which_build_runs_first() {
        assert_eq!(round_order(2, 0), [0, 1]);
        assert_eq!(round_order(2, 1), [1, 0]);
        assert_eq!(round_order(1, 1), [0]);
    }

    #[test]
    fn a_figure_says_whether_it_meets_its_goal() {
        assert_eq!(Figure::new("x", 16.0, 16.0, "ms").verdict(), "meets");
        assert_eq!(Figure::new("x", 16.1, 16.0, "ms").verdict(), "OVER");
        assert_eq!(Figure::new("x", f64::NAN, 16.0, "ms").verdict(), "no value");
        let line = Figure::new("first view", 262.4, 250.0, "KB").line();
        assert!(
            line.contains("262 KB") && line.contains("goal ≤ 250 KB") && line.ends_with("OVER"),
            "{line}"
        );
    }
}
