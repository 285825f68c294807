// The measured rows of an opened `tailslice measure --json` output: each
// under its policy's model row while the page shows the experiment that
// was measured, the environment line under the table, and Rust's one-line
// note once an edit leaves that experiment. Every word and figure is
// Rust's (openExperiment's `measured`); this file only lays them out.
import { words } from './catalog.js';
import { $, el } from './dom.js';

let opened = null; // {view, query, tasks}: the view and the experiment it belongs to

/** Keeps `view` (null: none) for the experiment `query` on the tasks `tasks` (io.js tasksKey). */
export function setMeasured(view, query, tasks) {
  opened = view ? { view, query, tasks } : null;
}

function noteBox() {
  let p = $('#measured-note');
  if (!p) {
    p = el('p', { id: 'measured-note', className: 'hint' });
    const table = $('#percentiles');
    (table.closest('.table-wrap') || table).after(p);
  }
  return p;
}

/** The measured rows of `policy` for the table, `metrics` the catalog's
 * (empty unless the shown experiment is the measured one). */
export function measuredRowsOf(policy, metrics, query, tasks) {
  if (!opened || opened.query !== query || opened.tasks !== tasks) return [];
  return opened.view.rows.filter((r) => r.policy === policy).map((r) => {
    const th = el('th', { scope: 'row', className: 'measured' });
    th.append(el('span', { className: 'swatch hollow' }), words(r.title));
    const tr = el('tr', { className: 'measured', dataset: { measured: r.policy, kernelPolicy: r.kernel_policy } }, th);
    for (const { name: m } of metrics) {
      const td = el('td', { dataset: { metric: m }, text: r.cells[m] ?? '–' });
      if (r.figures[m] !== undefined) td.dataset.value = String(r.figures[m]);
      if (r.spread[m] !== undefined && r.repeats > 1) {
        td.dataset.spread = r.spread[m];
        td.append(el('span', { className: 'hint spread', text: ` ${r.spread[m]}` }));
      }
      tr.append(td);
    }
    return tr;
  });
}

/** The line under the table: the environment while the measured
 * experiment is shown, the note once an edit left it, nothing otherwise. */
export function renderMeasuredNote(query, tasks) {
  if (!opened && !$('#measured-note')) return;
  const p = noteBox();
  if (!opened) { p.hidden = true; p.textContent = ''; delete p.dataset.measured; return; }
  const shown = opened.query === query && opened.tasks === tasks;
  p.textContent = words(shown ? opened.view.environment : opened.view.dropped);
  p.dataset.measured = shown ? 'shown' : 'dropped';
  p.hidden = false;
}
