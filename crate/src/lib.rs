//! tailslice: a scheduler playground.
//!
//! The layers, bottom to top; a module imports only from layers below it
//! (checked by `tests/module_layers.rs`):
//!
//! 1. foundation, used everywhere: [`error`] (parameter errors and number
//!    syntax), [`param_spec`] (the one parameter spec every table is
//!    written in), [`text`] (the language and bilingual text), [`markup`]
//!    (escaping for SVG and HTML), [`stats`], [`rng`] (bit-exact with the
//!    study's Python), [`query_string`];
//! 2. [`sim`]: the one loop and the class interface beside it, machines,
//!    QoS, what a run leaves behind;
//! 3. [`policy`]: the scheduling classes, one per file, and the one way into
//!    the loop ([`policy::PolicyKind::run`]);
//! 4. [`workload`]: what runs — the study's tasks (mixes, arrivals, task
//!    lists) and the scenarios' programs; [`trace`]: a browser performance
//!    trace's main thread as tasks;
//! 5. [`experiment`] (parameters, the one runner, figures, readings,
//!    sweeps, exports), [`responsiveness`] (input delay, TBT and what
//!    slicing costs, from a main thread's tasks), [`scenario`] (the QoS
//!    studies) and [`embed`] (the embed view's keys and the snippets for
//!    blog posts);
//! 6. [`realrun`] (Run for real's plan and report), [`catalog`] (every
//!    parameter, policy, figure and limit, for the page), [`chart`]
//!    (every chart, drawn once for any plotters backend: canvas or SVG),
//!    [`params`] (the page's query string, read and written natively, and
//!    [`url_keys`], every key a link to the page may hold) and, on Linux,
//!    `kernel` (the tasks as real threads under the kernel's policies,
//!    measured beside the model);
//! 7. front ends: `web` (the page's wasm bindings) and the CLI (the bin).
//!
//! Everything but `web` is plain Rust with no web code: the CLI, the tests
//! and the browser all drive the same core.

// Some core items are used only by the page's bindings (`web`, compiled for
// wasm32 only), so every other build would call them dead. Dead code is
// judged by the one build that compiles every user inside the crate: the
// page's full wasm32 library (CI's wasm clippy, -D warnings). The Linux-only
// modules, which that build leaves out, keep the lint below.
#![cfg_attr(
    not(all(target_arch = "wasm32", not(feature = "page"), not(feature = "no-web"))),
    allow(dead_code)
)]

pub mod error;
pub mod markup;
pub mod param_spec;
pub mod query_string;
pub mod rng;
pub mod stats;
pub mod text;

pub mod sim;

pub mod policy;

pub mod trace;
pub mod workload;

pub mod embed;
pub mod experiment;
pub mod responsiveness;
pub mod scenario;

pub mod catalog;
pub mod chart;
pub mod params;
pub use params::url_keys;
pub mod realrun;
// Real threads under Linux's own policies (`tailslice measure`).
#[cfg(target_os = "linux")]
#[warn(dead_code)]
pub mod kernel;

#[cfg(not(target_arch = "wasm32"))]
#[warn(dead_code)]
pub mod huge_pages;
// The page's bindings; left out when another wasm module (the trace
// reader, `trace-web/`) uses this crate as a library.
#[cfg(all(target_arch = "wasm32", not(feature = "no-web")))]
pub mod web;
