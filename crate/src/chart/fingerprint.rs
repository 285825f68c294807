//! A 64-bit fingerprint of what a chart draws: the page draws a chart (or
//! one block of a lane chart) again only when the fingerprint of what it
//! would draw differs from the one of what its canvas shows.
//!
//! Each value is folded in as one 64-bit word (xor, multiply by the FNV
//! prime, rotate): every step is a bijection of the state, so two inputs
//! that differ in one word always differ in the result.

/// The fingerprint being built (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint::new()
    }
}

impl Fingerprint {
    /// The FNV-1a offset basis.
    pub(crate) fn new() -> Fingerprint {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn word(&mut self, v: u64) -> &mut Self {
        self.0 = (self.0 ^ v)
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(29);
        self
    }

    /// A number by its bits (`0.0` and `-0.0` differ, as their drawing may not).
    pub(crate) fn num(&mut self, v: f64) -> &mut Self {
        self.word(v.to_bits())
    }

    pub(crate) fn nums(&mut self, vs: &[f64]) -> &mut Self {
        self.word(vs.len() as u64);
        for &v in vs {
            self.num(v);
        }
        self
    }

    /// A string: its length, then its bytes eight at a time.
    pub(crate) fn text(&mut self, s: &str) -> &mut Self {
        self.word(s.len() as u64);
        for chunk in s.as_bytes().chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.word(u64::from_le_bytes(w));
        }
        self
    }

    pub(crate) fn value(&self) -> u64 {
        self.0
    }

    /// The value as 16 hex digits (how the page keeps it).
    pub(crate) fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    fn of(words: &[u64]) -> u64 {
        let mut f = Fingerprint::new();
        for &w in words {
            f.word(w);
        }
        f.value()
    }

    #[test]
    fn one_changed_word_changes_the_print() {
        let base = [3u64, 1 << 63, 42, 0, u64::MAX];
        for i in 0..base.len() {
            for bit in [0, 17, 52, 63] {
                let mut w = base;
                w[i] ^= 1 << bit;
                assert_ne!(of(&w), of(&base), "word {i} bit {bit}");
            }
        }
    }

    #[test]
    fn order_and_length_count() {
        assert_ne!(of(&[1, 2]), of(&[2, 1]));
        assert_ne!(of(&[0]), of(&[0, 0]));
        let text = |s: &str| Fingerprint::new().text(s).value();
        assert_ne!(text("fifo"), text("fifo\0"));
        assert_ne!(text("rr"), text("rr "));
        assert_eq!(text("先来先服务"), text("先来先服务"));
    }

    #[test]
    fn numbers_by_their_bits() {
        let n = |v: f64| Fingerprint::new().num(v).value();
        assert_ne!(n(0.0), n(-0.0));
        assert_ne!(n(16.0), n(16.000000000000004));
        assert_eq!(n(1.5), n(1.5));
    }
}
