//! `export::parse_experiment_json` and `measured::parse_measure_text`:
//! experiment files and `measure --json` outputs (Open experiment…).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_experiment_file, text};

fuzz_target!(|data: &[u8]| check_experiment_file(&text(data)));
