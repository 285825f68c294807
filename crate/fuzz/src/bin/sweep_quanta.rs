//! The page's sweep quanta field: `STEPS TEXT`, where TEXT is `LO-HI`
//! (log-spaced) or a list, read by `sweep::parse_quanta_spec`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_quanta_field, text};

fuzz_target!(|data: &[u8]| {
    if let Some((steps, field)) = text(data).split_once(' ') {
        if let Ok(steps) = steps.parse::<u32>() {
            check_quanta_field(steps, field);
        }
    }
});
