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
    fn a_run_of_white_space_leaves_its_last_character_to_the_word_after_it() {
        assert_eq!(pieces(Encoding::O200k, "a   b"), ["a", "  ", " b"]);
        assert_eq!(pieces(Encoding::O200k, "a \tb"), ["a", " ", "\tb"]);
        assert_eq!(pieces(Encoding::Cl100k, "a  "), ["a", "  "]);
        assert_eq!(pieces(Encoding::Cl100k, "\t7"), ["\t", "7"]);
    }
}
