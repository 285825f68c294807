//! Every key a link to the page may hold, read off the tables that parse
//! them: the experiment's parameters (and their aliases), the embed view's
//! keys, Run for real's and the Responsiveness section's settings, the
//! scenarios' name, run and knobs, and the page's own `v` and `lang`. A
//! key none of them reads is named in the page's banner instead of being
//! ignored without a word.

use crate::embed::EmbedParam;
use crate::experiment::Param;
use crate::param_spec::Params;
use crate::params::PageParam;
use crate::realrun::RealParam;
use crate::responsiveness::RespParam;
use crate::scenario::Knob;
use crate::text::{Filled, Text};

/// The address fragment's keys (after `#`, never sent to a server): the
/// "Share these tasks" link's main-thread tasks
/// (`crate::workload::task_link`).
pub const FRAGMENT_KEYS: [&str; 1] = [crate::workload::task_link::KEY];

/// Whether a link's `key` is read by any part of the page: a key or alias
/// of one of the spec tables.
pub fn is_known(key: &str) -> bool {
    PageParam::from_url_key(key).is_some()
        || Param::from_url_key(key).is_some()
        || EmbedParam::from_url_key(key).is_some()
        || RealParam::from_url_key(key).is_some()
        || RespParam::from_url_key(key).is_some()
        || Knob::from_url_key(key).is_some()
}

/// The keys of `pairs` no part of the page reads, each once, in the order
/// given.
pub fn unknown<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for (key, _) in pairs {
        if !is_known(key) && !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

/// The banner's line for an unknown key (`key` already shown safely).
pub fn unknown_line(key: &str) -> Filled {
    const UNKNOWN: Text = Text::new(
        "unknown key '{}' → ignored (the page reads none by that name).",
        "未知的键“{}”→ 已忽略（页面不读取这个名称）。",
    );
    UNKNOWN.both(&[key])
}
