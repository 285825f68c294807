//! Input delay in a real browser holds to tailslice's model: headless
//! Chromium replays a Lighthouse-like schedule of busy tasks
//! (`tests/pages/input-delay.html`), whole and sliced with
//! `scheduler.yield()` at 50 and 16 ms, while key presses arrive through its
//! input path at uniformly random times (CDP `Input.dispatchKeyEvent`,
//! pipelined). Each press's delay is measured in its handler and, when the
//! browser reports one, by Event Timing; the model is the crate's exact
//! distribution on the pieces that actually ran, plus the transit time
//! measured on the idle page.
//!
//! Tolerances come from the sample, not from wall-clock goals:
//! * the mean within 20 % (what the transit's own spread and the presses'
//!   handling leave unmodelled) plus three standard errors of a mean of n
//!   presses, the model's own standard deviation over √n;
//! * the p98 between the model's quantiles at 0.98 ± three standard errors
//!   of a sample quantile's rank (√(0.98·0.02/n)), plus the transit and
//!   2 ms for the handlers of presses queued behind each other;
//! * Event Timing's reading and the handler's within 1 ms of each other
//!   (median: a thread descheduled between the two widens single gaps);
//! * at least 90 % of presses arriving inside a piece handled at its yield,
//!   before the continuation (the model's second assumption).

use tailslice_e2e::delay_check::{compare, print_table, transit_of, Comparison};
use tailslice_e2e::input_delay::{
    lighthouse_like, open_input_page, press_keys_during, Mode, Recorded,
};
use tailslice_e2e::Result;

/// Runs per mode and presses per run: 1,200 presses over the three modes.
const RUNS: usize = 4;
const PRESSES: usize = 100;

fn check(label: &str, c: &Comparison, sliced: bool) {
    assert!(c.n >= RUNS * PRESSES, "{label}: {} presses measured", c.n);
    let expected = c.model_mean_with_transit();
    let tolerance = 0.2 * expected + 3.0 * c.mean_standard_error();
    assert!(
        (c.mean - expected).abs() <= tolerance,
        "{label}: measured mean {:.2} ms vs model {:.2} ms + transit {:.2} ms: off by more than {tolerance:.2} ms",
        c.mean,
        c.model_mean,
        c.transit
    );
    let low = c.model_p98_low + c.transit - 2.0;
    let high = c.model_p98_high + c.transit + 2.0;
    assert!(
        (low..=high).contains(&c.p98),
        "{label}: measured p98 {:.1} ms outside the model's sampling range {low:.1}–{high:.1} ms",
        c.p98
    );
    assert!(
        c.event_timing_gap_p50 <= 1.0,
        "{label}: Event Timing and the handler disagree by {:.2} ms (median)",
        c.event_timing_gap_p50
    );
    if sliced {
        assert!(
            c.at_yield_eligible > 0,
            "{label}: no press arrived inside a piece"
        );
        assert!(
            c.at_yield_share() >= 0.9,
            "{label}: only {:.1} % of presses inside a piece were handled at its yield",
            100.0 * c.at_yield_share()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_delay_in_chromium_agrees_with_the_model() -> Result<()> {
    let tasks = lighthouse_like(23, 45);
    let (b, socket) = open_input_page().await?;

    let mut idle = Recorded::default();
    for r in 0..2 {
        idle.extend(press_keys_during(&b, &socket, &[], Mode::Whole, PRESSES, 1000 + r).await?);
    }
    let (transit, _) = transit_of(&idle);
    assert_eq!(
        idle.presses.len(),
        2 * PRESSES,
        "every press on the idle page was handled"
    );
    assert!(
        transit > 0.0 && transit < 5.0,
        "transit from the browser process to the main thread {transit:.3} ms"
    );

    let mut rows = Vec::new();
    for (m, mode) in [Mode::Whole, Mode::Sliced(50.0), Mode::Sliced(16.0)]
        .into_iter()
        .enumerate()
    {
        let mut runs = Vec::new();
        for r in 0..RUNS {
            let seed = 100 * (m as u64 + 1) + r as u64;
            let run = press_keys_during(&b, &socket, &tasks, mode, PRESSES, seed).await?;
            assert_eq!(
                run.presses.len(),
                PRESSES,
                "{}: every press handled once",
                mode.label()
            );
            assert!(
                run.pieces.len() >= tasks.len(),
                "{}: {} pieces for {} tasks",
                mode.label(),
                run.pieces.len(),
                tasks.len()
            );
            runs.push(run);
        }
        rows.push((mode.label(), compare(&runs, transit)));
    }
    println!("transit {transit:.3} ms");
    print_table(&rows);
    for (i, (label, c)) in rows.iter().enumerate() {
        check(label, c, i > 0);
    }
    // Slicing must show: the sliced means are far below the whole tasks'.
    assert!(rows[1].1.mean < rows[0].1.mean && rows[2].1.mean < rows[1].1.mean);
    drop(socket);
    b.finish().await
}
