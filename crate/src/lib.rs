//! tailslice: a scheduler playground.
//!
//! The simulation core (everything but `web`) is plain Rust with no web
//! code: the CLI, the tests and the browser all drive the same engine.
//!
//! - [`rng`], [`mix`], [`workload`]: what runs (bit-exact with the study's
//!   Python when asked);
//! - [`policy`]: how it is scheduled, one policy per file behind one trait;
//! - [`engine`]: the discrete-event loop over N cores;
//! - [`metrics`]: the study's percentiles and friends;
//! - [`experiment`]: parameters, validation, the JSON report.

pub mod engine;
pub mod error;
pub mod experiment;
pub mod explain;
pub mod export;
pub mod import;
pub mod metrics;
pub mod mix;
pub mod policy;
pub mod qos;
pub mod query_string;
pub mod rng;
pub mod sweep;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod workload;
