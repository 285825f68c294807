// Interactions with long tasks, for traces with EventTiming events: the
// harness clicks and types while Chromium traces, and reads back the
// page's own Event Timing entries (window.readings) to set beside the
// trace's.
// - #slow: its click handler spins 120 ms (processing dominates);
// - #field: each keydown handler spins 25 ms and asks for an animation
//   frame callback that spins 90 ms: it runs in the rendering task after
//   the handler's, before the paint (presentation delay dominates; a timer
//   task would not do: Chromium renders first after a discrete input);
// - #plain: a 2 ms click handler, clicked while window.busy(ms) holds the
//   thread (input delay dominates).
'use strict';

const out = document.getElementById('out');
window.readings = [];

function spin(ms) {
  const t = performance.now();
  while (performance.now() - t < ms) { /* busy: the main thread is taken */ }
}

// A long task that says it started: the title reaches the browser process
// at once, while this thread is still busy, so the harness can send an
// input that lands inside the task.
let busyCount = 0;
window.busy = (ms) => {
  busyCount += 1;
  document.title = `busy ${busyCount}`;
  spin(ms);
  document.title = 'idle';
  return ms;
};

document.getElementById('slow').addEventListener('click', () => {
  spin(120);
  out.textContent = 'slow handler done';
});

document.getElementById('field').addEventListener('keydown', (e) => {
  spin(25);
  out.textContent = `key ${e.key}`;
  requestAnimationFrame(() => spin(90));
});

document.getElementById('plain').addEventListener('click', () => {
  spin(2);
  out.textContent = 'plain click';
});

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.readings.push({
      name: e.name,
      interactionId: e.interactionId,
      startTime: e.startTime,
      processingStart: e.processingStart,
      processingEnd: e.processingEnd,
      duration: e.duration,
      target: e.target ? e.target.id : null,
    });
  }
}).observe({ type: 'event', durationThreshold: 16, buffered: true });

// How many interactions have an Event Timing entry so far.
window.interactionsSeen = () =>
  new Set(window.readings.filter((r) => r.interactionId > 0).map((r) => r.interactionId)).size;
