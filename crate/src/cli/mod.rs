//! Command-line front end. Each subcommand lives in its own file; they share
//! the error convention: a bad flag prints one line naming the flag, the
//! value and what is allowed, and exits with status 2.
//!
//! Error lines are English whatever `--lang` says: `--lang` picks the
//! language of the generated text (explanations, notes, a trace's summary),
//! while flags, `--help` and the system's own errors (files, UTF-8) are
//! English, and one language per stream keeps stderr greppable. The page
//! shows the same refusals in its reader's language (`ParamError::message`).
//! What is wrong with a trace file is said in `--lang` (`tasks_in.rs`):
//! it is about the file, not a flag, and the page says it the same way.

mod bench;
mod figure_flags;
#[cfg(target_os = "linux")]
mod measure;
mod responsiveness;
mod scenario;
mod simulate;
mod sweep;
mod tasks_in;

use std::ffi::OsString;

use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::param_spec::Params;

/// Exit status for bad input (as most Unix tools and clap use).
pub const EXIT_USAGE: i32 = 2;

const USAGE: &str = "\
tailslice — a scheduler playground (simulate how tasks share CPUs)

Usage:
  tailslice simulate [flags]         run an experiment (default: the 400-task study)
  tailslice scenario <name> [flags]  run an Apple QoS scenario
  tailslice sweep --seeds A-B | --quanta LIST [flags]  one experiment over many seeds or quanta
  tailslice responsiveness [flags]   input delay, TBT and the cost of slicing a main thread's
                                     tasks (--trace-in FILE, --tasks-file PATH or the study's)
  tailslice measure [flags]          run the tasks as real Linux threads under SCHED_FIFO,
                                     SCHED_RR and SCHED_OTHER, beside the model (Linux)
  tailslice bench [flags]            time the engine on a million tasks
  tailslice help                     this text; `tailslice <command> --help` for flags
";

pub fn main() -> i32 {
    let mut args: Vec<OsString> = std::env::args_os().skip(1).collect();
    // `tailslice` alone, or with flags only, is `tailslice simulate`.
    let flags_only = args
        .first()
        .and_then(|a| a.to_str())
        .is_some_and(|a| a.starts_with("--") && a != "--help");
    if args.is_empty() || flags_only {
        args.insert(0, "simulate".into());
    }
    let cmd = args.remove(0);
    match cmd.to_str() {
        Some("simulate") => simulate::run(args),
        Some("scenario") => scenario::run(args),
        Some("bench") => bench::run(args),
        Some("sweep") => sweep::run(args),
        Some("responsiveness") => responsiveness::run(args),
        #[cfg(target_os = "linux")]
        Some("measure") => measure::run(args),
        #[cfg(not(target_os = "linux"))]
        Some("measure") => fail(
            "measure runs the tasks as Linux threads under the kernel's policies: it is only available on Linux",
        ),
        Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            0
        }
        _ => fail(&format!(
            "unknown command '{}': expected simulate, scenario, sweep, responsiveness, measure, bench or help",
            cmd.to_string_lossy()
        )),
    }
}

/// Prints `error: <message>` on one line and returns the usage exit code.
pub fn fail(message: &str) -> i32 {
    eprintln!("error: {message}");
    EXIT_USAGE
}

/// The value after a flag, as UTF-8, or the exit code after reporting why not.
pub fn flag_value(parser: &mut lexopt::Parser, flag: &str) -> Result<String, i32> {
    match parser.value() {
        Ok(v) => v
            .into_string()
            .map_err(|_| fail(&format!("invalid {flag}: the value is not valid UTF-8"))),
        Err(_) => Err(fail(&format!("missing value for {flag}"))),
    }
}

/// Reads the value of the experiment flag `--name` (any [`Param`]) into
/// `exp`, for every subcommand that takes the simulate flags. Returns the
/// parameter set, or the exit code after reporting why not.
pub fn set_experiment_flag(
    exp: &mut Experiment,
    parser: &mut lexopt::Parser,
    name: &str,
    command: &str,
    limits: &Limits,
) -> Result<Param, i32> {
    let flag = format!("--{name}");
    let Some(param) = Param::from_flag(&flag) else {
        return Err(fail(&format!(
            "unknown flag {flag} for {command} (see tailslice {command} --help)"
        )));
    };
    let value = flag_value(parser, &flag)?;
    exp.set(param, &flag, &value, limits)
        .map_err(|e| fail(&e.to_string()))?;
    Ok(param)
}

/// Breaks text at spaces so lines stay within `width` characters (text
/// without spaces, such as Chinese, is left to the terminal).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split(' ') {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += len;
    }
    out
}
