//! Every key docs/url.md documents is one the page reads (so a link with
//! it shows no "unknown key" line), a key it does not document is named,
//! and `tasks` is `n` by another name: refused and accepted alike, written
//! back as `n`.

use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::param_spec::Params;
use tailslice::url_keys;

/// The first column's key of every table row of docs/url.md.
fn documented_keys() -> Vec<String> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/url.md"))
        .expect("docs/url.md");
    doc.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(k, _)| k.to_string()))
        .collect()
}

#[test]
fn every_documented_key_is_known() {
    let keys = documented_keys();
    // The tables of the experiment, the page, Responsiveness and the
    // scenarios.
    assert!(keys.len() >= 35, "{keys:?}");
    for key in [
        "n",
        "tasks",
        "embed",
        "view",
        "s",
        "run",
        "resp_window",
        "gcd",
        "real_yield",
    ] {
        assert!(keys.iter().any(|k| k == key), "{key} is not documented");
    }
    let pairs: Vec<(&str, &str)> = keys.iter().map(|k| (k.as_str(), "1")).collect();
    assert_eq!(url_keys::unknown(pairs), Vec::<&str>::new());
}

#[test]
fn keys_nothing_reads_are_named_once() {
    let pairs = [
        ("n", "5"),
        ("task", "5"),
        ("utm_source", "x"),
        ("task", "6"),
        ("N", "1"),
    ];
    assert_eq!(url_keys::unknown(pairs), vec!["task", "utm_source", "N"]);
    let line = url_keys::unknown_line("task");
    assert!(
        line.en.contains("'task'") && line.en.contains("ignored"),
        "{line:?}"
    );
    assert!(
        line.zh.contains("“task”") && line.zh.contains("忽略"),
        "{line:?}"
    );
}

fn parse(pairs: &[(&str, &str)]) -> (Experiment, Vec<tailslice::error::ParamError>) {
    Experiment::from_query(pairs.iter().copied(), &Limits::WEB)
}

#[test]
fn tasks_is_n_by_another_name() {
    let (by_alias, errors) = parse(&[("tasks", "500")]);
    assert!(errors.is_empty(), "{errors:?}");
    let (by_key, _) = parse(&[("n", "500")]);
    assert_eq!(by_alias, by_key);
    assert_eq!(by_alias.tasks, 500);
    // Written back with the parameter's own key.
    assert!(by_alias.to_query().contains(&("n", "500".to_string())));
    // Refused like n, naming the key as written.
    let (refused, errors) = parse(&[("tasks", "99999999")]);
    let (_, n_errors) = parse(&[("n", "99999999")]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].field, "tasks");
    assert_eq!(errors[0].allowed, n_errors[0].allowed);
    assert_eq!(refused.tasks, Experiment::default().tasks);
    // Both given: the first counts, the second is a repeat.
    let (both, errors) = parse(&[("n", "10"), ("tasks", "20")]);
    assert_eq!(both.tasks, 10);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].field, "tasks");
    assert_eq!(Param::from_url_key("tasks"), Some(Param::Tasks));
}

/// The fragment's key ("Share these tasks") is documented as a fragment,
/// not as a query key: in a query it is named like any unknown key.
#[test]
fn the_fragment_key_is_documented_and_no_query_key() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/url.md"))
        .expect("docs/url.md");
    for key in url_keys::FRAGMENT_KEYS {
        assert!(doc.contains(&format!("`#{key}=1.DATA`")), "{key}");
        assert!(!url_keys::is_known(key), "{key}");
        assert!(!documented_keys().iter().any(|k| k == key), "{key}");
    }
}

/// docs/url.md's tables are the ones the parameters' spec generates;
/// `UPDATE_DOCS=1` rewrites them.
#[test]
fn docs_url_tables_are_generated_from_the_spec() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/url.md");
    let doc = std::fs::read_to_string(path).expect("docs/url.md");
    for (name, _) in tailslice::params::docs::tables() {
        assert!(
            doc.contains(&format!("<!-- spec:{name} -->")),
            "docs/url.md has no {name} table"
        );
    }
    let want = tailslice::params::docs::update(&doc);
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &want).expect("docs/url.md written");
        return;
    }
    assert!(
        doc == want,
        "docs/url.md's tables differ from the spec: run UPDATE_DOCS=1 cargo test -p tailslice --test url_keys"
    );
}

/// A unit is said once, in its spec row: a number always has one, the
/// label and help leave it to the row (a control's label, the flag's
/// argument and the docs' unit column add it).
fn units_are_said_once<P: Params>() {
    use tailslice::param_spec::Range;
    for s in P::SPECS {
        if matches!(s.range, Range::Number(_)) {
            let unit = s
                .unit
                .unwrap_or_else(|| panic!("{} is a number without a unit", s.key));
            assert_eq!(s.arg(), unit.arg(), "{}", s.key);
        }
        let Some(unit) = s.unit else { continue };
        let sym = unit.symbol();
        for (text, restated) in [
            (s.label.en, format!("({})", sym.en)),
            (s.label.zh, format!("（{}）", sym.zh)),
            (s.help.en, format!("in {}", sym.en)),
            (s.help.en, format!("({})", sym.en)),
            (s.help.zh, format!("（{}）", sym.zh)),
        ] {
            assert!(
                !text.contains(&restated),
                "{}: {text:?} says its unit",
                s.key
            );
        }
        let label = s.label();
        assert!(label.en.ends_with(&format!(" ({})", sym.en)), "{label:?}");
        assert!(label.zh.ends_with(&format!("（{}）", sym.zh)), "{label:?}");
    }
}

#[test]
fn every_table_says_its_units_once() {
    use tailslice::embed::EmbedParam;
    use tailslice::params::PageParam;
    use tailslice::realrun::RealParam;
    use tailslice::responsiveness::RespParam;
    use tailslice::scenario::Knob;
    units_are_said_once::<Param>();
    units_are_said_once::<RespParam>();
    units_are_said_once::<Knob>();
    units_are_said_once::<RealParam>();
    units_are_said_once::<EmbedParam>();
    units_are_said_once::<PageParam>();
    units_are_said_once::<tailslice::experiment::sweep_params::SweepParam>();
    #[cfg(target_os = "linux")]
    units_are_said_once::<tailslice::kernel::flags::MeasureParam>();
    // The quantum: its label, its flag's argument and the docs' column.
    let q = Param::Quantum.spec();
    assert_eq!(q.label().en, "Quantum (ms)");
    assert_eq!(q.label().zh, "时间片（ms）");
    assert_eq!(q.arg(), "MS");
    let tables = tailslice::params::docs::tables();
    let experiment = &tables.iter().find(|(n, _)| *n == "experiment").unwrap().1;
    assert!(
        experiment
            .lines()
            .any(|l| l.starts_with("| `q` | `--quantum` | `16` | ms |")),
        "{experiment}"
    );
}
