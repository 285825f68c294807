// The live snippet's loader (a classic script a blog post includes once per
// snippet, `async`). Before a click it loads nothing: each facade is the
// experiment's figure inside a link to the full page, marked
// `data-tailslice-facade="<the embed's query>"`. A plain click, Enter or
// Space swaps that link for the live embed (an iframe of this script's own
// deployment), which then posts its height; this script sizes the frame,
// up and down.
//
// The host page is not trusted: frames only ever load this deployment
// (the script's own folder, with the facade's query), only facades whose
// link points into that folder are handled, and height messages count only
// from this deployment's origin and from a frame this script made.
(() => {
  const me = document.currentScript;
  if (!me || !me.src) return;
  const base = new URL('./', me.src);
  // One loader per deployment however many snippets include it.
  const key = `tailslice:${base.href}`;
  if (window[key]) return;
  window[key] = true;

  const frames = new Set();
  // A frame's height stays within these (px), whatever a message says.
  const MIN = 80;
  const MAX = 10000;

  const ours = (a) => a.href.startsWith(base.href);

  function facadeOf(target) {
    const a = target instanceof Element ? target.closest('a[data-tailslice-facade]') : null;
    return a && ours(a) ? a : null;
  }

  function live(a) {
    const src = new URL(base.href);
    // Only the query comes from the page; the origin and path are ours.
    src.search = String(a.getAttribute('data-tailslice-facade') || '').replace(/^\?/, '');
    if (src.searchParams.get('embed') !== '1') src.searchParams.set('embed', '1');
    const f = document.createElement('iframe');
    f.src = src.href;
    f.title = a.getAttribute('data-tailslice-title') || 'tailslice';
    const h = Math.round(a.getBoundingClientRect().height);
    f.style.cssText = `display:block;width:100%;border:0;height:${Math.max(MIN, h)}px`;
    f.setAttribute('data-tailslice-frame', '');
    frames.add(f);
    a.replaceWith(f);
    f.focus();
  }

  document.addEventListener('click', (e) => {
    const a = facadeOf(e.target);
    // New tab or window (modifier keys, middle button): the link does it.
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    live(a);
  });
  document.addEventListener('keydown', (e) => {
    const a = facadeOf(e.target);
    if (!a || e.key !== ' ') return; // Enter already clicks a link.
    e.preventDefault();
    live(a);
  });

  window.addEventListener('message', (e) => {
    if (e.origin !== base.origin) return;
    const d = e.data;
    if (!d || d.type !== 'tailslice:height') return;
    const h = Number(d.height);
    if (!Number.isFinite(h)) return;
    for (const f of frames) {
      if (!f.isConnected) { frames.delete(f); continue; }
      if (f.contentWindow === e.source) {
        f.style.height = `${Math.min(MAX, Math.max(MIN, Math.ceil(h)))}px`;
        return;
      }
    }
  });
})();
