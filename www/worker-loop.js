// The worker side of the page's one protocol (the page side is
// www/client.js), shared by the page's worker (www/worker.js, jobs of
// www/jobs.js) and the trace reader's (www/trace-worker.js, jobs of
// www/trace-jobs.js); each loads its own wasm module.
//
// page → worker
//   {type: "request", id, job, args}   start a job
//   {type: "cancel", id}               stop it at its next step boundary
// worker → page
//   {type: "progress", id, progress}   whatever the job reports
//   {type: "result", id, value, ms}    its answer (typed arrays transferred)
//   {type: "cancelled", id}            it stopped after a cancel
//   {type: "error", id, message, fatal, words}
// `words`: the error's message in both languages ({en, zh}) when the wasm
// threw one (a trace error), so the page shows its reader's;
// `fatal`: the wasm panicked (message = the panic's) or did not load; this
// instance must not be used again, the client replaces the worker. Jobs run
// concurrently: between two steps of one, the worker yields to its message
// queue, so a cancel or a newer request (a run while a sweep goes on) is
// taken in there; each job then goes on a step at a time, in turn.
//
// A job is `function* (wasm, args, ctx)` (or `async function*`): it yields
// between steps, reports with `ctx.progress(p)`, keeps what outlives one job
// in `ctx.cache`, and returns `{value, transfer}`. A job may yield a promise
// (a helper's answer): the loop waits for it, letting messages in, and
// hands its value back to the job (a cancel stops the wait at once).
// `jobs.prepare(args, ctx)`, if there is one, runs (awaited) before every
// job; `extra` (see `serve`) is added to every job's `ctx`.

/** Lets queued messages (cancel, new requests) in before the next step:
 * a message to itself (no 4 ms clamp, unlike a nested setTimeout(0)). */
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()();
const yieldToQueue = () => new Promise((resolve) => { waiting.push(resolve); channel.port2.postMessage(0); });

/** Answers the protocol in this worker: `ready` (the wasm's init promise),
 * `wasm` (its exports), `jobs` (name → job function), `extra` (more for
 * every job's `ctx`: the page's worker gives its helpers). */
export function serve(ready, wasm, jobs, extra = {}) {
  const live = new Set();
  const cancelled = new Set();
  const onCancel = new Map(); // id → resolves the job's wait for a promise
  const cache = {};
  let broken = false; // the wasm failed to load: every job fails, fatally
  ready.catch(() => { broken = true; });

  const lastPanic = () => {
    try { return wasm.lastPanic ? wasm.lastPanic() : null; } catch { return null; }
  };

  async function start({ id, job, args }) {
    const fn = job === 'prepare' ? null : jobs[job];
    if (typeof fn !== 'function') {
      self.postMessage({ type: 'error', id, message: `unknown job "${job}"`, fatal: false });
      return;
    }
    const ctx = { ...extra, cache, progress: (progress) => self.postMessage({ type: 'progress', id, progress }) };
    live.add(id);
    const stop = new Promise((resolve) => onCancel.set(id, resolve));
    try {
      await ready;
      const t0 = performance.now();
      if (jobs.prepare) await jobs.prepare(args, ctx);
      const gen = fn(wasm, args || {}, ctx);
      let answer;
      for (;;) {
        const step = await gen.next(answer);
        answer = undefined;
        if (step.done) {
          const { value, transfer = [] } = step.value;
          self.postMessage({ type: 'result', id, value, ms: performance.now() - t0 }, transfer);
          return;
        }
        if (step.value && typeof step.value.then === 'function') answer = await Promise.race([step.value, stop]);
        else await yieldToQueue();
        if (cancelled.has(id)) {
          await gen.return();
          self.postMessage({ type: 'cancelled', id });
          return;
        }
      }
    } catch (err) {
      const panic = broken ? null : lastPanic();
      const words = !panic && err && err.words ? err.words : undefined;
      self.postMessage({ type: 'error', id, message: panic || String((err && err.message) || err), fatal: broken || !!panic, words });
    } finally {
      live.delete(id);
      cancelled.delete(id);
      onCancel.delete(id);
    }
  }

  self.onmessage = (event) => {
    const msg = event.data;
    if (!msg) return;
    if (msg.type === 'cancel') { if (live.has(msg.id)) { cancelled.add(msg.id); onCancel.get(msg.id)(); } }
    else if (msg.type === 'request') start(msg);
  };
}
