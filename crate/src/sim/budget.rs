//! A work meter for scenario runs, so that a shared link can neither hang
//! the page's worker nor keep it busy without telling the visitor.
//!
//! The event loop of a run configured to be metered
//! (`EngineConfig::metered`) charges every instant with the work it does:
//! one unit per core scanned, plus what the class reports of its own
//! (`Policy::take_work`: one per thread at a tick or load sample), the
//! costs that grow with the machine and the workload. A front end that wants a
//! bound runs a scenario inside [`metered`], with a budget and an optional
//! progress callback; without it (the CLI, the tests) nothing is bounded
//! and nothing changes. A run over budget stops at once and is reported as
//! too large by the caller, naming the knobs.
//!
//! The meter is thread-local rather than threaded through every scenario's
//! `run`, because the scenarios call the loop several times each and only
//! the outermost caller knows the budget.

use std::cell::RefCell;

/// Units charged between two progress callbacks.
const REPORT_EVERY: u64 = 1 << 20;

struct Meter {
    done: u64,
    budget: u64,
    exceeded: bool,
    next_report: u64,
    /// Simulations started (a scenario runs several) and the share of the
    /// current one's simulated time done.
    runs: u32,
    frac: f64,
    progress: Option<Box<dyn FnMut(Progress)>>,
}

/// What a progress callback is told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Units of work done so far.
    pub units: u64,
    /// The budget (units).
    pub budget: u64,
    /// Which simulation of the scenario is running (1-based).
    pub run: u32,
    /// Share of that simulation's time span done, 0 to 1.
    pub frac: f64,
}

/// A simulation starts (the progress counts runs).
pub(crate) fn begin_run() {
    METER.with(|m| {
        if let Some(m) = m.borrow_mut().as_mut() {
            m.runs += 1;
            m.frac = 0.0;
        }
    })
}

/// [`charge`], also noting how far the current simulation has got.
pub(crate) fn charge_at(units: u64, frac: f64) -> bool {
    METER.with(|m| {
        if let Some(m) = m.borrow_mut().as_mut() {
            m.frac = frac.clamp(0.0, 1.0);
        }
    });
    charge(units)
}

thread_local! {
    static METER: RefCell<Option<Meter>> = const { RefCell::new(None) };
}

/// Charges `units` of work; `false` once the budget is spent (the loop
/// then stops). Always `true` outside [`metered`].
pub(crate) fn charge(units: u64) -> bool {
    METER.with(|m| {
        let mut m = m.borrow_mut();
        let Some(m) = m.as_mut() else {
            return true;
        };
        m.done = m.done.saturating_add(units);
        if m.done > m.budget {
            m.exceeded = true;
            return false;
        }
        if m.done >= m.next_report {
            m.next_report = m.done + REPORT_EVERY;
            let now = Progress {
                units: m.done,
                budget: m.budget,
                run: m.runs,
                frac: m.frac,
            };
            if let Some(p) = m.progress.as_mut() {
                p(now);
            }
        }
        true
    })
}

/// What a metered run used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Metered {
    pub units: u64,
    /// The budget ran out and the run was cut short.
    pub exceeded: bool,
}

/// Runs `f` with a work budget and a progress callback (called every
/// million units or so).
pub fn metered<R>(
    budget: u64,
    progress: Option<Box<dyn FnMut(Progress)>>,
    f: impl FnOnce() -> R,
) -> (R, Metered) {
    METER.with(|m| {
        *m.borrow_mut() = Some(Meter {
            done: 0,
            budget,
            exceeded: false,
            next_report: REPORT_EVERY,
            runs: 0,
            frac: 0.0,
            progress,
        })
    });
    let r = f();
    let m = METER.with(|m| m.borrow_mut().take()).map_or(
        Metered {
            units: 0,
            exceeded: false,
        },
        |m| Metered {
            units: m.done,
            exceeded: m.exceeded,
        },
    );
    (r, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmetered_charges_always_pass() {
        assert!(charge(u64::MAX));
    }

    #[test]
    fn a_budget_stops_and_reports() {
        let (_, m) = metered(10, None, || {
            let mut n = 0;
            while charge(3) {
                n += 1;
            }
            n
        });
        assert!(m.exceeded);
        assert_eq!(m.units, 12);
        // The meter is gone afterwards.
        assert!(charge(u64::MAX));
    }
}
