//! `workload::task_link::decode`: the "share these tasks" link's fragment
//! (`#main-thread=1.DATA`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_task_link, text};

fuzz_target!(|data: &[u8]| check_task_link(&text(data)));
