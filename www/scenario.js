// Apple QoS scenarios on the page: the picker, the knobs, the tables, the
// cores by QoS and the thread-state timeline (the page's one Gantt, see
// gantt.js), sched_pri over time and the model's notes. Rust validates the
// URL (parseScenarioQuery: the CLI's own knob parser), runs the scenario in
// a Web Worker (worker.js, message "scenario") and draws every chart with
// its legend (Gantt, ScenarioView). The picker and
// the knob panel are built from Rust's scenario registry (scenarioCatalog:
// names, titles, knobs with ranges, defaults and help in both languages);
// every sentence made from a result (reading, the study's figures, notes,
// calibration) comes from Rust in both languages too. This file only
// moves data and handles events; text from the URL or the model is only
// ever set with textContent.
import { parseScenarioQuery, scenarioCatalog, qosColor } from './tailslice.js';
import { fullWasm } from './full-wasm.js';
import { t, lang, onLangChange, applyI18n, withLang } from './i18n.js';
import { lane } from './client.js';
import { words } from './catalog.js';
import { $, el, sizeCanvas } from './dom.js';
import { ganttCanvas } from './gantt.js';
import { dark } from './theme.js';
import { setShown } from './url.js';

/** Rust's scenario registry (see crate/src/web/scenario_catalog.rs); read at mount. */
let catalog = null;
/** A `{en, zh}` text from Rust in the page's language. */
const tr = (text) => (text ? text[lang()] || text.en : '');
const scenarioEntry = (name) => catalog.scenarios.find((e) => e.name === name) || null;
const knobKeys = () => catalog.knobs.map((k) => k.key);

const sc = {
  ctx: null,
  parsed: null,     // parseScenarioQuery() of the shown scenario (null: not in scenario mode)
  summary: null,
  timelineMeta: null,
  view: null,       // ScenarioView of the shown run (sched_pri)
  cores: null,      // ganttCanvas of the cores, coloured by QoS
  states: null,     // ganttCanvas of the key threads' states
  updates: 0,
  requests: 0,      // runs requested (a result is shown only if it answers the last)
  workerMs: 0,
  drawMs: 0,
  dark,
  // Elements showing a Rust `{en, zh}` text: [{el, text, attr}], redone on a language switch.
  texts: [],
};

/** Shows a Rust `{en, zh}` text on `e` (its textContent, or attribute `attr`), now and after every language switch. */
function bilingual(e, text, attr = null) {
  sc.texts.push({ el: e, text, attr });
  if (attr) e.setAttribute(attr, tr(text)); else e.textContent = tr(text);
  return e;
}
function relabel() {
  for (const { el: e, text, attr } of sc.texts) {
    if (attr) e.setAttribute(attr, tr(text)); else e.textContent = tr(text);
  }
}


// ---------------------------------------------------------------- DOM

/** One knob's control, built from its catalog entry (range, labels, help). */
function knobInput(knob) {
  const id = `sc-${knob.key}`;
  const r = knob.range;
  if (r.kind === 'switch') {
    const s = el('select', { id });
    if (r.unset) s.append(bilingual(el('option', { value: '' }), r.unset));
    s.append(bilingual(el('option', { value: 'on' }), r.on), bilingual(el('option', { value: 'off' }), r.off));
    return [s];
  }
  if (r.kind === 'choice') {
    const s = el('select', { id });
    if (r.unset) s.append(bilingual(el('option', { value: '' }), r.unset));
    for (const o of r.options) s.append(bilingual(el('option', { value: o.value }), o.label));
    return [s];
  }
  if (r.kind === 'number') {
    return [el('input', {
      id, type: 'number', min: String(r.min), max: String(r.max), step: String(r.step),
      inputMode: r.integer ? 'numeric' : 'decimal',
    })];
  }
  const input = el('input', { id, type: 'text', spellcheck: false, autocomplete: 'off' });
  if (r.placeholder) bilingual(input, r.placeholder, 'placeholder');
  if (!r.examples.length) return [input];
  const list = el('datalist', { id: `${id}-examples` });
  for (const v of r.examples) list.append(el('option', { value: v }));
  input.setAttribute('list', list.id);
  return [input, list];
}

function knobField(knob) {
  const id = `sc-${knob.key}`;
  const [input, ...extra] = knobInput(knob);
  const f = el('div', { className: 'field sc-knob', dataset: { knob: knob.key } });
  f.append(bilingual(el('label', { htmlFor: id }), knob.label), input, ...extra);
  if (knob.help) {
    const hint = bilingual(el('small', { className: 'hint', id: `${id}-hint` }), knob.help);
    input.setAttribute('aria-describedby', hint.id);
    f.append(hint);
  }
  return f;
}

function field(id, labelKey, input) {
  const f = el('div', { className: 'field sc-knob', dataset: { knob: id.replace('sc-', '') } });
  f.append(el('label', { htmlFor: id, i18n: labelKey }), input);
  return f;
}

function buildControls() {
  const slot = $('#scenario-slot');
  // Next to the preset picker, where visitors look for "what to simulate".
  const preset = $('#preset');
  const presetField = preset && preset.closest('.field');
  if (presetField && presetField.nextElementSibling !== slot) presetField.after(slot);
  const pick = el('select', { id: 'scenario' });
  pick.append(el('option', { value: '', i18n: 'sc.none' }));
  for (const s of catalog.scenarios) pick.append(bilingual(el('option', { value: s.name }), s.title));
  slot.append(field('scenario', 'sc.picker', pick));

  const knobs = el('fieldset', { id: 'scenario-knobs', className: 'field scenario-knobs', hidden: true });
  knobs.append(el('legend', { i18n: 'sc.knobs' }));
  knobs.append(
    ...catalog.knobs.map(knobField),
    field('sc-run', 'sc.run', el('select', { id: 'sc-run' })),
    el('p', { id: 'scenario-form-error', className: 'form-error', hidden: true, 'aria-live': 'polite' }),
  );
  slot.append(knobs);

  pick.addEventListener('change', () => {
    const name = pick.value;
    if (!name) { exit(); sc.ctx.restoreNormal(); return; }
    setScenario(parseScenarioQuery(`${catalog.key}=${encodeURIComponent(name)}`), { fill: true });
  });
  for (const k of knobKeys()) {
    const input = $(`#sc-${k}`);
    input.addEventListener(input.tagName === 'SELECT' ? 'change' : 'input', onKnobEdit);
  }
  $('#sc-run').addEventListener('change', onKnobEdit);
  // Picking a task preset leaves scenario mode (app.js then loads the preset).
  if (preset) preset.addEventListener('change', () => { if (sc.parsed) { exit(); pick.value = ''; } });
}

function buildResults() {
  const results = document.querySelector('.results');
  const box = el('div', { id: 'scenario-results', className: 'scenario-results', hidden: true, dataset: { state: 'idle', updates: '0' } });
  const section = (id, headingKey, ...children) => {
    const s = el('section', { 'aria-labelledby': `${id}-h` });
    // A null heading key: the heading is set per scenario (from Rust).
    s.append(el('h2', headingKey ? { id: `${id}-h`, i18n: headingKey } : { id: `${id}-h` }), ...children);
    return s;
  };
  const canvas = (id, labelKey, extra = {}) => el('canvas', { id, role: 'img', 'data-i18n-attr': `aria-label:${labelKey}`, 'aria-label': t(labelKey), 'aria-describedby': `${id}-legend`, ...extra });
  // The legend is drawn on the canvas; its words also describe the canvas.
  const described = (id) => el('p', { id: `${id}-legend`, className: 'visually-hidden' });
  const lanes = (id, labelKey) => el('div', { className: 'gantt-wrap' },
    canvas(id, labelKey, { tabindex: '0' }), el('div', { id: `${id}-tip`, className: 'tooltip', role: 'tooltip', hidden: true }));
  box.append(
    el('div', { className: 'status', 'aria-live': 'polite' }, el('progress', { id: 'scenario-progress', hidden: true }), el('span', { id: 'scenario-status' })),
    section('sc-table', null,
      el('div', { className: 'table-wrap' }, el('table', { id: 'scenario-table', className: 'scenario-table', dataset: { table: 'main' } }, el('thead'), el('tbody'))),
      el('p', { id: 'scenario-reading', className: 'reading' })),
    // Further tables of the result (a mechanism table), laid out by Rust.
    el('div', { id: 'scenario-more-tables' }),
    section('sc-gantt', 'sc.heading.gantt',
      lanes('qos-gantt', 'sc.caption.gantt'), described('qos-gantt'),
      el('p', { id: 'scenario-truncated', className: 'hint', hidden: true }),
      el('p', { id: 'gantt-caption', className: 'hint', i18n: 'sc.caption.gantt' })),
    section('sc-states', 'sc.heading.states',
      lanes('qos-states', 'sc.caption.states'), described('qos-states'),
      el('p', { id: 'states-caption', className: 'hint', i18n: 'sc.caption.states' })),
    section('sc-pri', 'sc.heading.pri',
      // Its caption and label describe the run's settings: from Rust (renderNotes).
      el('canvas', { id: 'qos-pri', role: 'img', 'aria-describedby': 'qos-pri-legend' }), described('qos-pri'),
      el('p', { id: 'pri-none', className: 'hint', i18n: 'sc.pri.none', hidden: true }),
      el('p', { id: 'pri-caption', className: 'hint' })),
    section('sc-notes', 'sc.heading.notes',
      el('ul', { id: 'scenario-notes', className: 'scenario-notes' }),
      el('h3', { id: 'sc-calibration-h', i18n: 'sc.heading.calibration', hidden: true }),
      el('p', { id: 'scenario-calibration', hidden: true })),
  );
  results.prepend(box);
}

// ---------------------------------------------------------------- state

function fillKnobs(parsed) {
  const k = parsed.knobs;
  for (const knob of catalog.knobs) {
    const input = $(`#sc-${knob.key}`);
    // A switch that is always set (no "default" choice) shows the page's default.
    const always = knob.range.kind === 'switch' && !knob.range.unset;
    input.value = (always ? k[knob.key] || knob.default : k[knob.key]) ?? '';
    input.removeAttribute('aria-invalid');
  }
  const entry = scenarioEntry(parsed.scenario);
  const show = entry ? entry.knobs : [];
  for (const f of document.querySelectorAll('#scenario-knobs .sc-knob')) {
    const knob = f.dataset.knob;
    f.hidden = knob !== 'run' && !show.includes(knob);
  }
  $('#scenario').value = parsed.scenario || '';
  const err = $('#scenario-form-error');
  err.hidden = true;
  err.textContent = '';
}

/** The query the knob controls describe (serialisation only: Rust validates). */
function knobsQuery() {
  const p = new URLSearchParams();
  p.set(catalog.key, sc.parsed.scenario);
  for (const key of knobKeys()) {
    const v = $(`#sc-${key}`).value.trim();
    if (v !== '') p.set(key, v);
  }
  // The run picker applies while the runs stay the same (Rust names them:
  // `runs`); an edit that changes them shows the new default run.
  const run = $('#sc-run').value;
  if (run !== '' && parseScenarioQuery(p.toString()).runs === sc.parsed.runs) p.set(catalog.run_key, run);
  return p.toString();
}

let editQueued = false;
function onKnobEdit() {
  if (editQueued) return;
  editQueued = true;
  requestAnimationFrame(() => {
    editQueued = false;
    if (!sc.parsed) return;
    const parsed = parseScenarioQuery(knobsQuery());
    const err = $('#scenario-form-error');
    for (const key of knobKeys()) $(`#sc-${key}`).removeAttribute('aria-invalid');
    if (parsed.errors.length) {
      for (const e of parsed.errors) {
        const input = document.getElementById(`sc-${e.field}`);
        if (input) input.setAttribute('aria-invalid', 'true');
      }
      err.textContent = parsed.errors.map((e) => words(e.refusal)).join('\n');
      err.hidden = false;
      return;
    }
    err.hidden = true;
    err.textContent = '';
    setScenario(parsed, { fill: false });
  });
}

function writeUrl() {
  const parts = ['v=1', sc.parsed.query];
  if (sc.ctx.viewQuery) parts.push(sc.ctx.viewQuery);
  history.replaceState(null, '', `${location.pathname}?${withLang(parts.join('&'))}${location.hash}`);
  setShown(sc.parsed.query);
}

function setScenario(parsed, { fill }) {
  const changed = !sc.parsed || sc.parsed.key !== parsed.key;
  sc.parsed = parsed;
  document.body.classList.add('scenario-mode');
  $('#scenario-knobs').hidden = false;
  $('#scenario-results').hidden = false;
  if (fill) fillKnobs(parsed);
  writeUrl();
  if (changed) sc.summary = null;
  request(parsed.key, parsed.run);
}

function exit() {
  sc.parsed = null;
  runs.cancel();
  document.body.classList.remove('scenario-mode');
  $('#scenario-knobs').hidden = true;
  $('#scenario-results').hidden = true;
  $('#scenario-results').dataset.state = 'idle';
  if (sc.view) { sc.view.free(); sc.view = null; }
  sc.cores.clear();
  sc.states.clear();
}

// ---------------------------------------------------------------- worker

// The scenario lane of the page's one worker client (www/client.js): a
// long run (it reported progress, or ran 200 ms) is cancelled by the next
// request, a short one is waited for and only the newest request follows.
const runs = lane();

function request(key, run) {
  const t0 = performance.now();
  const id = ++sc.requests;
  $('#scenario-results').dataset.state = 'running';
  $('#scenario-status').textContent = t('sc.status.running');
  const job = runs.request('scenario', { key, run }, { onProgress });
  job.done.then(async (out) => {
    if (out.status === 'cancelled') return;
    if (!runs.busy) $('#scenario-progress').hidden = true;
    if (!sc.parsed) return;
    if (out.status === 'error') { runError(out.message); return; }
    performance.measure('tailslice:scenario:simulate', { start: t0, end: performance.now() });
    // The priority chart (ScenarioView) is drawn by the worker's module,
    // which a scenario has already fetched for its run.
    const wasm = out.value.timeline ? await fullWasm() : null;
    if (id !== sc.requests || !sc.parsed) return; // a newer request since
    sc.workerMs = out.ms;
    show({ ...out.value, ms: out.ms }, wasm);
  });
}

function runError(message) {
  $('#scenario-progress').hidden = true;
  $('#scenario-results').dataset.state = 'error';
  sc.ctx.showRunError(t('sc.error.worker', { message }));
}

function onProgress(p) {
  const bar = $('#scenario-progress');
  bar.hidden = false;
  bar.max = 1;
  bar.value = p.frac;
  $('#scenario-status').textContent = t('sc.status.progress', {
    run: p.run, pct: Math.round(p.frac * 100), work: Math.round((100 * p.units) / p.budget),
  });
}

// ---------------------------------------------------------------- results

function show(msg, wasm) {
  const start = performance.now();
  sc.summary = msg.summary;
  sc.timelineMeta = msg.timeline ? msg.timeline.meta : null;
  if (sc.view) { sc.view.free(); sc.view = null; }
  const tl = msg.timeline;
  if (tl) sc.view = new wasm.ScenarioView(tl);
  // The same run shown again (a redraw) keeps its zoom.
  const keep = !!(tl && sc.shownRun === `${sc.parsed.key}#${tl.meta.run}`);
  sc.shownRun = tl ? `${sc.parsed.key}#${tl.meta.run}` : null;
  sc.cores.show(tl && tl.gantt, { keep });
  sc.states.show(tl && tl.states, { keep });
  renderRunPicker(msg.summary.run_labels || [], sc.timelineMeta ? sc.timelineMeta.run : msg.run);
  renderTable();
  renderNotes();
  renderChartNotes();
  drawAll();
  sc.drawMs = performance.now() - start;
  performance.measure('tailslice:scenario:render', { start, end: performance.now() });
  renderStatus();
  const box = $('#scenario-results');
  box.dataset.query = sc.parsed.query;
  box.dataset.ms = msg.ms.toFixed(1);
  sc.updates++;
  box.dataset.updates = String(sc.updates);
  box.dataset.state = runs.busy ? 'running' : 'ready';
  if (sc.ctx.embed) sc.ctx.postHeight();
}

function renderStatus() {
  if (!sc.parsed || !sc.summary) return;
  $('#scenario-status').textContent = t('sc.status.done', {
    name: sc.parsed.scenario, ms: sc.workerMs.toFixed(0), draw: sc.drawMs.toFixed(1),
  });
}

function renderRunPicker(labels, run) {
  const pick = $('#sc-run');
  pick.replaceChildren(...labels.map((l, i) => el('option', { value: String(i), text: tr(l) })));
  pick.value = String(Math.min(run, Math.max(0, labels.length - 1)));
  pick.closest('.sc-knob').hidden = labels.length < 2;
}

/** Fills `table` from a Rust table `{columns: [{key, label, class}], rows: [{key, cells: [{en, zh, qos}]}]}`:
 *  the first cell heads its row; the others carry their column's key as `data-metric`. */
function fillTable(table, t) {
  const head = el('tr');
  for (const c of t.columns) head.append(el('th', { scope: 'col', text: tr(c.label) }));
  table.querySelector('thead').replaceChildren(head);
  const rows = t.rows.map((r) => {
    const row = el('tr', { dataset: { row: r.key } });
    r.cells.forEach((cell, i) => {
      const col = t.columns[i] || {};
      const e = i === 0 ? el('th', { scope: 'row' }) : el('td', { dataset: { metric: col.key } });
      if (col.class) e.className = col.class;
      if (cell.qos !== null && cell.qos !== undefined) {
        const sw = el('span', { className: 'swatch' });
        sw.style.background = qosColor(cell.qos);
        e.append(sw);
      }
      e.append(tr(cell));
      row.append(e);
    });
    return row;
  });
  table.querySelector('tbody').replaceChildren(...rows);
}

function renderTable() {
  const s = sc.summary;
  const tables = s.tables || [];
  const table = $('#scenario-table');
  table.dataset.scenario = sc.parsed.scenario;
  const [main, ...more] = tables;
  if (main) {
    $('#sc-table-h').textContent = tr(main.title);
    fillTable(table, main);
    $('#scenario-reading').textContent = tr(main.reading);
  }
  const box = $('#scenario-more-tables');
  box.replaceChildren(...more.map((t) => {
    const id = `sc-table-${t.id}`;
    const tbl = el('table', { className: 'scenario-table', dataset: { table: t.id } }, el('thead'), el('tbody'));
    fillTable(tbl, t);
    const sec = el('section', { 'aria-labelledby': `${id}-h` });
    sec.append(el('h2', { id: `${id}-h`, text: tr(t.title) }),
      el('div', { className: 'table-wrap' }, tbl),
      el('p', { className: 'reading', dataset: { reading: t.id }, text: tr(t.reading) }));
    return sec;
  }));
}

/** The model's notes and calibration in the page's language: Rust sends
 *  both (`notes`/`calibration` English, `notes_zh`/`calibration_zh`
 *  Chinese, same figures); English when a translation is missing. */
function renderNotes() {
  const s = sc.summary;
  const zh = lang() === 'zh';
  const notes = (zh && s.notes_zh && s.notes_zh.length ? s.notes_zh : s.notes) || [];
  const calibration = (zh && s.calibration_zh) || s.calibration || '';
  const list = $('#scenario-notes');
  list.lang = zh && notes === s.notes_zh ? 'zh-CN' : 'en';
  list.replaceChildren(...notes.map((n) => el('li', { text: n })));
  // The charts' captions: the scenario's own (Rust) where it has one,
  // else the general one.
  for (const [id, key, own] of [['#gantt-caption', 'sc.caption.gantt', 'gantt_caption'], ['#states-caption', 'sc.caption.states', 'states_caption']]) {
    const p = $(id);
    const text = s.page ? tr(s.page[own]) : '';
    if (text) delete p.dataset.i18n; else p.dataset.i18n = key;
    p.textContent = text || t(key);
  }
  const caption = s.page ? tr(s.page.pri_caption) : '';
  $('#pri-caption').textContent = caption;
  $('#qos-pri').setAttribute('aria-label', caption);
  const cal = $('#scenario-calibration');
  cal.lang = zh && calibration === s.calibration_zh ? 'zh-CN' : 'en';
  cal.textContent = calibration;
  cal.hidden = !calibration;
  $('#sc-calibration-h').hidden = !calibration;
}

/** What shows around the charts: which are there, the cap note, the
 * priority chart's description (every legend is drawn by Rust). */
function renderChartNotes() {
  const v = sc.view;
  const timeline = !!(sc.cores.gantt);
  for (const id of ['#qos-gantt', '#qos-states']) $(id).closest('section').hidden = !timeline;
  const trunc = $('#scenario-truncated');
  trunc.hidden = !(timeline && v && v.truncated());
  trunc.textContent = trunc.hidden ? '' : tr(v.cutNote());
  const hasPri = !!(v && v.hasPri());
  $('#qos-pri').hidden = !hasPri;
  const none = $('#pri-none');
  none.hidden = hasPri;
  none.dataset.i18n = sc.parsed && sc.parsed.knobs.tl === 'off' ? 'sc.timeline.off' : 'sc.pri.none';
  none.textContent = t(none.dataset.i18n);
  $('#pri-caption').hidden = !hasPri;
  $('#qos-pri-legend').textContent = hasPri ? v.priLegendText() : '';
}

function drawAll() {
  if (!sc.parsed) return;
  sc.cores.draw();
  sc.states.draw();
  const v = sc.view;
  if (v && v.hasPri()) {
    const c = $('#qos-pri');
    v.drawPri(c, sizeCanvas(c, v.priHeight()), sc.dark.matches);
  }
}

// ---------------------------------------------------------------- mount

/**
 * Builds the scenario UI and reads the URL's scenario keys.
 * ctx: {parsed (parseScenarioQuery of the link as opened), embed, viewQuery (the embed view's keys),
 * showRunError(message), restoreNormal(), postHeight()}.
 * Returns {errors, active, start()}: `errors` are rejected URL values for
 * the page's #error banner; `start()` enters scenario mode when the URL
 * named a valid scenario (call it after the normal page is set up).
 */
export function mountScenario(ctx) {
  sc.ctx = ctx;
  catalog = scenarioCatalog();
  buildControls();
  buildResults();
  const dark = () => sc.dark.matches;
  sc.cores = ganttCanvas($('#qos-gantt'), $('#qos-gantt-tip'), dark);
  sc.states = ganttCanvas($('#qos-states'), $('#qos-states-tip'), dark);
  applyI18n($('#scenario-slot'));
  const parsed = ctx.parsed;
  let resizeQueued = false;
  new ResizeObserver(() => {
    if (resizeQueued || !sc.parsed) return;
    resizeQueued = true;
    requestAnimationFrame(() => { resizeQueued = false; drawAll(); });
  }).observe($('#scenario-results'));
  sc.dark.addEventListener('change', drawAll);
  onLangChange(() => {
    relabel();
    if (!sc.summary || !sc.parsed) return;
    renderRunPicker(sc.summary.run_labels || [], Number($('#sc-run').value) || 0);
    renderTable();
    renderNotes();
    renderChartNotes();
    renderStatus();
    drawAll();
  });
  return {
    errors: parsed.errors,
    active: !!parsed.scenario,
    start() { if (parsed.scenario) setScenario(parsed, { fill: true }); },
    get inScenario() { return !!sc.parsed; },
  };
}
