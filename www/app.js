// tailslice page glue. State and computation live in Rust (tailslice.js):
// parseQuery validates the URL exactly like the CLI validates flags, the
// worker runs the simulation, View draws. This file moves data between them
// and handles events. User-supplied text is only ever set via textContent.
import init, { parseQuery, View, classColor, policyColor, setLabels, browserLimits, lastPanic } from './tailslice.js';
import { t, lang, setLang, onLangChange, applyI18n, fmtNumber, langParamError, withLang } from './i18n.js';
import { lane, onFailure, workerRestarts, workersStarted, liveJobs } from './client.js';
import { initIo, importedTasks, importedTrace, tasksKey, tasksLarge } from './io.js';
import { initTrace } from './trace.js';
import { initSweep, redrawSweeps } from './sweep.js';
import { mountScenario } from './scenario.js';
import { initRealRun } from './realrun.js';

const $ = (sel) => document.querySelector(sel);
const POLICIES = ['fifo', 'rr', 'sjf', 'srpt', 'mlfq'];
const POLICY_TITLES = { fifo: 'FIFO', rr: 'RR', sjf: 'SJF', srpt: 'SRPT', mlfq: 'MLFQ' };
const MAX_POLICIES_UI = 4;
const MAX_CLASSES = 16;
const METRICS = ['mean', 'p50', 'p90', 'p95', 'p99', 'max', 'done_within'];
// Thresholds (inline / large / Gantt), from Rust's browserLimits() once the
// wasm is loaded: large runs get progress and are cancelled by the next edit.
let LIMITS = null;
/** Label keys of PRESETS, in order (www/strings/page.js). */
const PRESET_KEYS = ['preset.study', 'preset.four', 'preset.switch', 'preset.poisson', 'preset.pareto', 'preset.large'];
const PRESETS = [
  ['', 'The study: 400 tasks, FIFO vs RR 16 ms'],
  ['p=fifo,rr,sjf,srpt', 'The study, four policies'],
  ['q=4&cs=0.5', 'The study with 0.5 ms switch cost, 4 ms quantum'],
  ['n=2000&arrivals=poisson:0.9&p=fifo,rr,srpt,mlfq&cores=4', '2 000 tasks on 4 cores, Poisson arrivals at 90 % load'],
  ['mix=1:pareto(2,1.5)&p=fifo,rr,srpt', 'Heavy tail: Pareto durations'],
  ['n=200000&q=8', '200 000 tasks (runs in the background, with progress)'],
];

const app = {
  page: null,        // parseQuery() of the current state
  view: null,        // View of the last result
  viewKey: '',       // experiment shape of the shown view (keeps zoom while tuning)
  workloadKey: '',   // workload of the shown view (the histogram only changes with it)
  result: null,
  updates: 0,
  longTasks: 0,
  longestTask: 0,    // ms, the longest main-thread task seen (Long Tasks API)
  longTaskLog: [],   // [startTime, duration] of the first 200 long tasks
  panicked: false,   // the main thread's wasm instance panicked
  urlErrors: [],     // bad URL values, shown in #error until the page is reloaded
  runError: false,   // #error currently shows a failed run
  dark: matchMedia('(prefers-color-scheme: dark)'),
};
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
  crashWorker() { send(app.page.experiment, false, { job: 'panic' }); },
  get query() { return app.page ? app.page.query : null; },
  /** Slices (segments) of the drawn schedules, all policies. */
  get segments() { return app.result ? app.result.runs.reduce((n, r) => n + r.seg_start.length, 0) : 0; },
};

function fmt(v) { return Number(v).toFixed(1); }
function policyTitle(p) { return p === 'recorded' ? t('policy.recorded') : POLICY_TITLES[p] || p; }
function fmtChange(pct) {
  if (pct === null || pct === undefined || !Number.isFinite(pct)) return null;
  if (Math.abs(pct) < 0.05) return '±0 %';
  const a = Math.abs(pct);
  const s = a >= 9.95 ? a.toFixed(0) : a.toFixed(1);
  return (pct < 0 ? '−' : '+') + s + ' %';
}
function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// ---------------------------------------------------------------- errors

function showBanner(errors) {
  const box = $('#error');
  box.replaceChildren();
  if (!errors.length) { box.hidden = true; return; }
  box.append(el('p', { text: errors.length === 1 ? t('banner.one') : t('banner.many', { n: errors.length }) }));
  const ul = el('ul');
  // Each refusal says which value is in effect instead (the default, or a
  // repeated key's first value): the page's values, not a guess.
  for (const e of errors) ul.append(el('li', { text: e.used === undefined ? e.message : `${e.message} ${t('banner.used', { key: e.field, value: e.used })}` }));
  box.append(ul);
  box.hidden = false;
}
function showRunError(message, { reload = false } = {}) {
  app.runError = true;
  const box = $('#error');
  box.replaceChildren(el('p', { text: message }));
  if (reload) {
    const btn = el('button', { type: 'button', id: 'reload', text: t('banner.reload') });
    btn.addEventListener('click', () => location.reload());
    box.append(btn);
  }
  box.hidden = false;
}

/** A panic on the main thread leaves this wasm instance unusable: say what
 * happened (the panic's own message) and offer a reload, which keeps the
 * experiment (it is in the URL). */
function onMainThreadError() {
  const panic = lastPanic();
  if (!panic || app.panicked) return;
  app.panicked = true;
  showRunError(t('banner.panic', { message: panic }), { reload: true });
  setState('error');
}

// ---------------------------------------------------------------- controls

const FIELDS = { seed: '#seed', n: '#tasks', q: '#quantum', cores: '#cores', cs: '#cs', within: '#within', rng: '#rng', arrivals: '#arrivals' };
let policyOrder = [];

function buildStaticControls() {
  const preset = $('#preset');
  PRESETS.forEach(([q], i) => preset.append(el('option', { value: q, text: t(PRESET_KEYS[i]) })));
  preset.append(el('option', { value: '__custom', text: t('preset.custom'), disabled: true }));
  const boxes = $('#policy-boxes');
  POLICIES.forEach((p) => {
    const id = `policy-${p}`;
    const input = el('input', { type: 'checkbox', id, value: p, name: 'policy' });
    boxes.append(el('label', { htmlFor: id }, input, el('span', { className: 'swatch' }), POLICY_TITLES[p]));
  });
}

function mixRow(row, index, count) {
  const div = el('div', { className: row.lo === null ? 'mix-row custom' : 'mix-row' });
  const n = index + 1;
  const w = el('input', { type: 'number', min: '0', step: 'any', value: String(row.weight), className: 'mix-w', inputMode: 'decimal', 'aria-label': t('mix.weight', { n }) });
  div.append(w);
  if (row.lo === null) {
    div.append(el('input', { type: 'text', value: row.dist, className: 'mix-d', spellcheck: false, 'aria-label': t('mix.dist', { n }) }));
  } else {
    div.append(el('input', { type: 'number', min: '0', step: 'any', value: String(row.lo), className: 'mix-lo', inputMode: 'decimal', 'aria-label': t('mix.lo', { n }) }));
    div.append(el('input', { type: 'number', min: '0', step: 'any', value: String(row.hi), className: 'mix-hi', inputMode: 'decimal', 'aria-label': t('mix.hi', { n }) }));
  }
  const rm = el('button', { type: 'button', className: 'mix-rm', text: '×', disabled: count <= 1, 'aria-label': t('mix.remove', { n }) });
  div.append(rm);
  return div;
}

function renderMix(rows) {
  const box = $('#mix-rows');
  box.replaceChildren(...rows.map((r, i) => mixRow(r, i, rows.length)));
  $('#mix-add').disabled = rows.length >= MAX_CLASSES;
}

function mixText() {
  return [...document.querySelectorAll('#mix-rows .mix-row')].map((div) => {
    const w = div.querySelector('.mix-w').value.trim();
    const d = div.querySelector('.mix-d');
    if (d) return `${w}:${d.value.trim()}`;
    return `${w}:${div.querySelector('.mix-lo').value.trim()}-${div.querySelector('.mix-hi').value.trim()}`;
  }).join(',');
}

function fillControls(page) {
  const v = page.values;
  for (const [key, sel] of Object.entries(FIELDS)) {
    const input = $(sel);
    if (document.activeElement !== input || input.value === '') input.value = v[key];
    input.removeAttribute('aria-invalid');
  }
  $('#quantum-slider').value = String(Math.min(200, Math.max(1, Math.round(Number(v.q)))));
  policyOrder = [...page.policies];
  syncPolicyBoxes();
  renderMix(page.mix);
  const preset = $('#preset');
  const match = PRESETS.find(([q]) => q === page.experiment || parseQuery(q).experiment === page.experiment);
  preset.value = match ? match[0] : '__custom';
  describePreset();
  $('#within-head').textContent = t('col.within', { ms: v.within });
}

/** The chosen preset's whole name (a narrow select cuts it off). */
function describePreset() {
  const opt = $('#preset').selectedOptions[0];
  $('#preset').title = opt ? opt.textContent : '';
}

function syncPolicyBoxes() {
  const full = policyOrder.length >= MAX_POLICIES_UI;
  for (const p of POLICIES) {
    const box = $(`#policy-${p}`);
    box.checked = policyOrder.includes(p);
    box.disabled = !box.checked && full;
    const i = policyOrder.indexOf(p);
    const sw = box.parentElement.querySelector('.swatch');
    // Only a compared policy has a colour; an unchecked one shows just its
    // checkbox (a hollow swatch beside it read as a second box).
    sw.style.background = i >= 0 ? policyColor(i) : 'transparent';
    sw.style.visibility = i >= 0 ? 'visible' : 'hidden';
  }
}

/** The query the controls describe (serialisation only: Rust validates). */
function controlsQuery() {
  const p = new URLSearchParams();
  for (const [key, sel] of Object.entries(FIELDS)) p.set(key, $(sel).value.trim());
  p.set('mix', mixText());
  p.set('p', policyOrder.join(','));
  // Settings without a control keep their current value.
  for (const key of ['mlfq_levels', 'mlfq_boost']) p.set(key, app.page.values[key]);
  // The real run's settings (www/realrun.js) ride along unchanged.
  for (const [key, v] of Object.entries(app.page.real_values || {})) p.set(key, v);
  if (app.page.embed) p.set('embed', '1');
  return p.toString();
}

let editQueued = false;
function onEdit() {
  if (editQueued) return;
  editQueued = true;
  requestAnimationFrame(() => { editQueued = false; applyEdit(); });
}

function applyEdit() {
  const page = parseQuery(controlsQuery());
  const formError = $('#form-error');
  for (const sel of Object.values(FIELDS)) $(sel).removeAttribute('aria-invalid');
  if (page.errors.length) {
    for (const e of page.errors) {
      const sel = FIELDS[e.field];
      if (sel) $(sel).setAttribute('aria-invalid', 'true');
    }
    formError.textContent = page.errors.map((e) => e.message).join('\n');
    formError.hidden = false;
    return;
  }
  formError.hidden = true;
  formError.textContent = '';
  setPage(page, { fill: false });
}

function setPage(page, { fill }) {
  app.page = page;
  if (fill) {
    fillControls(page);
    $('#form-error').hidden = true;
  }
  else {
    $('#within-head').textContent = t('col.within', { ms: page.values.within });
    const match = PRESETS.find(([q]) => parseQuery(q).experiment === page.experiment);
    $('#preset').value = match ? match[0] : '__custom';
    describePreset();
  }
  const q = withLang(page.query);
  const url = location.pathname + (q ? `?${q}` : '') + location.hash;
  history.replaceState(null, '', url);
  const full = $('#open-full');
  // The full page keeps a language the visitor chose (lang=), like the embed snippet.
  const fullQuery = withLang(page.experiment ? `v=1&${page.experiment}` : '');
  full.href = location.pathname + (fullQuery ? `?${fullQuery}` : '');
  $('#embed-snippet').hidden = true;
  request(page.experiment, page.estimated_slices > LIMITS.large_slices || tasksLarge(), page.estimated_slices);
}

function wireControls() {
  const form = $('#controls');
  form.addEventListener('submit', (e) => e.preventDefault());
  for (const sel of Object.values(FIELDS)) $(sel).addEventListener('input', onEdit);
  $('#rng').addEventListener('change', onEdit);
  $('#quantum-slider').addEventListener('input', () => {
    $('#quantum').value = $('#quantum-slider').value;
    onEdit();
  });
  $('#quantum').addEventListener('input', () => {
    const q = Number($('#quantum').value);
    if (Number.isFinite(q) && q > 0) $('#quantum-slider').value = String(Math.min(200, Math.max(1, Math.round(q))));
  });
  $('#new-seed').addEventListener('click', () => {
    const a = new Uint32Array(1);
    crypto.getRandomValues(a);
    $('#seed').value = String(a[0]);
    onEdit();
  });
  $('#policy-boxes').addEventListener('change', (e) => {
    const p = e.target.value;
    if (e.target.checked) { if (!policyOrder.includes(p)) policyOrder.push(p); }
    else policyOrder = policyOrder.filter((x) => x !== p);
    if (policyOrder.length === 0) { policyOrder = [p]; }
    syncPolicyBoxes();
    onEdit();
  });
  $('#mix-rows').addEventListener('input', onEdit);
  $('#mix-rows').addEventListener('click', (e) => {
    const rm = e.target.closest('.mix-rm');
    if (!rm) return;
    rm.closest('.mix-row').remove();
    const rows = document.querySelectorAll('#mix-rows .mix-row');
    rows.forEach((r, i) => { r.querySelector('.mix-rm').disabled = rows.length <= 1; void i; });
    $('#mix-add').disabled = rows.length >= MAX_CLASSES;
    onEdit();
  });
  $('#mix-add').addEventListener('click', () => {
    const rows = document.querySelectorAll('#mix-rows .mix-row').length;
    if (rows >= MAX_CLASSES) return;
    $('#mix-rows').append(mixRow({ weight: 1, lo: 10, hi: 20, dist: '10-20' }, rows, rows + 1));
    document.querySelectorAll('#mix-rows .mix-rm').forEach((b) => { b.disabled = false; });
    $('#mix-add').disabled = rows + 1 >= MAX_CLASSES;
    onEdit();
  });
  $('#preset').addEventListener('change', () => {
    const q = $('#preset').value;
    if (q === '__custom') return;
    setPage(parseQuery(q + (app.page.embed ? '&embed=1' : '')), { fill: true });
  });
  $('#reset').addEventListener('click', () => setPage(parseQuery(''), { fill: true }));
  $('#share').addEventListener('click', () => copy(location.href, t('copied.link')));
  $('#embed-code').addEventListener('click', () => {
    const src = new URL(location.pathname, location.href);
    src.search = `?${withLang(app.page.experiment ? `v=1&${app.page.experiment}&embed=1` : 'v=1&embed=1')}`;
    const snippet = `<iframe src="${src.href}" title="tailslice: scheduler playground" width="100%" height="760" style="border:0" loading="lazy"></iframe>`;
    const box = $('#embed-snippet');
    box.value = snippet;
    box.hidden = false;
    copy(snippet, t('copied.embed'));
  });
}

async function copy(text, done) {
  const status = $('#copy-status');
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = done;
  } catch {
    status.textContent = t('copy.this');
    const box = $('#embed-snippet');
    box.value = text;
    box.hidden = false;
    box.select();
  }
  setTimeout(() => { status.textContent = ''; }, 2500);
}

// ---------------------------------------------------------------- worker

// The run lane of the page's one worker client (www/client.js): only the
// newest edit's run matters; small runs are computed inline through it.
const runs = lane();

function showProgress() {
  $('#progress').hidden = false;
  $('#progress').removeAttribute('value');
  $('#status-text').textContent = t('status.simulating');
}

function onRunProgress(p) {
  if (p.sized) {
    // The drawn workload's true size: a large run is cancelled by the next
    // edit rather than waited for (the client marks it long).
    if (p.large) showProgress();
    return;
  }
  const bar = $('#progress');
  bar.hidden = false;
  bar.max = p.total;
  bar.value = p.done;
  $('#status-text').textContent = t('status.step', { label: p.label, step: p.done + 1, total: p.total });
}

function request(query, large, slices) {
  const inline = !large && slices <= LIMITS.inline_max_slices && !importedTasks();
  send(query, large, { inline: inline ? { maxSlices: LIMITS.inline_max_slices } : null });
}

function send(query, large, opts = {}) {
  const t0 = performance.now();
  const args = { query, large, tasks: importedTasks(), starts: importedTrace() };
  if (!opts.inline) {
    setState('running');
    if (large) showProgress();
  }
  const job = runs.request(opts.job || 'run', opts.job ? {} : args, {
    inline: opts.inline, onProgress: onRunProgress, retry: opts.job ? { job: 'run', args } : null, replace: !!opts.job,
  });
  // A run the client moved from inline to the worker is "running" now.
  if (opts.inline && !job.inline) setState('running');
  job.done.then((out) => onRunDone(out, query, t0));
}

function onRunDone(out, query, t0) {
  if (out.status === 'cancelled') return;
  const received = performance.now();
  if (!runs.busy) $('#progress').hidden = true;
  if (out.status === 'error') {
    // A worker that failed twice: the client's failure hook has shown the
    // banner with Reload.
    if (!out.fatal) showRunError(out.message);
    setState('error');
    return;
  }
  performance.measure('tailslice:simulate', { start: t0, end: received });
  show(out.value, query, out.ms, t0, received);
}

/** The worker failed: it has been replaced; say so (the client retries once). */
function onWorkerFailure({ message, retrying }) {
  if (retrying) {
    showRunError(t('banner.worker.retry', { message }));
    return;
  }
  showRunError(t('banner.worker.failed', { message }), { reload: true });
  setState('error');
}

function setState(s) {
  // "ready" only when nothing newer is queued or running.
  document.body.dataset.state = (s === 'ready' && runs.busy) ? 'running' : s;
}

// ---------------------------------------------------------------- results

function show(result, query, workerMs, t0, received) {
  const start = performance.now();
  app.shownT0 = t0;
  const key = JSON.stringify([result.report.tasks, result.cores, result.runs.map((r) => r.policy)]);
  const old = app.view;
  app.view = new View(result);
  // Segments move into wasm memory a chunk per task (millions would block
  // the main thread); the Gantt is drawn again once all are there.
  if (result.report.tasks > LARGE_RESULT_TASKS || !app.view.loadSegments()) loadSegmentsLater(app.view);
  const tView = performance.now();
  if (old) {
    if (key === app.viewKey && (old.t0 > 0 || old.t1 < old.horizon() * 0.999)) app.view.setWindow(old.t0, old.t1);
    old.free();
  }
  app.viewKey = key;
  app.result = result;
  if (app.runError) { app.runError = false; showBanner(app.urlErrors); }
  renderTable(result);
  const values = parseQuery(query).values;
  const workload = JSON.stringify(['seed', 'n', 'mix', 'rng', 'arrivals', 'cores'].map((k) => values[k]).concat(tasksKey()));
  const newWorkload = workload !== app.workloadKey;
  app.workloadKey = workload;
  if (newWorkload) renderLegend(result);
  const tTable = performance.now();
  // A large result: the table now, the charts in the next task, so that
  // neither task blocks the main thread for long (the Gantt itself is
  // drawn in parts). A small one is drawn at once (slider edits).
  const view = app.view;
  if (result.report.tasks > LARGE_RESULT_TASKS) {
    setTimeout(() => { if (view === app.view) finishShow(result, query, workerMs, t0, start, tTable, newWorkload); }, 0);
  } else {
    finishShow(result, query, workerMs, t0, start, tTable, newWorkload);
  }
  performance.measure('tailslice:render:view', { start, end: tView });
  performance.measure('tailslice:render:table', { start: tView, end: tTable });
  void received;
}

/** Results with more tasks than this are shown in two tasks (see show). */
const LARGE_RESULT_TASKS = 50000;

function finishShow(result, query, workerMs, t0, start, tTable, newWorkload) {
  drawGantt();
  const tGantt = performance.now();
  performance.measure('tailslice:render:gantt', { start: tTable, end: tGantt });
  // The first update after a load draws what is above the fold (the table,
  // the Gantt) in this task and the plots below it (CDF, histogram) in the
  // next: the visitor sees the result sooner and no task of the load is
  // long. `tailslice:update` then ends when the table and Gantt are drawn.
  const split = app.updates === 0;
  const rest = () => {
    const tPlots = performance.now();
    drawPlots({ histogram: newWorkload });
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
  const view = app.view;
  setTimeout(() => { if (view === app.view) rest(); }, 0);
}

function loadSegmentsLater(view) {
  setTimeout(() => {
    if (view !== app.view) return; // a newer result replaced (and freed) it
    if (view.loadSegments()) drawGantt();
    else loadSegmentsLater(view);
  }, 0);
}

function renderTable(result) {
  const tbody = $('#percentiles tbody');
  const rows = result.rows;
  const frag = document.createDocumentFragment();
  // A trace's "as recorded" row comes first; the policies keep their colours.
  const shift = rows.length && rows[0].policy === 'recorded' ? 1 : 0;
  rows.forEach((row, i) => {
    const tr = el('tr', { dataset: { policy: row.policy } });
    const th = el('th', { scope: 'row' });
    const sw = el('span', { className: 'swatch' });
    sw.style.background = i < shift ? 'transparent' : policyColor(i - shift);
    if (i < shift) sw.style.border = '1px solid currentColor';
    th.append(sw, policyTitle(row.policy));
    if (row.policy === 'rr' || row.policy === 'mlfq') th.append(el('span', { className: 'hint', text: ` ${result.quantum} ms` }));
    tr.append(th);
    for (const m of METRICS) {
      const v = row[m];
      const td = el('td', { dataset: { metric: m }, text: m === 'done_within' ? String(v) : fmt(v) });
      const ch = row.change ? fmtChange(row.change[m]) : null;
      if (ch) {
        td.dataset.change = ch;
        const pct = row.change[m];
        const better = m === 'done_within' ? pct > 0 : pct < 0;
        td.className = Math.abs(pct) < 0.05 ? 'same' : better ? 'better' : 'worse';
        td.title = t('versus', { change: ch, base: policyTitle(rows[0].policy) });
      }
      tr.append(td);
    }
    frag.append(tr);
  });
  tbody.replaceChildren(frag);
  $('#reading').textContent = reading(rows);
  // The generated reading (explain::explain), in the page's language.
  $('#explanation').textContent = result.explain ? result.explain[lang()] || result.explain.en : '';
}

function renderStatus() {
  if (!app.result || !app.timing) return;
  const r = app.result.report;
  $('#status-text').textContent = t('status.done', {
    tasks: fmtNumber(r.tasks, 0), work: fmtNumber(r.total_work_ms, 1),
    sim: fmtNumber(app.timing.workerMs, 1), draw: fmtNumber(app.timing.drawMs, 1),
  });
}

/** One sentence per compared policy, the study's reading included. */
function reading(rows) {
  if (rows.length < 2) return '';
  const base = policyTitle(rows[0].policy);
  return rows.slice(1).map((row) => {
    const c = row.change || {};
    const name = policyTitle(row.policy);
    const parts = ['mean', 'p50', 'p95'].map((m) => `${t(`col.${m}`)} ${fmtChange(c[m]) ?? t('reading.na')}`);
    const maxSame = c.max !== null && c.max !== undefined && Math.abs(c.max) < 0.05;
    const tail = maxSame ? t('reading.same') : t('reading.max', { change: fmtChange(c.max) ?? t('reading.na') });
    return t('reading.vs', { name, base, parts: parts.join(lang() === 'zh' ? '，' : ', '), tail });
  }).join(' ');
}

function renderLegend(result) {
  const box = $('#legend');
  box.replaceChildren();
  const longIdx = app.view.longClass;
  result.classes.forEach((label, i) => {
    const sw = el('span', { className: i === longIdx ? 'swatch long' : 'swatch' });
    sw.style.background = classColor(i);
    box.append(el('span', {}, sw, `${label}${tasksKey() ? '' : ' ms'}${i === longIdx ? t('legend.long') : ''}`));
  });
}

// ---------------------------------------------------------------- drawing

function sizeCanvas(canvas, cssHeight) {
  const dpr = window.devicePixelRatio || 1;
  const cssWidth = canvas.parentElement.clientWidth || canvas.clientWidth || 600;
  canvas.style.height = `${cssHeight}px`;
  const w = Math.max(1, Math.round(cssWidth * dpr));
  const h = Math.max(1, Math.round(cssHeight * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  return { dpr: w / cssWidth, cssWidth };
}

/** Segments visited per drawing task: a few ms, so a chart of millions of
 * slices is drawn over several tasks instead of freezing the tab. */
const GANTT_PART = 150000;
let ganttJob = 0;
function drawGantt() {
  if (!app.view) return;
  const canvas = $('#gantt');
  const { dpr } = sizeCanvas(canvas, app.view.ganttHeight());
  const job = ++ganttJob;
  const view = app.view;
  const dark = app.dark.matches;
  let next = view.drawGanttPart(canvas, dpr, dark, 0, GANTT_PART);
  const more = () => {
    if (job !== ganttJob || view !== app.view) return; // redrawn or replaced since
    next = view.drawGanttPart(canvas, dpr, dark, next, GANTT_PART);
    if (next >= 0) setTimeout(more, 0);
  };
  if (next >= 0) setTimeout(more, 0);
}

function drawPlots({ histogram = true } = {}) {
  if (!app.view) return;
  const cdf = $('#cdf');
  const h = document.body.classList.contains('embed') ? 220 : 280;
  let s = sizeCanvas(cdf, h);
  app.view.drawCdf(cdf, s.dpr, app.dark.matches);
  const hist = $('#hist');
  if (histogram && hist.offsetParent !== null) {
    s = sizeCanvas(hist, h);
    app.view.drawHistogram(hist, s.dpr, app.dark.matches);
  }
}

let ganttQueued = false;
function redrawGantt() {
  if (ganttQueued) return;
  ganttQueued = true;
  requestAnimationFrame(() => { ganttQueued = false; drawGantt(); });
}

function wireGantt() {
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

// ---------------------------------------------------------------- language

const CANVAS_WORDS = ['cdf_x', 'cdf_y', 'hist_x', 'hist_x_cut', 'hist_y', 'gantt_cores', 'gantt_too_many', 'tip', 'tip_long', 'slice_one', 'slice_many'];
/** Words the wasm draws on the canvases (and the Gantt tooltip), in the page's language. */
function pushCanvasWords() {
  setLabels(Object.fromEntries(CANVAS_WORDS.map((k) => [k, t(`canvas.${k}`)])));
}

/** Redraws every text the page made itself after a language switch. */
function relabel() {
  pushCanvasWords();
  drawGantt();
  drawPlots();
  $('#lang').value = lang();
  const opts = $('#preset').options;
  PRESET_KEYS.forEach((k, i) => { if (opts[i]) opts[i].textContent = t(k); });
  if (opts[PRESET_KEYS.length]) opts[PRESET_KEYS.length].textContent = t('preset.custom');
  if (app.page) {
    $('#within-head').textContent = t('col.within', { ms: app.page.values.within });
    const q = withLang(app.page.query);
    history.replaceState(null, '', location.pathname + (q ? `?${q}` : '') + location.hash);
  }
  document.querySelectorAll('#mix-rows .mix-row').forEach((row, i) => {
    const n = i + 1;
    for (const [sel, key] of [['.mix-w', 'mix.weight'], ['.mix-d', 'mix.dist'], ['.mix-lo', 'mix.lo'], ['.mix-hi', 'mix.hi'], ['.mix-rm', 'mix.remove']]) {
      const e = row.querySelector(sel);
      if (e) e.setAttribute('aria-label', t(key, { n }));
    }
  });
  if (!app.runError) showBanner(app.urlErrors);
  if (app.result) {
    renderTable(app.result);
    renderLegend(app.result);
    renderStatus();
  }
}

// ---------------------------------------------------------------- embed

let lastHeight = 0;
function postHeight() {
  const height = Math.ceil(document.documentElement.scrollHeight);
  if (height === lastHeight) return;
  lastHeight = height;
  // Hosts size the iframe from this; any origin may embed the page.
  window.parent.postMessage({ type: 'tailslice:height', height }, '*');
}

// ---------------------------------------------------------------- start

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
  onFailure(onWorkerFailure);
  await init({ module_or_path: new URL('./tailslice_bg.wasm', import.meta.url) });
  LIMITS = browserLimits();
  applyI18n(document);
  pushCanvasWords();
  $('#lang').value = lang();
  $('#lang').addEventListener('change', () => setLang($('#lang').value));
  onLangChange(relabel);
  buildStaticControls();
  wireControls();
  wireGantt();
  const page = parseQuery(location.search);
  if (page.embed) {
    document.body.classList.add('embed');
    $('#open-full').hidden = false;
    new ResizeObserver(postHeight).observe(document.documentElement);
  }
  // Apple QoS scenarios (s=<name> and its knobs): www/scenario.js.
  const scenario = mountScenario({
    embed: page.embed, showRunError, postHeight,
    restoreNormal: () => { showBanner(app.urlErrors); setPage(app.page, { fill: true }); },
  });
  const badLang = langParamError();
  if (badLang) page.errors.push(badLang);
  for (const e of page.errors) if (e.field in page.values) e.used = page.values[e.field];
  app.urlErrors = page.errors.concat(scenario.errors);
  showBanner(app.urlErrors);
  setPage(page, { fill: true });
  scenario.start();
  // Your own tasks and exports (www/io.js), sweeps (www/sweep.js).
  const context = {
    query: () => app.page.experiment,
    page: () => app.page,
    tasks: () => importedTasks(),
    dark: () => app.dark.matches,
    rerun: () => setPage(app.page, { fill: false }),
    setQuery: (q, ui) => {
      // The file's language only if it differs (so the URL gains no lang= for nothing).
      if (ui && ui.lang && ui.lang !== lang()) setLang(ui.lang);
      setPage(parseQuery(q + (app.page.embed ? '&embed=1' : '')), { fill: true });
    },
  };
  initIo(context);
  initTrace();
  initSweep(context);
  initRealRun(context);

  let resizeQueued = false;
  new ResizeObserver(() => {
    if (resizeQueued) return;
    resizeQueued = true;
    requestAnimationFrame(() => { resizeQueued = false; drawGantt(); drawPlots(); });
  }).observe($('.results'));
  app.dark.addEventListener('change', () => { drawGantt(); drawPlots(); redrawSweeps(); });
}

main().catch((err) => {
  showRunError(t('banner.start', { message: err && err.message ? err.message : err }));
  setState('error');
});
