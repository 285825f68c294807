//! docs/url.md's tables, generated from the spec rows (`key`, flag,
//! default, unit, what the parser accepts, help), so the documented contract is
//! the one the parsers keep. Each table sits between `<!-- spec:NAME -->`
//! and `<!-- /spec -->`; [`update`] rewrites them (the `url_keys` test
//! fails when the file differs; `UPDATE_DOCS=1` rewrites it).

use crate::embed::{EmbedParam, EmbedView};
use crate::experiment::{Experiment, Limits, Param};
use crate::param_spec::{self, Entry, Params};
use crate::realrun::{RealParam, RealSettings};
use crate::responsiveness::{RespParam, Settings};
use crate::scenario::{Knob, Knobs};

use super::scenario_query::page_defaults;
use super::PageParam;

const HEAD: &str =
    "| key | CLI flag | default | unit | allowed | what it is |\n|---|---|---|---|---|---|\n";

/// The rows of one table, with a row per alias after its parameter's.
fn table<P: Params>(entry: impl Fn(P) -> Entry) -> String {
    let mut out = HEAD.to_string();
    for spec in P::SPECS {
        let e = entry(spec.id);
        out.push_str(&e.doc_row());
        out.push('\n');
        for alias in spec.aliases {
            out.push_str(&format!(
                "| `{alias}` | {} | — | — | the same as `{}`: read alike, refused alike; the page writes `{}` | |\n",
                e.flag.map_or("—".to_string(), |f| format!("`{f}`")),
                e.key,
                e.key
            ));
        }
    }
    out
}

/// Every generated table by name.
pub fn tables() -> Vec<(&'static str, String)> {
    let exp = Experiment::default();
    let limits = &Limits::WEB;
    let knobs = page_defaults();
    vec![
        (
            "experiment",
            table(|p: Param| {
                let allowed =
                    param_spec::allowed(|v| Experiment::default().set(p, p.url_key(), v, limits));
                let mut e = p.spec().entry(exp.get(p), allowed);
                if p == Param::Tasks {
                    e.allowed.en = format!(
                        "{} (the CLI allows {})",
                        e.allowed.en,
                        Limits::CLI.max_tasks
                    );
                }
                e
            }),
        ),
        (
            "page",
            table(|p: PageParam| p.spec().entry(p.default().to_string(), p.allowed())),
        ),
        (
            "embed",
            table(|p: EmbedParam| {
                let allowed = param_spec::allowed(|v| EmbedView::default().set(p, p.url_key(), v));
                p.spec()
                    .entry(EmbedView::default().get(p).to_string(), allowed)
            }),
        ),
        (
            "realrun",
            table(|p: RealParam| {
                let allowed =
                    param_spec::allowed(|v| RealSettings::default().set(p, p.url_key(), v));
                p.spec().entry(RealSettings::default().get(p), allowed)
            }),
        ),
        (
            "responsiveness",
            table(|p: RespParam| {
                let allowed = param_spec::allowed(|v| Settings::default().set(p, p.url_key(), v));
                p.spec().entry(Settings::default().get(p), allowed)
            }),
        ),
        (
            "scenario",
            table(|k: Knob| {
                let allowed = param_spec::allowed(|v| Knobs::default().set(k, k.url_key(), v));
                k.spec().entry(knobs.text(k).unwrap_or_default(), allowed)
            }),
        ),
    ]
}

/// `doc` with every generated table rewritten; unknown names are left as
/// they are.
pub fn update(doc: &str) -> String {
    let mut out = doc.to_string();
    for (name, table) in tables() {
        let open = format!("<!-- spec:{name} -->\n");
        let Some(start) = out.find(&open).map(|i| i + open.len()) else {
            continue;
        };
        let Some(len) = out[start..].find("<!-- /spec -->") else {
            continue;
        };
        out.replace_range(start..start + len, &table);
    }
    out
}
