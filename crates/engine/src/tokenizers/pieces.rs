//! A long text is counted in pieces, so what counting costs is bounded by the piece, not the
//! text (a tokenizer.json's pipeline keeps 100 to 170 bytes per byte of what it is given, the
//! Claude tiling about 50), and a pattern that backtracks sees at most a piece.
//!
//! A piece ends where possible at a *word start*: a single space between two ASCII letters
//! (`x| y`), the space going with the piece after. Every tokenizer schematax counts exactly
//! with splits a text there: the letter ends a pre-token and ` y...` opens the next (GPT-2,
//! Llama 3 and Qwen style patterns, Metaspace, whitespace splits), and Claude's marked stream
//! ends a segment after the letter. So the pieces' counts add up to the whole text's (the
//! tests hold them to it). Only a text with no word start in [`MAX_PIECE_BYTES`] (a run of a
//! single character, a long unbroken line of symbols) is cut where it must be: there its count
//! may differ from the whole text's by a few tokens a cut.

/// The most bytes of a text a tokenizer is given at once.
pub const MAX_PIECE_BYTES: usize = 64 * 1024;

/// Where a piece begins to look for its end.
const PIECE_TARGET_BYTES: usize = 16 * 1024;

/// How long pieces are: a piece ends at the first word start at least `target` bytes in, and
/// is cut where it must be at `max` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sizes {
    /// The fewest bytes before a word start ends a piece.
    pub target: usize,
    /// The most bytes of a piece (at least 4: one character).
    pub max: usize,
}

impl Sizes {
    /// The sizes counting uses.
    pub const COUNTING: Sizes = Sizes {
        target: PIECE_TARGET_BYTES,
        max: MAX_PIECE_BYTES,
    };

    /// A piece at every word start and never a forced cut: how the tests and the load-time
    /// check hold the pieces' sum to the whole.
    pub const EVERY_WORD: Sizes = Sizes {
        target: 1,
        max: usize::MAX,
    };

    /// The whole text as one piece.
    pub const WHOLE: Sizes = Sizes {
        target: usize::MAX,
        max: usize::MAX,
    };
}

/// How a piece of a text begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Start {
    /// At the start of the text.
    Text,
    /// At a word start: the piece opens with the space, and `after` is the letter before it.
    Word {
        /// The ASCII letter that ends the piece before.
        after: char,
    },
    /// Where it had to: no word start came in time.
    Forced,
}

/// One piece of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Piece<'t> {
    /// How it begins.
    pub start: Start,
    /// Its text.
    pub text: &'t str,
    /// Whether it ends the text.
    pub last: bool,
}

/// The pieces of `text` (one, empty, for an empty text), ending at word starts that `allowed`
/// accepts (it is given the text and the space's byte offset).
pub(crate) fn pieces<F: Fn(&str, usize) -> bool>(
    text: &str,
    sizes: Sizes,
    allowed: F,
) -> Pieces<'_, F> {
    Pieces {
        text,
        at: 0,
        start: Start::Text,
        sizes,
        allowed,
        done: false,
    }
}

/// The iterator of [`pieces`].
pub(crate) struct Pieces<'t, F> {
    text: &'t str,
    at: usize,
    start: Start,
    sizes: Sizes,
    allowed: F,
    done: bool,
}

impl<'t, F: Fn(&str, usize) -> bool> Iterator for Pieces<'t, F> {
    type Item = Piece<'t>;

    fn next(&mut self) -> Option<Piece<'t>> {
        if self.done {
            return None;
        }
        let (at, len) = (self.at, self.text.len());
        let start = self.start;
        let from = at.saturating_add(self.sizes.target);
        let to = at.saturating_add(self.sizes.max);
        let end = match self.word_start(from, to.min(len)) {
            Some(space) => {
                self.start = Start::Word {
                    after: char::from(self.text.as_bytes()[space - 1]),
                };
                space
            }
            None if to < len => {
                self.start = Start::Forced;
                char_boundary_before(self.text, to).max(next_char(self.text, at))
            }
            None => len,
        };
        self.at = end;
        self.done = end >= len;
        Some(Piece {
            start,
            text: &self.text[at..end],
            last: self.done,
        })
    }
}

impl<F: Fn(&str, usize) -> bool> Pieces<'_, F> {
    /// The first word start at a byte offset in `from..to` that `allowed` accepts.
    fn word_start(&self, from: usize, to: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let from = from.max(1);
        let to = to.min(bytes.len().saturating_sub(1));
        (from..to).find(|&space| {
            bytes[space] == b' '
                && bytes[space - 1].is_ascii_alphabetic()
                && bytes[space + 1].is_ascii_alphabetic()
                && (self.allowed)(self.text, space)
        })
    }
}

/// The nearest character boundary at or before byte `at` (the text's end past it).
pub(crate) fn char_boundary_before(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The nearest character boundary at or after byte `at` (the text's end past it).
pub(crate) fn char_boundary_after(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// The boundary after the character at byte `at` (so a piece is never empty).
fn next_char(text: &str, at: usize) -> usize {
    at + text[at..].chars().next().map_or(0, char::len_utf8)
}

/// The longest text a tokenizer was given at once on this thread, as the tests see it.
#[cfg(test)]
pub(crate) mod longest_read {
    use std::cell::Cell;

    thread_local! {
        static LONGEST: Cell<usize> = const { Cell::new(0) };
    }

    /// Notes that a tokenizer was given `bytes` of text at once.
    pub(crate) fn note(bytes: usize) {
        LONGEST.with(|longest| longest.set(longest.get().max(bytes)));
    }

    /// The longest noted since the last call, forgotten.
    pub(crate) fn take() -> usize {
        LONGEST.with(|longest| longest.replace(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, sizes: Sizes) -> Vec<Piece<'_>> {
        pieces(text, sizes, |_, _| true).collect()
    }

    #[test]
    fn pieces_cover_the_text_once_in_order() {
        let long = "word ".repeat(40_000) + "é日本".repeat(30_000).as_str() + " end";
        for text in ["", "a", "a b", " ab cd ", long.as_str()] {
            for sizes in [Sizes::COUNTING, Sizes::EVERY_WORD, Sizes::WHOLE] {
                let parts = cut(text, sizes);
                assert_eq!(parts.iter().map(|p| p.text).collect::<String>(), text);
                assert_eq!(parts[0].start, Start::Text);
                assert!(parts.last().unwrap().last);
                assert_eq!(parts.iter().filter(|p| p.last).count(), 1);
                assert!(parts.iter().all(|p| !p.text.is_empty() || text.is_empty()));
            }
        }
    }

    #[test]
    fn no_piece_is_longer_than_the_bound() {
        let texts = [
            " ".repeat(1_000_000) + "a",
            "a".repeat(300_000),
            "日本語".repeat(100_000),
            "x y".repeat(200_000),
            "Take a screenshot of the page. ".repeat(10_000),
        ];
        for text in &texts {
            let parts = cut(text, Sizes::COUNTING);
            assert!(parts.len() > 1, "{}", text.len());
            for part in &parts {
                assert!(part.text.len() <= MAX_PIECE_BYTES, "{}", part.text.len());
            }
        }
    }

    #[test]
    fn pieces_end_at_word_starts_where_there_are_some() {
        let text = "Take a screenshot of the page. ".repeat(10_000);
        let parts = cut(&text, Sizes::COUNTING);
        for pair in parts.windows(2) {
            assert!(pair[0].text.len() >= PIECE_TARGET_BYTES);
            let after = pair[0].text.chars().last().unwrap();
            assert_eq!(pair[1].start, Start::Word { after });
            assert!(pair[1].text.starts_with(' '));
            assert!(after.is_ascii_alphabetic());
            assert!(pair[1].text[1..].starts_with(|c: char| c.is_ascii_alphabetic()));
        }
        let every: Vec<&str> = cut("ab cd  ef g1 h", Sizes::EVERY_WORD)
            .iter()
            .map(|p| p.text)
            .collect();
        assert_eq!(every, ["ab", " cd  ef", " g1 h"]);
        let refused: Vec<&str> = pieces("ab cd ef", Sizes::EVERY_WORD, |_, at| at != 2)
            .map(|p| p.text)
            .collect();
        assert_eq!(refused, ["ab cd", " ef"]);
    }

    #[test]
    fn a_text_without_word_starts_is_cut_at_character_boundaries() {
        let text = "日本語".repeat(100_000);
        let parts = cut(&text, Sizes::COUNTING);
        assert!(parts[1..].iter().all(|p| p.start == Start::Forced));
        let tiny = Sizes { target: 1, max: 4 };
        let parts: Vec<&str> = cut("日本語", tiny).iter().map(|p| p.text).collect();
        assert_eq!(parts, ["日", "本", "語"]);
    }
}
