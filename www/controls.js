// The experiment's controls, built from the core's catalog: every
// parameter's input is found by `data-param="<URL key>"` (or made in
// "More settings" when the markup has none), its label, help, range and
// step come from the catalog, and the policy checkboxes are the catalog's
// policies. This file serialises the controls into a query; Rust parses
// and validates it (parseQuery), exactly as it does a link.
import { parseQuery, policyColor, mixText as rustMixText } from './tailslice.js';
import { t } from './i18n.js';
import { $, el } from './dom.js';
import { catalog, limits, param, words } from './catalog.js';
import { app } from './state.js';
import { renderHead } from './table.js';

/** The preset experiments (Rust's catalog: a query and a name each). */
const presets = () => catalog().presets;

/** Parameters with a widget of their own (not one input). */
const WIDGETS = { p: '#policy-boxes', mix: '#mix-rows' };
let policyOrder = [];
let ctx = null; // {setPage(page, {fill})}

/** Every single-input control, `[key, element]`. */
function fields() {
  return [...document.querySelectorAll('#controls [data-param]')]
    .filter((e) => !(e.dataset.param in WIDGETS))
    .map((e) => [e.dataset.param, e]);
}

/** Inputs for parameters the markup does not place (a new knob shows up here). */
function buildMissingFields() {
  const box = $('#more-params');
  for (const p of catalog().params) {
    if (p.key in WIDGETS || document.querySelector(`#controls [data-param="${p.key}"]`)) continue;
    const id = `param-${p.key}`;
    const input = el('input', { id, type: 'text', spellcheck: false, autocomplete: 'off', dataset: { param: p.key } });
    box.append(el('div', { className: 'field' }, el('label', { htmlFor: id, dataset: { paramLabel: p.key } }), input));
  }
}

/** Labels, help and ranges of every control from the catalog (again after a language switch). */
export function labelControls() {
  // The static markup's texts that Rust writes (data-text: a key of catalog().texts).
  for (const e of document.querySelectorAll('[data-text]')) e.textContent = words(catalog().texts[e.dataset.text]);
  for (const label of document.querySelectorAll('[data-param-label]')) {
    label.textContent = words(param(label.dataset.paramLabel).label);
  }
  for (const [key, input] of fields()) {
    const p = param(key);
    input.title = `${words(p.help)} (${words(p.allowed)})`;
    if (input.type === 'number') {
      if (p.min !== null) input.min = String(p.min);
      if (p.max !== null) input.max = String(p.max);
      input.step = p.integer ? '1' : 'any';
    }
  }
  const opts = $('#preset').options;
  presets().forEach((p, i) => { if (opts[i]) opts[i].textContent = words(p.name); });
  if (opts[presets().length]) opts[presets().length].textContent = t('preset.custom');
  document.querySelectorAll('#mix-rows .mix-row').forEach((row, i) => {
    const n = i + 1;
    for (const [sel, key] of [['.mix-w', 'mix.weight'], ['.mix-d', 'mix.dist'], ['.mix-lo', 'mix.lo'], ['.mix-hi', 'mix.hi'], ['.mix-rm', 'mix.remove']]) {
      const e = row.querySelector(sel);
      if (e) e.setAttribute('aria-label', t(key, { n }));
    }
  });
  for (const p of catalog().policies) {
    const box = document.querySelector(`label[for="policy-${p.name}"]`);
    if (box) box.title = words(p.describe);
  }
  $('#policies-hint').textContent = t('policies.hint', { n: limits().page_max_policies });
  if (app.page) renderHead(app.page.values.within);
}

function buildStaticControls() {
  const preset = $('#preset');
  for (const p of presets()) preset.append(el('option', { value: p.query, text: words(p.name) }));
  preset.append(el('option', { value: '__custom', text: t('preset.custom'), disabled: true }));
  const boxes = $('#policy-boxes');
  for (const p of catalog().policies) {
    const id = `policy-${p.name}`;
    const input = el('input', { type: 'checkbox', id, value: p.name, name: 'policy' });
    boxes.append(el('label', { htmlFor: id, title: words(p.describe) }, input, el('span', { className: 'swatch' }), p.title));
  }
  const [lo, hi] = limits().quantum_slider;
  Object.assign($('#quantum-slider'), { min: String(lo), max: String(hi) });
  const [fewest, most] = limits().sweep_steps_range;
  Object.assign($('#sweep-steps'), { min: String(fewest), max: String(most), value: String(limits().sweep_steps) });
  buildMissingFields();
  labelControls();
}

function mixRow(row, index, count) {
  const div = el('div', { className: row.lo === null ? 'mix-row custom' : 'mix-row' });
  const n = index + 1;
  const w = el('input', { type: 'number', min: '0', step: 'any', value: String(row.weight), className: 'mix-w', inputMode: 'decimal', 'aria-label': t('mix.weight', { n }) });
  div.append(w);
  if (row.lo === null) {
    div.append(el('input', { type: 'text', value: row.dist, className: 'mix-d', spellcheck: false, 'aria-label': t('mix.dist', { n }) }));
  } else {
    div.append(el('input', { type: 'number', min: '0', step: 'any', value: String(row.lo), className: 'mix-lo', inputMode: 'decimal', 'aria-label': t('mix.lo', { n }) }));
    div.append(el('input', { type: 'number', min: '0', step: 'any', value: String(row.hi), className: 'mix-hi', inputMode: 'decimal', 'aria-label': t('mix.hi', { n }) }));
  }
  const rm = el('button', { type: 'button', className: 'mix-rm', text: '×', disabled: count <= 1, 'aria-label': t('mix.remove', { n }) });
  div.append(rm);
  return div;
}

function renderMix(rows) {
  const box = $('#mix-rows');
  box.replaceChildren(...rows.map((r, i) => mixRow(r, i, rows.length)));
  $('#mix-add').disabled = rows.length >= limits().max_classes;
}

/** The rows as typed, joined into `mix=` text by Rust (its mix syntax). */
function mixText() {
  return rustMixText([...document.querySelectorAll('#mix-rows .mix-row')].map((div) => {
    const value = (sel) => { const input = div.querySelector(sel); return input ? input.value : undefined; };
    return { weight: value('.mix-w'), dist: value('.mix-d'), lo: value('.mix-lo'), hi: value('.mix-hi') };
  }));
}

function sliderValue(q) {
  const [lo, hi] = limits().quantum_slider;
  return String(Math.min(hi, Math.max(lo, Math.round(Number(q)))));
}

/** Disables the controls of parameters that change nothing as `page`
 * stands (Cores once a machine is named), after every edit as on load. */
export function syncInert(page) {
  for (const [key, input] of fields()) input.disabled = page.inert.includes(key);
}

export function fillControls(page) {
  const v = page.values;
  for (const [key, input] of fields()) {
    if (document.activeElement !== input || input.value === '') input.value = v[key];
    input.removeAttribute('aria-invalid');
  }
  syncInert(page);
  $('#quantum-slider').value = sliderValue(v.q);
  policyOrder = [...page.policies];
  syncPolicyBoxes();
  renderMix(page.mix);
  const match = presets().find((p) => p.query === page.experiment || parseQuery(p.query).experiment === page.experiment);
  $('#preset').value = match ? match.query : '__custom';
  describePreset();
  renderHead(v.within);
}

/** The preset matching `page`, or Custom (after an edit). */
export function matchPreset(page) {
  const match = presets().find((p) => parseQuery(p.query).experiment === page.experiment);
  $('#preset').value = match ? match.query : '__custom';
  describePreset();
}

/** The chosen preset's whole name (a narrow select cuts it off). */
function describePreset() {
  const opt = $('#preset').selectedOptions[0];
  $('#preset').title = opt ? opt.textContent : '';
}

function syncPolicyBoxes() {
  const full = policyOrder.length >= limits().page_max_policies;
  for (const { name } of catalog().policies) {
    const box = $(`#policy-${name}`);
    box.checked = policyOrder.includes(name);
    box.disabled = !box.checked && full;
    const i = policyOrder.indexOf(name);
    const sw = box.parentElement.querySelector('.swatch');
    // Only a compared policy has a colour; an unchecked one shows just its
    // checkbox (a hollow swatch beside it read as a second box).
    sw.style.background = i >= 0 ? policyColor(i) : 'transparent';
    sw.style.visibility = i >= 0 ? 'visible' : 'hidden';
  }
}

/** The query the controls describe (serialisation only: Rust validates). */
function controlsQuery() {
  const p = new URLSearchParams();
  for (const [key, input] of fields()) p.set(key, input.value.trim());
  p.set('mix', mixText());
  p.set('p', policyOrder.join(','));
  // The real run's settings (www/realrun.js) ride along unchanged.
  for (const [key, v] of Object.entries(app.page.real_values || {})) p.set(key, v);
  // The embed view's keys (embed=1, view, controls, theme) ride along too.
  for (const [key, v] of new URLSearchParams(app.page.view_query)) p.set(key, v);
  return p.toString();
}

let editQueued = false;
function onEdit() {
  if (editQueued) return;
  editQueued = true;
  requestAnimationFrame(() => { editQueued = false; applyEdit(); });
}

function applyEdit() {
  const page = parseQuery(controlsQuery());
  const formError = $('#form-error');
  for (const [, input] of fields()) input.removeAttribute('aria-invalid');
  if (page.errors.length) {
    for (const e of page.errors) {
      const input = document.querySelector(`#controls [data-param="${e.field}"]`);
      if (input) input.setAttribute('aria-invalid', 'true');
    }
    formError.textContent = page.errors.map((e) => words(e.refusal)).join('\n');
    formError.hidden = false;
    return;
  }
  formError.hidden = true;
  formError.textContent = '';
  ctx.setPage(page, { fill: false });
}

/** Builds the controls from the catalog and wires their events. */
export function initControls(context) {
  ctx = context;
  buildStaticControls();
  const form = $('#controls');
  form.addEventListener('submit', (e) => e.preventDefault());
  for (const [, input] of fields()) input.addEventListener(input.tagName === 'SELECT' ? 'change' : 'input', onEdit);
  $('#quantum-slider').addEventListener('input', () => {
    $('#quantum').value = $('#quantum-slider').value;
    onEdit();
  });
  $('#quantum').addEventListener('input', () => {
    const q = Number($('#quantum').value);
    if (Number.isFinite(q) && q > 0) $('#quantum-slider').value = sliderValue(q);
  });
  $('#new-seed').addEventListener('click', () => {
    const a = new Uint32Array(1);
    crypto.getRandomValues(a);
    $('#seed').value = String(a[0]);
    onEdit();
  });
  $('#policy-boxes').addEventListener('change', (e) => {
    const p = e.target.value;
    if (e.target.checked) { if (!policyOrder.includes(p)) policyOrder.push(p); }
    else policyOrder = policyOrder.filter((x) => x !== p);
    if (policyOrder.length === 0) { policyOrder = [p]; }
    syncPolicyBoxes();
    onEdit();
  });
  const maxClasses = limits().max_classes;
  $('#mix-rows').addEventListener('input', onEdit);
  $('#mix-rows').addEventListener('click', (e) => {
    const rm = e.target.closest('.mix-rm');
    if (!rm) return;
    rm.closest('.mix-row').remove();
    const rows = document.querySelectorAll('#mix-rows .mix-row');
    rows.forEach((r) => { r.querySelector('.mix-rm').disabled = rows.length <= 1; });
    $('#mix-add').disabled = rows.length >= maxClasses;
    onEdit();
  });
  $('#mix-add').addEventListener('click', () => {
    const rows = document.querySelectorAll('#mix-rows .mix-row').length;
    if (rows >= maxClasses) return;
    $('#mix-rows').append(mixRow(catalog().new_mix_row, rows, rows + 1));
    document.querySelectorAll('#mix-rows .mix-rm').forEach((b) => { b.disabled = false; });
    $('#mix-add').disabled = rows + 1 >= maxClasses;
    onEdit();
  });
  $('#preset').addEventListener('change', () => {
    const q = $('#preset').value;
    if (q === '__custom') return;
    ctx.setPage(parseQuery(q + (app.page.view_query ? `&${app.page.view_query}` : '')), { fill: true });
  });
  $('#reset').addEventListener('click', () => ctx.setPage(parseQuery(''), { fill: true }));
}
