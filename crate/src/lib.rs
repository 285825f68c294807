//! tailslice: a scheduler playground.
//!
//! The simulation core (everything but `web`) is plain Rust with no web
//! code: the CLI, the tests and the browser all drive the same engine.
//!
//! - [`rng`], [`mix`], [`workload`]: what runs (bit-exact with the study's
//!   Python when asked);
//! - [`policy`]: how it is scheduled, one class per file behind one trait
//!   (fifo, rr, sjf, srpt, mlfq, xnu);
//! - [`sim`]: the one discrete-event loop over any machine and any workload
//!   of threads ([`engine`] is the study's entry point into it);
//! - [`metrics`]: the study's percentiles and friends; [`metric`]: the
//!   reported figures named once;
//! - [`catalog`]: every parameter, policy, figure and limit, for the page;
//! - [`experiment`]: parameters, validation, the JSON report;
//! - [`figures`]: that report alone, keeping nothing per task it does not need;
//! - [`trace`]: a browser performance trace's main thread as a workload.

pub mod catalog;
pub mod engine;
pub mod error;
pub mod experiment;
pub mod explain;
pub mod export;
pub mod figures;
#[cfg(not(target_arch = "wasm32"))]
pub mod huge_pages;
pub mod import;
pub mod metric;
pub mod metrics;
pub mod mix;
pub mod policy;
pub mod qos;
pub mod query_string;
pub mod realrun;
pub mod rng;
pub mod sim;
pub mod sweep;
pub mod trace;
// The page's bindings; left out when another wasm module (the trace
// reader, `trace-web/`) uses this crate as a library.
#[cfg(all(target_arch = "wasm32", not(feature = "no-web")))]
pub mod web;
pub mod workload;
