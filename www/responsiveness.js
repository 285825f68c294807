// The Responsiveness section (section#responsiveness): for a trace's tasks,
// or a task list with arrival times, how long an input would wait as
// recorded and sliced at the page's quantum, what slicing costs, the
// input-delay CDF and the trade-off over q. Rust computes everything in the
// worker with the run (result.responsiveness: rows, sentences, chart data)
// and draws the charts (RespView); its words come with the catalog
// (catalog().responsiveness). That Rust is the worker module's, loaded on
// the main thread when the first result with a section arrives
// (full-wasm.js): the page's first view does not carry it. This file
// builds the controls, lays out the table and sentences, and puts the settings into the URL (resp_* keys,
// validated by parseQuery like every other key).
import { parseQuery } from './tailslice.js';
import { fullWasm } from './full-wasm.js';
import { lang, onLangChange } from './i18n.js';
import { $, el, sizeCanvas } from './dom.js';
import { words } from './catalog.js';
import { app } from './state.js';

let ctx = null;     // {page(), setQuery(q), dark()}
let view = null;    // RespView of the shown section
let shown = null;   // the result whose section is shown
let wasm = null;    // the worker's module, once the section is built
let built = null;   // a promise: the section built (started by the first section)

let words_ = null;
function labels() { return words_; }

function build(section) {
  const L = labels();
  const field = (id, label, input, hint) => el('div', { className: 'field' },
    el('label', { htmlFor: id, dataset: { respWord: label } }), input,
    hint ? el('small', { className: 'hint', dataset: { respWord: hint } }) : '');
  const yieldSel = el('select', { id: 'resp-yield' });
  for (const y of L.yields) yieldSel.append(el('option', { value: y.name, dataset: { respYield: y.name } }));
  const fig = (id, caption, aria) => el('figure', {},
    el('canvas', { id, role: 'img', dataset: { respAria: aria } }),
    el('figcaption', { dataset: { respWord: caption } }));
  section.append(
    el('h2', { id: 'h-resp', dataset: { respWord: 'title' } }),
    el('p', { className: 'hint', dataset: { respWord: 'help' } }),
    el('p', { id: 'resp-inp', className: 'headline', hidden: true, dataset: { inp: '' } }),
    el('div', { id: 'resp-about', className: 'reading' }),
    el('div', { className: 'resp-controls' },
      field('resp-yield', 'yield_label', yieldSel),
      field('resp-cost', 'cost_label', el('div', { className: 'inline' },
        el('input', { id: 'resp-cost', type: 'text', inputMode: 'decimal', className: 'num-s', spellcheck: false, autocomplete: 'off' }),
        el('button', { type: 'button', id: 'resp-use-measured', dataset: { respWord: 'use_measured' } })), 'cost_hint'),
      field('resp-quanta', 'quanta_label', el('input', { id: 'resp-quanta', type: 'text', spellcheck: false, autocomplete: 'off' }), 'quanta_hint'),
      field('resp-window', 'window_label', el('input', { id: 'resp-window', type: 'text', className: 'num-m', spellcheck: false, autocomplete: 'off' }), 'window_hint')),
    el('p', { id: 'resp-form-error', className: 'form-error', role: 'alert', hidden: true }),
    el('p', { id: 'resp-error', className: 'form-error', role: 'alert', hidden: true }),
    el('div', { id: 'resp-body' },
      el('div', { className: 'table-wrap' },
        el('table', { id: 'responsiveness-results' }, el('thead'), el('tbody'))),
      el('p', { id: 'resp-tbt', className: 'reading' }),
      el('div', { className: 'plots' },
        fig('resp-cdf', 'cdf_caption', 'cdf_aria'),
        fig('resp-tradeoff', 'tradeoff_caption', 'tradeoff_aria')),
      el('div', { id: 'resp-reading', className: 'reading' }),
      el('div', { id: 'resp-interactions' },
        el('div', { id: 'resp-inter-found', className: 'reading' }),
        el('figure', { id: 'resp-bars-fig', className: 'wide' },
          el('canvas', { id: 'resp-bars', role: 'img' }),
          el('figcaption', { id: 'resp-bars-caption' })),
        el('figure', { id: 'resp-tasks-fig', className: 'wide' },
          el('canvas', { id: 'resp-tasks', role: 'img' }),
          el('figcaption', { id: 'resp-tasks-caption' })),
        el('div', { className: 'table-wrap' },
          el('table', { id: 'interactions' }, el('caption'), el('thead'), el('tbody'))),
        el('div', { id: 'resp-inter-reading', className: 'reading' })),
      el('p', { id: 'resp-assumptions', className: 'hint' })));
}

/** The section's fixed words in the page's language. */
function relabel() {
  const L = labels();
  const section = $('#responsiveness');
  for (const e of section.querySelectorAll('[data-resp-word]')) e.textContent = words(L[e.dataset.respWord]);
  for (const e of section.querySelectorAll('[data-resp-aria]')) e.setAttribute('aria-label', words(L[e.dataset.respAria]));
  for (const o of section.querySelectorAll('[data-resp-yield]')) {
    const y = L.yields.find((x) => x.name === o.dataset.respYield);
    o.textContent = words(y.label);
  }
  $('#resp-cost').placeholder = String(L.default_cost_ms);
  $('#resp-quanta').placeholder = L.default_quanta;
}

/** The controls show the page's resp_* values (not while one is edited). */
function fillControls() {
  const page = ctx.page();
  if (!page) return;
  const keys = labels().keys;
  const v = page.resp_values;
  const [kYield, kCost, kFrom, kQuanta, kWindow] = keys;
  $('#resp-yield').value = v[kYield];
  const costGiven = v[kFrom] !== 'default';
  for (const [id, text] of [['#resp-cost', costGiven ? v[kCost] : ''], ['#resp-quanta', v[kQuanta]], ['#resp-window', v[kWindow]]]) {
    if (document.activeElement !== $(id)) $(id).value = text;
  }
}

/** The page query with `changes` applied (a value of null removes the key). */
function queryWith(changes) {
  const p = new URLSearchParams(ctx.page().query);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') p.delete(k); else p.set(k, v);
  }
  return p.toString();
}

/** Puts `changes` into the URL if Rust accepts them; else shows why. */
function apply(changes) {
  const q = queryWith(changes);
  const parsed = parseQuery(q);
  const keys = labels().keys;
  const mine = parsed.errors.filter((e) => keys.includes(e.field));
  const box = $('#resp-form-error');
  if (mine.length) {
    box.textContent = mine.map((e) => words(e.refusal)).join('\n');
    box.hidden = false;
    return;
  }
  box.hidden = true;
  ctx.setQuery(parsed.query);
}

function applyControls() {
  const [kYield, kCost, kFrom, kQuanta, kWindow] = labels().keys;
  const cost = $('#resp-cost').value.trim();
  const was = ctx.page().resp_values;
  // A typed cost replaces a measured one; an unchanged one keeps its origin.
  const from = cost !== '' && cost === was[kCost] && was[kFrom] === 'measured' ? 'measured' : null;
  apply({
    [kYield]: $('#resp-yield').value, [kCost]: cost, [kFrom]: from,
    [kQuanta]: $('#resp-quanta').value.trim(), [kWindow]: $('#resp-window').value.trim(),
  });
}

/** "Use my measured yield cost": Run for real's primitive and its cost of one yield. */
function useMeasured() {
  const r = window.tailslice.realRun && window.tailslice.realRun.report;
  const yc = r && r.yield_cost;
  const out = wasm.measuredYieldCost(r ? r.yield_used : undefined, yc && yc.ms !== null ? yc.ms : undefined);
  const box = $('#resp-form-error');
  if (out.message) {
    box.textContent = words(out.message);
    box.hidden = false;
    return;
  }
  const [kYield, kCost, kFrom] = labels().keys;
  apply({ [kYield]: out.yield, [kCost]: out.cost, [kFrom]: 'measured' });
}

function renderTable(sec) {
  const L = labels();
  const cols = L.columns;
  const groups = [];
  for (const c of cols) {
    const last = groups[groups.length - 1];
    if (last && last.group.en === c.group.en) last.span++; else groups.push({ group: c.group, span: 1 });
  }
  const top = el('tr', {}, el('th', { scope: 'col' }),
    ...groups.map((g) => el('th', { scope: 'colgroup', colSpan: g.span, text: words(g.group) })));
  const head = el('tr', {}, el('th', { scope: 'col', text: words(L.row_head) }),
    ...cols.map((c) => el('th', { scope: 'col', text: words(c.head) })));
  $('#responsiveness-results thead').replaceChildren(top, head);
  $('#responsiveness-results tbody').replaceChildren(...sec.rows.map((r) => el('tr', { dataset: { quantum: r.quantum } },
    el('th', { scope: 'row', text: words(r.name) }),
    ...cols.map((c) => el('td', { dataset: { metric: c.key }, text: r.cells[c.key] })))));
}

let chartsJob = 0;
let chartsDone = []; // callbacks of drawings a newer one replaced
/** Draws the two charts, each in a task of its own (neither adds to the
 * task that drew the result, nor to the other); then `done()` (a newer
 * drawing that replaces this one calls it when it ends). */
function drawCharts(done = () => {}) {
  chartsDone.push(done);
  const finish = () => { const all = chartsDone; chartsDone = []; for (const f of all) f(); };
  if (!view || $('#responsiveness').hidden || $('#resp-body').hidden) { finish(); return; }
  const job = ++chartsJob;
  const mine = view;
  const h = document.body.classList.contains('embed') ? 220 : 280;
  const charts = [['#resp-cdf', 'drawCdf', h], ['#resp-tradeoff', 'drawTradeoff', h]];
  // The bars, then the tasks' Gantt under them on the same time axis.
  if (view.hasBars()) charts.unshift(['#resp-bars', 'drawBars', h], ['#resp-tasks', 'drawTasks', 150]);
  const next = () => {
    if (job !== chartsJob || mine !== view) return;
    const [id, draw, height] = charts.shift();
    const canvas = $(id);
    const got = view[draw](canvas, sizeCanvas(canvas, height), ctx.dark(), lang());
    // Test hooks: the time axis [from, to] (ms) and the plot's [left, right] (CSS px).
    if (got && got.length >= 4) {
      canvas.dataset.timeRange = `${got[0]},${got[1]}`;
      canvas.dataset.plotX = `${got[2]},${got[3]}`;
    }
    if (got && got.length >= 5) canvas.dataset.handlerSlices = String(got[4]);
    if (charts.length) setTimeout(next, 0);
    else finish();
  };
  setTimeout(next, 0);
}

/** The trace's interactions: headline INP, what was found, the table, the reading. */
function renderInteractions(sec) {
  const part = sec.interactions;
  const inp = $('#resp-inp');
  inp.hidden = !(part && part.inp);
  inp.textContent = part && part.inp ? words(part.inp) : '';
  $('#resp-interactions').hidden = !part;
  if (!part) { $('#interactions tbody').replaceChildren(); return; }
  $('#resp-inter-found').replaceChildren(...words(part.found).map((s) => el('p', { text: s })));
  const has = part.rows.length > 0;
  $('#resp-bars-fig').hidden = !has;
  $('#resp-tasks-fig').hidden = !has;
  $('#interactions').hidden = !has;
  $('#resp-inter-reading').replaceChildren(...words(part.reading).map((s) => el('p', { text: s })));
  if (!has) { $('#interactions tbody').replaceChildren(); return; }
  $('#resp-bars-caption').textContent = words(part.bars_caption);
  $('#resp-bars').setAttribute('aria-label', words(part.bars_caption));
  $('#resp-tasks-caption').textContent = words(part.tasks_caption);
  $('#resp-tasks').setAttribute('aria-label', words(part.tasks_caption));
  const heads = words(part.heads);
  $('#interactions caption').textContent = words(part.caption);
  $('#interactions thead').replaceChildren(el('tr', {}, ...heads.map((h) => el('th', { scope: 'col', text: h }))));
  $('#interactions tbody').replaceChildren(...part.rows.map((r) => el('tr', { dataset: { interaction: r.id } },
    el('th', { scope: 'row', text: r.id }),
    el('td', { text: words(r.kind) }),
    ...part.keys.map((k) => el('td', { dataset: { metric: k }, text: r.cells[k] })))));
}

function renderText(sec) {
  renderInteractions(sec);
  $('#resp-about').replaceChildren(...words(sec.about).map((s) => el('p', { text: s })));
  $('#resp-tbt').textContent = words(sec.tbt);
  $('#resp-reading').replaceChildren(...words(sec.reading).map((s) => el('p', { text: s })));
  $('#resp-assumptions').textContent = words(sec.assumptions);
}

/** Shows the section of the current result (hidden when it has none). */
function render() {
  const section = $('#responsiveness');
  const result = app.result;
  if (result === shown) return;
  const sec = result && result.responsiveness;
  if (sec && !wasm) {
    built ||= fullWasm().then(mount);
    built.then(render);
    return;
  }
  shown = result;
  // A drawing of the previous section under way is dropped with it.
  chartsJob++;
  chartsDone = [];
  if (view) { view.free(); view = null; }
  section.hidden = !sec;
  if (!sec) { delete section.dataset.query; return; }
  fillControls();
  const err = $('#resp-error');
  err.hidden = !sec.error;
  err.textContent = sec.error ? words(sec.error) : '';
  $('#resp-body').hidden = !!sec.error;
  // section[data-query] (and [data-lang]) say what is shown once it is
  // all drawn: the tests' hook.
  const query = document.body.dataset.query || '';
  const shownNow = () => { section.dataset.query = query; section.dataset.lang = lang(); };
  if (sec.error) { shownNow(); return; }
  renderTable(sec);
  renderText(sec);
  view = new wasm.RespView(sec);
  drawCharts(shownNow);
}



/** Builds the section with the loaded module's words and wires it. */
function mount(m) {
  wasm = m;
  words_ = m.catalog().responsiveness;
  const section = $('#responsiveness');
  build(section);
  relabel();
  for (const id of ['#resp-yield', '#resp-cost', '#resp-quanta', '#resp-window']) $(id).addEventListener('change', applyControls);
  $('#resp-use-measured').addEventListener('click', useMeasured);
  onLangChange(() => {
    relabel();
    const sec = shown && shown.responsiveness;
    const done = () => { section.dataset.lang = lang(); };
    if (sec && sec.error) $('#resp-error').textContent = words(sec.error);
    if (sec && !sec.error) { renderTable(sec); renderText(sec); drawCharts(done); } else done();
  });
  new ResizeObserver(() => requestAnimationFrame(() => drawCharts())).observe(section);
  app.dark.addEventListener('change', () => drawCharts());
}

export function initResponsiveness(context) {
  ctx = context;
  // Each shown result (body[data-updates] changes once it is drawn), in a
  // task of its own after the one that drew it.
  new MutationObserver(() => setTimeout(render, 0)).observe(document.body, { attributes: true, attributeFilter: ['data-updates'] });
  render();
}
