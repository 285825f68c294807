//! Every parser of outside input against arbitrary Unicode: multi-byte
//! characters at every position of valid inputs, control and bidirectional
//! characters (U+202A–202E, U+2066–2069), huge and tiny numbers (1e308,
//! 1e-308, -0, NaN, inf), percent-encoded bytes that are not UTF-8, and very
//! long strings. Each must return a value or an error naming the field,
//! never panic, in bounded time; what the properties are is written once in
//! `parser_props` (shared with the fuzz targets in `crate/fuzz/`).
//!
//! A panic on `m=é` in `Machine::parse` (a byte slice inside a character)
//! is the kind of bug this file exists for: property tests over ASCII never
//! generate such text.

mod cpu_budget;
mod parser_props;

use std::time::Duration;

use proptest::prelude::*;
use tailslice::experiment::export::experiment_json;
use tailslice::experiment::Experiment;
use tailslice::workload::mix::DEFAULT_MIX;
use tailslice::workload::task_list;

use parser_props::*;

/// One parser of outside input, as a check of raw text.
type Check = fn(&str);

/// Characters that break naive parsers: every UTF-8 length, controls,
/// bidirectional overrides and isolates, invisible and look-alike
/// characters (fullwidth digits, the minus sign, Arabic-Indic digits).
/// `tailslice measure --json --tasks 30 --mix 1:1-5 --repeats 3` as the
/// command wrote it (as root).
const MEASURE_OUTPUT: &str = include_str!("fixtures/measure/fifo-rr-30-tasks.json");

const NASTY: [char; 28] = [
    'é',
    '中',
    '😀',
    '\u{0}',
    '\u{7f}',
    '\u{85}',
    '\n',
    '\r',
    '\t',
    '\u{1b}',
    '\u{202A}',
    '\u{202B}',
    '\u{202C}',
    '\u{202D}',
    '\u{202E}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{200B}',
    '\u{FEFF}',
    '\u{2028}',
    '\u{FF11}',
    '\u{2212}',
    '\u{0663}',
    '\u{10FFFF}',
    '\u{FFFD}',
    'İ',
];

/// Number spellings at the edges of `f64` and `u64`.
const NUMBERS: [&str; 30] = [
    "1e308",
    "1e-308",
    "-1e308",
    "1e309",
    "5e-324",
    "4.9e-324",
    "2.2250738585072014e-308",
    "-0",
    "-0.0",
    "+0",
    "NaN",
    "nan",
    "-NaN",
    "inf",
    "-inf",
    "infinity",
    "18446744073709551615",
    "18446744073709551616",
    "9007199254740993",
    "-1",
    "0",
    "1",
    "64",
    "65",
    "0x10",
    "1_000",
    ".5",
    "5.",
    "1e",
    "00000000000000000000000000000000000000001",
];

/// Where each parser is reached, with inputs it accepts.
fn parsers() -> Vec<(&'static str, Check, Vec<String>)> {
    // Compact files (the checks round-trip each variant through the
    // pretty-printed form anyway).
    let compact = |exp: &Experiment, tasks| {
        let pretty = experiment_json(exp, tasks, None);
        let v: serde_json::Value = serde_json::from_str(&pretty).expect("JSON");
        v.to_string()
    };
    let tasks = task_list::parse_task_list(
        "0,5,ui\n3,40,io\n",
        tailslice::experiment::Limits::CLI.max_tasks,
    )
    .expect("a valid list");
    let file = compact(
        &Experiment {
            seed: 7,
            quantum: 4.5,
            ..Experiment::default()
        },
        None,
    );
    let file_with_tasks = compact(&Experiment::default(), Some(&tasks));
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (
            "machine",
            check_machine as Check,
            s(&[
                "a10", "m1", "xeon-w", "2p+4e", "2p 4e", "2p + 4e", "4p", "1p+1e+2p",
            ]),
        ),
        (
            "mix",
            check_mix,
            s(&[
                DEFAULT_MIX,
                "1:lognormal(1.5,0.8),1:pareto(2,1.5),1:exp(5),1:fixed(3)",
            ]),
        ),
        (
            "arrivals",
            check_arrivals,
            s(&["t0", "poisson:0.9", "burst:50@100"]),
        ),
        (
            "url query",
            check_query,
            s(&[
                "seed=7&n=100&mix=85:1-8,12:10-40&q=4&p=fifo,rr,srpt&cores=2&cs=0.1",
                "rng=fast&within=50&arrivals=burst:5@10&mlfq_levels=4&mlfq_boost=off&p=mlfq",
                "p=eevdf,rr&mix=85:1-8@nice=5,3:80-200&eevdf_slice_end=exact",
            ]),
        ),
        (
            "scenario query",
            check_scenario_query,
            s(&[
                "s=feishu-demo&bl=on&nq=10&groups=33,25&m=2p+4e",
                "s=m1-compress&ep=0.5&sys=on&secs=5&tl=off",
            ]),
        ),
        (
            "embed query",
            check_embed_query,
            s(&[
                "embed=1&view=table&controls=0&theme=dark",
                "seed=3&view=cdf&theme=light&embed=0",
            ]),
        ),
        (
            "task link",
            check_task_link,
            s(&[
                &tailslice::workload::task_link::encode(
                    &[0.0, 275.033, 320.5],
                    &[275.0, 12.25, 0.001],
                )
                .expect("a valid link"),
                "1.AQAA",
            ]),
        ),
        (
            "task list",
            check_task_list,
            s(&[
                "arrival_ms,duration_ms,class\n0,5,ui\n3,40,\"io\"\n",
                "5\n12.5 # slow\r\n",
            ]),
        ),
        (
            "experiment file",
            check_experiment_file,
            vec![file, file_with_tasks],
        ),
        (
            "responsiveness query",
            check_resp_query,
            s(&[
                "resp_yield=timeout&resp_cost=0.26&resp_cost_from=measured",
                "resp_quanta=4,16,48&resp_window=100-5000",
            ]),
        ),
        ("trace", |t| check_trace(t.as_bytes()), s(&SMALL_TRACES)),
    ]
}

/// Small traces in the forms DevTools and Perfetto write: the object form
/// with complete events, and the bare array with begin/end pairs.
const SMALL_TRACES: [&str; 3] = [
    r#"{"traceEvents":[{"ph":"M","name":"thread_name","pid":7,"tid":1,"args":{"name":"CrRendererMain"}},{"ph":"X","name":"RunTask","pid":7,"tid":1,"ts":1000,"dur":75000},{"ph":"X","name":"RunTask","pid":7,"tid":1,"ts":90000,"dur":5000}]}"#,
    r#"[{"ph":"M","name":"thread_name","pid":3,"tid":3,"args":{"name":"CrRendererMain"}},{"ph":"B","name":"RunTask","pid":3,"tid":3,"ts":10},{"ph":"E","pid":3,"tid":3,"ts":60010},{"ph":"X","name":"RunTask","pid":3,"tid":3,"ts":70000,"dur":1200}]"#,
    r#"{"traceEvents":[{"ph":"M","name":"thread_name","pid":7,"tid":1,"args":{"name":"CrRendererMain"}},{"ph":"X","name":"RunTask","pid":7,"tid":1,"ts":1000,"dur":75000},{"ph":"X","name":"RunTask","pid":7,"tid":1,"ts":80000,"dur":9000},{"ph":"b","name":"EventTiming","cat":"devtools.timeline","id2":{"local":"0x1"},"pid":7,"tid":1,"ts":30000,"args":{"data":{"type":"click","interactionId":5,"timeStamp":30,"processingStart":81,"processingEnd":88,"duration":64}}},{"ph":"e","name":"EventTiming","pid":7,"tid":1,"ts":94000}]}"#,
];

/// Every CLI flag with a value it accepts.
const FLAGS: [(&str, &str); 37] = [
    ("--seed", "42"),
    ("--tasks", "400"),
    ("--mix", "85:1-8,3:exp(5)"),
    ("--quantum", "16"),
    ("--policies", "fifo,rr,mlfq"),
    ("--cores", "4"),
    ("--switch-cost", "0.5"),
    ("--rng", "python"),
    ("--within", "100"),
    ("--arrivals", "poisson:0.9"),
    ("--mlfq-levels", "3"),
    ("--mlfq-boost", "1000"),
    ("--band-limit", "on"),
    ("--queues", "100"),
    ("--groups", "userInitiated,utility"),
    ("--machine", "2p+4e"),
    ("--ep-ratio", "0.3"),
    ("--system-work", "off"),
    ("--seconds", "10"),
    ("--timeline", "on"),
    ("--lang", "zh-CN"),
    ("--seeds", "1-100"),
    ("--quanta", "1,2,4"),
    ("--repeat", "3"),
    ("--mlfq-boost", "off"),
    ("--eevdf-slice-end", "exact"),
    ("--eevdf-slice-end", "tick"),
    ("--figure", "histogram"),
    ("--theme", "dark"),
    ("--quanta", "4,16,48"),
    ("--yield", "message"),
    ("--yield-cost", "0.25"),
    ("--window", "100-5000"),
    ("--repeats", "3"),
    ("--policies", "fifo,rr,eevdf"),
    ("--transit", "0.9"),
    ("--budget", "inp=200,tbt=300"),
];

/// Runs `check` and fails if it takes more than `limit` of CPU time
/// (generous: the test binary is unoptimised; a parser that hangs or goes
/// quadratic on long input is far beyond it). CPU time, so a busy machine
/// does not count against it.
fn timed(what: &str, text: &str, limit: Duration, check: impl FnOnce()) {
    cpu_budget::within(
        format_args!(
            "{what} on {} bytes starting {:?}",
            text.len(),
            text.chars().take(40).collect::<String>()
        ),
        limit,
        check,
    );
}

const SHORT: Duration = Duration::from_secs(2);

/// Every valid input with each nasty character inserted at, and put in
/// place of the character at, every position; then every number edge case
/// in place of each run of digits.
fn variants(valid: &str) -> Vec<String> {
    let chars: Vec<char> = valid.chars().collect();
    let mut out = Vec::new();
    for i in 0..=chars.len() {
        for &c in &NASTY {
            let mut ins = chars.clone();
            ins.insert(i, c);
            out.push(ins.into_iter().collect());
            if i < chars.len() {
                let mut rep = chars.clone();
                rep[i] = c;
                out.push(rep.into_iter().collect());
            }
        }
    }
    let bytes = valid.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            for n in NUMBERS {
                out.push(format!("{}{n}{}", &valid[..start], &valid[i..]));
            }
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn nasty_characters_at_every_position_of_valid_inputs() {
    for (name, check, examples) in parsers() {
        for valid in examples {
            timed(name, &valid, SHORT, || check(&valid));
            for text in variants(&valid) {
                timed(name, &text, SHORT, || check(&text));
            }
        }
    }
    for valid in ["0.5-500", "1,2,4,8", "0.001-100000"] {
        for text in variants(valid) {
            for steps in [0, 2, 16, 200, 201] {
                timed("quanta field", &text, SHORT, || {
                    check_quanta_field(steps, &text)
                });
            }
        }
    }
    for (flag, valid) in FLAGS {
        check_flag(flag, valid);
        for text in variants(valid) {
            timed(flag, &text, SHORT, || check_flag(flag, &text));
        }
        for n in NUMBERS {
            check_flag(flag, n);
        }
    }
}

/// Text ending inside a multi-byte character, at every level the page and the
/// CLI reach them.
#[test]
fn machine_values_ending_in_a_multibyte_character_are_refused() {
    for text in ["é", "2p+4中", "4p+é", "😀p", "2p+4e\u{202E}", "中e"] {
        check_machine(text);
        check_flag("--machine", text);
        check_scenario_query(&format!("s=feishu-demo&m={text}"));
    }
}

/// Very long values: each parser answers in bounded time (no quadratic
/// scans, no unbounded work before a limit is checked).
#[test]
fn very_long_inputs_are_answered_quickly() {
    const LONG: Duration = Duration::from_secs(5);
    let n = 200_000;
    let longs = [
        "é".repeat(n),
        "1".repeat(n),
        "1,".repeat(n),
        "1:1-8,".repeat(n / 6),
        "(".repeat(n),
        "2p+".repeat(n / 3),
        "%E2%80%AE".repeat(n / 9),
        format!("{}\u{202E}", "9".repeat(n)),
    ];
    for text in &longs {
        for (name, check, _) in parsers() {
            timed(name, text, LONG, || check(text));
        }
        for (flag, _) in FLAGS {
            timed(flag, text, LONG, || check_flag(flag, text));
        }
    }
    // A long but valid list (the round trip through an experiment file is
    // part of the check).
    let list = "1\n".repeat(n / 10);
    timed("task list", &list, LONG, || check_task_list(&list));
}

/// Text made of the grammars' own punctuation, digits and nasty characters.
fn nasty_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => any::<char>(),
        3 => prop::sample::select(NASTY.to_vec()),
        4 => prop::sample::select("0123456789.,:-+()@=&%#\"pe xs".chars().collect::<Vec<_>>()),
    ]
}

fn nasty_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec(nasty_char(), 0..48).prop_map(|v| v.into_iter().collect()),
        1 => prop::sample::select(NUMBERS.to_vec()).prop_map(str::to_string),
        1 => prop::collection::vec(nasty_char(), 48..300).prop_map(|v| v.into_iter().collect()),
    ]
}

/// A query string: known keys (and others) with nasty values, percent-encoded
/// or raw, plus encoded bytes that are not UTF-8.
fn nasty_query() -> impl Strategy<Value = String> {
    let keys = [
        "seed",
        "n",
        "mix",
        "q",
        "p",
        "cores",
        "cs",
        "rng",
        "within",
        "arrivals",
        "mlfq_levels",
        "mlfq_boost",
        "eevdf_slice_end",
        "s",
        "bl",
        "nq",
        "groups",
        "m",
        "ep",
        "sys",
        "secs",
        "tl",
        "v",
        "embed",
        "resp_yield",
        "resp_cost",
        "resp_cost_from",
        "resp_quanta",
        "resp_window",
        "view",
        "controls",
        "theme",
        "é",
        "",
    ]
    .map(str::to_string)
    .to_vec();
    let value = prop_oneof![
        3 => nasty_text().prop_map(|v| tailslice::query_string::percent_encode(&v)),
        1 => nasty_text(),
        1 => prop::collection::vec(any::<u8>(), 0..12)
            .prop_map(|b| b.iter().map(|x| format!("%{x:02X}")).collect()),
    ];
    prop::collection::vec((prop::sample::select(keys), value), 0..8).prop_map(|pairs| {
        pairs
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    })
}

/// A number for a mix or arrivals argument: mostly anywhere in `lo..=hi`
/// (its allowed range), sometimes an edge case or any `f64` (the syntax is
/// right, the values are what is hostile).
fn number_in(lo: f64, hi: f64) -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (lo..=hi).prop_map(|v| v.to_string()),
        1 => prop::sample::select(NUMBERS.to_vec()).prop_map(str::to_string),
        1 => any::<f64>().prop_map(|v| v.to_string()),
    ]
}

/// An optional `@QOS`, `@nice=N` and `~APP[:KIND]` after a class's
/// distribution: mostly well formed, sometimes hostile text in the name or
/// the nice value.
fn class_suffix() -> impl Strategy<Value = String> {
    let qos = prop::sample::select(vec!["", "@utility", "@9", "@userInitiated", "@Background"]);
    let nice = prop_oneof![
        3 => Just(String::new()),
        3 => (-20i32..=19).prop_map(|n| format!("@nice={n}")),
        1 => number_in(-40.0, 40.0).prop_map(|n| format!("@NICE={n}")),
        1 => nasty_text().prop_map(|t| format!("@nice={t}")),
    ];
    let app = prop_oneof![
        3 => Just(String::new()),
        3 => "[a-z0-9_-]{1,24}".prop_map(|n| format!("~{n}")),
        2 => ("[a-zA-Z0-9_-]{1,8}", prop::sample::select(vec!["ui", "normal", "efficient", "UI", "fast", ""]))
            .prop_map(|(n, k)| format!("~{n}:{k}")),
        1 => nasty_text().prop_map(|t| format!("~{t}")),
    ];
    (qos, nice, app).prop_map(|(q, n, a)| format!("{q}{n}{a}"))
}

/// A syntactically valid mix of 1 to 4 classes with such numbers (and
/// some QoS and app suffixes).
fn structured_mix() -> impl Strategy<Value = String> {
    const MAX: f64 = tailslice::workload::mix::MAX_TASK_MS;
    let class = (
        number_in(0.0, 1e9),
        0..5usize,
        number_in(0.0, MAX),
        number_in(0.0, MAX),
        number_in(-20.0, 20.0),
        number_in(0.0, 10.0),
        number_in(0.0, 100.0),
        class_suffix(),
    )
        .prop_map(|(w, kind, a, b, mu, sigma, alpha, suffix)| {
            let class = match kind {
                0 => format!("{w}:{a}-{b}"),
                1 => format!("{w}:fixed({a})"),
                2 => format!("{w}:exp({a})"),
                3 => format!("{w}:lognormal({mu},{sigma})"),
                _ => format!("{w}:pareto({a},{alpha})"),
            };
            format!("{class}{suffix}")
        });
    prop::collection::vec(class, 1..5).prop_map(|c| c.join(","))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn machine_never_panics(text in nasty_text()) {
        timed("machine", &text, SHORT, || check_machine(&text));
    }

    #[test]
    fn mix_never_panics(text in nasty_text()) {
        timed("mix", &text, SHORT, || check_mix(&text));
    }

    #[test]
    fn structured_mixes_keep_their_properties(mix in structured_mix(), n in prop_oneof![1u64..64, 1u64..2_000_000], q in number_in(0.0, 50.0), p in 0..5usize) {
        timed("mix", &mix, SHORT, || check_mix(&mix));
        // The same mix in a link: what is accepted fits, and small ones run.
        let policies = ["fifo", "rr", "sjf,srpt", "mlfq,eevdf", "fifo,rr,sjf,srpt,mlfq,eevdf"][p];
        let query = format!(
            "mix={}&n={n}&q={q}&p={policies}&cores={}&cs={}",
            tailslice::query_string::percent_encode(&mix),
            1 + p * 3,
            p as f64 * 0.5
        );
        timed("query", &query, SHORT, || check_query(&query));
    }

    #[test]
    fn structured_arrivals_keep_their_properties(a in number_in(0.0, 2.0), c in number_in(0.0, 1e4), p in number_in(0.0, 3.6e6), kind in 0..2usize) {
        let text = if kind == 0 { format!("poisson:{a}") } else { format!("burst:{}@{p}", c.split('.').next().unwrap_or("")) };
        timed("arrivals", &text, SHORT, || check_arrivals(&text));
    }

    #[test]
    fn arrivals_never_panic(text in nasty_text()) {
        timed("arrivals", &text, SHORT, || check_arrivals(&text));
    }

    #[test]
    fn every_flag_never_panics(i in 0..FLAGS.len(), text in nasty_text()) {
        let flag = FLAGS[i].0;
        timed(flag, &text, SHORT, || check_flag(flag, &text));
    }

    #[test]
    fn sweep_quanta_fields_never_panic(steps in prop_oneof![0u32..=300, any::<u32>()], text in nasty_text()) {
        timed("quanta field", &text, SHORT, || check_quanta_field(steps, &text));
    }

    #[test]
    fn url_queries_never_panic(query in nasty_query()) {
        timed("query", &query, SHORT, || check_query(&query));
        timed("scenario query", &query, SHORT, || check_scenario_query(&query));
        timed("responsiveness query", &query, SHORT, || check_resp_query(&query));
        timed("embed query", &query, SHORT, || check_embed_query(&query));
    }

    #[test]
    fn traces_with_hostile_names_and_numbers_never_panic(
        names in prop::collection::vec(nasty_text(), 1..4),
        numbers in prop::collection::vec(prop_oneof![
            3 => (0.0f64..2e5).prop_map(|v| v.to_string()),
            1 => prop::sample::select(NUMBERS.to_vec()).prop_map(str::to_string),
        ], 6),
    ) {
        // A well-formed trace whose thread and task names and times are
        // hostile (numbers given as JSON text: NaN, 1e309 and "-0" too).
        let name = |i: usize| serde_json::json!(names[i % names.len()]).to_string();
        let trace = format!(
            r#"{{"traceEvents":[{{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{{"name":{}}}}},{{"ph":"M","name":"thread_name","pid":2,"tid":2,"args":{{"name":"CrRendererMain"}}}},{{"ph":"X","name":{},"pid":2,"tid":2,"ts":{},"dur":{}}},{{"ph":"X","name":"RunTask","pid":2,"tid":2,"ts":{},"dur":{}}},{{"ph":"X","name":{},"pid":2,"tid":2,"ts":{},"dur":{}}}]}}"#,
            name(0), name(1), numbers[0], numbers[1], numbers[2], numbers[3], name(2), numbers[4], numbers[5]
        );
        timed("trace", &trace, SHORT, || check_trace(trace.as_bytes()));
    }

    #[test]
    fn event_timing_entries_with_hostile_fields_never_panic(
        kind in nasty_text(),
        numbers in prop::collection::vec(prop_oneof![
            3 => (0.0f64..2e5).prop_map(|v| v.to_string()),
            1 => prop::sample::select(NUMBERS.to_vec()).prop_map(str::to_string),
        ], 6),
        copies in 1usize..4,
    ) {
        // A trace with one interaction whose type is hostile text and whose
        // id and times are hostile numbers (given as JSON text), repeated.
        let entry = format!(
            r#"{{"ph":"b","name":"EventTiming","pid":2,"tid":2,"ts":{},"args":{{"data":{{"type":{},"interactionId":{},"timeStamp":{},"processingStart":{},"processingEnd":{},"duration":{}}}}}}}"#,
            numbers[0], serde_json::json!(kind), numbers[1], numbers[2], numbers[3], numbers[4], numbers[5]
        );
        let trace = format!(
            r#"{{"traceEvents":[{{"ph":"M","name":"thread_name","pid":2,"tid":2,"args":{{"name":"CrRendererMain"}}}},{{"ph":"X","name":"RunTask","pid":2,"tid":2,"ts":0,"dur":90000}},{}]}}"#,
            vec![entry; copies].join(",")
        );
        timed("trace", &trace, SHORT, || check_trace(trace.as_bytes()));
    }

    #[test]
    fn task_links_never_panic(text in nasty_text(), data in "[A-Za-z0-9_-]{0,64}") {
        timed("task link", &text, SHORT, || check_task_link(&text));
        let link = format!("1.{data}");
        timed("task link", &link, SHORT, || check_task_link(&link));
    }

    #[test]
    fn task_links_round_trip(tasks in prop::collection::vec((0u64..10_000_000_000, 0u64..100_000_000), 1..200)) {
        use tailslice::workload::task_link::{decode, encode};
        let starts: Vec<f64> = tasks.iter().map(|t| t.0 as f64 / 1000.0).collect();
        let durations: Vec<f64> = tasks.iter().map(|t| t.1 as f64 / 1000.0).collect();
        let text = encode(&starts, &durations).expect("200 tasks fit a link");
        let back = decode(&text).expect("its own link");
        prop_assert_eq!(back.starts, starts);
        prop_assert_eq!(back.durations, durations);
    }

    #[test]
    fn task_lists_never_panic(lines in prop::collection::vec(nasty_text(), 0..12)) {
        let text = lines.join("\n");
        timed("task list", &text, SHORT, || check_task_list(&text));
    }

    #[test]
    fn task_list_classes_with_hostile_nice_values_never_panic(
        labels in prop::collection::vec((nasty_text(), prop_oneof![
            2 => (-20i32..=19).prop_map(|n| n.to_string()),
            1 => number_in(-1e3, 1e3),
            1 => nasty_text(),
        ]), 1..6),
    ) {
        // Well-formed lines whose class gives a nice value (`NAME@nice=N`),
        // with hostile names and values.
        let text = labels
            .iter()
            .enumerate()
            .map(|(i, (name, n))| format!("{i},5,{}@nice={n}", name.replace([',', '\n', '\r'], " ")))
            .collect::<Vec<_>>()
            .join("\n");
        timed("task list", &text, SHORT, || check_task_list(&text));
    }

    #[test]
    fn experiment_files_never_panic(values in prop::collection::vec(nasty_text(), 1..4), raw in nasty_text()) {
        // A well-formed file whose parameter values are hostile, and raw text.
        let keys = ["q", "mix", "m", "seed"];
        let params = values
            .iter()
            .zip(keys)
            .map(|(v, k)| format!("{}:{}", serde_json::json!(k), serde_json::json!(v)))
            .collect::<Vec<_>>()
            .join(",");
        let file = format!(r#"{{"format":"tailslice-experiment","version":1,"params":{{{params}}},"ui":{}}}"#, serde_json::json!(raw));
        timed("experiment file", &file, SHORT, || check_experiment_file(&file));
        timed("experiment file", &raw, SHORT, || check_experiment_file(&raw));
    }

    #[test]
    fn measure_outputs_never_panic(policy in nasty_text(), kernel in nasty_text(), value in nasty_text()) {
        // A `measure --json` output whose strings are hostile: the row's
        // policy, the kernel's release, one parameter of its experiment.
        let mut v: serde_json::Value = serde_json::from_str(MEASURE_OUTPUT).unwrap();
        v["measured"][0]["policy"] = serde_json::json!(policy);
        v["environment"]["kernel"] = serde_json::json!(kernel);
        v["experiment"]["params"]["mix"] = serde_json::json!(value);
        let file = v.to_string();
        timed("measure output", &file, SHORT, || check_experiment_file(&file));
    }
}
