//! A `measure --json` output opened on the page: its measured rows worded
//! for the latency table (`www/measured.js` lays them out under their
//! model rows), the environment line and the note shown once an edit
//! leaves the measured experiment.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::experiment::export::ExperimentFile;
use crate::experiment::measured::{self, MeasuredRow};
use crate::experiment::metric::Metric;
use crate::experiment::Limits;
use crate::text::Filled;
use crate::workload::task_list::ImportError;

/// One measured row as the table shows it.
#[derive(Serialize)]
pub(crate) struct ViewRow {
    /// The model policy it sits under (`tr[data-policy]`).
    policy: String,
    kernel_policy: &'static str,
    /// `SCHED_FIFO measured`.
    title: Filled,
    /// By metric name: the figure (ms), its cell text and its spread text
    /// (`min–max`); a figure the run does not measure is absent.
    figures: BTreeMap<&'static str, f64>,
    cells: BTreeMap<&'static str, String>,
    spread: BTreeMap<&'static str, String>,
    done_within: u64,
    repeats: usize,
}

/// What `openExperiment` adds for a `measure --json` output.
#[derive(Serialize)]
pub(crate) struct MeasuredView {
    rows: Vec<ViewRow>,
    environment: Filled,
    dropped: Filled,
}

fn view_row(r: &MeasuredRow) -> ViewRow {
    let mut figures = BTreeMap::new();
    let mut cells = BTreeMap::new();
    let mut spread = BTreeMap::new();
    for m in Metric::ALL {
        if let Some((v, s)) = r.figure(m) {
            figures.insert(m.name(), v);
            cells.insert(m.name(), measured::ms(v));
            spread.insert(m.name(), measured::spread_text(s));
        }
    }
    cells.insert(Metric::DoneWithin.name(), r.done_within.to_string());
    ViewRow {
        policy: r.policy.clone(),
        kernel_policy: r.kernel_policy.name(),
        title: measured::MEASURED_TITLE.both(&[r.kernel_policy.name()]),
        figures,
        cells,
        spread,
        done_within: r.done_within,
        repeats: r.repeats,
    }
}

/// `text` read as `measure --json` output: its experiment and the view of
/// its measured rows; `Ok(None)` when it is not one.
pub(crate) fn read(
    text: &str,
    limits: &Limits,
) -> Result<Option<(ExperimentFile, MeasuredView)>, ImportError> {
    let Some(m) = measured::parse_measure_text(text, limits)? else {
        return Ok(None);
    };
    let view = MeasuredView {
        rows: m.measured.iter().map(view_row).collect(),
        environment: Filled::each(|lang| measured::environment_line(&m.environment, lang)),
        dropped: measured::DROPPED.both(&[]),
    };
    Ok(Some((m.file, view)))
}
