//! A snippet's figure laid out for the post's width: the same figure drawn
//! at each of [`WIDTHS`] (the charts lay their labels, legends and panels
//! out for the width they are given), one shown at a time. A CSS container
//! query on the snippet picks the widest that fits the post's column, so
//! that text stays at its drawn size (11 px and up) on a phone instead of
//! the page-wide figure shrunk to a third. Where a platform strips
//! `<style>`, the widest figure shows alone, fitted to the column.

use std::fmt::Write;

/// The widths (CSS px) a snippet's figure is drawn at, widest first: the
/// page's content width, a tablet's or narrow column's, a phone's (a
/// 390 px screen less a post's margins).
pub(crate) const WIDTHS: [f64; 3] = [960.0, 640.0, 360.0];

/// The class of the figure drawn `i`-th (widest first).
fn class(i: usize) -> String {
    format!("tailslice-w{i}")
}

/// Several figures as one string, as the snippet takes them (the widest
/// first).
pub(crate) fn join(figures: &[String]) -> String {
    figures.join("\n")
}

/// One figure: its `<svg …>` element and its drawn width.
pub(crate) struct Sized<'a> {
    pub svg: &'a str,
    pub width: f64,
}

/// The `<svg>` elements of `text`, in order, each checked to be one SVG
/// element of ours (no script, no foreign content); `None` otherwise.
pub(crate) fn split(text: &str) -> Option<Vec<Sized<'_>>> {
    let mut rest = text.trim();
    if let Some(after) = rest.strip_prefix("<?xml") {
        rest = after.split_once("?>").map(|(_, s)| s.trim_start())?;
    }
    let mut out = Vec::new();
    while !rest.is_empty() {
        if !rest.starts_with("<svg") {
            return None;
        }
        let end = rest.find("</svg>")? + "</svg>".len();
        let svg = &rest[..end];
        let lower = svg.to_ascii_lowercase();
        if lower.contains("<script")
            || lower.contains("<foreignobject")
            || lower.matches("<svg").count() != 1
        {
            return None;
        }
        out.push(Sized {
            svg,
            width: width_of(svg),
        });
        rest = rest[end..].trim_start();
    }
    (!out.is_empty()).then_some(out)
}

/// The `width` attribute of an `<svg …>` root (0 when it has none).
fn width_of(svg: &str) -> f64 {
    let head = svg.split('>').next().unwrap_or("");
    head.split_once(" width=\"")
        .and_then(|(_, w)| w.split('"').next())
        .and_then(|w| w.parse().ok())
        .unwrap_or(0.0)
}

/// The figures as the snippet writes them inside its link: each with a
/// style that fits it to the column; with several, all but the widest
/// hidden, and `style`: the container query that shows the widest one
/// that fits (put once in the snippet, whose outer element is the
/// container).
pub(crate) fn markup(figures: &[Sized]) -> (String, String) {
    let fit = "max-width:100%;height:auto";
    if let [one] = figures {
        let body = one.svg.strip_prefix("<svg").unwrap_or(one.svg);
        return (
            format!("<svg style=\"display:block;{fit}\"{body}"),
            String::new(),
        );
    }
    let mut html = Vec::new();
    let mut style = String::from("<style>");
    for (i, f) in figures.iter().enumerate() {
        let body = f.svg.strip_prefix("<svg").unwrap_or(f.svg);
        let display = if i == 0 { "block" } else { "none" };
        html.push(format!(
            "<svg class=\"{}\" style=\"display:{display};{fit}\"{body}",
            class(i)
        ));
        // Narrower than the figure before: that one hides, this one shows
        // (a later rule wins over an earlier one for the same figure).
        if i > 0 {
            let _ = write!(
                style,
                "@container (max-width:{}px){{.{}{{display:none!important}}.{}{{display:block!important}}}}",
                figures[i - 1].width - 0.02,
                class(i - 1),
                class(i)
            );
        }
    }
    style.push_str("</style>");
    (html.join("\n"), style)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(w: u32) -> String {
        format!("<svg width=\"{w}\" height=\"100\" viewBox=\"0 0 {w} 100\"><text x=\"4\" y=\"20\">p95</text></svg>")
    }

    #[test]
    fn several_figures_split_with_their_widths() {
        let text = join(&[svg(960), svg(640), svg(360)]);
        let f = split(&text).unwrap();
        let w: Vec<f64> = f.iter().map(|f| f.width).collect();
        assert_eq!(w, [960.0, 640.0, 360.0]);
        assert!(f[1].svg.ends_with("</svg>"));
    }

    #[test]
    fn the_widest_shows_unless_the_column_is_narrower() {
        let text = join(&[svg(960), svg(640), svg(360)]);
        let (html, style) = markup(&split(&text).unwrap());
        assert!(html.contains("<svg class=\"tailslice-w0\" style=\"display:block;"));
        assert!(html.contains("<svg class=\"tailslice-w2\" style=\"display:none;"));
        assert!(style.contains(
            "@container (max-width:959.98px){.tailslice-w0{display:none!important}.tailslice-w1{display:block!important}}"
        ));
        assert!(style.contains("@container (max-width:639.98px){.tailslice-w1{display:none!important}.tailslice-w2{display:block!important}}"));
    }

    #[test]
    fn one_figure_needs_no_style() {
        let one = svg(600);
        let (html, style) = markup(&split(&one).unwrap());
        assert!(html
            .starts_with("<svg style=\"display:block;max-width:100%;height:auto\" width=\"600\""));
        assert!(style.is_empty());
    }

    #[test]
    fn anything_but_svg_elements_is_refused() {
        for bad in [
            "",
            "<img src=x>",
            "<svg width=\"1\"></svg><img src=x>",
            "<svg></svg><svg><script>alert(1)</script></svg>",
            "<svg><foreignObject/></svg>",
            "<svg><svg></svg></svg>",
            "<svg>",
        ] {
            assert!(split(bad).is_none(), "{bad}");
        }
    }
}
