// tailslice's one worker (a module worker) with one wasm instance: the
// worker's own module (worker-web/, built for speed), fetched when this
// worker starts, which is when the page first needs it. One protocol for
// every job in www/jobs.js (run, scenario, sweep, importTasks, exportFile,
// panic); the page's side is www/client.js.
//
// page → worker
//   {type: "request", id, job, args}   start a job (args: see jobs.js)
//   {type: "cancel", id}               stop it at its next step boundary
// worker → page
//   {type: "progress", id, progress}   whatever the job reports
//   {type: "result", id, value, ms}    its answer (typed arrays transferred)
//   {type: "cancelled", id}            it stopped after a cancel
//   {type: "error", id, message, fatal}
// `fatal`: the wasm panicked (message = the panic's); this instance must not
// be used again, the client replaces the worker. Jobs run concurrently:
// between two steps of one, the worker yields to its message queue, so a
// cancel or a newer request (a run while a sweep goes on) is taken in
// there; each job then goes on a step at a time, in turn.
import init, * as wasm from './tailslice-worker-web.js';
import * as jobs from './jobs.js';

const ready = init({ module_or_path: new URL('./tailslice-worker-web_bg.wasm', import.meta.url) });
const live = new Set();
const cancelled = new Set();
const cache = {};
let broken = false; // the wasm failed to load: every job fails, fatally
ready.catch(() => { broken = true; });

/** Lets queued messages (cancel, new requests) in before the next step. */
const yieldToQueue = () => new Promise((resolve) => setTimeout(resolve, 0));

async function start({ id, job, args }) {
  const fn = jobs[job];
  if (typeof fn !== 'function') {
    self.postMessage({ type: 'error', id, message: `unknown job "${job}"`, fatal: false });
    return;
  }
  const ctx = { cache, progress: (progress) => self.postMessage({ type: 'progress', id, progress }) };
  let gen = null;
  live.add(id);
  try {
    await ready;
    const t0 = performance.now();
    gen = fn(wasm, args || {}, ctx);
    for (;;) {
      const step = await gen.next();
      if (step.done) {
        const { value, transfer = [] } = step.value;
        self.postMessage({ type: 'result', id, value, ms: performance.now() - t0 }, transfer);
        return;
      }
      await yieldToQueue();
      if (cancelled.has(id)) {
        await gen.return();
        self.postMessage({ type: 'cancelled', id });
        return;
      }
    }
  } catch (err) {
    const panic = broken ? null : safePanic();
    self.postMessage({ type: 'error', id, message: panic || String((err && err.message) || err), fatal: broken || !!panic });
  } finally {
    live.delete(id);
    cancelled.delete(id);
  }
}

function safePanic() {
  try { return wasm.lastPanic(); } catch { return null; }
}

self.onmessage = (event) => {
  const msg = event.data;
  if (!msg) return;
  if (msg.type === 'cancel') { if (live.has(msg.id)) cancelled.add(msg.id); }
  else if (msg.type === 'request') start(msg);
};
