//! The responsiveness settings: `--yield`, `--yield-cost`, `--quanta` and
//! `--window` as `--flag=value`, or a page query with the `resp_*` keys.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::parser_props::{check_flag, check_resp_query};
use tailslice_fuzz::text;

fuzz_target!(|data: &[u8]| {
    let t = text(data);
    match t.split_once('=') {
        Some((flag, value)) if flag.starts_with("--") => check_flag(flag, value),
        _ => check_resp_query(&t),
    }
});
