//! `tailslice responsiveness`: should these tasks be sliced, at what
//! quantum, and what would it cost? The input delay an interaction meets,
//! Total Blocking Time and how much later tasks finish — recorded, and if
//! every task yielded every q ms — for a trace's main thread
//! (`--trace-in`), a task list (`--tasks-file`) or the study's workloads
//! (`--seed`, `--tasks`, `--mix`, `--arrivals`); `tailslice::responsiveness`
//! does the work. `--svg FILE` writes the page's figure of the answer
//! (`tailslice::chart::figure::answer`).

use std::ffi::OsString;
use std::fmt::Write;

use tailslice::chart::answer::AnswerCharts;
use tailslice::chart::figure::{self, Figure};
use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::param_spec::{self, Params};
use tailslice::responsiveness::budget::Budget;
use tailslice::responsiveness::interactions_text as itext;
use tailslice::responsiveness::report::MAX_CHUNKS;
use tailslice::responsiveness::text::{
    self, about, row_name, COLUMNS, FAVOURED_MARK, GROUP_BLOCKING, GROUP_DELAY, GROUP_LATER,
    GROUP_OVER, KNEE_MARK, QUANTUM_HEAD,
};
use tailslice::responsiveness::{Answer, RespParam, Settings, Source, Task};
use tailslice::text::Lang;
use tailslice::trace::TraceArrivals;
use tailslice::workload::Workload;

use super::figure_flags::{self, FigureFlags};
use super::tasks_in::{self, Loaded, TaskSource};
use super::{fail, flag_value, set_experiment_flag, wrap};

const HELP: &str = "\
tailslice responsiveness — should I slice my long tasks, at what quantum, and
what will it cost?

For a main thread's tasks: how long an input would wait (its input delay, the
first part of INP), Total Blocking Time and the long tasks, as recorded and if
every task yielded every q ms, and how much later each task would finish.
Exact, not sampled; inputs arrive uniformly over the tasks' span (or over
the --window), an input waits for the piece that is running and is handled
first.
A trace's real interactions (its EventTiming events) are shown too: INP and
each interaction's input delay, processing and presentation delay, as
recorded and sliced at each quantum.

Tasks (one of; default: the study's 400 tasks, all at t = 0):
  --trace-in FILE     a browser performance trace's main thread (see below)
  --tasks-file PATH   your own tasks: one duration in ms per line, or CSV
                      arrival_ms,duration_ms[,class] (see simulate --help)
  --seed, --tasks, --mix, --rng, --arrivals
                      the study's generated workload (see simulate --help);
                      --arrivals poisson:LOAD or burst:COUNT@PERIOD spreads it

Flags (defaults in brackets):
";

/// The model's flags as `--help` lines, read off their spec rows: help,
/// what the parser accepts and the default.
fn model_help() -> String {
    RespParam::ALL
        .into_iter()
        .map(|p| {
            let allowed = param_spec::allowed(|v| Settings::default().set(p, p.url_key(), v));
            let entry = p.spec().entry(Settings::default().get(p), allowed);
            entry.help_line(22)
        })
        .collect()
}

/// The flags after the model's.
const HELP_TAIL: &str =
    "  --budget LIST       inp=MS,p98=MS,tbt=MS (any of them): exit 1 with one line
                      on stderr per budget the recorded row exceeds, 0 when
                      all hold (a CI gate)
  --json              one JSON object: span_ms, span, tasks, busy_ms, yield,
                      yield_cost_ms, rows[] (quantum_ms null for the recorded
                      row; input_delay_ms, delayed_over, tbt_ms, long_tasks,
                      finish_later_ms, yields, end_ms, inp_ms, obstacles),
                      favoured, knee, reading, transit_ms; with a trace:
                      interactions[] (id, kind, start_ms, latency_ms,
                      input_delay_ms, processing_ms, presentation_ms,
                      model_input_delay_ms, sliced[], handlers_yield[]),
                      rows_without_handlers, inp_if_handlers_yield
  --lang en|zh        language of the table's headings and the reading [en]
                      (errors stay English)
";

/// What `--svg` draws, after the figure flags.
const SVG_HELP: &str = "                      The figure is the page's: the table (recorded, and
                      sliced at 16 ms, or the favoured quantum when 16 is
                      not tried), the input-delay CDF, the trade-off over
                      the quantum and a trace's interactions; its title and
                      description carry p98, TBT and INP, in --lang.
";

/// The experiment flags that describe the study's workload.
const WORKLOAD_FLAGS: [Param; 5] = [
    Param::Seed,
    Param::Tasks,
    Param::Mix,
    Param::Rng,
    Param::Arrivals,
];

pub fn run(args: Vec<OsString>) -> i32 {
    let limits = Limits::CLI;
    let mut exp = Experiment::default();
    let mut given: Vec<Param> = Vec::new();
    let mut source = TaskSource::default();
    let mut settings = Settings::default();
    let mut json = false;
    let mut budget = Budget::default();
    let mut lang = Lang::En;
    let mut figure_flags = FigureFlags::default();
    let mut parser = lexopt::Parser::from_args(args);
    loop {
        let arg = match parser.next() {
            Ok(Some(arg)) => arg,
            Ok(None) => break,
            Err(e) => return fail(&e.to_string()),
        };
        match arg {
            lexopt::Arg::Long("json") => json = true,
            lexopt::Arg::Long("help") | lexopt::Arg::Short('h') => {
                print!(
                    "{HELP}{}{HELP_TAIL}{}{SVG_HELP}{}",
                    model_help(),
                    figure_flags::help(&Figure::ANSWER, 22),
                    tasks_in::trace_help()
                );
                return 0;
            }
            lexopt::Arg::Long(name) if FigureFlags::takes(name) => {
                let name = name.to_string();
                let value = match flag_value(&mut parser, &format!("--{name}")) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if let Err(code) = figure_flags.set(&name, value, &Figure::ANSWER) {
                    return code;
                }
            }
            lexopt::Arg::Long(name) if TaskSource::is_flag(name) => {
                let name = name.to_string();
                let value = match flag_value(&mut parser, &format!("--{name}")) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if let Err(code) = source.set(&name, value) {
                    return code;
                }
            }
            lexopt::Arg::Long("budget") => {
                let value = match flag_value(&mut parser, "--budget") {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                match Budget::parse("--budget", &value) {
                    Ok(b) => budget = b,
                    Err(e) => return fail(&e.to_string()),
                }
            }
            lexopt::Arg::Long("lang") => {
                let value = match flag_value(&mut parser, "--lang") {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                match Lang::parse("--lang", &value) {
                    Ok(l) => lang = l,
                    Err(e) => return fail(&e.to_string()),
                }
            }
            lexopt::Arg::Long(name) => {
                let flag = format!("--{name}");
                if let Some(p) = RespParam::from_flag(&flag) {
                    let value = match flag_value(&mut parser, &flag) {
                        Ok(v) => v,
                        Err(code) => return code,
                    };
                    if let Err(e) = settings.set(p, &flag, &value) {
                        return fail(&e.to_string());
                    }
                    continue;
                }
                match Param::from_flag(&flag) {
                    Some(p) if WORKLOAD_FLAGS.contains(&p) => {}
                    Some(p) => {
                        return fail(&format!(
                            "{} does not apply to responsiveness: it runs no policy (the quanta tried are --quanta)",
                            p.flag()
                        ))
                    }
                    None => {
                        return fail(&format!(
                            "unknown flag {flag} for responsiveness (see tailslice responsiveness --help)"
                        ))
                    }
                }
                let name = name.to_string();
                match set_experiment_flag(&mut exp, &mut parser, &name, "responsiveness", &limits) {
                    Ok(param) => given.push(param),
                    Err(code) => return code,
                }
            }
            other => return fail(&format!("unexpected argument {}", other.unexpected())),
        }
    }
    let figure_options = match figure_flags.options(lang) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut interactions = None;
    source.set_lang(lang);
    let (workload, source_kind, found) = match source.load(&mut exp, &given, &limits) {
        Ok(Loaded::Generated) => {
            if exp.tasks as u64 > limits.max_tasks {
                return fail(&format!(
                    "invalid --tasks '{}': expected at most {} tasks",
                    exp.tasks, limits.max_tasks
                ));
            }
            (
                Workload::generate(&exp.workload_spec()),
                Source::Tasks,
                None,
            )
        }
        Ok(Loaded::List(w)) => (w, Source::Tasks, None),
        Ok(Loaded::Trace(t)) => {
            let kind = if t.found.arrivals == TraceArrivals::T0 {
                Source::Tasks
            } else {
                Source::Trace
            };
            let t = *t;
            interactions = Some((t.interactions, t.handler));
            (t.workload, kind, Some(t.found))
        }
        Err(code) => return code,
    };
    let tasks = Task::from_columns(&workload.arrival, &workload.work);
    let answer = Answer::new(&tasks, &settings, source_kind, MAX_CHUNKS).and_then(|a| {
        match (&interactions, source_kind) {
            (Some((found, handler)), Source::Trace) => {
                a.with_interactions(&tasks, found, handler, MAX_CHUNKS)
            }
            _ => Ok(a),
        }
    });
    let answer = match answer {
        Ok(a) => a,
        Err(e) => return fail(&e.error("--quanta").to_string()),
    };
    if let Some(o) = &figure_options {
        let charts = AnswerCharts::new(&answer, shown_quantum(&answer));
        if o.figure == Figure::Interactions && !charts.has_bars() {
            return fail(
                "invalid --figure 'interactions': these tasks have no interactions (a trace's EventTiming events give them)",
            );
        }
        if let Err(code) = figure_flags.write(&figure::answer(&charts, None, o)) {
            return code;
        }
    }
    let over = budget.check(&answer);
    let code = if over.is_empty() { 0 } else { 1 };
    let report_budget = || {
        for line in &over {
            eprintln!("{}", line.get(lang));
        }
    };
    if json {
        match serde_json::to_string(&answer.json(lang)) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return 1;
            }
        }
        report_budget();
        return code;
    }
    let mut out = String::new();
    if let Some(found) = &found {
        for line in found.lines(lang).iter().take(2) {
            let _ = writeln!(out, "{line}");
        }
        if let Some(m) = &answer.interactions {
            for line in m.recorded.lines(lang) {
                let _ = writeln!(out, "{}", fill_width(&line, lang));
            }
        }
    } else if let Some(path) = source.path() {
        let _ = writeln!(out, "{}", text::FROM_FILE.fill(lang, &[path]));
    } else {
        let line = text::FROM_STUDY.fill(
            lang,
            &[
                &exp.seed.to_string(),
                &exp.tasks.to_string(),
                &exp.mix.to_string(),
                &exp.arrivals.to_string(),
            ],
        );
        let _ = writeln!(out, "{line}");
    }
    for line in about(&answer, lang) {
        let _ = writeln!(out, "{}", fill_width(&line, lang));
    }
    out.push('\n');
    out.push_str(&table(&answer, lang));
    if let Some(other) = &answer.without_handlers {
        let _ = writeln!(out, "{}", fill_width(itext::WITH_ALL.get(lang), lang));
        let _ = writeln!(
            out,
            "\n{}",
            fill_width(itext::WITHOUT_HANDLERS.get(lang), lang)
        );
        out.push_str(&table(other, lang));
    }
    if let Some(m) = answer.interactions.as_ref().filter(|m| !m.is_empty()) {
        out.push('\n');
        out.push_str(&interactions_table(&answer, m, lang));
    }
    out.push('\n');
    for line in answer.reading(lang) {
        let _ = writeln!(out, "{}", fill_width(&line, lang));
    }
    for line in itext::reading(&answer, lang) {
        let _ = writeln!(out, "{}", fill_width(&line, lang));
    }
    let span = text::span_word(&answer.report).get(lang);
    let _ = writeln!(
        out,
        "\n{}",
        fill_width(&text::ASSUMPTIONS.fill(lang, &[span]), lang)
    );
    print!("{out}");
    report_budget();
    code
}

/// The quantum a figure shows beside the recorded row: the page's default
/// (16 ms) when it is among the quanta tried, else the favoured one, else
/// the first.
fn shown_quantum(answer: &Answer) -> f64 {
    let quanta: Vec<f64> = answer
        .report
        .rows
        .iter()
        .filter_map(|r| r.quantum_ms)
        .collect();
    let page = Experiment::default().quantum;
    if quanta.contains(&page) {
        return page;
    }
    answer
        .favoured
        .and_then(|f| answer.report.rows.get(f.row))
        .and_then(|r| r.quantum_ms)
        .or_else(|| quanta.first().copied())
        .unwrap_or(page)
}

/// The interactions as a text table, then INP per row.
fn interactions_table(
    answer: &Answer,
    m: &tailslice::responsiveness::interactions::InteractionModel,
    lang: Lang,
) -> String {
    let quanta: Vec<f64> = answer.report.rows[1..]
        .iter()
        .filter_map(|r| r.quantum_ms)
        .collect();
    let mut head: Vec<String> = itext::HEADS
        .iter()
        .map(|h| h.get(lang).to_string())
        .collect();
    head.extend(
        quanta
            .iter()
            .map(|&q| itext::SLICED_HEAD.fill(lang, &[&tailslice::error::fmt_number(q)])),
    );
    let f = |v: f64| format!("{v:.1}");
    let rows: Vec<Vec<String>> = m
        .recorded
        .list
        .iter()
        .zip(&m.modelled)
        .map(|(i, x)| {
            let mut r = vec![
                i.id.to_string(),
                i.kind.label().get(lang).to_string(),
                f(i.start_ms),
                f(i.latency_ms),
                f(i.input_delay_ms),
                f(i.processing_ms),
                f(i.presentation_ms),
                f(x.model_input_delay_ms),
            ];
            r.extend(x.sliced.iter().map(|s| f(s.latency_ms)));
            r
        })
        .collect();
    let widths: Vec<usize> = (0..head.len())
        .map(|c| {
            rows.iter()
                .map(|r| width(&r[c]))
                .chain([width(&head[c])])
                .max()
                .unwrap_or(1)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut l = String::new();
        for (c, (cell, &w)) in cells.iter().zip(&widths).enumerate() {
            let pad = " ".repeat(w.saturating_sub(width(cell)));
            if c == 1 {
                let _ = write!(l, "  {cell}{pad}");
            } else {
                let _ = write!(l, "{}{pad}{cell}", if c == 0 { "" } else { "  " });
            }
        }
        l.trim_end().to_string()
    };
    let mut s = String::new();
    let _ = writeln!(s, "{}", fill_width(itext::CAPTION.get(lang), lang));
    let _ = writeln!(s, "{}", line(&head));
    for r in &rows {
        let _ = writeln!(s, "{}", line(r));
    }
    let per_row: Vec<String> = answer
        .report
        .rows
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let name = match r.quantum_ms {
                None => itext::RECORDED.get(lang).to_string(),
                Some(q) => itext::SLICED_HEAD.fill(lang, &[&tailslice::error::fmt_number(q)]),
            };
            let v = answer.inp(k).map_or("–".to_string(), f);
            format!("{name} {v}")
        })
        .collect();
    let sep = match lang {
        Lang::En => ", ",
        Lang::Zh => "，",
    };
    let _ = writeln!(
        s,
        "{}",
        fill_width(&itext::INP_ROW.fill(lang, &[&per_row.join(sep)]), lang)
    );
    let handlers: Vec<String> = quanta
        .iter()
        .zip(&m.inp_handlers_yield_ms)
        .map(|(&q, v)| {
            let name = itext::SLICED_HEAD.fill(lang, &[&tailslice::error::fmt_number(q)]);
            format!("{name} {}", v.map_or("–".to_string(), f))
        })
        .collect();
    if !handlers.is_empty() {
        let _ = writeln!(
            s,
            "{}",
            fill_width(
                &itext::INP_HANDLERS_YIELD.fill(lang, &[&handlers.join(sep)]),
                lang
            )
        );
    }
    s
}

/// English wrapped at 78 columns; Chinese (no spaces) left to the terminal.
fn fill_width(text: &str, lang: Lang) -> String {
    match lang {
        Lang::En => wrap(text, 78),
        Lang::Zh => text.to_string(),
    }
}

/// Columns a terminal gives `s`: East Asian wide characters take two.
fn width(s: &str) -> usize {
    s.chars()
        .map(|c| match u32::from(c) {
            0x1100..=0x115F
            | 0x2E80..=0xA4CF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60
            | 0xFFE0..=0xFFE6 => 2,
            _ => 1,
        })
        .sum()
}

/// The rows as a text table, the favoured row and the knee marked.
fn table(answer: &Answer, lang: Lang) -> String {
    let rows = &answer.report.rows;
    let names: Vec<String> = rows
        .iter()
        .map(|r| match r.quantum_ms {
            None => row_name(r, answer.source, lang),
            Some(q) => tailslice::error::fmt_number(q),
        })
        .collect();
    let first = names
        .iter()
        .map(|n| width(n))
        .chain([width(QUANTUM_HEAD.get(lang))])
        .max()
        .unwrap_or(8);
    let widths: Vec<usize> = COLUMNS
        .iter()
        .map(|c| {
            rows.iter()
                .map(|r| c.cell(r).len())
                .chain([width(c.head.get(lang))])
                .max()
                .unwrap_or(4)
        })
        .collect();
    let pad = |s: &str, w: usize| {
        let n = width(s);
        format!("{}{s}", " ".repeat(w.saturating_sub(n)))
    };
    let mut s = String::new();
    // The group headings over their columns: delay 0–5, over 6–8,
    // blocking 9–10, later 11–14.
    let groups = [
        (GROUP_DELAY, 0..6),
        (GROUP_OVER, 6..9),
        (GROUP_BLOCKING, 9..11),
        (GROUP_LATER, 11..15),
    ];
    let mut line = " ".repeat(first);
    for (g, range) in groups {
        let room: usize = widths[range.clone()].iter().map(|w| w + 2).sum();
        let title = g.get(lang);
        let n = width(title);
        let _ = write!(line, "  {title}{}", " ".repeat(room.saturating_sub(n + 2)));
    }
    let _ = writeln!(s, "{}", line.trim_end());
    let q_head = QUANTUM_HEAD.get(lang);
    let mut head = format!("{q_head}{}", " ".repeat(first - width(q_head)));
    for (c, &w) in COLUMNS.iter().zip(&widths) {
        let _ = write!(head, "  {}", pad(c.head.get(lang), w));
    }
    let _ = writeln!(s, "{head}");
    let favoured = answer.favoured.map(|f| f.row);
    let knee = answer.knee.ok().map(|k| k.row);
    for (i, (r, name)) in rows.iter().zip(&names).enumerate() {
        let n = width(name);
        let mut line = format!("{name}{}", " ".repeat(first.saturating_sub(n)));
        for (c, &w) in COLUMNS.iter().zip(&widths) {
            let _ = write!(line, "  {}", pad(&c.cell(r), w));
        }
        let mut marks = Vec::new();
        if favoured == Some(i) {
            marks.push(FAVOURED_MARK.get(lang));
        }
        if knee == Some(i) {
            marks.push(KNEE_MARK.get(lang));
        }
        if !marks.is_empty() {
            let _ = write!(line, "  ← {}", marks.join(", "));
        }
        let _ = writeln!(s, "{line}");
    }
    s
}
