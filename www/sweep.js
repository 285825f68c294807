// tailslice sweeps panel: a seed sweep (histogram of a figure or of its
// change versus the first policy, p5/p50/p95 and this seed marked) and a
// quantum sweep (each policy's figure against the quantum on a log axis,
// best quantum marked). Both run in the page's worker (www/client.js) a
// chunk at a time with progress; Cancel stops them between chunks. The
// charts, legends included, are drawn by the wasm (Rust's chart module),
// like the page's other charts.
import { drawSeedHistogram, drawQuantumChart } from './tailslice.js';
import { t, lang, fmtNumber, onLangChange } from './i18n.js';
import { exportPng } from './io.js';
import { catalog, limits, metricTitle, policyTitle as title } from './catalog.js';
import { request, warm } from './client.js';
import { $, el, sizeCanvas } from './dom.js';

let ctx = null;     // {query(), tasks(), dark()}
let running = null; // {job, kind}: the sweep under way
const state = { seeds: null, quanta: null };

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
  job.done.then((out) => {
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
  const mi = sum.metrics.indexOf(m);
  const change = sum.summary.changes[0];
  let dist, current, policy;
  if (change) {
    dist = change.changes_pct.find((d) => d.metric === m).distribution;
    current = sum.current_changes[0][mi];
    policy = change.policy;
  } else {
    const p = sum.summary.policies[0];
    dist = p.metrics.find((d) => d.metric === m).distribution;
    current = sum.current_values[0][mi];
    policy = p.policy;
  }
  const canvas = $('#sweep-hist');
  const dpr = sizeCanvas(canvas, 260);
  drawSeedHistogram(canvas, dpr, ctx.dark(), {
    edges: dist.histogram.edges,
    counts: dist.histogram.counts,
    p5: dist.p5, p50: dist.p50, p95: dist.p95,
    current: current ?? null,
    x_desc: change ? t('sweep.axis.change', { metric: metricTitle(m) }) : t('sweep.axis.value', { metric: metricTitle(m) }),
    y_desc: t('sweep.axis.seeds'),
    current_label: t('sweep.current', { seed: sum.seed }),
  });
  const stats = $('#seed-stats');
  const vars = {
    n: sum.summary.seeds, from: sum.from, to: sum.to, policy: title(policy), metric: metricTitle(m),
    p5: fmtNumber(dist.p5, 1), p50: fmtNumber(dist.p50, 1), p95: fmtNumber(dist.p95, 1),
    seed: sum.seed, current: fmtNumber(current, 1),
    better: change ? change.p95_better : 0, worse: change ? change.p95_worse : 0,
  };
  stats.textContent = t(change ? 'sweep.stats.change' : 'sweep.stats.value', vars);
  // Exact figures for scripts and tests.
  Object.assign(stats.dataset, {
    metric: m, kind: change ? 'change' : 'value', policy,
    p5: String(dist.p5), p50: String(dist.p50), p95: String(dist.p95),
    seeds: String(sum.summary.seeds), current: String(current),
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
  // Rust's sweep::best_quanta names each figure's best `best_<metric>`.
  const best = sum.best.map((b) => (b.depends_on_quantum ? b[`best_${m}`].quantum : null));
  drawQuantumChart(canvas, dpr, ctx.dark(), {
    quanta: sum.quanta,
    policies: sum.policies,
    values: sum.series.map((se) => se[m]),
    best,
    quantum: sum.quantum,
    x_desc: t('sweep.axis.quantum'),
    y_desc: t('sweep.axis.latency', { metric: metricTitle(m) }),
  });
  const ul = $('#best-quantum');
  ul.replaceChildren();
  ul.dataset.quanta = sum.quanta.join(',');
  for (const b of sum.best) {
    const li = el('li', { dataset: { policy: b.policy } });
    if (b.depends_on_quantum) {
      li.dataset.quantum = String(b.best_p95.quantum);
      li.dataset.value = String(b.best_p95.value);
      li.textContent = t('sweep.best', {
        policy: title(b.policy), q: b.best_p95.quantum, v: fmtNumber(b.best_p95.value, 1),
        q99: b.best_p99.quantum, qm: b.best_mean.quantum,
      }) + (b.p95_interior ? '' : t('sweep.best.edge'));
    } else {
      li.textContent = t('sweep.best.none', { policy: title(b.policy) });
    }
    ul.append(li);
  }
  if (sum.switch_cost > 0) {
    ul.append(el('li', { text: t('sweep.cs', { cs: sum.switch_cost }) }));
  }
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
  for (const type of ['pointerover', 'focusin']) $('#sweeps').addEventListener(type, warm, { once: true });
  Object.assign(window.tailslice, { startSweep: start, cancelSweep: cancel });
}
