//! What every parser of outside input must do, written once and checked by
//! both the proptests (`tests/parsers_unicode.rs`) and the coverage-guided
//! fuzz targets (`crate/fuzz/`, which include this file by path):
//!
//! - return a value or an error, never panic (a panic fails the caller);
//! - an error is one line with no control characters and names the field
//!   as the user spelled it (`--machine`, `m`), in English and in Chinese,
//!   also with the page's "→ … is used." after it;
//! - an accepted value, written back as text (`get`, `to_query`,
//!   `Display`), parses to the same value: links and files the page writes
//!   open what was shown.
//!
//! Each `check_*` takes the raw text a user (or attacker) could supply.

use tailslice::chart::figure::Figure;
use tailslice::chart::theme::Theme;
use tailslice::embed::{EmbedView, Snippet, SnippetKind};
use tailslice::error::{is_hidden_char, parse_count, shown, Instead, ParamError};
use tailslice::experiment::export::{experiment_json, parse_experiment_json};
use tailslice::experiment::measured::{environment_line, parse_measure_text};
use tailslice::experiment::sweep::{
    parse_quanta, parse_quanta_spec, parse_seed_range, SweepLimits,
};
use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::param_spec::Params;
use tailslice::params::{self, BadParam};
use tailslice::policy::PolicyKind;
use tailslice::query_string::decode_pairs;
use tailslice::responsiveness::budget::Budget;
use tailslice::responsiveness::settings::{parse_quanta as parse_resp_quanta, MAX_QUANTA};
use tailslice::responsiveness::{Answer, RespParam, Settings, Source, Task};
use tailslice::scenario::{Knob, Knobs};
use tailslice::sim::machine::{Machine, M1_EP_RATIO};
use tailslice::text::Lang;
use tailslice::trace::{import_trace, TraceOptions};
use tailslice::workload::mix::{Mix, MAX_CLASSES, MAX_TASK_MS};
use tailslice::workload::task_list::{self, ImportError, MAX_ARRIVAL_MS, MAX_LABEL_CHARS};
use tailslice::workload::{Arrivals, Workload};

/// A message a terminal or a banner shows as one line, as written: no
/// control characters, and no bidirectional formatting characters that
/// would reverse it.
pub fn assert_one_line(message: &str) {
    assert!(
        !message.chars().any(is_hidden_char),
        "an error message must be one line without control or bidi characters: {message:?}"
    );
}

/// A [`ParamError`] names `field`, is one line and shows a shortened value.
pub fn check_param_error(e: &ParamError, field: &str) {
    assert_eq!(e.field, field, "the error must name the field: {e}");
    check_error_text(e);
}

fn check_error_text(e: &ParamError) {
    assert_one_line(&e.to_string());
    assert_eq!(e.to_string(), e.message(Lang::En));
    assert!(
        e.value.chars().count() <= 100,
        "the value shown must be shortened: {e}"
    );
    for lang in Lang::ALL {
        let m = e.message(lang);
        assert_one_line(&m);
        assert!(m.contains(&e.field), "{lang:?} must name the field: {m}");
        assert!(m.contains(&e.value), "{lang:?} must show the value: {m}");
        assert!(
            !e.allowed.get(lang).is_empty(),
            "{lang:?}: nothing allowed: {m}"
        );
        for instead in [Instead::Value(&e.value), Instead::Value("")] {
            let line = e.with_instead(instead);
            assert_one_line(line.get(lang));
            assert!(line.get(lang).starts_with(&m), "{line:?}");
        }
    }
    let zh = e.message(Lang::Zh);
    assert!(
        zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "the Chinese refusal is not Chinese: {zh}"
    );
}

fn check_import_error(e: &ImportError, lines: usize) {
    assert_one_line(&e.message.en);
    for lang in Lang::ALL {
        assert_one_line(&e.said(lang));
        assert!(!e.message_in(lang).is_empty(), "{lang:?}: {e}");
    }
    if let Some(l) = e.line {
        assert!((1..=lines.max(1)).contains(&l), "line {l} of {lines}: {e}");
    }
}

/// Limits under which an accepted experiment is also run: small enough for
/// a fuzzer's thousands of executions a second.
const RUN_LIMITS: Limits = Limits {
    max_tasks: 64,
    max_slices: 20_000,
};

/// Runs a small accepted experiment (on `workload`, or on its own drawn
/// one), so that a value the parsers let through cannot panic the engine
/// either: every policy either finishes every task, no earlier than its
/// arrival plus its work, or stops at the slice limit.
fn run_if_small(exp: &Experiment, workload: Option<&Workload>) {
    let result = match workload {
        Some(w) if exp.check_imported_size(w, &RUN_LIMITS).is_ok() => {
            exp.run_on(w.clone(), &RUN_LIMITS, true)
        }
        None if exp.tasks as u64 <= RUN_LIMITS.max_tasks && exp.check_size(&RUN_LIMITS).is_ok() => {
            exp.run(&RUN_LIMITS, true)
        }
        _ => return,
    };
    let Ok(outcome) = result else { return };
    assert_eq!(outcome.runs.len(), exp.policies.len());
    let w = &outcome.workload;
    for run in &outcome.runs {
        assert_eq!(run.schedule.outcomes.len(), w.len(), "{:?}", run.policy);
        for (t, o) in run.schedule.outcomes.iter().enumerate() {
            let earliest = w.arrival[t] + w.work[t];
            assert!(
                o.completion >= earliest - 1e-9 * earliest.max(1.0),
                "{:?}: task {t} done at {} before {earliest}",
                run.policy,
                o.completion
            );
        }
    }
}

/// `Machine::parse` (CLI `--machine`, URL `m`).
pub fn check_machine(text: &str) {
    for field in ["--machine", "m"] {
        match Machine::parse(field, text, M1_EP_RATIO) {
            Ok(m) => {
                assert!((1..=64).contains(&m.cores.len()), "{text:?}: {m:?}");
                let again = Machine::parse(field, &m.name, M1_EP_RATIO)
                    .unwrap_or_else(|e| panic!("{text:?}: its name {:?} is refused: {e}", m.name));
                assert_eq!(again, m, "{text:?}");
                // A `+` typed into a URL arrives as a space: the same machine.
                let spaced = text.replace('+', " ");
                let again = Machine::parse(field, &spaced, M1_EP_RATIO)
                    .unwrap_or_else(|e| panic!("{text:?} as {spaced:?} is refused: {e}"));
                assert_eq!(again, m, "{text:?} as {spaced:?}");
            }
            Err(e) => check_param_error(&e, field),
        }
    }
}

/// `Mix::parse` (CLI `--mix`, URL `mix`).
pub fn check_mix(text: &str) {
    match Mix::parse("mix", text) {
        Ok(m) => {
            assert!((1..=MAX_CLASSES).contains(&m.classes.len()), "{text:?}");
            let mean = m.mean_work();
            // The size guard trusts this figure: NaN would let any run pass.
            assert!(
                mean.is_finite() && mean >= 0.0,
                "{text:?}: mean work {mean}"
            );
            let written = m.to_string();
            let again = Mix::parse("mix", &written)
                .unwrap_or_else(|e| panic!("{text:?} written as {written:?} is refused: {e}"));
            assert_eq!(again, m, "{text:?} written as {written:?}");
        }
        Err(e) => check_param_error(&e, "mix"),
    }
}

/// `Arrivals::parse` (CLI `--arrivals`, URL `arrivals`).
pub fn check_arrivals(text: &str) {
    match Arrivals::parse("arrivals", text) {
        Ok(a) => {
            let written = a.to_string();
            let again = Arrivals::parse("arrivals", &written)
                .unwrap_or_else(|e| panic!("{text:?} written as {written:?} is refused: {e}"));
            assert_eq!(again, a, "{text:?}");
        }
        Err(e) => check_param_error(&e, "arrivals"),
    }
}

/// A knob's value as text in the syntax `Knobs::set` reads.
fn knob_text(k: &Knobs, knob: Knob) -> String {
    let switch = |b: Option<bool>| match b {
        Some(true) => "on".to_string(),
        Some(false) => "off".to_string(),
        None => String::new(),
    };
    match knob {
        Knob::BandLimit => switch(k.band_limit),
        Knob::SystemWork => switch(k.system_work),
        Knob::Timeline => switch(Some(k.timeline)),
        Knob::Queues => k.queues.to_string(),
        Knob::Groups => k
            .groups
            .iter()
            .map(|q| q.name())
            .collect::<Vec<_>>()
            .join(","),
        Knob::Machine => k.machine.clone().unwrap_or_default(),
        Knob::EpRatio => k.ep_ratio.to_string(),
        Knob::Seconds => k.seconds.to_string(),
        Knob::Policy => k.policy.name().to_string(),
        Knob::ClutchRules => k.clutch_rules.name().to_string(),
        Knob::GcdCap => k.gcd_cap.map(|c| c.name().to_string()).unwrap_or_default(),
    }
}

/// `Knobs::set` for one knob; `field` is the flag or URL key.
fn check_knob(knobs: &mut Knobs, knob: Knob, field: &str, text: &str) {
    match knobs.set(knob, field, text) {
        Ok(()) => {
            let written = knob_text(knobs, knob);
            let mut again = knobs.clone();
            again.set(knob, field, &written).unwrap_or_else(|e| {
                panic!("{field}={text:?} written as {written:?} is refused: {e}")
            });
            assert_eq!(&again, knobs, "{field}={text:?}");
            if let Some(m) = &knobs.machine {
                Machine::parse(field, m, knobs.ep_ratio)
                    .unwrap_or_else(|e| panic!("stored machine {m:?} is refused: {e}"));
            }
        }
        Err(e) => check_param_error(&e, field),
    }
}

/// One CLI flag and its value, for every subcommand: the experiment flags
/// (`Experiment::set` with the CLI's limits), the scenario knobs, `--lang`,
/// the sweep ranges and `--repeat`. Unknown flags are ignored.
pub fn check_flag(flag: &str, value: &str) {
    if let Some(p) = Param::from_flag(flag) {
        let mut exp = Experiment::default();
        match exp.set(p, flag, value, &Limits::CLI) {
            Ok(()) => {
                let written = exp.get(p);
                let mut again = Experiment::default();
                again
                    .set(p, flag, &written, &Limits::CLI)
                    .unwrap_or_else(|e| {
                        panic!("{flag} {value:?} written as {written:?} is refused: {e}")
                    });
                assert_eq!(again, exp, "{flag} {value:?} written as {written:?}");
                assert_eq!(again.get(p), written, "{flag} {value:?}: not a fixed point");
            }
            Err(e) => check_param_error(&e, flag),
        }
        #[cfg(target_os = "linux")]
        if p == Param::Policies {
            check_measure_flag(flag, value);
        }
    } else if let Some(knob) = Knob::from_flag(flag) {
        check_knob(&mut Knobs::default(), knob, flag, value);
    } else {
        match flag {
            "--lang" => match Lang::parse(flag, value) {
                Ok(l) => assert_eq!(Lang::parse(flag, l.code()), Ok(l)),
                Err(e) => check_param_error(&e, flag),
            },
            "--seeds" => {
                for limits in [SweepLimits::CLI, SweepLimits::WEB] {
                    match parse_seed_range(flag, value, &limits) {
                        Ok(r) => {
                            assert!(r.end() - r.start() < limits.max_seeds, "{value:?}");
                            let written = format!("{}-{}", r.start(), r.end());
                            assert_eq!(parse_seed_range(flag, &written, &limits), Ok(r));
                        }
                        Err(e) => check_param_error(&e, flag),
                    }
                }
            }
            "--quanta" => {
                // `responsiveness --quanta`: a list of at most 16, ascending.
                match parse_resp_quanta(flag, value) {
                    Ok(q) => {
                        assert!((1..=MAX_QUANTA).contains(&q.len()), "{value:?}");
                        assert!(q.windows(2).all(|w| w[0] < w[1]), "{q:?}");
                        let mut s = Settings::default();
                        s.set(RespParam::Quanta, flag, value).unwrap();
                        check_settings_round_trip(&s);
                    }
                    Err(e) => check_param_error(&e, flag),
                }
                for limits in [SweepLimits::CLI, SweepLimits::WEB] {
                    match parse_quanta(flag, value, &limits) {
                        Ok(q) => {
                            assert!((1..=limits.max_quanta).contains(&q.len()), "{value:?}");
                            assert!(q.iter().all(|v| v.is_finite() && *v > 0.0), "{q:?}");
                            let written = q.iter().map(f64::to_string).collect::<Vec<_>>();
                            assert_eq!(parse_quanta(flag, &written.join(","), &limits), Ok(q));
                        }
                        Err(e) => check_param_error(&e, flag),
                    }
                }
            }
            "--budget" => match Budget::parse(flag, value) {
                Ok(b) => {
                    for v in [b.inp, b.p98, b.tbt].into_iter().flatten() {
                        assert!(v.is_finite() && v >= 0.0, "{value:?}: {b:?}");
                    }
                }
                Err(e) => check_param_error(&e, flag),
            },
            "--repeat" => {
                if let Err(e) = parse_count(flag, value, 1, 100) {
                    check_param_error(&e, flag);
                }
            }
            #[cfg(target_os = "linux")]
            "--repeats" => check_measure_flag(flag, value),
            "--figure" => {
                for allowed in [&Figure::STUDY[..], &Figure::SCENARIO[..]] {
                    match Figure::parse(flag, value, allowed) {
                        Ok(f) => assert_eq!(Figure::parse(flag, f.name(), allowed), Ok(f)),
                        Err(e) => check_param_error(&e, flag),
                    }
                }
            }
            "--theme" => match Theme::parse(flag, value) {
                Ok(t) => {
                    let name = if t == Theme::Dark { "dark" } else { "light" };
                    assert_eq!(Theme::parse(flag, name), Ok(t));
                }
                Err(e) => check_param_error(&e, flag),
            },
            _ => {
                if let Some(p) = RespParam::from_flag(flag) {
                    check_resp_setting(p, flag, value);
                }
            }
        }
    }
}

/// `measure`'s own readings of `--policies` (names with a kernel policy)
/// and `--repeats`: a value, or one line that names the flag; an accepted
/// list written back reads the same.
#[cfg(target_os = "linux")]
pub fn check_measure_flag(flag: &str, value: &str) {
    use tailslice::kernel::flags::{parse_repeats, MAX_REPEATS};
    use tailslice::kernel::plan::parse_policies;
    let refused = |m: &str| {
        assert_one_line(m);
        assert!(m.starts_with(&format!("invalid {flag} '")), "{m}");
        assert!(
            m.chars().count() < 400,
            "the value shown must be shortened: {m}"
        );
    };
    match flag {
        "--policies" => match parse_policies(flag, value) {
            Ok(p) => {
                assert!(!p.is_empty());
                let written: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
                assert_eq!(parse_policies(flag, &written.join(",")), Ok(p));
            }
            Err(m) => refused(&m),
        },
        "--repeats" => match parse_repeats(flag, value) {
            Ok(k) => {
                assert!((1..=MAX_REPEATS).contains(&k));
                assert_eq!(parse_repeats(flag, &k.to_string()), Ok(k));
            }
            Err(m) => refused(&m),
        },
        _ => {}
    }
}

/// The page's sweep quanta field (`LO-HI` with a step count, or a list):
/// every quantum it yields is one `--quantum` accepts, with no duplicates.
pub fn check_quanta_field(steps: u32, text: &str) {
    for limits in [SweepLimits::CLI, SweepLimits::WEB] {
        match parse_quanta_spec("quanta", text, steps, &limits) {
            Ok(q) => {
                assert!((1..=limits.max_quanta).contains(&q.len()), "{text:?}");
                for (i, v) in q.iter().enumerate() {
                    let mut exp = Experiment::default();
                    exp.set(Param::Quantum, "quanta", &v.to_string(), &Limits::CLI)
                        .unwrap_or_else(|e| panic!("{steps} {text:?}: quantum {v}: {e}"));
                    assert!(!q[..i].contains(v), "{steps} {text:?}: {v} twice in {q:?}");
                }
            }
            Err(e) if e.field == "steps" => check_param_error(&e, "steps"),
            Err(e) => check_param_error(&e, "quanta"),
        }
    }
}

/// A refusal as the page's banner shows it: one line in each language,
/// naming a key the link gives (or `also`, a key a refusal may reset), the
/// banner's line starting with the form's.
fn check_bad_param(b: &BadParam, pairs: &[(String, String)], also: &[&str]) {
    assert!(
        pairs.iter().any(|(k, _)| shown(k) == b.field) || also.contains(&b.field.as_str()),
        "unexpected field: {}",
        b.message
    );
    assert_one_line(&b.message);
    assert_eq!(b.message, b.refusal.en);
    for lang in Lang::ALL {
        assert_one_line(b.refusal.get(lang));
        assert_one_line(b.banner.get(lang));
        assert!(
            b.banner.get(lang).starts_with(b.refusal.get(lang)),
            "{:?}",
            b.banner
        );
    }
}

/// The page's query string as the page reads it (`params::parse` with the
/// browser's limits, then the unknown keys): every refusal names a key the
/// link gives, except the size refusal, which names the key it resets (`q`,
/// then `n`); whatever it accepts is within those limits; its canonical
/// query (what the address bar shows) opens the same page without a
/// complaint and is written back unchanged.
pub fn check_query(query: &str) {
    let pairs = decode_pairs(query);
    let (exp, page) = params::parse(query, &Limits::WEB);
    for e in &page.errors {
        check_bad_param(e, &pairs, &["q", "n"]);
    }
    for e in params::query::unknown_keys(query) {
        assert!(!tailslice::url_keys::is_known(&e.field), "{}", e.message);
        check_bad_param(&e, &pairs, &[]);
    }
    let est = exp.estimated_slices();
    assert!(
        est.is_finite() && est <= Limits::WEB.max_slices as f64,
        "{query:?}: accepted with an estimate of {est} slices"
    );
    let (again, back) = params::parse(&page.query, &Limits::WEB);
    assert!(
        back.errors.is_empty(),
        "{query:?}: its canonical query {:?} is refused: {}",
        page.query,
        back.errors[0].message
    );
    assert!(params::query::unknown_keys(&page.query).is_empty());
    // The link leaves out what changes nothing (`cores` beside a machine).
    assert_eq!(
        again.link_query(),
        exp.link_query(),
        "{query:?}: canonical query {:?}",
        page.query
    );
    assert_eq!(back.query, page.query, "{query:?}: not a fixed point");
    assert_eq!(
        (&back.real_values, &back.resp_values, back.lang),
        (&page.real_values, &page.resp_values, page.lang),
        "{query:?}: canonical query {:?}",
        page.query
    );
    // `view` and `controls` mean something (and are written) only in the
    // embed view.
    assert_eq!(
        (back.embed, back.theme),
        (page.embed, page.theme),
        "{query:?}"
    );
    if page.embed {
        assert_eq!(
            (back.view, back.controls),
            (page.view, page.controls),
            "{query:?}"
        );
    }
    run_if_small(&exp, None);
}

/// The scenario part of a page query (`s`, the knobs' URL keys and `run`)
/// as the page reads it (`params::scenario_query::parse`): refusals name a
/// key the link gives; the canonical scenario query opens the same
/// scenario, knobs and run without a complaint; the machine it runs on has
/// 1 to 64 cores.
pub fn check_scenario_query(query: &str) {
    let pairs = decode_pairs(query);
    let q = params::scenario_query::parse(query);
    for e in &q.errors {
        check_bad_param(e, &pairs, &[]);
    }
    if let Some(m) = &q.knobs.machine {
        Machine::parse("m", m, q.knobs.ep_ratio)
            .unwrap_or_else(|e| panic!("stored machine {m:?} is refused: {e}"));
    }
    let m = q.knobs.machine_or(Machine::m1);
    assert!((1..=64).contains(&m.cores.len()));
    let canonical = q.canonical();
    let back = params::scenario_query::parse(&canonical);
    assert!(
        back.errors.is_empty(),
        "{query:?}: its canonical query {canonical:?} is refused: {}",
        back.errors[0].message
    );
    if q.name.is_some() {
        assert_eq!(
            (back.name, &back.knobs, back.run),
            (q.name, &q.knobs, q.run),
            "{query:?}: canonical query {canonical:?}"
        );
        assert_eq!(back.canonical(), canonical, "{query:?}: not a fixed point");
    } else {
        assert!(canonical.is_empty());
    }
}

/// The embed view's keys of a page query (`embed`, `view`, `controls`,
/// `theme`), and the snippets the Embed dialog writes for that query: an
/// accepted view reads back the same from its written keys, and whatever
/// the query holds, a snippet has the markup of the snippet for an empty
/// query (no `<` or `"` of its own), so nothing in a link can add an
/// element or an attribute to a blog post.
pub fn check_embed_query(query: &str) {
    let pairs = decode_pairs(query);
    let (view, errors) = EmbedView::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    for e in &errors {
        assert!(
            pairs.iter().any(|(k, _)| *k == e.field),
            "unexpected field: {e}"
        );
        check_error_text(e);
    }
    let written = view.to_query();
    let (back, errors) = EmbedView::from_query(written.iter().copied());
    assert!(errors.is_empty(), "{query:?}: {written:?} is refused");
    if view.embed {
        assert_eq!(back, view, "{query:?}");
    } else {
        assert_eq!((back.embed, back.theme), (false, view.theme), "{query:?}");
    }
    const SVG: &str =
        "<svg width=\"4\" height=\"4\" xmlns=\"http://www.w3.org/2000/svg\"><text>p95</text></svg>";
    for kind in SnippetKind::ALL {
        let snippet = |query| Snippet {
            kind,
            base: "https://example.org/tailslice/",
            query,
            view,
            lang: Lang::En,
            url_lang: None,
            svg: SVG,
            trace: None,
        };
        let html = snippet(query)
            .html()
            .unwrap_or_else(|e| panic!("{query:?}: {e}"));
        let plain = snippet("").html().expect("the empty query's snippet");
        for c in ['<', '>', '"'] {
            assert_eq!(
                html.matches(c).count(),
                plain.matches(c).count(),
                "{query:?} adds markup: {html}"
            );
        }
        assert_one_line(&snippet(query).embed_query());
    }
}

/// `task_list::parse_task_list` (pasted or uploaded lists, `--tasks-file`),
/// with the CLI's and the browser's limits. An accepted list keeps its
/// tasks through an experiment file.
/// The "share these tasks" link's text (`#main-thread=`): read back or
/// refused by name with a message in both languages; what it reads
/// encodes again to the same text when that text is canonical, and always
/// to tasks equal to it.
pub fn check_task_link(text: &str) {
    use tailslice::workload::task_link::{decode, encode, LinkError, MAX_TASKS, MAX_TIME_MS};
    match decode(text) {
        Ok(t) => {
            assert!(
                !t.starts.is_empty() && t.starts.len() <= MAX_TASKS,
                "{text:?}"
            );
            assert_eq!(t.starts.len(), t.durations.len(), "{text:?}");
            for (s, d) in t.starts.iter().zip(&t.durations) {
                assert!(
                    *s >= 0.0 && *d >= 0.0 && s + d <= MAX_TIME_MS * (1.0 + 1e-12),
                    "{text:?}"
                );
            }
            match encode(&t.starts, &t.durations) {
                Ok(again) => assert_eq!(decode(&again).as_ref(), Ok(&t), "{text:?}"),
                Err(e) => assert!(matches!(e, LinkError::TooLong { .. }), "{text:?}: {e}"),
            }
        }
        Err(e) => {
            let m = e.messages();
            assert!(m.en.starts_with("#main-thread: "), "{text:?}: {m:?}");
            assert!(m.zh.starts_with("#main-thread："), "{text:?}: {m:?}");
            assert!(!m.en.contains('\n') && !m.zh.contains('\n'), "{text:?}");
            assert_eq!(m.en.lines().count(), 1);
        }
    }
}

pub fn check_task_list(text: &str) {
    // serde_json counts a last line after a final newline; so does this.
    let lines = text.split('\n').count();
    for limits in [Limits::CLI, Limits::WEB] {
        match task_list::parse_task_list(text, limits.max_tasks) {
            Ok(w) => {
                check_workload(&w, &limits);
                let every_policy = Experiment {
                    policies: PolicyKind::ALL.to_vec(),
                    ..Experiment::default()
                };
                run_if_small(&every_policy.for_workload(&w), Some(&w));
                let exp = Experiment::default().for_workload(&w);
                if exp.check_imported_size(&w, &limits).is_ok() {
                    let file = experiment_json(&exp, Some(&w), None);
                    let back = parse_experiment_json(&file, &limits).unwrap_or_else(|e| {
                        panic!("{text:?}: its experiment file is refused: {e}")
                    });
                    assert_eq!(back.tasks.as_ref(), Some(&w), "{text:?}");
                    assert_eq!(back.experiment, exp, "{text:?}");
                }
            }
            Err(e) => check_import_error(&e, lines),
        }
    }
}

fn check_workload(w: &Workload, limits: &Limits) {
    let n = w.len();
    assert!(n >= 1 && n as u64 <= limits.max_tasks);
    assert_eq!(w.arrival.len(), n);
    assert_eq!(w.class.len(), n);
    assert!(w.arrival.iter().all(|a| (0.0..=MAX_ARRIVAL_MS).contains(a)));
    assert!(w.work.iter().all(|d| (0.0..=MAX_TASK_MS).contains(d)));
    assert!((1..=MAX_CLASSES).contains(&w.class_labels.len()));
    assert!(w.class.iter().all(|&c| (c as usize) < w.class_labels.len()));
    for l in &w.class_labels {
        assert!(l.chars().count() <= MAX_LABEL_CHARS, "{l:?}");
    }
}

/// `export::parse_experiment_json` (Open experiment…): an accepted file,
/// written again, reads back the same.
pub fn check_experiment_file(text: &str) {
    // serde_json counts a last line after a final newline; so does this.
    let lines = text.split('\n').count();
    for limits in [Limits::CLI, Limits::WEB] {
        match parse_experiment_json(text, &limits) {
            Ok(f) => {
                if let Some(w) = &f.tasks {
                    check_workload(w, &limits);
                }
                run_if_small(&f.experiment, f.tasks.as_ref());
                let written = experiment_json(&f.experiment, f.tasks.as_ref(), f.ui.as_ref());
                let back = parse_experiment_json(&written, &limits)
                    .unwrap_or_else(|e| panic!("{text:?} written as {written:?} is refused: {e}"));
                assert_eq!(back, f, "{text:?}");
            }
            Err(e) => check_import_error(&e, lines),
        }
        // The page opens `measure --json` output through the same input.
        match parse_measure_text(text, &limits) {
            Ok(Some(m)) => {
                run_if_small(&m.file.experiment, m.file.tasks.as_ref());
                for row in &m.measured {
                    assert!(row.p50.is_finite() && row.max >= 0.0, "{text:?}");
                }
                for lang in [Lang::En, Lang::Zh] {
                    assert!(!environment_line(&m.environment, lang).is_empty());
                }
            }
            Ok(None) => {}
            Err(e) => check_import_error(&e, lines),
        }
    }
}

/// The written form of responsiveness settings reads back as the same
/// settings, and as the same query.
fn check_settings_round_trip(s: &Settings) {
    let q = s.to_query();
    let (back, errors) = Settings::from_query(q.iter().map(|(k, v)| (*k, v.as_str())));
    assert!(errors.is_empty(), "{q:?} is refused: {}", errors[0]);
    assert_eq!(&back, s, "{q:?}");
    assert_eq!(back.to_query(), q);
}

/// One responsiveness setting (`--yield`, `--yield-cost`, `--window`, or
/// a `resp_*` URL key): accepted values are in range and written back as
/// text that reads as the same value.
pub fn check_resp_setting(param: RespParam, field: &str, value: &str) {
    let mut s = Settings::default();
    match s.set(param, field, value) {
        Ok(()) => {
            let y = s.yielding;
            assert!(y.cost_ms.is_finite() && y.cost_ms >= 0.0, "{value:?}");
            assert!(!s.quanta.is_empty() && s.quanta.iter().all(|q| q.is_finite() && *q > 0.0));
            if let Some(w) = s.window {
                assert!(
                    w.start.is_finite() && w.end.is_finite() && w.start >= 0.0 && w.end > w.start
                );
            }
            let written = s.get(param);
            let mut again = Settings::default();
            again.set(param, field, &written).unwrap_or_else(|e| {
                panic!("{field} {value:?} written as {written:?} is refused: {e}")
            });
            assert_eq!(again, s, "{field} {value:?} written as {written:?}");
            check_settings_round_trip(&s);
        }
        Err(e) => check_param_error(&e, field),
    }
}

/// The page's responsiveness keys in a query string (`resp_yield`,
/// `resp_cost`, `resp_cost_from`, `resp_quanta`, `resp_window`): errors
/// name a key the link gives, and the settings written back open again
/// without a complaint.
pub fn check_resp_query(query: &str) {
    let pairs = decode_pairs(query);
    let (s, errors) = Settings::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    for e in &errors {
        assert!(
            pairs.iter().any(|(k, _)| *k == e.field),
            "unexpected field: {e}"
        );
        check_error_text(e);
    }
    check_settings_round_trip(&s);
}

/// Chunks the trace check lets a plan cut (a fuzzer's inputs must stay fast).
const TRACE_MAX_CHUNKS: u64 = 20_000;

/// `trace::import_trace` (a browser trace's bytes: `--trace-in`, the
/// page's trace reader): a value or one clear line. An accepted trace's
/// tasks are finite and never overlap, its summary adds up, and the
/// responsiveness model on them agrees with the summary: the same TBT and
/// long tasks, no blocking time once the quantum is 50 ms or less.
/// A trace's interactions: within the limits, finite non-negative phases,
/// handlers that are tasks and marked, INP one of the latencies, and the
/// summary one line per item.
fn check_interactions(imp: &tailslice::trace::TraceImport) {
    use tailslice::trace::interactions::MAX_INTERACTIONS;
    let it = &imp.interactions;
    let n = imp.recorded.len();
    assert_eq!(imp.handler.len(), n);
    assert!(it.list.len() <= MAX_INTERACTIONS);
    for i in &it.list {
        for v in [
            i.start_ms,
            i.latency_ms,
            i.input_delay_ms,
            i.processing_ms,
            i.presentation_ms,
            i.rendering_ms,
            i.script_after_ms,
        ] {
            assert!(v.is_finite(), "interaction {}: {v}", i.id);
        }
        for v in [
            i.latency_ms,
            i.input_delay_ms,
            i.processing_ms,
            i.presentation_ms,
        ] {
            assert!(v >= 0.0, "interaction {}: {v}", i.id);
        }
        for &h in &i.handlers {
            assert!(h < n && imp.handler[h], "handler {h} of {n}");
        }
        assert!(i.after.iter().chain(&i.waited_behind).all(|&t| t < n));
        assert!(!i.kind.name().is_empty());
        assert!(i.events.iter().all(|e| !e.chars().any(is_hidden_char)));
    }
    if let Some(inp) = it.inp {
        assert_eq!(it.list[inp.interaction].latency_ms, inp.latency_ms);
    }
    for lang in Lang::ALL {
        for line in it.lines(lang) {
            assert_one_line(&line);
        }
    }
}

pub fn check_trace(bytes: &[u8]) {
    let imp = match import_trace(bytes, &TraceOptions::default()) {
        Ok(imp) => imp,
        Err(e) => {
            for lang in Lang::ALL {
                assert_one_line(e.message(lang));
                assert!(!e.message(lang).is_empty());
            }
            return;
        }
    };
    let (starts, durations) = (&imp.recorded_start, &imp.recorded);
    let n = durations.len();
    assert!(n >= 1 && starts.len() == n && imp.workload.len() == n);
    assert_eq!(imp.found.tasks, n);
    for i in 0..n {
        assert!(
            starts[i].is_finite() && starts[i] >= 0.0,
            "start {i}: {}",
            starts[i]
        );
        assert!(
            durations[i].is_finite() && durations[i] >= 0.0,
            "task {i}: {}",
            durations[i]
        );
        if i + 1 < n {
            let end = starts[i] + durations[i];
            assert!(
                end <= starts[i + 1] + 1e-6 * end.abs().max(1.0),
                "task {i} ends at {end}, after the next starts at {}",
                starts[i + 1]
            );
        }
    }
    let long = durations.iter().filter(|&&d| d >= 50.0).count();
    assert_eq!(imp.found.long_tasks, long);
    for line in imp
        .found
        .lines(Lang::En)
        .iter()
        .chain(&imp.found.lines(Lang::Zh))
    {
        assert_one_line(line);
    }
    check_interactions(&imp);
    let tasks = Task::from_columns(starts, durations);
    let settings = Settings {
        quanta: vec![16.0, 50.0, 100.0],
        ..Settings::default()
    };
    if let Ok(a) = Answer::new(&tasks, &settings, Source::Trace, TRACE_MAX_CHUNKS).and_then(|a| {
        a.with_interactions(&tasks, &imp.interactions, &imp.handler, TRACE_MAX_CHUNKS)
    }) {
        let m = a.interactions.as_ref().expect("a trace's interactions");
        for (x, i) in m.modelled.iter().zip(&m.recorded.list) {
            let sliced = x
                .sliced
                .iter()
                .flat_map(|s| [s.latency_ms, s.input_delay_ms, s.presentation_ms]);
            let yielding = x
                .handlers_yield
                .iter()
                .flat_map(|h| [h.latency_ms, h.processing_ms, h.presentation_ms]);
            let all = [x.model_input_delay_ms]
                .into_iter()
                .chain(sliced)
                .chain(yielding);
            for v in all {
                assert!(v.is_finite() && v >= 0.0, "interaction {}: {v}", i.id);
            }
        }
        for lang in Lang::ALL {
            for line in tailslice::responsiveness::interactions_text::reading(&a, lang) {
                assert_one_line(&line);
            }
        }
        let rec = a.report.recorded();
        assert_eq!(rec.tbt_ms, imp.found.total_blocking_ms, "recorded TBT");
        assert_eq!(rec.long_tasks, imp.found.long_tasks);
        for row in &a.report.rows[1..=2] {
            assert_eq!(row.tbt_ms, 0.0, "TBT at q = {:?}", row.quantum_ms);
        }
        for lang in Lang::ALL {
            for line in a.reading(lang) {
                assert_one_line(&line);
            }
        }
    }
}
