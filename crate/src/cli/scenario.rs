//! `tailslice scenario <name> [--json] [--lang en|zh] [knobs]`: runs one
//! Apple QoS scenario (see `crate::scenario`) and prints its table or
//! JSON. `--lang` picks the language of the table's notes and calibration;
//! the JSON always carries both (`notes`/`calibration` in English,
//! `notes_zh`/`calibration_zh` in Chinese).

use std::ffi::OsString;
use std::io::Write;

use tailslice::error::ParamError;
use tailslice::scenario::{self, Knob, Knobs};
use tailslice::text::Lang;

use super::{fail, flag_value};

fn usage() -> String {
    let mut s = format!(
        "Usage: tailslice scenario <name> [--json] [--lang en|zh] [knobs]\n\n\
         Scenarios: {}\n\nKnobs:\n",
        scenario::names().join(", ")
    );
    for k in Knob::ALL {
        s.push_str(&format!("  {:<14} {}\n", k.flag(), k.help()));
    }
    s.push_str("  --json         print the result as JSON (notes in both languages)\n");
    s.push_str("  --lang en|zh   language of the notes and calibration [en]\n");
    s
}

pub fn run(args: Vec<OsString>) -> i32 {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut name: Option<String> = None;
    let mut json = false;
    let mut lang = Lang::En;
    let mut knobs = Knobs::default();
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
                if scenario::find(&v).is_none() {
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
    let result = match scenario::run(&name, &knobs) {
        Ok(r) => r,
        Err(e) => return fail(&e.to_string()),
    };
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
