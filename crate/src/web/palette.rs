//! Colours: the Okabe–Ito palette, distinguishable with the common forms of
//! colour blindness, and the page's light/dark foregrounds.

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub fn css(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    pub fn plotters(self) -> plotters::style::RGBColor {
        plotters::style::RGBColor(self.0, self.1, self.2)
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

/// Task classes, in mix order: short work light, long work dark and warm.
const CLASSES: [Rgb; 8] = [SKY, ORANGE, VERMILLION, GREEN, PURPLE, YELLOW, BLUE, GREY];
/// Compared policies, in the order given.
const POLICIES: [Rgb; 5] = [BLUE, VERMILLION, GREEN, PURPLE, ORANGE];

pub fn class(i: usize) -> Rgb {
    CLASSES[i % CLASSES.len()]
}

pub fn policy(i: usize) -> Rgb {
    POLICIES[i % POLICIES.len()]
}

/// Text, axis and grid colours for the page's colour scheme.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub fg: Rgb,
    pub muted: Rgb,
    pub grid: Rgb,
    pub bg: Rgb,
}

impl Theme {
    pub fn new(dark: bool) -> Theme {
        if dark {
            Theme {
                fg: Rgb(0xe6, 0xe6, 0xe6),
                muted: Rgb(0xa8, 0xa8, 0xa8),
                grid: Rgb(0x3a, 0x3d, 0x42),
                bg: Rgb(0x16, 0x18, 0x1b),
            }
        } else {
            Theme {
                fg: Rgb(0x1d, 0x1d, 0x1f),
                muted: Rgb(0x5f, 0x63, 0x68),
                grid: Rgb(0xe2, 0xe4, 0xe8),
                bg: Rgb(0xff, 0xff, 0xff),
            }
        }
    }
}
