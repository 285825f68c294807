//! Where the repository and the built page are.

use std::path::{Path, PathBuf};

use crate::Result;

/// Root of the repository (the workspace).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// The test pages (fixtures of the e2e tests, not part of the product's
/// page): `<repo>/tests/pages`.
pub fn test_pages_dir() -> PathBuf {
    repo_root().join("tests").join("pages")
}

/// The built site: `$TAILSLICE_DIST` or `<repo>/dist`.
pub fn dist_dir() -> PathBuf {
    std::env::var_os("TAILSLICE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("dist"))
}

/// Checks that `dist/` holds a built page, with a message that says how to make one.
pub fn require_dist() -> Result<PathBuf> {
    let dist = dist_dir();
    if !dist.join("index.html").is_file() {
        return Err(format!(
            "no built page at {}/index.html. The end-to-end tests run against the \
             output of Trunk: run `trunk build` (after `source scripts/env.sh`) or \
             the whole suite with `./scripts/test.sh`",
            dist.display()
        )
        .into());
    }
    let has_wasm = std::fs::read_dir(&dist)?
        .filter_map(|e| e.ok())
        .any(|e| e.path().extension().is_some_and(|x| x == "wasm"));
    if !has_wasm {
        return Err(format!(
            "{} has no .wasm file: the Trunk build looks incomplete; run `trunk build` again",
            dist.display()
        )
        .into());
    }
    Ok(dist)
}
