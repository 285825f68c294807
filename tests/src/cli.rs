//! The `tailslice` CLI, built once per test process and run from the
//! repository root (the page's figures are compared with its output).

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

use crate::{repo_root, Result};

/// Path of the `tailslice` binary, built once per test process with
/// `cargo build -p tailslice --bin tailslice` (debug profile, so it shares
/// the artifacts `cargo test --workspace` already built).
/// Set `TAILSLICE_BIN` to use a prebuilt binary instead.
pub fn cli_path() -> Result<PathBuf> {
    static PATH: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(p) = std::env::var_os("TAILSLICE_BIN") {
            return Ok(PathBuf::from(p));
        }
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .current_dir(repo_root())
            .args([
                "build",
                "-p",
                "tailslice",
                "--bin",
                "tailslice",
                "--message-format=json-render-diagnostics",
            ])
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("running cargo build for the CLI: {e}"))?;
        if !out.status.success() {
            return Err(
                "`cargo build -p tailslice --bin tailslice` failed (see above)".to_string(),
            );
        }
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "tailslice")
            .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
            .next_back()
            .ok_or_else(|| "cargo build did not report a tailslice executable".to_string())
    })
    .clone()
    .map_err(Into::into)
}

/// A `Command` for the `tailslice` CLI, run from the repository root.
pub fn cli() -> Result<Command> {
    let mut c = Command::new(cli_path()?);
    c.current_dir(repo_root());
    Ok(c)
}

/// Runs the CLI with `args`; fails (with stderr) unless it exits 0. Returns stdout.
pub fn run_cli<I, S>(args: I) -> Result<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let out: Output = cli()?.args(&args).output()?;
    if !out.status.success() {
        return Err(format!(
            "tailslice {:?} exited with {}\nstderr:\n{}",
            args,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(String::from_utf8(out.stdout)?)
}
