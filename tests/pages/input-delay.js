// Replays a schedule of busy main-thread tasks and records what actually
// ran and when each key press was handled, for the harness to compare with
// tailslice's input-delay model.
//
// window.inputDelay.start(tasks, quantum) runs tasks [{start, dur}] (ms from
// the call): each task starts from its own timer and spins on
// performance.now() for `dur` ms; with quantum > 0 it spins `quantum` ms at a
// time and awaits scheduler.yield() between pieces. Recorded:
// - pieces: {task, start, end} of every piece that ran (performance.now());
// - inputs: each keydown's event.timeStamp (when the browser made the
//   event) and the performance.now() at its handler's first statement;
// - timings: keydown Event Timing entries (reported only when their
//   duration is at least the observer's threshold, 16 ms at the lowest).
// body[data-run] is the number of the last run whose tasks all ended.
'use strict';

const state = { run: 0, done: true, pieces: [], inputs: [], timings: [] };
window.inputDelay = state;

function spin(ms) {
  const t = performance.now();
  while (performance.now() - t < ms) { /* busy: the page's main thread is taken */ }
}

addEventListener('keydown', (e) => {
  state.inputs.push({ timeStamp: e.timeStamp, handled: performance.now() });
});

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.name !== 'keydown') continue;
    state.timings.push({
      startTime: e.startTime,
      processingStart: e.processingStart,
      processingEnd: e.processingEnd,
      duration: e.duration,
      interactionId: e.interactionId,
    });
  }
}).observe({ type: 'event', durationThreshold: 16 });

state.start = (tasks, quantum) => {
  state.run += 1;
  const run = state.run;
  state.done = false;
  state.pieces = [];
  state.inputs = [];
  state.timings = [];
  const t0 = performance.now();
  let left = tasks.length;
  const finished = () => {
    left -= 1;
    if (left === 0) {
      state.done = true;
      document.body.dataset.run = String(run);
    }
  };
  if (left === 0) {
    state.done = true;
    document.body.dataset.run = String(run);
  }
  tasks.forEach((task, i) => {
    setTimeout(async () => {
      let rest = task.dur;
      for (;;) {
        const piece = quantum > 0 ? Math.min(quantum, rest) : rest;
        const start = performance.now();
        spin(piece);
        state.pieces.push({ task: i, start, end: performance.now() });
        rest -= piece;
        if (rest <= 1e-9) break;
        await scheduler.yield();
      }
      finished();
    }, Math.max(0, t0 + task.start - performance.now()));
  });
  return t0;
};
