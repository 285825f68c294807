//! No two labels of a figure overlap: the study's figure and a trace's
//! answer (its table, input-delay CDF, trade-off over the quantum and
//! interactions' bars) drawn as SVG — by the same functions that draw the
//! page's canvases — at a 390 px phone's width and at 1400 px, in English
//! and Chinese, nor sits on a chart's points or under its curves. Each
//! `<text>`'s box is computed from its x, y, font size and anchor with the
//! charts' own width estimate (CJK at a full em).

use roxmltree::Document;
use tailslice::chart::answer::AnswerCharts;
use tailslice::chart::figure::{self, Options, Study};
use tailslice::chart::pen::text_width;
use tailslice::experiment::{Experiment, Limits};
use tailslice::responsiveness::plan::Task;
use tailslice::responsiveness::report::MAX_CHUNKS;
use tailslice::responsiveness::{Answer, Settings, Source};
use tailslice::text::Lang;
use tailslice::trace::{import_trace, TraceOptions};

const WIDTHS: [f64; 2] = [390.0, 1400.0];

/// A drawn text's box: `[x0, y0, x1, y1]` and what it says.
#[derive(Debug)]
struct TextBox {
    b: [f64; 4],
    text: String,
}

/// The boxes of every `<text>` of `svg`. The glyphs span from 0.8 em above
/// the baseline to 0.2 em below it; a rotated text (an axis title) turns
/// its box about its anchor.
fn boxes(svg: &str) -> Vec<TextBox> {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let num = |a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
            let (x, y, size) = (num("x"), num("y"), num("font-size"));
            let text = n.text().unwrap_or("").to_string();
            let w = text_width(&text, size);
            let x0 = match n.attribute("text-anchor") {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            let (y0, y1) = (y - 0.8 * size, y + 0.2 * size);
            let b = match n.attribute("transform") {
                // rotate(±90 cx cy) about the anchor.
                Some(t) if t.starts_with("rotate(") => {
                    let nums: Vec<f64> = t
                        .trim_start_matches("rotate(")
                        .trim_end_matches(')')
                        .split_whitespace()
                        .map(|v| v.parse().unwrap())
                        .collect();
                    let (cx, cy) = (nums[1], nums[2]);
                    let pts = [(x0, y0), (x0 + w, y1)].map(|(px, py)| {
                        let (dx, dy) = (px - cx, py - cy);
                        if nums[0] < 0.0 {
                            (cx + dy, cy - dx)
                        } else {
                            (cx - dy, cy + dx)
                        }
                    });
                    [
                        pts[0].0.min(pts[1].0),
                        pts[0].1.min(pts[1].1),
                        pts[0].0.max(pts[1].0),
                        pts[0].1.max(pts[1].1),
                    ]
                }
                _ => [x0, y0, x0 + w, y1],
            };
            TextBox { b, text }
        })
        .collect()
}

/// How far two boxes overlap across and down (negative: apart).
fn shared(a: &[f64; 4], c: &[f64; 4]) -> (f64, f64) {
    (
        a[2].min(c[2]) - a[0].max(c[0]),
        a[3].min(c[3]) - a[1].max(c[1]),
    )
}

/// The marks a label must not cover: every `<circle>`'s box (a chart's
/// points and rings).
fn circles(svg: &str) -> Vec<[f64; 4]> {
    let doc = Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            let num = |a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
            let (x, y, r) = (num("cx"), num("cy"), num("r"));
            [x - r, y - r, x + r, y + r]
        })
        .collect()
}

/// The curves a label must not sit on: every `<polyline>`'s segments.
fn curves(svg: &str) -> Vec<((f64, f64), (f64, f64))> {
    let doc = Document::parse(svg).unwrap();
    let mut out = Vec::new();
    for n in doc.descendants().filter(|n| n.has_tag_name("polyline")) {
        let pts: Vec<(f64, f64)> = n
            .attribute("points")
            .unwrap()
            .split_whitespace()
            .filter_map(|p| p.split_once(','))
            .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
            .collect();
        out.extend(pts.windows(2).map(|w| (w[0], w[1])));
    }
    out
}

/// Whether segment `a`–`e` passes through box `b`.
fn crosses(b: &[f64; 4], a: (f64, f64), e: (f64, f64)) -> bool {
    let (dx, dy) = (e.0 - a.0, e.1 - a.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [
        (-dx, a.0 - b[0]),
        (dx, b[2] - a.0),
        (-dy, a.1 - b[1]),
        (dy, b[3] - a.1),
    ] {
        if p == 0.0 {
            if q <= 0.0 {
                return false;
            }
            continue;
        }
        let r = q / p;
        if p < 0.0 {
            t0 = t0.max(r);
        } else {
            t1 = t1.min(r);
        }
        if t0 >= t1 {
            return false;
        }
    }
    true
}

/// Every pair of texts that overlap by more than half a pixel each way
/// (neighbouring rows of a table or a legend may touch), every text on a
/// point or ring, and every text a curve runs through (its box less a
/// pixel all round: a curve may graze a label).
fn overlaps(svg: &str) -> Vec<String> {
    let all = boxes(svg);
    let marks = circles(svg);
    let lines = curves(svg);
    let mut out = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for c in &all[i + 1..] {
            let (w, h) = shared(&a.b, &c.b);
            if w > 0.5 && h > 0.5 {
                out.push(format!("{:?} {:?} / {:?} {:?}", a.text, a.b, c.text, c.b));
            }
        }
        for m in &marks {
            let (w, h) = shared(&a.b, m);
            if w > 0.5 && h > 0.5 {
                out.push(format!("{:?} {:?} on a point {m:?}", a.text, a.b));
            }
        }
        let inner = [a.b[0] + 1.0, a.b[1] + 1.0, a.b[2] - 1.0, a.b[3] - 1.0];
        if let Some(l) = lines.iter().find(|(p, e)| crosses(&inner, *p, *e)) {
            out.push(format!("{:?} {:?} crossed by a curve {l:?}", a.text, a.b));
        }
    }
    out
}

/// A trace with a click during a long task: its answer's charts, as the
/// page builds them (the page's quantum, 16 ms, among the quanta).
fn answer_charts() -> AnswerCharts {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/traces/interactions-click-during-long-task.json.gz"
    );
    let imp = import_trace(&std::fs::read(path).unwrap(), &TraceOptions::default()).unwrap();
    let tasks = Task::from_columns(&imp.recorded_start, &imp.recorded);
    let mut s = Settings::default();
    if !s.quanta.contains(&16.0) {
        s.quanta.push(16.0);
        s.quanta.sort_unstable_by(f64::total_cmp);
    }
    let answer = Answer::new(&tasks, &s, Source::Trace, MAX_CHUNKS)
        .and_then(|a| a.with_interactions(&tasks, &imp.interactions, &imp.handler, MAX_CHUNKS))
        .unwrap();
    AnswerCharts::new(&answer, 16.0)
}

/// A long task among short ones on the main thread: the trade-off chart of
/// the issue's pass (a recorded p98 of about 180 ms, the knee next to the
/// favoured row).
fn long_task_charts() -> AnswerCharts {
    let mut start = Vec::new();
    let mut len = Vec::new();
    let mut t = 0.0;
    for (i, d) in [275.0, 12.0, 80.0, 3.0, 51.0, 49.0, 140.0, 7.0]
        .into_iter()
        .enumerate()
    {
        start.push(t);
        len.push(d);
        t += d + 20.0 + 13.0 * i as f64;
    }
    let tasks = Task::from_columns(&start, &len);
    let answer = Answer::new(&tasks, &Settings::default(), Source::Trace, MAX_CHUNKS).unwrap();
    AnswerCharts::new(&answer, 16.0)
}

fn options(lang: Lang, width: f64) -> Options {
    Options {
        lang,
        width,
        ..Options::default()
    }
}

#[test]
fn a_traces_answer_has_no_overlapping_labels() {
    let mut failures = Vec::new();
    for (name, charts) in [
        ("click trace", answer_charts()),
        ("long task", long_task_charts()),
    ] {
        for lang in Lang::ALL {
            for width in WIDTHS {
                let svg = figure::answer(&charts, None, &options(lang, width));
                for o in overlaps(&svg) {
                    failures.push(format!("{name}, {lang:?}, {width} px: {o}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_studys_figure_has_no_overlapping_labels() {
    let exp = Experiment::default();
    let outcome = exp.run(&Limits::CLI, true).unwrap();
    let study = Study {
        exp: &exp,
        outcome: &outcome,
        recorded: None,
        generated: true,
    };
    let mut failures = Vec::new();
    for lang in Lang::ALL {
        for width in WIDTHS {
            let svg = figure::study(&study, &options(lang, width));
            for o in overlaps(&svg) {
                failures.push(format!("{lang:?}, {width} px: {o}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A phone's figure keeps a phone's width: a table too wide for it turns
/// on its side rather than widen the figure (or run off its edge); the
/// answer's, on its side, needs up to 390 px.
#[test]
fn a_phones_figure_keeps_its_width() {
    let width_of = |svg: &str| -> f64 {
        let doc = Document::parse(svg).unwrap();
        doc.root_element()
            .attribute("width")
            .unwrap()
            .parse()
            .unwrap()
    };
    let exp = Experiment::default();
    let outcome = exp.run(&Limits::CLI, true).unwrap();
    let study = Study {
        exp: &exp,
        outcome: &outcome,
        recorded: None,
        generated: true,
    };
    for lang in Lang::ALL {
        for width in [360.0, 390.0] {
            // The answer's table on its side needs up to 390 px (English):
            // at 360 the figure widens that far and no further.
            let answer = figure::answer(&answer_charts(), None, &options(lang, width));
            let w = width_of(&answer);
            assert!(
                w >= width && w <= 390.0,
                "{lang:?}: the answer at {width} px is {w} px wide"
            );
            let svg = figure::study(&study, &options(lang, width));
            assert_eq!(width_of(&svg), width, "{lang:?}: the study at {width} px");
            let right = boxes(&svg).iter().map(|b| b.b[2]).fold(0.0, f64::max);
            assert!(
                right <= width,
                "{lang:?}: a text ends at {right} px of {width}"
            );
        }
    }
}

/// The check itself: two labels drawn on one spot are found.
#[test]
fn overlapping_labels_are_found() {
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"50\">\
        <text x=\"10\" y=\"20\" font-size=\"12\">推荐</text>\
        <text x=\"60\" y=\"24\" font-size=\"11\" text-anchor=\"end\">目标：p98 ≤ 50</text>\
        <text x=\"150\" y=\"40\" font-size=\"11\">p50</text></svg>";
    let found = overlaps(svg);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("推荐"), "{found:?}");
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"50\">\
        <text x=\"10\" y=\"20\" font-size=\"12\">knee</text>\
        <circle cx=\"20\" cy=\"22\" r=\"4\"/>\
        <text x=\"100\" y=\"40\" font-size=\"11\">recorded: p98 180.7 ms</text>\
        <polyline points=\"90,20 200,40\"/></svg>";
    let found = overlaps(svg);
    assert_eq!(found.len(), 2, "{found:?}");
}
