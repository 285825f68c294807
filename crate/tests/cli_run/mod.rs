//! Running the `tailslice` binary from the CLI tests: one way to start it
//! and to read what it printed, shared by every test file that needs it.
#![allow(dead_code)] // each test file uses the part it needs

use std::process::{Command, Output};

/// Runs `tailslice` with `args` and waits for it.
pub fn tailslice(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tailslice"))
        .args(args)
        .output()
        .expect("tailslice runs")
}

/// Exit status (−1 when killed by a signal), standard output and standard
/// error of `tailslice` run with `args`.
pub fn tailslice_status(args: &[&str]) -> (i32, String, String) {
    let o = tailslice(args);
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

/// Standard output of `tailslice` run with `args`, which must succeed (its
/// standard error is the failure's message).
pub fn tailslice_ok(args: &[&str]) -> String {
    let o = tailslice(args);
    assert!(o.status.success(), "tailslice {args:?}: {}", stderr(&o));
    stdout(&o)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
