// tailslice: open a browser performance trace (file picker or drop on the
// page). The trace worker (www/trace-worker.js) reads and parses it, with
// progress and a cancel button; Rust finds the main thread, its tasks and
// the summary (sentences included, English and Chinese). This file only
// moves messages and draws: the summary before the results, the thread
// picker, the "all at t = 0" switch. The tasks then run like any imported
// task list (www/io.js), with the "as recorded" row first. The trace never
// leaves the browser and is not put into the URL.
import { t, lang, onLangChange } from './i18n.js';
import { useTasks, importedTrace } from './io.js';

const $ = (sel) => document.querySelector(sel);
let worker = null;
let nextId = 1;
let current = null;   // {id, name}
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

function spawn() {
  if (worker) worker.terminate();
  worker = new Worker(new URL('./trace-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (e) => {
    const msg = e.data;
    if (!current || msg.id !== current.id) return;
    if (msg.type === 'progress') {
      status(msg.gzip ? t('trace.inflating', { mb: mb(msg.read) }) : t('trace.reading', { mb: mb(msg.read), total: mb(msg.size) }), msg.gzip ? undefined : msg.read / Math.max(1, msg.size));
    } else if (msg.type === 'parsing') {
      status(t('trace.parsing', { mb: mb(msg.read) }));
    } else if (msg.type === 'error') {
      done();
      showError(msg.message);
      setState('error');
      current = null;
    } else if (msg.type === 'selected') {
      done();
      use(msg.sel, current.name);
    }
  };
  worker.onerror = (e) => {
    done();
    showError(e.message || 'worker error');
    setState('error');
    current = null;
  };
}

/** Reads `file` as a trace (in the worker). */
export function openTrace(file) {
  if (!file) return;
  spawn();
  showError(null);
  $('#tasks-panel').open = true;
  current = { id: nextId++, name: file.name };
  setState('reading');
  status(t('trace.reading', { mb: '0.0', total: mb(file.size) }), 0);
  worker.postMessage({ type: 'open', id: current.id, file });
}

function cancel() {
  if (worker) { worker.terminate(); worker = null; }
  current = null;
  done();
  showError(t('trace.cancelled'));
  setState(shown ? 'ready' : 'cancelled');
}

function select() {
  if (!shown || !worker) return;
  current = { id: nextId++, name: shown.name };
  setState('reading');
  status(t('trace.selecting'));
  worker.postMessage({ type: 'select', id: current.id, thread: $('#trace-thread').value, t0: $('#trace-t0').checked });
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
  pick.replaceChildren(...threads.map((c) => {
    const o = document.createElement('option');
    o.value = c.id;
    o.textContent = t('trace.thread.option', { id: c.id, name: c.thread_name || t('trace.unnamed'), process: c.process_name || c.pid, tasks: c.tasks });
    return o;
  }));
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
