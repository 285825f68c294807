// The one writer of the page's address: the address bar itself
// (history.replaceState, never pushState: Back keeps working), the "open
// in tailslice" link of the embed view, and the full page's link that
// Share (in an embed) and the Embed dialog's snippets use. Each adds
// `lang=` when the visitor chose a language (withLang).
import { withLang } from './i18n.js';
import { $ } from './dom.js';

// The shown experiment's or scenario's own query (no v, embed keys, lang).
let shown = '';

/** Puts `page`'s canonical query into the address bar and the full-page link. */
export function writeUrl(page) {
  const q = withLang(page.query);
  history.replaceState(null, '', location.pathname + (q ? `?${q}` : '') + location.hash);
  setShown(page.experiment);
}

/** Records what is shown (an experiment's or a scenario's query) for the
 * full-page link ("open in tailslice", Share in an embed, the snippets). */
export function setShown(query) {
  shown = query;
  $('#open-full').href = fullPageUrl();
}

/** The shown query, with `lang=` when the visitor chose a language. */
export function shownQuery() {
  return withLang(shown);
}

/** The absolute address of the full page showing what is shown (never the
 * embed view: no embed keys). */
export function fullPageUrl() {
  const q = withLang(shown ? `v=1&${shown}` : '');
  return new URL(location.pathname + (q ? `?${q}` : ''), location.href).href;
}

/** The deployment's folder (where index.html and facade.js are). */
export function deploymentBase() {
  return new URL('./', location.href).href;
}
