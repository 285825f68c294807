//! Every chart, drawn once: each is one function generic over a plotters
//! [`DrawingBackend`](plotters_backend::DrawingBackend), so the page draws
//! it on a canvas, the CLI writes it as SVG and tests record it — the same
//! code, the same layout and colours.
//!
//! - what every chart draws with: [`pen`] (CSS pixels, text, theme,
//!   language), [`theme`] (colours, light and dark), [`axis`] (ticks whose
//!   labels never touch), [`legend`] (rows above a chart, never over its
//!   data), [`frame`] (an x–y chart's axes), [`words`] (every word, en/zh);
//! - one lane chart for every Gantt ([`lanes`]: the wire format, layout,
//!   renderer and hit test) with its data for the study and traces
//!   ([`gantt::study`]), a scenario's cores ([`gantt::scenario_cores`]) and
//!   its threads' states ([`timeline::states`]);
//! - the plots: [`cdf`], [`histogram`], [`sweep`] (seeds, quanta),
//!   [`priority`] (`sched_pri` over time) and the table as a figure
//!   ([`table`]).
//!
//! A new chart is a new file here with one `draw` function taking a
//! [`pen::Pen`].

pub mod axis;
pub mod cdf;
pub mod frame;
pub mod gantt;
pub mod histogram;
pub mod lanes;
pub mod legend;
pub mod pen;
pub mod priority;
pub mod sweep;
pub mod table;
pub mod theme;
pub mod timeline;
pub mod words;
