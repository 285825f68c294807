//! The trace reader (`trace::import_trace`: `--trace-in` and the page's
//! trace worker): JSON in either form, gzip, any thread's tasks, the
//! summary, and the responsiveness model on what it accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::parser_props::check_trace;

fuzz_target!(|data: &[u8]| check_trace(data));
