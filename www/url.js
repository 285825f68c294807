// The one writer of the page's address: the address bar itself
// (history.replaceState, never pushState: Back keeps working), the "open
// in tailslice" link of the embed view and the embed snippet's src. Each
// adds `lang=` when the visitor chose a language (withLang).
import { withLang } from './i18n.js';
import { $ } from './dom.js';

/** Puts `page`'s canonical query into the address bar and the full-page link. */
export function writeUrl(page) {
  const q = withLang(page.query);
  history.replaceState(null, '', location.pathname + (q ? `?${q}` : '') + location.hash);
  // The full page keeps a language the visitor chose (lang=), like the embed snippet.
  const fullQuery = withLang(page.experiment ? `v=1&${page.experiment}` : '');
  $('#open-full').href = location.pathname + (fullQuery ? `?${fullQuery}` : '');
}

/** The absolute address of `page`'s embed view (the iframe's src). */
export function embedUrl(page) {
  const src = new URL(location.pathname, location.href);
  src.search = `?${withLang(page.experiment ? `v=1&${page.experiment}&embed=1` : 'v=1&embed=1')}`;
  return src.href;
}
