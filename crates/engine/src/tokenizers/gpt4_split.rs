//! The GPT-4-style pre-tokenizer pattern, which Qwen's and Llama 3's tokenizer.json files
//! split text by, matched by hand: the same matches as the crate's regex (Oniguruma, a
//! backtracking matcher that is most of the cost of counting such a file), without it.
//!
//! The pattern is
//! `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
//! with `\p{N}{1,3}` for `\p{N}` in Llama 3's. A backtracking matcher tries the
//! alternatives in order at each place and takes the first that matches; every character
//! begins a match of one of them, so the matches cover the text end to end. What each
//! alternative takes, written out (see [`Gpt4Pattern::match_end`]), depends only on the class
//! of each character: a letter (`\p{L}`), a number (`\p{N}`), a line break (`\r`, `\n`),
//! other white space (`\s`) or anything else. Those classes are Oniguruma's own: each
//! character's is asked of the crate's regex the first time it is met (see [`class_of`]).
//! The one part that reads more than a class, the contractions matched ignoring case, is
//! matched here only after ASCII; a text with anything else after an apostrophe is left to
//! the crate's regex (see [`Gpt4Pattern::takes`]).

use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::OnceLock;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::utils::SysRegex;

/// The pattern before its numbers' alternative.
const HEAD: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|";

/// The pattern after its numbers' alternative.
const TAIL: &str = r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The numbers' alternatives known, with the most numbers each takes at once.
const NUMBERS: [(&str, usize); 2] = [(r"\p{N}", 1), (r"\p{N}{1,3}", 3)];

/// The contractions, in the pattern's order, matched ignoring ASCII case.
const CONTRACTIONS: [&[u8]; 7] = [b"s", b"t", b"re", b"ve", b"m", b"ll", b"d"];

/// What the pattern tells a character by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// `\p{L}`.
    Letter,
    /// `\p{N}`.
    Number,
    /// `\r` or `\n`.
    LineBreak,
    /// Any other `\s`.
    Space,
    /// None of those.
    Other,
}

/// The GPT-4-style pattern of a `Split` step, matched by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Gpt4Pattern {
    /// The most numbers one match takes.
    numbers: usize,
}

impl Gpt4Pattern {
    /// The pattern of `split`, when it is one of the GPT-4-style patterns written out here.
    pub(super) fn of(split: &Split) -> Option<Gpt4Pattern> {
        let SplitPattern::Regex(pattern) = &split.pattern else {
            return None;
        };
        let numbers_part = pattern.strip_prefix(HEAD)?.strip_suffix(TAIL)?;
        NUMBERS
            .iter()
            .find(|(part, _)| *part == numbers_part)
            .map(|&(_, numbers)| Gpt4Pattern { numbers })
    }

    /// Whether the matches of `text` are found here: true unless a character after an
    /// apostrophe, or the one after that, is not ASCII (Unicode's case folding could then
    /// make a contraction of it).
    pub(super) fn takes(text: &str) -> bool {
        let bytes = text.as_bytes();
        bytes
            .iter()
            .enumerate()
            .all(|(at, &byte)| byte != b'\'' || bytes[at + 1..].iter().take(2).all(u8::is_ascii))
    }

    /// Calls `each` with the start and end of every match in `text`, in order, until it fails;
    /// `text` must be one [`Gpt4Pattern::takes`].
    pub(super) fn for_each_match<E>(
        self,
        text: &str,
        mut each: impl FnMut(usize, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut start = 0;
        while start < text.len() {
            let end = self.match_end(text, start);
            each(start, end)?;
            start = end;
        }
        Ok(())
    }

    /// Where the match that begins at `start` (a character boundary before the end) ends:
    /// the first of the pattern's alternatives that matches there, as a backtracking matcher
    /// takes it.
    fn match_end(self, text: &str, start: usize) -> usize {
        let bytes = text.as_bytes();
        let (first, after_first) = char_at(text, start).expect("a character at the start");
        let class = class_of(first);
        // `(?i:'s|'t|'re|'ve|'m|'ll|'d)`.
        if first == '\'' {
            let rest = &bytes[after_first..];
            if let Some(contraction) = CONTRACTIONS
                .iter()
                .find(|c| rest.len() >= c.len() && rest[..c.len()].eq_ignore_ascii_case(c))
            {
                return after_first + contraction.len();
            }
        }
        // `[^\r\n\p{L}\p{N}]?\p{L}+`.
        if class == Class::Letter {
            return run_end(text, after_first, |c| c == Class::Letter);
        }
        let next = char_at(text, after_first);
        let next_class = next.map(|(c, _)| class_of(c));
        if class != Class::LineBreak && class != Class::Number {
            if let (Some((_, after_next)), Some(Class::Letter)) = (next, next_class) {
                return run_end(text, after_next, |c| c == Class::Letter);
            }
        }
        // `\p{N}` or `\p{N}{1,3}`.
        if class == Class::Number {
            let mut end = after_first;
            for _ in 1..self.numbers {
                match char_at(text, end) {
                    Some((c, after)) if class_of(c) == Class::Number => end = after,
                    _ => break,
                }
            }
            return end;
        }
        // ` ?[^\s\p{L}\p{N}]+[\r\n]*`.
        let punctuation_from = match (first, next, next_class) {
            (_, _, _) if class == Class::Other => Some(after_first),
            (' ', Some((_, after_next)), Some(Class::Other)) => Some(after_next),
            _ => None,
        };
        if let Some(from) = punctuation_from {
            let end = run_end(text, from, |c| c == Class::Other);
            return end
                + bytes[end..]
                    .iter()
                    .take_while(|&&b| b == b'\r' || b == b'\n')
                    .count();
        }
        // White space, from here on: `\s*[\r\n]+` ends after the run's last line break;
        // `\s+(?!\S)` takes the whole run at the end of the text, else all of it but its last
        // character when that leaves one; `\s+` takes the one character.
        let mut end = start;
        let mut last_start = start;
        let mut last_break = None;
        let mut characters = 0;
        while let Some((c, after)) = char_at(text, end) {
            match class_of(c) {
                Class::LineBreak => last_break = Some(after),
                Class::Space => {}
                _ => break,
            }
            last_start = end;
            end = after;
            characters += 1;
        }
        if let Some(after_break) = last_break {
            return after_break;
        }
        if end == text.len() || characters == 1 {
            end
        } else {
            last_start
        }
    }
}

/// The character at byte `at` of `text` and where the next begins, or None at the end.
fn char_at(text: &str, at: usize) -> Option<(char, usize)> {
    let byte = *text.as_bytes().get(at)?;
    if byte.is_ascii() {
        return Some((char::from(byte), at + 1));
    }
    let c = text[at..].chars().next()?;
    Some((c, at + c.len_utf8()))
}

/// Where the run of characters of a class `in_run` accepts, from byte `from`, ends.
fn run_end(text: &str, mut from: usize, in_run: impl Fn(Class) -> bool) -> usize {
    while let Some((c, after)) = char_at(text, from) {
        if !in_run(class_of(c)) {
            break;
        }
        from = after;
    }
    from
}

/// The regexes that tell a character's class, as the pattern's regex tells it.
struct ClassRegexes {
    letter: SysRegex,
    number: SysRegex,
    space: SysRegex,
}

/// The class of every ASCII character, asked of the regexes once.
static ASCII_CLASSES: OnceLock<[Class; 128]> = OnceLock::new();

/// The regexes, compiled once.
static CLASS_REGEXES: OnceLock<ClassRegexes> = OnceLock::new();

thread_local! {
    /// Per thread, the class of each character beyond ASCII met so far.
    static CLASSES: RefCell<FxHashMap<char, Class>> = RefCell::default();
}

/// The class of `c`, as the crate's regex engine tells it.
fn class_of(c: char) -> Class {
    if c.is_ascii() {
        let table = ASCII_CLASSES
            .get_or_init(|| std::array::from_fn(|byte| ask_regex(char::from(byte as u8))));
        return table[c as usize];
    }
    CLASSES.with(|classes| {
        *classes
            .borrow_mut()
            .entry(c)
            .or_insert_with(|| ask_regex(c))
    })
}

/// Asks the crate's regex engine the class of `c`.
fn ask_regex(c: char) -> Class {
    if c == '\r' || c == '\n' {
        return Class::LineBreak;
    }
    let regexes = CLASS_REGEXES.get_or_init(|| {
        let compile = |pattern: &str| SysRegex::new(pattern).expect("a valid class pattern");
        ClassRegexes {
            letter: compile(r"\A\p{L}\z"),
            number: compile(r"\A\p{N}\z"),
            space: compile(r"\A\s\z"),
        }
    });
    let mut buffer = [0u8; 4];
    let text: &str = c.encode_utf8(&mut buffer);
    let is = |regex: &SysRegex| regex.find_iter(text).next().is_some();
    if is(&regexes.letter) {
        Class::Letter
    } else if is(&regexes.number) {
        Class::Number
    } else if is(&regexes.space) {
        Class::Space
    } else {
        Class::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizers::test_texts::every_short_text;
    use tokenizers::SplitDelimiterBehavior;

    /// The two patterns, as their files write them.
    fn patterns() -> Vec<(String, Gpt4Pattern)> {
        NUMBERS
            .iter()
            .map(|(part, numbers)| {
                (
                    format!("{HEAD}{part}{TAIL}"),
                    Gpt4Pattern { numbers: *numbers },
                )
            })
            .collect()
    }

    fn split(pattern: &str) -> Split {
        Split::new(
            SplitPattern::Regex(pattern.to_string()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
        .expect("a valid pattern")
    }

    /// The matches of `text` by hand and by the crate's regex, side by side.
    fn both<'t>(
        regex: &SysRegex,
        pattern: Gpt4Pattern,
        text: &'t str,
    ) -> (Vec<&'t str>, Vec<&'t str>) {
        let mut by_hand = Vec::new();
        pattern
            .for_each_match(text, |start, end| {
                by_hand.push(&text[start..end]);
                Ok::<(), ()>(())
            })
            .unwrap();
        let by_regex = regex.find_iter(text).map(|(s, e)| &text[s..e]).collect();
        (by_hand, by_regex)
    }

    #[test]
    fn the_two_files_patterns_are_known_and_others_are_not() {
        for (pattern, expected) in patterns() {
            assert_eq!(Gpt4Pattern::of(&split(&pattern)), Some(expected));
        }
        let o200k =
            r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|\s+";
        assert_eq!(Gpt4Pattern::of(&split(o200k)), None);
        let changed = format!("{HEAD}{}{TAIL}", r"\p{N}{1,2}");
        assert_eq!(Gpt4Pattern::of(&split(&changed)), None);
        let literal = Split::new(
            SplitPattern::String(HEAD.to_string()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
        .unwrap();
        assert_eq!(Gpt4Pattern::of(&literal), None);
    }

    #[test]
    fn every_short_text_of_telling_characters_is_matched_as_the_crate_matches_it() {
        // A character of each class and of each kind the alternatives tell apart, ASCII and
        // beyond: letters that fold, numbers, spaces, line breaks, punctuation, a mark.
        let alphabet = [
            'a', 'Z', 's', 'T', 'l', '\'', ' ', '\t', '\r', '\n', '7', '"', 'é', '²', '\u{a0}',
            '\u{85}', '\u{301}', '日',
        ];
        for (source, pattern) in patterns() {
            let regex = SysRegex::new(&source).unwrap();
            let mut compared = 0;
            for text in every_short_text(&alphabet, 4) {
                if !Gpt4Pattern::takes(&text) {
                    continue;
                }
                let (by_hand, by_regex) = both(&regex, pattern, &text);
                assert_eq!(by_hand, by_regex, "{text:?} under {source}");
                compared += 1;
            }
            assert!(compared > 100_000, "{compared}");
        }
    }

    #[test]
    fn every_ascii_character_in_every_context_is_matched_as_the_crate_matches_it() {
        let contexts = [
            "{}", "a{}b", " {} ", "{}{}", "'{}", "{}'s", "1{}2", "\n{}\r", "  {}  ", "x{}", "{}y",
            "\t{}", "{}é", "é{}", "{}{}{}x",
        ];
        for (source, pattern) in patterns() {
            let regex = SysRegex::new(&source).unwrap();
            for byte in 0u8..128 {
                let c = char::from(byte).to_string();
                for context in contexts {
                    let text = context.replace("{}", &c);
                    if !Gpt4Pattern::takes(&text) {
                        continue;
                    }
                    let (by_hand, by_regex) = both(&regex, pattern, &text);
                    assert_eq!(by_hand, by_regex, "{text:?} under {source}");
                }
            }
        }
    }

    #[test]
    fn the_test_texts_are_matched_as_the_crate_matches_them() {
        let mut texts = crate::tokenizers::test_texts::texts();
        texts.extend(crate::tokenizers::test_texts::long_texts());
        texts.push("1234567 12 ١٢٣٤ x²³ Ⅻ½ 9'S 'LL 'Re ''ve".into());
        for (source, pattern) in patterns() {
            let regex = SysRegex::new(&source).unwrap();
            let mut taken = 0;
            for text in &texts {
                if Gpt4Pattern::takes(text) {
                    let (by_hand, by_regex) = both(&regex, pattern, text);
                    assert_eq!(by_hand, by_regex, "{text:?} under {source}");
                    taken += 1;
                }
            }
            assert!(taken * 10 > texts.len() * 9, "{taken} of {}", texts.len());
        }
    }

    #[test]
    fn a_text_with_more_than_ascii_after_an_apostrophe_is_left_to_the_crate() {
        assert!(Gpt4Pattern::takes("it's 'x'"));
        assert!(Gpt4Pattern::takes("ends with '"));
        assert!(!Gpt4Pattern::takes("'ſ"), "the long s folds to s");
        let regex = SysRegex::new(&patterns()[0].0).unwrap();
        assert_eq!(
            regex.find_iter("'ſx").next(),
            Some((0, 3)),
            "the regex takes 'ſ as the contraction 's, where a letter's class alone would \
             take 'ſx"
        );
        assert!(!Gpt4Pattern::takes("x'lǉ"));
        assert!(Gpt4Pattern::takes("naïve 'quoted' café"));
    }
}
