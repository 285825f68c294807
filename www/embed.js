// Sharing: the Share button (the address bar's link; in an embed, the full
// page's), the Embed dialog (the Live and Static snippets of the shown
// experiment or scenario, written by Rust's embedSnippet around the shown
// figure) and the embed view itself (its part, its settings or none, and
// its height posted to the host page, which facade.js reads).
import { t, lang, onLangChange } from './i18n.js';
import { $, el } from './dom.js';
import { app } from './state.js';
import { words } from './catalog.js';
import { fullPageUrl, shownQuery, deploymentBase } from './url.js';
import { request } from './client.js';
import { fullWasm } from './full-wasm.js';
import { importedTrace, importedSource } from './io.js';

// The dialog's Rust (its pickers and words, the snippets) is in the
// worker's module, loaded on the dialog's first use: the first view of the
// page does not carry it. The figure is made in the worker itself.
let wasm = null;     // the loaded module
let embedCat = null; // its catalog().embed

let lastHeight = 0;
/** Posts the embed's height to the host page (shrinking as well as growing). */
export function postHeight() {
  // The body's own bottom, not the document's scroll height: inside a
  // frame taller than its content that never drops below the frame.
  const height = Math.ceil(document.body.getBoundingClientRect().bottom + window.scrollY);
  if (height === lastHeight) return;
  lastHeight = height;
  // Any origin may embed the page; facade.js checks where messages come from.
  window.parent.postMessage({ type: 'tailslice:height', height }, '*');
}

async function copy(text, done, box, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = done;
  } catch {
    status.textContent = t('copy.this');
    box.hidden = false;
    box.select();
  }
  setTimeout(() => { status.textContent = ''; }, 2500);
}

// ------------------------------------------------------------ the dialog

const dialog = () => $('#embed-dialog');
const kind = () => (dialog().querySelector('input[name="embed-kind"]:checked') || {}).value;
/** The dialog's keys as a query (`view=…&controls=…&theme=…`); `figure`:
 * only those the figure depends on (not the live embed's settings). */
function viewQuery({ figure = false } = {}) {
  const p = new URLSearchParams();
  for (const e of embedCat.params) if (!(figure && e.key === 'controls')) p.set(e.key, $(`#embed-${e.key}`).value);
  return p.toString();
}

// The figure a snippet shows: the charts' own SVG of the shown experiment
// (or scenario run) for the dialog's part and colours, made in the worker
// (it runs the experiment). Kept per query, part, colours and language.
const figures = new Map();
/** The shown trace's answer, `{chart, file}`, when a trace is open and its
 * Responsiveness section answered: the snippets show that figure. */
function traceAnswer() {
  const sec = app.result && app.result.responsiveness;
  return importedTrace() && sec && !sec.error ? { chart: sec.chart, file: importedSource() } : null;
}
function figureSvg() {
  const answer = traceAnswer();
  if (answer) return Promise.resolve(wasm.embedAnswerFigure(answer.chart, viewQuery({ figure: true }), app.dark.matches, lang()));
  const args = { query: shownQuery(), view: viewQuery({ figure: true }), dark: app.dark.matches, lang: lang() };
  const key = JSON.stringify(args);
  if (!figures.has(key)) {
    if (figures.size >= 8) figures.clear();
    figures.set(key, request('embedFigure', args).done.then((out) => {
      if (out.status === 'done') return out.value;
      figures.delete(key);
      throw new Error(out.message || out.status);
    }));
  }
  return figures.get(key);
}

let writes = 0;
/** Writes the chosen snippet into textarea#embed-snippet once its figure
 * is made: `data-state` is `working` until then, then `ready` (only the
 * newest choice is written). */
async function writeSnippet() {
  const box = $('#embed-snippet');
  const n = ++writes;
  $('#embed-controls').disabled = kind() !== 'live';
  box.dataset.state = 'working';
  box.setAttribute('aria-busy', 'true');
  let text;
  let failed = false;
  try {
    const svg = await figureSvg();
    if (n !== writes) return;
    const answer = traceAnswer();
    text = wasm.embedSnippet(kind(), deploymentBase(), shownQuery(), viewQuery(), lang(), svg, answer ? answer.file : undefined);
  } catch (err) {
    if (n !== writes) return;
    text = String(err && err.message ? err.message : err);
    failed = true;
  }
  box.value = text;
  if (failed) box.setAttribute('aria-invalid', 'true'); else box.removeAttribute('aria-invalid');
  const kb = new Blob([box.value]).size / 1024;
  $('#embed-size').textContent = words(embedCat.words.size).replace('{}', kb.toFixed(1));
  box.dataset.kind = kind();
  box.dataset.state = 'ready';
  box.removeAttribute('aria-busy');
}

/** Builds the dialog's pickers and words from the catalog (once). */
function buildDialog() {
  const c = embedCat;
  const d = dialog();
  const kinds = $('#embed-kinds');
  c.snippets.forEach((s, i) => {
    const id = `embed-kind-${s.name}`;
    const input = el('input', { type: 'radio', name: 'embed-kind', id, value: s.name, checked: i === 0 });
    kinds.append(el('div', { className: 'embed-kind' },
      input, el('label', { htmlFor: id, dataset: { words: 'label' } }),
      el('p', { className: 'hint', dataset: { words: 'help' } })));
  });
  const opts = $('#embed-options');
  for (const p of c.params) {
    const select = el('select', { id: `embed-${p.key}` });
    for (const choice of p.choices) select.append(el('option', { value: choice.value }));
    select.value = p.default;
    opts.append(el('div', { className: 'field' }, el('label', { htmlFor: select.id }), select));
  }
  d.addEventListener('change', writeSnippet);
  $('#embed-copy').addEventListener('click', () => copy($('#embed-snippet').value, t('copied.embed'), $('#embed-snippet'), $('#embed-status')));
  $('#embed-close').addEventListener('click', () => d.close());
  labelDialog();
  onLangChange(() => { labelDialog(); if (d.open) writeSnippet(); });
}

function labelDialog() {
  const c = embedCat;
  $('#embed-dialog-title').textContent = words(c.words.title);
  $('#embed-copy').textContent = words(c.words.copy);
  $('#embed-close').textContent = words(c.words.close);
  $('#embed-snippet-label').textContent = words(c.words.code);
  for (const s of c.snippets) {
    const row = $(`#embed-kind-${s.name}`).parentElement;
    row.querySelector('[data-words="label"]').textContent = words(s.label);
    row.querySelector('[data-words="help"]').textContent = words(s.help);
  }
  for (const p of c.params) {
    const select = $(`#embed-${p.key}`);
    select.previousElementSibling.textContent = words(p.label);
    select.title = words(p.help);
    [...select.options].forEach((o, i) => { o.textContent = words(p.choices[i].label); });
  }
}

let built = null;
async function openDialog() {
  built ||= fullWasm().then((m) => {
    wasm = m;
    embedCat = m.catalog().embed;
    buildDialog();
  });
  await built;
  const d = dialog();
  // Nothing of a snippet written for what was shown before.
  const box = $('#embed-snippet');
  box.value = '';
  delete box.dataset.kind;
  writeSnippet();
  if (!d.open) d.showModal();
  d.querySelector('input[name="embed-kind"]:checked').focus();
}

export function wireSharing() {
  // In an embed, Share gives the full page (a reader shares the experiment,
  // not the blog's compact frame).
  $('#share').addEventListener('click', () => {
    const link = $('#share-link');
    link.value = app.page && app.page.embed ? fullPageUrl() : location.href;
    copy(link.value, t('copied.link'), link, $('#copy-status'));
  });
  $('#embed-code').addEventListener('click', openDialog);
}

/** The embed view: its part, its settings or none, the full-page link, and
 * the height kept posted. */
export function startEmbed(page) {
  document.body.classList.add('embed');
  document.body.dataset.view = page.view;
  document.body.classList.toggle('no-controls', !page.controls);
  $('#open-full').hidden = false;
  new ResizeObserver(postHeight).observe(document.body);
}
