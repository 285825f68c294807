//! Every chart, drawn once: each is one function generic over a plotters
//! [`DrawingBackend`](plotters_backend::DrawingBackend), so the page draws
//! it on a canvas, the CLI writes it as SVG and tests record it — the same
//! code, the same layout and colours.
//!
//! What every chart draws with: [`pen`] (CSS pixels, text, theme,
//! language), [`theme`] (colours, light and dark), [`axis`] (ticks whose
//! labels never touch), [`legend`] (rows above a chart, never over its
//! data), [`frame`] (an x–y chart's axes), [`words`] (every word, en/zh).

pub mod axis;
pub mod frame;
pub mod legend;
pub mod pen;
pub mod theme;
pub mod words;
