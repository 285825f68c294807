//! `export::parse_experiment_json`: experiment files (Open experiment…).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_experiment_file, text};

fuzz_target!(|data: &[u8]| check_experiment_file(&text(data)));
