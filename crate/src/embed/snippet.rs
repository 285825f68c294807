//! The HTML the Embed dialog writes for a blog post.
//!
//! - **Live** (a facade, after lite-youtube-embed): the figure inside a
//!   link to the full page, marked `data-tailslice-facade`, and one small
//!   script from the same deployment (`facade.js`). Before a click the post
//!   loads that script and nothing else; a click (or Enter or Space) swaps
//!   the figure for the live embed, which the script then keeps sized. Where
//!   scripts are stripped, the link still opens the live page.
//! - **Static**: the figure and its link only (RSS, print, platforms with
//!   no script or frame).
//!
//! Every address is built here from the deployment's base and a query that
//! is decoded and encoded again, and every attribute is escaped: nothing in
//! a query can break out of the markup.

use super::figures;
use super::view::EmbedView;
use crate::markup;
use crate::query_string::{decode_pairs, percent_encode, URL_VERSION};
use crate::text::{Lang, Text};

/// The loader's file name, beside `index.html` in the deployment.
pub(crate) const LOADER: &str = "facade.js";

/// Which snippet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnippetKind {
    Live,
    Static,
}

impl SnippetKind {
    /// The first is the dialog's default.
    pub const ALL: [SnippetKind; 2] = [SnippetKind::Live, SnippetKind::Static];

    pub(crate) fn name(self) -> &'static str {
        match self {
            SnippetKind::Live => "live",
            SnippetKind::Static => "static",
        }
    }

    pub fn parse(name: &str) -> Option<SnippetKind> {
        SnippetKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Its name and one line on where it works.
    pub(crate) fn texts(self) -> (Text, Text) {
        match self {
            SnippetKind::Live => (
                Text::new("Live (facade)", "可交互（先显示静态图）"),
                Text::new(
                    "The figure, and the live playground when a reader clicks it. Loads one small script before the click and no simulation.",
                    "先显示图，读者点击后换成可交互的演练场。点击前只加载一个小脚本，不运行模拟。",
                ),
            ),
            SnippetKind::Static => (
                Text::new("Static", "静态"),
                Text::new(
                    "The figure and a link only: for platforms without scripts or frames, RSS and print.",
                    "只有图和链接：适用于不支持脚本或 iframe 的平台、RSS 和打印。",
                ),
            ),
        }
    }
}

/// Words of the snippets themselves.
pub(crate) const TITLE: Text =
    Text::new("tailslice: scheduler playground", "tailslice：调度器演练场");
pub(crate) const MAKE_LIVE: Text = Text::new("Make it live", "切换为可交互");
pub(crate) const OPEN_FULL: Text = Text::new("open in tailslice", "在 tailslice 中打开");
/// Under a trace's figure: where the live page needs the file.
pub(crate) const TRACE_NOTE: Text = Text::new(
    "Drawn from the trace {0}. A link cannot carry a trace: to explore it live, open tailslice and load {0} with “Open a trace…”.",
    "根据 trace {0} 绘制。链接无法携带 trace：如需交互查看，请打开 tailslice，用“打开 trace…”载入 {0}。",
);

/// Keys a snippet writes itself (the rest of the query is the experiment's
/// or the scenario's).
const OWN_KEYS: [&str; 6] = ["v", "embed", "view", "controls", "theme", "lang"];

/// Why a snippet cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnippetError {
    /// The deployment's address is not an absolute http(s) address of a
    /// folder.
    Base,
    /// The figure is not one SVG element of ours.
    Figure,
}

impl std::fmt::Display for SnippetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SnippetError::Base => {
                "the page's address must be an http or https address ending in / to embed it"
            }
            SnippetError::Figure => "the figure is not an SVG image",
        })
    }
}

/// Everything a snippet is made of.
#[derive(Clone, Copy, Debug)]
pub struct Snippet<'a> {
    pub kind: SnippetKind,
    /// The deployment's folder (`https://example.org/tailslice/`), where
    /// `index.html` and [`LOADER`] are.
    pub base: &'a str,
    /// The shown experiment's or scenario's query (its own keys only).
    pub query: &'a str,
    /// The embed's part, controls and theme.
    pub view: EmbedView,
    /// The language of the snippet's words.
    pub lang: Lang,
    /// `lang=` in its links, when the author chose a language.
    pub url_lang: Option<Lang>,
    /// The figure: one `<svg>` element, or the same figure drawn at
    /// several widths, widest first ([`figures::WIDTHS`], joined by
    /// [`figures::join`]): the snippet shows the widest that fits.
    pub svg: &'a str,
    /// The trace's file name when the figure is a trace's answer: the live
    /// page cannot be given the trace, so the Live snippet is the figure,
    /// its link and a line on where the live page needs the file.
    pub trace: Option<&'a str>,
}

/// Whether `base` is an absolute http(s) address of a folder, with no
/// query, fragment or characters that would need escaping.
fn base_ok(base: &str) -> bool {
    let rest = base
        .strip_prefix("https://")
        .or_else(|| base.strip_prefix("http://"));
    rest.is_some_and(|r| {
        !r.is_empty()
            && !r.starts_with('/')
            && base.ends_with('/')
            && r.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"-._~:/%@!$()*+,;=[]".contains(&c))
    })
}

/// The query's own pairs, encoded again (the snippet writes `v`, `embed`,
/// `view`, `controls`, `theme` and `lang` itself).
fn own_query(query: &str) -> Vec<String> {
    decode_pairs(query)
        .into_iter()
        .filter(|(k, _)| !OWN_KEYS.contains(&k.as_str()))
        .map(|(k, v)| format!("{}={}", percent_encode(&k), percent_encode(&v)))
        .collect()
}

impl Snippet<'_> {
    /// The full page's address (what "open in tailslice" opens).
    pub(crate) fn full_url(&self) -> String {
        let mut parts = vec![format!("v={URL_VERSION}")];
        parts.extend(own_query(self.query));
        if let Some(l) = self.url_lang {
            parts.push(format!("lang={}", l.code()));
        }
        format!("{}?{}", self.base, parts.join("&"))
    }

    /// The embed's query (what the facade swaps in, from the same base).
    pub fn embed_query(&self) -> String {
        let mut parts = vec![format!("v={URL_VERSION}")];
        parts.extend(own_query(self.query));
        if let Some(l) = self.url_lang {
            parts.push(format!("lang={}", l.code()));
        }
        parts.extend(
            self.view
                .as_embed()
                .to_query()
                .into_iter()
                .map(|(k, v)| format!("{k}={v}")),
        );
        parts.join("&")
    }

    /// The snippet's HTML.
    pub fn html(&self) -> Result<String, SnippetError> {
        if !base_ok(self.base) {
            return Err(SnippetError::Base);
        }
        let (svg, style) = figures::markup(&figures::split(self.svg).ok_or(SnippetError::Figure)?);
        let full = markup::html(&self.full_url());
        let title = markup::html(TITLE.get(self.lang));
        // The snippet is the container the figures' query measures.
        let container = if style.is_empty() {
            ""
        } else {
            ";container-type:inline-size"
        };
        if let Some(file) = self.trace {
            let open = markup::html(OPEN_FULL.get(self.lang));
            let note = markup::html(&TRACE_NOTE.fill(self.lang, &[file]));
            return Ok(format!(
                "<figure class=\"tailslice-figure\" style=\"margin:1em 0;max-width:100%{container}\">{style}\n\
                 <a href=\"{full}\" aria-label=\"{title}\" style=\"display:inline-block;max-width:100%;color:inherit;text-decoration:none\">\n\
                 {svg}\n\
                 </a>\n\
                 <figcaption style=\"font:13px/1.4 system-ui,sans-serif\">{note} <a href=\"{full}\">{open} \u{2197}</a></figcaption>\n\
                 </figure>\n"
            ));
        }
        Ok(match self.kind {
            SnippetKind::Live => {
                let live = markup::html(MAKE_LIVE.get(self.lang));
                format!(
                    "<div class=\"tailslice-embed\" style=\"margin:1em 0;max-width:100%{container}\">{style}\n\
                     <a href=\"{full}\" data-tailslice-facade=\"{query}\" data-tailslice-title=\"{title}\" \
                     aria-label=\"{live}: {title}\" style=\"display:inline-block;max-width:100%;color:inherit;text-decoration:none\">\n\
                     {svg}\n\
                     <span aria-hidden=\"true\" style=\"display:table;margin:6px 0 0 auto;padding:6px 12px;border-radius:16px;\
                     background:#0072b2;color:#fff;font:600 14px/1.2 system-ui,sans-serif\">\u{25b6} {live}</span>\n\
                     </a>\n\
                     <script async src=\"{loader}\"></script>\n\
                     </div>\n",
                    query = markup::html(&self.embed_query()),
                    loader = markup::html(&format!("{}{LOADER}", self.base)),
                )
            }
            SnippetKind::Static => {
                let open = markup::html(OPEN_FULL.get(self.lang));
                format!(
                    "<figure class=\"tailslice-figure\" style=\"margin:1em 0;max-width:100%{container}\">{style}\n\
                     <a href=\"{full}\" aria-label=\"{title}\" style=\"display:inline-block;max-width:100%;color:inherit;text-decoration:none\">\n\
                     {svg}\n\
                     </a>\n\
                     <figcaption style=\"font:13px/1.4 system-ui,sans-serif\"><a href=\"{full}\">{open} \u{2197}</a></figcaption>\n\
                     </figure>\n"
                )
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::view::{EmbedTheme, Part};

    const SVG: &str = "<svg width=\"600\" height=\"200\" viewBox=\"0 0 600 200\" xmlns=\"http://www.w3.org/2000/svg\"><text x=\"4\" y=\"20\">p95</text></svg>";

    fn snippet(kind: SnippetKind) -> Snippet<'static> {
        Snippet {
            kind,
            base: "https://example.org/tailslice/",
            query: "seed=3&p=fifo,rr&mix=85:1-8",
            view: EmbedView {
                part: Part::Table,
                controls: false,
                theme: EmbedTheme::Dark,
                ..EmbedView::default()
            },
            lang: Lang::En,
            url_lang: None,
            svg: SVG,
            trace: None,
        }
    }

    #[test]
    fn live_links_the_full_page_and_names_the_embed_query() {
        let html = snippet(SnippetKind::Live).html().unwrap();
        assert!(html.contains(
            "href=\"https://example.org/tailslice/?v=1&amp;seed=3&amp;p=fifo,rr&amp;mix=85:1-8\""
        ));
        assert!(html.contains(
            "data-tailslice-facade=\"v=1&amp;seed=3&amp;p=fifo,rr&amp;mix=85:1-8&amp;embed=1&amp;view=table&amp;controls=0&amp;theme=dark\""
        ));
        assert!(html
            .contains("<script async src=\"https://example.org/tailslice/facade.js\"></script>"));
        assert!(
            html.contains("<svg style=\"display:block;max-width:100%;height:auto\" width=\"600\"")
        );
        assert_eq!(html.matches("<script").count(), 1);
    }

    #[test]
    fn static_has_no_script_and_no_frame() {
        let html = snippet(SnippetKind::Static).html().unwrap();
        assert!(!html.contains("<script") && !html.contains("<iframe"));
        assert!(!html.contains("data-tailslice-facade"));
        assert_eq!(
            html.matches("href=\"https://example.org/tailslice/?v=1&amp;seed=3")
                .count(),
            2
        );
        assert!(html.contains(">open in tailslice \u{2197}</a>"));
    }

    #[test]
    fn the_snippet_writes_its_own_keys_and_the_language_asked_for() {
        let mut s = snippet(SnippetKind::Live);
        s.query = "v=1&seed=3&embed=1&view=cdf&lang=en&theme=light";
        s.lang = Lang::Zh;
        s.url_lang = Some(Lang::Zh);
        assert_eq!(
            s.full_url(),
            "https://example.org/tailslice/?v=1&seed=3&lang=zh"
        );
        assert_eq!(
            s.embed_query(),
            "v=1&seed=3&lang=zh&embed=1&view=table&controls=0&theme=dark"
        );
        assert!(s.html().unwrap().contains("切换为可交互"));
    }

    #[test]
    fn a_hostile_query_stays_inside_its_attribute() {
        let mut s = snippet(SnippetKind::Live);
        s.query = "seed=\"><script>alert(1)</script>&'x'=<img onerror=1>";
        let html = s.html().unwrap();
        assert_eq!(html.matches("<script").count(), 1, "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains("seed=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"),
            "{html}"
        );
    }

    #[test]
    fn bad_bases_and_figures_are_refused() {
        for base in [
            "",
            "/tailslice/",
            "javascript:alert(1)//",
            "https://example.org/tailslice",
            "https://example.org/?a=1/",
            "https://example.org/\"onload=\"x/",
            "file:///tmp/",
            "https:///",
        ] {
            let mut s = snippet(SnippetKind::Live);
            s.base = base;
            assert_eq!(s.html(), Err(SnippetError::Base), "{base}");
        }
        for svg in [
            "",
            "<img src=x>",
            "<svg><script>alert(1)</script></svg>",
            "<svg><foreignObject><div/></foreignObject></svg>",
            "<svg></svg><img src=x>",
            "<svg>",
        ] {
            let mut s = snippet(SnippetKind::Static);
            s.svg = svg;
            assert_eq!(s.html(), Err(SnippetError::Figure), "{svg}");
        }
        let mut s = snippet(SnippetKind::Static);
        let with_prolog = format!("<?xml version=\"1.0\"?>\n{SVG}");
        s.svg = &with_prolog;
        assert!(s.html().unwrap().contains("<svg style="));
    }

    #[test]
    fn a_traces_snippets_embed_its_figure_and_say_where_the_file_is_needed() {
        for lang in Lang::ALL {
            for kind in SnippetKind::ALL {
                let mut s = snippet(kind);
                s.lang = lang;
                s.trace = Some("<b>Trace \"1\".json");
                let html = s.html().unwrap();
                assert!(html.contains("<text x=\"4\" y=\"20\">p95</text>"), "{html}");
                // No facade: a click would open the page without the trace.
                assert!(!html.contains("data-tailslice-facade"), "{html}");
                assert!(!html.contains("<script"), "{html}");
                assert!(html.contains("&lt;b&gt;Trace &quot;1&quot;.json"), "{html}");
                assert!(!html.contains("<b>"), "{html}");
                let note = TRACE_NOTE.fill(lang, &["X"]);
                let head = note.split('X').next().unwrap();
                assert!(html.contains(head), "{lang:?}: {html}");
            }
        }
    }

    #[test]
    fn a_figure_at_several_widths_shows_the_widest_that_fits() {
        let wide = SVG.replace("600", "960");
        let narrow = SVG.replace("600", "360");
        let set = figures::join(&[wide, narrow]);
        for kind in SnippetKind::ALL {
            let mut s = snippet(kind);
            s.svg = &set;
            let html = s.html().unwrap();
            assert!(
                html.contains(
                    ";container-type:inline-size\"><style>@container (max-width:959.98px)"
                ),
                "{html}"
            );
            assert_eq!(
                html.matches("<svg class=\"tailslice-w").count(),
                2,
                "{html}"
            );
            // Only the live snippet's loader is a script.
            let scripts = usize::from(kind == SnippetKind::Live);
            assert_eq!(html.matches("<script").count(), scripts, "{html}");
        }
        // One figure: no container and no style.
        let html = snippet(SnippetKind::Static).html().unwrap();
        assert!(
            !html.contains("<style") && !html.contains("container-type"),
            "{html}"
        );
    }
}
