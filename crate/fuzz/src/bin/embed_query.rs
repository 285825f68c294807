//! The embed view's keys of a page query (`embed`, `view`, `controls`,
//! `theme`), read with `EmbedView::from_query`, and the Embed dialog's
//! snippets written for the whole query.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailslice_fuzz::{parser_props::check_embed_query, text};

fuzz_target!(|data: &[u8]| check_embed_query(&text(data)));
