//! Text for people: untrusted text (tool names and descriptions) made safe for a terminal and
//! clipped to a width, and numbers with thousands separators.

use std::borrow::Cow;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Removes terminal escape sequences (CSI, OSC, DCS and the other string sequences, two-byte
/// escapes), C0/C1 control characters and bidirectional overrides. Newlines and tabs become
/// spaces, so the result is always one line.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_work) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' | '\r' => out.push(' '),
            '\u{1b}' => match chars.next() {
                Some('[') => skip_csi(&mut chars),
                Some(']' | 'P' | '_' | '^' | 'X') => skip_string(&mut chars),
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' | '\u{90}' | '\u{9f}' | '\u{9e}' | '\u{98}' => skip_string(&mut chars),
            c if needs_work(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_work(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Skips a CSI sequence's parameters up to and including its final byte (`@` to `~`).
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) {
            break;
        }
    }
}

/// Skips an OSC/DCS/APC/PM/SOS body up to BEL or ST (`ESC \` or U+009C).
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => break,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                break;
            }
            _ => {}
        }
    }
}

/// Sanitises each line of `text`, keeping the line breaks.
pub fn sanitize_lines(text: &str) -> String {
    text.lines()
        .map(|line| sanitize(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// An integer with thousands separators: `20182` -> `20,182`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun, singular for one: `1 server`, `20,182 tools`, `2 queries`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        thousands(n as u64),
        if n == 1 { one } else { many }
    )
}

/// The first of `variants` (longest first) that fits in `max` columns; the last one clipped
/// when none does. A narrow pane drops words before it cuts a figure.
pub fn fit(variants: &[String], max: usize) -> String {
    variants
        .iter()
        .find(|v| width(&sanitize(v)) <= max)
        .map(|v| sanitize(v).into_owned())
        .unwrap_or_else(|| clip(variants.last().map_or("", String::as_str), max))
}

/// Display width of `text` in terminal columns.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Sanitises `text` and clips it to `max` columns, ending with `…` when cut.
pub fn clip(text: &str, max: usize) -> String {
    let clean = sanitize(text);
    if width(&clean) <= max {
        return clean.into_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in clean.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// The first sentence (or line) of a description, for one-line summaries.
pub fn first_sentence(text: &str) -> &str {
    let text = text.trim_start();
    let line_end = text.find('\n').unwrap_or(text.len());
    let line = &text[..line_end];
    match line.find(". ") {
        Some(i) => &line[..=i],
        None => line,
    }
}

/// `2026-12-02T18:28:57Z`.
pub fn utc_timestamp(time: std::time::SystemTime) -> String {
    let seconds = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The known word closest to `word`, when it is close enough to be a typo of it.
pub fn did_you_mean<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(word, k), *k))
        .filter(|(distance, k)| {
            *distance > 0 && (*distance <= 2 || strsim::jaro_winkler(word, k) >= 0.9)
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, k)| k)
}

/// A byte count in KiB / MiB for messages.
pub fn human_bytes(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    } else if bytes >= 1024 {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn timestamps_are_rfc3339_utc() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_796_236_137);
        assert_eq!(utc_timestamp(t), "2026-12-02T18:28:57Z");
        assert_eq!(utc_timestamp(std::time::UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let leap = std::time::UNIX_EPOCH + std::time::Duration::from_secs(951_782_400);
        assert_eq!(utc_timestamp(leap), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn fit_takes_the_longest_variant_that_fits() {
        let variants = [
            "saved $0.06/turn $178.63/month".to_string(),
            "$178.63/month".to_string(),
        ];
        assert_eq!(fit(&variants, 40), "saved $0.06/turn $178.63/month");
        assert_eq!(fit(&variants, 20), "$178.63/month");
        assert_eq!(fit(&variants, 5), "$178…");
    }

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(1, "server", "servers"), "1 server");
        assert_eq!(count(0, "server", "servers"), "0 servers");
        assert_eq!(count(30_030, "tool", "tools"), "30,030 tools");
        assert_eq!(count(2, "query", "queries"), "2 queries");
    }

    use super::*;

    #[test]
    fn strips_escape_sequences_and_controls() {
        assert_eq!(sanitize("a\u{1b}[31mred\u{1b}[0m b"), "ared b");
        assert_eq!(sanitize("x\u{1b}]0;title\u{7}y"), "xy");
        assert_eq!(
            sanitize("x\u{1b}]8;;http://e\u{1b}\\link\u{1b}]8;;\u{1b}\\y"),
            "xlinky"
        );
        assert_eq!(
            sanitize("bell\u{7} nul\u{0} del\u{7f} c1\u{85}"),
            "bell nul del c1"
        );
        assert_eq!(sanitize("line\nnext\ttab"), "line next tab");
        assert_eq!(sanitize("rtl\u{202e}txt"), "rtltxt");
        assert_eq!(sanitize("\u{9b}2Jclear"), "clear");
        assert!(matches!(sanitize("plain é 東"), Cow::Borrowed(_)));
    }

    #[test]
    fn clips_by_display_width() {
        assert_eq!(clip("hello world", 20), "hello world");
        assert_eq!(clip("hello world", 6), "hello…");
        assert_eq!(clip("東京東京", 5), "東京…");
        assert_eq!(width(&clip("東京東京", 5)), 5);
        assert_eq!(clip("abc", 0), "");
    }

    #[test]
    fn first_sentence_stops_at_period_or_line() {
        assert_eq!(first_sentence("Do a thing. Then more."), "Do a thing.");
        assert_eq!(first_sentence("  Line one\nline two"), "Line one");
        assert_eq!(first_sentence("v2.0 release"), "v2.0 release");
    }
}
