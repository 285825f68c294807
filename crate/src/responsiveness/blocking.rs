//! Total Blocking Time and long tasks, counted the way Lighthouse counts
//! them (`calculateTbtImpactForEvent` and `calculateSumOfBlockingTime` in
//! devtools-frontend's `front_end/models/trace/lantern/metrics/TBTUtils.ts`,
//! which Lighthouse's `core/computed/metrics/total-blocking-time.js`
//! calls), each chunk a top-level task: a continuation after a yield is a
//! task of its own.

use super::delay::Window;
use super::plan::Chunk;
use crate::stats::Neumaier;
pub(crate) use crate::trace::found::LONG_TASK_MS;

/// The blocking figures of a schedule in a window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blocking {
    /// Σ over chunks of (clipped length − 50 ms), for chunks of 50 ms or
    /// more whose part in the window is also 50 ms or more.
    pub tbt_ms: f64,
    /// Chunks of 50 ms or more that overlap the window.
    pub long_tasks: usize,
}

/// One chunk's blocking time in the window, as Lighthouse computes it: 0
/// for a chunk under 50 ms, ending before the window or starting after it;
/// otherwise the chunk is clipped to the window and whatever of it is over
/// 50 ms counts (so a task cut to under 50 ms counts 0, and one of exactly
/// 50 ms counts 0 either way).
pub(crate) fn blocking_time(chunk: &Chunk, window: Window) -> f64 {
    let end = chunk.end();
    if chunk.len < LONG_TASK_MS || end < window.start || chunk.start > window.end {
        return 0.0;
    }
    let clipped = if chunk.start >= window.start && end <= window.end {
        chunk.len
    } else {
        end.min(window.end) - chunk.start.max(window.start)
    };
    if clipped < LONG_TASK_MS {
        0.0
    } else {
        clipped - LONG_TASK_MS
    }
}

/// Adds up [`Blocking`] chunk by chunk.
#[derive(Clone, Copy)]
pub(crate) struct BlockingCounter {
    window: Window,
    tbt: Neumaier,
    long_tasks: usize,
}

impl BlockingCounter {
    pub(crate) fn new(window: Window) -> BlockingCounter {
        BlockingCounter {
            window,
            tbt: Neumaier::default(),
            long_tasks: 0,
        }
    }

    pub(crate) fn add(&mut self, c: &Chunk) {
        if c.len < LONG_TASK_MS {
            return;
        }
        self.tbt.add(blocking_time(c, self.window));
        if c.start < self.window.end && c.end() > self.window.start {
            self.long_tasks += 1;
        }
    }

    pub(crate) fn total(&self) -> Blocking {
        if self.window.end <= self.window.start {
            // Lighthouse: no window, no blocking time.
            return Blocking {
                tbt_ms: 0.0,
                long_tasks: 0,
            };
        }
        Blocking {
            tbt_ms: self.tbt.total(),
            long_tasks: self.long_tasks,
        }
    }
}

/// TBT and the long-task count of `chunks` in `window`.
pub fn blocking(chunks: &[Chunk], window: Window) -> Blocking {
    let mut b = BlockingCounter::new(window);
    for c in chunks {
        b.add(c);
    }
    b.total()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(start: f64, end: f64) -> Chunk {
        Chunk {
            task: 0,
            start,
            len: end - start,
        }
    }

    #[test]
    fn matches_lighthouses_own_cases() {
        // TBTUtils.test: nothing over 50 ms → 0.
        let w = Window::new(500.0, 4000.0);
        let b = blocking(&[chunk(1000.0, 1050.0), chunk(2000.0, 2010.0)], w);
        assert_eq!(b.tbt_ms, 0.0);
        // Exactly 50 ms is a long task with no blocking time.
        assert_eq!(b.long_tasks, 1);
        // Only the window counts: 60 ms before it, 100 and 150 in it, 200
        // after it.
        let w = Window::new(1500.0, 2500.0);
        let chunks = [
            chunk(1000.0, 1060.0),
            chunk(2000.0, 2100.0),
            chunk(2300.0, 2450.0),
            chunk(2600.0, 2800.0),
        ];
        assert_eq!(blocking(&chunks, w).tbt_ms, 150.0);
        // Clipped first: 150 ms from 0 with the window from 50 → 100 ms → 50.
        assert_eq!(
            blocking_time(&chunk(0.0, 150.0), Window::new(50.0, 1000.0)),
            50.0
        );
        // Clipped to under 50 ms → 0.
        assert_eq!(
            blocking_time(&chunk(0.0, 150.0), Window::new(120.0, 1000.0)),
            0.0
        );
    }

    /// The remaining cases of devtools-frontend's `TBTUtils.test.ts`.
    #[test]
    fn clips_before_finding_blocking_regions() {
        let w = Window::new(150.0, 300.0);
        // [50, 200] clips to [150, 200]: 0; [240, 460] clips to [240, 300]: 10.
        let b = blocking(&[chunk(50.0, 200.0), chunk(240.0, 460.0)], w);
        assert_eq!(b.tbt_ms, 10.0);
        let w = Window::new(1000.0, 2000.0);
        for (start, end, want) in [
            // The window's end in the middle of a task: 49, 50, 51 ms left.
            (1951.0, 2100.0, 0.0),
            (1950.0, 2100.0, 0.0),
            (1949.0, 2100.0, 1.0),
            // The window's start in the middle of a task.
            (900.0, 1049.0, 0.0),
            (900.0, 1050.0, 0.0),
            (900.0, 1051.0, 1.0),
        ] {
            assert_eq!(blocking_time(&chunk(start, end), w), want, "{start}–{end}");
        }
        // A window that ends before it starts blocks nothing.
        let b = blocking(&[chunk(500.0, 3000.0)], Window::new(2050.0, 1050.0));
        assert_eq!(b.tbt_ms, 0.0);
    }

    #[test]
    fn an_empty_window_blocks_nothing() {
        let b = blocking(&[chunk(0.0, 500.0)], Window::new(10.0, 10.0));
        assert_eq!(b.tbt_ms, 0.0);
        assert_eq!(b.long_tasks, 0);
    }
}
