//! The figures a result table shows, named once: the one list every table,
//! sweep and the page's catalog read, and the one map from a name to its
//! field of [`Summary`]. A new figure is a new variant here and nothing
//! else (the page builds its columns and metric pickers from this list).

use crate::experiment::summary::Summary;
use crate::text::Text;

/// One reported figure of a policy's latencies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    Mean,
    P50,
    P90,
    P95,
    P99,
    Max,
    /// Tasks done within the threshold (a count: more is better).
    DoneWithin,
}

impl Metric {
    /// Every figure, in the order tables show them.
    pub const ALL: [Metric; 7] = [
        Metric::Mean,
        Metric::P50,
        Metric::P90,
        Metric::P95,
        Metric::P99,
        Metric::Max,
        Metric::DoneWithin,
    ];
    /// What a seed sweep summarises (the CLI's table and JSON order).
    pub(crate) const SWEPT: [Metric; 5] = [
        Metric::Mean,
        Metric::P50,
        Metric::P95,
        Metric::P99,
        Metric::Max,
    ];
    /// What the page offers to plot against the seed, most asked first.
    pub(crate) const SEED_PICK: [Metric; 5] = [
        Metric::P95,
        Metric::P50,
        Metric::P99,
        Metric::Mean,
        Metric::Max,
    ];
    /// What the page offers to plot against the quantum (each has a best
    /// quantum in `sweep::BestQuantum`).
    pub(crate) const QUANTUM_PICK: [Metric; 4] =
        [Metric::P95, Metric::P50, Metric::P99, Metric::Mean];

    /// The name in JSON, URLs and test hooks (`td[data-metric]`).
    pub const fn name(self) -> &'static str {
        match self {
            Metric::Mean => "mean",
            Metric::P50 => "p50",
            Metric::P90 => "p90",
            Metric::P95 => "p95",
            Metric::P99 => "p99",
            Metric::Max => "max",
            Metric::DoneWithin => "done_within",
        }
    }

    pub fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The figure's value in a summary (a count as `f64` for `done_within`).
    pub(crate) fn of(self, s: &Summary) -> f64 {
        match self {
            Metric::Mean => s.mean,
            Metric::P50 => s.p50,
            Metric::P90 => s.p90,
            Metric::P95 => s.p95,
            Metric::P99 => s.p99,
            Metric::Max => s.max,
            Metric::DoneWithin => s.done_within as f64,
        }
    }

    /// Latencies are better lower; the count of tasks done in time higher.
    pub(crate) fn lower_is_better(self) -> bool {
        self != Metric::DoneWithin
    }

    /// Whether the figure depends on the "done within" threshold (its
    /// title names it).
    pub(crate) fn uses_threshold(self) -> bool {
        self == Metric::DoneWithin
    }

    /// Whether the value is in ms (else a count of tasks).
    pub(crate) fn is_ms(self) -> bool {
        self != Metric::DoneWithin
    }

    /// The column heading, in English and Chinese (`{ms}` stands for the
    /// threshold in `done_within`'s).
    pub(crate) fn title(self) -> Text {
        match self {
            Metric::Mean => Text::new("mean", "平均"),
            Metric::P50 => Text::new("p50", "p50"),
            Metric::P90 => Text::new("p90", "p90"),
            Metric::P95 => Text::new("p95", "p95"),
            Metric::P99 => Text::new("p99", "p99"),
            Metric::Max => Text::new("max", "最大"),
            Metric::DoneWithin => Text::new("done < {ms} ms", "{ms} ms 内完成"),
        }
    }
}

/// The names of `metrics`, for tables and JSON that list them.
pub const fn names<const N: usize>(metrics: [Metric; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = metrics[i].name();
        i += 1;
    }
    out
}
