//! The pieces OpenAI's encodings cut a text into before they count each one, by the encoding's
//! own pattern (tiktoken's). bpe-openai matches it with a regex that keeps its search state in
//! a pool: every thread but one takes the state from it and gives it back under a lock, for
//! every piece; that pool and the iterator around it were over a quarter of a report's CPU on
//! two cores. Here the pattern is one regex shared by every thread and each thread keeps its
//! own search state, so no piece waits.
//!
//! The pattern's white-space alternatives are matched by hand: one of them looks ahead
//! (`\s+(?!\S)`, a run of white space that leaves its last character to the word after it),
//! which the regex crate cannot say. Tried in the pattern's order, after every other
//! alternative has failed at a place: a run of white space reaching the end of the text is one
//! piece; a run followed by anything else is one piece without its last character, or, one
//! character long, that character alone.
//!
//! Where the text around a piece is ASCII (most of a tool's definition), the pieces are matched
//! by hand too ([`ascii_piece_end`]), as the regex would match them; wherever that match would
//! look at a character outside ASCII, the regex decides.

use std::cell::RefCell;
use std::sync::LazyLock;

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};

use super::Encoding;

/// cl100k_base's pattern without its two white-space alternatives (`\s+(?!\S)|\s+`).
const CL100K_BASE: &str = concat!(
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)",
    r"|[^\r\n\p{L}\p{N}]?\p{L}+",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*",
    r"|\s*[\r\n]+",
);

/// o200k_base's pattern without its two white-space alternatives (`\s+(?!\S)|\s+`).
const O200K_BASE: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+",
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*",
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
);

/// Compiles an encoding's pattern (one of the constants above).
fn compile(pattern: &str) -> Regex {
    Regex::new(pattern).expect("the encoding's pattern compiles")
}

/// cl100k_base's pattern, compiled once for every thread.
static CL100K: LazyLock<Regex> = LazyLock::new(|| compile(CL100K_BASE));

/// o200k_base's pattern, compiled once for every thread.
static O200K: LazyLock<Regex> = LazyLock::new(|| compile(O200K_BASE));

thread_local! {
    /// This thread's search state for each encoding's pattern, made the first time it splits.
    static CACHES: RefCell<Vec<(Encoding, Cache)>> = const { RefCell::new(Vec::new()) };
}

/// Calls `piece` with each piece of `text` under `encoding`'s pattern, in order: the pieces
/// bpe-openai's `split` gives, end to end the whole text. `piece` must not split a text itself
/// (this thread's search state is in use).
pub(super) fn for_each_piece<'t>(
    encoding: Encoding,
    text: &'t str,
    mut piece: impl FnMut(&'t str),
) {
    let regex: &Regex = match encoding {
        Encoding::Cl100k => &CL100K,
        Encoding::O200k => &O200K,
    };
    CACHES.with(|caches| {
        let mut caches = caches.borrow_mut();
        let at = match caches.iter().position(|(owner, _)| *owner == encoding) {
            Some(at) => at,
            None => {
                caches.push((encoding, regex.create_cache()));
                caches.len() - 1
            }
        };
        let cache = &mut caches[at].1;
        let mut start = 0;
        while start < text.len() {
            if let Some(end) = ascii_piece_end(encoding, text, start) {
                piece(&text[start..end]);
                start = end;
                continue;
            }
            let input = Input::new(text).range(start..).anchored(Anchored::Yes);
            let end = match regex.search_with(cache, &input) {
                Some(found) if found.end() > start => found.end(),
                _ => white_space_end(text, start),
            };
            piece(&text[start..end]);
            start = end;
        }
    });
}

/// What the encodings' patterns tell of an ASCII byte (or of the end of the text): `\s` is
/// Unicode's white space, which in ASCII is these six characters and not 0x1C-0x1F.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ascii {
    Upper,
    Lower,
    Digit,
    /// `\r` or `\n`.
    LineBreak,
    /// White space but a line break: space, tab, vertical tab, form feed.
    Space,
    /// Neither a letter, a digit nor white space: punctuation, symbols, other controls.
    Other,
    /// The end of the text.
    End,
}

/// The class of the byte at `at` (the end past the text); None for a byte outside ASCII,
/// whose character the hand match cannot class.
fn ascii_class(bytes: &[u8], at: usize) -> Option<Ascii> {
    Some(match bytes.get(at) {
        None => Ascii::End,
        Some(b'A'..=b'Z') => Ascii::Upper,
        Some(b'a'..=b'z') => Ascii::Lower,
        Some(b'0'..=b'9') => Ascii::Digit,
        Some(b'\r' | b'\n') => Ascii::LineBreak,
        Some(b' ' | b'\t' | 0x0B | 0x0C) => Ascii::Space,
        Some(0x80..) => return None,
        Some(_) => Ascii::Other,
    })
}

/// The end of the run of `class` from `at`; None when it stops at a byte outside ASCII (whose
/// character might go on with it).
fn ascii_run(bytes: &[u8], at: usize, class: Ascii) -> Option<usize> {
    ascii_run_of(bytes, at, |c| c == class)
}

/// The end of the run of bytes whose class is `in_run` from `at`; None when it stops at a
/// byte outside ASCII.
fn ascii_run_of(bytes: &[u8], mut at: usize, in_run: impl Fn(Ascii) -> bool) -> Option<usize> {
    while in_run(ascii_class(bytes, at)?) {
        at += 1;
    }
    Some(at)
}

/// The end of the piece starting at `start` under `encoding`'s whole pattern (its white-space
/// alternatives included), matched by hand as the regex matches: its alternatives tried in
/// order, each quantifier as long as it can be; None wherever that would class a character
/// outside ASCII.
fn ascii_piece_end(encoding: Encoding, text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let first = ascii_class(bytes, start)?;
    // cl100k_base's first alternative: a contraction on its own.
    if encoding == Encoding::Cl100k {
        let contraction = contraction_length(bytes, start)?;
        if contraction > 0 {
            return Some(start + contraction);
        }
    }
    // The letters' alternatives, after `[^\r\n\p{L}\p{N}]?`: cl100k_base's `\p{L}+`;
    // o200k_base's upper case then lower case (`[Lu]*[Ll]+`, else `[Lu]+[Ll]*`) then a
    // contraction. In ASCII the cases do not overlap, so neither run gives a letter back to
    // the other.
    let letters_from = match first {
        Ascii::Space | Ascii::Other => start + 1,
        _ => start,
    };
    let letters_end = match encoding {
        Encoding::O200k => {
            let upper_end = ascii_run(bytes, letters_from, Ascii::Upper)?;
            let lower_end = ascii_run(bytes, upper_end, Ascii::Lower)?;
            if lower_end > letters_from {
                return Some(lower_end + contraction_length(bytes, lower_end)?);
            }
            lower_end
        }
        Encoding::Cl100k => ascii_run_of(bytes, letters_from, |class| {
            matches!(class, Ascii::Upper | Ascii::Lower)
        })?,
    };
    if letters_end > letters_from {
        return Some(letters_end);
    }
    match first {
        // `\p{N}{1,3}`.
        Ascii::Digit => {
            let mut end = start;
            while end < start + 3 && ascii_class(bytes, end)? == Ascii::Digit {
                end += 1;
            }
            Some(end)
        }
        // ` ?[^\s\p{L}\p{N}]+`, then line breaks (and, in o200k_base, slashes).
        Ascii::Space | Ascii::Other => {
            let symbols_from = if bytes[start] == b' ' {
                start + 1
            } else {
                start
            };
            let symbols_end = ascii_run(bytes, symbols_from, Ascii::Other)?;
            if symbols_end > symbols_from {
                let slash = encoding == Encoding::O200k;
                let tail = bytes[symbols_end..]
                    .iter()
                    .take_while(|&&b| b == b'\r' || b == b'\n' || (slash && b == b'/'))
                    .count();
                return Some(symbols_end + tail);
            }
            white_space_piece_end(text, start)
        }
        Ascii::LineBreak => white_space_piece_end(text, start),
        // A letter always starts a letters' piece (above), and `start` is within the text.
        Ascii::Upper | Ascii::Lower | Ascii::End => None,
    }
}

/// The length of the contraction at `at` (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`, in any
/// case), 0 when there is none; None when a character outside ASCII might fold to one of
/// its letters.
fn contraction_length(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'\'') {
        return Some(0);
    }
    let letter = |offset: usize| match bytes.get(at + offset) {
        Some(b) if !b.is_ascii() => None,
        other => Some(other.map(u8::to_ascii_lowercase)),
    };
    Some(match letter(1)? {
        Some(b's' | b't' | b'm' | b'd') => 2,
        Some(first @ (b'r' | b'v' | b'l')) => {
            let second = if first == b'l' { b'l' } else { b'e' };
            if letter(2)? == Some(second) {
                3
            } else {
                0
            }
        }
        _ => 0,
    })
}

/// The end of a piece that starts with white space and no other alternative took (under
/// either encoding): `\s*[\r\n]+` (up to the run's last line break), else the hand-matched
/// white-space alternatives; None when the run meets a character outside ASCII.
fn white_space_piece_end(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut end = start;
    let mut last_break = None;
    loop {
        match ascii_class(bytes, end)? {
            Ascii::Space => {}
            Ascii::LineBreak => last_break = Some(end),
            _ => break,
        }
        end += 1;
    }
    Some(match last_break {
        Some(at) => at + 1,
        None => white_space_end(text, start),
    })
}

/// Where the white-space piece starting at `start` ends (see the module's documentation);
/// a character that is not white space, which no alternative of the patterns leaves
/// unmatched, is a piece of its own.
fn white_space_end(text: &str, start: usize) -> usize {
    let rest = &text[start..];
    let mut chars = rest.char_indices();
    let Some((_, first)) = chars.next() else {
        return text.len();
    };
    if !first.is_whitespace() {
        return start + first.len_utf8();
    }
    let mut last = (0, first);
    for (at, c) in chars {
        if !c.is_whitespace() {
            // The run is followed by `c`: it leaves its last character to it, unless that
            // is its only one.
            return start
                + if last.0 == 0 {
                    last.1.len_utf8()
                } else {
                    last.0
                };
        }
        last = (at, c);
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizers::test_texts::{every_short_text, texts, EDGE_TEXTS};

    /// The pieces of `text`, as this module cuts them.
    fn pieces(encoding: Encoding, text: &str) -> Vec<&str> {
        let mut pieces = Vec::new();
        for_each_piece(encoding, text, |piece| pieces.push(piece));
        pieces
    }

    /// The pieces bpe-openai's own `split` gives.
    fn theirs(encoding: Encoding, text: &str) -> Vec<&str> {
        encoding.bpe().split(text).collect()
    }

    const ENCODINGS: [Encoding; 2] = [Encoding::Cl100k, Encoding::O200k];

    #[test]
    fn the_pieces_are_bpe_openais_on_the_test_texts_and_captures() {
        for encoding in ENCODINGS {
            for text in texts().iter().map(String::as_str).chain(EDGE_TEXTS) {
                assert_eq!(pieces(encoding, text), theirs(encoding, text), "{text:?}");
            }
        }
    }

    #[test]
    fn the_pieces_are_bpe_openais_on_every_short_text_of_characters_that_tell_them_apart() {
        // White space of each kind, letters of each case class, a mark, digits, the
        // apostrophe and contraction letters, punctuation and the slash o200k keeps.
        let alphabet = [
            ' ',
            '\t',
            '\n',
            '\r',
            '\u{a0}',
            '\u{2003}',
            'a',
            'Z',
            's',
            'L',
            '\u{2b0}',
            '\u{5d0}',
            '\u{1c5}',
            '\u{301}',
            '7',
            '\u{663}',
            '\'',
            '/',
            '.',
            '-',
            '\u{1f44d}',
        ];
        let mut compared = 0;
        for text in every_short_text(&alphabet, 4) {
            for encoding in ENCODINGS {
                assert_eq!(pieces(encoding, &text), theirs(encoding, &text), "{text:?}");
                compared += 1;
            }
        }
        assert!(compared > 400_000, "{compared}");
    }

    #[test]
    fn pieces_matched_by_hand_are_the_regexs_on_every_short_ascii_text() {
        // Each ASCII class the patterns tell apart, the contractions' letters in both cases, a
        // control character and letters outside ASCII beside them.
        let alphabet = [
            ' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{1c}', 'a', 'R', 'E', 'l', 'v', 'S', 'd',
            '7', '\'', '/', '$', '\u{e9}', '\u{17f}',
        ];
        let mut by_hand = 0;
        for text in every_short_text(&alphabet, 4) {
            for encoding in ENCODINGS {
                assert_eq!(pieces(encoding, &text), theirs(encoding, &text), "{text:?}");
                by_hand += usize::from(ascii_piece_end(encoding, &text, 0).is_some());
            }
        }
        assert!(
            by_hand > 120_000,
            "{by_hand} texts matched by hand from their start"
        );
        let texts = [
            "it's",
            "IT'S",
            "we'LL",
            "I'Ve",
            "x'r",
            "'re",
            "'Rx",
            "1234567",
            "a  \n\n b",
            "$$/\n/x",
            "AB'll",
            " \r\n\t",
            "12345",
            "''s",
            " \t\u{2003}\nx",
            "a\u{1c}b",
        ];
        for text in texts {
            for encoding in ENCODINGS {
                assert_eq!(pieces(encoding, text), theirs(encoding, text), "{text:?}");
            }
        }
    }

    #[test]
    fn a_run_of_white_space_leaves_its_last_character_to_the_word_after_it() {
        assert_eq!(pieces(Encoding::O200k, "a   b"), ["a", "  ", " b"]);
        assert_eq!(pieces(Encoding::O200k, "a \tb"), ["a", " ", "\tb"]);
        assert_eq!(pieces(Encoding::Cl100k, "a  "), ["a", "  "]);
        assert_eq!(pieces(Encoding::Cl100k, "\t7"), ["\t", "7"]);
    }
}
