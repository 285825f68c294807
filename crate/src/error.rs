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

/// At most 80 characters, control characters shown as `\u{..}`.
fn sanitize(value: &str) -> String {
    const MAX: usize = 80;
    let mut out = String::new();
    let mut len = 0;
    for c in value.chars() {
        if len >= MAX {
            out.push('…');
            break;
        }
        if c.is_control() {
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

/// Parses a finite number within `[min, max]`; `min_exclusive` makes the
/// lower bound strict (a quantum of 0 is meaningless, a switch cost of 0 is
/// the default).
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
    let allowed = format!("a number of {unit} {lower} {min} and at most {max}");
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| ParamError::new(field, text, allowed.clone()))?;
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
    fn counts_are_bounded() {
        assert_eq!(
            parse_count("n", "400", 1, 10),
            Err(ParamError::new("n", "400", "a whole number from 1 to 10"))
        );
        assert_eq!(parse_count("n", "7", 1, 10), Ok(7));
        assert!(parse_count("n", "-1", 1, 10).is_err());
    }
}
