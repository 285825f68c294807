// The panels below the first result: traces, the sweeps, Run for real and
// the Responsiveness section. The first result needs none of their code,
// so the page imports this module once that result's table and Gantt are
// drawn (main.js), and marks `body[data-panels]` "ready" when they are
// wired; a panel's static markup and strings are in the page from the
// start.
import { initTrace } from './trace.js';
import { initSweep, redrawSweeps } from './sweep.js';
import { initRealRun } from './realrun.js';
import { initResponsiveness } from './responsiveness.js';

export { redrawSweeps };

/** Wires every panel; `context` is main.js's (the experiment, its tasks,
 * and how to show another one). */
export function initPanels(context) {
  initTrace();
  initSweep(context);
  initRealRun(context);
  initResponsiveness({ page: context.page, setQuery: context.setQuery, dark: context.dark });
}
