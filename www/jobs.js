// tailslice's jobs: what the page's one worker (www/worker.js) does, one
// generator function per kind of request. The same code runs inline on the
// main thread for small runs (www/client.js), so both paths answer alike.
//
// A job is `function* (wasm, args, ctx)`:
//   - `wasm` is the module's exports (the worker's tailslice-worker-web.js,
//     or the page's tailslice.js when inline);
//   - it `yield`s between steps: there the worker lets other messages in
//     (a cancel, a newer request) and stops if the job was cancelled;
//   - `ctx.progress(p)` reports progress (posted to the page as it is);
//   - `ctx.cache` is per-instance state that outlives one job (the last
//     scenario run);
//   - it returns `{value, transfer}`: the answer and the ArrayBuffers to
//     transfer rather than copy.
// Rust computes everything; these functions only call it step by step.

/** Every typed array's buffer in a result (a run's, a scenario run's
 * charts): transferred, not copied. */
function buffers(value, out = new Set()) {
  if (ArrayBuffer.isView(value)) out.add(value.buffer);
  else if (Array.isArray(value)) for (const v of value) buffers(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) buffers(v, out);
  return out;
}

/**
 * An experiment: `{query, tasks, starts, resp, large}` (tasks: an imported
 * task list or null; starts: a trace's recorded starts or null; resp: the
 * Responsiveness section's `resp_*` keys, for imported tasks; large: the
 * page's estimate says large). Progress: `{sized: true, slices, large}`
 * once the workload is drawn (its true size), then, for a large run,
 * `{done, total, label}` before each step. Value: the result object.
 */
export function* run(wasm, { query, tasks = null, starts = null, resp = '', large = false }, ctx) {
  const runner = starts ? wasm.Runner.withTrace(query, tasks, starts, resp)
    : tasks ? wasm.Runner.withTasks(query, tasks, resp) : new wasm.Runner(query);
  try {
    const total = runner.total();
    let sized = false;
    let isLarge = large;
    for (;;) {
      if (!sized && runner.done() >= 1) {
        // The page's guess came from the mix's mean; the drawn workload says
        // how large the run really is (a heavy tail can draw an hour-long task).
        sized = true;
        isLarge = isLarge || runner.large();
        ctx.progress({ sized: true, slices: runner.slices(), large: isLarge });
      }
      if (isLarge) ctx.progress({ done: runner.done(), total, label: runner.nextLabel() });
      if (!runner.step()) break;
      yield;
    }
    const result = runner.finish();
    return { value: result, transfer: [...buffers(result)] };
  } finally {
    runner.free();
  }
}

/**
 * An Apple QoS scenario: `{key, run}` (`key`: the canonical scenario query
 * without `run`). Progress: Rust's `{run, frac, units, budget}`. Value:
 * `{key, run, summary, timeline}`. The last scenario run stays in
 * `ctx.cache`, so showing another of its runs does not simulate again.
 * `timeline`: `{meta, gantt, states, pri}` (lane charts in the one wire
 * format, see Rust's `ScenarioRun::timeline`), or null.
 */
export function* scenario(wasm, { key, run }, ctx) {
  const sc = scenarioRun(wasm, key, ctx);
  yield;
  const summary = sc.summary();
  const timeline = sc.timeline(run);
  return { value: { key, run, summary, timeline }, transfer: [...buffers(timeline)] };
}

/** The scenario run of `key`: the cached one, or a new run that replaces it. */
function scenarioRun(wasm, key, ctx) {
  const cache = ctx.cache;
  if (!cache.scenario || cache.scenario.key !== key) {
    if (cache.scenario) cache.scenario.run.free();
    cache.scenario = null;
    cache.scenario = { key, run: wasm.runScenario(key, (p) => ctx.progress(p)) };
  }
  return cache.scenario.run;
}

/**
 * The figure an Embed dialog's snippet shows: `{query, view, dark, lang}`
 * (`query`: the shown experiment's or scenario's; `view`: the dialog's
 * `view=…&controls=…&theme=…`; `dark`: the page's colour scheme, for
 * `theme=auto`). A scenario's figure draws its cached run when it is the
 * one shown. Value: the `<svg>` text.
 */
export function* embedFigure(wasm, { query, view, dark, lang }, ctx) {
  const shown = wasm.parseScenarioQuery(query);
  if (shown.scenario) {
    const sc = scenarioRun(wasm, shown.key, ctx);
    yield;
    return { value: sc.embedFigure(shown.run, view, dark, lang) };
  }
  yield;
  return { value: wasm.embedFigure(query, view, dark, lang) };
}

/**
 * A seed sweep (`{kind: "seeds", query, range, chunk}`) or a quantum sweep
 * (`{kind: "quanta", query, range, steps, tasks}`), a chunk at a time
 * (50 seeds or one quantum). Progress: `{done, total}`. Value:
 * `{summary, total}`.
 */
export function* sweep(wasm, args, ctx) {
  const job = args.kind === 'seeds'
    ? new wasm.SeedSweep(args.query, args.range)
    : new wasm.QuantumSweep(args.query, args.range, args.steps, args.tasks ?? undefined);
  try {
    const total = job.total();
    const chunk = args.chunk || (args.kind === 'seeds' ? 50 : 1);
    ctx.progress({ done: 0, total });
    while (job.step(chunk)) {
      ctx.progress({ done: job.done(), total });
      yield;
    }
    return { value: { summary: job.summary(), total } };
  } finally {
    job.free();
  }
}

/**
 * Before any job: an uploaded task list travels as its File (a handle, not
 * megabytes of text through the main thread) and is read here, once per
 * file (the last one stays in `ctx.cache`).
 */
export async function prepare(args, ctx) {
  if (args && typeof File !== 'undefined' && args.tasks instanceof File) args.tasks = await fileText(args.tasks, ctx.cache);
}

async function fileText(file, cache) {
  const key = `${file.name}:${file.size}:${file.lastModified}`;
  if (!cache.file || cache.file.key !== key) cache.file = { key, text: await file.text() };
  return cache.file.text;
}

/**
 * A task list to import, checked by Rust's parser (`import::parse_task_list`)
 * off the main thread: `{query, text}` or `{query, file}` (a File: read
 * here, so the page never holds or parses it; later jobs get the same File
 * as `tasks`, see `prepare`). Value: `checkTasks`'
 * `{ok, tasks, classes, total_work_ms}` or `{ok: false, line, message}`.
 */
export async function* importTasks(wasm, { query, text = null, file = null }, ctx) {
  const list = file ? await fileText(file, ctx.cache) : text;
  yield;
  return { value: wasm.checkTasks(query, list) };
}

/** An export's text: `{kind, query, tasks, ui}` (see Rust's `exportFile`). Value: `{text}`. */
export function* exportFile(wasm, { kind, query, tasks = null, ui = null }) {
  yield;
  return { value: { text: wasm.exportFile(kind, query, tasks ?? undefined, ui ?? undefined) } };
}

/** Makes this instance's wasm panic on purpose (the recovery path's test hook). */
export function* panic(wasm) {
  yield;
  wasm.panicForTest();
  return { value: null };
}
