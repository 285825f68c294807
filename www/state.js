// The page's shared state: what is shown, what is running, what the tests
// read. One object, owned by no single file; `setState` is the one writer
// of `body[data-state]`. `runs` is the experiment's lane of the page's one
// worker client (www/client.js): what is running or waiting.
import { lane } from './client.js';
import { dark } from './theme.js';

export const runs = lane();

export const app = {
  page: null,        // parseQuery() of the current state
  view: null,        // View of the last result (its plots)
  gantt: null,       // Gantt of the last result (its schedules)
  viewKey: '',       // experiment shape of the shown view (keeps zoom while tuning)
  result: null,
  timing: null,      // {workerMs, drawMs} of the shown result
  shownT0: 0,        // when the shown result was requested
  updates: 0,
  longTasks: 0,
  longestTask: 0,    // ms, the longest main-thread task seen (Long Tasks API)
  longTaskLog: [],   // [startTime, duration] of the first 200 long tasks
  panicked: false,   // the main thread's wasm instance panicked
  urlErrors: [],     // bad URL values, shown in #error until the page is reloaded
  runError: false,   // #error currently shows a failed run
  dark,              // dark colours? (theme=, else the system setting)
};

let settle;
/** Resolves once the first result's table and Gantt are drawn
 * (`firstResultDrawn`) or a run failed: what the page loads next waits
 * for it. */
export const firstResult = new Promise((resolve) => { settle = resolve; });
export function firstResultDrawn() { settle(); }

let wanted = null;
let loading = 0;

export function setState(s) {
  if (s === 'error') settle();
  wanted = s;
  // "ready" only when nothing newer is queued or running, and no code the
  // page needs is still loading (`whileLoading`): until then it is still
  // "loading", as before its first result.
  const busy = s === 'ready' && runs.busy;
  const held = s === 'ready' && loading > 0;
  document.body.dataset.state = busy ? 'running' : held ? 'loading' : s;
}

/** Holds "ready" back until `promise` settles: the page is ready once it
 * can be used, not only once its result is drawn. */
export function whileLoading(promise) {
  loading++;
  return promise.finally(() => {
    loading--;
    if (wanted) setState(wanted);
  });
}
