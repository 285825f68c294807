//! Query-string coding (`a=1&b=x%20y`), with no browser types, so that the
//! page's URL handling can be tested and fuzzed natively. The page
//! ([`crate::params::query`]) reads its address bar through [`decode_pairs`] and writes
//! it back through [`percent_encode`].

use crate::text::Text;

/// The URL format version the page writes (`v=1`).
pub(crate) const URL_VERSION: &str = "1";

/// What `v=` accepts (filled with [`URL_VERSION`]).
pub(crate) const URL_VERSIONS: Text = Text::new(
    "{} (the only URL version so far)",
    "{}（目前唯一的链接格式版本）",
);

/// Splits `a=1&b=x%20y` (a leading `?` is ignored) into decoded pairs.
/// `+` is a space, as in HTML forms; bad escapes are kept as written.
pub fn decode_pairs(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// Escapes a value for a query string, keeping the characters the mix and
/// policy syntax use (`:` `,` `(` `)` `@` `-` `.`) readable: such links
/// survive chat apps without turning into `%3A%2C`.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if c.is_ascii_alphanumeric() || b"-._~:,()@!*".contains(&c) {
            out.push(c as char);
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_encodes() {
        let p = decode_pairs("?mix=85%3A1-8%2C3:80-200&x=a+b&bad=%zz&e");
        assert_eq!(p[0], ("mix".into(), "85:1-8,3:80-200".into()));
        assert_eq!(p[1].1, "a b");
        assert_eq!(p[2].1, "%zz");
        assert_eq!(p[3], ("e".into(), "".into()));
        assert_eq!(
            percent_encode("1:pareto(2,1.5) <x>&"),
            "1:pareto(2,1.5)%20%3Cx%3E%26"
        );
    }
}
