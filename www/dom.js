// The page's two DOM helpers: `$` (one element by selector) and `el` (build
// an element with properties and children). User-supplied text only ever
// goes in through `text` (textContent), never as markup.

export const $ = (sel) => document.querySelector(sel);

export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
