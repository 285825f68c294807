//! `tailslice simulate`: run one experiment and print the table (or JSON),
//! optionally on your own tasks (`--tasks-file`) and writing a Chrome trace
//! (`--trace`), a per-task CSV (`--csv`) or an SVG figure (`--svg`, see
//! `figure_flags.rs`), or on a browser performance trace's main-thread
//! tasks (`--trace-in`; both read by `tasks_in.rs`).

use std::ffi::OsString;

use tailslice::catalog::BROWSER_LIMITS;
use tailslice::chart::figure::{self, Figure};
use tailslice::experiment::export::{self, MAX_TRACE_SLICES};
use tailslice::experiment::reading::{explain, policy_title};
use tailslice::experiment::recorded;
use tailslice::experiment::summary::Summary;
use tailslice::experiment::{Experiment, Limits, Param, RunOutcome};
use tailslice::param_spec::{self, Params};
use tailslice::policy::PolicyKind;
use tailslice::stats::change_pct;
use tailslice::text::Lang;
use tailslice::trace::{Found, TraceArrivals};
use tailslice::workload::{Arrivals, Workload};

use super::figure_flags::{self, FigureFlags};
use super::tasks_in::{self, Loaded, TaskSource};
use super::{fail, flag_value, set_experiment_flag, wrap, EXIT_USAGE};

const HELP: &str = "\
tailslice simulate — compare scheduling policies on one workload

With no flags: the 400-task study (seed 42, 16 ms round-robin against FIFO).

Flags (defaults in brackets):
";

/// The flags after the experiment's parameters.
const JSON_HELP: &str = "  --json              print one JSON object instead of the table
";

/// The `--trace` help line, its limit read off the exporter's.
fn trace_out_help() -> String {
    param_spec::help_block(
        "  --trace PATH",
        &format!("also write a Chrome Trace Event file (Perfetto, chrome://tracing): one process per policy, one thread per core; at most {MAX_TRACE_SLICES} slices"),
        22,
    )
}

/// The flags after `--trace`.
const HELP_TAIL: &str = "  --csv PATH          also write one CSV row per task and policy
  --explain           add an \"explanation\" text to the JSON (the table always has it)
  --lang en|zh        language of the explanation and of what is wrong with a
                      --trace-in file [en] (other errors stay English)
";

/// The experiment's parameters as `--help` lines, read off their spec
/// rows: help, what the parser accepts and the default.
fn param_lines() -> String {
    Param::ALL
        .into_iter()
        .map(|p| {
            let limits = &Limits::CLI;
            let allowed =
                param_spec::allowed(|v| Experiment::default().set(p, p.flag(), v, limits));
            let entry = p.spec().entry(Experiment::default().get(p), allowed);
            entry.help_line(22)
        })
        .collect()
}

/// Writes an output file, or reports why not (exit code 1: not bad input).
fn write_file(flag: &str, path: &str, text: &str) -> Result<(), i32> {
    std::fs::write(path, text).map_err(|e| {
        eprintln!("error: cannot write {flag} '{path}': {e}");
        1
    })
}

pub fn run(args: Vec<OsString>) -> i32 {
    let mut exp = Experiment::default();
    let mut json = false;
    let mut with_explanation = false;
    let mut lang = Lang::En;
    let mut source = TaskSource::default();
    let mut trace: Option<String> = None;
    let mut csv: Option<String> = None;
    let mut figure_flags = FigureFlags::default();
    let mut given: Vec<Param> = Vec::new();
    let mut parser = lexopt::Parser::from_args(args);
    loop {
        let arg = match parser.next() {
            Ok(Some(arg)) => arg,
            Ok(None) => break,
            Err(e) => return fail(&e.to_string()),
        };
        match arg {
            lexopt::Arg::Long("json") => json = true,
            lexopt::Arg::Long("explain") => with_explanation = true,
            lexopt::Arg::Long("help") | lexopt::Arg::Short('h') => {
                print!(
                    "{HELP}{}{JSON_HELP}{}{}{HELP_TAIL}{}{}",
                    param_lines(),
                    tasks_in::tasks_file_help(),
                    trace_out_help(),
                    figure_flags::help(&Figure::STUDY, 22),
                    tasks_in::trace_help()
                );
                return 0;
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
            lexopt::Arg::Long(name) if FigureFlags::takes(name) => {
                let name = name.to_string();
                let value = match flag_value(&mut parser, &format!("--{name}")) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if let Err(code) = figure_flags.set(&name, value, &Figure::STUDY) {
                    return code;
                }
            }
            lexopt::Arg::Long(name @ ("trace" | "csv" | "lang")) => {
                let name = name.to_string();
                let flag = format!("--{name}");
                let value = match flag_value(&mut parser, &flag) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if value.trim().is_empty() {
                    return fail(&format!("invalid {flag} '': expected a file path"));
                }
                match name.as_str() {
                    "trace" => trace = Some(value),
                    "csv" => csv = Some(value),
                    _ => match Lang::parse(&flag, &value) {
                        Ok(l) => lang = l,
                        Err(e) => return fail(&e.to_string()),
                    },
                }
            }
            lexopt::Arg::Long(name) => {
                let name = name.to_string();
                match set_experiment_flag(&mut exp, &mut parser, &name, "simulate", &Limits::CLI) {
                    Ok(param) => given.push(param),
                    Err(code) => return code,
                }
            }
            other => return fail(&format!("unexpected argument {}", other.unexpected())),
        }
    }
    let limits = Limits::CLI;
    let figure_options = match figure_flags.options(lang) {
        Ok(o) => o,
        Err(code) => return code,
    };
    source.set_lang(lang);
    let loaded = match source.load(&mut exp, &given, &limits) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut baseline: Option<(Summary, Found)> = None;
    let imported = match loaded {
        Loaded::Trace(t) => {
            let rec = recorded::summary(&t.recorded_start, &t.recorded, exp.within);
            baseline = Some((rec, t.found));
            Some(t.workload)
        }
        Loaded::List(w) => Some(w),
        Loaded::Generated => None,
    };
    let size = match &imported {
        Some(w) => exp.check_imported_size(w, &limits),
        None => exp.check_size(&limits),
    };
    if let Err(e) = size {
        return fail(&e.renamed("--quantum").to_string());
    }
    if let Some(path) = &trace {
        let est = match &imported {
            Some(w) => exp.slices_on(w),
            None => exp.estimated_slices(),
        };
        if est > MAX_TRACE_SLICES as f64 {
            return fail(&format!(
                "invalid --trace '{}': expected a run of at most {MAX_TRACE_SLICES} slices for a trace file; this one needs about {est:.0} (use fewer tasks or a larger quantum)",
                tailslice::error::shown(path)
            ));
        }
    }
    let generated = imported.is_none();
    if json
        && !with_explanation
        && trace.is_none()
        && csv.is_none()
        && figure_options.is_none()
        && baseline.is_none()
    {
        // Only the figures are printed: compute them without keeping the
        // per-task records the table, explanation and exports need.
        return print_report(&exp, imported, &limits);
    }
    // A figure's Gantt chart draws the segments while they stay as few as
    // the page would draw (the chart then says the run is too large).
    let record = trace.is_some()
        || figure_options.is_some() && {
            let est = match &imported {
                Some(w) => exp.slices_on(w),
                None => exp.estimated_slices(),
            };
            est <= BROWSER_LIMITS.gantt_max_slices
        };
    let result = match imported {
        Some(w) => exp.run_on(w, &limits, record),
        None => exp.run(&limits, record),
    };
    let outcome = match result {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    if let Some(path) = &trace {
        let text = match export::chrome_trace(&exp, &outcome, None) {
            Ok(t) => t,
            Err(e) => return fail(&format!("invalid --trace '{path}': {e}")),
        };
        if let Err(code) = write_file("--trace", path, &text) {
            return code;
        }
    }
    if let Some(path) = &csv {
        let text = export::tasks_csv(&outcome, None).expect("all policies exist");
        if let Err(code) = write_file("--csv", path, &text) {
            return code;
        }
    }
    let recorded_row = baseline.as_ref();
    if let Some(options) = &figure_options {
        let svg = figure::study(
            &figure::Study {
                exp: &exp,
                outcome: &outcome,
                recorded: recorded_row.map(|(s, _)| s),
                generated,
            },
            options,
        );
        if let Err(code) = figure_flags.write(&svg) {
            return code;
        }
    }
    if json {
        // Without --explain, the report is written as is (field order kept).
        let text = if let Some((rec, found)) = &recorded_row {
            // A trace run: the "recorded" baseline first, then what was
            // found (appended as text, so the report keeps its field order).
            serde_json::to_string(&recorded::report(&outcome, rec)).and_then(|r| {
                let mut extra = format!(",\"trace\":{}", serde_json::to_string(found)?);
                if with_explanation {
                    let text = explain(&exp, &outcome, lang);
                    extra += &format!(",\"explanation\":{}", serde_json::to_string(&text)?);
                }
                Ok(format!("{}{extra}}}", r.strip_suffix('}').unwrap_or(&r)))
            })
        } else if with_explanation {
            serde_json::to_value(outcome.report()).map(|mut v| {
                v["explanation"] = explain(&exp, &outcome, lang).into();
                v.to_string()
            })
        } else {
            serde_json::to_string(&outcome.report())
        };
        match text {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return 1;
            }
        }
    } else {
        if let Some((_, found)) = &recorded_row {
            for line in found.lines(lang) {
                println!("{line}");
            }
            println!();
        }
        let rec = recorded_row.map(|(s, _)| s);
        print!(
            "{}",
            table(&exp, &outcome, source.path(), rec, &|_| String::new())
        );
        if recorded_row.is_some_and(|(_, found)| found.arrivals == TraceArrivals::T0) {
            let note = recorded::BESIDE_T0.get(lang);
            match lang {
                Lang::En => println!("\n{}", wrap(note, 78)),
                Lang::Zh => println!("\n{note}"),
            }
        }
        let text = explain(&exp, &outcome, lang);
        match lang {
            Lang::En => println!("\n{}", wrap(&text, 78)),
            Lang::Zh => println!("\n{text}"),
        }
    }
    0
}

/// `--json` alone: the report of [`tailslice::figures::report`], which is
/// `outcome.report()` byte for byte in a fraction of the memory.
fn print_report(exp: &Experiment, imported: Option<Workload>, limits: &Limits) -> i32 {
    let workload = imported.unwrap_or_else(|| Workload::generate(&exp.workload_spec()));
    let report = match exp.report(&workload, limits) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    match serde_json::to_string(&report) {
        Ok(s) => println!("{s}"),
        Err(e) => {
            eprintln!("error: cannot write JSON: {e}");
            return 1;
        }
    }
    0
}

/// The study's table, for people. `under` gives the lines printed under
/// each policy's row (`Some`) and after the last (`None`): `measure`'s
/// measured rows; nothing for `simulate`.
pub(super) fn table(
    exp: &Experiment,
    outcome: &RunOutcome,
    tasks_file: Option<&str>,
    recorded: Option<&Summary>,
    under: &dyn Fn(Option<PolicyKind>) -> String,
) -> String {
    use std::fmt::Write;
    let w = &outcome.workload;
    let mut s = String::new();
    let arrivals = match exp.arrivals {
        Arrivals::T0 => "all at t=0".to_string(),
        other => format!("arrivals {other}"),
    };
    let source = match tasks_file {
        Some(path) => format!("from {path}"),
        None => format!(
            "(seed {}, {} RNG, mix {}), {}",
            exp.seed,
            exp.rng.name(),
            exp.mix,
            arrivals
        ),
    };
    let _ = writeln!(
        s,
        "{} tasks {}, {}, switch cost {} ms",
        w.len(),
        source,
        exp.machine().describe(exp.machine.is_some()).en,
        exp.switch_cost,
    );
    let long = w.work.iter().filter(|&&d| d > 60.0).count();
    let _ = writeln!(
        s,
        "total work {:.1} ms; {} tasks longer than 60 ms\n",
        w.total_work(),
        long
    );
    let within_col = format!("<{}ms", exp.within);
    let _ = writeln!(
        s,
        "{:<12} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9}",
        "scheduler", "mean", "p50", "p90", "p95", "p99", "max", within_col, "switches"
    );
    let rows = recorded
        .map(|m| ("as recorded".to_string(), m, None))
        .into_iter()
        .chain(
            outcome
                .runs
                .iter()
                .map(|r| (label(r.policy, exp), &r.summary, Some(r.policy))),
        );
    for (name, m, policy) in rows {
        let _ = writeln!(
            s,
            "{:<12} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>8} {:>9}",
            name, m.mean, m.p50, m.p90, m.p95, m.p99, m.max, m.done_within, m.context_switches
        );
        if policy.is_some() {
            s.push_str(&under(policy));
        }
    }
    s.push_str(&under(None));
    if let Some((base, rest)) = outcome.runs.split_first() {
        s.push('\n');
        for r in rest {
            let pct = |a: f64, b: f64| {
                change_pct(a, b).map_or_else(|| "n/a".to_string(), |p| format!("{p:+.1} %"))
            };
            let _ = writeln!(
                s,
                "{} vs {}: p95 {}, p99 {}, max {}, mean {:+.1} ms",
                label(r.policy, exp),
                label(base.policy, exp),
                pct(base.summary.p95, r.summary.p95),
                pct(base.summary.p99, r.summary.p99),
                pct(base.summary.max, r.summary.max),
                r.summary.mean - base.summary.mean,
            );
        }
        let counts: Vec<String> = outcome
            .runs
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    policy_title(r.policy.name(), Lang::En),
                    r.summary.done_within
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "done within {} ms: {} (of {} tasks)",
            exp.within,
            counts.join(", "),
            w.len()
        );
    }
    s
}

fn label(p: PolicyKind, exp: &Experiment) -> String {
    export::policy_label(p, exp.quantum)
}
