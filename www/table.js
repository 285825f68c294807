// The percentile table, the one reading under it and the status line. Columns are the catalog's figures; every
// number, change text, verdict and sentence is Rust's (result.rows,
// result.reading, result.explain): this file only lays them out.
import { policyColor } from './tailslice.js';
import { t, fmtNumber } from './i18n.js';
import { $, el } from './dom.js';
import { catalog, words } from './catalog.js';
import { app } from './state.js';
import { tasksKey } from './io.js';
import { measuredRowsOf, renderMeasuredNote } from './measured.js';

/** The header row, from the catalog's figures, the threshold's figure
 * named with `within` (again after a language switch or a new threshold). */
export function renderHead(within) {
  const tr = el('tr', {}, el('th', { scope: 'col', text: t('col.policy') }));
  for (const m of catalog().metrics) {
    const th = el('th', { scope: 'col', text: words(m.title).replace('{ms}', within) });
    if (m.threshold) th.id = 'within-head';
    tr.append(th);
  }
  $('#percentiles thead').replaceChildren(tr);
}

export function renderTable(result) {
  const tbody = $('#percentiles tbody');
  const rows = result.rows;
  const frag = document.createDocumentFragment();
  rows.forEach((row) => {
    const tr = el('tr', { dataset: { policy: row.policy } });
    const th = el('th', { scope: 'row' });
    // A policy's colour is the Gantt's; a row that is not a policy (a
    // trace's "as recorded") has a hollow swatch.
    const sw = el('span', { className: row.colour === null ? 'swatch hollow' : 'swatch' });
    if (row.colour !== null) sw.style.background = policyColor(row.colour);
    th.append(sw, words(row.title));
    if (row.uses_quantum) th.append(el('span', { className: 'hint quantum', text: ` ${result.quantum} ms` }));
    tr.append(th);
    for (const { name: m, unit } of catalog().metrics) {
      const v = row[m];
      const td = el('td', { dataset: { metric: m }, text: unit === 'ms' ? Number(v).toFixed(1) : String(v) });
      const ch = row.change_text ? row.change_text[m] : undefined;
      if (ch !== undefined) {
        td.dataset.change = ch;
        td.className = row.verdict[m];
        // Changes are against the row each names (a trace at t = 0 compares
        // with the first policy, not the "as recorded" row).
        const base = rows.find((r) => r.policy === row.base) || rows[0];
        td.title = t('versus', { change: ch, base: words(base.title) });
      }
      tr.append(td);
    }
    frag.append(tr);
    // A `measure --json` output's rows, under their model row.
    frag.append(...measuredRowsOf(row.policy, catalog().metrics, app.page.experiment, tasksKey()));
  });
  tbody.replaceChildren(frag);
  // A line above the table when Rust has one (a trace replayed alike by
  // every policy).
  $('#table-note').textContent = words(result.above);
  $('#table-note').hidden = !result.above;
  renderMeasuredNote(app.page.experiment, tasksKey());
  // One reading under the table, in the page's language: the generated
  // explanation (its changes and why), else the bare comparison.
  $('#explanation').textContent = words(result.explain) || words(result.reading);
}

export function renderStatus() {
  if (!app.result || !app.timing) return;
  const r = app.result.report;
  $('#status-text').textContent = t('status.done', {
    tasks: fmtNumber(r.tasks, 0), work: fmtNumber(r.total_work_ms, 1),
    sim: fmtNumber(app.timing.workerMs, 1), draw: fmtNumber(app.timing.drawMs, 1),
  });
}
