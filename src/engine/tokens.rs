//! What a tool definition costs (ENGINE.md §3): the compact JSON the model is sent, its length
//! in Unicode scalar values, the chars/4 estimate the activation gate uses, and the analyzer's
//! own real tokenizer counts (o200k_base, cl100k_base).

use rayon::prelude::*;
use serde_json::Value;
use std::fmt::Write;
use std::sync::Arc;
use tiktoken_rs::CoreBPE;

/// The chars/4 estimate: `ceil(chars / 4)`.
pub fn estimate_tokens(chars: u64) -> u64 {
    chars.div_ceil(4)
}

/// Number of Unicode scalar values of `text` (not bytes).
pub fn char_count(text: &str) -> u64 {
    text.chars().count() as u64
}

/// Serialises `value` as Python's `json.dumps(value, separators=(",", ":"), ensure_ascii=False)`
/// does, which is what Hermes measures: compact, keys in document order, non-ASCII unescaped,
/// floats in Python's shortest `repr`.
pub fn write_compact_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => match (number.as_i64(), number.as_u64(), number.as_f64()) {
            (Some(i), _, _) => {
                let _ = write!(out, "{i}");
            }
            (_, Some(u), _) => {
                let _ = write!(out, "{u}");
            }
            (_, _, Some(f)) => write_python_float(f, out),
            _ => out.push_str(&number.to_string()),
        },
        Value::String(text) => write_json_string(text, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => write_compact_object(map, out),
    }
}

/// [`write_compact_json`] of an object, without wrapping it in a `Value`.
pub fn write_compact_object(map: &serde_json::Map<String, Value>, out: &mut String) {
    out.push('{');
    for (i, (key, item)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(key, out);
        out.push(':');
        write_compact_json(item, out);
    }
    out.push('}');
}

/// A JSON string with Python's escapes: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and
/// `\u00XX` for the other control characters below U+0020; everything else as is.
pub fn write_json_string(text: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (index, byte) in text.bytes().enumerate() {
        let escape: &str = match byte {
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
        if escape.is_empty() {
            let _ = write!(out, "\\u{byte:04x}");
        } else {
            out.push_str(escape);
        }
        start = index + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// A float as Python's `repr`: the shortest round-trip digits, fixed notation for decimal
/// exponents in [-4, 16), otherwise `d.ddde+XX`.
fn write_python_float(value: f64, out: &mut String) {
    if !value.is_finite() {
        out.push_str(if value.is_nan() {
            "NaN"
        } else if value > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        });
        return;
    }
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
}

/// A real tokenizer, as opposed to the chars/4 estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `o200k_base` (GPT-4o and later).
    O200k,
    /// `cl100k_base` (GPT-4, GPT-3.5).
    Cl100k,
}

impl Encoding {
    /// The encoding's name, used as the label of its numbers.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::O200k => "o200k_base",
            Encoding::Cl100k => "cl100k_base",
        }
    }
}

/// Real token counts of one text under both encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenCount {
    /// Tokens under o200k_base.
    pub o200k: u64,
    /// Tokens under cl100k_base.
    pub cl100k: u64,
}

impl std::ops::Add for TokenCount {
    type Output = TokenCount;
    fn add(self, other: TokenCount) -> TokenCount {
        TokenCount {
            o200k: self.o200k + other.o200k,
            cl100k: self.cl100k + other.cl100k,
        }
    }
}

impl std::iter::Sum for TokenCount {
    fn sum<I: Iterator<Item = TokenCount>>(iter: I) -> TokenCount {
        iter.fold(TokenCount::default(), |a, b| a + b)
    }
}

/// Both loaded encoders. Loading takes a noticeable fraction of a second: never on a UI thread.
#[derive(Clone)]
pub struct Tokenizers {
    o200k: Arc<CoreBPE>,
    cl100k: Arc<CoreBPE>,
}

impl Tokenizers {
    /// Loads both encoders in parallel from the vocabularies compiled into the binary.
    pub fn load() -> Result<Tokenizers, String> {
        let (o200k, cl100k) = rayon::join(tiktoken_rs::o200k_base, tiktoken_rs::cl100k_base);
        Ok(Tokenizers {
            o200k: Arc::new(o200k.map_err(|e| format!("cannot load o200k_base: {e}"))?),
            cl100k: Arc::new(cl100k.map_err(|e| format!("cannot load cl100k_base: {e}"))?),
        })
    }

    /// Tokens of `text` under `encoding` (special-token text counts as ordinary text).
    pub fn count_one(&self, encoding: Encoding, text: &str) -> u64 {
        let bpe = match encoding {
            Encoding::O200k => &self.o200k,
            Encoding::Cl100k => &self.cl100k,
        };
        bpe.encode_ordinary(text).len() as u64
    }

    /// Counts every text under both encodings, in parallel.
    pub fn count_all<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Vec<TokenCount> {
        texts
            .par_iter()
            .map(|text| TokenCount {
                o200k: self.count_one(Encoding::O200k, text.as_ref()),
                cl100k: self.count_one(Encoding::Cl100k, text.as_ref()),
            })
            .collect()
    }
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
            let mut out = String::new();
            write_python_float(value, &mut out);
            assert_eq!(out, expected, "{value}");
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
    fn estimate_rounds_up() {
        assert_eq!(estimate_tokens(0), 0);
        assert_eq!(estimate_tokens(1), 1);
        assert_eq!(estimate_tokens(4), 1);
        assert_eq!(estimate_tokens(1509), 378);
        assert_eq!(char_count("é東🍵"), 3);
    }
}
