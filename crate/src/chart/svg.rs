//! An SVG backend for the charts: text stays `<text>` (selectable,
//! searchable, read by screen readers) in the system's own fonts, and
//! neighbouring rectangles of one colour — a Gantt's slices, a histogram's
//! bars, grid lines — share one `<path>`, so that a figure of a few
//! thousand slices stays a few tens of kilobytes.

use std::fmt::Write;

use plotters_backend::text_anchor::HPos;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};

use super::pen::{baseline, Spot, FONT_STACK};
use super::theme::Rgb;
use crate::markup;

/// Writing to a string cannot fail; the type exists for the trait.
#[derive(Debug)]
pub struct SvgError;

impl std::fmt::Display for SvgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SVG output failed")
    }
}

impl std::error::Error for SvgError {}

type Result<T> = std::result::Result<T, DrawingErrorKind<SvgError>>;

/// Shapes waiting to be written as one element.
#[derive(PartialEq)]
enum Batch {
    None,
    /// Filled rectangles: `d` of a path, its fill.
    Fill(String),
    /// Straight lines: stroke colour and width.
    Stroke(String, u32),
}

/// An SVG document being drawn.
pub struct Svg {
    size: (u32, u32),
    body: String,
    batch: Batch,
    d: String,
}

/// `#rrggbb` and, when translucent, ` …-opacity="a"`.
fn paint(c: BackendColor, what: &str) -> String {
    let (r, g, b) = c.rgb;
    let mut s = format!("{what}=\"{}\"", Rgb(r, g, b).css());
    if c.alpha < 1.0 {
        let _ = write!(s, " {what}-opacity=\"{}\"", round3(c.alpha));
    }
    s
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

impl Svg {
    /// A document `width`×`height` px on a `background`.
    pub fn new(width: u32, height: u32, background: Option<Rgb>) -> Svg {
        let mut svg = Svg {
            size: (width.max(1), height.max(1)),
            body: String::new(),
            batch: Batch::None,
            d: String::new(),
        };
        if let Some(bg) = background {
            let _ = writeln!(
                svg.body,
                "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>",
                bg.css()
            );
        }
        svg
    }

    fn flush(&mut self) {
        match std::mem::replace(&mut self.batch, Batch::None) {
            Batch::None => {}
            Batch::Fill(fill) => {
                let _ = writeln!(self.body, "<path {fill} d=\"{}\"/>", self.d);
            }
            Batch::Stroke(stroke, w) => {
                let _ = writeln!(
                    self.body,
                    "<path fill=\"none\" {stroke} stroke-width=\"{w}\" d=\"{}\"/>",
                    self.d
                );
            }
        }
        self.d.clear();
    }

    fn batch(&mut self, b: Batch) {
        if self.batch != b {
            self.flush();
            self.batch = b;
        }
    }

    fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, c: BackendColor) {
        if w <= 0 || h <= 0 || c.alpha <= 0.0 {
            return;
        }
        self.batch(Batch::Fill(paint(c, "fill")));
        let _ = write!(self.d, "M{x} {y}h{w}v{h}h{}z", -w);
    }

    /// The finished document, with a `<title>` for the whole and one
    /// (transparent, over its place) for each spot.
    pub fn finish(self, title: &str, spots: &[Spot]) -> String {
        self.finish_described(title, "", spots)
    }

    /// [`Svg::finish`] with a `<desc>` after the title (what a screen
    /// reader or a search engine reads of the whole; none when empty).
    pub(crate) fn finish_described(mut self, title: &str, desc: &str, spots: &[Spot]) -> String {
        self.flush();
        let (w, h) = self.size;
        let mut out = String::with_capacity(self.body.len() + 512);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" font-family=\"{}\">",
            markup::xml(FONT_STACK)
        );
        let _ = writeln!(out, "<title>{}</title>", markup::xml(title));
        if !desc.is_empty() {
            let _ = writeln!(out, "<desc>{}</desc>", markup::xml(desc));
        }
        out.push_str(&self.body);
        for s in spots {
            let _ = writeln!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" pointer-events=\"all\"><title>{}</title></rect>",
                s.x.round(),
                s.y.round(),
                s.w.round(),
                s.h.round(),
                markup::xml(&s.text)
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

impl DrawingBackend for Svg {
    type ErrorType = SvgError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<()> {
        Ok(())
    }

    fn present(&mut self) -> Result<()> {
        self.flush();
        Ok(())
    }

    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> Result<()> {
        self.rect(p.0, p.1, 1, 1, c);
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
    ) -> Result<()> {
        let c = s.color();
        if c.alpha <= 0.0 {
            return Ok(());
        }
        self.batch(Batch::Stroke(paint(c, "stroke"), s.stroke_width().max(1)));
        let _ = write!(self.d, "M{} {}L{} {}", a.0, a.1, b.0, b.1);
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Result<()> {
        let (x0, y0) = (a.0.min(b.0), a.1.min(b.1));
        let (w, h) = ((a.0 - b.0).abs() + 1, (a.1 - b.1).abs() + 1);
        if fill {
            self.rect(x0, y0, w, h, s.color());
            return Ok(());
        }
        self.flush();
        let sw = s.stroke_width().max(1) as f64;
        let _ = writeln!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" {} stroke-width=\"{sw}\"/>",
            x0 as f64 + sw / 2.0,
            y0 as f64 + sw / 2.0,
            (w as f64 - sw).max(0.0),
            (h as f64 - sw).max(0.0),
            paint(s.color(), "stroke")
        );
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Result<()> {
        self.flush();
        let mut points = String::new();
        for (i, p) in path.into_iter().enumerate() {
            if i > 0 {
                points.push(' ');
            }
            let _ = write!(points, "{},{}", p.0, p.1);
        }
        let _ = writeln!(
            self.body,
            "<polyline fill=\"none\" {} stroke-width=\"{}\" stroke-linejoin=\"round\" points=\"{points}\"/>",
            paint(s.color(), "stroke"),
            s.stroke_width().max(1)
        );
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        r: u32,
        s: &S,
        fill: bool,
    ) -> Result<()> {
        self.flush();
        let style = if fill {
            paint(s.color(), "fill")
        } else {
            format!(
                "fill=\"none\" {} stroke-width=\"{}\"",
                paint(s.color(), "stroke"),
                s.stroke_width().max(1)
            )
        };
        let _ = writeln!(
            self.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\" {style}/>",
            c.0, c.1
        );
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        s: &S,
    ) -> Result<()> {
        self.flush();
        let points: Vec<String> = vert
            .into_iter()
            .map(|p| format!("{},{}", p.0, p.1))
            .collect();
        let _ = writeln!(
            self.body,
            "<polygon {} points=\"{}\"/>",
            paint(s.color(), "fill"),
            points.join(" ")
        );
        Ok(())
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<()> {
        self.flush();
        let size = style.size();
        let a = style.anchor();
        let anchor = match a.h_pos {
            HPos::Left => "",
            HPos::Center => " text-anchor=\"middle\"",
            HPos::Right => " text-anchor=\"end\"",
        };
        let weight = if matches!(style.style(), FontStyle::Bold) {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let y = baseline(a.v_pos, pos.1 as f64, size);
        let rotate = match style.transform() {
            FontTransform::Rotate270 => format!(" transform=\"rotate(-90 {} {})\"", pos.0, pos.1),
            FontTransform::Rotate90 => format!(" transform=\"rotate(90 {} {})\"", pos.0, pos.1),
            _ => String::new(),
        };
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" {}{anchor}{weight}{rotate}>{}</text>",
            pos.0,
            round3(y),
            round3(size),
            paint(style.color(), "fill"),
            markup::xml(text)
        );
        Ok(())
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, (w, h): (u32, u32), src: &[u8]) -> Result<()> {
        // Runs of one colour per row, as rectangles (figures never ask for
        // bitmaps; this keeps the trait's promise).
        for y in 0..h as usize {
            let mut x = 0usize;
            while x < w as usize {
                let at = |x: usize| {
                    let o = (y * w as usize + x) * 3;
                    (src[o], src[o + 1], src[o + 2])
                };
                let c = at(x);
                let mut e = x + 1;
                while e < w as usize && at(e) == c {
                    e += 1;
                }
                let color = BackendColor { alpha: 1.0, rgb: c };
                self.rect(pos.0 + x as i32, pos.1 + y as i32, (e - x) as i32, 1, color);
                x = e;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_of_one_colour_share_a_path() {
        let mut svg = Svg::new(100, 50, None);
        let red = BackendColor {
            alpha: 1.0,
            rgb: (255, 0, 0),
        };
        let style = super::super::pen::Stroke {
            color: red,
            width: 0,
        };
        svg.draw_rect((0, 0), (9, 9), &style, true).unwrap();
        svg.draw_rect((20, 0), (29, 9), &style, true).unwrap();
        let out = svg.finish("t", &[]);
        assert_eq!(out.matches("<path").count(), 1, "{out}");
        assert!(out.contains("M0 0h10v10h-10zM20 0h10v10h-10z"), "{out}");
    }
}
