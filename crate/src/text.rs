//! Text a user reads, in English or Simplified Chinese: the language
//! ([`Lang`]) and one bilingual text type ([`Text`]) whose templates are
//! filled with figures formatted once.
//!
//! Every sentence is written as a pair of templates, English and Chinese,
//! side by side in the code that knows its meaning; `{}` placeholders are
//! filled in order ([`Text::fill`]). One small filling function instead of a
//! `format!` per sentence and language keeps the page's wasm small, and no
//! sentence is written once per language in separate code paths. A text
//! carried in data in both languages once filled (a refusal's "allowed"
//! words) is a [`Filled`].
//!
//! This module is the bottom of the crate: the refusal of a bad `--lang` /
//! `lang=` ([`Lang::parse`]) is with the other refusals in `crate::error`,
//! which builds its messages from [`Text`].

use serde::Serialize;

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
    /// language part counts); `None` for any other language.
    pub(crate) fn from_code(text: &str) -> Option<Lang> {
        let t = text.trim().to_ascii_lowercase();
        match t.split(['-', '_']).next() {
            Some("en") => Some(Lang::En),
            Some("zh") => Some(Lang::Zh),
            _ => None,
        }
    }

    /// A browser language tag (`navigator.language`): Chinese for any
    /// `zh…`, English otherwise.
    pub(crate) fn from_tag(tag: &str) -> Lang {
        Lang::from_code(tag).unwrap_or_default()
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// What goes between two sentences: a space in English, nothing after
    /// a Chinese full stop.
    pub(crate) fn sentence_gap(self) -> &'static str {
        GAP.get(self)
    }

    /// Sentences (or clauses ending in their own punctuation) joined as
    /// this language writes them.
    pub(crate) fn join<S: AsRef<str>>(self, parts: &[S]) -> String {
        let parts: Vec<&str> = parts.iter().map(AsRef::as_ref).collect();
        parts.join(self.sentence_gap())
    }
}

const GAP: Text = Text::new(" ", "");

/// A text in both languages: a label, or a template whose `{}` (in order)
/// and `{N}` (the N-th, from 0) are filled with [`Text::fill`].
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

    /// The template in `lang` with its placeholders filled from `args`
    /// (see [`fill`]).
    pub fn fill(self, lang: Lang, args: &[&str]) -> String {
        fill(self.get(lang), args)
    }

    /// The template filled in both languages with the same `args`.
    pub(crate) fn both(self, args: &[&str]) -> Filled {
        Filled::each(|lang| self.fill(lang, args))
    }
}

/// A text filled in both languages, to be carried in data (an error, a
/// result sent to the page) until a reader's language is known.
/// A text is a `String`; what a reader sees as a list of sentences or
/// labels is a `Filled<Vec<String>>`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Filled<T = String> {
    pub en: T,
    pub zh: T,
}

impl<T> Filled<T> {
    /// What `make` writes in each language (for templates whose arguments
    /// are themselves texts: `make` fills them in its `lang`).
    pub fn each(make: impl Fn(Lang) -> T) -> Filled<T> {
        Filled {
            en: make(Lang::En),
            zh: make(Lang::Zh),
        }
    }

    /// What there is in `lang`.
    pub fn get(&self, lang: Lang) -> &T {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

impl Filled {
    /// Text that reads the same in both languages (a number, a name).
    pub(crate) fn same(s: impl Into<String>) -> Filled {
        let s = s.into();
        Filled {
            en: s.clone(),
            zh: s,
        }
    }

    /// Each language's text put into `template` as its last argument after
    /// `args` (e.g. "off or {}" around a range's words).
    pub(crate) fn within(&self, template: Text, args: &[&str]) -> Filled {
        Filled::each(|lang| {
            let mut all = args.to_vec();
            all.push(self.get(lang));
            template.fill(lang, &all)
        })
    }

    /// Whether there is no text in either language.
    pub fn is_empty(&self) -> bool {
        self.en.is_empty() && self.zh.is_empty()
    }

    /// Whether either language's text contains `part`.
    pub fn contains(&self, part: &str) -> bool {
        self.en.contains(part) || self.zh.contains(part)
    }
}

/// Serialises a [`Filled`] as its English text, where a JSON contract
/// has a string (the CLI's `--json`); the page reads both languages from
/// elsewhere.
pub(crate) fn english<T: Serialize, S: serde::Serializer>(
    text: &Filled<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    text.en.serialize(s)
}

/// Serialisers for a [`Filled`] field that a JSON contract spells as two
/// keys, the English text under one and the Chinese under the same name
/// with `_zh` (`"notes"` and `"notes_zh"`). Use on the field with
/// `#[serde(flatten, serialize_with = "text::pair::notes")]`.
pub(crate) mod pair {
    use super::Filled;
    use serde::ser::{SerializeMap, Serializer};
    use serde::Serialize;

    macro_rules! pairs {
        ($($name:ident),* $(,)?) => {$(
            pub(crate) fn $name<T: Serialize, S: Serializer>(
                text: &Filled<T>,
                s: S,
            ) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry(stringify!($name), &text.en)?;
                map.serialize_entry(concat!(stringify!($name), "_zh"), &text.zh)?;
                map.end()
            }
        )*};
    }

    pairs!(message, notes, calibration, label, what, columns, reading,);
}

/// Names as a choice: `a, b or c` / `a、b 或 c`.
pub(crate) fn either(names: &[&str]) -> Filled {
    const OR: Text = Text::new("{} or {}", "{} 或 {}");
    const COMMA: Text = Text::new(", ", "、");
    Filled::each(|lang| match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            OR.fill(lang, &[&rest.join(COMMA.get(lang)), last])
        }
        Some((last, _)) => last.to_string(),
        None => String::new(),
    })
}

impl From<Text> for Filled {
    fn from(t: Text) -> Filled {
        t.both(&[])
    }
}

/// `template` with each `{}` replaced by the next of `args`, and each
/// `{N}` by `args[N]` (0-based), so that a language may put the figures in
/// its own order. Anything else in braces is kept as it is, and a missing
/// argument leaves its placeholder visible rather than panic.
pub(crate) fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut rest = template;
    let mut next = 0;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if after.as_bytes().get(digits) != Some(&b'}') {
            out.push('{');
            rest = after;
            continue;
        }
        let index = if digits == 0 {
            next += 1;
            Some(next - 1)
        } else {
            after[..digits].parse::<usize>().ok()
        };
        match index.and_then(|i| args.get(i)) {
            Some(arg) => out.push_str(arg),
            None => out.push_str(&rest[at..at + digits + 2]),
        }
        rest = &after[digits + 1..];
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
        // Numbered placeholders let a language reorder the figures.
        let t = Text::new("{} tasks within {} ms", "{1} ms 内完成 {0} 个任务");
        assert_eq!(t.fill(Lang::Zh, &["7", "100"]), "100 ms 内完成 7 个任务");
        assert_eq!(fill("{9} {x} {", &["a"]), "{9} {x} {");
        assert_eq!(fill("{1}{}{}", &["a", "b"]), "bab");
        let both = t.both(&["3", "4"]);
        assert_eq!(
            (both.get(Lang::En).as_str(), both.get(Lang::Zh).as_str()),
            ("3 tasks within 4 ms", "4 ms 内完成 3 个任务")
        );
    }

    #[test]
    fn filled_texts_nest_in_templates() {
        let range = Text::new("a number from {} to {}", "{} 到 {} 之间的数").both(&["1", "2"]);
        let off = range.within(Text::new("off or {}", "off 或{}"), &[]);
        assert_eq!(off.en, "off or a number from 1 to 2");
        assert_eq!(off.zh, "off 或1 到 2 之间的数");
        assert!(off.contains("之间"));
    }

    #[test]
    fn a_pair_serialises_as_two_keys() {
        #[derive(Serialize)]
        struct Row {
            id: u8,
            #[serde(flatten, serialize_with = "pair::notes")]
            notes: Filled<Vec<String>>,
            after: u8,
        }
        let row = Row {
            id: 1,
            notes: Filled::each(|l| vec![l.code().to_string()]),
            after: 2,
        };
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            r#"{"id":1,"notes":["en"],"notes_zh":["zh"],"after":2}"#
        );
    }

    #[test]
    fn language_tags() {
        assert_eq!(Lang::from_tag("zh-Hans-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("de"), Lang::En);
        assert_eq!(Lang::from_code("fr"), None);
        assert_eq!(Lang::En.join(&["A.", "B."]), "A. B.");
        assert_eq!(Lang::Zh.join(&["甲。", "乙。"]), "甲。乙。");
        assert_eq!(either(&["a", "b", "c"]).en, "a, b or c");
        assert_eq!(either(&["a", "b", "c"]).zh, "a、b 或 c");
        assert_eq!(either(&["a"]).zh, "a");
    }
}
