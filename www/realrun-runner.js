// Runs a real-run plan on this page's own main thread (the "Run for real"
// panel, www/realrun.js). The passes, their slices, whether each yields
// between slices, the order to run them in, the pauses and the yield
// batches all come from Rust (RealRunPlan); this file only spins on
// performance.now() for each slice, yields to the event loop where a pass
// says so, and records clocks: completions, busy time, yield gaps, frames,
// a 50 ms probe timer, long tasks, long animation frames, the visitor's
// input delay (Event Timing) and batches of back-to-back yields.

const supportedTypes = () => (globalThis.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];

/** What this browser offers (a missing API is reported, never counted as zero). */
export function available() {
  const types = supportedTypes();
  return {
    scheduler: typeof globalThis.scheduler?.yield === 'function',
    message: typeof globalThis.MessageChannel === 'function',
    timeout: typeof globalThis.setTimeout === 'function',
    raf: typeof globalThis.requestAnimationFrame === 'function',
    longtask: types.includes('longtask'),
    loaf: types.includes('long-animation-frame'),
    event_timing: types.includes('event'),
    input_pending: typeof globalThis.navigator?.scheduling?.isInputPending === 'function',
  };
}

/** The primitive a setting means here (`auto`: scheduler.yield() where it exists); null if missing. */
export function resolveYield(name, avail) {
  if (name === 'auto') return avail.scheduler ? 'scheduler' : (avail.message ? 'message' : 'timeout');
  return avail[name] ? name : null;
}

/** A function returning a promise that resolves once the event loop had its turn. */
function makeYield(name) {
  switch (name) {
    case 'scheduler': return { run: () => globalThis.scheduler.yield(), close() {} };
    case 'message': {
      const ch = new MessageChannel();
      let wake = null;
      ch.port1.onmessage = () => { const w = wake; wake = null; if (w) w(); };
      return {
        run: () => new Promise((resolve) => { wake = resolve; ch.port2.postMessage(0); }),
        close() { ch.port1.close(); ch.port2.close(); },
      };
    }
    case 'timeout': return { run: () => new Promise((resolve) => setTimeout(resolve, 0)), close() {} };
    case 'raf': return { run: () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))), close() {} };
    default: throw new Error(`unknown yield primitive ${name}`);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The smallest step of performance.now() seen in 30 tries (ms). */
export function clockStep() {
  let best = Infinity;
  for (let i = 0; i < 30; i++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best;
}

/** Stop and invalidation: `halt()` stops at the next boundary, `halt(reason)` also invalidates. */
export function createControl() {
  let wake;
  const c = { stop: false, invalid: null, woken: new Promise((resolve) => { wake = resolve; }) };
  c.halt = (reason) => {
    if (reason) c.invalid = c.invalid || reason;
    else c.stop = true;
    wake();
  };
  return c;
}

/** Frames, the probe timer and the PerformanceObservers (their period and threshold the plan's `info`), for the whole run. */
function createMonitor(avail, { probe_ms: period, event_threshold_ms: threshold }) {
  const m = { current: null, probes: [], longtask: [], loaf: [], event: [], observers: [] };
  let on = true;
  const frame = () => { if (!on) return; if (m.current) m.current.frames++; requestAnimationFrame(frame); };
  if (avail.raf) requestAnimationFrame(frame);
  let due = performance.now() + period;
  let timer = setTimeout(function probe() {
    const now = performance.now();
    m.probes.push([due, now - due]);
    due = now + period;
    timer = setTimeout(probe, period);
  }, period);
  const observe = (type, into, extra = {}) => {
    try {
      const o = new PerformanceObserver((list) => { into.push(...list.getEntries()); });
      o.observe({ type, ...extra });
      m.observers.push([o, into]);
    } catch { /* reported as not available by available() */ }
  };
  if (avail.longtask) observe('longtask', m.longtask);
  if (avail.loaf) observe('long-animation-frame', m.loaf);
  if (avail.event_timing) observe('event', m.event, { durationThreshold: threshold });
  m.begin = () => { m.current = { start: performance.now(), end: NaN, frames: 0 }; return m.current; };
  m.end = (p) => { p.end = performance.now(); m.current = null; };
  m.stop = () => {
    on = false;
    clearTimeout(timer);
    for (const [o, into] of m.observers) { into.push(...o.takeRecords()); o.disconnect(); }
  };
  /** What happened during pass `p` (entries by where they fall in its window). */
  m.during = (p) => {
    const inside = (t) => t >= p.start && t <= p.end;
    const mid = (e) => e.startTime + e.duration / 2;
    const counts = { frames: p.frames, wall_ms: p.end - p.start };
    if (avail.longtask) {
      const l = m.longtask.filter((e) => inside(mid(e)));
      counts.longtasks = l.length;
      counts.longtask_ms = l.reduce((s, e) => s + e.duration, 0);
    }
    if (avail.loaf) {
      const l = m.loaf.filter((e) => inside(mid(e)));
      counts.loafs = l.length;
      counts.loaf_blocking_ms = l.reduce((s, e) => s + (e.blockingDuration || 0), 0);
    }
    const probe = m.probes.filter(([d]) => inside(d)).map(([, late]) => late);
    let input;
    if (avail.event_timing) {
      // One delay per interaction (a click reports pointerdown, pointerup, click…).
      const by = new Map();
      for (const e of m.event) {
        if (!inside(e.startTime)) continue;
        const key = e.interactionId || `${e.name}@${e.startTime}`;
        by.set(key, Math.max(by.get(key) ?? 0, e.processingStart - e.startTime));
      }
      input = Float64Array.from(by.values());
    }
    return { counts, probe: Float64Array.from(probe), input };
  };
  return m;
}

/** Slices left per task in one pass. */
function slicesPerTask(tasks, n) {
  const left = new Uint32Array(n);
  for (const task of tasks) left[task]++;
  return left;
}

/** Runs one pass of the plan: each slice spins its length; a pass that
 * yields hands the event loop back between slices. */
async function runPass(job, pass, monitor) {
  const { arrival, n, control, yielder } = job;
  const { tasks, lengths } = pass;
  const left = slicesPerTask(tasks, n);
  const completion = new Float64Array(n).fill(NaN);
  const busy = new Float64Array(n);
  const gaps = [];
  let yields = 0, idle = 0, inputYields = 0, ran = 0, stopped = false;
  const pending = job.avail.input_pending ? () => navigator.scheduling.isInputPending() : () => false;
  const span = monitor.begin();
  const t0 = span.start;
  let lastEnd = -1;
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i];
    const len = lengths[i];
    let measureGap = lastEnd >= 0;
    if (i > 0 && pass.yields) {
      await Promise.race([yielder.run(), control.woken]);
      yields++;
    } else if (i > 0 && pending()) {
      // A pass that never yields still lets the visitor's pending input (Stop) through.
      await Promise.race([sleep(0), control.woken]);
      inputYields++;
      measureGap = false;
    }
    if (control.stop || control.invalid) { stopped = true; break; }
    // A task that has not arrived yet (arrivals over time): wait, not a yield.
    while (performance.now() < t0 + arrival[task] && !control.stop && !control.invalid) {
      await Promise.race([sleep(t0 + arrival[task] - performance.now()), control.woken]);
      idle++;
      measureGap = false;
    }
    if (control.stop || control.invalid) { stopped = true; break; }
    const s = performance.now();
    if (pass.yields && measureGap) gaps.push(s - lastEnd);
    let t = s;
    while (t - s < len) t = performance.now();
    busy[task] += t - s;
    lastEnd = t;
    ran++;
    if (--left[task] === 0) completion[task] = t - t0;
  }
  monitor.end(span);
  return { span, completion, busy, gaps: Float64Array.from(gaps), counts: { slices: ran, yields, idle_waits: idle, input_yields: inputYields, stopped } };
}

/** Times `yields` back-to-back yields (ms in all). */
async function timeYields(yielder, yields, control) {
  const start = performance.now();
  for (let i = 0; i < yields && !control.stop && !control.invalid; i++) {
    await Promise.race([yielder.run(), control.woken]);
  }
  return performance.now() - start;
}

/**
 * The yield alone, in batches: `count` batches of back-to-back yields, each
 * lasting at least `clock_steps` steps of the clock. A batch shorter than
 * that doubles the batch's yields (up to `max_yields`) and starts the
 * count again. Returns [{yields, ms}].
 */
async function yieldBatches(yielder, { count, clock_steps, max_yields }, step, control) {
  const enough = clock_steps * step;
  let yields = 1;
  let out = [];
  while (out.length < count && !control.stop && !control.invalid) {
    const ms = await timeYields(yielder, yields, control);
    if (ms < enough && yields < max_yields) {
      yields = Math.min(max_yields, yields * 2);
      out = [];
    } else {
      out.push({ yields, ms });
    }
  }
  return control.stop || control.invalid ? [] : out;
}

/**
 * Runs every pass of `plan` (a RealRunPlan) in the plan's order, then
 * times the yield in batches. Adds each pass and batch to the plan and
 * returns `{env, passes, batches}` for plan.report() (and a re-plan).
 * `onPass(done, total, pass)` is called before each pass.
 */
export async function runPlan(plan, { yieldName, control, onPass }) {
  const avail = available();
  const used = resolveYield(yieldName, avail);
  if (!used) throw new Error(`yield primitive ${yieldName} is not available`);
  const info = plan.info();
  const passes = plan.passes();
  const order = plan.order();
  const { arrival } = plan.arrays();
  const job = { arrival, n: info.tasks, control, avail, yielder: makeYield(used) };
  const env = {
    isolated: globalThis.crossOriginIsolated === true,
    resolution_ms: clockStep(),
    yield_used: used,
    invalid: null,
    stopped: false,
    event_timing: avail.event_timing,
  };
  const onHidden = () => { if (document.visibilityState === 'hidden') control.halt('hidden'); };
  document.addEventListener('visibilitychange', onHidden);
  if (document.visibilityState === 'hidden') control.halt('hidden');
  const monitor = createMonitor(avail, info);
  const results = [];
  let batches = [];
  try {
    for (const { pass, repeat } of order) {
      if (control.stop || control.invalid) break;
      if (onPass) onPass(results.length, order.length, passes[pass]);
      // Let the page paint the progress and late probes fire between passes.
      await Promise.race([sleep(info.pause_ms), control.woken]);
      if (control.stop || control.invalid) break;
      const res = await runPass(job, passes[pass], monitor);
      res.pass = pass;
      res.repeat = repeat;
      results.push(res);
    }
    if (!control.stop && !control.invalid) batches = await yieldBatches(job.yielder, info.batches, env.resolution_ms, control);
    // Observers report after the fact: give them a moment.
    await sleep(info.settle_ms);
  } finally {
    monitor.stop();
    job.yielder.close();
    document.removeEventListener('visibilitychange', onHidden);
  }
  const measured = results.map((res) => ({ res, during: monitor.during(res.span) }));
  for (const p of measured) addPass(plan, p);
  for (const b of batches) plan.addYieldBatch(b.yields, b.ms);
  env.invalid = control.invalid;
  env.stopped = control.stop;
  return { env, passes: measured, batches };
}

/** Hands one measured pass to a RealRunPlan (again, after a re-plan). */
export function addPass(plan, { res, during }) {
  plan.addPass(res.pass, res.repeat, res.completion, res.busy, res.gaps, during.probe, during.input, { ...res.counts, ...during.counts });
}

/** plan.report() for a run's environment. */
export function report(plan, env) {
  return plan.report(env.isolated, env.resolution_ms, env.yield_used, env.invalid ?? undefined, env.stopped, env.event_timing);
}
