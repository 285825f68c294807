//! The crate's layers point down only: each top-level module of
//! `crate/src` may use modules of its own layer or of layers below it, and
//! no two modules use each other, directly or through others. The layers
//! are the ones `src/lib.rs` describes; a new top-level module must be
//! placed in one here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom to top.
const LAYERS: &[&[&str]] = &[
    &[
        "error",
        "param_spec",
        "text",
        "markup",
        "stats",
        "rng",
        "query_string",
        "huge_pages",
    ],
    &["sim"],
    &["policy"],
    &["workload", "trace"],
    &["experiment", "responsiveness", "scenario", "embed"],
    &["realrun", "catalog", "chart", "kernel", "params"],
    &["web", "cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments, string literals and unit
/// tests (tests may reach anywhere).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut kept = String::new();
        let mut in_string = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if in_string => {
                    chars.next();
                }
                '"' => in_string = !in_string,
                '/' if !in_string && chars.peek() == Some(&'/') => break,
                _ if in_string => {}
                _ => kept.push(c),
            }
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// Top-level modules named after `crate::` in `code`.
fn uses(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for part in inner.split(',') {
                found.insert(ident(part));
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found.retain(|m| !m.is_empty());
    found
}

#[test]
fn modules_only_use_their_own_layer_or_lower_and_never_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(layer) = layer_of(&module) else {
            problems.push(format!(
                "{module} is in no layer: add it to LAYERS in tests/module_layers.rs"
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for used in uses(&code_of(&text)) {
            if used == module {
                continue;
            }
            match layer_of(&used) {
                Some(l) if l <= layer => {
                    edges.entry(module.clone()).or_default().insert(used);
                }
                Some(_) => problems.push(format!(
                    "{} uses crate::{used}, a layer above {module}",
                    rel.display()
                )),
                None => {} // not a top-level module (e.g. a macro path)
            }
        }
    }
    // A circle within a layer: depth-first search for a back edge.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        problems: &mut Vec<String>,
    ) {
        if let Some(at) = path.iter().position(|p| p == m) {
            problems.push(format!("a circle: {} -> {m}", path[at..].join(" -> ")));
            return;
        }
        if !done.insert(m.to_string()) {
            return;
        }
        path.push(m.to_string());
        for next in edges.get(m).into_iter().flatten() {
            visit(next, edges, path, done, problems);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    for m in edges.keys() {
        visit(m, &edges, &mut Vec::new(), &mut done, &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_sees_uses_and_ignores_comments_strings_and_tests() {
    let code = code_of(
        "use crate::sim::Qos; // crate::web\nlet s = \"crate::cli\";\nuse crate::{policy, text::Lang};\n#[cfg(test)]\nuse crate::scenario;",
    );
    let found: Vec<String> = uses(&code).into_iter().collect();
    assert_eq!(found, ["policy", "sim", "text"]);
}
