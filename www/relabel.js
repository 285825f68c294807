// After a language switch: every text the page made itself is made again
// (the charts' language goes to the wasm, charts are redrawn, the
// controls' labels and the table are rebuilt, the URL gains lang=).
import { setChartLang } from './tailslice.js';
import { lang } from './i18n.js';
import { $ } from './dom.js';
import { app } from './state.js';
import { showBanner } from './banner.js';
import { labelControls } from './controls.js';
import { renderHead, renderTable, renderStatus } from './table.js';
import { drawGantt, drawPlots } from './gantt.js';
import { writeUrl } from './url.js';

/** The language the wasm draws charts and writes tooltips in: the page's. */
export function pushChartLang() {
  setChartLang(lang());
}

export function relabel() {
  pushChartLang();
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
    renderStatus();
  }
}
