//! What is wrong with a trace file is said in the reader's language: every
//! `TraceError` has a Chinese message with no English sentence in it, and
//! `simulate --trace-in FILE --lang zh` prints that message (while the
//! English line stays as it was without `--lang`).

use std::io::Write;
use std::path::PathBuf;

use serde_json::json;
use tailslice::text::Lang;
use tailslice::trace::{import_trace, TraceOptions};

mod cli_run;
use cli_run::tailslice;

/// Words that stay as they are in a Chinese message: format, field and
/// event names, units.
const KEPT: [&str; 25] = [
    "devtools",
    "timeline",
    "disabled",
    "default",
    "type",
    "children",
    "pid",
    "tid",
    "dur",
    "name",
    "CPU",
    "JSON",
    "trace",
    "Trace",
    "Event",
    "gzip",
    "UTF",
    "traceEvents",
    "cpuprofile",
    "DevTools",
    "Timeline",
    "Chrome",
    "RunTask",
    "CrRendererMain",
    "MiB",
];

/// The runs of three or more ASCII letters in `text` that are not
/// [`KEPT`]: English words where Chinese was expected.
fn english_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphabetic() {
            word.push(c);
            continue;
        }
        if word.len() >= 3 && !KEPT.contains(&word.as_str()) {
            words.push(word.clone());
        }
        word.clear();
    }
    words
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn a_trace() -> Vec<u8> {
    let ev: Vec<_> = (0..50)
        .map(|i| json!({"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": i * 1000, "dur": 500}))
        .chain([json!({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}})])
        .collect();
    serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap()
}

/// The four kinds of bad file a visitor meets, then the rest of the
/// reader's refusals.
fn bad_files() -> Vec<(&'static str, Vec<u8>)> {
    let trace = a_trace();
    let gz = gzip(&trace);
    vec![
        ("empty", Vec::new()),
        ("not JSON", b"hello, this is a text file\n".to_vec()),
        ("cut JSON", trace[..trace.len() / 2].to_vec()),
        ("cut gzip", gz[..gz.len() / 2].to_vec()),
        ("bad JSON", b"{\"traceEvents\": [}".to_vec()),
        ("not UTF-8", b"[\"\xff\xfe\"]".to_vec()),
        (
            "cpuprofile",
            br#"{"nodes": [], "samples": [], "startTime": 0}"#.to_vec(),
        ),
        ("object", br#"{"a": 1, "b": 2}"#.to_vec()),
        ("no events", b"[]".to_vec()),
        ("only numbers", b"[1, 2, 3]".to_vec()),
        (
            "legacy",
            br#"[{"type": "Program", "children": []}]"#.to_vec(),
        ),
        ("traceEvents map", br#"{"traceEvents": {}}"#.to_vec()),
        (
            "bad pid",
            br#"[{"ph": "X", "name": "RunTask", "pid": "a", "tid": 1, "ts": 0, "dur": 1}]"#
                .to_vec(),
        ),
        (
            "no ts",
            br#"[{"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "dur": 1}]"#.to_vec(),
        ),
        (
            "negative dur",
            br#"[{"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": 0, "dur": -1}]"#.to_vec(),
        ),
        (
            "ph number",
            br#"[{"ph": 1, "name": "RunTask", "pid": 1, "tid": 1, "ts": 0}]"#.to_vec(),
        ),
        (
            "no tasks",
            br#"[{"ph": "X", "name": "Paint", "pid": 1, "tid": 1, "ts": 0, "dur": 1}]"#.to_vec(),
        ),
        (
            "no main thread",
            br#"[{"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": 0, "dur": 1}]"#.to_vec(),
        ),
    ]
}

#[test]
fn every_trace_error_is_chinese_in_chinese() {
    for (kind, bytes) in bad_files() {
        let e = import_trace(&bytes, &TraceOptions::default())
            .err()
            .unwrap_or_else(|| panic!("{kind}: imported"));
        let zh = e.message(Lang::Zh);
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{kind}: {zh}"
        );
        let english = english_words(zh);
        assert!(english.is_empty(), "{kind}: {english:?} in {zh}");
        assert_eq!(e.to_string(), e.message(Lang::En), "{kind}");
        assert_ne!(e.message(Lang::En), zh, "{kind}");
    }
}

fn file(name: &str, bytes: &[u8]) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("trace_errors_zh");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn simulate_says_what_is_wrong_with_the_file_in_lang() {
    says_what_is_wrong_in_lang("simulate");
}

#[test]
fn responsiveness_says_what_is_wrong_with_the_file_in_lang() {
    says_what_is_wrong_in_lang("responsiveness");
}

fn says_what_is_wrong_in_lang(command: &str) {
    for (i, (kind, bytes)) in bad_files().into_iter().take(4).enumerate() {
        let path = file(&format!("{command}-bad-{i}.json"), &bytes);
        let zh = tailslice(&[command, "--trace-in", &path, "--lang", "zh"]);
        assert_eq!(zh.status.code(), Some(2), "{kind}");
        let line = String::from_utf8_lossy(&zh.stderr).into_owned();
        assert_eq!(line.lines().count(), 1, "{kind}: {line}");
        // The flag and the path are the user's own; what follows is Chinese.
        let (head, why) = line
            .split_once("无效：")
            .unwrap_or_else(|| panic!("{kind}: {line}"));
        assert_eq!(head, format!("error: --trace-in '{path}' "), "{kind}");
        let imported = import_trace(&bytes, &TraceOptions::default()).unwrap_err();
        assert_eq!(why.trim_end(), imported.message(Lang::Zh), "{kind}");
        assert!(english_words(why).is_empty(), "{kind}: {line}");
        // Without --lang the line is the English one.
        let en = tailslice(&[command, "--trace-in", &path]);
        assert_eq!(en.status.code(), Some(2), "{kind}");
        assert_eq!(
            String::from_utf8_lossy(&en.stderr),
            format!("error: invalid --trace-in '{path}': {imported}\n"),
            "{kind}"
        );
    }
}
