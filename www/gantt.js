// Drawing the result's charts (Gantt in parts, CDF, histogram: the wasm
// View draws, this file sizes canvases and schedules the parts) and the
// Gantt's gestures: wheel and pinch zoom, drag to pan, hover or tap for a
// slice, keyboard zoom/pan and a Shift+arrow cursor.
import { t } from './i18n.js';
import { $, sizeCanvas } from './dom.js';
import { limits } from './catalog.js';
import { app } from './state.js';

let ganttJob = 0;
/** Draws the Gantt chart, `gantt_part_segments` segments per task, so a
 * chart of millions of slices is drawn over several tasks instead of
 * freezing the tab. */
export function drawGantt() {
  if (!app.view) return;
  const canvas = $('#gantt');
  const dpr = sizeCanvas(canvas, app.view.ganttHeight());
  const job = ++ganttJob;
  const view = app.view;
  const dark = app.dark.matches;
  const part = limits().gantt_part_segments;
  let next = view.drawGanttPart(canvas, dpr, dark, 0, part);
  const more = () => {
    if (job !== ganttJob || view !== app.view) return; // redrawn or replaced since
    next = view.drawGanttPart(canvas, dpr, dark, next, part);
    if (next >= 0) setTimeout(more, 0);
  };
  if (next >= 0) setTimeout(more, 0);
}

export function drawPlots({ histogram = true } = {}) {
  if (!app.view) return;
  const cdf = $('#cdf');
  const h = document.body.classList.contains('embed') ? 220 : 280;
  app.view.drawCdf(cdf, sizeCanvas(cdf, h), app.dark.matches);
  const hist = $('#hist');
  if (histogram && hist.offsetParent !== null) {
    app.view.drawHistogram(hist, sizeCanvas(hist, h), app.dark.matches);
  }
}

/** Moves a large result's segments into wasm memory a chunk per task,
 * then draws the Gantt again. */
export function loadSegmentsLater(view) {
  setTimeout(() => {
    if (view !== app.view) return; // a newer result replaced (and freed) it
    if (view.loadSegments()) drawGantt();
    else loadSegmentsLater(view);
  }, 0);
}

let ganttQueued = false;
function redrawGantt() {
  if (ganttQueued) return;
  ganttQueued = true;
  requestAnimationFrame(() => { ganttQueued = false; drawGantt(); });
}

export function wireGantt() {
  const canvas = $('#gantt');
  const tip = $('#tooltip');
  const pointers = new Map();
  let drag = null;
  let pinch = null;
  const width = () => canvas.clientWidth;
  const local = (e) => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };

  function hover(x, y) {
    if (!app.view) return;
    const text = app.view.hit(x, y, width());
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
    redrawGantt();
  }
  function hideTip() {
    tip.hidden = true;
    if (app.view) { app.view.clearHighlight(); redrawGantt(); }
  }

  canvas.addEventListener('wheel', (e) => {
    if (!app.view) return;
    e.preventDefault();
    const [x] = local(e);
    const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    app.view.zoom(Math.exp(-dy * 0.002), x, width());
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
    if (pinch && pointers.size === 2 && app.view) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (pinch.d > 0 && d > 0) app.view.zoom(d / pinch.d, (a[0] + b[0]) / 2, width());
      pinch.d = d;
      hideTip();
      return;
    }
    if (drag && app.view) {
      const dx = x - drag.x;
      drag.moved += Math.abs(dx);
      drag.x = x;
      if (drag.moved > 3) {
        canvas.classList.add('dragging');
        app.view.pan(dx, width());
        tip.hidden = true;
        redrawGantt();
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
  canvas.addEventListener('dblclick', () => { if (app.view) { app.view.reset(); redrawGantt(); } });
  // Keyboard: Shift+arrows move a cursor over the chart and show the
  // tooltip of the slice under it (what hovering shows a mouse user).
  let cursor = null;
  canvas.addEventListener('blur', () => { cursor = null; hideTip(); });
  canvas.addEventListener('keydown', (e) => {
    if (!app.view) return;
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
      '+': () => app.view.zoom(1.5, w / 2, w), '=': () => app.view.zoom(1.5, w / 2, w),
      '-': () => app.view.zoom(1 / 1.5, w / 2, w),
      ArrowLeft: () => app.view.pan(w / 8, w), ArrowRight: () => app.view.pan(-w / 8, w),
      '0': () => app.view.reset(), Home: () => app.view.reset(),
    };
    const f = keys[e.key];
    if (f) { e.preventDefault(); f(); hideTip(); }
  });
  $('#zoom-in').addEventListener('click', () => { if (app.view) { app.view.zoom(1.5, width() / 2, width()); hideTip(); } });
  $('#zoom-out').addEventListener('click', () => { if (app.view) { app.view.zoom(1 / 1.5, width() / 2, width()); hideTip(); } });
  $('#zoom-reset').addEventListener('click', () => { if (app.view) { app.view.reset(); hideTip(); } });
}
