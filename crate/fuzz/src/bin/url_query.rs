//! The page's query string: percent-decoding and `Experiment::from_query`
//! for every URL key, then the canonical query written back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_query, text};

fuzz_target!(|data: &[u8]| check_query(&text(data)));
