//! One parameter spec: every parameter a user sets (an experiment's, a
//! scenario knob, a Responsiveness or Run for real setting, an embed key)
//! is one [`Spec`] row — URL key and aliases, CLI flag, range, unit, label
//! and help in English and Chinese — in its table's [`Params::SPECS`]. The URL
//! key lookup, the flag lookup, the query reader with its refusals, the
//! page's catalog entries, the CLI's `--help` lines and docs/url.md's
//! tables are all read off these rows; a table's own `set` parses a value
//! (with the row's range) and its `get` writes it back.

use crate::error::{parse_count, shown, NumberRange, ParamError};
use crate::text::{Filled, Text};

/// One parameter: the names a user writes it by, its range and its words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec<P: 'static> {
    pub id: P,
    /// The URL key, a public contract (`q`).
    pub key: &'static str,
    /// Other keys a link may use (read alike, never written).
    pub aliases: &'static [&'static str],
    /// The CLI flag (`--quantum`), `None` for the page's only.
    pub flag: Option<&'static str>,
    /// The flag's value as `--help` names it (`N`, `LIST`); empty for one
    /// number with a unit, which its unit names ([`Spec::arg`]).
    pub arg: &'static str,
    pub range: Range,
    /// What the value counts, said once here: a control's label, the flag's
    /// argument and the docs' unit column add it.
    pub unit: Option<Unit>,
    /// A control's name, without its unit ([`Spec::label`] adds it).
    pub label: Text,
    /// One or two sentences of help (a control's title, `--help`, the
    /// docs' table), without the unit.
    pub help: Text,
}

/// What a parameter's number counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Ms,
    Seconds,
    /// A multiplier (`0.3` is 0.3×).
    Factor,
}

impl Unit {
    /// The unit as a label and the docs write it.
    pub fn symbol(self) -> Text {
        match self {
            Unit::Ms => Text::new("ms", "ms"),
            Unit::Seconds => Text::new("s", "秒"),
            Unit::Factor => Text::new("×", "×"),
        }
    }

    /// A flag's argument when the value is one number of this unit.
    pub fn arg(self) -> &'static str {
        match self {
            Unit::Ms => "MS",
            Unit::Seconds => "S",
            Unit::Factor => "F",
        }
    }
}

/// "LABEL (UNIT)".
const WITH_UNIT: Text = Text::new("{} ({})", "{}（{}）");

/// The values of a parameter that is one number; what others accept is
/// their parser's own refusal ([`allowed`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// A whole number from `min` to `max`.
    Count { min: u64, max: u64 },
    /// A number ([`NumberRange`]).
    Number(NumberRange),
    /// Not one number (a list, a name, a syntax of its own).
    Other,
}

impl<P> Spec<P> {
    /// A control's name with its unit: "Quantum (ms)".
    pub fn label(&self) -> Filled {
        match self.unit {
            Some(u) => Filled::each(|lang| {
                WITH_UNIT.fill(lang, &[self.label.get(lang), u.symbol().get(lang)])
            }),
            None => Filled::each(|lang| self.label.get(lang).to_string()),
        }
    }

    /// The flag's value as `--help` names it: the row's `arg`, or its
    /// unit's (`MS`).
    pub fn arg(&self) -> &'static str {
        match (self.arg, self.unit) {
            ("", Some(u)) => u.arg(),
            (arg, _) => arg,
        }
    }

    /// Reads a whole number in this parameter's [`Range::Count`].
    pub(crate) fn count(&self, field: &str, text: &str) -> Result<u64, ParamError> {
        match self.range {
            Range::Count { min, max } => parse_count(field, text, min, max),
            _ => unreachable!("{} is not a count", self.key),
        }
    }

    /// Reads a number in this parameter's [`Range::Number`].
    pub(crate) fn number(&self, field: &str, text: &str) -> Result<f64, ParamError> {
        match self.range {
            Range::Number(r) => r.parse(field, text),
            _ => unreachable!("{} is not a number", self.key),
        }
    }

    /// Numeric bounds (a number input's `min` and `max`) and whether only
    /// whole numbers are accepted.
    pub(crate) fn bounds(&self) -> (Option<f64>, Option<f64>, bool) {
        match self.range {
            Range::Count { min, max } => (Some(min as f64), Some(max as f64), true),
            Range::Number(r) => (Some(if r.zero { 0.0 } else { r.min }), Some(r.max), false),
            Range::Other => (None, None, false),
        }
    }
}

/// A table of parameters (an enum naming each), in the order a link
/// writes them.
pub trait Params: Copy + PartialEq + std::fmt::Debug + 'static {
    const SPECS: &'static [Spec<Self>];

    fn spec(self) -> &'static Spec<Self> {
        Self::SPECS
            .iter()
            .find(|s| s.id == self)
            .expect("every parameter has a spec")
    }

    fn url_key(self) -> &'static str {
        self.spec().key
    }

    fn flag(self) -> Option<&'static str> {
        self.spec().flag
    }

    /// The parameter a link's `key` names: its key or an alias.
    fn from_url_key(key: &str) -> Option<Self> {
        Self::SPECS
            .iter()
            .find(|s| s.key == key || s.aliases.contains(&key))
            .map(|s| s.id)
    }

    fn from_flag(flag: &str) -> Option<Self> {
        Self::SPECS
            .iter()
            .find(|s| s.flag == Some(flag))
            .map(|s| s.id)
    }
}

/// Every id of a spec table, as an array (`Param::ALL`).
pub(crate) const fn ids<P: Copy, const N: usize>(specs: &[Spec<P>; N]) -> [P; N] {
    let mut out = [specs[0].id; N];
    let mut i = 0;
    while i < N {
        out[i] = specs[i].id;
        i += 1;
    }
    out
}

const REPEATED: Text = Text::new(
    "{} only once; the link gives it again after its first value '{}'",
    "{} 只能给一次；链接在第一个值“{}”之后又给了一次",
);

/// The refusal of a key a link gives twice (`value` is the repeat's).
pub(crate) fn repeated(key: &str, value: &str, first: &str) -> ParamError {
    ParamError::new(key, value, REPEATED.both(&[key, &shown(first)]))
}

/// Reads a table's keys from decoded query pairs with `set`: other keys
/// are ignored; a bad value is reported (and `set` leaves the parameter as
/// it was); a key given twice (or as a key and its alias) keeps its first
/// value and each repeat is reported: a link that says `q=8&q=9` is
/// ambiguous, so say so, never pick one silently.
pub(crate) fn read_query<'a, P: Params>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    mut set: impl FnMut(P, &str, &str) -> Result<(), ParamError>,
) -> Vec<ParamError> {
    let mut errors = Vec::new();
    let mut seen: Vec<(P, &str)> = Vec::new();
    for (key, value) in pairs {
        let Some(p) = P::from_url_key(key) else {
            continue;
        };
        if let Some(&(_, first)) = seen.iter().find(|(q, _)| *q == p) {
            errors.push(repeated(key, value, first));
            continue;
        }
        seen.push((p, value));
        if let Err(e) = set(p, key, value) {
            errors.push(e);
        }
    }
    errors
}

/// What a parameter accepts, in its parser's own words: the refusal of a
/// value no parser takes (`set` reads it), never a copy.
pub fn allowed(set: impl FnOnce(&str) -> Result<(), ParamError>) -> Filled {
    set("\u{1}").err().map(|e| e.allowed).unwrap_or_default()
}

/// One parameter as the page's catalog lists it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Entry {
    /// The URL key (`q`), a public contract.
    pub key: &'static str,
    /// The CLI flag (`--quantum`), `None` for page-only keys.
    pub flag: Option<&'static str>,
    /// The default as text, in the syntax the parser reads.
    pub default: String,
    /// What the parser accepts, in the words of its own refusal, in
    /// English and Chinese.
    pub allowed: Filled,
    /// Numeric bounds where the value is one number (inputs' `min`/`max`).
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// Whole numbers only (`step="1"`).
    pub integer: bool,
    /// The unit's symbol (`ms`), `None` for a value without one.
    pub unit: Option<Text>,
    /// The control's name, with its unit.
    pub label: Filled,
    pub help: Text,
    /// The flag's value as `--help` names it (`MS`).
    #[serde(skip)]
    pub arg: &'static str,
}

impl<P> Spec<P> {
    /// The catalog's entry, with the default and the refusal's words from
    /// the table's parser.
    pub fn entry(&self, default: String, allowed: Filled) -> Entry {
        let (min, max, integer) = self.bounds();
        Entry {
            key: self.key,
            flag: self.flag,
            default,
            allowed,
            min,
            max,
            integer,
            unit: self.unit.map(Unit::symbol),
            label: self.label(),
            help: self.help,
            arg: self.arg(),
        }
    }
}

/// A `--help` entry: `head` (`  --flag ARG`) in a column of `width`, then
/// `text` wrapped under that column at 80 characters.
pub fn help_block(head: &str, text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = if head.chars().count() + 2 > width {
        out.push_str(head);
        out.push('\n');
        " ".repeat(width)
    } else {
        format!("{head:<width$}")
    };
    for word in text.split(' ') {
        if line.chars().count() > width && line.chars().count() + 1 + word.chars().count() > 80 {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(width);
        } else if line.chars().count() > width {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

impl Entry {
    /// The `--help` line: the flag and its argument in a column of `width`,
    /// then the help, what is allowed and the default in brackets, wrapped
    /// under that column at 80 characters.
    pub fn help_line(&self, width: usize) -> String {
        let Some(flag) = self.flag else {
            return String::new();
        };
        let head = format!("  {flag} {}", self.arg).trim_end().to_string();
        help_block(&head, &self.help_text(), width)
    }

    /// The text of the `--help` line after its flag: the help, what is
    /// allowed and the default in brackets.
    fn help_text(&self) -> String {
        let default = if self.default.is_empty() {
            String::new()
        } else {
            format!(" [{}]", self.default)
        };
        let allowed = if self.allowed.en.is_empty() {
            String::new()
        } else {
            format!(" Allowed: {}.", self.allowed.en)
        };
        format!("{}{allowed}{default}", self.help.en)
    }

    /// The docs' table row: key, flag, default, unit, allowed, help.
    pub(crate) fn doc_row(&self) -> String {
        let code = |s: &str| format!("`{}`", s.replace('|', "\\|"));
        let flag = self.flag.map_or("—".to_string(), code);
        let default = if self.default.is_empty() {
            "—".to_string()
        } else {
            code(&self.default)
        };
        let unit = self.unit.map_or("—", |u| u.en);
        let text = |s: &str| s.replace('|', "\\|").replace('<', "&lt;");
        format!(
            "| `{}` | {flag} | {default} | {unit} | {} | {} |",
            self.key,
            text(&self.allowed.en),
            text(self.help.en)
        )
    }
}
