//! Input delay in a real browser beside tailslice's model (printed, not a
//! pass/fail test): `scripts/bench-input.sh`.
//!
//! `tests/pages/input-delay.html` replays a Lighthouse-like schedule of 45
//! busy tasks, whole and sliced with `scheduler.yield()` at 50 and 16 ms,
//! while key presses are sent through Chromium's input path (CDP
//! `Input.dispatchKeyEvent`, pipelined) at uniformly random times. First an
//! idle page gives the transit time from the browser process to the main
//! thread. Per mode: presses, measured mean/p50/p98 (handler-side and Event
//! Timing), the model's mean/p98 on the pieces that ran without and with the
//! transit, their ratio and the share of presses handled at the yield.
//! `BENCH_INPUT_REPEATS` (default 12 runs per mode) and
//! `BENCH_INPUT_PRESSES` (default 100 presses per run).

use tailslice_e2e::bench_report::env_usize;
use tailslice_e2e::delay_check::{compare, planned_model, print_table, transit_of};
use tailslice_e2e::input_delay::{
    lighthouse_like, open_input_page, planned_span, press_keys_during, Mode, Recorded,
};
use tailslice_e2e::Result;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<()> {
    let repeats = env_usize("BENCH_INPUT_REPEATS", 12);
    let presses = env_usize("BENCH_INPUT_PRESSES", 100);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let tasks = lighthouse_like(23, 45);
    let (b, socket) = open_input_page().await?;
    let version = b.cdp("Browser.getVersion", serde_json::json!({})).await?;
    println!(
        "\nInput delay in headless {} (cross-origin isolated page), load average before: {}",
        version["product"].as_str().unwrap_or("Chromium"),
        load.trim()
    );
    println!(
        "Schedule: {} tasks, {:.0} ms busy over a {:.0} ms span (longest {:.0} ms); {repeats} runs × {presses} presses per mode",
        tasks.len(),
        tasks.iter().map(|t| t.dur).sum::<f64>(),
        planned_span(&tasks),
        tasks.iter().map(|t| t.dur).fold(0.0, f64::max)
    );

    let mut idle = Recorded::default();
    for r in 0..repeats.div_ceil(3) {
        idle.extend(
            press_keys_during(&b, &socket, &[], Mode::Whole, presses, 1000 + r as u64).await?,
        );
    }
    let (transit, transit_p50) = transit_of(&idle);
    println!(
        "Transit (idle page, {} presses): mean {transit:.3} ms, median {transit_p50:.3} ms",
        idle.presses.len()
    );

    let mut rows = Vec::new();
    for (m, mode) in [Mode::Whole, Mode::Sliced(50.0), Mode::Sliced(16.0)]
        .into_iter()
        .enumerate()
    {
        let mut runs = Vec::new();
        for r in 0..repeats {
            let seed = 100 * (m as u64 + 1) + r as u64;
            runs.push(press_keys_during(&b, &socket, &tasks, mode, presses, seed).await?);
        }
        rows.push((mode.label(), compare(&runs, transit)));
    }
    println!();
    print_table(&rows);
    println!("\nThe model on the schedule as planned (the crate's own plan, scheduler.yield() at 0.1 ms a yield, no transit):");
    for mode in [Mode::Whole, Mode::Sliced(50.0), Mode::Sliced(16.0)] {
        let (mean, p98) = planned_model(&tasks, mode);
        println!(
            "  {:<16} mean {mean:6.2} ms, p98 {p98:6.1} ms",
            mode.label()
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average after: {}", load.trim());
    drop(socket);
    b.finish().await
}
