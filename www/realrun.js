// The "Run for real" panel (issue 12): runs the current experiment's tasks
// on this page's main thread, FIFO and sliced, and shows what was measured
// beside what was simulated. Rust plans the run (RealRunPlan: the scaled
// tasks and the model's own slice order), validates the settings (the
// real_* URL keys), computes every figure from the raw clocks and writes
// every sentence in English and Chinese; www/realrun-runner.js spins and
// yields. Results are not put into the URL; the settings are.
import { parseQuery, RealRunPlan, realRunText } from './tailslice.js';
import { t, lang, onLangChange, applyI18n } from './i18n.js';
import { download } from './io.js';
import realStrings from './strings/realrun.js';
import { catalog, metricTitle, policyTitle } from './catalog.js';
import { available, resolveYield, clockStep, createControl, runPlan, addPass, report } from './realrun-runner.js';

const $ = (sel) => document.querySelector(sel);
// The table's figures and the yield primitives are Rust's (catalog()).
const metricNames = () => catalog().metrics.map((m) => m.name);

const rr = {
  ctx: null,
  preview: null,    // info() of the plan for the current settings, or {error}
  running: null,    // {control}
  last: null,       // {plan, env, report, passes, query}
  text: null,       // realRunText(): {env: {en, zh} isolation and clock, na: {en, zh}}
  startWhenRead: false, // Run was pressed while an uploaded file was being read
};

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'i18n') { e.dataset.i18n = v; e.textContent = t(v); }
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
const pick = (both) => (both ? both[lang()] || both.en : '');
const num = (v, d = 2) => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v).toFixed(d));
const na = () => pick(rr.text && rr.text.na);

// ---------------------------------------------------------------- DOM

function build(section) {
  const avail = available();
  const yieldSel = el('select', { id: 'real-yield' });
  for (const y of catalog().real_yields) {
    const ok = y === 'auto' || avail[y];
    yieldSel.append(el('option', { value: y, disabled: !ok, dataset: { available: String(ok) } }));
  }
  section.append(
    el('h2', { id: 'h-real', i18n: 'real.title' }),
    el('p', { className: 'hint', i18n: 'real.help' }),
    el('div', { className: 'real-controls' },
      el('div', { className: 'field' }, el('label', { htmlFor: 'real-scale', i18n: 'real.scale' }),
        el('input', { id: 'real-scale', type: 'text', className: 'num-s', spellcheck: false, autocomplete: 'off', inputMode: 'decimal' })),
      el('div', { className: 'field' }, el('label', { htmlFor: 'real-repeats', i18n: 'real.repeats' }),
        el('input', { id: 'real-repeats', type: 'number', min: '1', max: '20', step: '1', className: 'num-s' })),
      el('div', { className: 'field' }, el('label', { htmlFor: 'real-yield', i18n: 'real.yield' }), yieldSel),
      el('div', { className: 'actions' },
        el('button', { type: 'button', id: 'real-run', i18n: 'real.run' }),
        el('button', { type: 'button', id: 'real-stop', i18n: 'real.stop', hidden: true }))),
    el('p', { id: 'real-form-error', className: 'form-error', role: 'alert', hidden: true }),
    el('p', { id: 'real-env', className: 'hint' }),
    el('ul', { id: 'real-notes', className: 'hint real-notes' }),
    el('p', { id: 'real-status', className: 'status', dataset: { state: 'idle' }, 'aria-live': 'polite' }),
    el('div', { className: 'table-wrap' }, el('table', { id: 'real-results' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', i18n: 'real.col.row' }),
        ...metricNames().map((m) => (m === 'done_within'
          ? el('th', { scope: 'col', i18n: 'real.col.within' })
          : el('th', { scope: 'col', text: metricTitle(m), dataset: { metricTitle: m } }))))),
      el('tbody'))),
    el('p', { id: 'real-yield-cost', className: 'reading' }),
    el('div', { className: 'table-wrap' }, el('table', { id: 'real-compare' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', i18n: 'real.col.what' }),
        el('th', { scope: 'col', text: policyTitle('fifo') }), el('th', { scope: 'col', i18n: 'real.col.sliced' }))),
      el('tbody'))),
    el('p', { id: 'real-reading', className: 'explanation' }),
    el('div', { className: 'actions' },
      el('button', { type: 'button', id: 'real-use-cost', i18n: 'real.usecost', disabled: true }),
      el('button', { type: 'button', id: 'real-download', i18n: 'real.download', disabled: true })),
  );
  labelYields();
}

function labelYields() {
  for (const o of $('#real-yield').options) {
    o.textContent = t(`real.yield.${o.value}`) + (o.dataset.available === 'false' ? ` (${na()})` : '');
  }
}

// ---------------------------------------------------------------- settings

function page() { return rr.ctx.page(); }

function fillSettings() {
  const v = page().real_values;
  if (document.activeElement !== $('#real-scale')) $('#real-scale').value = v.real_scale;
  if (document.activeElement !== $('#real-repeats')) $('#real-repeats').value = v.real_repeats;
  $('#real-yield').value = v.real_yield;
}

/** The page query with some keys replaced (Rust validates the result). */
function queryWith(changes) {
  const p = new URLSearchParams(page().query);
  for (const [k, v] of Object.entries(changes)) p.set(k, v);
  return p.toString();
}

function applySettings() {
  const q = queryWith({ real_scale: $('#real-scale').value.trim(), real_repeats: $('#real-repeats').value.trim(), real_yield: $('#real-yield').value });
  const parsed = parseQuery(q);
  const mine = parsed.errors.filter((e) => e.field.startsWith('real_'));
  const box = $('#real-form-error');
  if (mine.length) {
    box.textContent = mine.map((e) => e.message).join('\n');
    box.hidden = false;
    return;
  }
  box.hidden = true;
  rr.ctx.setQuery(parsed.query);
}

// ---------------------------------------------------------------- preview

// An uploaded task list stays a File (io.js: the worker reads it), but the
// plan is made here on the main thread: its text is read once and kept.
let upload = null; // {file, text}: text is null while reading

/** The imported tasks as text (undefined: generated; null: still reading). */
function tasksText() {
  const tasks = rr.ctx.tasks();
  if (typeof File === 'undefined' || !(tasks instanceof File)) return tasks ?? undefined;
  if (!upload || upload.file !== tasks) {
    const mine = { file: tasks, text: null };
    upload = mine;
    tasks.text().then((text) => {
      mine.text = text;
      if (upload !== mine) return;
      refreshPreview();
      // A click on Run while the file was being read runs it now.
      if (rr.startWhenRead) { rr.startWhenRead = false; start(); }
    });
  }
  return upload.text;
}

function planFor(query) {
  // Too many imported tasks are refused by their count, before a large
  // list's text is read and handed to the wasm on the main thread.
  const tooMany = RealRunPlan.tooManyTasks(rr.ctx.taskCount ? rr.ctx.taskCount() : 0);
  if (tooMany) return { error: tooMany };
  const tasks = tasksText();
  if (tasks === null) return { error: { en: realStrings.en['real.reading'], zh: realStrings.zh['real.reading'] } };
  try {
    return { plan: new RealRunPlan(query, tasks) };
  } catch (err) {
    return { error: err && (err.en || err.zh) ? err : { en: String(err && err.message ? err.message : err), zh: String(err && err.message ? err.message : err) } };
  }
}

function refreshPreview() {
  if (!rr.ctx || rr.running || !page()) return;
  fillSettings();
  const { plan, error } = planFor(page().query);
  if (plan) { rr.preview = plan.info(); plan.free(); } else rr.preview = { error };
  renderNotes();
}

function renderNotes() {
  const ul = $('#real-notes');
  ul.replaceChildren();
  const p = rr.preview;
  if (!p) return;
  if (p.error) {
    ul.append(el('li', { className: 'form-error', text: pick(p.error) }));
  } else {
    for (const n of (p.notes[lang()] || p.notes.en)) ul.append(el('li', { text: n }));
  }
  $('#real-run').disabled = !!(p.error || rr.running);
  $('#real-env').textContent = pick(rr.text && rr.text.env);
}

// ---------------------------------------------------------------- run

function setState(state, text) {
  const s = $('#real-status');
  s.dataset.state = state;
  s.textContent = text;
}

async function start() {
  if (rr.running) return;
  const query = page().query;
  const { plan, error } = planFor(query);
  if (!plan) {
    // Still reading an uploaded file: run once it is read.
    rr.startWhenRead = tasksText() === null;
    rr.preview = { error };
    renderNotes();
    return;
  }
  const control = createControl();
  rr.running = { control };
  $('#real-run').disabled = true;
  $('#real-stop').hidden = false;
  $('#real-use-cost').disabled = true;
  $('#real-download').disabled = true;
  setState('running', t('real.starting'));
  performance.mark('tailslice:realrun:start');
  try {
    const { env, passes } = await runPlan(plan, {
      yieldName: page().real_values.real_yield,
      control,
      onPass: (done, total, policy) => setState('running', t('real.progress', {
        pass: done + 1, total, policy: policy === 'fifo' ? policyTitle('fifo') : t('real.col.sliced'),
      })),
    });
    performance.measure('tailslice:realrun', 'tailslice:realrun:start');
    if (rr.last) rr.last.plan.free();
    rr.last = { plan, env, passes, query, report: report(plan, env) };
    rr.text = realRunText(env.isolated, env.resolution_ms);
  } catch (err) {
    plan.free();
    setState('idle', t('real.failed', { message: err && err.message ? err.message : String(err) }));
    return;
  } finally {
    rr.running = null;
    $('#real-stop').hidden = true;
    renderNotes();
  }
  render();
}

/** Re-plans the last run for the current query (e.g. a new switch cost) and re-adds its passes. */
function replan() {
  if (!rr.last || rr.running) return;
  const { plan } = planFor(page().query);
  if (!plan) return;
  const info = plan.info();
  if (info.tasks !== rr.last.plan.info().tasks || info.scale !== rr.last.plan.info().scale) { plan.free(); return; }
  for (const p of rr.last.passes) addPass(plan, p);
  rr.last.plan.free();
  rr.last = { ...rr.last, plan, query: page().query, report: report(plan, rr.last.env) };
  render();
}

// ---------------------------------------------------------------- results

function render() {
  const last = rr.last;
  if (!last) return;
  const r = last.report;
  const text = r.text[lang()] || r.text.en;
  setState(r.state === 'invalid' ? 'invalid' : 'done', text.status);
  const tbody = $('#real-results tbody');
  const frag = document.createDocumentFragment();
  for (const row of r.rows) {
    const tr = el('tr', { dataset: { policy: row.policy, kind: row.kind } });
    tr.append(el('th', { scope: 'row', text: `${policyTitle(row.policy)} · ${t(`real.kind.${row.kind}`)}` }));
    for (const m of metricNames()) {
      const v = row.values[m];
      const td = el('td', { dataset: { metric: m }, text: v === undefined ? '—' : (m === 'done_within' ? String(v) : num(v)) });
      const sp = row.spread[m];
      if (sp && row.repeats > 1) td.dataset.spread = m === 'done_within' ? `${sp[0]}–${sp[1]}` : `${num(sp[0])}–${num(sp[1])}`;
      const ch = row.change[m];
      if (ch !== undefined && m !== 'done_within') td.title = t('real.change', { change: `${ch < 0 ? '−' : '+'}${Math.abs(ch).toFixed(1)} %` });
      tr.append(td);
    }
    frag.append(tr);
  }
  tbody.replaceChildren(frag);
  const yc = $('#real-yield-cost');
  if (r.yield_cost) {
    yc.dataset.medianMs = String(r.yield_cost.gaps.p50);
    yc.dataset.p95Ms = String(r.yield_cost.gaps.p95);
    yc.textContent = t('real.yieldcost', { median: num(r.yield_cost.gaps.p50, 3), p95: num(r.yield_cost.gaps.p95, 3), n: r.yield_cost.gaps.n, code: r.yield_used });
  } else {
    delete yc.dataset.medianMs;
    delete yc.dataset.p95Ms;
    yc.textContent = '';
  }
  renderCompare(r, text.na);
  $('#real-reading').textContent = text.reading;
  $('#real-use-cost').disabled = !r.yield_cost;
  $('#real-download').disabled = false;
}

function renderCompare(r, naText) {
  const spread = (s, d = 0) => (s ? (s.n > 1 && s.min !== s.max ? `${num(s.median, d)} (${num(s.min, d)}–${num(s.max, d)})` : num(s.median, d)) : naText);
  const sample = (s) => (s ? t('real.sample', { p50: num(s.p50, 1), max: num(s.max, 1) }) : naText);
  const rows = [
    ['frames', (c) => spread(c.frames)],
    ['wall', (c) => spread(c.wall_ms, 1)],
    ['probe', (c) => (c.probe ? sample(c.probe) : t('real.noprobe'))],
    ['longtasks', (c) => (c.longtasks ? `${spread(c.longtasks)} · ${spread(c.longtask_ms, 1)} ms` : naText)],
    ['loafs', (c) => (c.loafs ? `${spread(c.loafs)} · ${spread(c.loaf_blocking_ms, 1)} ms` : naText)],
    ['input', (c) => (!c.input ? naText : (c.input.n === 0 ? t('real.noinput') : `${sample(c.input.sample)} (${c.input.n})`))],
  ];
  const by = Object.fromEntries(r.compare.map((c) => [c.policy, c]));
  const tbody = $('#real-compare tbody');
  tbody.replaceChildren(...rows.map(([key, f]) => el('tr', { dataset: { row: key } },
    el('th', { scope: 'row', text: t(`real.row.${key}`) }),
    ...['fifo', 'rr'].map((p) => el('td', { dataset: { policy: p }, text: by[p] ? f(by[p]) : naText })))));
}

function useCost() {
  const r = rr.last && rr.last.report;
  if (!r || !r.yield_cost) return;
  // The model's switch cost is in ms like the gap; at most 1000 ms (Rust checks).
  const cs = Math.round(r.yield_cost.gaps.p50 * 1e4) / 1e4;
  rr.ctx.setQuery(queryWith({ cs: String(cs) }));
  replan();
}

/** The run as a file: settings, environment, the scaled tasks, the plan, every raw measurement, the report. */
function runJson() {
  const { plan, env, passes, query, report: rep } = rr.last;
  const info = plan.info();
  const arr = plan.arrays();
  const slices = arr.slices;
  const all = (a) => (a ? Array.from(a) : null);
  return JSON.stringify({
    tailslice: 'real-run', version: 1, query, settings: page().real_values, environment: env,
    scale: info.scale, quantum_ms: info.quantum, within_ms: info.within, switch_cost_ms: info.switch_cost,
    arrival_ms: all(arr.arrival), work_ms: all(arr.work),
    plan: ['fifo', 'rr'].map((policy, i) => ({
      policy,
      slices: all(i === 0 ? slices.subarray(0, 2 * info.fifo_slices) : slices.subarray(2 * info.fifo_slices)),
      simulated_completion_ms: all(i === 0 ? arr.simulated_fifo : arr.simulated_rr),
    })),
    passes: passes.map(({ res, during }) => ({
      policy: res.policy, repeat: res.repeat, ...res.counts, ...during.counts,
      completion: all(res.completion), busy: all(res.busy), gaps: all(res.gaps), probe_late: all(during.probe), input_delay: all(during.input),
    })),
    report: rep,
  });
}

function save() {
  if (!rr.last) return;
  const text = runJson();
  const d = new Date();
  const p = (n) => String(n).padStart(2, '0');
  download(new Blob([text], { type: 'application/json' }), `tailslice-real-run-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}.json`);
}

// ---------------------------------------------------------------- start

/** Mounts the panel in `section#real`. ctx: {page(), tasks(), taskCount(), setQuery(q)}. */
export function initRealRun(ctx) {
  const section = $('#real');
  if (!section) return;
  rr.ctx = ctx;
  rr.text = realRunText(globalThis.crossOriginIsolated === true, clockStep());
  build(section);
  $('#real-scale').addEventListener('change', applySettings);
  $('#real-repeats').addEventListener('change', applySettings);
  $('#real-yield').addEventListener('change', applySettings);
  $('#real-run').addEventListener('click', start);
  $('#real-stop').addEventListener('click', () => { if (rr.running) rr.running.control.halt(); });
  $('#real-use-cost').addEventListener('click', useCost);
  $('#real-download').addEventListener('click', save);
  onLangChange(() => {
    applyI18n(section);
    for (const th of section.querySelectorAll('[data-metric-title]')) th.textContent = metricTitle(th.dataset.metricTitle);
    labelYields();
    renderNotes();
    render();
  });
  // A new experiment (or new real_* settings): new notes. Coalesced, off the edit's own frame.
  let queued = 0;
  new MutationObserver(() => {
    clearTimeout(queued);
    queued = setTimeout(refreshPreview, 200);
  }).observe(document.body, { attributes: true, attributeFilter: ['data-updates'] });
  refreshPreview();
  window.tailslice.realRun = {
    get report() { return rr.last ? rr.last.report : null; },
    json() { return rr.last ? runJson() : null; },
    available,
    resolveYield,
  };
}
