//! The `tailslice` command line: `simulate`, `scenario`, `sweep`, `bench`.

mod cli;

// Large blocks on 2 MB pages where the system allows (see the module; not
// on wasm32, where the bin is only built by `cargo test --target wasm32-…`).
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: tailslice::huge_pages::HugePageHint = tailslice::huge_pages::HugePageHint;

fn main() {
    quiet_on_closed_pipe();
    std::process::exit(cli::main());
}

/// `tailslice simulate | head -1` closes the pipe before the output ends.
/// Rust ignores SIGPIPE, so the next `print!` panics ("failed printing to
/// stdout: Broken pipe"); exit quietly instead, with the status a Unix tool
/// killed by SIGPIPE has (128 + 13), as `cat` or `grep` would.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}
