//! Every key a link to the page may hold, read off the tables that parse
//! them: the experiment's parameters (and their aliases), the embed view's
//! keys, Run for real's and the Responsiveness section's settings, the
//! scenarios' name, run and knobs, and the page's own `v` and `lang`. A
//! key none of them reads is named in the page's banner instead of being
//! ignored without a word.

use crate::embed::EmbedParam;
use crate::experiment::Param;
use crate::realrun::RealParam;
use crate::responsiveness::RespParam;
use crate::scenario::Knob;
use crate::text::{Filled, Text};

/// The URL key of the scenario name.
pub const SCENARIO_KEY: &str = "s";
/// The URL key of the run a scenario's charts show (page only; not a CLI
/// flag).
pub const RUN_KEY: &str = "run";
/// The address fragment's keys (after `#`, never sent to a server): the
/// "Share these tasks" link's main-thread tasks
/// (`crate::workload::task_link`).
pub const FRAGMENT_KEYS: [&str; 1] = [crate::workload::task_link::KEY];
/// The page's own keys: the link format's version and the language.
const PAGE_KEYS: [&str; 4] = ["v", "lang", SCENARIO_KEY, RUN_KEY];

/// Whether a link's `key` is read by any part of the page.
pub fn is_known(key: &str) -> bool {
    PAGE_KEYS.contains(&key)
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
