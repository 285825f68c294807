//! One spelling per policy and one unit word per language: the reading
//! names every policy as the table's heading does (FIFO, RR, …), and no
//! Chinese text says 毫秒 where the rest says ms.

use tailslice::experiment::reading::{explain, policy_title};
use tailslice::experiment::{Experiment, Limits};
use tailslice::policy::PolicyKind;
use tailslice::text::Lang;

/// Whether `word` stands alone in `text` (not inside a longer word).
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == word)
}

#[test]
fn the_reading_names_policies_as_the_table_does() {
    // Every policy as the baseline once, against the others, and alone.
    for first in PolicyKind::ALL {
        let mut policies = vec![first];
        policies.extend(PolicyKind::ALL.into_iter().filter(|p| *p != first).take(2));
        for policies in [policies.clone(), vec![first]] {
            let exp = Experiment {
                policies: policies.clone(),
                tasks: 60,
                ..Experiment::default()
            };
            let outcome = exp.run(&Limits::CLI, false).expect("runs");
            for lang in Lang::ALL {
                let text = explain(&exp, &outcome, lang);
                for p in &policies {
                    let title = policy_title(p.name(), lang);
                    assert_ne!(title, p.name());
                    assert!(
                        !has_word(&text, p.name()),
                        "{lang:?}: '{}' in {text}",
                        p.name()
                    );
                }
                assert!(
                    policies
                        .iter()
                        .any(|p| has_word(&text, &policy_title(p.name(), lang))),
                    "{lang:?}: no policy named in {text}"
                );
            }
        }
    }
}

#[test]
fn chinese_says_ms() {
    let catalog = serde_json::to_string(&tailslice::catalog::catalog(&Limits::WEB)).unwrap();
    assert!(!catalog.contains("毫秒"), "the catalog");
    // Every bilingual text of the sources and the page's string tables.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut stack = vec![
        std::path::PathBuf::from(root).join("crate/src"),
        std::path::PathBuf::from(root).join("www"),
    ];
    let mut read = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs" || e == "js") {
                let text = std::fs::read_to_string(&path).unwrap();
                read += 1;
                assert!(!text.contains("毫秒"), "{}", path.display());
            }
        }
    }
    assert!(read > 50, "{read} files read");
}
