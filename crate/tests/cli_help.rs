//! Every command's `--help` reads as one table: each flag two spaces in,
//! its description in the command's one column, and every continuation
//! line under that column (a help text glued from parts once lost the
//! indent of its first line). Every parameter's line is its spec row's
//! (flag, argument, help), and every flag a table names is one the
//! command's parser takes.

mod cli_run;

use tailslice::experiment::sweep_params::SweepParam;
use tailslice::experiment::Param;
use tailslice::param_spec::Params;
use tailslice::responsiveness::RespParam;
use tailslice::scenario::Knob;

fn help(command: &str) -> String {
    cli_run::tailslice_ok(&[command, "--help"])
}

/// Lines of `text` out of line with its flag table, as `line: why`.
fn misaligned(text: &str) -> Vec<String> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    // A flag line: `  --flag ARG   description` (two or more spaces
    // before the description).
    let column = |l: &str| {
        let rest = l.trim_start();
        let gap = rest.find("  ")?;
        Some(indent(l) + gap + (rest[gap..].len() - rest[gap..].trim_start().len()))
    };
    let flags: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("--") && column(l).is_some())
        .collect();
    let Some(col) = flags.iter().find_map(|l| column(l)) else {
        return vec!["no flag table".into()];
    };
    let mut out = Vec::new();
    let mut in_table = false;
    for l in text.lines() {
        if l.trim().is_empty() {
            in_table = false;
            continue;
        }
        let is_flag = flags.contains(&l);
        if is_flag {
            in_table = true;
            if indent(l) != 2 {
                out.push(format!("{l:?}: a flag is two spaces in"));
            }
            if column(l) != Some(col) {
                out.push(format!("{l:?}: its description is not at column {col}"));
            }
        } else if in_table && indent(l) != col && indent(l) != 2 {
            out.push(format!("{l:?}: a continuation is at column {col}"));
        } else if !in_table && l.trim_start().starts_with("--") && indent(l) != 2 {
            out.push(format!("{l:?}: a flag is two spaces in"));
        }
    }
    out
}

#[test]
fn the_check_finds_a_flag_out_of_line() {
    let good = "Flags:\n  --a N     first\n            more\n  --bb      second\n";
    assert!(misaligned(good).is_empty(), "{:?}", misaligned(good));
    for bad in [
        "Flags:\n  --a N     first\n--bb N    second\n",
        "Flags:\n  --a N     first\n  --bb     second\n",
        "Flags:\n  --a N     first\n           more\n",
    ] {
        assert!(!misaligned(bad).is_empty(), "not caught: {bad}");
    }
}

#[test]
fn every_help_is_one_aligned_table() {
    for command in commands() {
        let text = help(command);
        let bad = misaligned(&text);
        assert!(
            bad.is_empty(),
            "tailslice {command} --help:\n{}",
            bad.join("\n")
        );
    }
}

/// The commands and their `--help` (measure is Linux's only).
fn commands() -> Vec<&'static str> {
    let mut commands = vec!["simulate", "sweep", "scenario", "responsiveness", "bench"];
    if cfg!(target_os = "linux") {
        commands.push("measure");
    }
    commands
}

/// Text with every run of whitespace one space: a help line wraps.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every row of `rows` that has a flag is in `command`'s `--help` as its
/// flag, its argument and its spec help (so a line written by hand that
/// says something else fails here).
fn rows_in_help<P: Params>(command: &str, rows: impl IntoIterator<Item = P>) {
    let text = flat(&help(command));
    assert!(!text.contains("Allowed: ."), "{command}: an empty Allowed");
    for p in rows {
        let s = p.spec();
        let Some(flag) = s.flag else { continue };
        let line = flat(&format!("{flag} {} {}", s.arg(), s.help.en));
        assert!(
            text.contains(&line),
            "tailslice {command} --help has no line {line:?}"
        );
    }
}

#[test]
fn every_parameters_help_line_is_its_spec_rows() {
    rows_in_help("simulate", Param::ALL);
    rows_in_help("responsiveness", RespParam::ALL);
    rows_in_help("scenario", Knob::ALL);
    rows_in_help("sweep", SweepParam::ALL);
    #[cfg(target_os = "linux")]
    {
        use tailslice::kernel::flags::{MeasureParam, EXPERIMENT_PARAMS};
        rows_in_help("measure", MeasureParam::ALL);
        rows_in_help("measure", EXPERIMENT_PARAMS);
    }
}

#[test]
fn the_spec_check_finds_a_line_written_by_hand() {
    let by_hand = flat("  --quantum MS        rr's slice in ms [16]\n");
    let spec = Param::Quantum.spec();
    assert!(!by_hand.contains(&flat(&format!("--quantum {} {}", spec.arg(), spec.help.en))));
}

/// The flags at the start of `text`'s table lines (`  --a N  ...`, and
/// `  --a, --b` lists).
fn table_flags(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("  --"))
        .flat_map(|rest| {
            let head = rest.split("  ").next().unwrap_or_default();
            head.split(", ")
                .filter_map(|f| f.trim_start_matches("--").split(' ').next())
                .map(|f| format!("--{f}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether `command`'s parser refuses `flag` itself (not its value): run
/// with two unknown flags after it, it fails either way while parsing,
/// before any work, and says which.
fn refuses(command: &str, flag: &str) -> Option<String> {
    let (code, _, err) = cli_run::tailslice_status(&[command, flag, "--zz-first", "--zz-second"]);
    assert_ne!(
        code, 0,
        "tailslice {command} {flag} --zz-first --zz-second ran"
    );
    let refused = err.contains(&format!("unknown flag {flag}"))
        || err.contains(&format!("unknown flag '{flag}'"))
        || err.contains(&format!("invalid option '{flag}'"))
        || err.starts_with(&format!("error: {flag} "));
    refused.then_some(err)
}

#[test]
fn every_flag_a_help_names_is_one_its_parser_takes() {
    for command in commands() {
        let flags = table_flags(&help(command));
        assert!(flags.len() >= 2, "{command}: {flags:?}");
        for flag in flags {
            if let Some(err) = refuses(command, &flag) {
                panic!("tailslice {command} --help names {flag}, which it refuses: {err}");
            }
        }
        assert!(refuses(command, "--no-such-flag").is_some(), "{command}");
    }
    if cfg!(target_os = "linux") {
        assert!(refuses("measure", "--switch-cost").is_some());
    }
}
