// tailslice jobs worker (a module worker) for the sweeps panel and exports,
// separate from the simulation worker so neither waits for the other.
// Receives
//   {type: "seeds",  id, query, range, chunk}
//   {type: "quanta", id, query, range, steps, tasks}
//   {type: "export", id, kind, query, tasks, ui}
//   {type: "check",  id, query, tasks}      (validates a task list off the main thread)
// and answers
//   {type: "progress", id, done, total}   (after each chunk of a sweep)
//   {type: "done", id, summary, ms}       (a sweep's summary)
//   {type: "file", id, text, ms}          (an export's text)
//   {type: "checked", id, check}          (checkTasks' answer)
//   {type: "error", id, message}
// The page cancels a sweep by terminating this worker.
import init, { SeedSweep, QuantumSweep, exportFile, checkTasks } from './tailslice.js';

const ready = init({ module_or_path: new URL('./tailslice_bg.wasm', import.meta.url) });

function sweep(msg) {
  const t0 = performance.now();
  const job = msg.type === 'seeds'
    ? new SeedSweep(msg.query, msg.range)
    : new QuantumSweep(msg.query, msg.range, msg.steps, msg.tasks ?? undefined);
  try {
    const total = job.total();
    const chunk = msg.chunk || (msg.type === 'seeds' ? 50 : 1);
    self.postMessage({ type: 'progress', id: msg.id, done: 0, total });
    while (job.step(chunk)) self.postMessage({ type: 'progress', id: msg.id, done: job.done(), total });
    const summary = job.summary();
    self.postMessage({ type: 'done', id: msg.id, summary, total, ms: performance.now() - t0 });
  } finally {
    job.free();
  }
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (!msg || !msg.type) return;
  try {
    await ready;
    if (msg.type === 'seeds' || msg.type === 'quanta') sweep(msg);
    else if (msg.type === 'check') {
      self.postMessage({ type: 'checked', id: msg.id, check: checkTasks(msg.query, msg.tasks) });
    } else if (msg.type === 'export') {
      const t0 = performance.now();
      const text = exportFile(msg.kind, msg.query, msg.tasks ?? undefined, msg.ui ?? undefined);
      self.postMessage({ type: 'file', id: msg.id, text, ms: performance.now() - t0 });
    }
  } catch (err) {
    self.postMessage({ type: 'error', id: msg.id, message: String((err && err.message) || err) });
  }
};
