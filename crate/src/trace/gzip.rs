//! Inflating a `.json.gz` trace on native targets, never beyond the size
//! limit (a small file can inflate to gigabytes). The page inflates with
//! the browser's `DecompressionStream('gzip')` instead, which costs the
//! wasm nothing.

use std::io::Read;

use super::TraceError;

/// Inflates every gzip member of `bytes`; fails once more than `max`
/// bytes come out, or if the data does not inflate.
pub fn inflate(bytes: &[u8], max: usize) -> Result<Vec<u8>, TraceError> {
    let mut out = Vec::new();
    let mut reader = flate2::read::MultiGzDecoder::new(bytes).take(max as u64 + 1);
    reader
        .read_to_end(&mut out)
        .map_err(|e| TraceError::new(format!("the gzip data does not inflate: {e}")))?;
    if out.len() > max {
        return Err(TraceError::new(format!(
            "the trace inflates to more than {max} bytes; at most {max} bytes (256 MiB) uncompressed are read"
        )));
    }
    Ok(out)
}
