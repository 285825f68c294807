// The charts on canvases: every Gantt (the study's schedules, a scenario's
// cores and thread states) is a wasm Gantt made from the one wire format,
// drawn here in parts so that millions of slices never freeze the tab; the
// CDF and histogram are the result View's. This file sizes canvases,
// schedules the parts and forwards pointer, wheel and key events: Rust
// says what is under the pointer, zooms, pans, draws and writes every word
// (legends included).
import { Gantt, View } from './tailslice.js';
import { t } from './i18n.js';
import { $, computeStyle, sizeCanvas, widthOf } from './dom.js';
import { limits } from './catalog.js';
import { app } from './state.js';

/**
 * A Gantt on `canvas` with its tooltip `tip`: `show(wire, keep)` replaces
 * the chart (keeping the zoom when `keep`), `draw()` draws it in parts,
 * `clear()` frees it. The canvas's `aria-describedby` element gets the
 * legend's words.
 */
export function ganttCanvas(canvas, tip, dark) {
  const c = { canvas, gantt: null, job: 0, queued: false };
  const width = () => canvas.clientWidth || canvas.parentElement.clientWidth || 600;

  c.draw = () => {
    const g = c.gantt;
    if (!g) return;
    const ratio = sizeCanvas(canvas, (w) => g.height(w));
    const desc = document.getElementById(canvas.getAttribute('aria-describedby'));
    // Written only when it changes: a text write makes the next layout redo the page's.
    if (desc) { const legend = g.legendText(); if (desc.textContent !== legend) desc.textContent = legend; }
    const job = ++c.job;
    const part = limits().gantt_part_segments;
    // Rust draws only the blocks whose lanes differ from what the canvas shows.
    let next = measured(canvas.id, () => g.drawPart(canvas, ratio, dark(), 0, part));
    countDraws(canvas, g.drawnBlocks());
    const more = () => {
      if (job !== c.job || g !== c.gantt) return; // redrawn or replaced since
      next = measured(canvas.id, () => g.drawPart(canvas, ratio, dark(), next, part));
      if (next >= 0) setTimeout(more, 0);
    };
    if (next >= 0) setTimeout(more, 0);
  };
  c.redraw = () => {
    if (c.queued) return;
    c.queued = true;
    requestAnimationFrame(() => { c.queued = false; c.draw(); });
  };
  /** Moves a large chart's segments into wasm memory a chunk per task, then draws it again. */
  const loadLater = (g) => {
    setTimeout(() => {
      if (g !== c.gantt) return; // a newer chart replaced (and freed) it
      if (g.loadSegments()) c.draw();
      else loadLater(g);
    }, 0);
  };
  c.show = (wire, { keep = false, large = false } = {}) => {
    const old = c.gantt;
    c.gantt = wire ? new Gantt(wire) : null;
    if (old) {
      if (keep && c.gantt && (old.t0 > 0 || old.t1 < old.horizon() * 0.999)) c.gantt.setWindow(old.t0, old.t1);
      old.free();
    }
    tip.hidden = true;
    if (c.gantt && (large || !c.gantt.loadSegments())) loadLater(c.gantt);
  };
  c.clear = () => { c.show(null); };
  wire(c, tip, width);
  return c;
}

/** `draw()` measured as `tailslice:draw:<chart>`: one measure per task
 * it runs in. */
function measured(chart, draw) {
  const start = performance.now();
  const out = draw();
  performance.measure(`tailslice:draw:${chart}`, { start, end: performance.now() });
  return out;
}

/** The test hooks of what was drawn: `data-draws` counts the drawings a
 * canvas began, `data-block-draws` (a lane chart) how many of them drew
 * each block, space-separated in the chart's block order. */
function countDraws(canvas, blocks) {
  canvas.dataset.draws = String(Number(canvas.dataset.draws || 0) + 1);
  if (!blocks) return;
  const counts = (canvas.dataset.blockDraws || '').split(' ').filter(Boolean).map(Number);
  for (const b of blocks) {
    while (counts.length <= b) counts.push(0);
    counts[b]++;
  }
  canvas.dataset.blockDraws = counts.join(' ');
}

/** Pointer, wheel and keys on a Gantt: Rust answers, JS shows. */
function wire(c, tip, width) {
  const { canvas } = c;
  const pointers = new Map();
  let drag = null;
  let pinch = null;
  const local = (e) => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };

  function hover(x, y) {
    if (!c.gantt) return;
    const text = c.gantt.hit(x, y, width());
    if (text) {
      tip.textContent = text;
      tip.hidden = false;
      const tw = tip.offsetWidth;
      const left = Math.min(Math.max(0, x + 12), Math.max(0, width() - tw));
      tip.style.left = `${left}px`;
      tip.style.top = `${y + 14}px`;
    } else {
      tip.hidden = true;
    }
    c.redraw();
  }
  function hideTip() {
    tip.hidden = true;
    if (c.gantt) { c.gantt.clearHighlight(); c.redraw(); }
  }
  c.zoom = (f) => { if (c.gantt) { c.gantt.zoom(f, width() / 2, width()); hideTip(); } };
  c.reset = () => { if (c.gantt) { c.gantt.reset(); hideTip(); } };

  canvas.addEventListener('wheel', (e) => {
    if (!c.gantt) return;
    e.preventDefault();
    const [x] = local(e);
    const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    c.gantt.zoom(Math.exp(-dy * 0.002), x, width());
    hideTip();
  }, { passive: false });

  canvas.addEventListener('pointerdown', (e) => {
    pointers.set(e.pointerId, local(e));
    canvas.setPointerCapture(e.pointerId);
    if (pointers.size === 1) drag = { x: local(e)[0], moved: 0 };
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
      drag = null;
    }
  });
  canvas.addEventListener('pointermove', (e) => {
    const [x, y] = local(e);
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, [x, y]);
    if (pinch && pointers.size === 2 && c.gantt) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (pinch.d > 0 && d > 0) c.gantt.zoom(d / pinch.d, (a[0] + b[0]) / 2, width());
      pinch.d = d;
      hideTip();
      return;
    }
    if (drag && c.gantt) {
      const dx = x - drag.x;
      drag.moved += Math.abs(dx);
      drag.x = x;
      if (drag.moved > 3) {
        canvas.classList.add('dragging');
        c.gantt.pan(dx, width());
        tip.hidden = true;
        c.redraw();
        return;
      }
    }
    if (e.pointerType === 'mouse') hover(x, y);
  });
  const up = (e) => {
    const [x, y] = local(e);
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (drag && drag.moved <= 3 && e.type === 'pointerup') hover(x, y); // tap
    if (pointers.size === 0) drag = null;
    canvas.classList.remove('dragging');
  };
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
  canvas.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse' && !drag) hideTip(); });
  canvas.addEventListener('dblclick', () => { if (c.gantt) { c.gantt.reset(); c.redraw(); } });
  // Keyboard: Shift+arrows move a cursor over the chart and show the
  // tooltip of the slice under it (what hovering shows a mouse user).
  let cursor = null;
  canvas.addEventListener('blur', () => { cursor = null; hideTip(); });
  canvas.addEventListener('keydown', (e) => {
    if (!c.gantt) return;
    if (e.shiftKey && e.key.startsWith('Arrow')) {
      e.preventDefault();
      if (!cursor) cursor = { x: 12, y: 26 };
      const step = { ArrowLeft: [-8, 0], ArrowRight: [8, 0], ArrowUp: [0, -6], ArrowDown: [0, 6] }[e.key] || [0, 0];
      cursor.x = Math.min(Math.max(9, cursor.x + step[0]), width() - 9);
      cursor.y = Math.min(Math.max(0, cursor.y + step[1]), canvas.clientHeight - 1);
      hover(cursor.x, cursor.y);
      if (tip.hidden) { tip.textContent = t('gantt.cursor.none'); tip.hidden = false; tip.style.left = `${cursor.x}px`; tip.style.top = `${cursor.y + 14}px`; }
      return;
    }
    const w = width();
    const keys = {
      '+': () => c.gantt.zoom(1.5, w / 2, w), '=': () => c.gantt.zoom(1.5, w / 2, w),
      '-': () => c.gantt.zoom(1 / 1.5, w / 2, w),
      ArrowLeft: () => c.gantt.pan(w / 8, w), ArrowRight: () => c.gantt.pan(-w / 8, w),
      '0': () => c.gantt.reset(), Home: () => c.gantt.reset(),
    };
    const f = keys[e.key];
    if (f) { e.preventDefault(); f(); hideTip(); }
  });
}

// ------------------------------------------------------------ the study

let study = null;

/** Shows a result's schedules (keeping the zoom when `keep`: the same
 * experiment shape, e.g. while dragging the quantum) and its plots' View. */
export function showResult(result, { keep = false, large = false } = {}) {
  const old = app.view;
  app.view = new View(result);
  if (old) { app.view.keepSpots(old); old.free(); }
  study.show(result.gantt, { keep, large });
  app.gantt = study.gantt;
}

/** Reads the widths the study's charts are drawn at, all in one layout
 * (before anything is drawn: each canvas sized in between would make the
 * next read lay the page out again). */
export function readChartWidths() {
  drawnWidths = chartWidths();
}

// The chart boxes' widths when the charts were last sized.
let drawnWidths = '';

/** Whether the chart boxes are no longer as wide as when the charts were
 * last sized (a resize to draw for; a ResizeObserver also reports a box
 * the first time it watches it, at the width already drawn). */
export function chartWidthsChanged() {
  return chartWidths() !== drawnWidths;
}

/** The chart boxes' widths, as one comparable string. */
function chartWidths() {
  return chartBoxes().map(widthOf).join(' ');
}

/** The boxes the charts take their widths from. */
export function chartBoxes() {
  return ['#gantt', '#cdf', '#hist'].map((id) => $(id).parentElement);
}

/** Draws the study's Gantt (in parts), the document's style first (its
 * own measure: the Gantt's first font would compute it inside the draw). */
export function drawGantt() {
  if (!study) return;
  computeStyle($('#gantt'));
  study.draw();
}

/** Draws the CDF and the histogram; Rust leaves a canvas that already
 * shows its plot (the same data, size, theme and language) as it is. */
export function drawPlots() {
  if (!app.view) return;
  const cdf = $('#cdf');
  const h = document.body.classList.contains('embed') ? 220 : 280;
  const hist = $('#hist');
  // Its figure has no width where it is not shown (an embed of other views).
  const histShown = widthOf(hist.parentElement) > 0;
  if (measured('cdf', () => app.view.drawCdf(cdf, sizeCanvas(cdf, h), app.dark.matches))) countDraws(cdf);
  if (histShown && measured('histogram', () => app.view.drawHistogram(hist, sizeCanvas(hist, h), app.dark.matches))) countDraws(hist);
}

/** A shortened legend entry shows its full name on hover (the canvas's title). */
function wireNotes(canvas, which) {
  canvas.addEventListener('pointermove', (e) => {
    const r = canvas.getBoundingClientRect();
    const note = app.view ? app.view.noteAt(which, e.clientX - r.left, e.clientY - r.top) : null;
    canvas.title = note || '';
  });
}

export function wireGantt() {
  study = ganttCanvas($('#gantt'), $('#tooltip'), () => app.dark.matches);
  $('#zoom-in').addEventListener('click', () => study.zoom(1.5));
  $('#zoom-out').addEventListener('click', () => study.zoom(1 / 1.5));
  $('#zoom-reset').addEventListener('click', () => study.reset());
  wireNotes($('#cdf'), 'cdf');
  wireNotes($('#hist'), 'hist');
}
