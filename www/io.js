// tailslice: your own tasks (paste / upload), the experiment file, and
// exports (Chrome trace, per-task CSV, PNG of each chart, the SVG figure,
// experiment JSON).
//
// Imported tasks are NOT in the URL (a link cannot carry a megabyte of
// durations): the page says so next to the table and offers the
// experiment file, which "Open experiment" restores to the same view.
// Files are computed in the page's worker (www/client.js, job exportFile)
// and handed to the browser as Blob downloads.
import { fileTooLarge } from './tailslice.js';
import { fullWasm } from './full-wasm.js';
import { t, lang, onLangChange } from './i18n.js';
import { limits, words } from './catalog.js';
import { request, lane } from './client.js';
import { $, el } from './dom.js';
import { setMeasured } from './measured.js';
import { app } from './state.js';

let ctx = null;       // {query(): experiment query, rerun(), setQuery(q), dark()}
let tasks = null;     // {text, source, count, starts}: starts (Float64Array) for a trace's tasks
/** A large pasted list, kept aside instead of in the text box. */
let pastedAside = null;

/** The imported task list (text, or the uploaded File: the worker reads
 * it), or null for generated tasks. */
export function importedTasks() { return tasks ? tasks.text : null; }
/** How many tasks were imported (0: generated tasks). */
export function importedCount() { return tasks ? tasks.count : 0; }
/** The recorded starts of a trace's tasks (for the "as recorded" row), or null. */
export function importedTrace() { return tasks && tasks.starts ? tasks.starts : null; }
/** Where the imported tasks came from: a file's name, '' when pasted. */
export function importedSource() { return tasks ? tasks.source : null; }
/** Identity of the imported list: measured rows belong to the list they were measured on. */
export function tasksKey() { return tasks ? `${tasks.source}:${tasks.count}:${tasks.text.length ?? tasks.text.size}` : ''; }
/** A trace's interactions and handler flags as its reader gave them (opaque here), or null. */
export function importedInteractions() { return tasks && tasks.interactions ? tasks.interactions : null; }
/** Imported lists get progress and cancel-on-edit when large. */
export function tasksLarge() { return !!tasks && tasks.count > limits().large_import_tasks; }

/** The import lane: a newer list replaces an older one still being read. */
const imports = lane();

/** A job's value, or throws its message (cancelled: `null`). */
async function job(name, args) {
  const out = await request(name, args).done;
  if (out.status === 'error') throw new Error(out.message);
  return out.status === 'done' ? out.value : null;
}

/** Offers `blob` as a download named `name` (Blob + object URL + <a download>). */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
  // For tests: the last download (name, type, size, the Blob itself).
  window.tailslice.lastDownload = { name, type: blob.type, size: blob.size, blob };
  window.tailslice.downloads = (window.tailslice.downloads || 0) + 1;
  document.body.dataset.downloads = String(window.tailslice.downloads);
}

function stamp() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}`;
}

function status(text) { $('#export-status').textContent = text; }

async function exportText(kind, name, type, extra = {}, convert = null) {
  status(t('export.working', { name }));
  try {
    const ui = JSON.stringify({ lang: lang(), ...extra });
    const msg = await job('exportFile', { kind, query: ctx.query(), tasks: importedTasks(), ui });
    const blob = new Blob([msg.text], { type });
    download(convert ? await convert(blob) : blob, name);
    status(t('export.done', { name }));
  } catch (err) {
    status(t('export.failed', { message: err.message }));
  }
}

/** The figure's options: the page's colours, everything, and the shown
 * Responsiveness section's charts (Rust draws them above the study). */
function figureUi() {
  const sec = app.result && app.result.responsiveness;
  return { theme: ctx.dark() ? 'dark' : 'light', view: 'all', answer: sec && !sec.error ? sec.chart : null };
}

/** An SVG figure drawn into a canvas at `scale` times its size: a PNG. */
async function svgToPng(svg, scale) {
  // A data: URL, not a blob: one: the page's Content-Security-Policy lets
  // images come from 'self' and data: only.
  const url = await new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result);
    r.onerror = () => reject(r.error);
    r.readAsDataURL(svg);
  });
  const img = new Image();
  img.src = url;
  await img.decode();
  const canvas = el('canvas', { width: img.naturalWidth * scale, height: img.naturalHeight * scale });
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  g.drawImage(img, 0, 0, img.naturalWidth, img.naturalHeight);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('empty canvas'))), 'image/png'));
}

/** A PNG of `canvas` (what is on screen, at device resolution). */
export function exportPng(canvas, name) {
  canvas.toBlob((blob) => {
    if (!blob) { status(t('export.failed', { message: 'empty canvas' })); return; }
    download(blob, name);
    status(t('export.done', { name }));
  }, 'image/png');
}

// ------------------------------------------------------------ tasks

function showTasksError(e) {
  const box = $('#tasks-error');
  if (!e) { box.hidden = true; box.textContent = ''; return; }
  // Rust's refusals come in both languages; the page's own in its own.
  const message = e.message_zh === undefined ? e.message : words({ en: e.message, zh: e.message_zh });
  box.textContent = e.line ? t('io.error.line', { line: e.line, message }) : t('io.error', { message });
  box.dataset.line = e.line ? String(e.line) : '';
  box.hidden = false;
}

function renderNote() {
  const note = $('#tasks-note');
  $('#share-tasks').hidden = !(tasks && tasks.starts);
  $('#tasks-clear').hidden = !tasks;
  document.body.dataset.tasks = tasks ? String(tasks.count) : '';
  // Seed, task count, mix and arrivals do not apply to imported tasks: dimmed.
  document.body.classList.toggle('tasks-imported', !!tasks);
  if (!tasks) { note.hidden = true; note.replaceChildren(); return; }
  const text = el('span', { text: t('io.note', { n: tasks.count.toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-US'), source: tasks.source === '' ? t('io.source.pasted') : tasks.source }) });
  const btn = el('button', { type: 'button', id: 'tasks-download', text: t('io.note.download') });
  btn.addEventListener('click', () => exportText('experiment', `tailslice-experiment-${stamp()}.json`, 'application/json'));
  note.replaceChildren(text, ' ', btn);
  note.hidden = false;
}

/**
 * Uses a task list: `text`, or `file` (a File, read in the worker), from
 * `source` (a file name, or '' when pasted). Resolves to true when
 * accepted. The list is read and checked by Rust's parser in the worker (a
 * million lines parsed on the main thread froze the tab for seconds). A
 * trace's tasks come with their recorded `starts` and their `count`: Rust
 * made that list in the trace worker, so it is not checked again.
 */
export async function useTasks(text, source = '', starts = null, count = null, file = null, interactions = null) {
  showTasksError(null);
  let check = { ok: true, tasks: count };
  if (count === null) {
    $('#tasks-use').disabled = true;
    document.body.dataset.importing = '1';
    try {
      const out = await imports.request('importTasks', { query: ctx.query(), text: file ? null : text, file }).done;
      if (out.status === 'cancelled') return false;
      check = out.status === 'done' ? out.value : { ok: false, line: null, message: out.message };
      // An upload stays a File: the worker reads it for every job.
      if (file) text = file;
    } finally {
      $('#tasks-use').disabled = false;
      delete document.body.dataset.importing;
    }
  }
  if (!check.ok) { showTasksError(check); return false; }
  showTasksError(null);
  tasks = { text, source, count: check.tasks, starts, interactions };
  renderNote();
  ctx.rerun();
  return true;
}

export function clearTasks() {
  tasks = null;
  showTasksError(null);
  renderNote();
  ctx.rerun();
}

async function readFile(input) {
  const f = input.files && input.files[0];
  input.value = '';
  if (!f) return null;
  const tooLarge = fileTooLarge(f.size, lang());
  if (tooLarge) return { name: f.name, error: tooLarge };
  return { name: f.name, text: await f.text() };
}

/** Opens an experiment file's text; resolves to true when accepted. Its
 * reader (serde_json) is the worker module's, loaded on first use. */
export async function openExperimentText(text) {
  const wasm = await fullWasm();
  let opened;
  try {
    opened = wasm.openExperiment(text, lang());
  } catch (err) {
    showTasksError({ line: null, message: t('io.error.file', { message: err.message }) });
    $('#tasks-panel').open = true;
    return false;
  }
  showTasksError(null);
  tasks = opened.tasks ? { text: opened.tasks, source: 'experiment', count: opened.task_count } : null;
  if (tasks) $('#tasks-text').value = '';
  renderNote();
  // A `measure --json` output: its rows belong to the experiment as opened.
  setMeasured(null);
  ctx.setQuery(opened.query, opened.ui);
  setMeasured(opened.measured || null, ctx.query(), tasksKey());
  return true;
}

// ------------------------------------------------------------ share these tasks

/** "Share these tasks": the trace's tasks in the address's fragment (Rust
 * encodes them, or says why not), written into #share-link and copied. */
async function shareTasks() {
  const status = $('#copy-status');
  const m = await fullWasm();
  if (!tasks || !tasks.starts) return;
  // A trace's task list is held as a File (see trace-jobs.js).
  const text = typeof tasks.text === 'string' ? tasks.text : await tasks.text.text();
  const out = m.shareTasksLink(text, tasks.starts);
  const box = $('#share-link');
  if (out.error) {
    status.textContent = words(out.error);
    status.dataset.state = 'refused';
    return;
  }
  box.value = `${location.href.split('#')[0]}#${out.fragment}`;
  box.hidden = false;
  status.dataset.state = 'ready';
  try {
    await navigator.clipboard.writeText(box.value);
    status.textContent = t('share.tasks.copied');
  } catch {
    status.textContent = t('copy.this');
    box.select();
  }
}

/** A link opened with tasks in its fragment: Rust reads them back (or
 * refuses them by name) and they are used as a trace's tasks. */
async function openTaskLink() {
  // Read now: the page may rewrite its address while the module loads.
  const hash = location.hash;
  const m = await fullWasm();
  const out = m.openTasksLink(hash);
  if (!out) return;
  if (out.error) {
    $('#tasks-panel').open = true;
    showTasksError({ line: null, message: words(out.error) });
    return;
  }
  await useTasks(out.tasks, t('share.tasks.source'), out.starts, out.count);
}

export function initIo(context) {
  ctx = context;
  // A pasted list larger than limits().paste_max_chars is kept out of the text box
  // (a textarea holding a million lines froze the tab for 40 s) and used
  // as it is by "Use these tasks".
  const area = $('#tasks-text');
  area.addEventListener('paste', (e) => {
    const text = e.clipboardData ? e.clipboardData.getData('text') : '';
    if (text.length <= limits().paste_max_chars) return;
    e.preventDefault();
    pastedAside = text;
    area.value = '';
    area.placeholder = t('io.pasted.aside', { mb: (text.length / 1e6).toFixed(1) });
  });
  area.addEventListener('input', () => { pastedAside = null; area.placeholder = ''; });
  $('#tasks-use').addEventListener('click', () => {
    const text = pastedAside ?? area.value;
    if (!text.trim()) { showTasksError({ line: null, message: t('io.empty') }); return; }
    useTasks(text, '');
  });
  $('#tasks-file').addEventListener('change', (e) => {
    const f = e.target.files && e.target.files[0];
    e.target.value = '';
    if (!f) return;
    const tooLarge = fileTooLarge(f.size, lang());
    if (tooLarge) { showTasksError({ line: null, message: tooLarge }); return; }
    // The worker reads and parses the file; the page only hands it over.
    useTasks(null, f.name, null, null, f);
  });
  $('#tasks-clear').addEventListener('click', clearTasks);
  $('#experiment-file').addEventListener('change', async (e) => {
    const f = await readFile(e.target);
    if (!f) return;
    if (f.error) { showTasksError({ line: null, message: f.error }); return; }
    openExperimentText(f.text);
  });
  $('#export-trace').addEventListener('click', () => exportText('trace', `tailslice-trace-${stamp()}.json`, 'application/json'));
  $('#export-csv').addEventListener('click', () => exportText('csv', `tailslice-tasks-${stamp()}.csv`, 'text/csv'));
  $('#export-experiment').addEventListener('click', () => exportText('experiment', `tailslice-experiment-${stamp()}.json`, 'application/json'));
  // The figure of the result as SVG: the charts' own drawing code, in the
  // page's colour scheme and language.
  $('#export-svg').addEventListener('click', () => exportText('svg', `tailslice-figure-${stamp()}.svg`, 'image/svg+xml', figureUi()));
  // The same figure at twice its pixel density.
  $('#export-png-figure').addEventListener('click', () => exportText('svg', `tailslice-figure-${stamp()}.png`, 'image/svg+xml', figureUi(), (svg) => svgToPng(svg, 2)));
  for (const id of ['gantt', 'cdf', 'hist']) {
    $(`#export-png-${id}`).addEventListener('click', () => exportPng($(`#${id}`), `tailslice-${id}-${stamp()}.png`));
  }
  $('#share-tasks').addEventListener('click', shareTasks);
  if (location.hash.length > 1) openTaskLink();
  onLangChange(() => { renderNote(); });
  // Test hooks.
  Object.assign(window.tailslice, { useTasks, useTasksFile: (file) => useTasks(null, file.name, null, null, file), clearTasks, openExperimentText, importedTasks });
}
