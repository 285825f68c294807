//! Escaping text for the markup tailslice writes: one function per output
//! format, each with its rules written beside it, so a text goes into an
//! SVG figure and into an HTML snippet by the rule of the format it lands
//! in.

/// Text for XML 1.0 character data and double-quoted attribute values (the
/// SVG figures). `&`, `<`, `>` and `"` become entities; the characters XML
/// 1.0 does not allow (C0 controls other than tab, newline and carriage
/// return; U+FFFE and U+FFFF) become U+FFFD, since no escape makes them
/// legal and a parser would refuse the whole document.
pub(crate) fn xml(text: &str) -> String {
    escape(text, false)
}

/// Text for HTML element content and attribute values in either quote
/// (the embed snippets a blog author pastes): the XML rules, and `'` as
/// `&#39;` because a blog's template may put the snippet's attribute
/// values between single quotes.
pub(crate) fn html(text: &str) -> String {
    escape(text, true)
}

fn escape(text: &str, apostrophe: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' if apostrophe => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_the_four_and_replaces_what_xml_forbids() {
        assert_eq!(
            xml("a<b & \"c\"\u{1}'"),
            "a&lt;b &amp; &quot;c&quot;\u{fffd}'"
        );
        assert_eq!(xml("tab\tnl\n\u{ffff}"), "tab\tnl\n\u{fffd}");
    }

    #[test]
    fn html_also_escapes_the_apostrophe() {
        assert_eq!(html("it's <b>"), "it&#39;s &lt;b&gt;");
        assert_eq!(html("\u{0}"), "\u{fffd}");
    }
}
