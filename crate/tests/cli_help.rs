//! Every command's `--help` reads as one table: each flag two spaces in,
//! its description in the command's one column, and every continuation
//! line under that column (a help text glued from parts once lost the
//! indent of its first line).

mod cli_run;

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
    let mut commands = vec!["simulate", "sweep", "scenario", "bench"];
    if cfg!(target_os = "linux") {
        commands.push("measure");
    }
    for command in commands {
        let text = help(command);
        let bad = misaligned(&text);
        assert!(
            bad.is_empty(),
            "tailslice {command} --help:\n{}",
            bad.join("\n")
        );
    }
}
