//! What one capture may cost: the limits the transports, the protocol and the errors share.

use crate::error::CaptureError;

/// Most `tools/list` pages read before giving up.
pub const MAX_PAGES: usize = 1000;
/// Largest single message accepted (a line on stdio, an HTTP answer body), checked while it is
/// read: real servers answer a `tools/list` page in a few hundred KB at most.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;
/// Most bytes a server may send in one capture, every message and page together: the largest
/// capture file schematax reads.
pub const MAX_CAPTURE_BYTES: u64 = schematax_engine::inputs::capture_file::MAX_CAPTURE_BYTES;
/// Most bytes of a server's `instructions` written into a capture: longer ones are cut there
/// (on a character boundary), with a note. The agents that send them send far less.
pub const MAX_INSTRUCTIONS_BYTES: usize = 64 * 1024;
/// Most JSON values a server may send in one capture, every message together, counted before
/// each message is parsed (see [`json_values`]). A parsed value costs some 100 to 300 bytes,
/// so this is what bounds the memory of a capture: a few bytes of `[0,0,0,...]` or
/// `[{"a":0},...]` would otherwise cost a hundred times their size. The largest real capture
/// in the tests holds about 4,000.
pub const MAX_CAPTURE_VALUES: u64 = 500_000;

/// Cuts `text` to [`MAX_INSTRUCTIONS_BYTES`] on a character boundary; returns its length in
/// bytes before, when it was cut.
pub fn cut_instructions(text: &mut String) -> Option<usize> {
    let sent = text.len();
    if sent <= MAX_INSTRUCTIONS_BYTES {
        return None;
    }
    let mut at = MAX_INSTRUCTIONS_BYTES;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    Some(sent)
}

/// How many JSON values parsing `text` makes, counted without parsing it: one for each `[`,
/// `{` and `,` outside strings, and one more (an upper bound for valid JSON: an object's
/// entry counts once, for its key and value together).
pub fn json_values(text: &[u8]) -> u64 {
    let mut count = 1;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in text {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'[' | b'{' | b',' => count += 1,
                _ => {}
            }
        }
    }
    count
}

/// The JSON values a capture may still parse: [`MAX_CAPTURE_VALUES`] at the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueBudget {
    left: u64,
}

impl Default for ValueBudget {
    fn default() -> ValueBudget {
        ValueBudget {
            left: MAX_CAPTURE_VALUES,
        }
    }
}

impl ValueBudget {
    /// Takes the values of `text` from the budget before it is parsed; an error, and nothing
    /// taken, when they are more than what is left.
    pub fn charge(&mut self, text: &[u8]) -> Result<(), CaptureError> {
        let values = json_values(text);
        if values > self.left {
            return Err(CaptureError::TooManyValues);
        }
        self.left -= values;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_counted_outside_strings() {
        assert_eq!(json_values(b"0"), 1);
        assert_eq!(json_values(b"[0,0,0]"), 4);
        assert_eq!(json_values(br#"{"a":[1,2],"b":{}}"#), 6);
        // Brackets and commas inside strings, escaped quotes included, are text.
        assert_eq!(json_values(br#"{"d":"a, [b] {c} \" ,,"}"#), 2);
    }

    #[test]
    fn instructions_are_cut_between_characters() {
        let mut short = "short".to_string();
        assert_eq!(cut_instructions(&mut short), None);
        assert_eq!(short, "short");
        // A two-byte character across the limit is left out whole.
        let mut long = format!(
            "{}é{}",
            "a".repeat(MAX_INSTRUCTIONS_BYTES - 1),
            "b".repeat(10)
        );
        let sent = long.len();
        assert_eq!(cut_instructions(&mut long), Some(sent));
        assert_eq!(long, "a".repeat(MAX_INSTRUCTIONS_BYTES - 1));
    }

    #[test]
    fn the_budget_refuses_what_would_pass_it() {
        let mut budget = ValueBudget { left: 5 };
        budget.charge(b"[0,0]").unwrap();
        assert_eq!(budget.left, 2);
        assert_eq!(budget.charge(b"[0,0]"), Err(CaptureError::TooManyValues));
        assert_eq!(budget.left, 2);
        budget.charge(b"[0]").unwrap();
    }
}
