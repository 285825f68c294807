// tailslice i18n: English and Simplified Chinese.
//
// String tables are ES modules `strings/<area>.js` exporting
// `default { en: {...}, zh: {...} }`; keys are flat ("seed", "sweep.run").
// A key missing in Chinese falls back to English, then to the key itself.
//
//   t(key, vars)       the string in the current language, `{name}` replaced
//   lang()             'en' | 'zh'
//   setLang(l)         switch (updates <html lang>, the marked-up DOM, listeners)
//   onLangChange(cb)   cb(lang) after every switch
//   applyI18n(root)    textContent of [data-i18n="key"], attributes of
//                      [data-i18n-attr="title:key,aria-label:key2"], and
//                      the document's title (key `title`) for the document
//   fmtNumber(x, d)    Intl.NumberFormat of the current locale, d decimals
//
// The language comes from `lang=zh|en` in the URL, else navigator.language,
// both read by Rust (startLang). A bad `lang=` is refused by Rust's
// parseQuery (Lang::parse, as the CLI's --lang) and shown in the banner. Test hooks (td[data-metric]) never go
// through fmtNumber: they stay plain one-decimal numbers.
import page from './strings/page.js';
import sweep from './strings/sweep.js';
import scenario from './strings/scenario.js';
import trace from './strings/trace.js';
import realrun from './strings/realrun.js';

export const LANGS = ['en', 'zh'];
const LOCALES = { en: 'en-US', zh: 'zh-CN' };
/** `<html lang>` per language. */
const HTML_LANG = { en: 'en', zh: 'zh-CN' };
const TABLES = { en: {}, zh: {} };
for (const table of [page, sweep, scenario, trace, realrun]) {
  for (const l of LANGS) Object.assign(TABLES[l], (table && table[l]) || {});
}

// Until the wasm has read the URL and the browser's language (startLang),
// the page speaks English.
let explicit = null;
let current = 'en';
const listeners = [];

export function lang() { return current; }

/**
 * Sets the starting language, both read by Rust: `fromUrl` is parseQuery's
 * `lang` (null when the link names none or a bad one), `fromBrowser` the
 * browser's language as Rust reads it (langOf(navigator.language)).
 */
export function startLang(fromUrl, fromBrowser) {
  explicit = fromUrl;
  current = fromUrl || fromBrowser;
  document.documentElement.lang = HTML_LANG[current];
}

/** `query` (canonical, no `?`) with `lang=` added when the language was chosen explicitly. */
export function withLang(query) {
  if (!explicit) return query;
  const parts = query ? query.split('&') : ['v=1'];
  const at = parts.indexOf('embed=1');
  parts.splice(at >= 0 ? at : parts.length, 0, `lang=${explicit}`);
  return parts.join('&');
}

export function t(key, vars) {
  let s = TABLES[current][key];
  if (s === undefined) s = TABLES.en[key];
  if (s === undefined) return key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return s;
}

export function applyI18n(root = document) {
  if (root === document) document.title = t('title');
  const scope = root.querySelectorAll ? root : document;
  const all = [...scope.querySelectorAll('[data-i18n],[data-i18n-attr]')];
  if (root.matches && root.matches('[data-i18n],[data-i18n-attr]')) all.push(root);
  // Only what differs is written: the page's HTML is already in English,
  // and a write of the same text still makes the browser style and lay out
  // the element again.
  for (const e of all) {
    const key = e.getAttribute('data-i18n');
    if (key) {
      const text = t(key);
      if (e.textContent !== text) e.textContent = text;
    }
    const attrs = e.getAttribute('data-i18n-attr');
    if (attrs) {
      for (const pair of attrs.split(',')) {
        const [attr, k] = pair.split(':').map((s) => s.trim());
        if (!attr || !k) continue;
        const value = t(k);
        if (e.getAttribute(attr) !== value) e.setAttribute(attr, value);
      }
    }
  }
}

/** Switches to `n`, a language Rust named (the picker's, a file's). */
export function setLang(n) {
  if (!LANGS.includes(n)) return;
  explicit = n;
  const changed = n !== current;
  current = n;
  document.documentElement.lang = HTML_LANG[n];
  if (!changed) return;
  applyI18n(document);
  for (const cb of listeners) {
    try { cb(n); } catch (e) { console.error(e); }
  }
}

export function onLangChange(cb) { listeners.push(cb); }

const formats = new Map();
export function fmtNumber(x, digits = 1) {
  if (x === null || x === undefined || !Number.isFinite(Number(x))) return '–';
  const k = `${current}:${digits}`;
  let f = formats.get(k);
  if (!f) {
    f = new Intl.NumberFormat(LOCALES[current], { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(k, f);
  }
  return f.format(Number(x));
}
