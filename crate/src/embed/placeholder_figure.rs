//! PLACEHOLDER figure for the Embed dialog's snippets, used until the chart
//! module's SVG figures (one drawing function per chart, canvas and SVG)
//! are on main; then the dialog asks the chart module and this file goes.
//!
//! It draws the latency table only (policy, mean, p50, p95, p99, max in
//! ms), whatever part the embed shows, as real `<text>` in a plain grid.

use crate::experiment::metric::Metric;
use crate::text::{Lang, Text};

/// The figures a row shows, in this order.
pub const COLUMNS: [Metric; 5] = [
    Metric::Mean,
    Metric::P50,
    Metric::P95,
    Metric::P99,
    Metric::Max,
];

const HEAD: Text = Text::new("latency (ms)", "延迟（毫秒）");
const ROW_H: f64 = 26.0;
const FIRST_W: f64 = 120.0;
const COL_W: f64 = 96.0;

/// One row: the policy's heading and its figures in [`COLUMNS`] order.
pub struct Row {
    pub policy: String,
    pub values: [f64; 5],
}

fn esc(s: &str) -> String {
    crate::embed::snippet::escape(s)
}

/// The table as one `<svg>` element.
pub fn table_svg(title: &str, rows: &[Row], dark: bool, lang: Lang) -> String {
    let (bg, fg, muted, line) = if dark {
        ("#16181b", "#e6e6e6", "#a8a8a8", "#3a3d42")
    } else {
        ("#ffffff", "#1d1d1f", "#5f6368", "#e2e4e8")
    };
    let w = FIRST_W + COL_W * COLUMNS.len() as f64 + 16.0;
    let h = ROW_H * (rows.len() as f64 + 2.0) + 12.0;
    let mut s = format!(
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" \
         font-family=\"system-ui,sans-serif\" font-size=\"14\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"{bg}\"/>\
         <text x=\"8\" y=\"20\" fill=\"{fg}\" font-weight=\"700\">{}</text>",
        esc(title)
    );
    let head_y = ROW_H + 20.0;
    s.push_str(&format!(
        "<text x=\"8\" y=\"{head_y}\" fill=\"{muted}\">{}</text>",
        esc(HEAD.get(lang))
    ));
    for (i, m) in COLUMNS.iter().enumerate() {
        let x = FIRST_W + COL_W * (i as f64 + 1.0);
        let t = m.title().get(lang);
        s.push_str(&format!(
            "<text x=\"{x}\" y=\"{head_y}\" fill=\"{muted}\" text-anchor=\"end\">{}</text>",
            esc(t)
        ));
    }
    for (r, row) in rows.iter().enumerate() {
        let y = ROW_H * (r as f64 + 2.0) + 18.0;
        let rule = y - 18.0;
        s.push_str(&format!(
            "<line x1=\"8\" x2=\"{}\" y1=\"{rule}\" y2=\"{rule}\" stroke=\"{line}\"/>\
             <text x=\"8\" y=\"{y}\" fill=\"{fg}\" font-weight=\"700\">{}</text>",
            w - 8.0,
            esc(&row.policy)
        ));
        for (i, v) in row.values.iter().enumerate() {
            let x = FIRST_W + COL_W * (i as f64 + 1.0);
            s.push_str(&format!(
                "<text x=\"{x}\" y=\"{y}\" fill=\"{fg}\" text-anchor=\"end\">{v:.1}</text>"
            ));
        }
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_svg_with_every_figure_as_text() {
        let rows = [
            Row {
                policy: "FIFO".into(),
                values: [2661.26, 1.0, 2.0, 3.0, 4.0],
            },
            Row {
                policy: "<RR>".into(),
                values: [5.0, 6.0, 7.0, 8.0, 9.0],
            },
        ];
        let svg = table_svg("tailslice", &rows, false, Lang::En);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<svg").count(), 1);
        for v in ["2661.3", "1.0", "9.0", "p95", "&lt;RR&gt;"] {
            assert!(svg.contains(&format!(">{v}<")), "{v}: {svg}");
        }
        assert!(table_svg("t", &rows, true, Lang::Zh).contains("#16181b"));
    }
}
