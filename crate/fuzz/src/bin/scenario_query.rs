//! The scenario keys of a page query (`s`, `bl`, `nq`, `groups`, `m`, `ep`,
//! `sys`, `secs`, `tl`), read with `Knobs::set` as the page does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_scenario_query, text};

fuzz_target!(|data: &[u8]| check_scenario_query(&text(data)));
