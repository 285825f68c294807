// The #error banner: refused URL values (each with the value used
// instead), a failed run, a panic with a Reload button. The messages are
// Rust's (ParamError, in English and Chinese, with what is used instead);
// only the frame sentence is the page's.
import { lastPanic } from './tailslice.js';
import { t } from './i18n.js';
import { words } from './catalog.js';
import { $, el } from './dom.js';
import { app, setState } from './state.js';

export function showBanner(errors) {
  const box = $('#error');
  box.replaceChildren();
  if (!errors.length) { box.hidden = true; return; }
  box.append(el('p', { text: errors.length === 1 ? t('banner.one') : t('banner.many', { n: errors.length }) }));
  const ul = el('ul');
  for (const e of errors) ul.append(el('li', { text: words(e.banner) }));
  box.append(ul);
  box.hidden = false;
}

export function showRunError(message, { reload = false } = {}) {
  app.runError = true;
  const box = $('#error');
  box.replaceChildren(el('p', { text: message }));
  if (reload) {
    const btn = el('button', { type: 'button', id: 'reload', text: t('banner.reload') });
    btn.addEventListener('click', () => location.reload());
    box.append(btn);
  }
  box.hidden = false;
}

/** Back to the URL's refusals once a run succeeds again. */
export function clearRunError() {
  if (app.runError) { app.runError = false; showBanner(app.urlErrors); }
}

/** A panic on the main thread leaves this wasm instance unusable: say what
 * happened (the panic's own message) and offer a reload, which keeps the
 * experiment (it is in the URL). */
export function onMainThreadError() {
  const panic = lastPanic();
  if (!panic || app.panicked) return;
  app.panicked = true;
  showRunError(t('banner.panic', { message: panic }), { reload: true });
  setState('error');
}
