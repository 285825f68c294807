// Runs a real-run plan on this page's own main thread (the "Run for real"
// panel, www/realrun.js). Every slice's task and length come from Rust
// (RealRunPlan.slices(): the model's own fifo and rr schedules); this file
// only spins on performance.now() for each slice, yields to the event loop
// between slices of the sliced pass, and records clocks: completions, busy
// time, yield gaps, frames, a 50 ms probe timer, long tasks, long animation
// frames and the visitor's input delay (Event Timing).

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

/** Frames, the probe timer and the PerformanceObservers, for the whole run. */
function createMonitor(avail) {
  const m = { current: null, probes: [], longtask: [], loaf: [], event: [], observers: [] };
  let on = true;
  const frame = () => { if (!on) return; if (m.current) m.current.frames++; requestAnimationFrame(frame); };
  if (avail.raf) requestAnimationFrame(frame);
  let due = performance.now() + 50;
  let timer = setTimeout(function probe() {
    const now = performance.now();
    m.probes.push([due, now - due]);
    due = now + 50;
    timer = setTimeout(probe, 50);
  }, 50);
  const observe = (type, into, extra = {}) => {
    try {
      const o = new PerformanceObserver((list) => { into.push(...list.getEntries()); });
      o.observe({ type, ...extra });
      m.observers.push([o, into]);
    } catch { /* reported as not available by available() */ }
  };
  if (avail.longtask) observe('longtask', m.longtask);
  if (avail.loaf) observe('long-animation-frame', m.loaf);
  if (avail.event_timing) observe('event', m.event, { durationThreshold: 16 });
  m.begin = (policy) => { m.current = { policy, start: performance.now(), end: NaN, frames: 0 }; return m.current; };
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

/** Slices left per task in one pass of the packed slice array. */
function slicesPerTask(slices, off, count, n) {
  const left = new Uint32Array(n);
  for (let i = 0; i < count; i++) left[slices[off + 2 * i]]++;
  return left;
}

async function runPass(job, policy, monitor) {
  const { slices, arrival, n, control, yielder } = job;
  const off = policy === 'fifo' ? 0 : 2 * job.info.fifo_slices;
  const count = policy === 'fifo' ? job.info.fifo_slices : job.info.rr_slices;
  const left = slicesPerTask(slices, off, count, n);
  const completion = new Float64Array(n).fill(NaN);
  const busy = new Float64Array(n);
  const gaps = [];
  let yields = 0, idle = 0, inputYields = 0, ran = 0, stopped = false;
  const pending = job.avail.input_pending ? () => navigator.scheduling.isInputPending() : () => false;
  const pass = monitor.begin(policy);
  const t0 = pass.start;
  let lastEnd = -1;
  for (let i = 0; i < count; i++) {
    const task = slices[off + 2 * i];
    const len = slices[off + 2 * i + 1];
    let measureGap = lastEnd >= 0;
    if (i > 0 && policy === 'rr') {
      await Promise.race([yielder.run(), control.woken]);
      yields++;
    } else if (i > 0 && pending()) {
      // FIFO never yields, except to let the visitor's pending input (Stop) through.
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
    if (policy === 'rr' && measureGap) gaps.push(s - lastEnd);
    let t = s;
    while (t - s < len) t = performance.now();
    busy[task] += t - s;
    lastEnd = t;
    ran++;
    if (--left[task] === 0) completion[task] = t - t0;
  }
  monitor.end(pass);
  return { policy, pass, completion, busy, gaps: Float64Array.from(gaps), counts: { slices: ran, yields, idle_waits: idle, input_yields: inputYields, stopped } };
}

/**
 * Runs every pass of `plan` (a RealRunPlan): for each repeat FIFO and
 * sliced, alternating which goes first so drift hits both alike. Adds each
 * pass to the plan (plan.addPass) and returns the environment for
 * plan.report(). `onPass(done, total, policy)` is called before each pass.
 */
export async function runPlan(plan, { yieldName, control, onPass }) {
  const avail = available();
  const used = resolveYield(yieldName, avail);
  if (!used) throw new Error(`yield primitive ${yieldName} is not available`);
  const info = plan.info();
  const { slices, arrival } = plan.arrays();
  const job = { info, slices, arrival, n: info.tasks, control, avail, yielder: makeYield(used) };
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
  const monitor = createMonitor(avail);
  const results = [];
  try {
    const total = 2 * info.repeats;
    for (let r = 0; r < info.repeats && !control.stop && !control.invalid; r++) {
      const order = r % 2 === 0 ? ['fifo', 'rr'] : ['rr', 'fifo'];
      for (const policy of order) {
        if (control.stop || control.invalid) break;
        if (onPass) onPass(results.length, total, policy);
        // Let the page paint the progress and late probes fire between passes.
        await Promise.race([sleep(120), control.woken]);
        if (control.stop || control.invalid) break;
        const res = await runPass(job, policy, monitor);
        res.repeat = r;
        results.push(res);
      }
    }
    // Observers report after the fact: give them a moment.
    await sleep(150);
  } finally {
    monitor.stop();
    job.yielder.close();
    document.removeEventListener('visibilitychange', onHidden);
  }
  const passes = results.map((res) => ({ res, during: monitor.during(res.pass) }));
  for (const p of passes) addPass(plan, p);
  env.invalid = control.invalid;
  env.stopped = control.stop;
  return { env, passes };
}

/** Order of the numbers in a pass's counts (Rust's PassCounts::LAYOUT). */
const COUNTS = ['slices', 'yields', 'idle_waits', 'input_yields', 'frames', 'wall_ms', 'longtasks', 'longtask_ms', 'loafs', 'loaf_blocking_ms', 'stopped'];

/** Hands one measured pass to a RealRunPlan (again, after a re-plan). */
export function addPass(plan, { res, during }) {
  const c = { ...res.counts, ...during.counts };
  const counts = Float64Array.from(COUNTS, (k) => (c[k] === undefined ? NaN : Number(c[k])));
  plan.addPass(res.policy === 'fifo' ? 0 : 1, res.repeat, res.completion, res.busy, res.gaps, during.probe, during.input, counts);
}

/** plan.report() for a run's environment. */
export function report(plan, env) {
  return plan.report(env.isolated, env.resolution_ms, env.yield_used, env.invalid ?? undefined, env.stopped, env.event_timing);
}
