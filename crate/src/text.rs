//! Text a user reads, in English or Simplified Chinese: the language
//! ([`Lang`]) and one bilingual text type ([`Text`]) whose templates are
//! filled with figures formatted once.
//!
//! Every sentence is written as a pair of templates, English and Chinese,
//! side by side in the code that knows its meaning; `{}` placeholders are
//! filled in order ([`Text::fill`]). One small filling function instead of a
//! `format!` per sentence and language keeps the page's wasm small, and no
//! sentence is written once per language in separate code paths.

use serde::Serialize;

use crate::error::ParamError;

/// The language of generated text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// `en` or `zh` (also `zh-CN`, `zh-Hans`, `en-US`, … — only the
    /// language part counts).
    pub fn parse(field: &str, text: &str) -> Result<Lang, ParamError> {
        let t = text.trim().to_ascii_lowercase();
        match t.split(['-', '_']).next() {
            Some("en") => Ok(Lang::En),
            Some("zh") => Ok(Lang::Zh),
            _ => Err(ParamError::new(field, text, "en or zh")),
        }
    }

    /// A browser language tag (`navigator.language`): Chinese for any
    /// `zh…`, English otherwise.
    pub fn from_tag(tag: &str) -> Lang {
        Lang::parse("lang", tag).unwrap_or_default()
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
}

/// A text in both languages: a label, or a template whose `{}` are filled
/// in order with [`Text::fill`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Text {
    pub en: &'static str,
    pub zh: &'static str,
}

impl Text {
    pub const fn new(en: &'static str, zh: &'static str) -> Text {
        Text { en, zh }
    }

    /// The text in `lang`.
    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }

    /// The template in `lang` with each `{}` replaced by the next of
    /// `args` (a `{` not followed by `}` is kept as it is).
    pub fn fill(self, lang: Lang, args: &[&str]) -> String {
        fill(self.get(lang), args)
    }
}

/// `template` with each `{}` replaced by the next of `args`.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut rest = template;
    let mut next = args.iter();
    while let Some(at) = rest.find('{') {
        if !rest[at..].starts_with("{}") {
            out.push_str(&rest[..=at]);
            rest = &rest[at + 1..];
            continue;
        }
        out.push_str(&rest[..at]);
        out.push_str(next.next().copied().unwrap_or("{}"));
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_in_order() {
        let t = Text::new("{} of {} ({x})", "{}/{}");
        assert_eq!(t.fill(Lang::En, &["1", "2"]), "1 of 2 ({x})");
        assert_eq!(t.fill(Lang::Zh, &["1", "2"]), "1/2");
        // Too few arguments leave the placeholder visible rather than panic.
        assert_eq!(t.fill(Lang::En, &["1"]), "1 of {} ({x})");
    }

    #[test]
    fn language_tags() {
        assert_eq!(Lang::from_tag("zh-Hans-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("de"), Lang::En);
        assert!(Lang::parse("lang", "fr").is_err());
    }
}
