//! The input delay an interaction meets, exactly.
//!
//! An input arrives at a uniformly random time `a` in the window. If a chunk
//! `[b, e)` is running it waits `e − a` (its handler then runs first, ahead
//! of any continuation or queued task); otherwise — idle time, a yield — it
//! waits nothing. So each chunk's part `[lo, hi]` inside the window gives a
//! delay spread evenly over `[e − hi, e − lo]` with probability
//! `(hi − lo) / W`, and
//!
//! ```text
//! P(delay > t) = Σ min(hi − lo, max(0, e − lo − t)) / W
//! ```
//!
//! which for a chunk wholly inside the window is `max(0, len − t) / W`. The
//! survival function is piecewise linear, so its mean, quantiles and maximum
//! are exact.

use std::collections::HashMap;

use super::plan::{Chunk, Completion, Task};
use crate::stats::accurate_sum;

/// The stretch of time over which inputs arrive, ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub start: f64,
    pub end: f64,
}

impl Window {
    pub fn new(start: f64, end: f64) -> Window {
        Window { start, end }
    }

    /// The span of the tasks as recorded: from the first task's start to
    /// the last task's end under the recorded plan.
    pub fn span(tasks: &[Task], recorded: &Completion) -> Window {
        let start = tasks.iter().map(|t| t.start).fold(f64::INFINITY, f64::min);
        if !start.is_finite() {
            return Window::new(0.0, 0.0);
        }
        let end = recorded.ends.iter().copied().fold(start, f64::max);
        Window::new(start, end)
    }

    pub fn len(&self) -> f64 {
        (self.end - self.start).max(0.0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() <= 0.0
    }
}

/// Chunks whose part in the window is alike: delays spread evenly over
/// `[top − width, top]`, each with probability `width / W`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Piece {
    top: f64,
    width: f64,
    count: u64,
}

impl Piece {
    fn n(&self) -> f64 {
        self.count as f64
    }
}

/// Collects the chunks of a schedule, one at a time, into a
/// [`DelayDistribution`]. Chunks of the same length (every full piece of a
/// sliced plan) share one entry, so memory grows with the distinct lengths,
/// not the chunks.
#[derive(Debug)]
pub(crate) struct DelayBuilder {
    window: Window,
    counts: HashMap<(u64, u64), u64>,
    /// The last key and its count not yet added (consecutive chunks of one
    /// sliced task are alike: no hashing for them).
    run: Option<((u64, u64), u64)>,
}

impl DelayBuilder {
    pub(crate) fn new(window: Window) -> DelayBuilder {
        DelayBuilder {
            window,
            counts: HashMap::new(),
            run: None,
        }
    }

    pub(crate) fn add(&mut self, c: &Chunk) {
        let w = self.window;
        if w.is_empty() {
            return;
        }
        let end = c.end();
        let (top, width) = if c.start >= w.start && end <= w.end {
            (c.len, c.len)
        } else {
            let lo = c.start.max(w.start);
            let hi = end.min(w.end);
            (end - lo, hi - lo)
        };
        if width.is_nan() || width <= 0.0 {
            return;
        }
        let key = (top.to_bits(), width.to_bits());
        match &mut self.run {
            Some((k, n)) if *k == key => *n += 1,
            run => {
                if let Some((k, n)) = run.take() {
                    *self.counts.entry(k).or_default() += n;
                }
                *run = Some((key, 1));
            }
        }
    }

    pub(crate) fn build(mut self) -> DelayDistribution {
        if let Some((k, n)) = self.run.take() {
            *self.counts.entry(k).or_default() += n;
        }
        let mut pieces: Vec<Piece> = self
            .counts
            .into_iter()
            .map(|((t, w), count)| Piece {
                top: f64::from_bits(t),
                width: f64::from_bits(w),
                count,
            })
            .collect();
        // A fixed order, so every sum below comes out the same every run.
        pieces.sort_by(|a, b| a.top.total_cmp(&b.top).then(a.width.total_cmp(&b.width)));
        DelayDistribution::from_pieces(pieces, self.window.len())
    }
}

/// The exact distribution of input delay over a window.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayDistribution {
    pieces: Vec<Piece>,
    window_len: f64,
    /// Where the survival function's slope changes: `(t, ±count)` for
    /// pieces starting (+) or ending (−) their ramp, sorted by `t`, all
    /// `t > 0`.
    events: Vec<(f64, i64)>,
    /// Pieces whose ramp starts at 0 (chunks not cut by the window's end).
    ramps_at_zero: i64,
    /// `Σ width` over all pieces (busy time in the window), ms.
    busy: f64,
}

impl DelayDistribution {
    /// The distribution of the delay of an input arriving uniformly in
    /// `window` on a thread that runs `chunks`.
    pub fn new(chunks: &[Chunk], window: Window) -> DelayDistribution {
        let mut b = DelayBuilder::new(window);
        for c in chunks {
            b.add(c);
        }
        b.build()
    }

    fn from_pieces(pieces: Vec<Piece>, window_len: f64) -> DelayDistribution {
        let mut events = Vec::with_capacity(2 * pieces.len());
        let mut ramps_at_zero = 0i64;
        for p in &pieces {
            let n = p.count as i64;
            let lower = p.top - p.width;
            if lower > 0.0 {
                events.push((lower, n));
            } else {
                ramps_at_zero += n;
            }
            events.push((p.top, -n));
        }
        events.sort_by(|a, b| a.0.total_cmp(&b.0));
        let busy = accurate_sum(pieces.iter().map(|p| p.width * p.n()));
        DelayDistribution {
            pieces,
            window_len,
            events,
            ramps_at_zero,
            busy,
        }
    }

    /// The window's length W, ms.
    pub fn window_len(&self) -> f64 {
        self.window_len
    }

    /// The share of inputs that wait at all: busy time in the window / W.
    pub fn busy_share(&self) -> f64 {
        if self.window_len <= 0.0 {
            return 0.0;
        }
        self.busy / self.window_len
    }

    /// P(delay > t), for t ≥ 0.
    pub fn survival(&self, t: f64) -> f64 {
        if self.window_len <= 0.0 {
            return 0.0;
        }
        let mass = accurate_sum(
            self.pieces
                .iter()
                .map(|p| p.n() * p.width.min((p.top - t).max(0.0))),
        );
        mass / self.window_len
    }

    /// The mean delay: Σ width · (top − width / 2) / W, which is Σ len² / 2W
    /// when no chunk is cut by the window (the residual-life formula).
    pub fn mean(&self) -> f64 {
        if self.window_len <= 0.0 {
            return 0.0;
        }
        accurate_sum(
            self.pieces
                .iter()
                .map(|p| p.n() * p.width * (p.top - p.width / 2.0)),
        ) / self.window_len
    }

    /// The longest delay (0 when nothing runs in the window).
    pub fn max(&self) -> f64 {
        self.pieces.last().map_or(0.0, |p| p.top)
    }

    /// The `p`-quantile (`p` in [0, 1]): the smallest t with
    /// P(delay ≤ t) ≥ p. It is 0 when at most a share `1 − p` of inputs
    /// wait at all (then the quantile does not say there are no long
    /// tasks, only that fewer than that share of inputs meet one).
    pub fn quantile(&self, p: f64) -> f64 {
        if self.window_len <= 0.0 {
            return 0.0;
        }
        if p >= 1.0 {
            return self.max();
        }
        // In "mass" (ms): P(delay > t) · W.
        let target = (1.0 - p) * self.window_len;
        let mut mass = self.busy;
        // A busy share equal to 1 − p (to rounding) leaves the quantile at 0:
        // `1.0 - 0.9` is a hair under 0.1.
        if mass - target <= 1e-12 * self.window_len {
            return 0.0;
        }
        let mut active = self.ramps_at_zero;
        let mut t = 0.0;
        for &(at, delta) in &self.events {
            let next = mass - active as f64 * (at - t);
            if next <= target && active > 0 {
                return t + (mass - target) / active as f64;
            }
            mass = next;
            active += delta;
            t = at;
        }
        t
    }

    /// The cumulative distribution `P(delay ≤ t)` as at most `max_points`
    /// points `(t, P)` from `t = 0` (the share that waits nothing) to the
    /// maximum (1): exact at each point, straight between them (the curve
    /// is piecewise linear; with more breakpoints than points, every k-th
    /// is kept).
    pub fn cdf_points(&self, max_points: usize) -> Vec<(f64, f64)> {
        if self.window_len <= 0.0 {
            return vec![(0.0, 1.0)];
        }
        let w = self.window_len;
        // Every breakpoint of the survival mass, swept once.
        let mut vertices = vec![(0.0, 1.0 - self.busy / w)];
        let mut mass = self.busy;
        let mut active = self.ramps_at_zero;
        let mut t = 0.0;
        let mut i = 0;
        while i < self.events.len() {
            let at = self.events[i].0;
            mass -= active as f64 * (at - t);
            t = at;
            while i < self.events.len() && self.events[i].0 == at {
                active += self.events[i].1;
                i += 1;
            }
            vertices.push((t, (1.0 - mass.max(0.0) / w).clamp(0.0, 1.0)));
        }
        if let Some(last) = vertices.last_mut() {
            last.1 = 1.0;
        }
        let max_points = max_points.max(2);
        if vertices.len() <= max_points {
            return vertices;
        }
        let step = (vertices.len() - 1).div_ceil(max_points - 1);
        let last = *vertices.last().expect("at least one vertex");
        let mut out: Vec<(f64, f64)> = vertices.into_iter().step_by(step).collect();
        if out.last() != Some(&last) {
            out.push(last);
        }
        out
    }
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
    fn one_chunk_is_a_ramp() {
        // A 100 ms chunk in a 1000 ms window: P(delay > t) = (100 − t)/1000.
        let d = DelayDistribution::new(&[chunk(200.0, 300.0)], Window::new(0.0, 1000.0));
        assert_eq!(d.busy_share(), 0.1);
        assert_eq!(d.survival(0.0), 0.1);
        assert!((d.survival(40.0) - 0.06).abs() < 1e-15);
        assert_eq!(d.survival(100.0), 0.0);
        assert_eq!(d.mean(), 100.0 * 100.0 / 2000.0);
        assert_eq!(d.max(), 100.0);
        // 90 % wait nothing.
        assert_eq!(d.quantile(0.5), 0.0);
        assert_eq!(d.quantile(0.9), 0.0);
        // p95: (100 − t)/1000 = 0.05 → t = 50; p98 → 80.
        assert!((d.quantile(0.95) - 50.0).abs() < 1e-9);
        assert!((d.quantile(0.98) - 80.0).abs() < 1e-9);
        assert_eq!(d.quantile(1.0), 100.0);
    }

    #[test]
    fn chunks_add_their_ramps() {
        // 60 ms and 20 ms in 100 ms: S(t) = (60 − t + 20 − t)/100 for t < 20,
        // then (60 − t)/100.
        let d = DelayDistribution::new(
            &[chunk(0.0, 60.0), chunk(70.0, 90.0)],
            Window::new(0.0, 100.0),
        );
        assert!((d.survival(10.0) - 0.6).abs() < 1e-12);
        assert!((d.survival(30.0) - 0.3).abs() < 1e-12);
        // p50: S = 0.5 → (80 − 2t) = 50 → t = 15.
        assert!((d.quantile(0.5) - 15.0).abs() < 1e-9);
        // p75: S = 0.25 → 60 − t = 25 → t = 35.
        assert!((d.quantile(0.75) - 35.0).abs() < 1e-9);
        assert!((d.mean() - (3600.0 + 400.0) / 200.0).abs() < 1e-12);
    }

    #[test]
    fn equal_chunks_share_an_entry_and_count_each() {
        let many: Vec<Chunk> = (0..1000)
            .map(|i| chunk(f64::from(i) * 10.0, f64::from(i) * 10.0 + 4.0))
            .collect();
        let d = DelayDistribution::new(&many, Window::new(0.0, 10_000.0));
        assert_eq!(d.pieces.len(), 1);
        assert!((d.busy_share() - 0.4).abs() < 1e-12);
        assert!((d.mean() - 1000.0 * 16.0 / 20_000.0).abs() < 1e-12);
        // p80: S = 0.2 = 0.1 (4 − t) → t = 2.
        assert!((d.quantile(0.8) - 2.0).abs() < 1e-9);
    }

    #[test]
    fn the_window_cuts_chunks() {
        // A chunk 90–150 seen through 0–100: inputs at 90–100 wait 50–60.
        let d = DelayDistribution::new(&[chunk(90.0, 150.0)], Window::new(0.0, 100.0));
        assert!((d.busy_share() - 0.1).abs() < 1e-15);
        assert!((d.survival(30.0) - 0.1).abs() < 1e-15);
        assert!((d.survival(55.0) - 0.05).abs() < 1e-15);
        assert_eq!(d.max(), 60.0);
        assert!((d.mean() - 0.1 * 55.0).abs() < 1e-12);
        assert!((d.quantile(0.95) - 55.0).abs() < 1e-9);
        assert_eq!(d.quantile(0.9), 0.0);
        assert!((d.quantile(0.91) - 51.0).abs() < 1e-9);
        // A chunk that began before the window counts from the window's start.
        let d = DelayDistribution::new(&[chunk(-50.0, 50.0)], Window::new(0.0, 100.0));
        assert_eq!(d.max(), 50.0);
        assert_eq!(d.mean(), 50.0 * 50.0 / 200.0);
    }

    #[test]
    fn an_idle_window_has_no_delay() {
        let d = DelayDistribution::new(&[], Window::new(0.0, 10.0));
        assert_eq!([d.quantile(0.5), d.quantile(0.98)], [0.0, 0.0]);
        assert_eq!((d.mean(), d.max(), d.busy_share()), (0.0, 0.0, 0.0));
        assert_eq!(d.cdf_points(10), vec![(0.0, 1.0)]);
        let empty = DelayDistribution::new(&[chunk(0.0, 1.0)], Window::new(5.0, 5.0));
        assert_eq!(empty.mean(), 0.0);
        assert_eq!(empty.quantile(0.98), 0.0);
        assert_eq!(empty.cdf_points(10), vec![(0.0, 1.0)]);
    }

    #[test]
    fn a_fully_busy_window_has_no_zero_atom() {
        let d = DelayDistribution::new(
            &[chunk(0.0, 10.0), chunk(10.0, 20.0)],
            Window::new(0.0, 20.0),
        );
        assert_eq!(d.busy_share(), 1.0);
        assert!((d.quantile(0.5) - 5.0).abs() < 1e-12);
        assert!(d.quantile(0.0).abs() < 1e-12);
    }

    #[test]
    fn the_cdf_goes_through_the_breakpoints() {
        let d = DelayDistribution::new(
            &[chunk(0.0, 60.0), chunk(70.0, 90.0)],
            Window::new(0.0, 100.0),
        );
        let pts = d.cdf_points(100);
        assert_eq!(pts.len(), 3);
        assert!(pts[0].0 == 0.0 && (pts[0].1 - 0.2).abs() < 1e-12);
        assert!((pts[1].0 - 20.0).abs() < 1e-12 && (pts[1].1 - 0.6).abs() < 1e-12);
        assert_eq!(pts[2], (60.0, 1.0));
        for &(t, p) in &pts {
            assert!((p - (1.0 - d.survival(t))).abs() < 1e-12, "{t}");
        }
        // Thinned, it still starts at 0 and ends at the maximum.
        let many: Vec<Chunk> = (1..=500)
            .map(|i| chunk(f64::from(i) * 1000.0, f64::from(i) * 1000.0 + f64::from(i)))
            .collect();
        let d = DelayDistribution::new(&many, Window::new(0.0, 600_000.0));
        let pts = d.cdf_points(50);
        assert!(pts.len() <= 51, "{}", pts.len());
        assert_eq!(pts[0].0, 0.0);
        assert_eq!(*pts.last().unwrap(), (500.0, 1.0));
        assert!(pts.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
        for &(t, p) in &pts[..pts.len() - 1] {
            assert!((p - (1.0 - d.survival(t))).abs() < 1e-9, "{t}");
        }
    }
}
