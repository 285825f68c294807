//! `Arrivals::parse`: arrivals over time (`--arrivals`, URL `arrivals`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_arrivals, text};

fuzz_target!(|data: &[u8]| check_arrivals(&text(data)));
