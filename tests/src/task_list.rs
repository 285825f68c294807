//! Large task lists as files, for the page's import (a visitor's upload).

use std::path::PathBuf;

/// Tasks in [`million_line_task_list`].
pub const MILLION: usize = 1_000_000;

/// A 1,000,000-line task list (durations in ms, one per line, about the
/// default mix's shape) in the temporary directory, written once per
/// process; returns its path.
pub fn million_line_task_list() -> PathBuf {
    million_line_task_list_drawn(42)
}

/// [`million_line_task_list`] drawn from `seed`: lists of other seeds have
/// the same shape and size, different lines (a benchmark's repeats then
/// each read, parse and run a list the page has not seen).
pub fn million_line_task_list_drawn(seed: u64) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "tailslice-e2e-million-{}-{seed}.txt",
        std::process::id()
    ));
    if !path.exists() {
        let mut text = String::with_capacity(MILLION * 6);
        let mut x: u64 = seed;
        for _ in 0..MILLION {
            // A small LCG: deterministic, no dependency.
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (x >> 33) % 100;
            let d = match r {
                0..=84 => 1 + (x >> 40) % 8,
                85..=96 => 10 + (x >> 40) % 31,
                _ => 80 + (x >> 40) % 121,
            };
            text.push_str(&d.to_string());
            text.push('\n');
        }
        std::fs::write(&path, text).expect("write the task list");
    }
    path
}
