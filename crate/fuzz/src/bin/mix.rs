//! `Mix::parse`: the task mix (`--mix`, URL `mix`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_mix, text};

fuzz_target!(|data: &[u8]| check_mix(&text(data)));
