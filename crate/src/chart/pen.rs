//! What every chart draws with: a plotters [`DrawingBackend`] (a canvas in
//! the page, SVG for the CLI, a recorder in tests) behind a [`Pen`] that
//! takes CSS pixels, the theme and the language, and writes device pixels.
//!
//! Text is laid out with one estimate of its width ([`text_width`]), the
//! same on every backend, so that a canvas and an SVG of one chart put every
//! label in the same place, and hit tests (which run before any drawing)
//! agree with what is drawn. The estimate errs wide: a real font's text is
//! never longer than the room made for it.

use plotters_backend::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontFamily, FontStyle, FontTransform,
};

use super::theme::{Palette, Rgb};
use crate::text::Lang;

/// The system's own sans-serif faces, CJK included: figures load no font.
pub(crate) const FONT_STACK: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', sans-serif";

/// A failed drawing call of backend `B`.
pub(crate) type DrawError<B> = DrawingErrorKind<<B as DrawingBackend>::ErrorType>;
pub(crate) type DrawResult<T, B> = Result<T, DrawError<B>>;

/// Width of `text` at `size` px, in px: a per-character estimate for the
/// common sans-serif faces (DejaVu Sans, the widest of them, for Latin;
/// one em for CJK and other wide characters).
pub fn text_width(text: &str, size: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | '·' => 0.32,
            ' ' | 'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' | 'I' => 0.42,
            'm' | 'w' | 'M' | 'W' | '%' | '@' | '—' => 0.98,
            '0'..='9' | '+' | '=' | '<' | '>' | '±' | '−' | '–' | '…' | '#' | '$' => 0.64,
            'A'..='Z' => 0.74,
            'a'..='z' | '_' | '?' | '&' | '*' | 'µ' | '×' => 0.62,
            c if c.is_ascii() => 0.62,
            // CJK, kana, Hangul and fullwidth forms take a full em.
            '\u{1100}'..='\u{115f}'
            | '\u{2e80}'..='\u{a4cf}'
            | '\u{ac00}'..='\u{d7a3}'
            | '\u{f900}'..='\u{faff}'
            | '\u{fe30}'..='\u{fe4f}'
            | '\u{ff00}'..='\u{ff60}'
            | '\u{ffe0}'..='\u{ffe6}' => 1.0,
            _ => 0.74,
        })
        .sum();
    em * size
}

/// `text` cut to at most `max` px wide with a trailing `…` (unchanged when
/// it fits).
pub(crate) fn shorten(text: &str, size: f64, max: f64) -> String {
    if text_width(text, size) <= max {
        return text.to_string();
    }
    let room = max - text_width("…", size);
    let mut out = String::new();
    let mut w = 0.0;
    for c in text.chars() {
        let cw = text_width(c.encode_utf8(&mut [0; 4]), size);
        if w + cw > room {
            break;
        }
        w += cw;
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out.push('…');
    out
}

/// Text that cannot reach a figure as it is (control and bidirectional
/// formatting characters, see [`crate::error::is_hidden_char`]) shows as
/// U+FFFD: a hostile class name cannot garble the chart or break its SVG.
fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(crate::error::is_hidden_char) {
        text.chars()
            .map(|c| {
                if crate::error::is_hidden_char(c) {
                    '\u{fffd}'
                } else {
                    c
                }
            })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// A text style, in device pixels, for [`DrawingBackend::draw_text`].
#[derive(Clone, Copy)]
pub(crate) struct Font {
    pub size: f64,
    pub color: BackendColor,
    pub bold: bool,
    pub anchor: Pos,
    /// Reads bottom to top (a vertical axis's title).
    pub vertical: bool,
}

/// Never returned: figures draw no glyphs themselves (every backend here
/// draws text as text).
#[derive(Debug)]
pub(crate) struct NoGlyphs;

impl std::fmt::Display for NoGlyphs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("this backend cannot draw text")
    }
}

impl std::error::Error for NoGlyphs {}

impl BackendTextStyle for Font {
    type FontError = NoGlyphs;

    fn color(&self) -> BackendColor {
        self.color
    }

    fn size(&self) -> f64 {
        self.size
    }

    fn transform(&self) -> FontTransform {
        if self.vertical {
            FontTransform::Rotate270
        } else {
            FontTransform::None
        }
    }

    fn style(&self) -> FontStyle {
        if self.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        }
    }

    fn anchor(&self) -> Pos {
        self.anchor
    }

    fn family(&self) -> FontFamily<'_> {
        FontFamily::Name(FONT_STACK)
    }

    fn layout_box(&self, text: &str) -> Result<((i32, i32), (i32, i32)), NoGlyphs> {
        let w = text_width(text, self.size).ceil() as i32;
        Ok(((0, 0), (w, self.size.ceil() as i32)))
    }

    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        _text: &str,
        _pos: BackendCoord,
        _draw: F,
    ) -> Result<Result<(), E>, NoGlyphs> {
        Err(NoGlyphs)
    }
}

/// Where the alphabetic baseline sits for a text anchored vertically at
/// `y`: the same offsets on every backend (about DejaVu's and Arial's
/// ascent and descent).
pub(crate) fn baseline(v: VPos, y: f64, size: f64) -> f64 {
    match v {
        VPos::Top => y + 0.80 * size,
        VPos::Center => y + 0.35 * size,
        VPos::Bottom => y - 0.22 * size,
    }
}

/// A solid stroke or fill of a given width.
#[derive(Clone, Copy)]
pub(crate) struct Stroke {
    pub color: BackendColor,
    pub width: u32,
}

impl BackendStyle for Stroke {
    fn color(&self) -> BackendColor {
        self.color
    }

    fn stroke_width(&self) -> u32 {
        self.width
    }
}

/// A place on a chart that tells more when pointed at: a shortened legend
/// label's full text. CSS pixels from the chart's top left.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub text: String,
}

impl Spot {
    pub(crate) fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && x < self.x + self.w && y >= self.y && y < self.y + self.h
    }
}

/// Horizontal and vertical text anchor.
pub(crate) fn anchor(h: HPos, v: VPos) -> Pos {
    Pos::new(h, v)
}

/// Draws on a backend in CSS pixels.
pub struct Pen<'a, B: DrawingBackend> {
    backend: &'a mut B,
    /// Device pixels per CSS pixel (the canvas's devicePixelRatio; 1 for SVG).
    pub scale: f64,
    /// CSS pixels added to every coordinate: where this chart sits in a
    /// figure of several.
    pub origin: (f64, f64),
    pub theme: Palette,
    pub lang: Lang,
    /// Whether many thin lanes may be painted as a bitmap
    /// ([`DrawingBackend::blit_bitmap`]): a canvas yes, a vector figure no.
    pub raster: bool,
    /// Notes for pointers, in CSS pixels relative to `origin`.
    pub spots: Vec<Spot>,
}

impl<'a, B: DrawingBackend> Pen<'a, B> {
    pub fn new(backend: &'a mut B, scale: f64, theme: Palette, lang: Lang) -> Pen<'a, B> {
        Pen {
            backend,
            scale: if scale.is_finite() && scale > 0.0 {
                scale
            } else {
                1.0
            },
            origin: (0.0, 0.0),
            theme,
            lang,
            raster: false,
            spots: Vec::new(),
        }
    }

    /// The drawing area's size in CSS pixels.
    pub(crate) fn size(&self) -> (f64, f64) {
        let (w, h) = self.backend.get_size();
        (w as f64 / self.scale, h as f64 / self.scale)
    }

    /// A CSS x or y (relative to `origin`) in device pixels.
    pub(crate) fn dx(&self, x: f64) -> f64 {
        (x + self.origin.0) * self.scale
    }

    pub(crate) fn dy(&self, y: f64) -> f64 {
        (y + self.origin.1) * self.scale
    }

    fn at(&self, x: f64, y: f64) -> BackendCoord {
        (self.dx(x).round() as i32, self.dy(y).round() as i32)
    }

    /// A line width of `w` CSS px in whole device pixels (at least one).
    pub(crate) fn width(&self, w: f64) -> u32 {
        (w * self.scale).round().max(1.0) as u32
    }

    /// Fills the rectangle between two corners (CSS px), snapped outwards
    /// to whole device pixels.
    pub(crate) fn fill(
        &mut self,
        x0: f64,
        y0: f64,
        x1: f64,
        y1: f64,
        color: BackendColor,
    ) -> DrawResult<(), B> {
        let a = (self.dx(x0).floor() as i32, self.dy(y0).floor() as i32);
        let b = (self.dx(x1).ceil() as i32, self.dy(y1).ceil() as i32);
        self.fill_px(a, b, color)
    }

    /// Fills device pixels `[a, b)`.
    pub(crate) fn fill_px(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        color: BackendColor,
    ) -> DrawResult<(), B> {
        if b.0 <= a.0 || b.1 <= a.1 || color.alpha <= 0.0 {
            return Ok(());
        }
        // plotters' rectangles include their bottom-right pixel.
        self.backend
            .draw_rect(a, (b.0 - 1, b.1 - 1), &Stroke { color, width: 0 }, true)
    }

    /// Outlines device pixels `[a, b)` with a line `w` device px wide.
    pub(crate) fn outline_px(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        color: BackendColor,
        w: u32,
    ) -> DrawResult<(), B> {
        self.backend
            .draw_rect(a, (b.0 - 1, b.1 - 1), &Stroke { color, width: w }, false)
    }

    /// A straight line `w` CSS px wide.
    pub(crate) fn line(
        &mut self,
        from: (f64, f64),
        to: (f64, f64),
        color: BackendColor,
        w: f64,
    ) -> DrawResult<(), B> {
        let style = Stroke {
            color,
            width: self.width(w),
        };
        let (a, b) = (self.at(from.0, from.1), self.at(to.0, to.1));
        self.backend.draw_line(a, b, &style)
    }

    /// A dashed straight line: `dash` on, `gap` off (CSS px).
    pub(crate) fn dashed(
        &mut self,
        from: (f64, f64),
        to: (f64, f64),
        color: BackendColor,
        w: f64,
        dash: f64,
        gap: f64,
    ) -> DrawResult<(), B> {
        self.dashed_path(&[from, to], color, w, dash, gap)
    }

    /// A dashed polyline through `points` (CSS px): the dashes run on
    /// across its corners.
    pub(crate) fn dashed_path(
        &mut self,
        points: &[(f64, f64)],
        color: BackendColor,
        w: f64,
        dash: f64,
        gap: f64,
    ) -> DrawResult<(), B> {
        let period = dash + gap;
        if period <= 0.0 {
            return Ok(());
        }
        // Distance along the path where the current segment starts.
        let mut walked = 0.0;
        for pair in points.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let len = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
            if len <= 0.0 {
                continue;
            }
            let (ux, uy) = ((to.0 - from.0) / len, (to.1 - from.1) / len);
            // The first dash that reaches into this segment.
            let mut s = (walked / period).floor() * period - walked;
            while s < len {
                let (a, e) = (s.max(0.0), (s + dash).min(len));
                if e > a {
                    self.line(
                        (from.0 + ux * a, from.1 + uy * a),
                        (from.0 + ux * e, from.1 + uy * e),
                        color,
                        w,
                    )?;
                }
                s += period;
            }
            walked += len;
        }
        Ok(())
    }

    /// A polyline through `points` (CSS px), `w` CSS px wide.
    pub(crate) fn polyline(
        &mut self,
        points: &[(f64, f64)],
        color: BackendColor,
        w: f64,
    ) -> DrawResult<(), B> {
        if points.len() < 2 {
            return Ok(());
        }
        let style = Stroke {
            color,
            width: self.width(w),
        };
        // Consecutive points on one device pixel add nothing.
        let mut px: Vec<BackendCoord> = Vec::with_capacity(points.len());
        for &(x, y) in points {
            let p = self.at(x, y);
            if px.last() != Some(&p) {
                px.push(p);
            }
        }
        if px.len() == 1 {
            px.push(px[0]);
        }
        self.backend.draw_path(px, &style)
    }

    /// A circle of radius `r` CSS px: filled, or outlined `w` px wide.
    pub(crate) fn circle(
        &mut self,
        c: (f64, f64),
        r: f64,
        color: BackendColor,
        fill: bool,
        w: f64,
    ) -> DrawResult<(), B> {
        let style = Stroke {
            color,
            width: self.width(w),
        };
        let r = (r * self.scale).round().max(1.0) as u32;
        self.backend.draw_circle(self.at(c.0, c.1), r, &style, fill)
    }

    /// Text at `(x, y)` CSS px, anchored there; `size` CSS px.
    pub(crate) fn text(
        &mut self,
        text: &str,
        x: f64,
        y: f64,
        size: f64,
        color: Rgb,
        pos: Pos,
    ) -> DrawResult<(), B> {
        self.text_styled(text, (x, y), size, color.solid(), pos, false, false)
    }

    /// Bold text (titles).
    pub(crate) fn bold(
        &mut self,
        text: &str,
        x: f64,
        y: f64,
        size: f64,
        color: Rgb,
        pos: Pos,
    ) -> DrawResult<(), B> {
        self.text_styled(text, (x, y), size, color.solid(), pos, true, false)
    }

    /// Text reading bottom to top, centred on `(x, y)`.
    pub(crate) fn vertical(
        &mut self,
        text: &str,
        x: f64,
        y: f64,
        size: f64,
        color: Rgb,
    ) -> DrawResult<(), B> {
        self.text_styled(
            text,
            (x, y),
            size,
            color.solid(),
            anchor(HPos::Center, VPos::Center),
            false,
            true,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn text_styled(
        &mut self,
        text: &str,
        (x, y): (f64, f64),
        size: f64,
        color: BackendColor,
        pos: Pos,
        bold: bool,
        vertical: bool,
    ) -> DrawResult<(), B> {
        if text.is_empty() {
            return Ok(());
        }
        let font = Font {
            size: (size * self.scale).round().max(1.0),
            color,
            bold,
            anchor: pos,
            vertical,
        };
        let text = visible(text);
        self.backend.draw_text(&text, &font, self.at(x, y))
    }

    /// Paints `rgb` (3 bytes a pixel, `w`×`h` device px) at device pixel `at`.
    pub(crate) fn bitmap(
        &mut self,
        at: BackendCoord,
        (w, h): (u32, u32),
        rgb: &[u8],
    ) -> DrawResult<(), B> {
        self.backend.blit_bitmap(at, (w, h), rgb)
    }

    /// Records a note for pointers over a rectangle (CSS px).
    pub(crate) fn spot(&mut self, x: f64, y: f64, w: f64, h: f64, text: &str) {
        self.spots.push(Spot {
            x: x + self.origin.0,
            y: y + self.origin.1,
            w,
            h,
            text: visible(text).into_owned(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortened_text_fits_and_ends_with_an_ellipsis() {
        let long = "TaskQueueManager::ProcessTaskFromWorkQueue";
        let s = shorten(long, 12.0, 140.0);
        assert!(s.ends_with('…'), "{s}");
        assert!(text_width(&s, 12.0) <= 140.0, "{s}");
        assert_eq!(shorten("ui", 12.0, 140.0), "ui");
    }

    #[test]
    fn hidden_characters_do_not_reach_a_figure() {
        assert_eq!(visible("a\u{202e}b\u{1}"), "a\u{fffd}b\u{fffd}");
        assert_eq!(visible("plain"), "plain");
    }

    #[test]
    fn wide_characters_take_an_em() {
        assert_eq!(text_width("延迟", 10.0), 20.0);
        assert!(text_width("9500 ms", 11.0) > 40.0);
    }
}
