// The page's shared state: what is shown, what is running, what the tests
// read. One object, owned by no single file; `setState` is the one writer
// of `body[data-state]`.

export const app = {
  page: null,        // parseQuery() of the current state
  view: null,        // View of the last result
  viewKey: '',       // experiment shape of the shown view (keeps zoom while tuning)
  workloadKey: '',   // workload of the shown view (the histogram only changes with it)
  result: null,
  timing: null,      // {workerMs, drawMs} of the shown result
  shownT0: 0,        // when the shown result was requested
  worker: null,
  busy: null,        // {id, query, large, t0}
  pending: null,
  nextId: 1,
  updates: 0,
  longTasks: 0,
  longestTask: 0,    // ms, the longest main-thread task seen (Long Tasks API)
  longTaskLog: [],   // [startTime, duration] of the first 200 long tasks
  workerFailures: 0, // worker failures since its last good answer
  workerRestarts: 0, // workers replaced after a failure (for tests)
  panicked: false,   // the main thread's wasm instance panicked
  urlErrors: [],     // bad URL values, shown in #error until the page is reloaded
  runError: false,   // #error currently shows a failed run
  dark: matchMedia('(prefers-color-scheme: dark)'),
};

export function setState(s) {
  // "ready" only when nothing newer is queued or running.
  document.body.dataset.state = (s === 'ready' && (app.busy || app.pending)) ? 'running' : s;
}
