// tailslice: open a browser performance trace (file picker or drop on the
// page). The trace worker (www/trace-worker.js, through www/client.js's
// traceClient) reads and parses it, with progress and a cancel button;
// Rust finds the main thread, its tasks and the summary (sentences included, English and Chinese). This file only
// moves messages and draws: the summary before the results (its sentences,
// and the ten longest tasks as a table whose rows show their task in the
// Gantt), the thread picker, the "all at t = 0" switch. The tasks then run like any imported
// task list (www/io.js), with the "as recorded" row first. The trace never
// leaves the browser and is not put into the URL.
import { t, onLangChange } from './i18n.js';
import { useTasks, importedTrace } from './io.js';
import { traceClient } from './client.js';
import { $, el } from './dom.js';
import { words } from './catalog.js';
import { app } from './state.js';
import { drawGantt } from './gantt.js';

let current = null;   // {name}: the read or selection under way
let shown = null;     // {sel, name}: the selection in use

function setState(s) { document.body.dataset.trace = s; }

function status(text, progress) {
  $('#trace-status').hidden = false;
  $('#trace-status-text').textContent = text;
  const bar = $('#trace-progress');
  if (progress === undefined) bar.removeAttribute('value');
  else bar.value = progress;
  $('#trace-cancel').hidden = false;
}

function done() {
  $('#trace-status').hidden = true;
  $('#trace-cancel').hidden = true;
}

let error = null;     // the error shown: its words ({en, zh}) or a message

function showError(shownError) {
  error = shownError;
  renderError();
}

function renderError() {
  const box = $('#trace-error');
  const message = error && typeof error === 'object' ? words(error) : error;
  box.textContent = message ? t('trace.error', { message }) : '';
  box.hidden = !message;
}

function mb(bytes) { return (bytes / 1048576).toFixed(1); }

// The trace reader's lane (its own worker and wasm, the page's protocol:
// www/client.js): a newer trace or selection replaces the one under way.
const reads = traceClient.lane();

function onProgress(p) {
  if (p.parsing) status(t('trace.parsing', { mb: mb(p.read) }));
  else status(p.gzip ? t('trace.inflating', { mb: mb(p.read) }) : t('trace.reading', { mb: mb(p.read), total: mb(p.size) }), p.gzip ? undefined : p.read / Math.max(1, p.size));
}

/** Sends a job to the trace worker; shows its selection or its error. */
function send(job, args, name) {
  const me = { name };
  current = me;
  // A new trace replaces the one under way at once (reading is long).
  const h = reads.request(job, args, { onProgress, replace: true });
  h.done.then((out) => {
    if (current !== me) return;
    if (out.status === 'cancelled') return;
    done();
    current = null;
    if (out.status === 'error') {
      showError(out.words || out.message);
      setState('error');
      return;
    }
    use(out.value, name);
  });
}

/** Reads `file` as a trace (in the trace worker). */
export function openTrace(file) {
  if (!file) return;
  showError(null);
  $('#tasks-panel').open = true;
  setState('reading');
  status(t('trace.reading', { mb: '0.0', total: mb(file.size) }), 0);
  send('openTrace', { file }, file.name);
}

/** Cancel: the trace worker stops before its next chunk. */
function cancel() {
  reads.cancel();
  current = null;
  done();
  showError(t('trace.cancelled'));
  setState(shown ? 'ready' : 'cancelled');
}

function select() {
  if (!shown) return;
  setState('reading');
  status(t('trace.selecting'));
  send('selectTrace', { thread: $('#trace-thread').value, t0: $('#trace-t0').checked }, shown.name);
}

async function use(sel, name) {
  current = null;
  if (!(await useTasks(sel.tasks, name, sel.starts, sel.count, null, sel.interactions))) { setState('error'); return; }
  shown = { sel, name };
  renderFound();
  setState('ready');
}

function renderFound() {
  const box = $('#trace-found');
  if (!shown || !importedTrace()) { box.hidden = true; shown = null; renderPicker(); return; }
  const sel = shown.sel;
  $('#trace-lines').replaceChildren(...words(sel.summary).map((line) => el('p', { text: line })));
  renderLongest(sel);
  box.hidden = false;
  renderPicker();
}

/** The ten longest tasks; a row (click, Enter or Space) shows its task in the Gantt. */
function renderLongest(sel) {
  const table = $('#trace-longest');
  table.querySelector('caption').textContent = words(sel.longest_caption);
  table.querySelector('thead').replaceChildren(el('tr', {}, ...sel.longest_heads.map((h) => el('th', { scope: 'col', text: words(h) }))));
  table.querySelector('tbody').replaceChildren(...sel.found.longest.map((l) => {
    const tr = el('tr', { tabIndex: 0, dataset: { task: String(l.task) } },
      el('td', { text: l.start_ms.toFixed(1) }),
      el('td', { text: l.duration_ms.toFixed(1) }),
      el('td', { text: l.handler ? `${l.label} ${words(sel.longest_handler).trim()}` : l.label }));
    if (l.handler) tr.dataset.handler = '';
    tr.setAttribute('aria-selected', 'false');
    return tr;
  }));
}

function showLongest(tr) {
  if (!tr || !app.gantt) return;
  if (!app.gantt.showTask(Number(tr.dataset.task))) return;
  for (const r of $('#trace-longest tbody').children) r.setAttribute('aria-selected', String(r === tr));
  drawGantt();
}

function renderPicker() {
  const row = $('#trace-choice');
  if (!shown) { row.hidden = true; return; }
  const pick = $('#trace-thread');
  const threads = shown.sel.found.threads;
  pick.replaceChildren(...threads.map((c) => el('option', {
    value: c.id,
    text: t('trace.thread.option', { id: c.id, name: c.thread_name || t('trace.unnamed'), process: c.process_name || c.pid, tasks: c.tasks }),
  })));
  pick.value = shown.sel.found.thread;
  pick.disabled = threads.length < 2;
  $('#trace-t0').checked = shown.sel.found.arrivals === 't0';
  row.hidden = false;
}

export function initTrace() {
  $('#trace-file').addEventListener('change', (e) => {
    const f = e.target.files && e.target.files[0];
    e.target.value = '';
    openTrace(f);
  });
  // Drop a trace anywhere on the page.
  document.addEventListener('dragover', (e) => {
    if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) e.preventDefault();
  });
  document.addEventListener('drop', (e) => {
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    openTrace(f);
  });
  $('#trace-cancel').addEventListener('click', cancel);
  const longest = $('#trace-longest tbody');
  longest.addEventListener('click', (e) => showLongest(e.target.closest('tr')));
  longest.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    showLongest(e.target.closest('tr'));
  });
  $('#trace-thread').addEventListener('change', select);
  $('#trace-t0').addEventListener('change', select);
  // Other tasks (pasted, uploaded, generated) replace the trace's.
  for (const [sel, ev] of [['#tasks-clear', 'click'], ['#tasks-use', 'click'], ['#tasks-file', 'change'], ['#experiment-file', 'change']]) {
    $(sel).addEventListener(ev, () => setTimeout(renderFound));
  }
  onLangChange(renderFound);
  onLangChange(renderError);
  // Test hooks.
  window.tailslice.openTrace = openTrace;
  Object.defineProperty(window.tailslice, 'trace', {
    // `tasks`: a promise of the task list's text (the list is a File, read
    // only when asked).
    get() {
      if (!shown) return null;
      const sel = shown.sel;
      return { found: sel.found, count: sel.count, get tasks() { return sel.tasks.text(); } };
    },
  });
}
