// The page's worker's helpers: more workers like it (the same worker.js,
// named HELPER, given the compiled module instead of fetching it), so that
// a large run's policies are simulated side by side, as the CLI runs them
// on threads. One per core beyond the first; helper `i` is started when it
// is first asked for, so a run of two policies starts one at most. A helper
// answers the same protocol (www/worker-loop.js) with the same jobs
// (www/jobs.js); it has no helpers of its own.
//
// `request(i, job, args, transfer)` returns `{done, cancel()}`: `done`
// resolves to `{ok: true, value}` or `{ok: false, message}` (never
// rejects); a helper whose wasm failed is replaced by the next request.
// `cancel()` stops the helper at once: a part is one long wasm call, which
// only ending the worker stops; the next request starts a new one.
// `hold(i, key)` notes what helper `i` holds (the imported list it was
// given last), `holds(i, key)` asks: a new helper holds nothing.

/** The name a helper worker is started with (see www/worker.js). */
export const HELPER = 'tailslice-helper';

/** The helpers of a worker whose compiled wasm is `module` (a promise). */
export function createHelpers(module) {
  const size = Math.max(0, (self.navigator.hardwareConcurrency || 1) - 1);
  const pool = [];
  let nextId = 1;

  function spawn() {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: HELPER });
    const helper = { worker, live: new Map(), held: null };
    module.then((m) => worker.postMessage({ type: 'module', module: m }), () => {});
    worker.onmessage = ({ data: msg }) => {
      const resolve = msg && helper.live.get(msg.id);
      if (!resolve || msg.type === 'progress') return;
      helper.live.delete(msg.id);
      if (msg.type === 'result') resolve({ ok: true, value: msg.value });
      else {
        resolve({ ok: false, message: msg.message || msg.type });
        if (msg.fatal) end(helper, msg.message);
      }
    };
    worker.onerror = (e) => { e.preventDefault?.(); end(helper, e.message || 'the helper failed'); };
    return helper;
  }

  /** Ends `helper`: its jobs fail with `message`, the next request starts another. */
  function end(helper, message) {
    helper.worker.terminate();
    for (const resolve of helper.live.values()) resolve({ ok: false, message });
    helper.live.clear();
    const i = pool.indexOf(helper);
    if (i >= 0) pool[i] = null;
  }

  function request(i, job, args, transfer = []) {
    if (!pool[i]) pool[i] = spawn();
    const helper = pool[i];
    const id = nextId++;
    const done = new Promise((resolve) => helper.live.set(id, resolve));
    helper.worker.postMessage({ type: 'request', id, job, args }, transfer);
    return { done, cancel: () => { if (helper.live.has(id)) end(helper, 'cancelled'); } };
  }

  const hold = (i, key) => { if (!pool[i]) pool[i] = spawn(); pool[i].held = key; };
  const holds = (i, key) => !!pool[i] && pool[i].held === key;

  return { size, request, hold, holds };
}
