// The "Run for real" panel: runs the current experiment's tasks on this
// page's main thread, FIFO and sliced, and shows what was measured beside
// what was simulated. Rust plans the run (RealRunPlan: the scaled tasks,
// the passes and their order), validates the settings (the real_* URL
// keys), computes every figure from the raw clocks and writes every
// heading, label, cell and sentence in English and Chinese;
// www/realrun-runner.js spins and yields, this file lays them out. Results
// are not put into the URL; the settings are. RealRunPlan is the worker
// module's, loaded on the main thread when the panel is reached (in view,
// pointer or focus) or Run is pressed (full-wasm.js): the page's first view
// does not carry it.
import { parseQuery, realRunText } from './tailslice.js';
import { fullWasm } from './full-wasm.js';
import { t, lang, onLangChange, applyI18n } from './i18n.js';
import { $, el } from './dom.js';
import { download } from './io.js';
import realStrings from './strings/realrun.js';
import { catalog, limits, words } from './catalog.js';
import { available, resolveYield, clockStep, createControl, runPlan, addPass, report } from './realrun-runner.js';

const panel = {
  ctx: null,
  preview: null,    // info() of the plan for the current settings, or {error}
  running: null,    // {control}
  last: null,       // {plan, env, report, passes, batches, query}
  text: null,       // realRunText(): {env: {en, zh} isolation and clock, na: {en, zh}}
  startWhenRead: false, // Run was pressed while an uploaded file was being read
};

let wasm = null;    // the worker's module, once the panel was reached
let loading = null;
/** Loads the plan's module (once), then shows the current plan's notes. */
function ready() {
  loading ||= fullWasm().then((m) => { wasm = m; refreshPreview(); });
  return loading;
}

const pick = (both) => words(both);
const na = () => pick(panel.text && panel.text.na);

// ---------------------------------------------------------------- DOM

function build(section) {
  const avail = available();
  const yieldSel = el('select', { id: 'real-yield' });
  for (const y of catalog().real_yield_menu) {
    const ok = y.always || Boolean(avail[y.name]);
    yieldSel.append(el('option', { value: y.name, disabled: !ok, dataset: { available: String(ok) } }));
  }
  const [minRepeats, maxRepeats] = limits().real_repeats;
  section.append(
    el('h2', { id: 'h-real', i18n: 'real.title' }),
    el('p', { className: 'hint', i18n: 'real.help' }),
    el('div', { className: 'real-controls' },
      el('div', { className: 'field' }, el('label', { htmlFor: 'real-scale', i18n: 'real.scale' }),
        el('input', { id: 'real-scale', type: 'text', className: 'num-s', spellcheck: false, autocomplete: 'off', inputMode: 'decimal' })),
      el('div', { className: 'field' }, el('label', { htmlFor: 'real-repeats', i18n: 'real.repeats' }),
        el('input', { id: 'real-repeats', type: 'number', min: String(minRepeats), max: String(maxRepeats), step: '1', className: 'num-s' })),
      el('div', { className: 'field' }, el('label', { htmlFor: 'real-yield', i18n: 'real.yield' }), yieldSel),
      el('div', { className: 'actions' },
        el('button', { type: 'button', id: 'real-run', i18n: 'real.run' }),
        el('button', { type: 'button', id: 'real-stop', i18n: 'real.stop', hidden: true }))),
    el('p', { id: 'real-form-error', className: 'form-error', role: 'alert', hidden: true }),
    el('p', { id: 'real-env', className: 'hint' }),
    el('ul', { id: 'real-notes', className: 'hint real-notes' }),
    el('p', { id: 'real-status', className: 'status', dataset: { state: 'idle' }, 'aria-live': 'polite' }),
    // The tables show once a run has figures for them.
    el('div', { className: 'table-wrap', hidden: true }, el('table', { id: 'real-results' }, el('thead'), el('tbody'))),
    el('p', { id: 'real-yield-cost', className: 'reading' }),
    el('div', { className: 'table-wrap', hidden: true }, el('table', { id: 'real-compare' }, el('thead'), el('tbody'))),
    el('p', { id: 'real-reading', className: 'explanation' }),
    el('div', { className: 'actions' },
      el('button', { type: 'button', id: 'real-use-cost', i18n: 'real.usecost', disabled: true }),
      el('button', { type: 'button', id: 'real-download', i18n: 'real.download', disabled: true })),
  );
  labelYields();
}

function labelYields() {
  for (const o of $('#real-yield').options) {
    const label = words(catalog().real_yield_menu.find((y) => y.name === o.value).label);
    o.textContent = label + (o.dataset.available === 'false' ? ` (${na()})` : '');
  }
}

// ---------------------------------------------------------------- settings

function page() { return panel.ctx.page(); }

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
    box.textContent = mine.map((e) => words(e.refusal)).join('\n');
    box.hidden = false;
    return;
  }
  box.hidden = true;
  panel.ctx.setQuery(parsed.query);
}

// ---------------------------------------------------------------- preview

// An uploaded task list stays a File (io.js: the worker reads it), but the
// plan is made here on the main thread: its text is read once and kept.
let upload = null; // {file, text}: text is null while reading

/** The imported tasks as text (undefined: generated; null: still reading). */
function tasksText() {
  const tasks = panel.ctx.tasks();
  if (typeof File === 'undefined' || !(tasks instanceof File)) return tasks ?? undefined;
  if (!upload || upload.file !== tasks) {
    const mine = { file: tasks, text: null };
    upload = mine;
    tasks.text().then((text) => {
      mine.text = text;
      if (upload !== mine) return;
      refreshPreview();
      // A click on Run while the file was being read runs it now.
      if (panel.startWhenRead) { panel.startWhenRead = false; start(); }
    });
  }
  return upload.text;
}

function planFor(query) {
  // Too many imported tasks are refused by their count, before a large
  // list's text is read and handed to the wasm on the main thread.
  const tooMany = wasm.RealRunPlan.tooManyTasks(panel.ctx.taskCount ? panel.ctx.taskCount() : 0);
  if (tooMany) return { error: tooMany };
  const tasks = tasksText();
  if (tasks === null) return { error: { en: realStrings.en['real.reading'], zh: realStrings.zh['real.reading'] } };
  try {
    return { plan: new wasm.RealRunPlan(query, tasks) };
  } catch (err) {
    return { error: err && (err.en || err.zh) ? err : { en: String(err && err.message ? err.message : err), zh: String(err && err.message ? err.message : err) } };
  }
}

function refreshPreview() {
  if (!panel.ctx || panel.running || !page()) return;
  fillSettings();
  // The notes wait for the plan's module (see ready()).
  if (!wasm) { renderNotes(); return; }
  const { plan, error } = planFor(page().query);
  if (plan) { panel.preview = plan.info(); plan.free(); } else panel.preview = { error };
  renderNotes();
}

function renderNotes() {
  $('#real-env').textContent = pick(panel.text && panel.text.env);
  const ul = $('#real-notes');
  ul.replaceChildren();
  const p = panel.preview;
  if (!p) return;
  if (p.error) {
    ul.append(el('li', { className: 'form-error', text: pick(p.error) }));
  } else {
    for (const n of (p.notes[lang()] || p.notes.en)) ul.append(el('li', { text: n }));
  }
  $('#real-run').disabled = !!(p.error || panel.running);
}

// ---------------------------------------------------------------- run

function setState(state, text) {
  const s = $('#real-status');
  s.dataset.state = state;
  s.textContent = text;
}

async function start() {
  if (panel.running) return;
  if (!wasm) await ready();
  if (panel.running) return;
  const query = page().query;
  const { plan, error } = planFor(query);
  if (!plan) {
    // Still reading an uploaded file: run once it is read.
    panel.startWhenRead = tasksText() === null;
    panel.preview = { error };
    renderNotes();
    return;
  }
  const control = createControl();
  panel.running = { control };
  $('#real-run').disabled = true;
  $('#real-stop').hidden = false;
  $('#real-use-cost').disabled = true;
  $('#real-download').disabled = true;
  setState('running', t('real.starting'));
  performance.mark('tailslice:realrun:start');
  try {
    const { env, passes, batches } = await runPlan(plan, {
      yieldName: page().real_values.real_yield,
      control,
      onPass: (done, total, pass) => setState('running', t('real.progress', {
        pass: done + 1, total, policy: pick(pass.label),
      })),
    });
    performance.measure('tailslice:realrun', 'tailslice:realrun:start');
    if (panel.last) panel.last.plan.free();
    panel.last = { plan, env, passes, batches, query, report: report(plan, env) };
    panel.text = realRunText(env.isolated, env.resolution_ms);
  } catch (err) {
    plan.free();
    setState('idle', t('real.failed', { message: err && err.message ? err.message : String(err) }));
    return;
  } finally {
    panel.running = null;
    $('#real-stop').hidden = true;
    renderNotes();
  }
  render();
}

/** Re-plans the last run for the current query (e.g. a new switch cost) and re-adds its passes. */
function replan() {
  if (!panel.last || panel.running) return;
  const { plan } = planFor(page().query);
  if (!plan) return;
  const info = plan.info();
  if (info.tasks !== panel.last.plan.info().tasks || info.scale !== panel.last.plan.info().scale) { plan.free(); return; }
  for (const p of panel.last.passes) addPass(plan, p);
  for (const b of panel.last.batches) plan.addYieldBatch(b.yields, b.ms);
  panel.last.plan.free();
  panel.last = { ...panel.last, plan, query: page().query, report: report(plan, panel.last.env) };
  render();
}

// ---------------------------------------------------------------- results

/** A table's head: one row of headings. */
function head(table, labels) {
  table.tHead.replaceChildren(el('tr', {}, ...labels.map((text) => el('th', { scope: 'col', text }))));
}

function render() {
  const last = panel.last;
  if (!last) return;
  const r = last.report;
  const text = r.text[lang()] || r.text.en;
  setState(r.state === 'invalid' ? 'invalid' : 'done', text.status);
  // The measured and simulated rows: Rust's headings, labels and cells.
  const results = $('#real-results');
  head(results, [t('real.col.row'), ...text.columns]);
  results.tBodies[0].replaceChildren(...r.rows.map((row, i) => {
    const tr = el('tr', { dataset: { policy: row.policy, kind: row.kind } }, el('th', { scope: 'row', text: text.rows[i].label }));
    text.rows[i].cells.forEach((c, j) => {
      const td = el('td', { dataset: { metric: r.columns[j] }, text: c.text });
      if (c.spread) td.dataset.spread = c.spread;
      if (c.change) td.title = c.change;
      tr.append(td);
    });
    return tr;
  }));
  results.parentElement.hidden = false;
  const yc = $('#real-yield-cost');
  const cost = r.yield_cost;
  if (cost && cost.ms !== null) {
    yc.dataset.medianMs = String(cost.ms);
    yc.dataset.p95Ms = String(cost.p95);
  } else {
    delete yc.dataset.medianMs;
    delete yc.dataset.p95Ms;
  }
  yc.textContent = text.yield_cost;
  // What the page felt during each pass.
  const compare = $('#real-compare');
  head(compare, [t('real.col.what'), ...text.passes]);
  compare.tBodies[0].replaceChildren(...text.compare.map((row) => el('tr', { dataset: { row: row.key } },
    el('th', { scope: 'row', text: row.label }),
    ...row.cells.map((cell, i) => el('td', { dataset: { policy: r.passes[i] }, text: cell })))));
  compare.parentElement.hidden = false;
  $('#real-reading').textContent = text.reading;
  $('#real-use-cost').disabled = !(cost && cost.cs !== null);
  $('#real-download').disabled = false;
}

function useCost() {
  const cost = panel.last && panel.last.report.yield_cost;
  if (!cost || cost.cs === null) return;
  panel.ctx.setQuery(queryWith({ cs: String(cost.cs) }));
  replan();
}

/** The run as a file (Rust's RealRunPlan.file). */
function runJson() {
  return JSON.stringify(panel.last.plan.file(panel.last.query));
}

function save() {
  if (!panel.last) return;
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
  panel.ctx = ctx;
  panel.text = realRunText(globalThis.crossOriginIsolated === true, clockStep());
  build(section);
  $('#real-scale').addEventListener('change', applySettings);
  $('#real-repeats').addEventListener('change', applySettings);
  $('#real-yield').addEventListener('change', applySettings);
  $('#real-run').addEventListener('click', start);
  $('#real-stop').addEventListener('click', () => { if (panel.running) panel.running.control.halt(); });
  $('#real-use-cost').addEventListener('click', useCost);
  $('#real-download').addEventListener('click', save);
  onLangChange(() => {
    applyI18n(section);
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
  new IntersectionObserver((seen, io) => {
    if (!seen.some((e) => e.isIntersecting)) return;
    io.disconnect();
    ready();
  }, { rootMargin: '200px' }).observe(section);
  for (const type of ['pointerover', 'focusin']) section.addEventListener(type, ready, { once: true });
  refreshPreview();
  window.tailslice.realRun = {
    get report() { return panel.last ? panel.last.report : null; },
    json() { return panel.last ? runJson() : null; },
    available,
    resolveYield,
  };
}
