//! The one error type for bad input, shared by the CLI, the URL parser and
//! file imports, so every front end names the field, echoes the value and
//! states what is allowed in the same words, in English and Chinese.

use std::fmt;

use crate::text::{Filled, Lang, Text};

/// A value given for a named field was not acceptable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The field as the user spelled it: `--quantum` on the CLI, `q` in a URL.
    pub field: String,
    /// The offending value, shortened and with control characters escaped so
    /// that hostile input cannot garble a terminal or a page.
    pub value: String,
    /// What would have been accepted, in words, in both languages.
    pub allowed: Filled,
}

/// The refusal's sentence: field, value, what is allowed.
const REFUSAL: Text = Text::new("invalid {} '{}': expected {}", "{} 的值“{}”无效，应为：{}");

impl ParamError {
    /// `allowed`: a [`Text`] (`Text::new("on or off", "on 或 off")`) or
    /// a template filled in both languages ([`Text::both`]).
    pub fn new(field: impl Into<String>, value: &str, allowed: impl Into<Filled>) -> Self {
        ParamError {
            field: field.into(),
            value: shown(value),
            allowed: allowed.into(),
        }
    }

    /// The same error reported under another field name (e.g. a URL key
    /// instead of a CLI flag).
    pub fn renamed(mut self, field: impl Into<String>) -> Self {
        self.field = field.into();
        self
    }

    /// The refusal in `lang`, one line: the field, the value and what is
    /// allowed (`Display` is the English one).
    pub fn message(&self, lang: Lang) -> String {
        REFUSAL.fill(lang, &[&self.field, &self.value, self.allowed.get(lang)])
    }

    /// The refusal in both languages.
    pub fn messages(&self) -> Filled {
        Filled::each(|lang| self.message(lang))
    }
}

/// What a front end goes on with instead of a refused value (a link's
/// banner says it after the refusal).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Instead<'a> {
    /// `key=value` is in effect (the default, or a repeated key's first
    /// value): the front end's own state after parsing, never a guess.
    Value(&'a str),
    /// A sentence of its own ("the browser's language is used").
    Said(Text),
}

const USED: Text = Text::new("→ {}={} is used.", "→ 改用 {}={}。");
const EMPTY: Text = Text::new("→ {} is left empty.", "→ {} 留空。");
const ARROW: Text = Text::new("→ {}.", "→ {}。");

impl ParamError {
    /// The refusal followed by what is used instead, in both languages:
    /// "invalid q '0': expected … → q=16 is used."
    pub fn with_instead(&self, instead: Instead) -> Filled {
        Filled::each(|lang| {
            let then = match instead {
                Instead::Value("") => EMPTY.fill(lang, &[&self.field]),
                Instead::Value(v) => USED.fill(lang, &[&self.field, &shown(v)]),
                Instead::Said(t) => ARROW.fill(lang, &[t.get(lang)]),
            };
            format!("{} {then}", self.message(lang))
        })
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ParamError {}

/// The refusal of a language that is neither English nor Chinese.
const LANGS: Text = Text::new("en or zh", "en 或 zh");

impl Lang {
    /// `en` or `zh` (also `zh-CN`, `zh-Hans`, `en-US`, … — only the
    /// language part counts), or a refusal naming `field`.
    pub fn parse(field: &str, text: &str) -> Result<Lang, ParamError> {
        Lang::from_code(text).ok_or_else(|| ParamError::new(field, text, LANGS))
    }
}

/// Characters that must never reach a terminal or a page as they are:
/// control characters, and the bidirectional formatting characters
/// (embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069, the
/// marks U+200E, U+200F, U+061C) that can make a message, and the page's
/// own words around it, render reversed ("Trojan Source").
pub fn is_hidden_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
        )
}

/// A value as a message shows it: at most 80 characters; control and
/// bidirectional formatting characters shown visibly as `\u{..}` (see
/// [`is_hidden_char`]).
pub fn shown(value: &str) -> String {
    const MAX: usize = 80;
    let mut out = String::new();
    let mut len = 0;
    for c in value.chars() {
        if len >= MAX {
            out.push('…');
            break;
        }
        if is_hidden_char(c) {
            let escaped: String = c.escape_unicode().collect();
            len += escaped.len();
            out.push_str(&escaped);
        } else {
            len += 1;
            out.push(c);
        }
    }
    out
}

/// A size in bytes as `--help` and the refusals say it: `20 MiB` (whole
/// MiB, as every limit is).
pub fn fmt_mib(bytes: usize) -> String {
    format!("{} MiB", bytes / (1024 * 1024))
}

/// A number as the shortest text that reads back as the same value: `16`,
/// `0.5`, `1e-7`, never `0.0000…1` or `-0`. Used wherever a value is
/// written back (URLs, messages), so a link shows what the visitor typed.
pub fn fmt_number(v: f64) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    let plain = format!("{v}");
    let exp = format!("{v:e}");
    if plain.len() > 16 && exp.len() < plain.len() {
        exp
    } else {
        plain
    }
}

/// What a number field measures, as its refusal names it: "a number of
/// ms" / "数（ms）".
pub(crate) mod unit {
    use crate::text::Text;

    pub(crate) const MS: Text = Text::new("a number of ms", "数（ms）");
    pub(crate) const SECONDS: Text = Text::new("a number of seconds", "秒数");
    /// A multiplier without a unit (a scale).
    pub(crate) const FACTOR: Text = Text::new("a factor", "倍数");
}

/// The accepted values of a number field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberRange {
    /// Smallest accepted value (inclusive).
    pub min: f64,
    pub max: f64,
    /// Whether exactly 0 is accepted below `min` (a switch cost of 0 means
    /// "free"; 1e-308 means nothing and would only bloat links).
    pub zero: bool,
    /// What the number is, in words ([`unit`]).
    pub what: Text,
}

/// "[0 or ]WHAT from MIN to MAX".
const RANGE: Text = Text::new("{}{} from {} to {}", "{0}{2} 到 {3} 之间的{1}");
const OR_ZERO: Text = Text::new("0 or ", "0 或 ");
const WHOLE: Text = Text::new("a whole number from {} to {}", "{} 到 {} 之间的整数");

impl NumberRange {
    pub(crate) const fn new(min: f64, max: f64, what: Text) -> Self {
        NumberRange {
            min,
            max,
            zero: false,
            what,
        }
    }

    /// The same range, also accepting exactly 0.
    pub(crate) const fn or_zero(self) -> Self {
        NumberRange { zero: true, ..self }
    }

    /// The range in words: "a number of ms from 0.001 to 1000".
    pub(crate) fn allowed(&self) -> Filled {
        let (min, max) = (fmt_number(self.min), fmt_number(self.max));
        Filled::each(|lang| {
            let zero = if self.zero { OR_ZERO.get(lang) } else { "" };
            RANGE.fill(lang, &[zero, self.what.get(lang), &min, &max])
        })
    }

    /// Parses `text` (trimmed) as a finite number in this range; `-0` reads
    /// as 0.
    pub fn parse(&self, field: &str, text: &str) -> Result<f64, ParamError> {
        let err = || ParamError::new(field, text, self.allowed());
        let v: f64 = text.trim().parse().map_err(|_| err())?;
        let v = v + 0.0; // -0 -> 0
        let ok = v.is_finite() && ((v >= self.min && v <= self.max) || (self.zero && v == 0.0));
        if ok {
            Ok(v)
        } else {
            Err(err())
        }
    }
}

/// Parses a whole number within `[min, max]`.
pub fn parse_count(field: &str, text: &str, min: u64, max: u64) -> Result<u64, ParamError> {
    match text.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(ParamError::new(
            field,
            text,
            WHOLE.both(&[&min.to_string(), &max.to_string()]),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: Text = Text::new("x", "x");

    #[test]
    fn message_names_field_value_and_range_in_both_languages() {
        let e = NumberRange::new(0.001, 1000.0, unit::MS)
            .parse("--quantum", "0")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid --quantum '0': expected a number of ms from 0.001 to 1000"
        );
        assert_eq!(
            e.message(Lang::Zh),
            "--quantum 的值“0”无效，应为：0.001 到 1000 之间的数（ms）"
        );
        assert_eq!(e.messages().en, e.to_string());
        let e = Lang::parse("lang", "fr").unwrap_err();
        assert_eq!(e.message(Lang::Zh), "lang 的值“fr”无效，应为：en 或 zh");
    }

    #[test]
    fn a_refusal_says_what_is_used_instead() {
        let e = parse_count("n", "0", 1, 10).unwrap_err();
        let line = e.with_instead(Instead::Value("400"));
        assert_eq!(
            line.en,
            "invalid n '0': expected a whole number from 1 to 10 → n=400 is used."
        );
        assert_eq!(
            line.zh,
            "n 的值“0”无效，应为：1 到 10 之间的整数 → 改用 n=400。"
        );
        let said = Text::new("the browser's language is used", "使用浏览器的语言");
        let line = Lang::parse("lang", "fr")
            .unwrap_err()
            .with_instead(Instead::Said(said));
        assert!(
            line.en.ends_with("→ the browser's language is used."),
            "{}",
            line.en
        );
        assert!(line.zh.ends_with("→ 使用浏览器的语言。"), "{}", line.zh);
    }

    #[test]
    fn rejects_nan_inf_and_garbage() {
        let r = NumberRange::new(0.001, 1e6, unit::MS);
        for bad in ["NaN", "inf", "-inf", "", "1e400", "12ms", "0x10"] {
            assert!(r.parse("q", bad).is_err(), "{bad}");
        }
        assert_eq!(r.or_zero().parse("cs", "0"), Ok(0.0));
    }

    #[test]
    fn hostile_values_are_escaped_and_shortened() {
        let e = ParamError::new("seed", &format!("a\u{1b}[2J{}", "x".repeat(500)), X);
        assert!(!e.value.contains('\u{1b}'));
        assert!(e.value.chars().count() <= 90);
    }

    #[test]
    fn bidi_controls_are_escaped_visibly() {
        for c in [
            '\u{202E}', '\u{202A}', '\u{2066}', '\u{2069}', '\u{200F}', '\u{061C}',
        ] {
            let e = ParamError::new("q", &format!("{c}evil link"), X);
            assert!(!e.value.contains(c), "{c:?} kept in {:?}", e.value);
            assert!(e.value.starts_with("\\u{"), "{:?}", e.value);
            assert!(e.to_string().chars().all(|c| !is_hidden_char(c)));
            assert!(e.message(Lang::Zh).chars().all(|c| !is_hidden_char(c)));
        }
        // Ordinary right-to-left text is not touched.
        assert_eq!(ParamError::new("q", "שלום", X).value, "שלום");
    }

    #[test]
    fn numbers_are_written_in_their_shortest_form() {
        assert_eq!(fmt_number(16.0), "16");
        assert_eq!(fmt_number(0.5), "0.5");
        assert_eq!(fmt_number(-0.0), "0");
        assert_eq!(fmt_number(0.001), "0.001");
        assert_eq!(fmt_number(1e-308), "1e-308");
        assert_eq!(fmt_number(1e9), "1000000000");
        assert_eq!(fmt_number(1e300), "1e300");
        for v in [16.0, 0.1 + 0.2, 1e-7, 123456.789, 1e-308, 5e15] {
            assert_eq!(fmt_number(v).parse::<f64>().unwrap(), v);
        }
    }

    #[test]
    fn ranges_state_their_bounds_and_read_minus_zero_as_zero() {
        let r = NumberRange::new(0.001, 1000.0, unit::MS).or_zero();
        assert_eq!(r.parse("cs", "-0"), Ok(0.0));
        assert!(r.parse("cs", "-0").unwrap().is_sign_positive());
        assert_eq!(r.parse("cs", "0.001"), Ok(0.001));
        let e = r.parse("cs", "1e-308").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid cs '1e-308': expected 0 or a number of ms from 0.001 to 1000"
        );
        assert_eq!(e.allowed.zh, "0 或 0.001 到 1000 之间的数（ms）");
        let strict = NumberRange::new(0.001, 1000.0, unit::MS);
        assert!(strict.parse("q", "0").is_err());
        assert!(strict.parse("q", "NaN").is_err());
    }

    #[test]
    fn counts_are_bounded() {
        let e = parse_count("n", "400", 1, 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid n '400': expected a whole number from 1 to 10"
        );
        assert_eq!(e.allowed.zh, "1 到 10 之间的整数");
        assert_eq!(parse_count("n", "7", 1, 10), Ok(7));
        assert!(parse_count("n", "-1", 1, 10).is_err());
    }
}
