// The settings panel on narrow screens: a shared link opened on a phone
// shows the result first, with the controls one tap away behind
// button#controls-toggle (aria-expanded, aria-controls). The button comes
// before the form in the DOM and on screen, so keyboard and screen-reader
// order is the visual order; on wide screens the button is hidden and the
// form always shown (style.css).
import { $ } from './dom.js';

function setOpen(open) {
  $('#controls').classList.toggle('collapsed', !open);
  $('#controls-toggle').setAttribute('aria-expanded', String(open));
}

export function initPanel() {
  setOpen(false);
  $('#controls-toggle').addEventListener('click', () => {
    const open = $('#controls').classList.contains('collapsed');
    setOpen(open);
    if (open) $('#controls').querySelector('select, input, button')?.focus();
  });
}
