//! `pub(crate)` by default: a function, constant or static outside `web/`
//! and `cli/` is `pub` only when another crate names it — the CLI binary
//! (`main.rs`, `cli/`), these tests, the end-to-end tests, the fuzz
//! targets or the two other wasm modules. Types are left out: a type may
//! need `pub` only because a public signature or field holds it.
//!
//! The check is by name: an item whose name another crate happens to use
//! for something else passes unseen, but an item no other crate names is
//! certainly not used there.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// `pub` for a reason other than another crate: used only by the
/// Linux-only `kernel/`, which the build that judges dead code (the page's
/// full wasm32 library) leaves out, so `pub(crate)` would be called dead.
const PUBLIC_FOR_DEAD_CODE: &[&str] = &["real_time"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every identifier in `text`.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The name of a `pub fn`, `pub const` or `pub static` declared on `line`.
fn public_value(line: &str) -> Option<&str> {
    let mut rest = line.trim_start().strip_prefix("pub ")?;
    loop {
        let (word, tail) = rest.split_once(' ')?;
        match word {
            "const" if tail.starts_with("fn ") || tail.starts_with("unsafe ") => rest = tail,
            "unsafe" | "async" | "extern" => rest = tail,
            "fn" | "const" | "static" => return words(tail).next(),
            _ => return None,
        }
    }
}

#[test]
fn every_public_function_and_constant_is_named_by_another_crate() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = crate_dir.parent().unwrap();
    let src = crate_dir.join("src");

    let mut others = vec![src.join("main.rs")];
    rust_files(&src.join("cli"), &mut others);
    for dir in [
        "crate/tests",
        "crate/fuzz/src",
        "tests",
        "trace-web/src",
        "worker-web/src",
    ] {
        rust_files(&root.join(dir), &mut others);
    }
    let mut named: HashSet<String> = HashSet::new();
    for path in &others {
        let text = std::fs::read_to_string(path).unwrap();
        named.extend(words(&text).map(str::to_string));
    }
    assert!(named.contains("simulate_on"), "the other crates were read");

    let mut core = Vec::new();
    rust_files(&src, &mut core);
    let mut unnamed = Vec::new();
    for path in &core {
        let rel = path.strip_prefix(&src).unwrap();
        let top = rel.components().next().unwrap().as_os_str();
        if top == "web" || top == "cli" || rel == Path::new("main.rs") || rel == Path::new("lib.rs")
        {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let Some(name) = public_value(line) else {
                continue;
            };
            if !named.contains(name) && !PUBLIC_FOR_DEAD_CODE.contains(&name) {
                unnamed.push(format!("crate/src/{}:{}: {name}", rel.display(), i + 1));
            }
        }
    }
    assert!(
        unnamed.is_empty(),
        "no other crate names these; make them pub(crate):\n{}",
        unnamed.join("\n")
    );
}

#[test]
fn a_declaration_is_read_whatever_its_qualifiers() {
    assert_eq!(public_value("    pub fn run(&self) {"), Some("run"));
    assert_eq!(public_value("pub const MAX: u32 = 1;"), Some("MAX"));
    assert_eq!(public_value("pub const fn ids<P>() {"), Some("ids"));
    assert_eq!(
        public_value("pub static TABLE: [u8; 2] = [0, 1];"),
        Some("TABLE")
    );
    assert_eq!(public_value("pub unsafe fn raw() {}"), Some("raw"));
    assert_eq!(public_value("pub(crate) fn hidden() {}"), None);
    assert_eq!(public_value("pub struct Shown;"), None);
    assert_eq!(public_value("pub use a::b;"), None);
}
