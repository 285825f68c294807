// tailslice: open a browser performance trace (file picker or drop on the
// page). The trace worker (www/trace-worker.js, through www/client.js's
// traceClient) reads and parses it, with progress and a cancel button;
// Rust finds the main thread, its tasks and the summary (sentences included, English and Chinese). This file only
// moves messages and draws: the summary before the results, the thread
// picker, the "all at t = 0" switch. The tasks then run like any imported
// task list (www/io.js), with the "as recorded" row first. The trace never
// leaves the browser and is not put into the URL.
import { t, lang, onLangChange } from './i18n.js';
import { useTasks, importedTrace } from './io.js';
import { traceClient } from './client.js';
import { $, el } from './dom.js';

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

function showError(message) {
  const box = $('#trace-error');
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
      showError(out.message);
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
  if (!(await useTasks(sel.tasks, name, sel.starts, sel.count))) { setState('error'); return; }
  shown = { sel, name };
  renderFound();
  setState('ready');
}

function renderFound() {
  const box = $('#trace-found');
  if (!shown || !importedTrace()) { box.hidden = true; shown = null; renderPicker(); return; }
  const lines = shown.sel.lines[lang()] || shown.sel.lines.en;
  $('#trace-lines').textContent = lines.join('\n');
  box.hidden = false;
  renderPicker();
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
  $('#trace-thread').addEventListener('change', select);
  $('#trace-t0').addEventListener('change', select);
  // Other tasks (pasted, uploaded, generated) replace the trace's.
  for (const [sel, ev] of [['#tasks-clear', 'click'], ['#tasks-use', 'click'], ['#tasks-file', 'change'], ['#experiment-file', 'change']]) {
    $(sel).addEventListener(ev, () => setTimeout(renderFound));
  }
  onLangChange(renderFound);
  // Test hooks.
  window.tailslice.openTrace = openTrace;
  Object.defineProperty(window.tailslice, 'trace', {
    get() { return shown ? { found: shown.sel.found, count: shown.sel.count, tasks: shown.sel.tasks } : null; },
  });
}
