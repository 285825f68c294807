//! `tailslice measure`: the experiment's tasks as real Linux threads under
//! the kernel's own policies, measured beside the model (`kernel/` runs
//! them). This file reads the flags and prints.

use std::ffi::OsString;

use tailslice::experiment::{export, Limits, Param};
use tailslice::kernel::environment;
use tailslice::kernel::flags::{self, MeasureParam, MeasureSettings};
use tailslice::kernel::report::{self, EevdfModel, EnvironmentJson, JsonTail, MeasuredRow};
use tailslice::kernel::run::{self, Progress, Refusal, Request};
use tailslice::kernel::text::{self as kernel_text, NoteInputs};
use tailslice::kernel::{kernel_policy, plan, MeasuredPolicy};
use tailslice::param_spec::{help_block, Params};
use tailslice::policy::PolicyKind;
use tailslice::stats::change_pct;
use tailslice::text::{Lang, Text};

use super::simulate::table;
use super::tasks_in::{Loaded, TaskSource};
use super::{fail, flag_value, set_experiment_flag, wrap, EXIT_USAGE};

const HELP: &str = "\
tailslice measure — the experiment's tasks as real Linux threads, beside the model

One thread per task, pinned to --cores CPUs (the highest numbered; CPU 0 is
left to the system when there are more CPUs), each spinning on its own
CPU-time clock for its task's work, released at its arrival time in the
model's queue order. fifo runs under SCHED_FIFO, rr under SCHED_RR with the
quantum written to sched_rr_timeslice_ms (put back afterwards), eevdf under
SCHED_OTHER with each task's nice value (a mix class's @nice=N). Real-time
policies need root or CAP_SYS_NICE.

The eevdf model row ends a used-up slice exactly (--eevdf-slice-end exact),
as the kernel does for threads that read their own CPU-time clock, with the
base slice scaled by the machine's online CPUs as the kernel scales it.

With no flags: the 400-task study (seed 42), fifo and rr, 3 repeats.

Flags (defaults in brackets):
";

/// The column of `--help`'s descriptions.
const HELP_WIDTH: usize = 22;

/// `--help`: every parameter's line read off its spec row (`measure`'s
/// own and the experiment's it takes, with its limits), then the flags
/// that are no parameter, then the run's limits from the kernel's plan.
fn help() -> String {
    let own = |p: MeasureParam| MeasureSettings::entry(p).help_line(HELP_WIDTH);
    let mut s = HELP.to_string();
    s += &own(MeasureParam::Policies);
    s += &own(MeasureParam::Repeats);
    for p in flags::EXPERIMENT_PARAMS {
        s += &flags::experiment_entry(p).help_line(HELP_WIDTH);
    }
    s += &own(MeasureParam::Cores);
    s += &help_block(
        "  --tasks-file PATH",
        "your own tasks, as for simulate",
        HELP_WIDTH,
    );
    s += &own(MeasureParam::RtUnthrottled);
    s += &help_block(
        "  --json",
        "simulate's JSON object plus \"measured\" and \"environment\"",
        HELP_WIDTH,
    );
    s += &help_block(
        "  --csv PATH",
        "also write one row per task, policy and repeat",
        HELP_WIDTH,
    );
    s += &help_block(
        "  --lang en|zh",
        "language of the notes [en] (errors stay English)",
        HELP_WIDTH,
    );
    s += &format!(
        "\n{}\n",
        wrap(
            &format!(
                "A run is refused above {} s (passes × their work over the cores), and a pass that runs past {} times its expected length plus {} s is stopped. The model's own --switch-cost and --machine are refused.",
                plan::MAX_RUN_S,
                plan::DEADLINE_FACTOR,
                plan::DEADLINE_SLACK_S
            ),
            78
        )
    );
    s
}

const MEASURED_MIN: Text = Text::new("min", "最小");
const MEASURED_MAX: Text = Text::new("max", "最大");
const VS_MODEL: Text = Text::new("vs model", "相对模型");
const NO_MODEL_ROW: Text = Text::new("(no model)", "（无模型）");

/// The flags of `measure` that are no parameter, as given.
struct OutputFlags {
    json: bool,
    csv: Option<String>,
    lang: Lang,
}

pub fn run(args: Vec<OsString>) -> i32 {
    let mut exp = flags::experiment_default();
    let mut source = TaskSource::default();
    let mut given: Vec<Param> = Vec::new();
    let mut settings = MeasureSettings::default();
    let mut out = OutputFlags {
        json: false,
        csv: None,
        lang: Lang::En,
    };
    let mut parser = lexopt::Parser::from_args(args);
    loop {
        let arg = match parser.next() {
            Ok(Some(arg)) => arg,
            Ok(None) => break,
            Err(e) => return fail(&e.to_string()),
        };
        match arg {
            lexopt::Arg::Long("help") | lexopt::Arg::Short('h') => {
                print!("{}", help());
                return 0;
            }
            lexopt::Arg::Long("json") => out.json = true,
            lexopt::Arg::Long(name @ ("switch-cost" | "machine")) => {
                return fail(&format!(
                    "--{name} is the model's alone: measure runs on the machine's own CPUs, whose switches cost what they cost (measured)"
                ));
            }
            lexopt::Arg::Long(name) if MeasureParam::from_flag(&format!("--{name}")).is_some() => {
                let flag = format!("--{name}");
                let Some(p) = MeasureParam::from_flag(&flag) else {
                    continue;
                };
                let value = if p == MeasureParam::RtUnthrottled {
                    String::new()
                } else {
                    match flag_value(&mut parser, &flag) {
                        Ok(v) => v,
                        Err(code) => return code,
                    }
                };
                if let Err(m) = settings.set(&mut exp, p, &flag, &value) {
                    return fail(&m);
                }
                match p {
                    MeasureParam::Policies => given.push(Param::Policies),
                    MeasureParam::Cores => given.push(Param::Cores),
                    _ => {}
                }
            }
            lexopt::Arg::Long(name @ ("csv" | "lang" | "tasks-file")) => {
                let name = name.to_string();
                let flag = format!("--{name}");
                let value = match flag_value(&mut parser, &flag) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                match name.as_str() {
                    "csv" if value.trim().is_empty() => {
                        return fail("invalid --csv '': expected a file path")
                    }
                    "csv" => out.csv = Some(value),
                    "lang" => match Lang::parse(&flag, &value) {
                        Ok(l) => out.lang = l,
                        Err(e) => return fail(&e.to_string()),
                    },
                    _ => {
                        if let Err(code) = source.set(&name, value) {
                            return code;
                        }
                    }
                }
            }
            lexopt::Arg::Long(name) => {
                let name = name.to_string();
                match set_experiment_flag(&mut exp, &mut parser, &name, "measure", &Limits::CLI) {
                    Ok(param) => given.push(param),
                    Err(code) => return code,
                }
            }
            other => return fail(&format!("unexpected argument {}", other.unexpected())),
        }
    }
    let policies = settings.policies.clone().unwrap_or_else(|| {
        exp.policies
            .iter()
            .filter_map(|p| {
                kernel_policy(p.name()).map(|kernel| MeasuredPolicy {
                    name: p.name().to_string(),
                    kernel,
                    model: Some(*p),
                })
            })
            .collect()
    });
    // The model's rows: the policies it simulates (a kernel policy whose
    // model class does not exist yet is measured alone).
    exp.policies = policies.iter().filter_map(|p| p.model).collect();
    let without_model: Vec<String> = policies
        .iter()
        .filter(|p| p.model.is_none())
        .map(|p| p.name.clone())
        .collect();
    // The eevdf model row as the measured threads behave: they read their
    // own CPU-time clock, which ends a used-up slice at once (unless the
    // user asked for the tick), and the kernel scales the base slice by
    // its online CPUs, not by the CPUs the tasks are pinned to.
    let slice_end_given = given.contains(&Param::EevdfSliceEnd);
    exp.eevdf.slice_cpus = Some(environment::online_cpus().max(1));
    let eevdf_model = policies
        .iter()
        .any(|p| p.name == PolicyKind::Eevdf.name())
        .then(|| EevdfModel {
            slice_end: exp.eevdf.slice_end(),
            base_slice_ms: exp.eevdf.slice_ms(exp.core_count()),
            slice_cpus: environment::online_cpus().max(1),
            slice_end_given,
        });
    let limits = Limits::CLI;
    source.set_lang(out.lang);
    let imported = match source.load(&mut exp, &given, &limits) {
        Ok(Loaded::List(w)) => Some(w),
        Ok(_) => None,
        Err(code) => return code,
    };
    let size = match &imported {
        Some(w) => exp.check_imported_size(w, &limits),
        None => exp.check_size(&limits),
    };
    if let Err(e) = size {
        return fail(&e.renamed("--quantum").to_string());
    }
    // The experiment as the experiment file holds it, for the page.
    let experiment = export::experiment_value(&exp, imported.as_ref());
    let outcome = match imported {
        Some(w) => exp.run_on(w, &limits, false),
        None => exp.run(&limits, false),
    };
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let request = Request {
        work_ms: outcome.workload.work.clone(),
        arrival_ms: outcome.workload.arrival.clone(),
        nice: outcome
            .workload
            .thread_info(&exp.mix)
            .iter()
            .map(|t| t.nice)
            .collect(),
        policies,
        quantum_ms: exp.quantum,
        cores: exp.cores,
        repeats: settings.repeats,
        rt_unthrottled: settings.rt_unthrottled,
    };
    let checked = match run::check(request) {
        Ok(c) => c,
        Err(Refusal::Usage(m)) => return fail(&m),
        Err(Refusal::Failed(m)) => {
            eprintln!("error: {m}");
            return 1;
        }
    };
    let measurement = run::measure(&checked, &mut |p| match p {
        Progress::Pass {
            policy,
            repeat,
            repeats,
            expected_s,
        } => eprintln!(
            "measure: {} ({}), repeat {repeat} of {repeats}, about {expected_s:.1} s",
            policy.name,
            policy.kernel.name()
        ),
    });
    let m = match measurement {
        Ok(m) => m,
        Err(Refusal::Usage(msg)) => return fail(&msg),
        Err(Refusal::Failed(msg)) => {
            eprintln!("error: {msg}");
            return 1;
        }
    };
    let req = &checked.request;
    let rows = report::rows(&m, req, exp.within);
    let seen = report::throttling_seen(&rows, &m.environment, req);
    let notes = kernel_text::notes(&NoteInputs {
        env: &m.environment,
        rows: &rows,
        left_out: &m.left_out,
        without_model: &without_model,
        throttling_seen: seen,
        repeats: settings.repeats,
        eevdf_model,
    });
    if let Some(path) = &out.csv {
        if let Err(e) = std::fs::write(path, tasks_csv(&m, req)) {
            eprintln!("error: cannot write --csv '{path}': {e}");
            return 1;
        }
    }
    let lang = out.lang;
    if out.json {
        let tail = JsonTail {
            measured: &rows,
            environment: EnvironmentJson {
                environment: &m.environment,
                rt_throttling_seen: seen,
                notes: &notes,
            },
            eevdf_model,
            experiment,
        };
        let text = serde_json::to_string(&outcome.report()).and_then(|r| report::json(&r, &tail));
        match text {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return 1;
            }
        }
        return 0;
    }
    let under = |policy: Option<PolicyKind>| -> String {
        let model = policy.and_then(|p| outcome.runs.iter().find(|r| r.policy == p));
        rows.iter()
            .filter(|r| match policy {
                Some(p) => r.policy == p.name(),
                None => without_model.contains(&r.policy),
            })
            .map(|r| measured_lines(r, model.map(|m| &m.summary), lang))
            .collect()
    };
    print!("{}", table(&exp, &outcome, source.path(), None, &under));
    println!();
    for note in notes.get(lang) {
        match lang {
            Lang::En => println!("{}", wrap(note, 78)),
            Lang::Zh => println!("{note}"),
        }
    }
    0
}

/// A measured row, its spread and its difference from the model, under
/// the model's row.
fn measured_lines(
    r: &MeasuredRow,
    model: Option<&tailslice::experiment::summary::Summary>,
    lang: Lang,
) -> String {
    let figures = [r.mean, r.p50, r.p90, r.p95, r.p99, r.max];
    let s = &r.spread;
    let spreads = [s.mean, s.p50, s.p90, s.p95, s.p99, s.max];
    let cells = |v: [f64; 6]| -> String { v.iter().map(|x| format!(" {x:>9.1}")).collect() };
    // Padded to the table's 12 columns as a terminal shows them: a Chinese
    // character takes two.
    let label = |t: &str| {
        let text = format!("    {t}");
        let width: usize = text
            .chars()
            .map(|c| if c >= '\u{1100}' { 2 } else { 1 })
            .sum();
        format!("{text}{}", " ".repeat(12usize.saturating_sub(width)))
    };
    let mut out = format!(
        "{:<12}{} {:>8} {:>9}\n",
        format!("  {}", r.kernel_policy.name()),
        cells(figures),
        r.done_within,
        "-"
    );
    if r.repeats > 1 {
        out += &format!(
            "{}{}\n",
            label(MEASURED_MIN.get(lang)),
            cells(spreads.map(|s| s[0]))
        );
        out += &format!(
            "{}{}\n",
            label(MEASURED_MAX.get(lang)),
            cells(spreads.map(|s| s[1]))
        );
    }
    match model {
        Some(m) => {
            let base = [m.mean, m.p50, m.p90, m.p95, m.p99, m.max];
            let pct: String = base
                .iter()
                .zip(figures)
                .map(|(&b, v)| {
                    let cell = change_pct(b, v)
                        .map_or_else(|| "n/a".to_string(), |p| format!("{p:+.1} %"));
                    format!(" {cell:>9}")
                })
                .collect();
            out += &format!("{}{pct}\n", label(VS_MODEL.get(lang)));
        }
        None => out += &format!("{}\n", label(NO_MODEL_ROW.get(lang))),
    }
    out
}

/// One row per task, policy and repeat: when it was due, released and
/// done (ms from the pass's start), its latency and the CPU time it spun.
fn tasks_csv(m: &run::Measurement, req: &Request) -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "policy,kernel_policy,repeat,task,arrival_ms,work_ms,released_ms,completion_ms,latency_ms,busy_ms\n",
    );
    for pass in &m.passes {
        let policy = &req.policies[pass.policy];
        let r = &pass.result;
        for i in 0..req.work_ms.len() {
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.4}",
                policy.name,
                policy.kernel.name(),
                pass.repeat,
                i,
                req.arrival_ms[i],
                req.work_ms[i],
                r.released_ms[i],
                r.completion_ms[i],
                r.completion_ms[i] - req.arrival_ms[i],
                r.busy_ms[i],
            );
        }
    }
    s
}
