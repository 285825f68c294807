//! `--svg FILE`, `--figure` and `--theme` for `simulate` and `scenario`:
//! the result as an SVG figure drawn by the page's own chart code
//! (`tailslice::chart::figure`).

use tailslice::chart::figure::{Figure, Options};
use tailslice::chart::theme::Theme;
use tailslice::text::Lang;

use super::fail;

/// Help lines for the figure flags, the descriptions at column `col`
/// (the command's own flag table) and `figures` the ones it draws.
pub(super) fn help(figures: &[Figure], col: usize) -> String {
    let names: Vec<&str> = figures.iter().map(|f| f.name()).collect();
    let figure = format!("what the figure shows: {} [all]", names.join(" | "));
    [
        ("--svg PATH", "also write the result as an SVG figure"),
        ("--figure WHAT", figure.as_str()),
        ("--theme T", "the figure's colours: light | dark [light]"),
    ]
    .iter()
    .map(|(flag, what)| format!("  {flag:<w$}{what}\n", w = col - 2))
    .collect()
}

/// The figure flags as given.
#[derive(Default)]
pub(super) struct FigureFlags {
    pub path: Option<String>,
    figure: Option<Figure>,
    theme: Option<Theme>,
}

impl FigureFlags {
    /// Whether `name` (without dashes) is one of the figure flags.
    pub fn takes(name: &str) -> bool {
        matches!(name, "svg" | "figure" | "theme")
    }

    /// Takes `--svg`, `--figure` or `--theme`; returns the exit code for a
    /// bad value.
    pub fn set(&mut self, name: &str, value: String, figures: &[Figure]) -> Result<(), i32> {
        let flag = format!("--{name}");
        match name {
            "svg" if value.trim().is_empty() => Err(fail("invalid --svg '': expected a file path")),
            "svg" => {
                self.path = Some(value);
                Ok(())
            }
            "figure" => {
                self.figure =
                    Some(Figure::parse(&flag, &value, figures).map_err(|e| fail(&e.to_string()))?);
                Ok(())
            }
            _ => {
                self.theme = Some(Theme::parse(&flag, &value).map_err(|e| fail(&e.to_string()))?);
                Ok(())
            }
        }
    }

    /// The drawing options, or the exit code when `--figure` or `--theme`
    /// came without `--svg`.
    pub fn options(&self, lang: Lang) -> Result<Option<Options>, i32> {
        if self.path.is_none() {
            if self.figure.is_some() || self.theme.is_some() {
                return Err(fail(
                    "--figure and --theme describe an SVG figure: add --svg FILE",
                ));
            }
            return Ok(None);
        }
        Ok(Some(Options {
            figure: self.figure.unwrap_or(Figure::All),
            theme: self.theme.unwrap_or_default(),
            lang,
            ..Options::default()
        }))
    }

    /// Writes `svg` to the `--svg` path (exit code 1 on failure: not bad input).
    pub fn write(&self, svg: &str) -> Result<(), i32> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        std::fs::write(path, svg).map_err(|e| {
            eprintln!("error: cannot write --svg '{path}': {e}");
            1
        })
    }
}
