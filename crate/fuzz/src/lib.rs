//! Shared by every fuzz target in `src/bin/`: the properties each
//! parser of outside input must keep, from `crate/tests/parser_props`, so
//! the fuzzers and the ordinary test suite's Unicode proptests check exactly
//! the same things.

#[path = "../../tests/parser_props/mod.rs"]
pub mod parser_props;

/// libFuzzer's bytes as the text a front end would hand a parser: invalid
/// UTF-8 becomes U+FFFD, as the page's percent-decoding and a browser's
/// file reader do, so every input the fuzzer makes reaches the parser.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}
