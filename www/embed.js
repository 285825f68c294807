// Sharing: the Share button (the address bar's link), the Embed button
// (an <iframe> snippet for the current experiment, copied or shown to copy
// by hand) and, in the embed view, the height posted to the host page.
import { t } from './i18n.js';
import { $ } from './dom.js';
import { app } from './state.js';
import { embedUrl } from './url.js';

let lastHeight = 0;
export function postHeight() {
  const height = Math.ceil(document.documentElement.scrollHeight);
  if (height === lastHeight) return;
  lastHeight = height;
  // Hosts size the iframe from this; any origin may embed the page.
  window.parent.postMessage({ type: 'tailslice:height', height }, '*');
}

async function copy(text, done) {
  const status = $('#copy-status');
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = done;
  } catch {
    status.textContent = t('copy.this');
    const box = $('#embed-snippet');
    box.value = text;
    box.hidden = false;
    box.select();
  }
  setTimeout(() => { status.textContent = ''; }, 2500);
}

export function wireSharing() {
  $('#share').addEventListener('click', () => copy(location.href, t('copied.link')));
  $('#embed-code').addEventListener('click', () => {
    const snippet = `<iframe src="${embedUrl(app.page)}" title="tailslice: scheduler playground" width="100%" height="760" style="border:0" loading="lazy"></iframe>`;
    const box = $('#embed-snippet');
    box.value = snippet;
    box.hidden = false;
    copy(snippet, t('copied.embed'));
  });
}

/** The compact embed view: the full-page link, and the height kept posted. */
export function startEmbed() {
  document.body.classList.add('embed');
  $('#open-full').hidden = false;
  new ResizeObserver(postHeight).observe(document.documentElement);
}
