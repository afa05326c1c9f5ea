//! Output of the non-interactive commands: one serialisable model per command, rendered as an
//! aligned table, JSON (stable, documented in the README) or Markdown.

pub mod cost;
pub mod describe;
pub mod search;
pub mod sweep;
pub mod table;

use serde::Serialize;

/// Output format of a report command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned plain text for a terminal.
    #[default]
    Table,
    /// Pretty-printed JSON.
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
}

/// Pretty JSON of a report model, ending with a newline.
pub fn to_json<T: Serialize>(model: &T) -> String {
    let mut text = serde_json::to_string_pretty(model).expect("report models serialise");
    text.push('\n');
    text
}

/// A fenced Markdown code block whose fence is longer than any backtick run in `content`.
pub fn code_block(language: &str, content: &str) -> String {
    let longest = content.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{language}\n{content}\n{fence}\n")
}

/// An integer with thousands separators: `20182` -> `20,182`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Dollars with enough precision for fractions of a cent: `$0.0605`.
pub fn dollars(amount: f64) -> String {
    if amount < 0.0 {
        format!("-{}", dollars(-amount))
    } else if amount >= 100.0 {
        format!("${amount:.2}")
    } else {
        format!("${amount:.4}")
    }
}

/// A context length the way people say it: `200K`, `1M`, `131,072`.
pub fn context_label(tokens: u64) -> String {
    match tokens {
        0 => "unknown".into(),
        t if t % 1_000_000 == 0 => format!("{}M", t / 1_000_000),
        t if t % 1000 == 0 => format!("{}K", t / 1000),
        t if t % 1024 == 0 && t < 1 << 20 => format!("{}K", t / 1024),
        t => thousands(t),
    }
}

/// threshold_pct without trailing zeros: `10`, `12.5`.
pub fn pct_label(pct: f64) -> String {
    let text = format!("{pct:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_labels() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(20182), "20,182");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(context_label(200_000), "200K");
        assert_eq!(context_label(2_000_000), "2M");
        assert_eq!(context_label(8_192), "8K");
        assert_eq!(context_label(131_073), "131,073");
        assert_eq!(pct_label(10.0), "10");
        assert_eq!(pct_label(12.5), "12.5");
        assert_eq!(pct_label(10.09), "10.09");
        assert_eq!(dollars(0.060546), "$0.0605");
        assert_eq!(dollars(-0.001), "-$0.0010");
        assert_eq!(code_block("json", "{}"), "```json\n{}\n```\n");
        assert_eq!(code_block("", "a ```` b"), "`````\na ```` b\n`````\n");
    }
}
