// The page's DOM helpers, one copy for every panel: `$` (one element by
// selector), `el` (build an element with properties and children),
// `widthOf` (an element's width without forcing a layout) and `sizeCanvas`
// (a canvas's backing store at the device's resolution).
// User-supplied text only ever goes in through `text` (textContent), never
// as markup.
import { t } from './i18n.js';

export const $ = (sel) => document.querySelector(sel);

/** Properties that are attributes only (`input.list` is read-only). */
const ATTRIBUTES = new Set(['list']);

/**
 * `<tag>` with `props` and `children`. `text`: its textContent; `i18n`: a
 * key of the string tables (its text now, again after a language switch);
 * `dataset`: data-* values; a property of the element is set as one,
 * anything else as an attribute.
 */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'i18n') { e.dataset.i18n = v; e.textContent = t(v); }
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e && !ATTRIBUTES.has(k)) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// Widths the browser reported after its last layout. Reading clientWidth
// right after the DOM changed (a table written, a canvas resized) makes the
// browser lay the page out there and then, inside the update's task; a
// ResizeObserver hands over each observed element's new width after the
// browser's own layout instead, so an update reads a number.
const widths = new WeakMap();
const observer = new ResizeObserver((entries) => {
  for (const e of entries) {
    const w = e.target.clientWidth;
    if (w > 0) widths.set(e.target, w); else widths.delete(e.target);
  }
});

/**
 * Brings the document's style up to date for `elem`, measured as
 * `tailslice:style`: a canvas's font is resolved against it, so after a
 * DOM change the first font set would compute it inside a chart's drawing
 * (and its measure). Nothing to do when the style is clean.
 */
export function computeStyle(elem) {
  const start = performance.now();
  void getComputedStyle(elem).font;
  performance.measure('tailslice:style', { start, end: performance.now() });
}

/**
 * Starts observing `elems` before anything asks for their widths: the
 * browser reports them after its next layout (while the wasm loads, say),
 * so the first update reads numbers instead of laying the page out.
 */
export function observeWidths(elems) {
  for (const e of elems) observer.observe(e);
}

/**
 * The CSS width (clientWidth) of `elem`: the one the ResizeObserver last
 * reported, else read now (a layout, measured as `tailslice:layout`) and
 * observed from then on. A hidden element (width 0) is read again each time.
 */
export function widthOf(elem) {
  const known = widths.get(elem);
  if (known !== undefined) return known;
  const start = performance.now();
  const w = elem.clientWidth;
  performance.measure('tailslice:layout', { start, end: performance.now() });
  if (w > 0) {
    widths.set(elem, w);
    observer.observe(elem);
  }
  return w;
}

/**
 * Gives `canvas` the CSS height `cssHeight` (a number, or a function of
 * the CSS width) and a backing store of its parent's width (its own, else
 * 600 px) times the device pixel ratio; returns the ratio the drawing code
 * scales by.
 */
export function sizeCanvas(canvas, cssHeight) {
  const dpr = window.devicePixelRatio || 1;
  const cssWidth = widthOf(canvas.parentElement) || canvas.clientWidth || 600;
  const height = typeof cssHeight === 'function' ? cssHeight(cssWidth) : cssHeight;
  canvas.style.height = `${height}px`;
  const w = Math.max(1, Math.round(cssWidth * dpr));
  const h = Math.max(1, Math.round(height * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  return w / cssWidth;
}
