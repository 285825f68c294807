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
 *
 * A large run of several policies is split where the worker has helpers
 * (`ctx.helpers`, www/helpers.js): each helper draws the same workload (or
 * is handed an imported list's parsed tasks, see `shareList`) and runs one
 * policy at a time from the back of the list (a `part`), while this worker
 * runs them from the front; the parts are taken into the result as if run
 * here. A part that fails is run here instead.
 */
export function* run(wasm, { query, tasks = null, starts = null, interactions = null, resp = '', large = false }, ctx) {
  const list = tasks ? taskList(wasm, tasks, ctx.cache) : null;
  const runner = list ? wasm.Runner.withList(query, list.list, starts ?? undefined, resp, interactions ?? undefined) : new wasm.Runner(query);
  const total = runner.total();
  const left = Array.from({ length: total - 1 }, (_, i) => i); // policies no one has taken
  const parts = new Map(); // policy → {helper, job}
  const ask = (helper) => {
    const i = left.pop();
    if (i === undefined) return;
    if (list) shareList(list, helper, ctx);
    const args = { query, list: list ? list.serial : null, part: i };
    parts.set(i, { helper, job: ctx.helpers.request(helper, 'part', args) });
  };
  try {
    if (large && ctx.helpers) for (let h = 0; h < Math.min(ctx.helpers.size, left.length - 1); h++) ask(h);
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
      if (!sized) runner.step();
      else if (left.length > 0) runner.runPolicy(left.shift());
      else if (parts.size > 0) {
        runner.prepare(); // the result's own work, while the helpers run
        const { i, out } = yield Promise.race([...parts].map(([i, p]) => p.job.done.then((out) => ({ i, out }))));
        const { helper } = parts.get(i);
        parts.delete(i);
        if (out.ok) {
          runner.addPart(i, out.value);
          ask(helper);
        } else {
          left.push(i);
        }
        continue;
      } else break;
      yield;
    }
    const result = runner.finish();
    return { value: result, transfer: [...buffers(result)] };
  } finally {
    for (const p of parts.values()) p.job.cancel();
    runner.free();
  }
}

/**
 * One policy of a large run, in a helper (see `run`): `{query, list,
 * part}` (`list`: the serial of the imported list `adoptTasks` gave this
 * helper, or null for drawn tasks; `part`: the policy's index). Value:
 * Rust's part object, its typed arrays transferred.
 */
export function* part(wasm, { query, list = null, part: i }, ctx) {
  const adopted = ctx.cache.adopted;
  if (list !== null && (!adopted || adopted.serial !== list)) throw new Error(`no task list ${list} here`);
  const runner = list !== null ? wasm.Runner.withList(query, adopted.list) : new wasm.Runner(query);
  try {
    yield;
    const value = runner.part(i);
    return { value, transfer: [...buffers(value)] };
  } finally {
    runner.free();
  }
}

/** A helper takes the imported list `{serial, work, arrival, class,
 * labels}` its worker parsed (see `shareList`; `arrival` null: all at 0),
 * for the parts to come. */
export function* adoptTasks(wasm, { serial, work, arrival, class: cls, labels }, ctx) {
  if (ctx.cache.adopted) ctx.cache.adopted.list.free();
  ctx.cache.adopted = null;
  ctx.cache.adopted = { serial, list: wasm.TaskList.fromArrays(work, arrival ?? undefined, cls, labels) };
  yield;
  return { value: null };
}

/** Gives helper `h` the parsed list `entry` (see `taskList`) unless it
 * has it: its tasks as typed arrays, cheaper to hand over than to parse
 * the text again. A list replaced since (and freed) is not given: the
 * part that needed it is run here instead. */
function shareList(entry, h, ctx) {
  const helpers = ctx.helpers;
  if (ctx.cache.list !== entry || helpers.holds(h, entry.serial)) return;
  const arrays = entry.list.arrays();
  if (!arrays) return;
  const transfer = [arrays.work, arrays.arrival, arrays.class].filter(Boolean).map((a) => a.buffer);
  helpers.request(h, 'adoptTasks', { serial: entry.serial, ...arrays }, transfer);
  helpers.hold(h, entry.serial);
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
 * as `tasks`, see `prepare`). The parsed list stays for the runs. Value:
 * `{ok, tasks, classes, total_work_ms}` or `{ok: false, line, message}`.
 */
export async function* importTasks(wasm, { query, text = null, file = null }, ctx) {
  const list = file ? await fileText(file, ctx.cache) : text;
  yield;
  const entry = taskList(wasm, list, ctx.cache);
  const check = entry.list.check(query);
  // The helpers a large run of this experiment would split into get the
  // parsed list as soon as this answer is sent, while the page asks for
  // the run.
  if (check.ok && ctx.helpers) {
    const r = new wasm.Runner(query);
    const helpers = Math.min(ctx.helpers.size, r.total() - 2);
    r.free();
    setTimeout(() => { for (let h = 0; h < helpers; h++) shareList(entry, h, ctx); }, 0);
  }
  return { value: check };
}

/** Rust's parsed `TaskList` of `text` as `{text, list, serial}`: the last
 * one stays in `cache`, so the runs after an import (and after each edit)
 * do not parse it again; `serial` names it to the helpers. */
function taskList(wasm, text, cache) {
  if (!cache.list || cache.list.text !== text) {
    if (cache.list) cache.list.list.free();
    cache.list = null;
    cache.serials = (cache.serials || 0) + 1;
    cache.list = { text, list: new wasm.TaskList(text), serial: cache.serials };
  }
  return cache.list;
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
