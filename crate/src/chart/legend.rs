//! Legends: rows of swatches and names above (or below) a chart, never over
//! its data. A name too long for its share of the row is shortened with `…`
//! and its full text is left as a [`super::pen::Spot`] (a tooltip on the
//! page, a `<title>` in SVG).

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::DrawingBackend;

use super::pen::{anchor, shorten, text_width, DrawResult, Pen, Spot};
use super::theme::Rgb;

/// Height of one legend row, in px.
pub(crate) const ROW_H: f64 = 18.0;
const SIZE: f64 = 12.0;
/// Space after an entry.
const GAP: f64 = 16.0;

/// How an entry's colour is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swatch {
    /// A filled square (bars, lanes).
    Box,
    /// A filled square with a dark band on top (the Gantt's long class).
    Striped,
    /// A line (curves).
    Line,
    /// A dashed line (a threshold).
    Dashed,
    /// An empty square in the lane colour (what an empty lane means).
    Hollow,
    /// No swatch: a note.
    Text,
}

/// One legend entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub label: String,
    pub color: Rgb,
    pub swatch: Swatch,
}

impl Item {
    pub(crate) fn new(label: impl Into<String>, color: Rgb, swatch: Swatch) -> Item {
        Item {
            label: label.into(),
            color,
            swatch,
        }
    }
}

fn swatch_w(s: Swatch) -> f64 {
    match s {
        Swatch::Line | Swatch::Dashed => 24.0,
        Swatch::Text => 0.0,
        _ => 12.0,
    }
}

struct Placed {
    x: f64,
    row: usize,
    shown: String,
    shortened: bool,
}

/// Places `items` in rows `width` px wide; a label gets at most 45 % of
/// the width (at least 80 px).
fn layout(items: &[Item], width: f64) -> (Vec<Placed>, usize) {
    let max_label = (width * 0.45).max(80.0);
    let mut out = Vec::with_capacity(items.len());
    let (mut x, mut row) = (0.0, 0);
    for it in items {
        let shown = shorten(&it.label, SIZE, max_label);
        let sw = swatch_w(it.swatch);
        let w = sw + if sw > 0.0 { 6.0 } else { 0.0 } + text_width(&shown, SIZE);
        if x > 0.0 && x + w > width {
            row += 1;
            x = 0.0;
        }
        out.push(Placed {
            x,
            row,
            shortened: shown != it.label,
            shown,
        });
        x += w + GAP;
    }
    let rows = if items.is_empty() { 0 } else { row + 1 };
    (out, rows)
}

/// Height of the legend of `items` in `width` px (0 without items).
pub(crate) fn height(items: &[Item], width: f64) -> f64 {
    layout(items, width).1 as f64 * ROW_H
}

/// The notes of the legend of `items` drawn at `(x, y)`, `width` px wide:
/// each shortened entry's full text where [`draw`] puts it.
pub(crate) fn spots(items: &[Item], x: f64, y: f64, width: f64) -> Vec<Spot> {
    let (placed, _) = layout(items, width);
    items
        .iter()
        .zip(&placed)
        .filter(|(_, p)| p.shortened)
        .map(|(it, p)| Spot {
            x: x + p.x,
            y: y + p.row as f64 * ROW_H,
            w: swatch_w(it.swatch) + 6.0 + text_width(&p.shown, SIZE),
            h: ROW_H,
            text: it.label.clone(),
        })
        .collect()
}

/// Every entry's full text, one per line (for a canvas's description).
pub(crate) fn text(items: &[Item]) -> String {
    items
        .iter()
        .map(|i| i.label.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Draws the legend of `items` with its top left at `(x, y)`, `width` px
/// wide; returns its height.
pub(crate) fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    items: &[Item],
    x: f64,
    y: f64,
    width: f64,
) -> DrawResult<f64, B> {
    let (placed, rows) = layout(items, width);
    let theme = pen.theme;
    for (it, p) in items.iter().zip(&placed) {
        let sx = x + p.x;
        let cy = y + p.row as f64 * ROW_H + ROW_H / 2.0;
        let sw = swatch_w(it.swatch);
        match it.swatch {
            Swatch::Box => pen.fill(sx, cy - 6.0, sx + 12.0, cy + 6.0, it.color.solid())?,
            Swatch::Striped => {
                pen.fill(sx, cy - 6.0, sx + 12.0, cy + 6.0, it.color.solid())?;
                pen.fill(sx, cy - 6.0, sx + 12.0, cy - 3.0, Rgb(0, 0, 0).alpha(0.45))?;
            }
            Swatch::Line => pen.line((sx, cy), (sx + sw, cy), it.color.solid(), 3.0)?,
            Swatch::Dashed => {
                pen.dashed((sx, cy), (sx + sw, cy), it.color.solid(), 1.5, 6.0, 4.0)?
            }
            Swatch::Hollow => {
                pen.fill(sx, cy - 6.0, sx + 12.0, cy + 6.0, theme.grid.solid())?;
                let (a, b) = (
                    (pen.dx(sx).floor() as i32, pen.dy(cy - 6.0).floor() as i32),
                    (
                        pen.dx(sx + 12.0).ceil() as i32,
                        pen.dy(cy + 6.0).ceil() as i32,
                    ),
                );
                let w = pen.width(1.0);
                pen.outline_px(a, b, theme.muted.solid(), w)?;
            }
            Swatch::Text => {}
        }
        let tx = sx + sw + if sw > 0.0 { 6.0 } else { 0.0 };
        pen.text(
            &p.shown,
            tx,
            cy,
            SIZE,
            theme.fg,
            anchor(HPos::Left, VPos::Center),
        )?;
        if p.shortened {
            let w = sw + 6.0 + text_width(&p.shown, SIZE);
            pen.spot(sx, cy - ROW_H / 2.0, w, ROW_H, &it.label);
        }
    }
    Ok(rows as f64 * ROW_H)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::theme::CLASSES;

    #[test]
    fn entries_wrap_into_rows_that_fit() {
        let items: Vec<Item> = (0..10)
            .map(|i| Item::new(format!("EventDispatch{i}"), CLASSES[i], Swatch::Box))
            .collect();
        let (placed, rows) = layout(&items, 400.0);
        assert!(rows >= 3, "{rows}");
        for (it, p) in items.iter().zip(&placed) {
            let w = swatch_w(it.swatch) + 6.0 + text_width(&p.shown, SIZE);
            assert!(p.x + w <= 400.0, "{} at {}", p.shown, p.x);
        }
        assert_eq!(height(&items, 400.0), rows as f64 * ROW_H);
        assert_eq!(height(&[], 400.0), 0.0);
    }

    #[test]
    fn long_names_are_shortened() {
        let items = [Item::new(
            "TaskQueueManager::ProcessTaskFromWorkQueue and more words still",
            CLASSES[0],
            Swatch::Box,
        )];
        let (placed, _) = layout(&items, 300.0);
        assert!(placed[0].shortened);
        assert!(placed[0].shown.ends_with('…'));
    }
}
