// tailslice sweeps panel: a seed sweep (histogram of a figure or of its
// change versus the first policy, p5/p50/p95 and this seed marked) and a
// quantum sweep (each policy's figure against the quantum on a log axis,
// best quantum marked). Both run in the page's worker (www/client.js) a
// chunk at a time with progress; Cancel stops them between chunks. The
// charts, legends included, are drawn by the wasm (Rust's chart module),
// like the page's other charts.
import { fullWasm } from './full-wasm.js';
import { t, lang, fmtNumber, onLangChange } from './i18n.js';
import { exportPng } from './io.js';
import { catalog, limits, metricTitle, policyTitle as title, words } from './catalog.js';
import { request, warm } from './client.js';
import { $, el, sizeCanvas } from './dom.js';

let ctx = null;     // {query(), tasks(), dark()}
let running = null; // {job, kind}: the sweep under way
const state = { seeds: null, quanta: null };
let wasm = null;    // the worker's module on the main thread (the charts), from the first sweep

function setRunning(on) {
  $('#sweep-cancel').hidden = !on;
  $('#sweep-progress').hidden = !on;
  $('#sweep-seeds-run').disabled = on;
  $('#sweep-quanta-run').disabled = on;
  document.body.dataset.sweep = on ? 'running' : (document.body.dataset.sweep === 'running' ? 'idle' : document.body.dataset.sweep || 'idle');
}

function fail(message) {
  running = null;
  setRunning(false);
  document.body.dataset.sweep = 'error';
  const box = $('#sweep-error');
  box.textContent = t('sweep.failed', { message });
  box.hidden = false;
  $('#sweep-status-text').textContent = '';
}

function start(kind) {
  // The status line, progress, Cancel and errors sit under the column of
  // the sweep they are about.
  $(`#sweep-${kind}-run`).closest('.field').append($('#sweep-status'), $('#sweep-error'));
  $('#sweep-error').hidden = true;
  // The language rides along so that a refused field is said in the page's.
  const args = { kind, query: `${ctx.query()}&lang=${lang()}` };
  if (kind === 'seeds') {
    if (ctx.tasks()) { fail(t('sweep.no.tasks')); return; }
    args.range = $('#sweep-seeds').value.trim();
  } else {
    args.range = $('#sweep-quanta').value.trim();
    args.steps = Math.round(Number($('#sweep-steps').value) || limits().sweep_steps);
    args.tasks = ctx.tasks();
  }
  const t0 = performance.now();
  performance.mark('tailslice:sweep:start');
  setRunning(true);
  $('#sweep-progress').removeAttribute('value');
  $('#sweep-status-text').textContent = t('sweep.progress', { what: t(`sweep.what.${kind}`), done: 0, total: '…' });
  const job = request('sweep', args, { onProgress: (p) => onProgress(kind, p) });
  running = { job, kind };
  // The charts' Rust is the worker module's, loaded on the main thread
  // with the first sweep (full-wasm.js), not with the page.
  Promise.all([job.done, fullWasm()]).then(([out, m]) => {
    wasm = m;
    if (running && running.job === job) running = null;
    if (out.status === 'cancelled') return;
    if (out.status === 'error') { fail(out.message); return; }
    const end = performance.now();
    const ms = end - t0;
    performance.measure(`tailslice:sweep:${kind}`, { start: t0, end });
    setRunning(false);
    state[kind] = { summary: out.value.summary, ms, total: out.value.total };
    document.body.dataset.sweepMs = ms.toFixed(1);
    if (kind === 'seeds') renderSeeds(); else renderQuanta();
    document.body.dataset.sweep = 'done';
    document.body.dataset.sweepKind = kind;
  });
}

/** Cancel: the worker stops the sweep before its next chunk. */
function cancel() {
  if (!running) return;
  running.job.cancel();
  running = null;
  setRunning(false);
  document.body.dataset.sweep = 'cancelled';
  $('#sweep-status-text').textContent = t('sweep.cancelled');
}

function onProgress(kind, p) {
  if (!running) return;
  const bar = $('#sweep-progress');
  bar.max = p.total;
  bar.value = p.done;
  $('#sweep-status-text').textContent = t('sweep.progress', { what: t(`sweep.what.${kind}`), done: p.done, total: p.total });
}

function fillMetricSelect(select, metrics, summary) {
  const keep = select.value;
  select.replaceChildren();
  for (const m of metrics) {
    select.append(el('option', {
      value: m,
      text: summary && summary.summary && summary.summary.changes.length
        ? t('sweep.change', { policy: title(summary.summary.changes[0].policy), base: title(summary.summary.changes[0].base), metric: metricTitle(m) })
        : metricTitle(m),
    }));
  }
  select.value = metrics.includes(keep) ? keep : metrics[0];
}

function renderSeeds() {
  const s = state.seeds;
  if (!s) return;
  const sum = s.summary;
  const box = $('#seed-result');
  box.hidden = false;
  const select = $('#sweep-metric');
  fillMetricSelect(select, catalog().seed_sweep_metrics, sum);
  const m = select.value;
  // Rust's reading of the figure: the distribution, this seed's figure
  // and the sentence (sweep_reading::read_seeds).
  const r = sum.readings[m];
  const canvas = $('#sweep-hist');
  const dpr = sizeCanvas(canvas, 260);
  wasm.drawSeedHistogram(canvas, dpr, ctx.dark(), {
    edges: r.histogram.edges,
    counts: r.histogram.counts,
    p5: r.p5, p50: r.p50, p95: r.p95,
    current: r.current,
    x_desc: t(r.kind === 'change' ? 'sweep.axis.change' : 'sweep.axis.value', { metric: metricTitle(m) }),
    y_desc: t('sweep.axis.seeds'),
    current_label: t('sweep.current', { seed: sum.seed }),
  });
  const stats = $('#seed-stats');
  stats.textContent = words(r.text);
  // Exact figures for scripts and tests.
  Object.assign(stats.dataset, {
    metric: m, kind: r.kind, policy: r.policy,
    p5: String(r.p5), p50: String(r.p50), p95: String(r.p95),
    seeds: String(r.seeds), current: String(r.current),
  });
  $('#sweep-status-text').textContent = t('sweep.done.seeds', { n: sum.summary.seeds, ms: fmtNumber(s.ms, 0) });
}

function renderQuanta() {
  const s = state.quanta;
  if (!s) return;
  const sum = s.summary;
  $('#quantum-result').hidden = false;
  const select = $('#sweep-qmetric');
  if (!select.options.length) fillMetricSelect(select, catalog().quantum_sweep_metrics, null);
  const m = select.value;
  const canvas = $('#sweep-quanta-chart');
  const dpr = sizeCanvas(canvas, 280);
  wasm.drawQuantumChart(canvas, dpr, ctx.dark(), {
    quanta: sum.quanta,
    policies: sum.policies,
    values: sum.series.map((se) => se[m]),
    best: sum.best_quantum[m],
    quantum: sum.quantum,
    x_desc: t('sweep.axis.quantum'),
    y_desc: t('sweep.axis.latency', { metric: metricTitle(m) }),
  });
  const ul = $('#best-quantum');
  ul.replaceChildren();
  ul.dataset.quanta = sum.quanta.join(',');
  for (const b of sum.best) {
    const li = el('li', { dataset: { policy: b.policy }, text: words(b.text) });
    if (b.p95) Object.assign(li.dataset, { quantum: String(b.p95.quantum), value: String(b.p95.value) });
    ul.append(li);
  }
  if (sum.note) ul.append(el('li', { text: words(sum.note) }));
  $('#sweep-status-text').textContent = t('sweep.done.quanta', { n: sum.quanta.length, ms: fmtNumber(s.ms, 0) });
}

/** Redraws the sweep charts (resize, colour scheme, language). */
export function redrawSweeps() {
  if (state.seeds) renderSeeds();
  if (state.quanta) renderQuanta();
}

export function initSweep(context) {
  ctx = context;
  $('#sweep-seeds-run').addEventListener('click', () => start('seeds'));
  $('#sweep-quanta-run').addEventListener('click', () => start('quanta'));
  $('#sweep-cancel').addEventListener('click', cancel);
  $('#sweep-metric').addEventListener('change', renderSeeds);
  $('#sweep-qmetric').addEventListener('change', renderQuanta);
  $('#export-png-sweep-hist').addEventListener('click', () => exportPng($('#sweep-hist'), 'tailslice-seed-sweep.png'));
  $('#export-png-sweep-quanta').addEventListener('click', () => exportPng($('#sweep-quanta-chart'), 'tailslice-quantum-sweep.png'));
  for (const id of ['#sweep-seeds', '#sweep-quanta']) {
    $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); start(id === '#sweep-seeds' ? 'seeds' : 'quanta'); } });
  }
  onLangChange(() => {
    const s = $('#sweep-metric');
    if (state.seeds) fillMetricSelect(s, catalog().seed_sweep_metrics, state.seeds.summary);
    const q = $('#sweep-qmetric');
    if (q.options.length) fillMetricSelect(q, catalog().quantum_sweep_metrics, null);
    redrawSweeps();
  });
  let queued = false;
  new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; redrawSweeps(); });
  }).observe($('#sweeps'));
  document.body.dataset.sweep = 'idle';
  // Start the worker (its wasm is not in the page's first download) when
  // the visitor reaches for the panel, so the first sweep does not wait
  // for it to compile.
  // The charts' module on the main thread likewise.
  const warmBoth = () => { warm(); fullWasm(); };
  for (const type of ['pointerover', 'focusin']) $('#sweeps').addEventListener(type, warmBoth, { once: true });
  Object.assign(window.tailslice, { startSweep: start, cancelSweep: cancel });
}
