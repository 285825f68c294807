// The core's catalog (Rust's `catalog()`, crate/src/catalog.rs), read once
// after the wasm loads: every parameter, policy, figure and threshold the
// page shows comes from it, so a new policy, figure or knob needs no
// change here.
import { catalog as rustCatalog } from './tailslice.js';
import { lang } from './i18n.js';

let data = null;

/** Reads the catalog from the wasm (call once, after init()). */
export function loadCatalog() { data = rustCatalog(); return data; }

/** The whole catalog: {params, page_params, policies, metrics, limits, …}. */
export function catalog() { return data; }

/** The browser's thresholds (`BrowserLimits`). */
export function limits() { return data.limits; }

/** `{en, zh}` in the page's language. */
export function words(w) { return w ? w[lang()] || w.en : ''; }

/** A parameter's entry by URL key (experiment or page key), or undefined. */
export function param(key) {
  return data.params.find((p) => p.key === key) || data.page_params.find((p) => p.key === key);
}

/** A policy's heading (FIFO, RR, …). */
export function policyTitle(name) {
  const p = data.policies.find((x) => x.name === name);
  return p ? p.title : name;
}

/** A figure's column heading (`{ms}` replaced by the threshold). */
export function metricTitle(name, within) {
  const m = data.metrics.find((x) => x.name === name);
  return m ? words(m.title).replace('{ms}', within ?? '') : name;
}
