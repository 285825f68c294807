//! Inflating a `.json.gz` trace on native targets, never beyond the size
//! limit (a small file can inflate to gigabytes). The page inflates with
//! the browser's `DecompressionStream('gzip')` instead, which costs the
//! wasm nothing.

use std::io::Read;

use super::TraceError;
use crate::text::Text;

/// Inflates every gzip member of `bytes`; fails once more than `max`
/// bytes come out, or if the data does not inflate.
pub fn inflate(bytes: &[u8], max: usize) -> Result<Vec<u8>, TraceError> {
    let mut out = Vec::new();
    let mut reader = flate2::read::MultiGzDecoder::new(bytes).take(max as u64 + 1);
    reader
        .read_to_end(&mut out)
        .map_err(|e| super::unreadable(true, &e.to_string()))?;
    if out.len() > max {
        let max = max.to_string();
        return Err(TraceError::new(
            Text::new(
                "the trace inflates to more than {0} bytes; at most {0} bytes (256 MiB) uncompressed are read",
                "trace 解压后超过 {0} 字节；最多读取解压后的 {0} 字节（256 MiB）",
            )
            .both(&[&max]),
        ));
    }
    Ok(out)
}
