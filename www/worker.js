// tailslice simulation worker (a module worker). Receives
//   {type: "run", id, query, large}
// and answers
//   {type: "progress", id, done, total, label}   (before each step of a large run)
//   {type: "result", id, query, result, ms}      (typed arrays transferred, not copied)
//   {type: "error", id, message}
// The page cancels a large run by terminating this worker.
import init, { Runner } from './tailslice.js';

const ready = init({ module_or_path: new URL('./tailslice_bg.wasm', import.meta.url) });

function buffers(result) {
  const out = [];
  const add = (v) => { if (ArrayBuffer.isView(v)) out.push(v.buffer); };
  for (const k of ['work', 'arrival', 'class']) add(result[k]);
  for (const r of result.runs) for (const v of Object.values(r)) add(v);
  return out;
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (!msg || msg.type !== 'run') return;
  const { id, query, large } = msg;
  try {
    await ready;
    const t0 = performance.now();
    const runner = new Runner(query);
    try {
      const total = runner.total();
      for (;;) {
        if (large) self.postMessage({ type: 'progress', id, done: runner.done(), total, label: runner.nextLabel() });
        if (!runner.step()) break;
      }
      const result = runner.finish();
      const ms = performance.now() - t0;
      self.postMessage({ type: 'result', id, query, result, ms }, buffers(result));
    } finally {
      runner.free();
    }
  } catch (err) {
    self.postMessage({ type: 'error', id, message: String((err && err.message) || err) });
  }
};
