// The page's colours: `theme=light|dark|auto` (validated by Rust's
// parseQuery). `dark` has the shape of a MediaQueryList (`matches`,
// `addEventListener('change', cb)`) so the charts ask it whether to draw
// dark; `auto` follows the system setting, and the stylesheet reads
// `<html data-theme>`.
const media = matchMedia('(prefers-color-scheme: dark)');
let forced = null; // 'light' | 'dark' | null (auto)
const listeners = [];
const notify = () => { for (const cb of listeners) cb(); };

export const dark = {
  get matches() { return forced ? forced === 'dark' : media.matches; },
  addEventListener(type, cb) { if (type === 'change') listeners.push(cb); },
};

media.addEventListener('change', () => { if (!forced) notify(); });

/** Applies `theme=` (`light`, `dark` or `auto`). */
export function setTheme(name) {
  const was = dark.matches;
  forced = name === 'light' || name === 'dark' ? name : null;
  if (forced) document.documentElement.dataset.theme = forced;
  else delete document.documentElement.dataset.theme;
  if (dark.matches !== was) notify();
}
