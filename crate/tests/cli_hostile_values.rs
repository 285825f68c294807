//! The CLI on hostile flag values: multi-byte, control and bidi
//! characters and edge-case numbers for every flag of every subcommand get
//! exit status 2 and one line naming the flag — never a panic (status 101).

mod cli_run;
use cli_run::tailslice;

/// Asserts a refusal: status 2, one `error:` line on stderr naming `flag`.
fn assert_refused(args: &[&str], flag: &str) {
    let o = tailslice(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {err}");
    assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
    assert!(lines[0].contains(flag), "{args:?} must name {flag}: {err}");
}

#[test]
fn machine_ending_in_a_multibyte_character_is_refused_not_a_panic() {
    // A byte slice inside 'é' would panic with status 101.
    for m in ["é", "2p+4中", "4p+😀", "中e"] {
        assert_refused(&["scenario", "feishu-demo", "--machine", m], "--machine");
    }
    let o = tailslice(&["scenario", "feishu-demo", "--machine", "é"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim_end(),
        "error: invalid --machine 'é': expected a10, m1, xeon-w or <P>p+<E>e with 1 to 64 cores in all (e.g. 2p+4e)"
    );
}

/// Values no flag accepts.
const HOSTILE: [&str; 8] = [
    "é",
    "2p+4中",
    "\u{202E}16",
    "1\u{2066}",
    "１６",
    "NaN",
    "1e309",
    "\u{1b}[2J",
];

#[test]
fn every_flag_refuses_hostile_values_with_its_name() {
    let simulate = [
        "--seed",
        "--tasks",
        "--mix",
        "--quantum",
        "--policies",
        "--cores",
        "--switch-cost",
        "--rng",
        "--within",
        "--arrivals",
        "--mlfq-levels",
        "--mlfq-boost",
        "--eevdf-slice-end",
        "--lang",
    ];
    let knobs = [
        "--band-limit",
        "--queues",
        "--groups",
        "--machine",
        "--ep-ratio",
        "--system-work",
        "--seconds",
        "--timeline",
        "--lang",
    ];
    for v in HOSTILE {
        for flag in simulate {
            assert_refused(&["simulate", flag, v], flag);
        }
        for flag in knobs {
            assert_refused(&["scenario", "m1-compress", flag, v], flag);
        }
        assert_refused(&["sweep", "--seeds", v], "--seeds");
        assert_refused(&["sweep", "--quanta", v], "--quanta");
        assert_refused(&["bench", "--repeat", v], "--repeat");
    }
}

#[test]
fn a_machine_count_past_usize_is_refused() {
    // Summed unchecked, this wrapped around (a 1-core machine in release
    // builds, an overflow panic in debug builds).
    assert_refused(
        &[
            "scenario",
            "feishu-demo",
            "--machine",
            "18446744073709551615p+2p",
        ],
        "--machine",
    );
}
