//! The one error type for bad input, shared by the CLI, the URL parser and
//! file imports, so every front end names the field, echoes the value and
//! states what is allowed in the same words.

use std::fmt;

/// A value given for a named field was not acceptable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The field as the user spelled it: `--quantum` on the CLI, `q` in a URL.
    pub field: String,
    /// The offending value, shortened and with control characters escaped so
    /// that hostile input cannot garble a terminal or a page.
    pub value: String,
    /// What would have been accepted, in words.
    pub allowed: String,
}

impl ParamError {
    pub fn new(field: impl Into<String>, value: &str, allowed: impl Into<String>) -> Self {
        ParamError {
            field: field.into(),
            value: sanitize(value),
            allowed: allowed.into(),
        }
    }

    /// The same error reported under another field name (e.g. a URL key
    /// instead of a CLI flag).
    pub fn renamed(mut self, field: impl Into<String>) -> Self {
        self.field = field.into();
        self
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {} '{}': expected {}",
            self.field, self.value, self.allowed
        )
    }
}

impl std::error::Error for ParamError {}

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

/// At most 80 characters; control and bidirectional formatting characters
/// shown visibly as `\u{..}` (see [`is_hidden_char`]).
fn sanitize(value: &str) -> String {
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

/// The accepted values of a number field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberRange {
    /// Smallest accepted value (inclusive).
    pub min: f64,
    pub max: f64,
    /// Whether exactly 0 is accepted below `min` (a switch cost of 0 means
    /// "free"; 1e-308 means nothing and would only bloat links).
    pub zero: bool,
    pub unit: &'static str,
}

impl NumberRange {
    pub const fn new(min: f64, max: f64, unit: &'static str) -> Self {
        NumberRange {
            min,
            max,
            zero: false,
            unit,
        }
    }

    /// The same range, also accepting exactly 0.
    pub const fn or_zero(self) -> Self {
        NumberRange { zero: true, ..self }
    }

    /// The range in words: "a number of ms from 0.001 to 1000".
    pub fn allowed(&self) -> String {
        let zero = if self.zero { "0 or " } else { "" };
        format!(
            "{zero}a number of {} from {} to {}",
            self.unit,
            fmt_number(self.min),
            fmt_number(self.max)
        )
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

/// Parses a finite number within `[min, max]`; `min_exclusive` makes the
/// lower bound strict. Prefer [`NumberRange`], which also states a sensible
/// smallest value instead of "greater than 0".
pub fn parse_number(
    field: &str,
    text: &str,
    min: f64,
    min_exclusive: bool,
    max: f64,
    unit: &str,
) -> Result<f64, ParamError> {
    let lower = if min_exclusive {
        "greater than"
    } else {
        "at least"
    };
    let allowed = format!(
        "a number of {unit} {lower} {} and at most {}",
        fmt_number(min),
        fmt_number(max)
    );
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| ParamError::new(field, text, allowed.clone()))?;
    let v = v + 0.0; // -0 -> 0
    let ok = v.is_finite() && (v > min || (!min_exclusive && v == min)) && v <= max;
    if ok {
        Ok(v)
    } else {
        Err(ParamError::new(field, text, allowed))
    }
}

/// Parses a whole number within `[min, max]`.
pub fn parse_count(field: &str, text: &str, min: u64, max: u64) -> Result<u64, ParamError> {
    let allowed = format!("a whole number from {min} to {max}");
    match text.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(ParamError::new(field, text, allowed)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_field_value_and_range() {
        let e = parse_number("--quantum", "0", 0.0, true, 1000.0, "ms").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid --quantum '0': expected a number of ms greater than 0 and at most 1000"
        );
    }

    #[test]
    fn rejects_nan_inf_and_garbage() {
        for bad in ["NaN", "inf", "-inf", "", "1e400", "12ms", "0x10"] {
            assert!(
                parse_number("q", bad, 0.0, true, 1e6, "ms").is_err(),
                "{bad}"
            );
        }
        assert_eq!(parse_number("cs", "0", 0.0, false, 10.0, "ms"), Ok(0.0));
    }

    #[test]
    fn hostile_values_are_escaped_and_shortened() {
        let e = ParamError::new("seed", &format!("a\u{1b}[2J{}", "x".repeat(500)), "x");
        assert!(!e.value.contains('\u{1b}'));
        assert!(e.value.chars().count() <= 90);
    }

    #[test]
    fn bidi_controls_are_escaped_visibly() {
        for c in [
            '\u{202E}', '\u{202A}', '\u{2066}', '\u{2069}', '\u{200F}', '\u{061C}',
        ] {
            let e = ParamError::new("q", &format!("{c}evil link"), "x");
            assert!(!e.value.contains(c), "{c:?} kept in {:?}", e.value);
            assert!(e.value.starts_with("\\u{"), "{:?}", e.value);
            assert!(e.to_string().chars().all(|c| !is_hidden_char(c)));
        }
        // Ordinary right-to-left text is not touched.
        assert_eq!(ParamError::new("q", "שלום", "x").value, "שלום");
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
        let r = NumberRange::new(0.001, 1000.0, "ms").or_zero();
        assert_eq!(r.parse("cs", "-0"), Ok(0.0));
        assert!(r.parse("cs", "-0").unwrap().is_sign_positive());
        assert_eq!(r.parse("cs", "0.001"), Ok(0.001));
        let e = r.parse("cs", "1e-308").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid cs '1e-308': expected 0 or a number of ms from 0.001 to 1000"
        );
        let strict = NumberRange::new(0.001, 1000.0, "ms");
        assert!(strict.parse("q", "0").is_err());
        assert!(strict.parse("q", "NaN").is_err());
    }

    #[test]
    fn counts_are_bounded() {
        assert_eq!(
            parse_count("n", "400", 1, 10),
            Err(ParamError::new("n", "400", "a whole number from 1 to 10"))
        );
        assert_eq!(parse_count("n", "7", 1, 10), Ok(7));
        assert!(parse_count("n", "-1", 1, 10).is_err());
    }
}
