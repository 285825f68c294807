//! Every chart is one function over a plotters backend: drawn to a
//! recorder and to SVG, the same calls come out (the page's canvas gets
//! them too: it is the same function with another backend). And what the
//! recorder sees: legends stay above the data they name, the Gantt's hit
//! test finds the slice drawn under the pointer.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use tailslice::chart::frame::Plot;
use tailslice::chart::lanes::{self, Chart, Index, Window};
use tailslice::chart::pen::Pen;
use tailslice::chart::svg::Svg;
use tailslice::chart::theme::{self, Palette, Theme};
use tailslice::chart::{cdf, gantt, histogram, sweep};
use tailslice::experiment::{Experiment, Limits};
use tailslice::policy::PolicyKind;
use tailslice::text::Lang;

/// One drawing call.
#[derive(Clone, Debug, PartialEq)]
enum Op {
    Fill {
        a: BackendCoord,
        b: BackendCoord,
        rgb: (u8, u8, u8),
    },
    Outline,
    Line,
    Path(Vec<BackendCoord>),
    Circle,
    Polygon,
    Text {
        text: String,
        at: BackendCoord,
    },
    Bitmap,
}

#[derive(Debug)]
struct Never;
impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}
impl std::error::Error for Never {}

/// A backend that writes down every call.
struct Recorder {
    size: (u32, u32),
    ops: Vec<Op>,
}

type R = Result<(), DrawingErrorKind<Never>>;

impl DrawingBackend for Recorder {
    type ErrorType = Never;
    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> R {
        Ok(())
    }
    fn present(&mut self) -> R {
        Ok(())
    }
    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> R {
        self.ops.push(Op::Fill {
            a: p,
            b: p,
            rgb: c.rgb,
        });
        Ok(())
    }
    fn draw_line<S: BackendStyle>(&mut self, _: BackendCoord, _: BackendCoord, _: &S) -> R {
        self.ops.push(Op::Line);
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
        fill: bool,
    ) -> R {
        self.ops.push(if fill {
            Op::Fill {
                a,
                b,
                rgb: s.color().rgb,
            }
        } else {
            Op::Outline
        });
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        _: &S,
    ) -> R {
        self.ops.push(Op::Path(path.into_iter().collect()));
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(&mut self, _: BackendCoord, _: u32, _: &S, _: bool) -> R {
        self.ops.push(Op::Circle);
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        _: &S,
    ) -> R {
        self.ops.push(Op::Polygon);
        Ok(())
    }
    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, _: &T, at: BackendCoord) -> R {
        self.ops.push(Op::Text {
            text: text.to_string(),
            at,
        });
        Ok(())
    }
    fn blit_bitmap(&mut self, _: BackendCoord, _: (u32, u32), _: &[u8]) -> R {
        self.ops.push(Op::Bitmap);
        Ok(())
    }
}

fn study() -> (Experiment, tailslice::experiment::RunOutcome) {
    let exp = Experiment::default();
    let outcome = exp.run(&Limits::CLI, true).unwrap();
    (exp, outcome)
}

/// Draws `$body` (with `$pen` the pen) on a recorder and on SVG, both
/// `$w`×`$h`: the recorder's calls and the SVG text.
macro_rules! both {
    ($w:expr, $h:expr, |$pen:ident| $body:block) => {{
        let theme = Palette::new(Theme::Light);
        let mut rec = Recorder {
            size: ($w, $h),
            ops: Vec::new(),
        };
        {
            let $pen = &mut Pen::new(&mut rec, 1.0, theme, Lang::En);
            $body
        }
        let mut svg = Svg::new($w, $h, None);
        {
            let $pen = &mut Pen::new(&mut svg, 1.0, theme, Lang::En);
            $body
        }
        (rec.ops, svg.finish("t", &[]))
    }};
}

/// Counts an SVG's elements the way the recorder counts calls: filled
/// rectangles (one `z` each in the fill paths), lines (one `L` each in the
/// stroke paths), polylines, circles, texts.
fn svg_counts(svg: &str) -> [usize; 5] {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let mut c = [0; 5];
    for n in doc.descendants() {
        match n.tag_name().name() {
            "path" if n.attribute("stroke").is_some() => {
                c[1] += n.attribute("d").unwrap().matches('L').count()
            }
            "path" => c[0] += n.attribute("d").unwrap().matches('z').count(),
            "rect" => c[0] += 1,
            "polyline" => c[2] += 1,
            "circle" => c[3] += 1,
            "text" => c[4] += 1,
            _ => {}
        }
    }
    c
}

fn op_counts(ops: &[Op]) -> [usize; 5] {
    let mut c = [0; 5];
    for o in ops {
        match o {
            Op::Fill { .. } | Op::Outline => c[0] += 1,
            Op::Line => c[1] += 1,
            Op::Path(_) => c[2] += 1,
            Op::Circle => c[3] += 1,
            Op::Text { .. } => c[4] += 1,
            Op::Polygon | Op::Bitmap => {}
        }
    }
    c
}

#[test]
fn canvas_and_svg_come_from_the_same_function() {
    let (exp, outcome) = study();
    let (ops, svg) = both!(600, 300, |pen| {
        cdf::draw_study(pen, (600.0, 300.0), &outcome).unwrap();
    });
    assert_eq!(op_counts(&ops), svg_counts(&svg), "CDF");
    assert!(op_counts(&ops)[2] >= 2, "a line per policy");

    let w = &outcome.workload;
    let bins = histogram::bins(&w.work, &w.class, w.class_labels.len());
    let names = vec!["1-8 ms".to_string(), "10-40 ms".into(), "80-200 ms".into()];
    let (ops, svg) = both!(600, 300, |pen| {
        histogram::draw(pen, (600.0, 300.0), &bins, &names).unwrap();
    });
    assert_eq!(op_counts(&ops), svg_counts(&svg), "histogram");

    let l = gantt::study(&exp, &outcome, true, true);
    let index = Index::build(&l);
    let layout = lanes::layout(&l.meta, 900.0, Lang::En);
    let (ops, svg) = both!(900, layout.height as u32, |pen| {
        let chart = Chart {
            lanes: &l,
            index: &index,
            window: Window::new(l.meta.horizon),
            ready: true,
            highlight: None,
        };
        lanes::draw(pen, &chart, &layout).unwrap();
    });
    assert_eq!(op_counts(&ops), svg_counts(&svg), "Gantt");
    assert!(op_counts(&ops)[0] > 100, "slices drawn");
}

/// Text ops drawn above `plot.top` and fills of `colors` that are not
/// inside the plot.
fn legend_above(ops: &[Op], plot: &Plot, labels: &[String], colors: &[(u8, u8, u8)]) {
    for o in ops {
        match o {
            Op::Text { text, at }
                if labels.iter().any(|l| {
                    l == text || (text.ends_with('…') && l.starts_with(text.trim_end_matches('…')))
                }) =>
            {
                assert!(
                    (at.1 as f64) < plot.top,
                    "{text} at {at:?}, plot from {}",
                    plot.top
                );
            }
            Op::Fill { a, b, rgb } if colors.contains(rgb) => {
                let inside = a.1 as f64 >= plot.top - 1.0 && b.1 as f64 <= plot.bottom + 1.0;
                let above = (b.1 as f64) < plot.top;
                assert!(
                    inside || above,
                    "{rgb:?} {a:?}–{b:?} across the plot's top {}",
                    plot.top
                );
            }
            _ => {}
        }
    }
}

/// The histogram's legend (ten named classes, one very long) and the
/// quantum sweep's take rows of their own above the plot, at any width.
#[test]
fn legends_never_cover_the_data() {
    let names: Vec<String> = [
        "EventDispatch",
        "TaskQueueManager::ProcessTaskFromWorkQueue",
        "ParseHTML",
        "Layout",
        "Paint",
        "FunctionCall",
        "TimerFire",
        "GC",
        "XHRLoad",
        "Animation",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let work: Vec<f64> = (0..400).map(|i| 1.0 + (i % 37) as f64).collect();
    let class: Vec<u16> = (0..400).map(|i| (i % 10) as u16).collect();
    let bins = histogram::bins(&work, &class, 10);
    let colors: Vec<(u8, u8, u8)> = (0..10)
        .map(|i| {
            let c = theme::class(i);
            (c.0, c.1, c.2)
        })
        .collect();
    for width in [300u32, 420, 640, 900, 1400] {
        let mut rec = Recorder {
            size: (width, 300),
            ops: Vec::new(),
        };
        let mut pen = Pen::new(&mut rec, 1.0, Palette::new(Theme::Light), Lang::En);
        let plot = histogram::draw(&mut pen, (width as f64, 300.0), &bins, &names).unwrap();
        legend_above(&rec.ops, &plot, &names, &colors);
        // The ten colours differ.
        let used: std::collections::BTreeSet<(u8, u8, u8)> = rec
            .ops
            .iter()
            .filter_map(|o| match o {
                Op::Fill { rgb, .. } if colors.contains(rgb) => Some(*rgb),
                _ => None,
            })
            .collect();
        assert_eq!(used.len(), 10, "width {width}");
    }

    let q = sweep::QuantumChart {
        quanta: vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0],
        policies: vec!["fifo".into(), "rr".into(), "mlfq".into(), "srpt".into()],
        values: (0..4)
            .map(|k| {
                (0..9)
                    .map(|i| 100.0 + 50.0 * k as f64 + 30.0 * i as f64)
                    .collect()
            })
            .collect(),
        best: vec![None, Some(20.0), Some(50.0), None],
        quantum: 16.0,
        x_desc: "quantum (ms, log scale)".into(),
        y_desc: "p95 latency (ms)".into(),
    };
    let labels: Vec<String> = q.policies.iter().map(|p| p.to_ascii_uppercase()).collect();
    for width in [320u32, 640, 1000] {
        let mut rec = Recorder {
            size: (width, 280),
            ops: Vec::new(),
        };
        let mut pen = Pen::new(&mut rec, 1.0, Palette::new(Theme::Light), Lang::En);
        let plot = sweep::draw_quanta(&mut pen, (width as f64, 280.0), &q).unwrap();
        legend_above(&rec.ops, &plot, &labels, &[]);
        // Every curve stays inside the plot, below the legend.
        for o in &rec.ops {
            if let Op::Path(points) = o {
                if points.len() > 2 {
                    assert!(
                        points.iter().all(|p| p.1 as f64 >= plot.top - 1.0),
                        "width {width}"
                    );
                }
            }
        }
    }
}

/// The pointer over FIFO's first slice finds task 0, the tooltip says so;
/// over the axis or the gap between blocks, nothing.
#[test]
fn the_gantt_hit_test_finds_the_drawn_slice() {
    let (exp, outcome) = study();
    let l = gantt::study(&exp, &outcome, true, true);
    let index = Index::build(&l);
    let layout = lanes::layout(&l.meta, 800.0, Lang::En);
    let mut chart = Chart {
        lanes: &l,
        index: &index,
        window: Window::new(l.meta.horizon),
        ready: true,
        highlight: None,
    };
    let hit = chart.hit(&layout, 9.0, 26.0).unwrap();
    assert_eq!((hit.block, hit.lane), (0, 0));
    assert_eq!(l.segs.item[hit.seg], 0);
    assert!(chart.hit(&layout, 9.0, layout.axis_y + 5.0).is_none());
    assert!(
        chart
            .hit(&layout, 400.0, layout.blocks[1].0 + 2.0)
            .is_none(),
        "a title row"
    );
    // RR's block: the second policy.
    let rr = chart.hit(&layout, 9.0, layout.blocks[1].1 + 5.0).unwrap();
    assert_eq!(rr.block, 1);
    // Zoomed in 100× at the start, a pointer 10 % across finds a slice
    // that overlaps that time.
    let mut w = chart.window;
    w.zoom(&layout, 100.0, layout.left);
    chart.window = w;
    let x = layout.left + 0.1 * (layout.right - layout.left);
    let t = chart.window.time_at(&layout, x);
    let h = chart.hit(&layout, x, 26.0).unwrap();
    let tol = 2.0 / (layout.right - layout.left) * (chart.window.t1 - chart.window.t0);
    assert!(l.segs.start[h.seg] <= t + tol && l.segs.end[h.seg] >= t - tol);
    let facts = gantt::TaskFacts {
        task: 0,
        class: "1-8 ms",
        long: false,
        work: 1.0,
        arrival: 0.0,
        first_start: 0.0,
        completion: 1.0,
        slices: 1,
        policy: "fifo",
        core: "0".into(),
        start: 0.0,
        end: 1.0,
    };
    let tip = gantt::task_tip(Lang::En, &facts);
    assert!(tip.starts_with("task #0 · class 1-8 ms"), "{tip}");
    assert!(tip.contains("FIFO core 0: this slice 0.0–1.0 ms"), "{tip}");
    assert!(gantt::task_tip(Lang::Zh, &facts).starts_with("任务 #0"));
}

/// A drawing in parts equals the drawing in one go (the page draws large
/// Gantts a part per task).
#[test]
fn a_gantt_drawn_in_parts_is_the_whole() {
    let exp = Experiment {
        cores: 8,
        tasks: 2000,
        ..Experiment::default()
    };
    let outcome = exp.run(&Limits::CLI, true).unwrap();
    let l = gantt::study(&exp, &outcome, true, true);
    let index = Index::build(&l);
    let layout = lanes::layout(&l.meta, 1000.0, Lang::En);
    let chart = Chart {
        lanes: &l,
        index: &index,
        window: Window::new(l.meta.horizon),
        ready: true,
        highlight: None,
    };
    let draw = |budget: u32| {
        let mut rec = Recorder {
            size: (1000, layout.height as u32),
            ops: Vec::new(),
        };
        let mut pen = Pen::new(&mut rec, 1.0, Palette::new(Theme::Light), Lang::En);
        let mut from = 0;
        let mut parts = 0;
        loop {
            parts += 1;
            match lanes::draw_part(&mut pen, &chart, &layout, from, budget).unwrap() {
                n if n < 0 => break,
                n => from = n as u32,
            }
        }
        (rec.ops, parts)
    };
    let (whole, one) = draw(u32::MAX);
    let (parts, many) = draw(200);
    assert_eq!(one, 1);
    assert!(many > 4, "{many} parts");
    assert_eq!(whole, parts);
}

/// A block drawn again over a chart of the same frame (the page after a
/// quantum edit) makes exactly the calls the whole drawing makes inside
/// that block's band, and none outside it; no stale block, no call.
#[test]
fn a_block_drawn_again_is_drawn_as_in_the_whole_chart() {
    let exp = Experiment {
        cores: 2,
        tasks: 300,
        policies: vec![PolicyKind::Fifo, PolicyKind::Rr],
        ..Experiment::default()
    };
    let outcome = exp.run(&Limits::CLI, true).unwrap();
    let l = gantt::study(&exp, &outcome, true, true);
    let index = Index::build(&l);
    let layout = lanes::layout(&l.meta, 900.0, Lang::En);
    let chart = Chart {
        lanes: &l,
        index: &index,
        window: Window::new(l.meta.horizon),
        ready: true,
        highlight: None,
    };
    let record = |stale: Option<&[bool]>| {
        let mut rec = Recorder {
            size: (900, layout.height as u32),
            ops: Vec::new(),
        };
        let mut pen = Pen::new(&mut rec, 1.0, Palette::new(Theme::Light), Lang::En);
        let next = match stale {
            None => lanes::draw_part(&mut pen, &chart, &layout, 0, u32::MAX),
            Some(st) => lanes::redraw_blocks(&mut pen, &chart, &layout, st, 0, u32::MAX),
        };
        assert_eq!(next.unwrap(), -1);
        rec.ops
    };
    assert!(record(Some(&[false, false])).is_empty());
    let (top, lanes_top) = layout.blocks[1];
    let bottom = lanes_top + layout.lane_h * l.meta.blocks[1].lanes.len() as f64;
    // Fills and texts by where they fall: inside block 1's band or not.
    let inside = |op: &Op| match op {
        Op::Fill { a, b, .. } => f64::from(a.1) >= top.floor() && f64::from(b.1) <= bottom.ceil(),
        Op::Text { at, .. } => f64::from(at.1) >= top && f64::from(at.1) < lanes_top,
        _ => false,
    };
    let again = record(Some(&[false, true]));
    assert!(again.len() > 10, "{} calls", again.len());
    assert!(again.iter().all(inside), "a call outside the block's band");
    let whole: Vec<Op> = record(None).into_iter().filter(inside).collect();
    // The whole drawing's time grid is one line per tick over every block;
    // drawn again, each tick is the block's title row only: compare the rest.
    let rest = |ops: &[Op]| -> Vec<Op> {
        ops.iter()
            .filter(|op| !matches!(op, Op::Fill { a, b, .. } if b.0 - a.0 <= 1 && b.1 - a.1 > 1))
            .cloned()
            .collect()
    };
    assert_eq!(rest(&again), rest(&whole));
}

/// The Responsiveness section's charts: the input-delay CDF and the
/// trade-off over q come out the same on both backends, their legends sit
/// above the plot, every curve inside it, and the trade-off's right axis
/// (the cost) has its labels right of the plot.
#[test]
fn the_responsiveness_charts_draw_alike_and_keep_their_legends_apart() {
    use tailslice::chart::delay::{self, Curve};
    use tailslice::chart::tradeoff::{self, Tradeoff};
    let recorded: Vec<(f64, f64)> = (0..40).map(|i| (i as f64 * 5.0, i as f64 / 40.0)).collect();
    let sliced: Vec<(f64, f64)> = (0..40).map(|i| (i as f64, i as f64 / 40.0)).collect();
    let curves = [
        Curve {
            name: "as recorded",
            points: &recorded,
            recorded: true,
        },
        Curve {
            name: "sliced, q = 16 ms",
            points: &sliced,
            recorded: false,
        },
    ];
    let t = Tradeoff {
        quanta: vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 48.0],
        p98: vec![3.0, 4.0, 6.0, 10.0, 19.0, 36.0, 52.0],
        cost: vec![2.5, 1.4, 0.8, 0.4, 0.2, 0.1, 0.05],
        recorded_p98: 180.0,
        target_ms: 50.0,
        knee: Some(3),
        favoured: Some(4),
        page_q: 16.0,
        x_label: "quantum q (ms)".into(),
        p98_label: "p98 input delay (ms)".into(),
        cost_label: "finish later (ms)".into(),
        recorded_label: "as recorded: 180.0 ms".into(),
        target_label: "target 50 ms".into(),
        knee_label: "knee".into(),
        favoured_label: "favoured".into(),
    };
    let (ops, svg) = both!(600, 280, |pen| {
        delay::draw(pen, (600.0, 280.0), &curves, "input delay (ms)", "share").unwrap();
    });
    assert_eq!(op_counts(&ops), svg_counts(&svg), "delay CDF");
    let (ops, svg) = both!(600, 280, |pen| {
        tradeoff::draw(pen, (600.0, 280.0), &t).unwrap();
    });
    assert_eq!(op_counts(&ops), svg_counts(&svg), "trade-off");
    {
        use tailslice::chart::interactions::{draw_tasks, TaskBox};
        let tasks = [
            TaskBox {
                start: 0.0,
                len: 80.0,
                handler: false,
            },
            TaskBox {
                start: 100.0,
                len: 120.0,
                handler: true,
            },
            TaskBox {
                start: 250.0,
                len: 30.0,
                handler: false,
            },
        ];
        let words = ["main thread", "task", "an interaction's own handler"];
        let (ops, svg) = both!(600, 150, |pen| {
            let (_, n) =
                draw_tasks(pen, (600.0, 150.0), &tasks, words, (0.0, 300.0), "ms").unwrap();
            assert_eq!(n, 1);
        });
        assert_eq!(op_counts(&ops), svg_counts(&svg), "tasks' Gantt");
        let mut rec = Recorder {
            size: (600, 150),
            ops: Vec::new(),
        };
        let mut pen = Pen::new(&mut rec, 1.0, Palette::new(Theme::Light), Lang::En);
        let (plot, _) =
            draw_tasks(&mut pen, (600.0, 150.0), &tasks, words, (0.0, 300.0), "ms").unwrap();
        legend_above(
            &rec.ops,
            &plot,
            &[words[1].to_string(), words[2].to_string()],
            &[],
        );
    }
    assert_eq!(
        op_counts(&ops)[3],
        2 * 7 + 2,
        "a dot per row on each curve, two rings"
    );

    for width in [320u32, 640, 1000] {
        let mut rec = Recorder {
            size: (width, 280),
            ops: Vec::new(),
        };
        let mut pen = Pen::new(&mut rec, 1.0, Palette::new(Theme::Light), Lang::En);
        let plot = delay::draw(&mut pen, (width as f64, 280.0), &curves, "x", "y").unwrap();
        let names: Vec<String> = curves.iter().map(|c| c.name.to_string()).collect();
        legend_above(&rec.ops, &plot, &names, &[]);
        for o in &rec.ops {
            if let Op::Path(points) = o {
                if points.len() > 2 {
                    assert!(
                        points.iter().all(|p| p.1 as f64 >= plot.top - 1.0),
                        "width {width}"
                    );
                }
            }
        }

        let mut rec = Recorder {
            size: (width, 280),
            ops: Vec::new(),
        };
        let mut pen = Pen::new(&mut rec, 1.0, Palette::new(Theme::Light), Lang::En);
        let plot = tradeoff::draw(&mut pen, (width as f64, 280.0), &t).unwrap();
        // The axes' titles repeat the legend's words beside the plot.
        let between: Vec<Op> = rec
            .ops
            .iter()
            .filter(|o| {
                !matches!(o, Op::Text { at, .. }
                    if (at.1 as f64) >= plot.top
                        && ((at.0 as f64) < plot.left || (at.0 as f64) > plot.right))
            })
            .cloned()
            .collect();
        legend_above(
            &between,
            &plot,
            &[t.p98_label.clone(), t.cost_label.clone()],
            &[],
        );
        for o in &rec.ops {
            if let Op::Path(points) = o {
                assert!(
                    points.iter().all(|p| {
                        (p.0 as f64) >= plot.left - 1.0
                            && (p.0 as f64) <= plot.right + 1.0
                            && (p.1 as f64) >= plot.top - 1.0
                            && (p.1 as f64) <= plot.bottom + 1.0
                    }),
                    "width {width}: {points:?}"
                );
            }
        }
        // The cost axis's labels: right of the plot, inside the chart.
        let right_labels = rec
            .ops
            .iter()
            .filter(|o| matches!(o, Op::Text { at, .. } if (at.0 as f64) > plot.right))
            .count();
        assert!(right_labels >= 3, "width {width}: {right_labels} labels");
        assert!(plot.right < width as f64 - 30.0, "width {width}");
    }
}
