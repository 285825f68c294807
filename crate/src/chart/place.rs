//! Free labels (a reference line's name, a marked point's word) placed
//! where they cover nothing already drawn. Each label offers candidate
//! places around what it names, best first; the first whose box stays
//! inside the plot and touches no placed label, marked point or line wins.
//! When none is clear the least bad one is taken, in this order of harm:
//! covering another label, leaving the plot, covering a point, crossing a
//! line. Boxes use the pen's one width estimate ([`text_width`], CJK at a
//! full em), so the page's canvas and the SVG put a label in one place.

use plotters_backend::text_anchor::{HPos, Pos, VPos};

use super::pen::{anchor, text_width};

/// An axis-aligned box, CSS px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub(crate) fn new(x0: f64, y0: f64, x1: f64, y1: f64) -> Rect {
        Rect { x0, y0, x1, y1 }
    }

    /// The square around a point of radius `r`.
    pub(crate) fn around((x, y): (f64, f64), r: f64) -> Rect {
        Rect::new(x - r, y - r, x + r, y + r)
    }

    /// The area `self` shares with `o` (0 when they only touch).
    pub(crate) fn shared(&self, o: &Rect) -> f64 {
        let w = self.x1.min(o.x1) - self.x0.max(o.x0);
        let h = self.y1.min(o.y1) - self.y0.max(o.y0);
        if w > 0.0 && h > 0.0 {
            w * h
        } else {
            0.0
        }
    }

    #[cfg(test)]
    pub(crate) fn overlaps(&self, o: &Rect) -> bool {
        self.shared(o) > 0.0
    }

    /// The distance from `p` to the nearest point of the box.
    pub(crate) fn distance(&self, (x, y): (f64, f64)) -> f64 {
        let dx = (self.x0 - x).max(0.0).max(x - self.x1);
        let dy = (self.y0 - y).max(0.0).max(y - self.y1);
        dx.hypot(dy)
    }

    fn area(&self) -> f64 {
        (self.x1 - self.x0).max(0.0) * (self.y1 - self.y0).max(0.0)
    }

    /// Whether the segment `a`–`b` passes through the box (clipped as
    /// Liang–Barsky does).
    pub(crate) fn crossed_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (p, q) in [
            (-dx, a.0 - self.x0),
            (dx, self.x1 - a.0),
            (-dy, a.1 - self.y0),
            (dy, self.y1 - a.1),
        ] {
            if p == 0.0 {
                if q <= 0.0 {
                    return false;
                }
                continue;
            }
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
            if t0 >= t1 {
                return false;
            }
        }
        true
    }
}

/// The box `text` covers at `size` px, anchored at `(x, y)` by `pos` (the
/// height is one em: the glyphs' ascent and descent).
pub(crate) fn text_box(text: &str, size: f64, (x, y): (f64, f64), pos: Pos) -> Rect {
    let w = text_width(text, size);
    let x0 = match pos.h_pos {
        HPos::Left => x,
        HPos::Center => x - w / 2.0,
        HPos::Right => x - w,
    };
    let y0 = match pos.v_pos {
        VPos::Top => y,
        VPos::Center => y - size / 2.0,
        VPos::Bottom => y - size,
    };
    Rect::new(x0, y0, x0 + w, y0 + size)
}

/// One place a label may go: its anchor point and how the text hangs from
/// it.
#[derive(Clone, Copy)]
pub(crate) struct Candidate {
    pub at: (f64, f64),
    pub pos: Pos,
}

/// The places around a marked point `p`, `gap` px off it, then twice and
/// three times as far (a crowded plot): at each distance `first` (one of
/// them, by its anchor) then below left, below right, above right, above
/// left, left, right, below, above.
pub(crate) fn around_point(p: (f64, f64), gap: f64, first: Pos) -> Vec<Candidate> {
    let (x, y) = p;
    let mut out = Vec::new();
    for g in [gap, 2.0 * gap, 3.0 * gap] {
        let all = [
            (x - g, y + g, anchor(HPos::Right, VPos::Top)),
            (x + g, y + g, anchor(HPos::Left, VPos::Top)),
            (x + g, y - g, anchor(HPos::Left, VPos::Bottom)),
            (x - g, y - g, anchor(HPos::Right, VPos::Bottom)),
            (x - g - 4.0, y, anchor(HPos::Right, VPos::Center)),
            (x + g + 4.0, y, anchor(HPos::Left, VPos::Center)),
            (x, y + g + 4.0, anchor(HPos::Center, VPos::Top)),
            (x, y - g - 4.0, anchor(HPos::Center, VPos::Bottom)),
        ];
        out.extend(
            all.iter()
                .filter(|c| same(c.2, first))
                .chain(all.iter().filter(|c| !same(c.2, first)))
                .map(|&(x, y, pos)| Candidate { at: (x, y), pos }),
        );
    }
    out
}

/// The places along a horizontal line at `y` from `left` to `right`, `gap`
/// px off it: above at the left end, the right end, the middle and the
/// quarters, then below at the same five.
pub(crate) fn along_line(y: f64, left: f64, right: f64, gap: f64) -> Vec<Candidate> {
    let at = |f: f64| left + (right - left) * f;
    let mut out = Vec::with_capacity(10);
    for (dy, v) in [(-gap, VPos::Bottom), (gap, VPos::Top)] {
        for (x, h) in [
            (left, HPos::Left),
            (right, HPos::Right),
            (at(0.5), HPos::Center),
            (at(0.25), HPos::Center),
            (at(0.75), HPos::Center),
        ] {
            out.push(Candidate {
                at: (x, y + dy),
                pos: anchor(h, v),
            });
        }
    }
    out
}

/// Whether two anchors are the same (plotters' anchors have no `==`).
fn same(a: Pos, b: Pos) -> bool {
    let h = |p: HPos| p as u8;
    let v = |p: VPos| p as u8;
    h(a.h_pos) == h(b.h_pos) && v(a.v_pos) == v(b.v_pos)
}

/// What a candidate's box would cover, worst harm first (compared in this
/// order).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
struct Harm {
    labels: f64,
    outside: f64,
    marks: f64,
    /// Nearer another labelled point than its own: it would seem to name
    /// that one.
    astray: f64,
    lines: f64,
}

impl Harm {
    const NONE: Harm = Harm {
        labels: 0.0,
        outside: 0.0,
        marks: 0.0,
        astray: 0.0,
        lines: 0.0,
    };
}

/// The labels placed so far on one chart and what they must not cover.
pub(crate) struct Placer {
    bounds: Rect,
    labels: Vec<Rect>,
    marks: Vec<Rect>,
    lines: Vec<((f64, f64), (f64, f64))>,
    /// Points that carry a label of their own.
    named: Vec<(f64, f64)>,
}

impl Placer {
    /// Labels stay inside `bounds` (a plot's area).
    pub(crate) fn new(bounds: Rect) -> Placer {
        Placer {
            bounds,
            labels: Vec::new(),
            marks: Vec::new(),
            lines: Vec::new(),
            named: Vec::new(),
        }
    }

    /// A drawn mark (a point, a ring) no label may cover.
    pub(crate) fn mark(&mut self, r: Rect) {
        self.marks.push(r);
    }

    /// A drawn line through `points` no label should cross.
    pub(crate) fn line(&mut self, points: &[(f64, f64)]) {
        for w in points.windows(2) {
            self.lines.push((w[0], w[1]));
        }
    }

    /// A point that carries a label: another point's label must stay
    /// nearer its own point than this one.
    pub(crate) fn named(&mut self, p: (f64, f64)) {
        self.named.push(p);
    }

    /// Text already drawn (by someone else) no label may cover.
    #[cfg(test)]
    pub(crate) fn taken(&mut self, r: Rect) {
        self.labels.push(r);
    }

    fn harm(&self, b: &Rect, own: Option<(f64, f64)>) -> Harm {
        let astray = own.is_some_and(|o| {
            let d = b.distance(o);
            self.named.iter().any(|&p| p != o && b.distance(p) < d)
        });
        Harm {
            astray: f64::from(u8::from(astray)),
            labels: self.labels.iter().map(|l| l.shared(b)).sum(),
            outside: b.area() - self.bounds.shared(b),
            marks: self.marks.iter().map(|m| m.shared(b)).sum(),
            lines: self
                .lines
                .iter()
                .filter(|(a, e)| b.crossed_by(*a, *e))
                .count() as f64,
        }
    }

    /// Places `text` at `size` px at the first of `candidates` that covers
    /// nothing (else the least harmful one) and keeps its box: where to
    /// draw it. `None` only without candidates.
    pub(crate) fn place(
        &mut self,
        text: &str,
        size: f64,
        candidates: &[Candidate],
    ) -> Option<Candidate> {
        self.place_by(text, size, candidates, None)
    }

    /// [`Placer::place`] for the label of point `own` (one of
    /// [`Placer::named`]): it also stays nearer `own` than any other named
    /// point.
    pub(crate) fn place_by(
        &mut self,
        text: &str,
        size: f64,
        candidates: &[Candidate],
        own: Option<(f64, f64)>,
    ) -> Option<Candidate> {
        let mut best: Option<(Harm, Candidate, Rect)> = None;
        for &c in candidates {
            let b = text_box(text, size, c.at, c.pos);
            let h = self.harm(&b, own);
            if h == Harm::NONE {
                best = Some((h, c, b));
                break;
            }
            if best.as_ref().is_none_or(|(bh, _, _)| h < *bh) {
                best = Some((h, c, b));
            }
        }
        let (_, c, b) = best?;
        self.labels.push(b);
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plot() -> Placer {
        Placer::new(Rect::new(0.0, 0.0, 300.0, 200.0))
    }

    #[test]
    fn the_first_clear_candidate_wins() {
        let mut p = plot();
        let c = along_line(100.0, 4.0, 296.0, 2.0);
        let got = p.place("target", 11.0, &c).unwrap();
        assert_eq!(got.at, c[0].at);
    }

    #[test]
    fn a_second_label_moves_off_the_first() {
        let mut p = plot();
        let c = along_line(100.0, 4.0, 296.0, 2.0);
        let first = p.place("recorded: p98 180.7 ms", 11.0, &c).unwrap();
        let second = p.place("目标：p98 ≤ 50 ms", 11.0, &c).unwrap();
        let a = text_box("recorded: p98 180.7 ms", 11.0, first.at, first.pos);
        let b = text_box("目标：p98 ≤ 50 ms", 11.0, second.at, second.pos);
        assert!(!a.overlaps(&b), "{a:?} {b:?}");
    }

    #[test]
    fn a_line_through_the_first_place_moves_the_label() {
        let mut p = plot();
        // A curve through the top left, where the label would go first.
        p.line(&[(0.0, 80.0), (120.0, 98.0)]);
        let c = along_line(100.0, 4.0, 296.0, 2.0);
        let got = p.place("recorded: p98 180.7 ms", 11.0, &c).unwrap();
        assert_ne!(got.at, c[0].at);
        let b = text_box("recorded: p98 180.7 ms", 11.0, got.at, got.pos);
        assert!(!b.crossed_by((0.0, 80.0), (120.0, 98.0)));
    }

    #[test]
    fn a_point_label_goes_round_its_marks_and_stays_inside() {
        let mut p = plot();
        // A point near the bottom left corner: below and left leave the plot.
        let pt = (12.0, 190.0);
        p.mark(Rect::around(pt, 8.0));
        let c = around_point(pt, 10.0, anchor(HPos::Right, VPos::Top));
        let got = p.place("拐点", 12.0, &c).unwrap();
        let b = text_box("拐点", 12.0, got.at, got.pos);
        assert!(b.x0 >= 0.0 && b.y1 <= 200.0, "{b:?}");
        assert!(!b.overlaps(&Rect::around(pt, 8.0)), "{b:?}");
    }

    #[test]
    fn with_no_clear_place_covering_a_line_beats_covering_a_label() {
        let mut p = Placer::new(Rect::new(0.0, 0.0, 100.0, 40.0));
        p.taken(Rect::new(0.0, 0.0, 100.0, 20.0));
        p.line(&[(0.0, 30.0), (100.0, 30.0)]);
        let c = [
            Candidate {
                at: (0.0, 5.0),
                pos: anchor(HPos::Left, VPos::Top),
            },
            Candidate {
                at: (0.0, 25.0),
                pos: anchor(HPos::Left, VPos::Top),
            },
        ];
        let got = p.place("knee", 12.0, &c).unwrap();
        assert_eq!(got.at, (0.0, 25.0));
    }

    #[test]
    fn a_points_label_stays_nearer_it_than_another_named_point() {
        let mut p = plot();
        let (knee, favoured) = ((100.0, 100.0), (130.0, 90.0));
        p.named(knee);
        p.named(favoured);
        // Its first place (above right) is nearer the favoured point.
        let c = around_point(knee, 10.0, anchor(HPos::Left, VPos::Bottom));
        let got = p.place_by("knee", 12.0, &c, Some(knee)).unwrap();
        let b = text_box("knee", 12.0, got.at, got.pos);
        assert!(b.distance(knee) <= b.distance(favoured), "{b:?}");
    }

    #[test]
    fn wide_characters_make_wide_boxes() {
        let en = text_box("favoured", 12.0, (0.0, 0.0), anchor(HPos::Left, VPos::Top));
        let zh = text_box("目标：p98", 12.0, (0.0, 0.0), anchor(HPos::Left, VPos::Top));
        assert!(zh.x1 >= 3.0 * 12.0, "{zh:?}");
        assert!(en.x1 > 0.0 && (en.y1 - en.y0 - 12.0).abs() < 1e-9);
    }

    #[test]
    fn segments_cross_boxes_they_pass_through_only() {
        let r = Rect::new(10.0, 10.0, 20.0, 20.0);
        assert!(r.crossed_by((0.0, 15.0), (30.0, 15.0)));
        assert!(r.crossed_by((0.0, 0.0), (30.0, 30.0)));
        assert!(!r.crossed_by((0.0, 25.0), (30.0, 25.0)));
        assert!(!r.crossed_by((0.0, 0.0), (5.0, 30.0)));
        assert!(r.crossed_by((15.0, 0.0), (15.0, 12.0)));
    }
}
