// Showing one result: its Gantt and plots (keeping the zoom while only a
// value changes) and its table, in an order that keeps every task short
// and the style computed once (see show), the User Timing measures and
// the state hooks (body[data-updates], data-query).
import { limits } from './catalog.js';
import { app, setState, firstResultDrawn } from './state.js';
import { clearRunError } from './banner.js';
import { renderTable, renderStatus } from './table.js';
import { drawGantt, drawPlots, readChartWidths, showResult } from './gantt.js';
import { postHeight } from './embed.js';

export function show(result, query, workerMs, t0, received) {
  const start = performance.now();
  app.shownT0 = t0;
  const large = result.report.tasks > limits().large_result_tasks;
  const key = JSON.stringify([result.report.tasks, result.cores, result.runs.map((r) => r.policy)]);
  // Segments move into wasm memory a chunk per task (millions would block
  // the main thread); the Gantt is drawn again once all are there.
  showResult(result, { keep: key === app.viewKey, large });
  const tView = performance.now();
  app.viewKey = key;
  app.result = result;
  clearRunError();
  performance.measure('tailslice:render:view', { start, end: tView });
  void received;
  const view = app.view;
  const later = (f) => setTimeout(() => { if (view === app.view) f(); }, 0);
  const shown = (end) => {
    performance.measure('tailslice:render', { start, end });
    performance.measure('tailslice:update', { start: t0, end });
  };
  if (large) {
    // A large result: the table now, the Gantt (drawn in parts) in the
    // next task and the plots (its CDF reads ranks of millions of
    // latencies) in the one after, so that no task blocks the page for long.
    table(result, tView);
    later(() => {
      const tGantt = gantt(performance.now());
      shown(tGantt);
      firstResultDrawn();
      later(() => ready(query, workerMs, tGantt - start + plots()));
    });
    return;
  }
  // The charts before the table: a canvas's first font makes the browser
  // compute the document's style, which after a freshly written table is
  // the whole table's, inside this task; written last, the table's style
  // is computed once, with the frame's own.
  const tGantt = gantt(tView);
  if (app.updates === 0) {
    // The first update after a load: what is above the fold (the Gantt,
    // the table) now and the plots below it in the next task, so that the
    // visitor sees the result sooner and no task of the load is long.
    const tTable = table(result, tGantt);
    shown(tTable);
    firstResultDrawn();
    later(() => ready(query, workerMs, tTable - start + plots()));
    return;
  }
  plots();
  const tTable = table(result, performance.now());
  shown(tTable);
  ready(query, workerMs, tTable - start);
}

/** Writes the latency table; returns when it was done. */
function table(result, from) {
  renderTable(result);
  const end = performance.now();
  performance.measure('tailslice:draw:table', { start: from, end });
  performance.measure('tailslice:render:table', { start: from, end });
  return end;
}

/** Draws the Gantt at the charts' widths; returns when it was done. */
function gantt(from) {
  readChartWidths();
  drawGantt();
  const end = performance.now();
  performance.measure('tailslice:render:gantt', { start: from, end });
  return end;
}

/** Draws the plots (CDF, histogram); returns how long that took, ms. */
function plots() {
  const start = performance.now();
  drawPlots();
  const end = performance.now();
  performance.measure('tailslice:render:plots', { start, end });
  return end - start;
}

/** The result is all drawn: the status line and the state hooks. */
function ready(query, workerMs, drawMs) {
  app.timing = { workerMs, drawMs };
  renderStatus();
  document.body.dataset.query = query;
  app.updates++;
  document.body.dataset.updates = String(app.updates);
  setState('ready');
  if (app.page && app.page.embed) postHeight();
}
