// The experiment's calls to the page's one worker, through its one client
// (www/client.js; the protocol is www/worker-loop.js, the jobs www/jobs.js):
// the run lane (`runs` in state.js: only the newest edit's run matters),
// progress, the result, and the banner when the worker fails. Small runs are
// computed inline on the main thread by the same job code; the scenarios,
// sweeps, imports and exports use the same client for their own lanes and
// requests.
import { t, lang } from './i18n.js';
import { $ } from './dom.js';
import { limits } from './catalog.js';
import { app, runs, setState } from './state.js';
import { showRunError } from './banner.js';
import { importedTasks, importedTrace, importedInteractions } from './io.js';
import { show } from './results.js';

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

/** Runs `query` (small and `inline`, which the page's module can run:
 * inline; else in the worker, cancelling a large stale run or coalescing
 * behind a small one: the lane decides). */
export function request(query, large, slices, inline) {
  const max = limits().inline_max_slices;
  inline = inline && !large && slices <= max && !importedTasks();
  send(query, large, { inline: inline ? { maxSlices: max } : null });
}

function send(query, large, opts = {}) {
  const t0 = performance.now();
  // The language rides along so that a refusal (a drawn workload too
  // large) is said in the page's; the section's resp_* keys beside it.
  const args = { query: `${query}&lang=${lang()}`, large, tasks: importedTasks(), starts: importedTrace(), interactions: importedInteractions(), resp: app.page ? app.page.resp_query : '' };
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
  // A worker's run: the round trip beyond the job's own time (posting,
  // structured cloning, queueing), ending when the result arrived.
  if (!out.inline && out.ms >= 0) performance.measure('tailslice:transfer', { start: Math.min(received, t0 + out.ms), end: received });
  show(out.value, query, out.ms, t0, received);
}

/** The worker failed: it has been replaced; say so (the client retries once). */
export function onWorkerFailure({ message, retrying }) {
  if (retrying) {
    showRunError(t('banner.worker.retry', { message }));
    return;
  }
  showRunError(t('banner.worker.failed', { message }), { reload: true });
  setState('error');
}

/** Makes the worker's wasm panic (the recovery path's test hook); the
 * client retries the current experiment's run on a new worker. */
export function crashWorker() { send(app.page.experiment, false, { job: 'panic' }); }
