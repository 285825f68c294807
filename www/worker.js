// tailslice simulation worker (a module worker). Receives
//   {type: "run", id, query, large, tasks, starts}   (tasks: an imported task list, or null;
//                                                    starts: a trace's recorded starts, or null)
// and answers
//   {type: "sized", id, slices, large}           (after the workload is drawn: its true size)
//   {type: "progress", id, done, total, label}   (before each step of a large run)
//   {type: "result", id, query, result, ms}      (typed arrays transferred, not copied)
//   {type: "error", id, message, fatal}
// `fatal`: the wasm panicked (message = the panic's), this instance must
// not be used again; the page terminates the worker and starts a new one.
// The page cancels a large run by terminating this worker.
// {type: "panic", id} panics on purpose (the recovery path's test hook).
import init, { Runner, runScenario, lastPanic, panicForTest } from './tailslice.js';

const ready = init({ module_or_path: new URL('./tailslice_bg.wasm', import.meta.url) });

function buffers(result) {
  const out = [];
  const add = (v) => { if (ArrayBuffer.isView(v)) out.push(v.buffer); };
  for (const k of ['work', 'arrival', 'class']) add(result[k]);
  for (const r of result.runs) for (const v of Object.values(r)) add(v);
  return out;
}

// Apple QoS scenarios (www/scenario.js):
//   {type: "scenario", id, key, run}  ->  {type: "scenario-result", id, key, run, summary, timeline, ms}
// `key` is the canonical scenario query without `run`; the last scenario
// run stays here, so showing another of its runs does not simulate again.
// `timeline.packed` (a Float64Array) is transferred, not copied.
let scenarioCache = null;
async function onScenario({ id, key, run }) {
  try {
    await ready;
    const t0 = performance.now();
    if (!scenarioCache || scenarioCache.key !== key) {
      if (scenarioCache) scenarioCache.run.free();
      scenarioCache = null;
      const progress = (p) => self.postMessage({ type: 'scenario-progress', id, ...p });
      scenarioCache = { key, run: runScenario(key, progress) };
    }
    const ms = performance.now() - t0;
    const sc = scenarioCache.run;
    const summary = sc.summary();
    const timeline = sc.timeline(run);
    const transfer = timeline ? [timeline.packed.buffer] : [];
    self.postMessage({ type: 'scenario-result', id, key, run, summary, timeline, ms }, transfer);
  } catch (err) {
    postError(id, err);
  }
}

function postError(id, err) {
  const panic = lastPanic();
  self.postMessage({ type: 'error', id, message: panic || String((err && err.message) || err), fatal: !!panic });
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg && msg.type === 'scenario') { onScenario(msg); return; }
  if (msg && msg.type === 'panic') {
    try { await ready; panicForTest(); } catch (err) { postError(msg.id, err); }
    return;
  }
  if (!msg || msg.type !== 'run') return;
  const { id, query, large } = msg;
  try {
    await ready;
    const t0 = performance.now();
    const runner = msg.starts ? Runner.withTrace(query, msg.tasks, msg.starts)
      : msg.tasks ? Runner.withTasks(query, msg.tasks) : new Runner(query);
    try {
      const total = runner.total();
      // The page's guess came from the mix's mean; the drawn workload says
      // how large the run really is (a heavy tail can draw an hour-long task).
      let sized = false;
      let isLarge = large;
      for (;;) {
        if (!sized && runner.done() >= 1) {
          sized = true;
          isLarge = isLarge || runner.large();
          self.postMessage({ type: 'sized', id, slices: runner.slices(), large: isLarge });
        }
        if (isLarge) self.postMessage({ type: 'progress', id, done: runner.done(), total, label: runner.nextLabel() });
        if (!runner.step()) break;
      }
      const result = runner.finish();
      const ms = performance.now() - t0;
      self.postMessage({ type: 'result', id, query, result, ms }, buffers(result));
    } finally {
      runner.free();
    }
  } catch (err) {
    postError(id, err);
  }
};
