//! Your own tasks: a pasted or uploaded task list turned into a
//! [`Workload`].
//!
//! Two formats, detected from the first data line:
//!
//! - one duration in ms per line (every task arrives at t = 0);
//! - CSV `arrival_ms,duration_ms[,class]`, with an optional header line
//!   naming those columns.
//!
//! Blank lines and `#` comments (whole lines or the rest of a line) are
//! ignored; a UTF-8 byte-order mark and Windows line ends are accepted.
//! Classes come from the third column (at most [`MAX_CLASSES`] distinct
//! labels of at most [`MAX_LABEL_CHARS`] characters, surrounding double
//! quotes removed); tasks without one are in class `imported`. A label
//! may give its tasks a nice value for `eevdf` (`batch@nice=5`, −20 to 19;
//! the other policies ignore it).
//!
//! Limits: at most [`MAX_IMPORT_TASKS`] tasks (or the front end's limit,
//! if smaller) and [`MAX_IMPORT_BYTES`] of text;
//! durations from 0 to [`MAX_TASK_MS`], arrivals from 0 to
//! [`MAX_ARRIVAL_MS`]. Every error names the line.

use std::collections::HashMap;
use std::fmt;

use super::mix::{MAX_CLASSES, MAX_TASK_MS};
use super::Workload;
use crate::text::{Filled, Lang, Text};

/// Most tasks in one list.
pub const MAX_IMPORT_TASKS: usize = 1_000_000;
/// Most bytes of text in one list (20 MiB).
pub const MAX_IMPORT_BYTES: usize = 20 * 1024 * 1024;
/// Latest arrival, in ms (about 11.6 days).
pub const MAX_ARRIVAL_MS: f64 = 1e9;
/// Longest class label: room for a browser trace's task names
/// (`TaskQueueManager::ProcessTaskFromWorkQueue`); charts shorten what
/// does not fit and show the full name on hover.
pub const MAX_LABEL_CHARS: usize = 64;
/// The class of tasks whose line names none.
pub(crate) const DEFAULT_CLASS: &str = "imported";

/// A task list that could not be read; `line` is 1-based (serialises as
/// `{"line": 7, "message": "...", "message_zh": "..."}` for the page).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ImportError {
    pub line: Option<usize>,
    /// What is wrong (`Display` says it in English).
    #[serde(flatten, serialize_with = "crate::text::pair::message")]
    pub message: Filled,
}

impl ImportError {
    pub(crate) fn new(line: Option<usize>, message: impl Into<Filled>) -> Self {
        ImportError {
            line,
            message: message.into(),
        }
    }

    fn at(line: usize, message: impl Into<Filled>) -> Self {
        ImportError::new(Some(line), message)
    }

    fn whole(message: impl Into<Filled>) -> Self {
        ImportError::new(None, message)
    }

    /// The message in `lang` (without the line).
    pub fn message_in(&self, lang: Lang) -> &str {
        self.message.get(lang)
    }

    /// The whole refusal in `lang`: the line, then the message.
    pub fn said(&self, lang: Lang) -> String {
        const LINE: Text = Text::new("line {}: {}", "第 {} 行：{}");
        match self.line {
            Some(l) => LINE.fill(lang, &[&l.to_string(), self.message_in(lang)]),
            None => self.message_in(lang).to_string(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.said(Lang::En))
    }
}

impl std::error::Error for ImportError {}

/// Shortened, control characters escaped: file content is hostile input.
fn shown(text: &str) -> String {
    crate::error::shown(text)
}

/// A CSV line of another number of fields.
const FIELDS: Text = Text::new(
    "expected arrival_ms,duration_ms[,class] (2 or 3 fields), got {} fields in '{}'",
    "应为 arrival_ms,duration_ms[,class]（2 或 3 个字段），“{1}”中有 {0} 个字段",
);

/// What a number field of a line is: its name in messages.
const ARRIVAL: Text = Text::new("arrival", "到达时间");
const DURATION: Text = Text::new("duration", "时长");

fn number(line: usize, what: Text, text: &str, max: f64) -> Result<f64, ImportError> {
    const NUMBER: Text = Text::new(
        "{} '{}' must be a number of ms from 0 to {}",
        "{}“{}”应为 0 到 {} 之间的数（ms）",
    );
    let t = text.trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=max).contains(&v) => Ok(v),
        _ => Err(ImportError::at(
            line,
            Filled::each(|lang| NUMBER.fill(lang, &[what.get(lang), &shown(t), &max.to_string()])),
        )),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Durations,
    Csv,
}

const HEADER_ARRIVAL: [&str; 3] = ["arrival_ms", "arrival", "arrival ms"];
const HEADER_DURATION: [&str; 6] = [
    "duration_ms",
    "duration",
    "work_ms",
    "work",
    "duration ms",
    "ms",
];

fn is_header(fields: &[&str]) -> bool {
    let f = |i: usize| {
        fields
            .get(i)
            .map(|s| s.trim().trim_matches('"').to_ascii_lowercase())
    };
    match fields.len() {
        1 => f(0).is_some_and(|s| HEADER_DURATION.contains(&s.as_str())),
        2 | 3 => {
            f(0).is_some_and(|s| HEADER_ARRIVAL.contains(&s.as_str()))
                && f(1).is_some_and(|s| HEADER_DURATION.contains(&s.as_str()))
                && (fields.len() == 2 || f(2).is_some_and(|s| s == "class"))
        }
        _ => false,
    }
}

/// What a task list is and how large it may be, for the page's import
/// panel: at most `max_tasks` tasks (the front end's limit, if smaller).
pub(crate) fn import_help(max_tasks: usize) -> Filled {
    const HELP: Text = Text::new(
        "One duration in ms per line, or CSV arrival_ms,duration_ms[,class] (header optional). Up to {} tasks, {}.",
        "每行一个时长（ms），或 CSV：arrival_ms,duration_ms[,class]（表头可选）。最多 {} 个任务、{}。",
    );
    HELP.both(&[
        &max_tasks.min(MAX_IMPORT_TASKS).to_string(),
        &crate::error::fmt_mib(MAX_IMPORT_BYTES),
    ])
}

/// Refuses a list (or a file, `what`) of more than [`MAX_IMPORT_BYTES`]
/// before anything reads it.
pub(crate) fn check_bytes(what: Text, bytes: usize) -> Result<(), ImportError> {
    if bytes > MAX_IMPORT_BYTES {
        const TOO_LARGE: Text = Text::new(
            "{} is {} bytes; at most {} bytes ({}) are accepted",
            "{}有 {} 字节；最多接受 {} 字节（{}）",
        );
        return Err(ImportError::whole(Filled::each(|lang| {
            TOO_LARGE.fill(
                lang,
                &[
                    what.get(lang),
                    &bytes.to_string(),
                    &MAX_IMPORT_BYTES.to_string(),
                    &crate::error::fmt_mib(MAX_IMPORT_BYTES),
                ],
            )
        })));
    }
    Ok(())
}

/// Parses a task list (see the module documentation for the format).
pub fn parse_task_list(text: &str, max_tasks: u64) -> Result<Workload, ImportError> {
    check_bytes(Text::new("the task list", "任务列表"), text.len())?;
    let max_tasks =
        usize::try_from(max_tasks).map_or(MAX_IMPORT_TASKS, |m| m.min(MAX_IMPORT_TASKS));
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut format: Option<Format> = None;
    let mut w = Workload::default();
    let mut labels: HashMap<String, u16> = HashMap::new();
    // The previous line's class: most lines repeat it, and a label seen is
    // valid and numbered already.
    let mut last: Option<(&str, u16)> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        // The first three fields, and how many there are in all (a line
        // of more is refused): no allocation per line.
        let mut split = line.split(',');
        let mut held = [""; 3];
        let mut count = 0;
        for f in split.by_ref().take(held.len()) {
            held[count] = f;
            count += 1;
        }
        let count = count + split.count();
        let fields = &held[..count.min(held.len())];
        if format.is_none() {
            let detected = if count == 1 {
                Format::Durations
            } else {
                Format::Csv
            };
            format = Some(detected);
            if count <= held.len() && is_header(fields) {
                continue;
            }
        }
        if w.len() >= max_tasks {
            const TOO_MANY: Text = Text::new(
                "more than {} tasks; at most {0} are accepted",
                "超过 {} 个任务；最多接受 {0} 个",
            );
            return Err(ImportError::at(n, TOO_MANY.both(&[&max_tasks.to_string()])));
        }
        let (arrival, duration, class) = match (format, fields) {
            (Some(Format::Durations), [d]) => (0.0, number(n, DURATION, d, MAX_TASK_MS)?, None),
            (Some(Format::Durations), _) => {
                const ONE: Text = Text::new(
                    "expected one duration in ms, as on the first line, got '{}'",
                    "应与第一行一样只有一个以 ms 计的时长，实际为“{}”",
                );
                return Err(ImportError::at(n, ONE.both(&[&shown(line)])));
            }
            (_, [a, d]) => (
                number(n, ARRIVAL, a, MAX_ARRIVAL_MS)?,
                number(n, DURATION, d, MAX_TASK_MS)?,
                None,
            ),
            (_, [a, d, c]) if count == held.len() => (
                number(n, ARRIVAL, a, MAX_ARRIVAL_MS)?,
                number(n, DURATION, d, MAX_TASK_MS)?,
                Some(c.trim().trim_matches('"').trim()),
            ),
            _ => {
                return Err(ImportError::at(
                    n,
                    FIELDS.both(&[&count.to_string(), &shown(line)]),
                ));
            }
        };
        let label = match class {
            Some("") | None => DEFAULT_CLASS,
            Some(c) => c,
        };
        if let Some((_, k)) = last.filter(|&(seen, _)| seen == label) {
            w.arrival.push(arrival);
            w.work.push(duration);
            w.class.push(k);
            continue;
        }
        if label.chars().count() > MAX_LABEL_CHARS
            || label.chars().any(crate::error::is_hidden_char)
        {
            const LABEL: Text = Text::new(
                "class '{}' must be at most {} printable characters (no control or bidirectional formatting characters)",
                "类“{}”最多 {} 个可打印字符（不能有控制字符或双向格式字符）",
            );
            return Err(ImportError::at(
                n,
                LABEL.both(&[&shown(label), &MAX_LABEL_CHARS.to_string()]),
            ));
        }
        let k = match labels.get(label) {
            Some(&k) => k,
            None => {
                if super::mix::label_nice(label).is_err() {
                    const NICE: Text = Text::new(
                        "class '{}': @nice=N needs a whole number N from {} to {}",
                        "类“{}”：@nice=N 的 N 应为 {} 到 {} 之间的整数",
                    );
                    let (lo, hi) = (super::mix::NICE_RANGE.start(), super::mix::NICE_RANGE.end());
                    return Err(ImportError::at(
                        n,
                        NICE.both(&[&shown(label), &lo.to_string(), &hi.to_string()]),
                    ));
                }
                if labels.len() >= MAX_CLASSES {
                    const CLASSES: Text = Text::new(
                        "class '{}' would be class number {}; at most {} distinct classes are accepted",
                        "类“{}”将是第 {} 个类；最多接受 {} 个不同的类",
                    );
                    return Err(ImportError::at(
                        n,
                        CLASSES.both(&[
                            &shown(label),
                            &(MAX_CLASSES + 1).to_string(),
                            &MAX_CLASSES.to_string(),
                        ]),
                    ));
                }
                let k = labels.len() as u16;
                labels.insert(label.to_string(), k);
                w.class_labels.push(label.to_string());
                k
            }
        };
        last = Some((label, k));
        w.arrival.push(arrival);
        w.work.push(duration);
        w.class.push(k);
    }
    if w.is_empty() {
        return Err(ImportError::whole(Text::new(
            "the task list has no tasks: expected one duration in ms per line, or CSV arrival_ms,duration_ms[,class]",
            "任务列表里没有任务：应为每行一个以 ms 计的时长，或 CSV arrival_ms,duration_ms[,class]",
        )));
    }
    Ok(w)
}

/// A workload as a task list `parse_task_list` reads back exactly (Rust
/// writes the shortest text that round-trips each number).
pub fn task_list_text(w: &Workload) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(w.len() * 24 + 32);
    s.push_str("arrival_ms,duration_ms,class\n");
    for i in 0..w.len() {
        let label = w
            .class_labels
            .get(w.class[i] as usize)
            .map_or(DEFAULT_CLASS, String::as_str);
        let _ = writeln!(s, "{},{},{}", w.arrival[i], w.work[i], label);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLI_MAX: u64 = MAX_IMPORT_TASKS as u64;

    #[test]
    fn durations_one_per_line() {
        let w = parse_task_list("# mine\n5\n\n 12.5 # slow\r\n0\n", CLI_MAX).unwrap();
        assert_eq!(w.work, vec![5.0, 12.5, 0.0]);
        assert_eq!(w.arrival, vec![0.0; 3]);
        assert_eq!(w.class_labels, vec!["imported"]);
    }

    #[test]
    fn csv_with_header_and_classes() {
        let w = parse_task_list(
            "arrival_ms,duration_ms,class\n0,5,ui\n3,40,io\n3,1\n",
            CLI_MAX,
        )
        .unwrap();
        assert_eq!(w.arrival, vec![0.0, 3.0, 3.0]);
        assert_eq!(w.class, vec![0, 1, 2]);
        assert_eq!(w.class_labels, vec!["ui", "io", "imported"]);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_task_list("1\n2\n\n# c\n5\n6\n-3\n", CLI_MAX).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 7: duration '-3' must be a number of ms from 0 to 3600000"
        );
        let e = parse_task_list("0,1\n0,1,a,b\n", CLI_MAX).unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = parse_task_list("1\n0,1\n", CLI_MAX).unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(parse_task_list("\n# nothing\n", CLI_MAX).is_err());
        let e = parse_task_list("hello\n", CLI_MAX).unwrap_err();
        assert_eq!(e.line, Some(1));
    }

    /// The refusals of a line with too many fields, each format's own, with
    /// the count of all its fields; a header of four fields is no header.
    #[test]
    fn extra_fields_are_counted_and_refused() {
        let said = |text: &str| parse_task_list(text, CLI_MAX).unwrap_err().to_string();
        assert_eq!(
            said("0,1\n0,1,a,b,c\n"),
            "line 2: expected arrival_ms,duration_ms[,class] (2 or 3 fields), got 5 fields in '0,1,a,b,c'"
        );
        assert_eq!(
            said("arrival_ms,duration_ms,class,x\n0,1\n"),
            "line 1: expected arrival_ms,duration_ms[,class] (2 or 3 fields), got 4 fields in 'arrival_ms,duration_ms,class,x'"
        );
        assert_eq!(
            said("5\n1,2,3,4\n"),
            "line 2: expected one duration in ms, as on the first line, got '1,2,3,4'"
        );
    }

    /// Classes keep the numbers of their first line whichever order the
    /// lines come in, and a bad class is refused after a good one too.
    #[test]
    fn classes_numbered_by_first_appearance() {
        let w = parse_task_list("0,1,a\n0,1,a\n0,1,b\n0,1,a\n0,1\n0,1,b\n", CLI_MAX).unwrap();
        assert_eq!(w.class, vec![0, 0, 1, 0, 2, 1]);
        assert_eq!(w.class_labels, vec!["a", "b", "imported"]);
        let e = parse_task_list("0,1,a\n0,1,a\u{202e}\n", CLI_MAX).unwrap_err();
        assert_eq!(e.line, Some(2));
    }

    #[test]
    fn labels_with_bidi_controls_are_refused_and_shown_escaped() {
        let e = parse_task_list("0,5,\u{202E}evil\n", CLI_MAX).unwrap_err();
        assert_eq!(e.line, Some(1));
        assert!(e.message.en.contains("\\u{202e}"), "{}", e.message.en);
        assert!(!e.message.contains("\u{202E}"));
    }

    #[test]
    fn limits() {
        let many: String = (0..17).map(|i| format!("0,1,c{i}\n")).collect();
        let e = parse_task_list(&many, CLI_MAX).unwrap_err();
        assert_eq!(e.line, Some(17));
        let e = parse_task_list("1\n2\n3\n", 2).unwrap_err();
        assert_eq!(e.line, Some(3));
    }
}
