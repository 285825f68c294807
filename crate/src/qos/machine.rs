//! Machines live with the one simulation loop now ([`crate::sim::machine`]):
//! every policy runs on every machine. This path stays for the scenarios.

pub use crate::sim::machine::*;
