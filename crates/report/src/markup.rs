//! What the HTML page and the SVG card share: escaping untrusted text for markup, the two
//! colour themes, and compact number labels.

/// Colour theme of the page and the card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Dark text on white.
    #[default]
    Light,
    /// Light text on near-black.
    Dark,
}

/// The colours of a theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// Page background.
    pub background: &'static str,
    /// Background of panels and table stripes.
    pub panel: &'static str,
    /// Body text.
    pub text: &'static str,
    /// Secondary text.
    pub muted: &'static str,
    /// Lines and empty bar tracks.
    pub rule: &'static str,
    /// The cost without Tool Search (chars/4 bars).
    pub before: &'static str,
    /// Real tokenizer counts (second bar).
    pub counted: &'static str,
    /// The cost with Tool Search and the savings.
    pub after: &'static str,
    /// Errors.
    pub error: &'static str,
    /// Warnings.
    pub warning: &'static str,
}

impl Theme {
    /// The theme's colours.
    pub fn palette(self) -> Palette {
        match self {
            Theme::Light => Palette {
                background: "#ffffff",
                panel: "#f3f4f6",
                text: "#111827",
                muted: "#4b5563",
                rule: "#d1d5db",
                before: "#c2410c",
                counted: "#f59e0b",
                after: "#047857",
                error: "#b91c1c",
                warning: "#a16207",
            },
            Theme::Dark => Palette {
                background: "#0f1117",
                panel: "#1b1f2a",
                text: "#e5e7eb",
                muted: "#9ca3af",
                rule: "#374151",
                before: "#fb923c",
                counted: "#fcd34d",
                after: "#34d399",
                error: "#f87171",
                warning: "#facc15",
            },
        }
    }

    /// `light` or `dark`.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// Whether `c` must not reach a page or a card: controls (C0, C1, DEL), bidirectional
/// embeddings, overrides and isolates, the directional marks, and the XML non-characters.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{fffe}'
                | '\u{ffff}'
        )
}

/// Untrusted text made safe for HTML and XML, in text and in quoted attribute values:
/// terminal sequences and control characters removed (as for the terminal, newlines and tabs
/// become spaces), bidirectional controls removed, and `& < > " '` written as references.
pub fn escape(text: &str) -> String {
    let clean = schematax_engine::text::sanitize(text);
    let mut out = String::with_capacity(clean.len() + 8);
    for c in clean.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if unsafe_char(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// [`escape`] of `text` clipped to `max` characters, ending with `…` when cut.
pub fn escape_clipped(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return escape(text);
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    let mut out = escape(cut.trim_end());
    out.push('…');
    out
}

/// A token count the way a chart labels it: `378`, `1.2K`, `20K`, `1.5M`.
pub fn compact(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=9_999 => trim_point(format!("{:.1}", n as f64 / 1e3)) + "K",
        10_000..=999_999 => format!("{}K", (n as f64 / 1e3).round() as u64),
        _ => trim_point(format!("{:.1}", n as f64 / 1e6)) + "M",
    }
}

fn trim_point(text: String) -> String {
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// A number for a `data-*` or `value` attribute, exactly as the JSON report writes it.
pub fn json_number<T: serde::Serialize>(value: T) -> String {
    serde_json::to_string(&value).unwrap_or_default()
}

/// Percent of `part` in `whole`, for a bar width in CSS or SVG (0 when `whole` is 0).
pub fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_drops_controls() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(
            escape("a\u{202e}b\u{2066}c\u{200f}d\u{1b}[31me\u{7}"),
            "abcde"
        );
        assert_eq!(escape("line\nnext"), "line next");
        assert_eq!(escape_clipped("abcdef", 4), "abc…");
        assert_eq!(escape_clipped("<<<<", 4), "&lt;&lt;&lt;&lt;");
    }

    #[test]
    fn compact_numbers() {
        assert_eq!(compact(378), "378");
        assert_eq!(compact(1_000), "1K");
        assert_eq!(compact(1_234), "1.2K");
        assert_eq!(compact(20_182), "20K");
        assert_eq!(compact(1_500_000), "1.5M");
        assert_eq!(json_number(98.5_f64), "98.5");
        assert_eq!(json_number(20182_u64), "20182");
        assert_eq!(share(1, 4), 25.0);
        assert_eq!(share(1, 0), 0.0);
    }
}
