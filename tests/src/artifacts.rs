//! What the tests leave behind for a person to look at: screenshots and
//! recorded files in `tests/artifacts/` (gitignored).

use std::path::{Path, PathBuf};

use crate::{Browser, Result};

/// Where screenshots and other outputs go: `tests/artifacts/`.
pub fn artifacts_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("artifacts");
    std::fs::create_dir_all(&dir).expect("create tests/artifacts");
    dir
}

impl Browser {
    /// Saves a PNG of the viewport to `tests/artifacts/<name>.png`; returns its path.
    pub async fn screenshot(&self, name: &str) -> Result<PathBuf> {
        let png = self.client.screenshot().await?;
        let path = artifacts_dir().join(format!("{name}.png"));
        std::fs::write(&path, png)?;
        eprintln!("screenshot: {}", path.display());
        Ok(path)
    }
}
