// The worker's module (tailslice-worker-web: the whole engine and every
// binding) on the main thread, loaded on first use. The page's own module
// (tailslice.js, feature "page") carries only what the first result needs;
// the panels that come later (the Embed dialog, the Responsiveness section,
// the sweeps' charts) take their Rust from here. The browser fetches the
// file once: the worker loads the same one.
import { lang, onLangChange } from './i18n.js';

let loading = null;

/** The loaded module (a promise; the first call starts the download). */
export function fullWasm() {
  loading ||= import('./tailslice-worker-web.js').then(async (m) => {
    await m.default({ module_or_path: new URL('./tailslice-worker-web_bg.wasm', import.meta.url) });
    // Its charts speak the page's language, like the page module's.
    m.setChartLang(lang());
    onLangChange(() => m.setChartLang(lang()));
    return m;
  });
  return loading;
}
