//! The same counts as a tokenizer.json's pipeline by a shorter way, for the pipelines where
//! it is provably the same: a pre-tokenizer that begins with `Split` steps (the Qwen, Llama 3
//! and GPT-4-style patterns) and whose later steps each read only the piece they are given.
//!
//! The crate runs each pre-tokenizer step on every piece the steps before made, keeping an
//! alignment for every byte of each. A `Split` step that isolates or removes what its pattern
//! finds cuts a piece only by where the crate's own pattern matches in the piece's text; so
//! the leading `Split`s are run here with that pattern on the text itself, with no alignments
//! (the GPT-4-style pattern of the Qwen and Llama 3 files matched by hand, as its regex
//! matches it: see `gpt4_split`).
//! Every later step is one whose pieces depend only on the text of the piece it is given (all
//! of the crate's but a Metaspace that prepends only at the start of the text, which asks
//! where the piece was), and the model reads only its pieces' texts: the count of what comes
//! of a piece of the leading `Split`s is a function of that piece's text, made by the crate's
//! own later steps and model once and remembered (see `PieceCounts` beside).
//!
//! Added tokens are found and the normaliser run by the crate's own `extract_and_normalize`,
//! as its `encode` does, except for a text in which no added token can be found: when every
//! added token is matched in the text as written (none is `normalized`) and the text holds
//! none of them, the crate would find none, and the text, normalised, is its only segment.
//!
//! A pipeline of any other shape takes the crate's whole pre-tokenizer (see `HuggingFace`).

use std::borrow::Cow;

use super::gpt4_split::Gpt4Pattern;

use tokenizers::models::ModelWrapper;
use tokenizers::normalizers::NormalizerWrapper;
use tokenizers::pre_tokenizers::metaspace::PrependScheme;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::split::Split;
use tokenizers::pre_tokenizers::PreTokenizerWrapper;
use tokenizers::{
    Model, NormalizedString, Normalizer, OffsetReferential, OffsetType, PreTokenizedString,
    PreTokenizer, SplitDelimiterBehavior,
};

/// How a file's texts are cut into pieces whose counts are remembered: its leading `Split`
/// steps, and the steps after them run on each piece.
pub(super) struct Shortcut {
    /// The pre-tokenizer's leading `Split` steps, run on the text directly.
    cuts: Vec<Cut>,
    /// The pre-tokenizer's later steps, run by the crate on each piece the cuts make.
    rest: Option<PreTokenizerWrapper>,
    /// The added tokens, when every one is matched in the text as written (none is matched
    /// after normalisation): a text that holds none is one segment.
    added: Option<AddedContents>,
}

impl Shortcut {
    /// The shortcut for `tokenizer`'s pipeline, or None when its shape is not one where it is
    /// proven the same (no pre-tokenizer, a first step other than a `Split` that isolates or
    /// removes its matches, or a later step that asks where its piece was).
    pub(super) fn plan(tokenizer: &tokenizers::Tokenizer) -> Option<Shortcut> {
        let mut steps = Vec::new();
        flatten(tokenizer.get_pre_tokenizer()?, &mut steps);
        let cuts: Vec<Cut> = steps
            .iter()
            .map_while(|step| match step {
                PreTokenizerWrapper::Split(split) if cuts_by_matches_alone(split) => Some(Cut {
                    by_hand: Gpt4Pattern::of(split),
                    split: split.clone(),
                }),
                _ => None,
            })
            .collect();
        let later = &steps[cuts.len()..];
        if cuts.is_empty() || !later.iter().all(|step| reads_only_its_piece(step)) {
            return None;
        }
        let rest = (!later.is_empty()).then(|| {
            PreTokenizerWrapper::Sequence(Sequence::new(
                later.iter().map(|step| (*step).clone()).collect(),
            ))
        });
        let added_tokens = tokenizer.get_added_tokens_decoder();
        let added = added_tokens
            .values()
            .all(|token| !token.normalized)
            .then(|| AddedContents::new(added_tokens.values().map(|t| t.content.as_bytes())));
        Some(Shortcut { cuts, rest, added })
    }

    /// `text` as the only segment the crate's `extract_and_normalize` makes of it, normalised
    /// by `normalizer` (an error left as that function leaves it), when no added token can be
    /// found in it; None when one may be.
    pub(super) fn whole_segment<'t>(
        &self,
        text: &'t str,
        normalizer: Option<&NormalizerWrapper>,
    ) -> Option<Cow<'t, str>> {
        if self.added.as_ref()?.occur_in(text) {
            return None;
        }
        Some(match normalizer {
            None => Cow::Borrowed(text),
            Some(normalizer) => {
                let mut normalized = NormalizedString::from(text);
                // `extract_and_normalize` goes on with what the normaliser made when it fails.
                let _ = normalizer.normalize(&mut normalized);
                Cow::Owned(normalized.get().to_owned())
            }
        })
    }

    /// Gives `each` every non-empty piece the leading `Split`s make of `segment`, in order.
    pub(super) fn cut<E>(
        &self,
        segment: &str,
        each: &mut impl FnMut(&str) -> Result<(), E>,
    ) -> Result<(), E> {
        cut_with(&self.cuts, segment, each)
    }

    /// Tokens of `piece` (a piece of [`Shortcut::cut`]): the later steps run on it by the
    /// crate, and each piece they make counted by `model`.
    pub(super) fn piece_tokens(
        &self,
        model: &ModelWrapper,
        piece: &str,
    ) -> tokenizers::Result<u64> {
        let Some(rest) = &self.rest else {
            return Ok(model.tokenize(piece)?.len() as u64);
        };
        let mut split = PreTokenizedString::from(piece);
        rest.pre_tokenize(&mut split)?;
        split
            .get_splits(OffsetReferential::Normalized, OffsetType::None)
            .into_iter()
            .map(|(piece, _, _)| Ok(model.tokenize(piece)?.len() as u64))
            .sum()
    }
}

/// `step`'s steps in the order it runs them, a `Sequence` opened into its own.
fn flatten<'t>(step: &'t PreTokenizerWrapper, into: &mut Vec<&'t PreTokenizerWrapper>) {
    match step {
        PreTokenizerWrapper::Sequence(sequence) => {
            for inner in sequence.as_ref() {
                flatten(inner, into);
            }
        }
        step => into.push(step),
    }
}

/// A leading `Split` step, and its pattern when it is matched by hand.
struct Cut {
    split: Split,
    by_hand: Option<Gpt4Pattern>,
}

impl Cut {
    /// Calls `each` with the start and end of every match of the step's pattern in `text`,
    /// in order, until it fails: found by hand when the pattern and the text allow it, else
    /// by the crate's regex.
    fn for_each_match<E>(
        &self,
        text: &str,
        mut each: impl FnMut(usize, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        match self.by_hand {
            Some(pattern) if Gpt4Pattern::takes(text) => pattern.for_each_match(text, each),
            _ => self
                .split
                .regex
                .find_iter(text)
                .try_for_each(|(start, end)| each(start, end)),
        }
    }
}

/// Whether `split` cuts a piece by its pattern's matches alone, keeping every part
/// (`Isolated`) or only those it does not remove (`Removed`); the behaviours that merge
/// parts are left to the crate.
fn cuts_by_matches_alone(split: &Split) -> bool {
    matches!(
        split.behavior,
        SplitDelimiterBehavior::Isolated | SplitDelimiterBehavior::Removed
    )
}

/// Whether the pieces `step` makes of a piece depend only on that piece's text: true of
/// every step of the crate but a Metaspace that prepends its replacement only to the text's
/// first piece (it asks where in the text its piece began). A `Sequence` is opened first.
fn reads_only_its_piece(step: &PreTokenizerWrapper) -> bool {
    match step {
        PreTokenizerWrapper::Metaspace(metaspace) => {
            metaspace.prepend_scheme != PrependScheme::First
        }
        PreTokenizerWrapper::Sequence(_) => false,
        PreTokenizerWrapper::BertPreTokenizer(_)
        | PreTokenizerWrapper::ByteLevel(_)
        | PreTokenizerWrapper::Delimiter(_)
        | PreTokenizerWrapper::Whitespace(_)
        | PreTokenizerWrapper::Split(_)
        | PreTokenizerWrapper::Punctuation(_)
        | PreTokenizerWrapper::WhitespaceSplit(_)
        | PreTokenizerWrapper::Digits(_)
        | PreTokenizerWrapper::UnicodeScripts(_)
        | PreTokenizerWrapper::FixedLength(_) => true,
    }
}

/// Gives `each` the non-empty pieces `cuts` make of `text`: the first cut's pattern is
/// matched in `text` as the crate matches it in a piece (the parts between matches and the
/// matches, in order; an `Isolated` split keeps both, a `Removed` one drops the matches, or
/// the parts between them when inverted), and each part kept is cut by the next.
fn cut_with<E>(
    cuts: &[Cut],
    text: &str,
    each: &mut impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    if text.is_empty() {
        return Ok(());
    }
    let Some((cut, later)) = cuts.split_first() else {
        return each(text);
    };
    // `Removed` drops the matches, or the parts between them when the split is inverted.
    let removed = cut.split.behavior == SplitDelimiterBehavior::Removed;
    let keep_between = !removed || !cut.split.invert;
    let keep_matches = !removed || cut.split.invert;
    let mut from = 0;
    cut.for_each_match(text, |start, end| {
        if keep_between {
            cut_with(later, &text[from..start], each)?;
        }
        if keep_matches {
            cut_with(later, &text[start..end], each)?;
        }
        from = end;
        Ok(())
    })?;
    if keep_between {
        cut_with(later, &text[from..], each)?;
    }
    Ok(())
}

/// The contents of a file's added tokens, by their first byte: which can be found in a text.
struct AddedContents {
    /// Whether some content begins with each byte.
    begins: [bool; 256],
    /// For each byte, the contents that begin with it.
    by_first_byte: Vec<Vec<Box<[u8]>>>,
}

impl AddedContents {
    /// The contents `contents`, sorted by their first byte (an empty one is never found).
    fn new<'c>(contents: impl Iterator<Item = &'c [u8]>) -> AddedContents {
        let mut begins = [false; 256];
        let mut by_first_byte = vec![Vec::new(); 256];
        for content in contents {
            if let Some(&first) = content.first() {
                begins[usize::from(first)] = true;
                by_first_byte[usize::from(first)].push(content.into());
            }
        }
        AddedContents {
            begins,
            by_first_byte,
        }
    }

    /// Whether any of the contents occurs in `text`.
    fn occur_in(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        bytes.iter().enumerate().any(|(at, &byte)| {
            self.begins[usize::from(byte)]
                && self.by_first_byte[usize::from(byte)]
                    .iter()
                    .any(|content| bytes[at..].starts_with(content))
        })
    }
}
