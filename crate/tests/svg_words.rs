//! The SVG figure's `<title>` and `<desc>` (what a screen reader or a
//! search engine reads of it) carry the headline numbers in the figure's
//! language: every policy's mean, p50, p95, p99 and max as `--json`
//! reports them, and the reading.

mod cli_run;

use cli_run::tailslice_ok as tailslice;
use serde_json::Value;

/// The text of the first `<tag>…</tag>`.
fn element<'a>(svg: &'a str, tag: &str) -> &'a str {
    let open = format!("<{tag}>");
    let start = svg.find(&open).unwrap_or_else(|| panic!("no <{tag}>")) + open.len();
    let end = start + svg[start..].find(&format!("</{tag}>")).unwrap();
    &svg[start..end]
}

#[test]
fn title_and_desc_carry_the_headline_numbers_in_the_figures_language() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("svg_words");
    std::fs::create_dir_all(&dir).unwrap();
    let flags = [
        "--policies",
        "fifo,rr,srpt",
        "--tasks",
        "120",
        "--seed",
        "7",
    ];
    let report: Value =
        serde_json::from_str(&tailslice(&[&["simulate", "--json"][..], &flags].concat())).unwrap();
    for (lang, mean, cjk) in [("en", "mean", false), ("zh", "平均", true)] {
        let path = dir.join(format!("figure-{lang}.svg"));
        let path = path.to_str().unwrap();
        tailslice(&[&["simulate", "--svg", path, "--lang", lang][..], &flags].concat());
        let svg = std::fs::read_to_string(path).unwrap();
        let title = element(&svg, "title");
        let desc = element(&svg, "desc");
        assert!(title.contains("120") && title.contains("SRPT"), "{title}");
        let has_cjk = |t: &str| t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        assert_eq!(has_cjk(title), cjk, "{title}");
        assert_eq!(has_cjk(desc), cjk, "{desc}");
        assert!(desc.contains(mean), "{desc}");
        for r in report["results"].as_array().unwrap() {
            let name = r["policy"].as_str().unwrap().to_ascii_uppercase();
            assert!(desc.contains(&name), "{name} in {desc}");
            for m in ["mean", "p50", "p95", "p99", "max"] {
                let figure = format!("{:.1} ms", r[m].as_f64().unwrap());
                assert!(
                    desc.contains(&figure),
                    "{lang}: {name} {m} {figure} in {desc}"
                );
            }
        }
    }
}
