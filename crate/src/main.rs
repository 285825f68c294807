//! The `tailslice` command line: `simulate`, `scenario`, `sweep`, `bench`.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
