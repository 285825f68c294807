//! The page knows nothing the core does not tell it: no copy of a core
//! table (policies and their titles, the figures, the thresholds, the
//! mix's class limit, "does this policy use the quantum", QoS names,
//! machine presets, the `lang` refusal, the p50 best-quantum statistic)
//! may come back into `www/`, and no domain name either: every policy,
//! scenario, thread-state and figure name is read off the core's own
//! tables here, and JavaScript that spells one is a copy of the core's
//! knowledge. They come from Rust's `catalog()`, the result objects and
//! the real run's plan (see `crate/src/catalog.rs`). The panels share one
//! DOM helper module (`www/dom.js`).

use std::path::{Path, PathBuf};

/// Text that only a copied table would contain, and what it copies.
const FORBIDDEN: &[(&str, &str)] = &[
    ("POLICIES", "the policy list (catalog().policies)"),
    (
        "POLICY_TITLES",
        "policy titles (catalog().policies[].title)",
    ),
    ("TITLES =", "policy titles (catalog().policies[].title)"),
    ("'FIFO'", "a policy title"),
    ("'SRPT'", "a policy title"),
    ("'MLFQ'", "a policy title"),
    ("'sjf'", "a policy name"),
    ("'srpt'", "a policy name"),
    ("'mlfq'", "a policy name (uses-the-quantum copy)"),
    ("METRICS =", "a metric list (catalog().metrics)"),
    ("['mean', 'p50'", "a metric list"),
    ("['p95', 'p50'", "a metric list"),
    (
        "MAX_CLASSES",
        "the mix's class limit (catalog().limits.max_classes)",
    ),
    ("MAX_POLICIES", "the page's policy limit (catalog().limits)"),
    ("PASTE_MAX_CHARS", "a threshold (catalog().limits)"),
    ("GANTT_PART", "a threshold (catalog().limits)"),
    ("LARGE_RESULT_TASKS", "a threshold (catalog().limits)"),
    ("20000", "a threshold (catalog().limits)"),
    ("300000", "a threshold (catalog().limits)"),
    ("3000000", "a threshold (catalog().limits)"),
    ("20971520", "the import size limit (fileTooLarge)"),
    ("langParamError", "the lang refusal (parseQuery)"),
    (
        "expected en or zh",
        "the lang refusal's sentence (Lang::parse)",
    ),
    (
        "the lowest point",
        "the p50 best quantum (sweep::best_quanta)",
    ),
    ("'userInteractive'", "QoS names (catalog().qos)"),
    ("'xeon-w'", "machine presets (catalog().machines)"),
    (
        "'reading.vs'",
        "the comparison sentence (explain::comparison)",
    ),
    (
        "'timeout', 'raf'",
        "the yield primitives (catalog().real_yields)",
    ),
];

/// The domain's names, read off the core's own tables.
struct Names {
    /// Policy names (`fifo`, …): never quoted, never a property
    /// (`by.fifo`), never part of an identifier (`fifo_slices`, `fifoPass`).
    policies: Vec<String>,
    /// Names spelled only inside quotes in code (policy titles, thread
    /// states, figures): never a whole quoted literal, nor a text key
    /// ending in one (`'sc.state.blocked'`).
    quoted: Vec<String>,
    /// Scenario names (`feishu-demo`): nowhere at all.
    scenarios: Vec<String>,
}

fn names() -> Names {
    use tailslice::experiment::metric::Metric;
    use tailslice::experiment::reading::policy_title;
    use tailslice::policy::PolicyKind;
    use tailslice::sim::trace::State;
    use tailslice::text::Lang;
    let policies: Vec<String> = PolicyKind::ALL
        .iter()
        .map(|p| p.name().to_string())
        .collect();
    let mut quoted: Vec<String> = PolicyKind::ALL
        .iter()
        .map(|p| policy_title(p.name(), Lang::En))
        .collect();
    quoted.extend(State::ALL.iter().map(|s| format!("{s:?}").to_lowercase()));
    quoted.extend(Metric::ALL.iter().map(|m| m.name().to_string()));
    let scenarios = tailslice::scenario::registry::names()
        .into_iter()
        .map(str::to_string)
        .collect();
    Names {
        policies,
        quoted,
        scenarios,
    }
}

/// The page's own status words that are also a thread state's name: the
/// page's state hooks (`body[data-state]`, `#real-status[data-state]`,
/// `body[data-sweep]`, public test hooks) say `running` for "busy".
const PAGE_STATUS: &[&str] = &["running"];

/// Whether `literal` on `line` is the page's own status: a status word
/// written to a state hook, or a status line's text key (`*.status.*`).
fn page_status(line: &str, literal: &str) -> bool {
    let hook = ["dataset.state", "setState(", "dataset.sweep"]
        .iter()
        .any(|h| line.contains(h));
    (hook && PAGE_STATUS.contains(&literal)) || literal.contains(".status.")
}

/// Quoted literals of a line (`'…'`, `"…"`, `` `…` ``), without quotes.
fn literals(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(['\'', '"', '`']) {
        let q = rest[at..].chars().next().unwrap();
        let after = &rest[at + 1..];
        match after.find(q) {
            Some(end) => {
                out.push(&after[..end]);
                rest = &after[end + 1..];
            }
            None => break,
        }
    }
    out
}

/// Identifier parts of a line: words split at `_` and at camelCase humps
/// (`fifoSlices` → `fifo`, `Slices`), each with whether a `.` precedes it.
fn identifier_parts(line: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
            {
                i += 1;
            }
            let word = &line[start..i];
            let dotted = start > 0 && bytes[start - 1] == b'.';
            let mut part = String::new();
            for ch in word.chars() {
                if ch == '_' || ch == '$' || (ch.is_ascii_uppercase() && !part.is_empty()) {
                    if !part.is_empty() {
                        out.push((std::mem::take(&mut part), dotted));
                    }
                    if ch == '_' || ch == '$' {
                        continue;
                    }
                }
                part.push(ch);
            }
            if !part.is_empty() {
                out.push((part, dotted));
            }
        } else if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Every `(file, line number, what)` a domain name shows up at.
fn names_in(name: &str, text: &str, n: &Names) -> Vec<String> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = |what: String| format!("{name}:{}: {what}: {}", i + 1, line.trim());
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with('*') || code.starts_with("/*") {
            continue;
        }
        for lit in literals(line) {
            for q in n.policies.iter().chain(&n.quoted) {
                let key = format!(".{q}");
                if (lit == q || lit.ends_with(&key)) && !page_status(line, lit) {
                    found.push(at(format!("the name '{q}' in a literal")));
                }
            }
        }
        for (part, dotted) in identifier_parts(line) {
            if n.policies.contains(&part) {
                let how = if dotted {
                    "a property"
                } else {
                    "an identifier"
                };
                found.push(at(format!("the policy name '{part}' as {how}")));
            }
        }
        for s in &n.scenarios {
            if line.contains(s.as_str()) {
                found.push(at(format!("the scenario name '{s}'")));
            }
        }
    }
    found
}

/// Files other than `dom.js` that define a DOM helper of their own.
fn own_dom_helpers(name: &str, text: &str) -> Vec<String> {
    if name == "dom.js" {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for def in [
            "const $ =",
            "let $ =",
            "function $(",
            "function el(",
            "const el =",
            "function sizeCanvas(",
            "const sizeCanvas =",
        ] {
            if line.contains(def) {
                found.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    found
}

fn www() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../www")
}

fn js_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("www/ is readable") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            js_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "js" || x == "html") {
            out.push(p);
        }
    }
}

/// Every `(file, line number, what)` a copied table shows up at.
fn copies_in(name: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    // A number counts only on its own (20000 is a threshold, 200000 in a
    // preset's query is not).
    let whole = |line: &str, needle: &str| {
        line.match_indices(needle).any(|(i, _)| {
            let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
            !needle.starts_with(|c: char| c.is_ascii_digit())
                || (!digit(line[..i].chars().next_back())
                    && !digit(line[i + needle.len()..].chars().next()))
        })
    };
    for (n, line) in text.lines().enumerate() {
        for (needle, what) in FORBIDDEN {
            if whole(line, needle) {
                found.push(format!("{name}:{}: {what}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn the_check_finds_the_tables_it_looks_for() {
    // The old app.js's lines are caught (a check that finds nothing in
    // anything would pass below too).
    let old = "const POLICIES = ['fifo', 'rr', 'sjf', 'srpt', 'mlfq'];\n\
               const METRICS = ['mean', 'p50', 'p90', 'p95', 'p99', 'max', 'done_within'];\n\
               if (row.policy === 'rr' || row.policy === 'mlfq') x();\n\
               const MAX_CLASSES = 16;";
    let found = copies_in("old.js", old);
    for line in 1..=4 {
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(&format!("old.js:{line}:"))),
            "line {line} not caught: {found:?}"
        );
    }
    assert!(copies_in("new.js", "for (const p of catalog().policies) {}").is_empty());
}

/// `www/`'s scripts and markup as `(name relative to www/, text)`.
fn www_files() -> Vec<(String, String)> {
    let root = www();
    let mut files = Vec::new();
    js_files(&root, &mut files);
    assert!(files.len() > 10, "www/ has its files: {files:?}");
    files
        .iter()
        .map(|f| {
            let name = f
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (name, std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

#[test]
fn www_holds_no_copy_of_a_core_table() {
    let mut found = Vec::new();
    for (name, text) in www_files() {
        found.extend(copies_in(&name, &text));
    }
    assert!(
        found.is_empty(),
        "copies of core tables in www/ (use catalog()):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_name_check_finds_what_it_looks_for() {
    let n = names();
    assert!(n.policies.iter().any(|p| p == "xnu"), "{:?}", n.policies);
    assert!(n.quoted.iter().any(|q| q == "preempted"), "{:?}", n.quoted);
    assert!(
        n.quoted.iter().any(|q| q == "done_within"),
        "{:?}",
        n.quoted
    );
    assert!(
        n.scenarios.iter().any(|s| s == "feishu-demo"),
        "{:?}",
        n.scenarios
    );
    let old = "const off = policy === 'fifo' ? 0 : 2 * job.info.fifo_slices;\n\
               if (i > 0 && by.rr) x();\n\
               const count = info.rrSlices;\n\
               ['running', 'runnable', 'preempted'].forEach((s) => x(s));\n\
               'sc.state.blocked': 'blocked',\n\
               if (m === 'done_within') y();\n\
               if (s === 'm1-compress') z();\n\
               th.append(policyTitle('FIFO'));";
    let found = names_in("old.js", old, &n);
    for line in 1..=8 {
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(&format!("old.js:{line}:"))),
            "line {line} not caught: {found:?}"
        );
    }
    // The page's own words are not domain names: its status hooks, a
    // sentence that names a policy, a comment, a name Rust sent.
    let fine = "document.body.dataset.state = runs.busy ? 'running' : s;\n\
                setState('running', t('real.starting'));\n\
                $('#status').textContent = t('sc.status.running');\n\
                'real.help': 'FIFO (each task to completion, no yield) and sliced',\n\
                // Rust's plan names the passes (fifo, rr).\n\
                const err = fail(row.policy, pass.label);\n\
                const { tasks, lengths } = pass;";
    let found = names_in("new.js", fine, &n);
    assert!(found.is_empty(), "{found:?}");
    // A status line still may not spell another state, nor a policy.
    assert!(!names_in("x.js", "s.dataset.state = 'preempted';", &n).is_empty());
    assert!(!names_in("x.js", "setState('rr');", &n).is_empty());
    assert_eq!(
        own_dom_helpers("panel.js", "const $ = (s) => 1;\nfunction el(tag) {}").len(),
        2
    );
    assert!(own_dom_helpers("dom.js", "export const $ = (s) => 1;").is_empty());
}

#[test]
fn www_spells_no_policy_scenario_state_or_figure_name() {
    let n = names();
    let found: Vec<String> = www_files()
        .iter()
        .flat_map(|(name, text)| names_in(name, text, &n))
        .collect();
    assert!(
        found.is_empty(),
        "domain names in www/ (let Rust send them: the catalog, the result, the plan):\n{}",
        found.join("\n")
    );
}
