//! The page worker's wasm module (`www/worker.js` loads it).
//!
//! It is the `tailslice` crate's page bindings as they are (the runs,
//! scenarios, sweeps, task-list import and exports), built with their own
//! cargo profile (`wasm-speed`, opt-level 3) so that the hot engine loop is
//! compiled for speed, while the main thread's module (`crate/`, feature
//! `page`, profile `wasm-release`, opt-level "z") stays small for the first
//! download. Nothing is defined here: linking the crate is the point, its
//! `#[wasm_bindgen]` items are exported from this cdylib.

#[cfg(target_arch = "wasm32")]
pub use tailslice::web;
