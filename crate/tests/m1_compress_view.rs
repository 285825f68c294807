//! What m1-compress shows a reader: its thread-state lanes name each
//! worker with its QoS, its charts' captions describe this scenario (which
//! has no main thread), charts cut short by the page's recording limit say
//! where they stop and why, and the CLI's table keeps its columns aligned
//! whatever the length of a "measured" cell.

mod cli_run;

use tailslice::chart::timeline::{self, MAX_RECORDS};
use tailslice::scenario::{self, Knob, Knobs};
use tailslice::text::Lang;

/// The page's knobs: timelines on, recording capped as on the page.
fn page_knobs() -> Knobs {
    let mut knobs = Knobs::default();
    knobs.set(Knob::Timeline, "tl", "on").unwrap();
    knobs.max_records = MAX_RECORDS;
    knobs
}

#[test]
fn lanes_captions_and_the_cut_say_what_the_reader_sees() {
    let knobs = page_knobs();
    let mut result = scenario::run("m1-compress", &knobs).unwrap();
    let kind = scenario::ScenarioKind::find("m1-compress").unwrap();
    let page = result.outcome().page_text();
    for lang in Lang::ALL {
        for caption in [&page.gantt_caption, &page.states_caption] {
            let c = caption.get(lang);
            assert!(!c.is_empty(), "{lang:?}");
            assert!(c.contains("QoS"), "{c}");
        }
        assert!(!page.gantt_caption.get(lang).contains("has its own colour"));
    }
    let runs = std::mem::take(result.outcome_mut().runs_mut());
    assert!(!runs.is_empty());
    let mut cut = 0;
    for view in &runs {
        let lanes = timeline::states(kind, view);
        let labels = &lanes.meta.blocks[0].lanes;
        assert!(!labels.is_empty(), "{}", view.label.en);
        let threads = timeline::key_threads(kind, view);
        assert_eq!(labels.len(), threads.len());
        for (l, &t) in labels.iter().zip(&threads) {
            let qos = view.run.threads[t].qos;
            assert!(
                l.label.en.ends_with(&format!("(QoS {qos})")),
                "{:?}",
                l.label
            );
            assert!(
                l.label.zh.ends_with(&format!("（QoS {qos}）")),
                "{:?}",
                l.label
            );
        }
        let note = timeline::cut_note(view);
        if view.run.truncated {
            cut += 1;
            let end = format!("{:.1} s", view.run.end / 1000.0);
            assert!(note.en.contains(&end), "{} {note:?}", view.label.en);
            assert!(note.en.contains(&MAX_RECORDS.to_string()), "{note:?}");
            assert!(note.zh.contains(&end), "{note:?}");
        } else {
            assert!(note.is_empty());
        }
    }
    // The default run, the M1 under contention, is one of them.
    assert!(cut > 0);
}

#[test]
fn the_cli_table_keeps_its_columns() {
    for args in [
        &["scenario", "m1-compress"][..],
        &["scenario", "m1-compress", "--lang", "zh"],
    ] {
        let text = cli_run::tailslice_ok(args);
        let table: Vec<&str> = text.lines().skip(2).take_while(|l| !l.is_empty()).collect();
        assert!(table.len() > 10, "{text}");
        let width = |l: &str| l.chars().count();
        let percent = |l: &str| l.chars().position(|c| c == '%');
        // Every row as long as the heading, its share's % at one column.
        for row in &table[1..] {
            assert_eq!(width(row), width(table[0]), "{row}");
            assert_eq!(percent(row), percent(table[1]), "{row}");
        }
        assert!(
            table.iter().any(|r| r.contains("no figure given")),
            "{text}"
        );
    }
}
