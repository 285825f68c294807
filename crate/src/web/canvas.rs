//! The charts' backend on the page: plotters' [`DrawingBackend`] over an
//! HTML canvas's 2D context, so every chart of [`crate::chart`] draws here
//! with the code that writes its SVG.
//!
//! Fill and stroke styles are set only when they change (a Gantt part is
//! thousands of rectangles of a few colours); text is drawn at the same
//! alphabetic baseline offsets as SVG ([`crate::chart::pen::baseline`]);
//! bitmaps (many thin lanes) go in with one `putImageData`.

use plotters_backend::text_anchor::HPos;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::chart::pen::baseline;

pub(crate) fn context(
    canvas: &HtmlCanvasElement,
) -> std::result::Result<CanvasRenderingContext2d, JsError> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or_else(|| JsError::new("no 2d canvas context"))
}

/// A failed canvas call (the message of the exception).
#[derive(Debug)]
pub struct CanvasError(String);

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CanvasError {}

type Result<T> = std::result::Result<T, DrawingErrorKind<CanvasError>>;

fn failed(what: &str) -> DrawingErrorKind<CanvasError> {
    DrawingErrorKind::DrawingError(CanvasError(what.to_string()))
}

/// A canvas to draw charts on.
pub(crate) struct Canvas {
    ctx: CanvasRenderingContext2d,
    size: (u32, u32),
    fill: Option<BackendColor>,
    stroke: Option<(BackendColor, u32)>,
}

fn same(a: BackendColor, b: BackendColor) -> bool {
    a.rgb == b.rgb && a.alpha == b.alpha
}

fn css(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    if c.alpha >= 1.0 {
        format!("#{r:02x}{g:02x}{b:02x}")
    } else {
        format!("rgba({r},{g},{b},{})", c.alpha)
    }
}

impl Canvas {
    /// The canvas, cleared (transparent: the page shows through).
    pub(crate) fn clear(canvas: &HtmlCanvasElement) -> std::result::Result<Canvas, JsError> {
        let ctx = context(canvas)?;
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
        ctx.clear_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64);
        Ok(Canvas::keep(canvas, ctx))
    }

    /// The canvas as it is (to draw more of a chart begun earlier).
    pub(crate) fn open(canvas: &HtmlCanvasElement) -> std::result::Result<Canvas, JsError> {
        let ctx = context(canvas)?;
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
        Ok(Canvas::keep(canvas, ctx))
    }

    fn keep(canvas: &HtmlCanvasElement, ctx: CanvasRenderingContext2d) -> Canvas {
        Canvas {
            ctx,
            size: (canvas.width(), canvas.height()),
            fill: None,
            stroke: None,
        }
    }

    fn set_fill(&mut self, c: BackendColor) {
        if !self.fill.is_some_and(|f| same(f, c)) {
            self.ctx.set_fill_style_str(&css(c));
            self.fill = Some(c);
        }
    }

    fn set_stroke(&mut self, c: BackendColor, w: u32) {
        if !self.stroke.is_some_and(|(s, sw)| same(s, c) && sw == w) {
            self.ctx.set_stroke_style_str(&css(c));
            self.ctx.set_line_width(w as f64);
            self.stroke = Some((c, w));
        }
    }
}

impl DrawingBackend for Canvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<()> {
        Ok(())
    }

    fn present(&mut self) -> Result<()> {
        Ok(())
    }

    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> Result<()> {
        self.set_fill(c);
        self.ctx.fill_rect(p.0 as f64, p.1 as f64, 1.0, 1.0);
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
    ) -> Result<()> {
        let w = s.stroke_width().max(1);
        self.set_stroke(s.color(), w);
        // Odd widths on the pixel's centre: crisp, not two half-lit rows.
        let o = if w % 2 == 1 { 0.5 } else { 0.0 };
        self.ctx.begin_path();
        self.ctx.move_to(a.0 as f64 + o, a.1 as f64 + o);
        self.ctx.line_to(b.0 as f64 + o, b.1 as f64 + o);
        self.ctx.stroke();
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Result<()> {
        let (x0, y0) = (a.0.min(b.0) as f64, a.1.min(b.1) as f64);
        let (w, h) = (
            ((a.0 - b.0).abs() + 1) as f64,
            ((a.1 - b.1).abs() + 1) as f64,
        );
        if fill {
            self.set_fill(s.color());
            self.ctx.fill_rect(x0, y0, w, h);
        } else {
            let lw = s.stroke_width().max(1);
            self.set_stroke(s.color(), lw);
            let half = lw as f64 / 2.0;
            self.ctx.stroke_rect(
                x0 + half,
                y0 + half,
                (w - lw as f64).max(0.0),
                (h - lw as f64).max(0.0),
            );
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Result<()> {
        self.set_stroke(s.color(), s.stroke_width().max(1));
        self.ctx.set_line_join("round");
        self.ctx.begin_path();
        for (i, p) in path.into_iter().enumerate() {
            if i == 0 {
                self.ctx.move_to(p.0 as f64, p.1 as f64);
            } else {
                self.ctx.line_to(p.0 as f64, p.1 as f64);
            }
        }
        self.ctx.stroke();
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        r: u32,
        s: &S,
        fill: bool,
    ) -> Result<()> {
        self.ctx.begin_path();
        self.ctx
            .arc(c.0 as f64, c.1 as f64, r as f64, 0.0, std::f64::consts::TAU)
            .map_err(|_| failed("arc"))?;
        if fill {
            self.set_fill(s.color());
            self.ctx.fill();
        } else {
            self.set_stroke(s.color(), s.stroke_width().max(1));
            self.ctx.stroke();
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        s: &S,
    ) -> Result<()> {
        self.set_fill(s.color());
        self.ctx.begin_path();
        for (i, p) in vert.into_iter().enumerate() {
            if i == 0 {
                self.ctx.move_to(p.0 as f64, p.1 as f64);
            } else {
                self.ctx.line_to(p.0 as f64, p.1 as f64);
            }
        }
        self.ctx.close_path();
        self.ctx.fill();
        Ok(())
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<()> {
        let size = style.size();
        let weight = if matches!(style.style(), FontStyle::Bold) {
            "bold "
        } else {
            ""
        };
        self.ctx
            .set_font(&format!("{weight}{size}px {}", style.family().as_str()));
        self.set_fill(style.color());
        let a = style.anchor();
        self.ctx.set_text_align(match a.h_pos {
            HPos::Left => "left",
            HPos::Center => "center",
            HPos::Right => "right",
        });
        self.ctx.set_text_baseline("alphabetic");
        let (x, y) = (pos.0 as f64, pos.1 as f64);
        let dy = baseline(a.v_pos, 0.0, size);
        match style.transform() {
            FontTransform::Rotate270 | FontTransform::Rotate90 => {
                let turn = if matches!(style.transform(), FontTransform::Rotate270) {
                    -std::f64::consts::FRAC_PI_2
                } else {
                    std::f64::consts::FRAC_PI_2
                };
                self.ctx.save();
                self.ctx.translate(x, y).map_err(|_| failed("translate"))?;
                self.ctx.rotate(turn).map_err(|_| failed("rotate"))?;
                self.ctx
                    .fill_text(text, 0.0, dy)
                    .map_err(|_| failed("fillText"))?;
                self.ctx.restore();
                // `restore` brought back the styles of before `save`.
                self.fill = None;
                self.stroke = None;
            }
            _ => {
                self.ctx
                    .fill_text(text, x, y + dy)
                    .map_err(|_| failed("fillText"))?;
            }
        }
        Ok(())
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, (w, h): (u32, u32), src: &[u8]) -> Result<()> {
        // plotters' bitmaps are RGB; ImageData is RGBA.
        let mut rgba = vec![255u8; w as usize * h as usize * 4];
        for (px, rgb) in rgba.chunks_exact_mut(4).zip(src.chunks_exact(3)) {
            px[..3].copy_from_slice(rgb);
        }
        let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(&rgba[..]),
            w,
            h,
        )
        .map_err(|_| failed("ImageData"))?;
        self.ctx
            .put_image_data(&image, pos.0 as f64, pos.1 as f64)
            .map_err(|_| failed("putImageData"))
    }
}

/// A drawing error as a JS error.
pub(crate) fn err<E: std::fmt::Display>(e: E) -> JsError {
    JsError::new(&format!("chart: {e}"))
}
