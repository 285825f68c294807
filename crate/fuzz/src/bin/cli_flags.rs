//! Every CLI flag's value, as `--flag=value`: the experiment flags
//! (`Experiment::set` for each `Param`), the scenario knobs, `--lang`,
//! `--seeds`, `--quanta`, `--repeat`, `--figure` and `--theme`; on Linux
//! also `measure`'s `--policies` and `--repeats`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_flag, text};

fuzz_target!(|data: &[u8]| {
    if let Some((flag, value)) = text(data).split_once('=') {
        check_flag(flag, value);
    }
});
