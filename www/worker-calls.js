// Every call the page makes to its workers, in one file: the simulation
// worker (worker.js: run, with progress, coalescing, cancel-by-terminate
// and one retry after a crash; small runs answered inline by the same
// Runner), the sweeps' jobs worker and the exports' jobs worker
// (jobs-worker.js). The code is as it was in app.js, sweep.js and io.js;
// keeping the call sites together makes replacing them with one worker
// client a change to this file alone.
import { Runner } from './tailslice.js';
import { t } from './i18n.js';
import { $ } from './dom.js';
import { limits } from './catalog.js';
import { app, setState } from './state.js';
import { showRunError } from './banner.js';
import { importedTasks, importedTrace } from './io.js';
import { show } from './results.js';

// ---------------------------------------------------------------- simulation (worker.js)

export function spawnWorker() {
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  w.onmessage = onWorkerMessage;
  // The worker itself failed (e.g. "WebAssembly.instantiate(): Out of
  // memory"): start a new one and retry once; then say what to do.
  w.onerror = (e) => { e.preventDefault?.(); recoverWorker(e.message || 'unknown error'); };
  return w;
}

/** Replaces a broken worker and retries the job it had, once. */
function recoverWorker(message) {
  const job = app.busy;
  app.worker.terminate();
  app.worker = spawnWorker();
  app.busy = null;
  app.workerFailures++;
  app.workerRestarts++;
  if (app.workerFailures <= 1 && job) {
    showRunError(t('banner.worker.retry', { message }));
    send(job.query, job.large);
    return;
  }
  showRunError(t('banner.worker.failed', { message }), { reload: true });
  setState('error');
}

/** Runs `query` (small: inline; else in the worker, cancelling a large
 * stale run or coalescing behind a small one). */
export function request(query, large, slices) {
  if (!large && slices <= limits().inline_max_slices && !importedTasks()) {
    // A small run: cancel whatever the worker was doing for an older edit
    // and answer now.
    if (app.busy) {
      app.worker.terminate();
      app.worker = spawnWorker();
      app.busy = null;
    }
    app.pending = null;
    runInline(query);
    return;
  }
  if (app.busy) {
    if (app.busy.large) {
      // Cancel: a large run would make the user wait for a stale answer.
      app.worker.terminate();
      app.worker = spawnWorker();
      app.busy = null;
    } else {
      app.pending = { query, large };
      return;
    }
  }
  send(query, large);
}

function send(query, large) {
  const id = app.nextId++;
  app.busy = { id, query, large, t0: performance.now() };
  setState('running');
  if (large) {
    $('#progress').hidden = false;
    $('#progress').removeAttribute('value');
    $('#status-text').textContent = t('status.simulating');
  }
  app.worker.postMessage({ type: 'run', id, query, large, tasks: importedTasks(), starts: importedTrace() });
}

/** Makes the simulation worker's wasm panic (the recovery path's test hook). */
export function crashWorker() {
  app.busy = { id: app.nextId++, query: app.page.experiment, large: false, t0: performance.now() };
  app.worker.postMessage({ type: 'panic', id: app.busy.id });
}

/** Runs a small experiment on the main thread (see limits().inline_max_slices). */
function runInline(query) {
  const t0 = performance.now();
  let result;
  try {
    const runner = new Runner(query);
    try {
      // The first step draws the workload: if the draw is far larger than
      // the mix's mean promised, hand the run to the worker instead.
      runner.step();
      const slices = runner.slices();
      if (slices > limits().inline_max_slices) {
        send(query, slices > limits().large_slices);
        return;
      }
      while (runner.step()) { /* one step per policy */ }
      result = runner.finish();
    } finally {
      runner.free();
    }
  } catch (err) {
    showRunError(String((err && err.message) || err));
    setState('error');
    return;
  }
  const received = performance.now();
  performance.measure('tailslice:simulate', { start: t0, end: received });
  show(result, query, received - t0, t0, received);
}

function onWorkerMessage(event) {
  const msg = event.data;
  if (!app.busy || msg.id !== app.busy.id) return;
  if (msg.type === 'sized') {
    // The drawn workload's true size: a large run is cancelled by the next
    // edit rather than waited for.
    if (msg.large && !app.busy.large) {
      app.busy.large = true;
      $('#progress').hidden = false;
      $('#progress').removeAttribute('value');
      $('#status-text').textContent = t('status.simulating');
    }
    return;
  }
  if (msg.type === 'progress') {
    const p = $('#progress');
    p.hidden = false;
    p.max = msg.total;
    p.value = msg.done;
    $('#status-text').textContent = t('status.step', { label: msg.label, step: msg.done + 1, total: msg.total });
    return;
  }
  const job = app.busy;
  app.busy = null;
  const received = performance.now();
  $('#progress').hidden = true;
  if (msg.type === 'error' && msg.fatal) {
    // The worker's wasm panicked: never reuse that instance; retry the
    // newest request on a new one.
    app.busy = app.pending || job;
    app.pending = null;
    recoverWorker(msg.message);
    return;
  }
  if (app.pending) {
    const next = app.pending;
    app.pending = null;
    send(next.query, next.large);
  }
  if (msg.type === 'error') {
    showRunError(msg.message);
    setState('error');
    return;
  }
  app.workerFailures = 0;
  performance.measure('tailslice:simulate', { start: job.t0, end: received });
  show(msg.result, msg.query, msg.ms, job.t0, received);
}

// ---------------------------------------------------------------- sweeps (jobs-worker.js)

let sweepWorker = null;
let sweepHandlers = null; // {onMessage(e), fail(message)}

function spawnSweep() {
  sweepWorker = new Worker(new URL('./jobs-worker.js', import.meta.url), { type: 'module' });
  sweepWorker.onmessage = (e) => sweepHandlers.onMessage(e);
  sweepWorker.onerror = (e) => sweepHandlers.fail(e.message || 'worker error');
}

/** Where the sweep worker's answers go (set once by sweep.js). */
export function onSweepMessages(handlers) { sweepHandlers = handlers; }

/** Sends one sweep request (`{type: 'seeds'|'quanta', id, query, range, …}`). */
export function postSweep(msg) {
  if (!sweepWorker) spawnSweep();
  sweepWorker.postMessage(msg);
}

/** Cancels a running sweep: the worker is terminated (the next starts anew). */
export function cancelSweepWorker() {
  if (sweepWorker) sweepWorker.terminate();
  sweepWorker = null;
}

/** Starts the sweep worker ahead of the first sweep (its wasm compiles meanwhile). */
export function warmSweepWorker() { if (!sweepWorker) spawnSweep(); }

// ---------------------------------------------------------------- exports (jobs-worker.js)

let jobsWorker = null;
let nextJobId = 1;
const pendingJobs = new Map();

function jobs() {
  if (!jobsWorker) {
    jobsWorker = new Worker(new URL('./jobs-worker.js', import.meta.url), { type: 'module' });
    jobsWorker.onmessage = (e) => {
      const msg = e.data;
      const p = pendingJobs.get(msg.id);
      if (!p || msg.type === 'progress') return;
      pendingJobs.delete(msg.id);
      if (msg.type === 'error') p.reject(new Error(msg.message));
      else p.resolve(msg);
    };
    jobsWorker.onerror = (e) => {
      for (const p of pendingJobs.values()) p.reject(new Error(e.message || 'worker error'));
      pendingJobs.clear();
    };
  }
  return jobsWorker;
}

/** One export job (`{type: 'export', …}`): a promise of the worker's answer. */
export function job(msg) {
  const id = nextJobId++;
  return new Promise((resolve, reject) => {
    pendingJobs.set(id, { resolve, reject });
    jobs().postMessage({ ...msg, id });
  });
}
