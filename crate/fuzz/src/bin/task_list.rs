//! `task_list::parse_task_list`: pasted or uploaded task lists and
//! `--tasks-file`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_task_list, text};

fuzz_target!(|data: &[u8]| check_task_list(&text(data)));
