//! Colours: task classes, compared policies, QoS classes and thread states,
//! and the light and dark foregrounds. Okabe–Ito first (distinguishable with
//! the common forms of colour blindness), then eight more chosen to stay
//! apart from those and from both lane backgrounds, so that up to sixteen
//! task classes never share a colour.

use plotters_backend::BackendColor;

use crate::error::ParamError;
use crate::text::Text;

/// An sRGB colour (`[r, g, b]` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub(crate) fn css(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// The colour with opacity `alpha`, as the drawing backends take it.
    pub(crate) fn alpha(self, alpha: f64) -> BackendColor {
        BackendColor {
            alpha,
            rgb: (self.0, self.1, self.2),
        }
    }

    pub(crate) fn solid(self) -> BackendColor {
        self.alpha(1.0)
    }
}

const SKY: Rgb = Rgb(0x56, 0xb4, 0xe9);
const ORANGE: Rgb = Rgb(0xe6, 0x9f, 0x00);
const VERMILLION: Rgb = Rgb(0xd5, 0x5e, 0x00);
const GREEN: Rgb = Rgb(0x00, 0x9e, 0x73);
const YELLOW: Rgb = Rgb(0xf0, 0xe4, 0x42);
const BLUE: Rgb = Rgb(0x00, 0x72, 0xb2);
const PURPLE: Rgb = Rgb(0xcc, 0x79, 0xa7);
const GREY: Rgb = Rgb(0x99, 0x99, 0x99);

/// Task classes, in mix order: short work light, long work dark and warm;
/// past the eighth, colours picked for the largest distance (CIE ΔE) to
/// the ones before and to the lane backgrounds.
pub(crate) const CLASSES: [Rgb; 16] = [
    SKY,
    ORANGE,
    VERMILLION,
    GREEN,
    PURPLE,
    YELLOW,
    BLUE,
    GREY,
    Rgb(0x66, 0xa6, 0x1e),
    Rgb(0x6a, 0x3d, 0x9a),
    Rgb(0xe7, 0x29, 0x8a),
    Rgb(0xfb, 0x80, 0x72),
    Rgb(0x7f, 0x3b, 0x08),
    Rgb(0xdd, 0xcc, 0x77),
    Rgb(0x88, 0x22, 0x55),
    Rgb(0xe3, 0x1a, 0x1c),
];
/// Compared policies, in the order given.
const POLICIES: [Rgb; 5] = [BLUE, VERMILLION, GREEN, PURPLE, ORANGE];

/// Colour of the `i`-th task class (repeats only past sixteen classes).
pub fn class(i: usize) -> Rgb {
    CLASSES[i % CLASSES.len()]
}

/// Colour of the `i`-th compared policy.
pub(crate) fn policy(i: usize) -> Rgb {
    POLICIES[i % POLICIES.len()]
}

/// The main thread in a scenario's Gantt chart.
pub(crate) const MAIN_THREAD: Rgb = SKY;

/// Colour of a QoS class (`qos_class_self` number); 0 is other system work.
pub(crate) fn qos(number: u8) -> Rgb {
    match number {
        33 => VERMILLION,
        25 => ORANGE,
        21 => YELLOW,
        17 => GREEN,
        9 => BLUE,
        5 => PURPLE,
        _ => GREY,
    }
}

/// Thread states drawn in colour: running, runnable, preempted (blocked is
/// the lane's background).
pub(crate) const STATES: [Rgb; 3] = [BLUE, ORANGE, VERMILLION];

/// Priority lines: the main thread, then one queue or worker.
const PRIORITY: [Rgb; 2] = [BLUE, VERMILLION];

pub(crate) fn priority(i: usize) -> Rgb {
    PRIORITY[i % PRIORITY.len()]
}

/// Light or dark figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

impl Theme {
    /// `light` or `dark`.
    pub fn parse(field: &str, text: &str) -> Result<Theme, ParamError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "light" => Ok(Theme::Light),
            "dark" => Ok(Theme::Dark),
            _ => Err(ParamError::new(
                field,
                text,
                Text::new("light or dark", "light 或 dark"),
            )),
        }
    }
}

/// Text, axis, grid and background colours of one colour scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    pub fg: Rgb,
    pub muted: Rgb,
    /// Grid lines and empty lanes.
    pub grid: Rgb,
    pub bg: Rgb,
}

impl Palette {
    pub fn new(theme: Theme) -> Palette {
        match theme {
            Theme::Dark => Palette {
                fg: Rgb(0xe6, 0xe6, 0xe6),
                muted: Rgb(0xa8, 0xa8, 0xa8),
                grid: Rgb(0x3a, 0x3d, 0x42),
                bg: Rgb(0x16, 0x18, 0x1b),
            },
            Theme::Light => Palette {
                fg: Rgb(0x1d, 0x1d, 0x1f),
                muted: Rgb(0x5f, 0x63, 0x68),
                grid: Rgb(0xe2, 0xe4, 0xe8),
                bg: Rgb(0xff, 0xff, 0xff),
            },
        }
    }

    /// The page's flag: dark or light.
    pub(crate) fn dark(dark: bool) -> Palette {
        Palette::new(if dark { Theme::Dark } else { Theme::Light })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CIE L*a*b* of an sRGB colour (D65).
    fn lab(c: Rgb) -> [f64; 3] {
        let lin = |v: u8| {
            let v = v as f64 / 255.0;
            if v > 0.04045 {
                ((v + 0.055) / 1.055).powf(2.4)
            } else {
                v / 12.92
            }
        };
        let (r, g, b) = (lin(c.0), lin(c.1), lin(c.2));
        let x = (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047;
        let y = r * 0.2126 + g * 0.7152 + b * 0.0722;
        let z = (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        ]
    }

    fn delta_e(a: Rgb, b: Rgb) -> f64 {
        let (a, b) = (lab(a), lab(b));
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    }

    /// Sixteen classes, sixteen colours that a reader tells apart: every
    /// pair at least ΔE 20 apart, and each visible on both lane
    /// backgrounds.
    #[test]
    fn sixteen_classes_have_distinct_colours() {
        for i in 0..16 {
            for j in i + 1..16 {
                let d = delta_e(class(i), class(j));
                assert!(d >= 20.0, "classes {i} and {j}: ΔE {d:.1}");
            }
            for theme in [Theme::Light, Theme::Dark] {
                let d = delta_e(class(i), Palette::new(theme).grid);
                assert!(d >= 20.0, "class {i} on the {theme:?} lane: ΔE {d:.1}");
            }
        }
    }

    #[test]
    fn theme_names() {
        assert_eq!(Theme::parse("--theme", " Dark"), Ok(Theme::Dark));
        let e = Theme::parse("--theme", "blue").unwrap_err();
        assert!(e.to_string().contains("light or dark"), "{e}");
    }
}
