// The page's one client for its one worker (www/worker.js; the protocol is
// described there and in docs/page-internals.md). Every caller (the experiment, the
// scenarios, the sweeps, imports and exports) goes through it:
//
//   const job = client.request('sweep', args, { onProgress });
//   const out = await job.done;   // {status: 'done', value, ms}
//                                 // | {status: 'cancelled'}
//                                 // | {status: 'error', message, fatal, words}
//   job.cancel();
//
// The promise never rejects. A lane (`client.lane()`) keeps only the newest
// request of one kind of work: a new request cancels a long one and replaces
// a short one that has not started (the older edit's answer is not waited
// for). A small run can be computed `inline` on the main thread with the
// page's own wasm and the same job code (www/jobs.js); if the drawn workload
// turns out larger than `inline.maxSlices`, it moves to the worker.
//
// The worker is started on first need (its wasm is not part of the page's
// first download). Recovery: when its wasm panics or the worker fails, it is
// replaced and each job it had is retried once; `onFailure` callbacks hear
// of it (`{message, retrying}`) so the page can show a banner.
import * as pageWasm from './tailslice.js';
import * as jobs from './jobs.js';

/** A cancelled job whose worker has not confirmed within this many ms is
 * stuck in one long wasm call: the worker is replaced (the only way to
 * stop a wasm call) and its other jobs are sent again. */
const CANCEL_GRACE_MS = 150;
/** A lane cancels its current job for a newer request once the job is long:
 * it said it is large, reported step progress, or ran this many ms. */
const LONG_AFTER_MS = 200;

/**
 * A client for the module worker at `url` that speaks this protocol (see
 * www/worker-loop.js): the page's worker (www/worker.js, exported below as
 * `request`, `lane`, …) and the trace reader's (www/trace-worker.js,
 * `traceClient`) are two instances of it.
 */
export function createClient(url) {
  let worker = null;
  let nextId = 1;
  const live = new Map(); // id → job record
  const failureHooks = [];
  let failures = 0;       // worker failures since the last good answer
  let restarts = 0;       // workers replaced after a failure (window.tailslice.workerRestarts)
  let started = 0;        // workers started in all (window.tailslice.workersStarted)

  function spawn() {
    const w = new Worker(url, { type: 'module' });
    started++;
    w.onmessage = onMessage;
    // The worker itself failed (e.g. "WebAssembly.instantiate(): Out of
    // memory"): a new one, each job retried once.
    w.onerror = (e) => { e.preventDefault?.(); if (w === worker) recover(e.message || 'unknown error'); };
    return w;
  }

  function post(rec) {
    if (!worker) worker = spawn();
    rec.sentAt = performance.now();
    worker.postMessage({ type: 'request', id: rec.id, job: rec.job, args: rec.args }, rec.transfer || []);
  }

  function settle(rec, outcome) {
    if (rec.settled) return;
    rec.settled = true;
    live.delete(rec.id);
    clearTimeout(rec.graceTimer);
    rec.resolve(outcome);
  }

  function onMessage(event) {
    const msg = event.data;
    const rec = live.get(msg.id);
    if (!rec) return;
    if (msg.type === 'progress') {
      const p = msg.progress;
      if (p && (p.large || p.total !== undefined || p.frac !== undefined)) rec.long = true;
      if (!rec.cancelled && rec.onProgress) rec.onProgress(p);
      return;
    }
    if (msg.type === 'cancelled') { settle(rec, { status: 'cancelled' }); return; }
    if (msg.type === 'error' && msg.fatal) {
      // This instance must not be used again.
      recover(msg.message);
      return;
    }
    if (rec.cancelled) { settle(rec, { status: 'cancelled' }); return; }
    if (msg.type === 'error') { settle(rec, { status: 'error', message: msg.message, fatal: false, words: msg.words }); return; }
    failures = 0;
    settle(rec, { status: 'done', value: msg.value, ms: msg.ms });
  }

  /** Replaces a broken worker; retries each of its jobs once (the first
   * failure since a good answer), else fails them with the message. */
  function recover(message) {
    if (worker) worker.terminate();
    worker = null;
    failures++;
    restarts++;
    const retrying = failures <= 1;
    for (const hook of failureHooks) hook({ message, retrying });
    for (const rec of [...live.values()]) {
      if (rec.cancelled) { settle(rec, { status: 'cancelled' }); continue; }
      if (retrying && rec.tries < 2) {
        rec.tries++;
        if (rec.retry) { rec.job = rec.retry.job; rec.args = rec.retry.args; }
        post(rec);
      } else {
        settle(rec, { status: 'error', message, fatal: true });
      }
    }
  }

  /** Replaces a worker stuck in a cancelled job; its other jobs start again. */
  function unstick() {
    if (worker) worker.terminate();
    worker = null;
    for (const rec of [...live.values()]) {
      if (rec.cancelled) settle(rec, { status: 'cancelled' });
      else post(rec);
    }
  }

  function cancel(rec) {
    if (rec.settled || rec.cancelled) return;
    rec.cancelled = true;
    worker.postMessage({ type: 'cancel', id: rec.id });
    rec.graceTimer = setTimeout(() => { if (!rec.settled) unstick(); }, CANCEL_GRACE_MS);
  }

  /** Runs a job on the main thread (small runs); null when it must move to the
   * worker (its drawn size is over `maxSlices`), else the outcome. */
  function runInline(job, args, { maxSlices, onProgress }) {
    const t0 = performance.now();
    let move = null;
    const ctx = {
      cache: {},
      progress: (p) => {
        if (p && p.sized && p.slices > maxSlices) move = p;
        else if (onProgress) onProgress(p);
      },
    };
    const gen = jobs[job](pageWasm, args, ctx);
    try {
      for (;;) {
        const step = gen.next();
        if (step.done) return { status: 'done', value: step.value.value, ms: performance.now() - t0, inline: true };
        if (move) {
          gen.return();
          return { move };
        }
      }
    } catch (err) {
      return { status: 'error', message: String((err && err.message) || err), fatal: false };
    }
  }

  /**
   * Starts `job` (a name in www/jobs.js) with `args`. Options: `onProgress(p)`,
   * `transfer` (buffers of args to transfer), `inline: {maxSlices}` (compute
   * it here, see runInline), `retry: {job, args}` (what a retry after a crash
   * sends instead). Returns `{id, done, cancel(), long}`.
   */
  function request(job, args, opts = {}) {
    const rec = {
      id: nextId++, job, args, transfer: opts.transfer, retry: opts.retry,
      onProgress: opts.onProgress, tries: 1, long: !!(args && args.large), t0: performance.now(),
    };
    const handle = {
      id: rec.id,
      done: new Promise((resolve) => { rec.resolve = resolve; }),
      cancel: () => { if (live.has(rec.id)) cancel(rec); else if (!rec.settled) settle(rec, { status: 'cancelled' }); },
      get long() { return rec.long || performance.now() - rec.t0 > LONG_AFTER_MS; },
      get inline() { return !!rec.inline; },
    };
    if (opts.inline) {
      const out = runInline(job, args, { maxSlices: opts.inline.maxSlices, onProgress: opts.onProgress });
      if (!out.move) {
        rec.inline = true;
        rec.settled = true;
        rec.resolve(out);
        return handle;
      }
      rec.args = { ...args, large: out.move.large };
      rec.long = out.move.large;
      if (opts.onProgress) opts.onProgress(out.move);
    }
    live.set(rec.id, rec);
    post(rec);
    return handle;
  }

  /**
   * A lane: only its newest request matters. `lane.request(job, args, opts)`
   * cancels the lane's running job if it is long (or if the new one runs
   * inline, or `opts.replace` says so), else queues the new request until
   * that job ends (the older
   * queued one is dropped, resolving as cancelled). Returns the same handle
   * as `request`; `lane.busy` says whether a job runs or waits.
   */
  function lane() {
    let current = null; // handle running
    let queued = null;  // {job, args, opts, resolve, handle}
    const start = (job, args, opts) => {
      const h = request(job, args, opts);
      current = h;
      h.done.then(() => {
        if (current !== h) return;
        current = null;
        if (queued) {
          const q = queued;
          queued = null;
          const next = start(q.job, q.args, q.opts);
          next.done.then(q.resolve);
          q.handle.cancel = next.cancel;
        }
      });
      return h;
    };
    return {
      get busy() { return !!(current || queued); },
      request(job, args, opts = {}) {
        if (queued) { queued.resolve({ status: 'cancelled' }); queued = null; }
        if (current && !opts.inline && !opts.replace && !current.long) {
          let resolve;
          const done = new Promise((r) => { resolve = r; });
          const handle = { id: 0, done, cancel: () => { if (queued && queued.handle === handle) { queued = null; resolve({ status: 'cancelled' }); } }, long: false };
          queued = { job, args, opts, resolve, handle };
          return handle;
        }
        if (current) { const c = current; current = null; c.cancel(); }
        return start(job, args, opts);
      },
      /** Cancels what runs and what waits. */
      cancel() {
        if (queued) { queued.resolve({ status: 'cancelled' }); queued = null; }
        if (current) { const c = current; current = null; c.cancel(); }
      },
    };
  }

  /** Starts the worker (it fetches and compiles its wasm) ahead of need. */
  function warm() { if (!worker) worker = spawn(); }

  /** Hears of worker failures: `cb({message, retrying})`. */
  function onFailure(cb) { failureHooks.push(cb); }

  /** Workers replaced after a failure (for tests). */
  function workerRestarts() { return restarts; }

  /** Workers started in all, and jobs sent and not yet answered (for tests). */
  function workersStarted() { return started; }
  function liveJobs() { return live.size; }

  return { request, lane, warm, onFailure, workerRestarts, workersStarted, liveJobs };
}

const main = createClient(new URL('./worker.js', import.meta.url));
export const { request, lane, warm, onFailure, workerRestarts, workersStarted, liveJobs } = main;

/** The trace reader's worker: its own wasm (trace-web/), same protocol. */
export const traceClient = createClient(new URL('./trace-worker.js', import.meta.url));
