//! `tailslice scenario <name> [--json] [--lang en|zh] [--svg FILE] [knobs]`:
//! runs one Apple QoS scenario (see `crate::scenario`) and prints its table
//! or JSON, and writes its tables and charts as an SVG figure. `--lang`
//! picks the language of the table's notes and calibration;
//! the JSON always carries both (`notes`/`calibration` in English,
//! `notes_zh`/`calibration_zh` in Chinese).

use std::ffi::OsString;
use std::io::Write;

use tailslice::chart::figure::{self, Figure};
use tailslice::chart::timeline::MAX_RECORDS;
use tailslice::error::ParamError;
use tailslice::param_spec::{self, help_block, Params};
use tailslice::scenario::{self, Knob, Knobs};
use tailslice::text::Lang;

use super::figure_flags::{self, FigureFlags};
use super::{fail, flag_value};

fn usage() -> String {
    let mut s = format!(
        "Usage: tailslice scenario <name> [--json] [--lang en|zh] [--svg FILE] [knobs]\n\n\
         Scenarios: {}\n\nKnobs:\n",
        scenario::names().join(", ")
    );
    for k in Knob::ALL {
        s.push_str(&knob_entry(k).help_line(HELP_WIDTH));
    }
    s.push_str(&help_block(
        "  --json",
        "print the result as JSON (notes in both languages)",
        HELP_WIDTH,
    ));
    s.push_str(&help_block(
        "  --lang en|zh",
        "language of the notes and calibration [en]",
        HELP_WIDTH,
    ));
    s.push_str(&figure_flags::help(&Figure::SCENARIO, HELP_WIDTH));
    s
}

/// The column of `--help`'s descriptions: the longest knob with its
/// argument (`--system-work SWITCH`) fits before it.
const HELP_WIDTH: usize = 24;

/// A knob's `--help` entry: its spec row, default and refusal's words.
fn knob_entry(k: Knob) -> param_spec::Entry {
    let default = Knobs::default().text(k).unwrap_or_default();
    let allowed = param_spec::allowed(|v| Knobs::default().set(k, k.flag(), v));
    k.spec().entry(default, allowed)
}

pub fn run(args: Vec<OsString>) -> i32 {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut name: Option<String> = None;
    let mut json = false;
    let mut lang = Lang::En;
    let mut knobs = Knobs::default();
    let mut figure_flags = FigureFlags::default();
    loop {
        let arg = match parser.next() {
            Ok(Some(a)) => a,
            Ok(None) => break,
            Err(e) => return fail(&e.to_string()),
        };
        match arg {
            Long("json") => json = true,
            Long("lang") => {
                let value = match flag_value(&mut parser, "--lang") {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                match Lang::parse("--lang", &value) {
                    Ok(l) => lang = l,
                    Err(e) => return fail(&e.to_string()),
                }
            }
            Long(flag) if FigureFlags::takes(flag) => {
                let flag = flag.to_string();
                let value = match flag_value(&mut parser, &format!("--{flag}")) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if let Err(code) = figure_flags.set(&flag, value, &Figure::SCENARIO) {
                    return code;
                }
            }
            Long("help") | Short('h') => {
                print!("{}", usage());
                return 0;
            }
            Long(flag) => {
                let flag = format!("--{flag}");
                let Some(knob) = Knob::from_flag(&flag) else {
                    return fail(&format!(
                        "unknown flag '{flag}': expected one of --json, --lang, {}",
                        Knob::ALL.map(Knob::flag).join(", ")
                    ));
                };
                let value = match flag_value(&mut parser, &flag) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if let Err(e) = knobs.set(knob, &flag, &value) {
                    return fail(&e.to_string());
                }
            }
            Value(v) if name.is_none() => {
                let v = v.to_string_lossy().into_owned();
                if scenario::ScenarioKind::find(&v).is_none() {
                    let e = ParamError::new("scenario", &v, scenario::allowed_names());
                    return fail(&e.to_string());
                }
                name = Some(v);
            }
            other => return fail(&other.unexpected().to_string()),
        }
    }
    let Some(name) = name else {
        return fail(&format!(
            "missing scenario name: expected {}",
            scenario::allowed_names().en
        ));
    };
    let figure_options = match figure_flags.options(lang) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let timeline_asked = knobs.timeline;
    if figure_options.is_some() {
        // The figure draws the recorded runs, capped as on the page; the
        // printed result keeps them only when asked for (--timeline on).
        knobs.timeline = true;
        knobs.max_records = knobs.max_records.max(MAX_RECORDS);
    }
    let mut result = match scenario::run(&name, &knobs) {
        Ok(r) => r,
        Err(e) => return fail(&e.to_string()),
    };
    if let (Some(options), Some(sc)) = (&figure_options, scenario::ScenarioKind::find(&name)) {
        let runs = std::mem::take(result.outcome_mut().runs_mut());
        let svg = figure::scenario(sc, &result, &runs, sc.default_run(&knobs), options);
        if timeline_asked {
            *result.outcome_mut().runs_mut() = runs;
        }
        match svg {
            Ok(svg) => {
                if let Err(code) = figure_flags.write(&svg) {
                    return code;
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        }
    }
    let text = if json {
        match serde_json::to_string(&result) {
            Ok(s) => s + "\n",
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return 1;
            }
        }
    } else {
        result.to_text(lang)
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
    0
}
