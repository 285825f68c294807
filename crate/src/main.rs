//! The `tailslice` command line: `simulate`, `scenario`, `sweep`, `bench`.

mod cli;

// Large blocks on 2 MB pages where the system allows (see the module).
#[global_allocator]
static ALLOCATOR: tailslice::huge_pages::HugePageHint = tailslice::huge_pages::HugePageHint;

fn main() {
    std::process::exit(cli::main());
}
