//! A trace that cannot be opened is explained in the reader's language:
//! with `lang=zh`, an empty file, a file that is not JSON, a JSON file cut
//! short and a cut `.json.gz` (inflated by the browser) each get a message
//! with no English sentence in it; switching to English says the same in
//! English.

use std::io::Write;
use std::time::Duration;

use serde_json::json;
use tailslice_e2e::page::{open_ready, open_trace};
use tailslice_e2e::{artifacts_dir, Browser, Result};

const T: Duration = Duration::from_secs(60);

/// Words that stay as they are in a Chinese message: format and field
/// names.
const KEPT: [&str; 5] = ["JSON", "trace", "Trace", "Event", "gzip"];

/// The runs of three or more ASCII letters in `text` that are not
/// [`KEPT`].
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

fn a_trace() -> Vec<u8> {
    let ev: Vec<_> = (0..200)
        .map(|i| json!({"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": i * 1000, "dur": 500}))
        .collect();
    serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap()
}

#[tokio::test]
async fn bad_trace_files_are_explained_in_chinese() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?lang=zh").await?;
    let trace = a_trace();
    let gz = {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(&trace)?;
        enc.finish()?
    };
    let bad: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty.json", Vec::new(), "empty"),
        (
            "notes.json",
            b"these are my notes, not a trace\n".to_vec(),
            "not a trace",
        ),
        ("cut.json", trace[..trace.len() / 2].to_vec(), "cut short"),
        ("cut.json.gz", gz[..gz.len() / 2].to_vec(), "gzip"),
    ];
    let dir = artifacts_dir();
    for (name, bytes, english) in bad {
        let p = dir.join(format!("zh-bad-{name}"));
        std::fs::write(&p, bytes)?;
        assert_eq!(open_trace(&b, &p, T).await?, "error", "{name}");
        let zh = b.text("#trace-error").await?;
        assert!(zh.contains("无法打开这个 trace"), "{name}: {zh}");
        let words = english_words(&zh);
        assert!(words.is_empty(), "{name}: {words:?} in {zh}");
        // The same error in English once the reader switches.
        b.eval_js("const s = document.querySelector('#lang'); s.value = 'en'; s.dispatchEvent(new Event('change')); return 0;")
            .await?;
        let en = b.text("#trace-error").await?;
        assert!(en.contains(english), "{name}: {en}");
        b.eval_js("const s = document.querySelector('#lang'); s.value = 'zh'; s.dispatchEvent(new Event('change')); return 0;")
            .await?;
        assert_eq!(b.text("#trace-error").await?, zh, "{name}");
    }
    b.finish().await
}
