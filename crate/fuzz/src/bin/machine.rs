//! `Machine::parse`: the scenario machine (`--machine`, URL `m`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_machine, text};

fuzz_target!(|data: &[u8]| check_machine(&text(data)));
