// The percentile table, its reading, the generated explanation, the class
// legend and the status line. Columns are the catalog's figures; every
// number, change text, verdict and sentence is Rust's (result.rows,
// result.reading, result.explain): this file only lays them out.
import { classColor, policyColor } from './tailslice.js';
import { t, fmtNumber } from './i18n.js';
import { $, el } from './dom.js';
import { catalog, policyTitle, usesQuantum, words } from './catalog.js';
import { tasksKey } from './io.js';
import { app } from './state.js';

/** The header row, from the catalog's figures (again after a language switch). */
export function renderHead(within) {
  const tr = el('tr', {}, el('th', { scope: 'col', text: t('col.policy') }));
  for (const m of catalog().metrics) {
    const th = el('th', { scope: 'col', text: words(m.title).replace('{ms}', within) });
    if (m.name === 'done_within') th.id = 'within-head';
    tr.append(th);
  }
  $('#percentiles thead').replaceChildren(tr);
}

export function renderTable(result) {
  const tbody = $('#percentiles tbody');
  const rows = result.rows;
  const frag = document.createDocumentFragment();
  // A trace's "as recorded" row comes first; the policies keep their colours.
  const shift = rows.length && rows[0].policy === 'recorded' ? 1 : 0;
  rows.forEach((row, i) => {
    const tr = el('tr', { dataset: { policy: row.policy } });
    const th = el('th', { scope: 'row' });
    const sw = el('span', { className: 'swatch' });
    sw.style.background = i < shift ? 'transparent' : policyColor(i - shift);
    if (i < shift) sw.style.border = '1px solid currentColor';
    th.append(sw, policyTitle(row.policy));
    if (usesQuantum(row.policy)) th.append(el('span', { className: 'hint', text: ` ${result.quantum} ms` }));
    tr.append(th);
    for (const { name: m, unit } of catalog().metrics) {
      const v = row[m];
      const td = el('td', { dataset: { metric: m }, text: unit === 'ms' ? Number(v).toFixed(1) : String(v) });
      const ch = row.change_text ? row.change_text[m] : undefined;
      if (ch !== undefined) {
        td.dataset.change = ch;
        td.className = row.verdict[m];
        td.title = t('versus', { change: ch, base: policyTitle(row.base || rows[0].policy) });
      }
      tr.append(td);
    }
    frag.append(tr);
  });
  tbody.replaceChildren(frag);
  // The comparison and the generated reading (explain.rs), in the page's language.
  $('#reading').textContent = result.reading ? words(result.reading) : '';
  $('#explanation').textContent = result.explain ? words(result.explain) : '';
}

export function renderStatus() {
  if (!app.result || !app.timing) return;
  const r = app.result.report;
  $('#status-text').textContent = t('status.done', {
    tasks: fmtNumber(r.tasks, 0), work: fmtNumber(r.total_work_ms, 1),
    sim: fmtNumber(app.timing.workerMs, 1), draw: fmtNumber(app.timing.drawMs, 1),
  });
}

export function renderLegend(result) {
  const box = $('#legend');
  box.replaceChildren();
  const longIdx = app.view.longClass;
  result.classes.forEach((label, i) => {
    const sw = el('span', { className: i === longIdx ? 'swatch long' : 'swatch' });
    sw.style.background = classColor(i);
    box.append(el('span', {}, sw, `${label}${tasksKey() ? '' : ' ms'}${i === longIdx ? t('legend.long') : ''}`));
  });
}

