//! Every chart, drawn once: each is one function generic over a plotters
//! [`DrawingBackend`](plotters_backend::DrawingBackend), so the page draws
//! it on a canvas (`web/`), the CLI writes it as SVG ([`svg`]) and tests
//! record it — the same code, the same layout and colours.
//!
//! - what every chart draws with: [`pen`] (CSS pixels, text, theme,
//!   language), [`theme`] (colours, light and dark), [`axis`] (ticks whose
//!   labels never touch), [`legend`] (rows above a chart, never over its
//!   data), [`frame`] (an x–y chart's axes), [`place`] (free labels placed
//!   where they cover no other label, point or line), [`words`] (every
//!   word, en/zh);
//! - one lane chart for every Gantt ([`lanes`]: the wire format, layout,
//!   renderer and hit test) with its data for the study and traces
//!   ([`gantt::study`]), a scenario's cores ([`gantt::scenario_cores`]) and
//!   its threads' states ([`timeline::states`]);
//! - the plots: [`cdf`], [`histogram`], [`sweep`] (seeds, quanta),
//!   [`priority`] (`sched_pri` over time), the Responsiveness section's
//!   [`delay`] (input-delay CDF) and [`tradeoff`] (p98 and cost over the
//!   quantum), and the table as a figure ([`table`]); [`answer`]: the
//!   Responsiveness section's charts as data, and their drawing functions;
//! - [`fingerprint`]: what a chart draws as one number, so that the page
//!   draws again only what changed;
//! - [`figure`]: several charts in one SVG document (`--svg`, the page's
//!   "Figure (SVG)").
//!
//! A new chart is a new file here with one `draw` function taking a
//! [`pen::Pen`]; the page calls it with its canvas, [`figure`] with SVG.

pub mod answer;
pub(crate) mod axis;
pub mod cdf;
pub mod delay;
pub(crate) mod fingerprint;
pub mod frame;
pub mod gantt;
pub mod histogram;
pub mod interactions;
pub mod lanes;
pub(crate) mod legend;
pub mod pen;
pub(crate) mod place;
pub(crate) mod priority;
pub mod sweep;
pub(crate) mod table;
pub mod theme;
pub mod timeline;
pub mod tradeoff;
pub(crate) mod words;

// The SVG writer and figures: the CLI and the page's worker (exports);
// the page's main thread never writes SVG, so its wasm leaves them out.
#[cfg(not(feature = "page"))]
pub mod figure;
#[cfg(not(feature = "page"))]
pub mod svg;
