//! Output of the non-interactive commands: one serialisable model per command, rendered as an
//! aligned table, JSON (stable, documented in the README) or Markdown; the cost report also as
//! a self-contained HTML page ([`html`]) and an SVG card ([`card`]).

#![warn(missing_docs)]
// A failure is an error value with a message, never a panic (unit tests may unwrap).
#![deny(clippy::unwrap_used)]

pub mod agents;
pub mod card;
pub mod check;
pub mod compare;
pub mod cost;
pub mod count;
pub mod describe;
pub mod eval;
pub mod html;
pub mod lint;
pub mod markup;
pub mod profiles;
pub mod search;
pub mod sweep;
pub mod table;
pub mod tokenizer;
pub mod words;

use serde::Serialize;

pub use schematax_engine::text::thousands;

/// Output format of a report command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned plain text for a terminal.
    #[default]
    Table,
    /// Pretty-printed JSON.
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
}

/// `--format` of `report`: the report formats plus the HTML page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReportFormat {
    /// Aligned plain text for a terminal.
    #[default]
    Table,
    /// Pretty-printed JSON.
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
    /// One self-contained HTML page: headline, charts, activation map, lint, inputs.
    Html,
}

impl ReportFormat {
    /// The plain report format this is; `None` for the HTML page.
    pub fn plain(self) -> Option<Format> {
        match self {
            ReportFormat::Table => Some(Format::Table),
            ReportFormat::Json => Some(Format::Json),
            ReportFormat::Markdown => Some(Format::Markdown),
            ReportFormat::Html => None,
        }
    }
}

/// A file path as a SARIF `artifactLocation.uri`: a relative URI reference (or a `file://`
/// URI for an absolute path), each byte but the unreserved ones and `/` percent-encoded (a
/// space, `%` or `#` would make it invalid).
pub fn sarif_uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    // An absolute path is a file URI (a `//` start would read as a host).
    let mut out = if path.starts_with('/') {
        String::from("file://")
    } else {
        String::with_capacity(path.len())
    };
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Pretty JSON of a report model, ending with a newline. Besides the usual escapes, C1
/// controls, DEL and bidirectional overrides in strings are written as `\uXXXX`, so no
/// terminal control ever reaches the screen raw.
pub fn to_json<T: Serialize>(model: &T) -> String {
    let mut out = Vec::new();
    write_json(model, &mut out).expect("report models serialise");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// Writes `model` as [`to_json`] would make it, as it goes.
pub fn write_json<T: Serialize>(model: &T, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    write_json_at(model, 0, out)?;
    out.write_all(b"\n")
}

/// Writes `model` as pretty JSON nested `depth` levels deep, as [`write_json`] writes a value
/// at that depth of a larger model (its lines after the first indented that much more), with
/// no newline after it.
pub(crate) fn write_json_at<T: Serialize>(
    model: &T,
    depth: usize,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut nested = Nested { out, depth };
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut nested, SafeFormatter::default());
    model
        .serialize(&mut serializer)
        .map_err(std::io::Error::from)
}

/// Writes `count` items in pieces of `piece` items (the last one shorter; `piece` above 0):
/// as many pieces as there are threads are made side by side, each by `make` from its items'
/// range on one thread (what it makes along the way is dropped there), then written out in
/// order.
pub(crate) fn write_pieces_side_by_side(
    count: usize,
    piece: usize,
    make: impl Fn(std::ops::Range<usize>) -> std::io::Result<Vec<u8>> + Sync,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    use rayon::prelude::*;
    let starts: Vec<usize> = (0..count).step_by(piece).collect();
    for batch in starts.chunks(rayon::current_num_threads()) {
        let made: Vec<Vec<u8>> = batch
            .par_iter()
            .map(|&start| make(start..(start + piece).min(count)))
            .collect::<std::io::Result<_>>()?;
        for bytes in made {
            out.write_all(&bytes)?;
        }
    }
    Ok(())
}

/// A writer that indents every line after the first by `depth` levels of pretty JSON. A
/// newline in JSON text is only ever the formatter's: inside strings it is escaped.
struct Nested<'a> {
    out: &'a mut dyn std::io::Write,
    depth: usize,
}

impl std::io::Write for Nested<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        if self.depth == 0 {
            return self.out.write_all(buf);
        }
        for line in buf.split_inclusive(|&byte| byte == b'\n') {
            self.out.write_all(line)?;
            if line.ends_with(b"\n") {
                for _ in 0..self.depth {
                    self.out.write_all(JSON_INDENT)?;
                }
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// One level of pretty JSON's indentation, as serde_json's pretty formatter writes it.
const JSON_INDENT: &[u8] = b"  ";

/// serde_json's pretty formatter, with terminal-unsafe characters escaped.
#[derive(Default)]
struct SafeFormatter(serde_json::ser::PrettyFormatter<'static>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, writer: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
            self.0.$name(writer $(, $arg)*)
        }
    )*};
}

impl serde_json::ser::Formatter for SafeFormatter {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (index, c) in fragment.char_indices() {
            if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') {
                writer.write_all(&fragment.as_bytes()[start..index])?;
                write!(writer, "\\u{:04x}", c as u32)?;
                start = index + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// A fenced Markdown code block whose fence is longer than any backtick run in `content`.
pub fn code_block(language: &str, content: &str) -> String {
    let longest = content.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{language}\n{content}\n{fence}\n")
}

/// Dollars to the cent (`$0.06`, `$1,253.35`); below a cent, to two significant digits
/// (`$0.0011`, `$0.000042`), so a small figure is never shown as nothing.
pub fn dollars(amount: f64) -> String {
    if amount < 0.0 {
        return format!("-{}", dollars(-amount));
    }
    if amount >= 0.01 || amount == 0.0 || !amount.is_finite() {
        let cents = (amount * 100.0).round() as u64;
        return format!("${}.{:02}", thousands(cents / 100), cents % 100);
    }
    // Two significant digits: 0.0011 has its first at the third decimal, so four.
    let decimals = (1 - amount.log10().floor() as i32).clamp(3, 12) as usize;
    format!("${amount:.decimals$}")
}

/// A context length the way people say it, and exact: `200K`, `1M`, `131,072` (K and M are
/// decimal, as `--context` reads them).
pub fn context_label(tokens: u64) -> String {
    match tokens {
        0 => "unknown".into(),
        t if t % 1_000_000 == 0 => format!("{}M", t / 1_000_000),
        t if t % 1000 == 0 => format!("{}K", t / 1000),
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
        assert_eq!(context_label(8_000), "8K");
        assert_eq!(context_label(8_192), "8,192");
        assert_eq!(context_label(131_073), "131,073");
        assert_eq!(pct_label(10.0), "10");
        assert_eq!(pct_label(12.5), "12.5");
        assert_eq!(pct_label(10.09), "10.09");
        assert_eq!(dollars(0.060546), "$0.06");
        assert_eq!(dollars(1253.345), "$1,253.35");
        assert_eq!(dollars(57.249), "$57.25");
        assert_eq!(dollars(0.0), "$0.00");
        assert_eq!(dollars(0.00113), "$0.0011");
        assert_eq!(dollars(0.0099), "$0.0099");
        assert_eq!(dollars(0.000042), "$0.000042");
        assert_eq!(dollars(-0.001), "-$0.0010");
        assert_eq!(code_block("json", "{}"), "```json\n{}\n```\n");
        assert_eq!(
            to_json(&"a\u{1b}b\u{9b}c\u{202e}é"),
            "\"a\\u001bb\\u009bc\\u202eé\"\n"
        );
        assert_eq!(code_block("", "a ```` b"), "`````\na ```` b\n`````\n");
    }
}
