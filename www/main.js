// tailslice page start-up and routing. State and computation live in Rust
// (tailslice.js): parseQuery validates the URL exactly like the CLI
// validates flags, catalog() says what the controls are, the worker runs
// the simulation, Gantt and View draw. This file loads the wasm, builds the page
// from the catalog, routes a query to the controls, the URL and a run,
// and publishes the test hooks (window.tailslice). The other files each
// have one job: see docs/page-internals.md.
import init, { parseQuery, parseScenarioQuery, scenarioCatalog, langOf } from './tailslice.js';
import { t, lang, setLang, startLang, onLangChange, applyI18n } from './i18n.js';
import { $, observeWidths } from './dom.js';
import { loadCatalog, catalog, limits } from './catalog.js';
import { app, setState, firstResult, whileLoading } from './state.js';
import { showBanner, showRunError, onMainThreadError } from './banner.js';
import { initControls, fillControls, matchPreset, syncInert } from './controls.js';
import { writeUrl } from './url.js';
import { request, crashWorker, onWorkerFailure } from './worker-calls.js';
import { onFailure, workerRestarts, workersStarted, liveJobs } from './client.js';
import { renderHead } from './table.js';
import { chartBoxes, chartWidthsChanged, drawGantt, drawPlots, readChartWidths, wireGantt } from './gantt.js';
import { wireSharing, startEmbed, postHeight } from './embed.js';
import { setTheme } from './theme.js';
import { relabel, pushChartLang } from './relabel.js';
import { initPanel } from './panel.js';
import { initIo, importedTasks, importedCount, tasksLarge } from './io.js';
import { mountScenario } from './scenario.js';

// A read-only window for tests and the benchmark.
window.tailslice = {
  get updates() { return app.updates; },
  get longTasks() { return app.longTasks; },
  get longestTask() { return app.longestTask; },
  /** The longest main-thread task (ms) that started at or after `t` (a performance.now() time). */
  longestTaskSince(t) { return app.longTaskLog.filter(([s]) => s >= t).reduce((m, [, d]) => Math.max(m, d), 0); },
  /** When the shown result was requested (performance.now() time). */
  get requestedAt() { return app.shownT0; },
  get longTaskLog() { return app.longTaskLog; },
  /** Shows the experiment of a query string as if its link were opened,
   * without reloading (tests measure a warm page with it). */
  load(query) { setPage(parseQuery(query), { fill: true }); },
  get workerRestarts() { return workerRestarts(); },
  get workersStarted() { return workersStarted(); },
  /** Jobs sent to the worker and not yet answered. */
  get workerJobs() { return liveJobs(); },
  /** Makes the simulation worker's wasm panic (the recovery path's test hook). */
  crashWorker,
  get query() { return app.page ? app.page.query : null; },
  /** Every key the page reads, as Rust lists them: the experiment's and
   * the page's (catalog), the scenarios' (scenarioCatalog), and the
   * defaults of an empty query (parseQuery('')). */
  keyTables() { return { catalog: catalog(), scenarios: scenarioCatalog(), empty: parseQuery('') }; },
  /** The shown result's figures: the object `tailslice simulate --json` prints. */
  get report() { return app.result ? app.result.report : null; },
  /** Policies of the shown result that a helper of the worker ran (a large
   * run's policies side by side). */
  get parts() { return app.result ? app.result.parts : 0; },
  /** Slices (segments) of the drawn schedules, all policies. */
  get segments() { return app.gantt ? app.gantt.segments : 0; },
};

/** Shows `page`: its values in the controls (`fill`), its query in the
 * address bar, and its run. */
function setPage(page, { fill }) {
  if (fill) {
    fillForm(page);
  } else {
    renderHead(page.values.within);
    matchPreset(page);
    syncInert(page);
  }
  run(page);
}

/** Puts `page`'s values in the controls, clearing an earlier refusal. */
function fillForm(page) {
  fillControls(page);
  $('#form-error').hidden = true;
}

/** Runs `page` and puts its query in the address bar (the controls as
 * they are). */
function run(page) {
  app.page = page;
  writeUrl(page);
  $('#share-link').hidden = true;
  request(page.experiment, page.estimated_slices > limits().large_slices || tasksLarge(), page.estimated_slices, page.inline);
}

/** Resolves after the browser has painted the frame it is building: a
 * frame's callbacks run before its paint, a task queued from one after. */
function afterPaint() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

addEventListener('error', onMainThreadError);
addEventListener('unhandledrejection', onMainThreadError);

async function main() {
  if ('PerformanceObserver' in window && PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        app.longTasks++;
        app.longestTask = Math.max(app.longestTask, e.duration);
        if (app.longTaskLog.length < 200) app.longTaskLog.push([e.startTime, e.duration]);
      }
    }).observe({ type: 'longtask', buffered: true });
  }
  // The worker starts on first need (its wasm is not in the first download).
  onFailure(onWorkerFailure);
  // The charts' widths arrive from the browser's layout while the wasm loads.
  observeWidths(chartBoxes());
  await init({ module_or_path: new URL('./tailslice_bg.wasm', import.meta.url) });
  loadCatalog();
  // The link as opened (the first run writes the page's own query over it).
  const opened = location.search;
  const page = parseQuery(opened);
  startLang(page.lang, langOf(navigator.language));
  applyI18n(document);
  pushChartLang();
  $('#lang').value = lang();
  $('#lang').addEventListener('change', () => setLang($('#lang').value));
  onLangChange(relabel);
  renderHead(page.values.within);
  wireGantt();
  setTheme(page.theme);
  if (page.embed) startEmbed(page);
  // A link's result comes first: its run, table and Gantt in this task (a
  // run small enough to compute here), and the settings, the scenarios and
  // the panels once that frame is painted (building them is as long again
  // as the run); a run in the worker goes on meanwhile. A scenario's link
  // and an embed build everything first, as the result they show needs it.
  const scenarioQuery = parseScenarioQuery(opened);
  const first = !page.embed && !scenarioQuery.scenario;
  if (first) run(page);
  const setUp = () => {
    const start = performance.now();
    initControls({ setPage });
    initPanel();
    wireSharing();
    // Apple QoS scenarios (s=<name> and its knobs): www/scenario.js.
    const scenario = mountScenario({
      parsed: scenarioQuery, embed: page.embed, viewQuery: page.view_query, showRunError, postHeight,
      restoreNormal: () => { showBanner(app.urlErrors); setPage(app.page, { fill: true }); },
    });
    app.urlErrors = page.errors.concat(scenario.errors);
    showBanner(app.urlErrors);
    // What the first run did not need: the controls' values (a newer
    // page's, if a test or the visitor already asked for one).
    if (first) fillForm(app.page);
    else setPage(page, { fill: true });
    scenario.start();
    // Your own tasks and exports (www/io.js), sweeps (www/sweep.js).
    initIo(context);
    // The panels' code loads after the first result (www/panels.js).
    if (!page.embed) {
      document.body.dataset.panels = 'loading';
      whileLoading(firstResult.then(() => import('./panels.js')).then((m) => {
        m.initPanels(context);
        panels = m;
        document.body.dataset.panels = 'ready';
      }));
    }
    performance.measure('tailslice:settings', { start, end: performance.now() });
  };
  const context = {
    query: () => app.page.experiment,
    page: () => app.page,
    tasks: () => importedTasks(),
    taskCount: () => importedCount(),
    dark: () => app.dark.matches,
    rerun: () => setPage(app.page, { fill: false }),
    setQuery: (q, ui) => {
      // The file's language only if it differs (so the URL gains no lang= for nothing).
      if (ui && ui.lang && ui.lang !== lang()) setLang(ui.lang);
      setPage(parseQuery(q + (app.page.view_query ? `&${app.page.view_query}` : '')), { fill: true });
    },
  };
  let panels = null;
  // "ready" waits for the settings (setState, whileLoading).
  if (first) whileLoading(afterPaint().then(setUp));
  else setUp();

  let resizeQueued = false;
  new ResizeObserver(() => {
    if (resizeQueued) return;
    resizeQueued = true;
    requestAnimationFrame(() => {
      resizeQueued = false;
      if (!chartWidthsChanged()) return;
      readChartWidths();
      drawGantt();
      drawPlots();
    });
  }).observe($('.results'));
  app.dark.addEventListener('change', () => { drawGantt(); drawPlots(); if (panels) panels.redrawSweeps(); });
}

main().catch((err) => {
  showRunError(t('banner.start', { message: err && err.message ? err.message : err }));
  setState('error');
});
