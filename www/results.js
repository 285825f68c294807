// Showing one result: its Gantt and plots (keeping the zoom while only a
// value changes), the table first, then the charts (in the next task for a
// large result, so neither task blocks the page for long), the User Timing
// measures and the state hooks (body[data-updates], data-query).
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
  renderTable(result);
  const tTable = performance.now();
  performance.measure('tailslice:draw:table', { start: tView, end: tTable });
  // A large result: the table now, the charts in the next task, so that
  // neither task blocks the main thread for long (the Gantt itself is
  // drawn in parts). A small one is drawn at once (slider edits).
  const view = app.view;
  if (large) {
    setTimeout(() => { if (view === app.view) finishShow(query, workerMs, t0, start, tTable, true); }, 0);
  } else {
    finishShow(query, workerMs, t0, start, tTable, false);
  }
  performance.measure('tailslice:render:view', { start, end: tView });
  performance.measure('tailslice:render:table', { start: tView, end: tTable });
  void received;
}

function finishShow(query, workerMs, t0, start, tTable, large) {
  readChartWidths();
  drawGantt();
  const tGantt = performance.now();
  performance.measure('tailslice:render:gantt', { start: tTable, end: tGantt });
  // The first update after a load draws what is above the fold (the table,
  // the Gantt) in this task and the plots below it (CDF, histogram) in the
  // next: the visitor sees the result sooner and no task of the load is
  // long. A large result does the same (its CDF reads ranks of millions of
  // latencies). `tailslice:update` then ends when the table and Gantt are drawn.
  const split = app.updates === 0 || large;
  const rest = () => {
    const tPlots = performance.now();
    drawPlots();
    const end = performance.now();
    // Finer measures, for DevTools and the benchmark.
    performance.measure('tailslice:render:plots', { start: tPlots, end });
    if (!split) {
      performance.measure('tailslice:render', { start, end });
      performance.measure('tailslice:update', { start: t0, end });
    }
    app.timing = { workerMs, drawMs: (tGantt - start) + (end - tPlots) };
    renderStatus();
    document.body.dataset.query = query;
    app.updates++;
    document.body.dataset.updates = String(app.updates);
    setState('ready');
    if (app.page && app.page.embed) postHeight();
  };
  if (!split) { rest(); return; }
  performance.measure('tailslice:render', { start, end: tGantt });
  performance.measure('tailslice:update', { start: t0, end: tGantt });
  firstResultDrawn();
  const view = app.view;
  setTimeout(() => { if (view === app.view) rest(); }, 0);
}
