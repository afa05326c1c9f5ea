//! What a tool definition costs (ENGINE.md §3): the compact JSON the model is sent, its length
//! in Unicode scalar values, and the chars/4 estimate the activation gate uses. (Real
//! tokenizer counts are in [`crate::tokenizers`].)

use serde_json::Value;
use std::fmt::Write;

/// The chars/4 estimate: `ceil(chars / 4)`.
pub fn estimate_tokens(chars: u64) -> u64 {
    chars.div_ceil(4)
}

/// Number of Unicode scalar values of `text` (not bytes).
pub fn char_count(text: &str) -> u64 {
    text.chars().count() as u64
}

/// Where compact JSON goes: a `String`, or a [`CharCounter`] that only measures it.
pub trait JsonSink {
    /// Appends text.
    fn push_str(&mut self, text: &str);

    /// Appends the body of a JSON string (between the quotes) with Python's escapes.
    fn push_escaped(&mut self, text: &str)
    where
        Self: Sized,
    {
        escape_into(text, self);
    }
}

impl JsonSink for String {
    fn push_str(&mut self, text: &str) {
        String::push_str(self, text);
    }
}

/// A sink that counts the Unicode scalar values written to it, without storing them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CharCounter(pub u64);

impl JsonSink for CharCounter {
    fn push_str(&mut self, text: &str) {
        // Scalar values are the bytes that do not continue a UTF-8 sequence; this loop is
        // cheaper than `chars().count()` on the many short pieces of a schema.
        self.0 += text.bytes().filter(|b| b & 0xc0 != 0x80).count() as u64;
    }

    /// Every character counts once, and each escaped byte adds what its escape writes beyond
    /// one character (1 for `\n`-style escapes, 5 for `\u00XX`).
    fn push_escaped(&mut self, text: &str) {
        self.push_str(text);
        let bytes = text.as_bytes();
        if needs_escape(bytes) {
            self.0 += bytes
                .iter()
                .map(|&b| u64::from(ESCAPE_EXTRA[b as usize]))
                .sum::<u64>();
        }
    }
}

/// A sink that tells whether what is written to it is one given text, without storing it.
#[derive(Debug, Clone, Copy)]
pub struct SameText<'a> {
    /// What is still to be written, while it has matched so far.
    rest: Option<&'a [u8]>,
}

impl<'a> SameText<'a> {
    /// A sink compared with `expected`.
    pub fn new(expected: &'a str) -> SameText<'a> {
        SameText {
            rest: Some(expected.as_bytes()),
        }
    }

    /// Whether everything written is `expected`, whole.
    pub fn is_same(&self) -> bool {
        self.rest.is_some_and(<[u8]>::is_empty)
    }
}

impl JsonSink for SameText<'_> {
    fn push_str(&mut self, text: &str) {
        self.rest = self
            .rest
            .and_then(|rest| rest.strip_prefix(text.as_bytes()));
    }
}

/// Characters an escaped byte writes beyond one, by byte: what [`escape_into`] writes.
const ESCAPE_EXTRA: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = 5;
        byte += 1;
    }
    table[b'\n' as usize] = 1;
    table[b'\r' as usize] = 1;
    table[b'\t' as usize] = 1;
    table[0x08] = 1;
    table[0x0c] = 1;
    table[b'"' as usize] = 1;
    table[b'\\' as usize] = 1;
    table
};

/// Serialises `value` as Python's `json.dumps(value, separators=(",", ":"), ensure_ascii=False)`
/// does, which is what Hermes measures: compact, keys in document order, non-ASCII unescaped,
/// floats in Python's shortest `repr`.
pub fn write_compact_json<S: JsonSink>(value: &Value, out: &mut S) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => match (number.as_i64(), number.as_u64(), number.as_f64()) {
            (Some(i), _, _) => out.push_str(itoa::Buffer::new().format(i)),
            (_, Some(u), _) => out.push_str(itoa::Buffer::new().format(u)),
            (_, _, Some(f)) => write_float(f, out),
            _ => out.push_str(&number.to_string()),
        },
        Value::String(text) => write_json_string(text, out),
        Value::Array(items) => {
            out.push_str("[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(",");
                }
                write_compact_json(item, out);
            }
            out.push_str("]");
        }
        Value::Object(map) => write_compact_object(map, out),
    }
}

/// [`write_compact_json`] of an object, without wrapping it in a `Value`.
pub fn write_compact_object<S: JsonSink>(map: &serde_json::Map<String, Value>, out: &mut S) {
    out.push_str("{");
    for (i, (key, item)) in map.iter().enumerate() {
        if i > 0 {
            out.push_str(",");
        }
        write_json_string(key, out);
        out.push_str(":");
        write_compact_json(item, out);
    }
    out.push_str("}");
}

/// A JSON string with Python's escapes: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and
/// `\u00XX` for the other control characters below U+0020; everything else as is.
pub fn write_json_string<S: JsonSink>(text: &str, out: &mut S) {
    out.push_str("\"");
    out.push_escaped(text);
    out.push_str("\"");
}

/// The escaping of [`write_json_string`], without the quotes.
fn escape_into<S: JsonSink>(text: &str, out: &mut S) {
    let bytes = text.as_bytes();
    if !needs_escape(bytes) {
        out.push_str(text);
        return;
    }
    let mut start = 0;
    for (index, &byte) in bytes.iter().enumerate() {
        let short: &str = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[start..index]);
        if short.is_empty() {
            out.push_str(&format!("\\u{byte:04x}"));
        } else {
            out.push_str(short);
        }
        start = index + 1;
    }
    out.push_str(&text[start..]);
}

/// Whether `bytes` hold a byte that a JSON string escapes (a control character, `"` or `\`),
/// eight bytes at a time: nearly every string of a schema has none, and this check is most of
/// writing or measuring it.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH_BITS: u64 = ONES << 7;
    /// Whether a byte of `word` is below `limit` (at most 128): exact for the word as a whole.
    const fn has_below(word: u64, limit: u8) -> bool {
        word.wrapping_sub(ONES * limit as u64) & !word & HIGH_BITS != 0
    }
    let (words, rest) = bytes.as_chunks::<8>();
    words.iter().any(|word| {
        let word = u64::from_ne_bytes(*word);
        has_below(word, 0x20)
            || has_below(word ^ (ONES * u64::from(b'"')), 1)
            || has_below(word ^ (ONES * u64::from(b'\\')), 1)
    }) || rest.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Writes a float as [`write_compact_json`] does: as Python's `repr`.
pub fn write_float<S: JsonSink>(value: f64, out: &mut S) {
    out.push_str(&python_float(value));
}

/// A float as Python's `repr`: the shortest round-trip digits, fixed notation for decimal
/// exponents in [-4, 16), otherwise `d.ddde+XX`.
fn python_float(value: f64) -> String {
    if !value.is_finite() {
        let text = if value.is_nan() {
            "NaN"
        } else if value > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        return text.to_string();
    }
    let mut out = String::new();
    // Rust's `{:e}` gives the shortest round-trip digits, e.g. "-1.805e2".
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` always has an exponent");
    let exponent: i32 = exponent.parse().expect("`{:e}` exponent is an integer");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    out.push_str(sign);
    if (-4..16).contains(&exponent) {
        if exponent < 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exponent - 1) as usize));
            out.push_str(&digits);
        } else {
            let integer_len = exponent as usize + 1;
            if digits.len() <= integer_len {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', integer_len - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..integer_len]);
                out.push('.');
                out.push_str(&digits[integer_len..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(
            out,
            "e{}{:02}",
            if exponent < 0 { '-' } else { '+' },
            exponent.abs()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn compact(value: &Value) -> String {
        let mut out = String::new();
        write_compact_json(value, &mut out);
        out
    }

    #[test]
    fn floats_follow_python_repr() {
        let cases = [
            (1.0, "1.0"),
            (-180.5, "-180.5"),
            (0.1, "0.1"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (123456789012345.6, "123456789012345.6"),
            (1e15, "1000000000000000.0"),
            (-0.0, "-0.0"),
            (2.5e-7, "2.5e-07"),
            (1e100, "1e+100"),
        ];
        for (value, expected) in cases {
            assert_eq!(python_float(value), expected, "{value}");
        }
    }

    #[test]
    fn strings_use_python_escapes_and_keep_unicode() {
        let value = json!({"k": "a\"b\\c\nd\u{1}e\u{7f}é東\u{8}\u{c}\t\r"});
        assert_eq!(
            compact(&value),
            "{\"k\":\"a\\\"b\\\\c\\nd\\u0001e\u{7f}é東\\b\\f\\t\\r\"}"
        );
    }

    #[test]
    fn keys_keep_document_order() {
        let value: Value = serde_json::from_str(r#"{"z":1,"a":[true,null,2.50],"m":{}}"#).unwrap();
        assert_eq!(compact(&value), r#"{"z":1,"a":[true,null,2.5],"m":{}}"#);
    }

    #[test]
    fn counter_agrees_with_the_written_text() {
        let every_escape: String = (0u8..0x20)
            .map(char::from)
            .chain("\"\\\u{7f}é".chars())
            .collect();
        let value = serde_json::json!({"é": "a\"b\u{1}東🍵", "n": [1, -2, 1.5e300, true], "all": every_escape});
        let mut counter = CharCounter::default();
        write_compact_json(&value, &mut counter);
        assert_eq!(counter.0, char_count(&compact(&value)));
    }

    #[test]
    fn the_escape_check_finds_every_escaped_byte_at_every_place() {
        for byte in 0u8..=0x7f {
            let escaped = byte < 0x20 || byte == b'"' || byte == b'\\';
            for len in 1..=19 {
                for at in 0..len {
                    let mut text = vec![b'a'; len];
                    text[at] = byte;
                    assert_eq!(needs_escape(&text), escaped, "{byte:#x} at {at} of {len}");
                }
            }
        }
        // Bytes just above a limit, and multi-byte characters, are not escaped.
        assert!(!needs_escape("  !#[]é東🍵\u{7f}\u{80}".as_bytes()));
        assert!(!needs_escape(b""));
        // Random texts of every byte, mostly high ones, against the byte-by-byte rule.
        let mut rng = crate::test_rng::Lcg(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let text: Vec<u8> = (0..rng.below(32) + 1)
                .map(|_| {
                    let byte = rng.below(256) as u8;
                    if byte < 0x30 && rng.below(2) == 1 {
                        byte | 0x80
                    } else {
                        byte
                    }
                })
                .collect();
            let expected = text.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
            assert_eq!(needs_escape(&text), expected, "{text:?}");
        }
    }

    #[test]
    fn same_text_is_true_only_for_the_whole_text() {
        let value = json!({"k": ["a\"b", 1.5, {"z": null}]});
        let text = compact(&value);
        let same = |expected: &str| {
            let mut sink = SameText::new(expected);
            write_compact_json(&value, &mut sink);
            sink.is_same()
        };
        assert!(same(&text));
        assert!(
            !same(&text[..text.len() - 1]),
            "a prefix of what is written"
        );
        assert!(!same(&format!("{text} ")), "more than what is written");
        assert!(!same(&text.replace("1.5", "1.6")));
        assert!(!same(r#"{"k":["a\"b",1.5,{"z":null}],"k2":1}"#));
    }

    #[test]
    fn estimate_rounds_up() {
        assert_eq!(estimate_tokens(0), 0);
        assert_eq!(estimate_tokens(1), 1);
        assert_eq!(estimate_tokens(4), 1);
        assert_eq!(estimate_tokens(1509), 378);
        assert_eq!(char_count("é東🍵"), 3);
    }
}
