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

// The dialog's Rust (its pickers and words, the snippets, the figure) is
// in the worker's module, loaded here on the dialog's first use: the first
// view of the page does not carry it.
let dialogWasm = null;
function wasmForDialog() {
  dialogWasm ||= import('./tailslice-worker-web.js').then(async (m) => {
    await m.default({ module_or_path: new URL('./tailslice-worker-web_bg.wasm', import.meta.url) });
    return m;
  });
  return dialogWasm;
}
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

/** The figure a snippet shows, for the dialog's part and theme.
 * PLACEHOLDER until the chart module's SVG figures are on main: the
 * latency table whatever the part (crate/src/embed/placeholder_figure.rs);
 * in scenario mode, the title only. */
function figureSvg({ theme }) {
  const dark = theme === 'dark' || (theme === 'auto' && app.dark.matches);
  const report = document.body.classList.contains('scenario-mode') || !app.result ? null : app.result.report;
  return wasm.placeholderFigureSvg(report, dark, lang());
}

const dialog = () => $('#embed-dialog');
const kind = () => (dialog().querySelector('input[name="embed-kind"]:checked') || {}).value;
function viewQuery() {
  const p = new URLSearchParams();
  for (const e of embedCat.params) p.set(e.key, $(`#embed-${e.key}`).value);
  return p.toString();
}

/** Writes the chosen snippet into textarea#embed-snippet. */
function writeSnippet() {
  const box = $('#embed-snippet');
  const view = Object.fromEntries(new URLSearchParams(viewQuery()));
  $('#embed-controls').disabled = kind() !== 'live';
  try {
    box.value = wasm.embedSnippet(kind(), deploymentBase(), shownQuery(), viewQuery(), lang(), figureSvg(view));
    box.removeAttribute('aria-invalid');
  } catch (err) {
    box.value = String(err && err.message ? err.message : err);
    box.setAttribute('aria-invalid', 'true');
  }
  const kb = new Blob([box.value]).size / 1024;
  $('#embed-size').textContent = words(embedCat.words.size).replace('{}', kb.toFixed(1));
  box.dataset.kind = kind();
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
  built ||= wasmForDialog().then((m) => {
    wasm = m;
    embedCat = m.catalog().embed;
    buildDialog();
  });
  await built;
  const d = dialog();
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
