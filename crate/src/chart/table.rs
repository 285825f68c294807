//! A table as a figure: the study's results (one row per policy, a
//! trace's "as recorded" row first, one column per figure of
//! [`Metric::ALL`], values as the page's table shows them) or a scenario's
//! tables as Rust lays them out for the page ([`of_page`]).

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::DrawingBackend;

use super::pen::{anchor, text_width, DrawResult, Pen};
use super::theme::{self, Rgb};
use super::words;
use crate::experiment::metric::Metric;
use crate::experiment::reading::policy_title;
use crate::experiment::recorded::RECORDED;
use crate::experiment::summary::Summary;
use crate::experiment::{Experiment, RunOutcome};
use crate::scenario::PageTable;
use crate::text::Lang;

const ROW_H: f64 = 24.0;
const SIZE: f64 = 12.0;
const PAD: f64 = 14.0;

/// A table ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<TableRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TableRow {
    pub name: String,
    /// The swatch before its name: the policy's colour (none for the
    /// recorded row), a scenario row's QoS.
    pub color: Option<Rgb>,
    /// The cells as shown.
    pub cells: Vec<String>,
}

/// A figure's value as the table shows it: ms to one decimal, counts whole.
pub(crate) fn cell(m: Metric, s: &Summary) -> String {
    if m.is_ms() {
        format!("{:.1}", m.of(s))
    } else {
        format!("{}", m.of(s))
    }
}

/// The study's table in `lang`, with `recorded` (a trace's tasks as they
/// ran) first when given.
pub(crate) fn study(
    exp: &Experiment,
    outcome: &RunOutcome,
    recorded: Option<&Summary>,
    lang: Lang,
) -> Table {
    let within = crate::error::fmt_number(exp.within);
    let mut headers = vec![words::POLICY.get(lang).to_string()];
    headers.extend(
        Metric::ALL
            .iter()
            .map(|m| m.title().get(lang).replace("{ms}", &within)),
    );
    let row = |name: String, color: Option<Rgb>, s: &Summary| TableRow {
        name,
        color,
        cells: Metric::ALL.iter().map(|&m| cell(m, s)).collect(),
    };
    let mut rows: Vec<TableRow> = recorded
        .map(|s| row(policy_title(RECORDED, lang), None, s))
        .into_iter()
        .collect();
    for (i, r) in outcome.runs.iter().enumerate() {
        let mut name = policy_title(r.policy.name(), lang);
        if r.policy.uses_quantum() {
            name = format!("{name} ({} ms)", crate::error::fmt_number(exp.quantum));
        }
        rows.push(row(name, Some(theme::policy(i)), &r.summary));
    }
    Table { headers, rows }
}

/// A scenario's table as the page shows it, in `lang`: its first column
/// heads the rows; a row is marked with the colour of the first QoS one of
/// its cells names.
pub(crate) fn of_page(t: &PageTable, lang: Lang) -> Table {
    Table {
        headers: t
            .columns
            .iter()
            .map(|c| c.label.get(lang).to_string())
            .collect(),
        rows: t
            .rows
            .iter()
            .map(|r| TableRow {
                name: r
                    .cells
                    .first()
                    .map_or(String::new(), |c| c.text.get(lang).to_string()),
                color: r.cells.iter().find_map(|c| c.qos).map(theme::qos),
                cells: r
                    .cells
                    .iter()
                    .skip(1)
                    .map(|c| c.text.get(lang).to_string())
                    .collect(),
            })
            .collect(),
    }
}

/// Room before a row's name for its swatch (none when no row has one).
fn indent(t: &Table) -> f64 {
    if t.rows.iter().any(|r| r.color.is_some()) {
        14.0
    } else {
        0.0
    }
}

/// Column widths: the widest of header and cells, plus padding.
fn widths(t: &Table) -> Vec<f64> {
    let mut w: Vec<f64> = t
        .headers
        .iter()
        .map(|h| text_width(h, SIZE) * 1.08)
        .collect();
    for r in &t.rows {
        let name = indent(t) + text_width(&r.name, SIZE);
        w[0] = w[0].max(name);
        for (i, c) in r.cells.iter().enumerate() {
            if let Some(x) = w.get_mut(i + 1) {
                *x = x.max(text_width(c, SIZE));
            }
        }
    }
    w.iter().map(|x| x + PAD).collect()
}

/// The table's size in CSS px.
pub(crate) fn size(t: &Table) -> (f64, f64) {
    (
        widths(t).iter().sum::<f64>() + 8.0,
        ROW_H * (t.rows.len() + 1) as f64 + 4.0,
    )
}

/// `t` laid out for `width` px: as it is when it fits, else turned on
/// its side (a row per column, a column per row: a phone's figure keeps
/// every number in view) when that is narrower.
pub(crate) fn fit(t: Table, width: f64) -> Table {
    if size(&t).0 <= width || t.rows.is_empty() {
        return t;
    }
    let turned = Table {
        headers: std::iter::once(String::new())
            .chain(t.rows.iter().map(|r| r.name.clone()))
            .collect(),
        rows: t
            .headers
            .iter()
            .skip(1)
            .enumerate()
            .map(|(i, h)| TableRow {
                name: h.clone(),
                color: None,
                cells: t
                    .rows
                    .iter()
                    .map(|r| r.cells.get(i).cloned().unwrap_or_default())
                    .collect(),
            })
            .collect(),
    };
    if size(&turned).0 < size(&t).0 {
        turned
    } else {
        t
    }
}

/// Draws `t` with its top left at the pen's origin.
pub(crate) fn draw<B: DrawingBackend>(pen: &mut Pen<B>, t: &Table) -> DrawResult<(), B> {
    let theme = pen.theme;
    let widths = widths(t);
    let total: f64 = widths.iter().sum();
    let hair = 1.0 / pen.scale;
    let mid = |row: usize| ROW_H * row as f64 + ROW_H / 2.0;
    let mut x = 0.0;
    for (i, h) in t.headers.iter().enumerate() {
        let (tx, pos) = if i == 0 {
            (x, anchor(HPos::Left, VPos::Center))
        } else {
            (x + widths[i] - 4.0, anchor(HPos::Right, VPos::Center))
        };
        pen.bold(h, tx, mid(0), SIZE, theme.muted, pos)?;
        x += widths[i];
    }
    pen.fill(0.0, ROW_H - hair, total, ROW_H, theme.muted.solid())?;
    for (r, row) in t.rows.iter().enumerate() {
        let y = mid(r + 1);
        let mut tx = 0.0;
        if let Some(c) = row.color {
            pen.fill(0.0, y - 5.0, 10.0, y + 5.0, c.solid())?;
        }
        tx += indent(t);
        pen.text(
            &row.name,
            tx,
            y,
            SIZE,
            theme.fg,
            anchor(HPos::Left, VPos::Center),
        )?;
        let mut x = widths[0];
        for (i, c) in row.cells.iter().enumerate() {
            let w = widths.get(i + 1).copied().unwrap_or(0.0);
            pen.text(
                c,
                x + w - 4.0,
                y,
                SIZE,
                theme.fg,
                anchor(HPos::Right, VPos::Center),
            )?;
            x += w;
        }
        let bottom = ROW_H * (r + 2) as f64;
        pen.fill(0.0, bottom - hair, total, bottom, theme.grid.solid())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide() -> Table {
        Table {
            headers: [
                "policy",
                "mean",
                "p50",
                "p90",
                "p95",
                "p99",
                "max",
                "done ≤ 100 ms",
            ]
            .map(String::from)
            .to_vec(),
            rows: ["FIFO", "RR (16 ms)"]
                .iter()
                .map(|n| TableRow {
                    name: n.to_string(),
                    color: None,
                    cells: ["12.5", "3.0", "40.1", "95.2", "180.7", "275.0", "380"]
                        .map(String::from)
                        .to_vec(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_table_too_wide_turns_on_its_side() {
        let t = fit(wide(), 328.0);
        assert_eq!(t.headers, ["", "FIFO", "RR (16 ms)"]);
        assert_eq!(t.rows.len(), 7);
        assert_eq!(t.rows[4].name, "p99");
        assert_eq!(t.rows[4].cells, ["180.7", "180.7"]);
        assert!(size(&t).0 <= 328.0, "{}", size(&t).0);
        // With room, it stays as it is.
        assert_eq!(fit(wide(), 900.0), wide());
    }
}
