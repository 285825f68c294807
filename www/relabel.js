// After a language switch: every text the page made itself is made again
// (the canvases' words go to the wasm, charts are redrawn, the controls'
// labels and the table are rebuilt, the URL gains lang=).
import { setLabels } from './tailslice.js';
import { t, lang } from './i18n.js';
import { $ } from './dom.js';
import { app } from './state.js';
import { showBanner } from './banner.js';
import { labelControls } from './controls.js';
import { renderHead, renderTable, renderLegend, renderStatus } from './table.js';
import { drawGantt, drawPlots } from './gantt.js';
import { writeUrl } from './url.js';

const CANVAS_WORDS = ['cdf_x', 'cdf_y', 'hist_x', 'hist_x_cut', 'hist_y', 'gantt_cores', 'gantt_too_many', 'tip', 'tip_long', 'slice_one', 'slice_many', 'core_lane', 'floor'];
/** Words the wasm draws on the canvases (and the Gantt tooltip), and the
 * language of the texts it holds in both, in the page's language. */
export function pushCanvasWords() {
  setLabels({ lang: lang(), ...Object.fromEntries(CANVAS_WORDS.map((k) => [k, t(`canvas.${k}`)])) });
}

export function relabel() {
  pushCanvasWords();
  drawGantt();
  drawPlots();
  $('#lang').value = lang();
  if (app.page) {
    renderHead(app.page.values.within);
    writeUrl(app.page);
  }
  labelControls();
  if (!app.runError) showBanner(app.urlErrors);
  if (app.result) {
    renderTable(app.result);
    renderLegend(app.result);
    renderStatus();
  }
}
