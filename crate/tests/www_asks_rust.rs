//! JavaScript asks Rust: no sentence, range, reading or field-name rule of
//! the domain is written in `www/`. Where `www_has_no_core_tables` looks
//! for copies of named tables, this test looks at the shape of what a leak
//! is, so a new one is caught without being listed first:
//!
//! - **a sentence** in a script: a string literal of words (the page's
//!   words are in `www/strings/`, everything else comes from the catalog
//!   or a result);
//! - **a figure in the page's words**: a number written into a string of
//!   `www/strings/` (a range, a threshold, an example of a syntax), or a
//!   placeholder named after a statistic (`{p95}`, `{mean}`: a reading of
//!   figures composed in JavaScript);
//! - **a field name built from parts** (`` b[`best_${m}`] ``,
//!   `r['best_' + m]`): the result's shape restated;
//! - **a period or threshold of a measurement**: a number added to a clock
//!   reading (`performance.now() + 50`) or given as a threshold.

use std::path::{Path, PathBuf};

/// Literals of words that are no sentence the visitor reads: faults of the
/// page's own code (a bug, never the visitor's input), reported as they
/// are. Each is `(file, text)`.
const FAULTS: &[(&str, &str)] = &[
    ("client.js", "unknown error"),
    ("helpers.js", "the helper failed"),
    ("io.js", "empty canvas"),
    ("jobs.js", "no task list ${list} here"),
    ("realrun-runner.js", "unknown yield primitive ${name}"),
    (
        "realrun-runner.js",
        "yield primitive ${yieldName} is not available",
    ),
    ("trace-jobs.js", "no trace is open"),
    ("worker-loop.js", "unknown job \"${job}\""),
];

/// Names of statistics: a placeholder named so is a figure of a result,
/// and a sentence around it is a reading Rust writes.
const STATISTICS: &[&str] = &["mean", "median", "min", "max"];

fn www() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../www")
}

/// `(name relative to www/, text)` of every script under `dir`.
fn scripts(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("www/ is readable") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            out.extend(scripts(&p));
        } else if p.extension().is_some_and(|x| x == "js") {
            let name = p
                .strip_prefix(www())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((name, std::fs::read_to_string(&p).unwrap()));
        }
    }
    out
}

/// Whether a line is a comment (the check reads code only).
fn comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("//") || t.starts_with('*') || t.starts_with("/*")
}

/// The quoted literals of a line, each with the text before it.
fn literals(line: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find(['\'', '"', '`']).map(|i| i + from) {
        let q = line[at..].chars().next().unwrap();
        let mut end = at + 1;
        let bytes = line.as_bytes();
        while end < line.len() && bytes[end] != q as u8 {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        if end >= line.len() {
            break;
        }
        out.push((&line[..at], &line[at + 1..end]));
        from = end + 1;
    }
    out
}

/// How many words of letters (two or more) `text` has outside `${…}` and
/// `{…}`.
fn words(text: &str) -> usize {
    let mut plain = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => plain.push(' '),
        }
    }
    plain
        .split(' ')
        .filter(|w| w.len() >= 2 && w.chars().all(|c| c.is_ascii_alphabetic()))
        .count()
}

/// Whether a literal is a sentence: two or more words separated by single
/// spaces, and not a class list, a selector or a media query.
fn sentence(before: &str, lit: &str) -> bool {
    let markup = [
        "className",
        "classList",
        "querySelector",
        "matchMedia",
        "closest(",
    ]
    .iter()
    .any(|m| before.trim_end().ends_with(&format!("{m}:")) || before.contains(m));
    let selector = lit.contains(['#', '[', '>', '=']) || lit.starts_with('(');
    !markup && !selector && words(lit) >= 2
}

/// Numbers standing alone in `text` (not part of a word like `p95` or
/// `arrival_ms`, not a placeholder), except 0: `t = 0` names the start.
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let part_of_word = |c: Option<&char>| {
                c.is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == '{' || *c == '}')
            };
            let before = start.checked_sub(1).and_then(|b| chars.get(b));
            let n: String = chars[start..i].iter().collect();
            if !part_of_word(before) && !part_of_word(chars.get(i)) && n != "0" {
                out.push(n);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The placeholders (`{name}`) of a string.
fn placeholders(text: &str) -> Vec<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(p, _)| p))
        .collect()
}

fn statistic(name: &str) -> bool {
    STATISTICS.contains(&name)
        || (name.len() > 1
            && name.starts_with('p')
            && name[1..].chars().all(|c| c.is_ascii_digit()))
}

/// Every `(file:line: what: line)` of a leak in a script of `www/`
/// (`strings/…` for the page's words).
fn leaks(name: &str, text: &str) -> Vec<String> {
    let file = name.rsplit('/').next().unwrap_or(name);
    let words_table = name.starts_with("strings/");
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if comment(line) {
            continue;
        }
        let at = |what: &str| format!("{name}:{}: {what}: {}", i + 1, line.trim());
        for (before, lit) in literals(line) {
            if words_table {
                // A table line is `'key': 'text',`: the key is no text.
                if before.trim().is_empty() {
                    continue;
                }
                if let Some(n) = numbers(lit).first() {
                    found.push(at(&format!("the number {n} in the page's words")));
                }
                if let Some(p) = placeholders(lit).into_iter().find(|p| statistic(p)) {
                    found.push(at(&format!("a reading of {{{p}}} composed in JavaScript")));
                }
            } else if sentence(before, lit) && !FAULTS.contains(&(file, lit)) {
                found.push(at(&format!("the sentence '{lit}'")));
            }
        }
        if words_table {
            continue;
        }
        let code: String = {
            // Field names built from parts: `x[`a_${b}`]`, `x['a_' + b]`.
            let squeezed: String = line.split_whitespace().collect();
            squeezed
        };
        if code.contains("[`") && code.contains("${") && code.contains("`]")
            || code.contains("['") && code.contains("'+")
        {
            found.push(at("a field name built from parts"));
        }
        for clock in ["now()+", "now+"] {
            if let Some(p) = code.find(clock) {
                if code[p + clock.len()..].starts_with(|c: char| c.is_ascii_digit()) {
                    found.push(at("a period added to a clock reading"));
                }
            }
        }
        if let Some(p) = code.find("Threshold:") {
            if code[p + "Threshold:".len()..].starts_with(|c: char| c.is_ascii_digit()) {
                found.push(at("a measurement's threshold"));
            }
        }
    }
    found
}

#[test]
fn the_check_finds_the_leaks_of_each_kind() {
    // Lines as they once were in www/ (sweep.js, realrun-runner.js,
    // strings/sweep.js, strings/realrun.js, strings/page.js).
    let script = "const best = sum.best.map((b) => (b.depends_on_quantum ? b[`best_${m}`].quantum : null));\n\
                  let due = performance.now() + 50;\n\
                  due = now + 50;\n\
                  observe('event', m.event, { durationThreshold: 16 });\n\
                  const v = r['best_' + m];\n\
                  box.textContent = 'Switch cost is included in every run';";
    let found = leaks("sweep.js", script);
    for line in 1..=6 {
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(&format!("sweep.js:{line}:"))),
            "line {line} not caught: {found:?}"
        );
    }
    let table = "    'sweep.stats.value': 'Over {n} seeds, {policy}\\'s {metric} is {p50} ms at the median (p5 {p5} ms).',\n\
                 'sweep.best': '{policy}: best p95 at {q} ms ({v} ms), best mean at {qm} ms',\n\
                 'real.yield.timeout': 'setTimeout(0) (clamped to 4 ms when nested)',\n\
                 'arrivals.hint': 't0, poisson:0.9 or burst:50@100',\n\
                 'sweep.cs': 'Switch cost {mean} ms per switch is included.',";
    let found = leaks("strings/sweep.js", table);
    for line in [1, 3, 4, 5] {
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(&format!("strings/sweep.js:{line}:"))),
            "line {line} not caught: {found:?}"
        );
    }
    // The page's own words, markup and plumbing are no leak.
    let fine = "const li = el('li', { className: 'mix-row custom' });\n\
                $('#sweep-status-text').textContent = t('sweep.done.seeds', { n, ms });\n\
                document.querySelectorAll('select, input, button');\n\
                matchMedia('(prefers-color-scheme: dark)');\n\
                performance.mark('tailslice:sweep:start');\n\
                const r = sum.readings[m];\n\
                // A comment may say 50 ms and name `best_${m}`.\n\
                due = now + period;";
    assert_eq!(leaks("sweep.js", fine), Vec::<String>::new());
    let words = "    'sweep.done.seeds': '{n} seeds in {ms} ms',\n\
                 'trace.t0': 'all at t = 0 (instead of each task at its recorded start)',\n\
                 'sweep.axis.latency': '{metric} latency (ms)',";
    assert_eq!(leaks("strings/sweep.js", words), Vec::<String>::new());
}

#[test]
fn www_holds_no_sentence_range_reading_or_field_rule() {
    let files = scripts(&www());
    assert!(files.len() > 20, "www/ has its scripts: {}", files.len());
    let found: Vec<String> = files.iter().flat_map(|(n, t)| leaks(n, t)).collect();
    assert!(
        found.is_empty(),
        "www/ holds knowledge Rust should send (the catalog, a result, a plan):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_listed_fault_is_still_in_www() {
    // A fault fixed or reworded leaves its entry behind: the list stays
    // exactly what it excuses.
    let files = scripts(&www());
    for (file, text) in FAULTS {
        assert!(
            files
                .iter()
                .any(|(n, t)| n.ends_with(file) && t.contains(text)),
            "{file} no longer says '{text}': drop it from FAULTS"
        );
    }
}
