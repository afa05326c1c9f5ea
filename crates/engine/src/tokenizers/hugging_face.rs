//! Counting with a Hugging Face `tokenizer.json`, through Hugging Face's own `tokenizers`
//! crate, made safe for any file:
//! - what is known to make the crate panic or go wrong (a `FixedLength` of 0, a merge it
//!   would cut inside the `continuing_subword_prefix`) is refused when the file is read, and
//!   every call into it is made with its panics caught (silently: see
//!   [`panic_is_contained`]) and turned into a one-line error naming the file;
//! - a file that loads but cannot count (an `unk_token` missing from its vocabulary, an empty
//!   model, a broken `precompiled_charsmap`, a pattern that backtracks without end on a run of
//!   one character) is refused when it is read: it must count the test texts [`PROBES`], each
//!   to at least one token, and its post-processor must add its special tokens to one (a
//!   template naming a missing special token cannot);
//! - a text is counted in pieces of at most [`super::MAX_PIECE_BYTES`] (see
//!   [`super::pieces`]), ended at word starts when the file's pipeline gives the same counts
//!   that way on the test texts [`CUT_PROBES`], and never beside an added token a cut could
//!   change.
//! - each piece the file's pre-tokenizer makes is given to its model once per thread and its
//!   count remembered (tool texts repeat their words): the crate's own normaliser, added
//!   tokens and pre-tokenizer cut the text exactly as its `encode` does, and only the model's
//!   step, which reads one piece alone, is taken from the cache (see [`PieceCounts`]). A model
//!   that draws at random (a BPE with dropout) is never cached.
//! - a pre-tokenizer that begins with `Split` steps (most byte-level BPE files) is run in
//!   two parts: its leading `Split`s with the crate's own patterns on the text itself, without
//!   the crate's alignment of every byte, and the steps after them, which read only their
//!   piece, by the crate once per distinct piece, remembered with the model's count (see
//!   [`super::hf_shortcut`]); a text in which no added token can be found is not given to the
//!   crate's search for them, and a normaliser of Unicode normal forms is skipped for a text
//!   already in them. Every other pipeline takes the crate's whole pre-tokenizer.

use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

use tokenizers::models::ModelWrapper;
use tokenizers::normalizers::NormalizerWrapper;
use tokenizers::pre_tokenizers::PreTokenizerWrapper;
use tokenizers::{Model, Normalizer, OffsetReferential, OffsetType, PreTokenizer};

use super::hf_shortcut::Shortcut;
use super::pieces::{char_boundary_after, char_boundary_before, pieces, Sizes, Start};
use super::remembered::{with_piece_counts, Owner};
use super::{first_line, MAX_TOKENIZER_BYTES};
use crate::inputs::error::{read_limited, InputError};
use crate::text::sanitize;

/// Texts every tokenizer must count, each to at least one token, before it is used: words,
/// and runs of one character (where a pattern that backtracks without end gives up).
const PROBES: [&str; 6] = [
    "Returns the user's data: 42 items, in JSON.\n",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
    "                                                                a",
    "1111111111111111111111111111111111111111111111111111111111111111a",
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n.",
    "................................................................a",
];

/// Texts on which counting cut at every word start must give the whole text's counts before
/// a tokenizer's texts are cut at word starts.
const CUT_PROBES: [&str; 6] = [
    "Take a screenshot of the page or element. Returns the USER's data, doesn't it?",
    "List files in a directory\n\nArgs:\n  path (str): The path; defaults to the current one.\n  recursive: Whether to descend.",
    "{\"type\": \"object\", \"properties\": {\"query\": {\"type\": \"string\", \"description\": \"Search terms\"}}}",
    "naïve café — “quoted” words and 日本語 text, emoji 👍 and ALLCAPS WORDS with CamelCase too",
    "  two leading spaces and  double spaces and tabs\tbetween words\r\nand lines end here",
    "it's they'll we've I'm you'd x'S and Ab Cd eF gh IJ 12 ab3 c4d e",
];

/// The most bytes of added tokens a cut is checked against; a file with more that a cut
/// could change is cut only where it must be.
const MAX_CHECKED_ADDED_BYTES: usize = 64 * 1024;

/// A loaded `tokenizer.json`, ready to count.
pub(crate) struct HuggingFace {
    tokenizer: tokenizers::Tokenizer,
    path: PathBuf,
    /// The added tokens a cut beside them could change.
    guarded: Vec<GuardedToken>,
    /// Whether texts may be cut at word starts (the file's pipeline counts them the same).
    word_cuts: bool,
    /// Which thread caches of piece counts are this file's (see [`PieceCounts`]).
    id: usize,
    /// Whether its model's count of a piece may be remembered (it counts a piece the same
    /// every time).
    cached: bool,
    /// The shorter way to its counts, when its pipeline is one where it is proven the same
    /// and its counts are remembered.
    shortcut: Option<Shortcut>,
}

/// An added token a cut beside it could change: it holds a space (or the `▁` that stands for
/// one), or takes the spaces around it or only whole words.
struct GuardedToken {
    /// Its content (lowercased when it is matched after normalisation).
    content: String,
    /// Whether it is matched after normalisation (then without regard to case).
    normalized: bool,
}

/// What a file is, when it is plainly no tokenizer.json: not JSON (the parser's words), or
/// JSON without the `model` every tokenizer.json has. The tokenizers crate's own words for
/// these name a field deep in its format, which misleads.
fn not_a_tokenizer_shape(bytes: &[u8]) -> Option<String> {
    /// The one key looked at; the rest of the file is read over, not kept.
    #[derive(serde::Deserialize)]
    struct Shape {
        model: Option<serde::de::IgnoredAny>,
    }
    if let Err(error) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
        return Some(format!("not JSON: {error}"));
    }
    match serde_json::from_slice::<Shape>(bytes) {
        Ok(Shape { model: Some(_) }) => None,
        Ok(Shape { model: None }) => Some("a JSON object with no `model`".into()),
        Err(_) => Some("JSON, but not an object".into()),
    }
}

impl HuggingFace {
    /// Reads, checks and tries out the `tokenizer.json` at `path`; truncation and padding
    /// are switched off (they would change what a count means).
    pub(crate) fn load(path: &Path) -> Result<HuggingFace, InputError> {
        let bytes = read_limited(path, MAX_TOKENIZER_BYTES)?;
        if let Some(problem) = unsafe_merge(&bytes) {
            return Err(InputError::new(path, format!("cannot count: {problem}")));
        }
        let not_one = |why: &str| {
            InputError::new(
                path,
                format!("not a Hugging Face tokenizer.json ({})", first_line(why)),
            )
        };
        if let Some(shape) = not_a_tokenizer_shape(&bytes) {
            return Err(not_one(&shape));
        }
        let mut tokenizer = contained(|| tokenizers::Tokenizer::from_bytes(&bytes))
            .map_err(|panic| not_one(&panic))?
            .map_err(|error| not_one(&error.to_string()))?;
        drop(bytes);
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(None)
            .map_err(|e| InputError::new(path, e.to_string()))?;
        if let Some(problem) = known_panic(&tokenizer) {
            return Err(InputError::new(path, format!("cannot count: {problem}")));
        }
        let guarded = guarded_tokens(&tokenizer);
        let checkable =
            guarded.iter().map(|t| t.content.len()).sum::<usize>() <= MAX_CHECKED_ADDED_BYTES;
        static LOADED: AtomicUsize = AtomicUsize::new(1);
        let cached = !matches!(tokenizer.get_model(), ModelWrapper::BPE(bpe) if bpe.dropout.is_some_and(|p| p > 0.0));
        // A panic (none is known) leaves the file to the crate's whole pipeline.
        let shortcut = cached
            .then(|| contained(|| Shortcut::plan(&tokenizer)).ok().flatten())
            .flatten();
        let mut loaded = HuggingFace {
            shortcut,
            guarded,
            tokenizer,
            path: path.to_path_buf(),
            word_cuts: false,
            id: LOADED.fetch_add(1, Ordering::Relaxed),
            cached,
        };
        loaded.try_out()?;
        loaded.word_cuts = checkable && loaded.cuts_exactly();
        Ok(loaded)
    }

    /// Tokens of `text`, with no special tokens added.
    pub(crate) fn count(&self, text: &str) -> Result<u64, InputError> {
        self.count_in(text, Sizes::COUNTING, self.word_cuts)
            .map_err(|why| {
                InputError::new(
                    &self.path,
                    format!("this tokenizer.json cannot count a text ({why})"),
                )
            })
    }

    /// Tokens of `text` counted in pieces of `sizes`, ended at word starts when `word_cuts`,
    /// or why the file cannot count it. A piece that begins at a word start is counted after
    /// the letter before it, whose own count is taken off: the piece is read as the middle of
    /// a text, not the start of one (a normaliser that prepends `▁` to a text, a
    /// pre-tokenizer that adds a space, one that strips a text's spaces).
    fn count_in(&self, text: &str, sizes: Sizes, word_cuts: bool) -> Result<u64, String> {
        let allowed = |text: &str, space: usize| word_cuts && self.may_cut(text, space);
        let mut tokens = 0u64;
        for piece in pieces(text, sizes, allowed) {
            tokens += match piece.start {
                Start::Word { after } => {
                    let mut read = String::with_capacity(piece.text.len() + 1);
                    read.push(after);
                    read.push_str(piece.text);
                    let mut letter = [0u8; 4];
                    let alone = self.encode(after.encode_utf8(&mut letter), false)?;
                    self.encode(&read, false)?.saturating_sub(alone)
                }
                Start::Text | Start::Forced => self.encode(piece.text, false)?,
            };
        }
        Ok(tokens)
    }

    /// Tokens of `text` read whole (with the special tokens the post-processor adds when
    /// `specials`), or why not in one line: the crate's error, or its panic caught.
    fn encode(&self, text: &str, specials: bool) -> Result<u64, String> {
        #[cfg(test)]
        super::pieces::longest_read::note(text.len());
        if self.cached && !specials {
            return match contained(|| self.encode_remembered(text)) {
                Ok(Ok(tokens)) => Ok(tokens),
                Ok(Err(error)) => Err(first_line(&error.to_string())),
                Err(panic) => Err(first_line(&panic)),
            };
        }
        match contained(|| self.tokenizer.encode_fast(text, specials)) {
            Ok(Ok(encoding)) => Ok(encoding.len() as u64),
            Ok(Err(error)) => Err(first_line(&error.to_string())),
            Err(panic) => Err(first_line(&panic)),
        }
    }

    /// Tokens of `text` with no special tokens, as `encode_fast` counts them: its added
    /// tokens found and its normaliser and pre-tokenizer run by the crate, as `encode` runs
    /// them, then each piece's model count taken from this thread's cache or counted by the
    /// model and remembered. The post-processor is left out: none of the crate's adds a token
    /// when special tokens are not asked for. A normaliser of Unicode normal forms that
    /// provably gives the text back as it is (see [`leaves_unchanged`]) is skipped; a file whose
    /// pipeline has a [`Shortcut`] takes it.
    fn encode_remembered(&self, text: &str) -> tokenizers::Result<u64> {
        let tokenizer = &self.tokenizer;
        let normalizer = tokenizer
            .get_normalizer()
            .filter(|normalizer| !leaves_unchanged(normalizer, text));
        if let Some(shortcut) = &self.shortcut {
            return self.encode_cut(shortcut, normalizer, text);
        }
        let mut split = tokenizer
            .get_added_vocabulary()
            .extract_and_normalize(normalizer, text);
        if let Some(pre_tokenizer) = tokenizer.get_pre_tokenizer() {
            pre_tokenizer.pre_tokenize(&mut split)?;
        }
        let model = tokenizer.get_model();
        with_piece_counts(Owner::File(self.id), |counts| {
            let mut tokens = 0u64;
            for (piece, _, found) in
                split.get_splits(OffsetReferential::Normalized, OffsetType::None)
            {
                tokens += match found {
                    Some(added) => added.len() as u64,
                    None => counts.count(piece, |piece| -> tokenizers::Result<u64> {
                        Ok(model.tokenize(piece)?.len() as u64)
                    })?,
                };
            }
            Ok(tokens)
        })
    }

    /// Tokens of `text` with no special tokens by `shortcut` (see [`super::hf_shortcut`]): its
    /// segments (the text when no added token can be in it, else those the crate's
    /// `extract_and_normalize` makes, normalised by `normalizer`) cut by the pre-tokenizer's
    /// leading `Split`s, and each piece's count, through the later steps and the model, taken
    /// from this thread's cache or made and remembered.
    fn encode_cut(
        &self,
        shortcut: &Shortcut,
        normalizer: Option<&NormalizerWrapper>,
        text: &str,
    ) -> tokenizers::Result<u64> {
        let model = self.tokenizer.get_model();
        with_piece_counts(Owner::File(self.id), |counts| {
            let mut segment_tokens = |segment: &str| {
                let mut tokens = 0u64;
                shortcut.cut(segment, &mut |piece| {
                    tokens += counts.count(piece, |piece| shortcut.piece_tokens(model, piece))?;
                    Ok::<(), tokenizers::Error>(())
                })?;
                Ok::<u64, tokenizers::Error>(tokens)
            };
            if let Some(segment) = shortcut.whole_segment(text, normalizer) {
                return segment_tokens(&segment);
            }
            let split = self
                .tokenizer
                .get_added_vocabulary()
                .extract_and_normalize(normalizer, text);
            let mut tokens = 0u64;
            for (segment, _, found) in
                split.get_splits(OffsetReferential::Normalized, OffsetType::None)
            {
                tokens += match found {
                    Some(added) => added.len() as u64,
                    None => segment_tokens(segment)?,
                };
            }
            Ok(tokens)
        })
    }

    /// Counts each of [`PROBES`]: an error, a panic or a count of 0 refuses the file; so does
    /// a post-processor that cannot add its special tokens to the first (schematax counts
    /// without them, but such a file is broken).
    fn try_out(&self) -> Result<(), InputError> {
        let refuse = |why: String| InputError::new(&self.path, format!("cannot count: {why}"));
        for probe in PROBES {
            match self.encode(probe, false) {
                Err(why) => return Err(refuse(format!("it fails on a test text ({why})"))),
                Ok(0) => {
                    let text = probe.trim_end();
                    return Err(refuse(format!("it gives no tokens for the text {text:?}")));
                }
                Ok(_) => {}
            }
        }
        self.encode(PROBES[0], true)
            .map(drop)
            .map_err(|why| refuse(format!("its post-processor fails on a test text ({why})")))
    }

    /// Whether the file counts every one of [`CUT_PROBES`] the same cut at every word start
    /// as whole.
    fn cuts_exactly(&self) -> bool {
        CUT_PROBES.iter().all(|probe| {
            let whole = self.count_in(probe, Sizes::WHOLE, false);
            let cut = self.count_in(probe, Sizes::EVERY_WORD, true);
            whole.is_ok() && whole == cut
        })
    }

    /// Whether a piece may end before the space at byte `space`: no guarded added token is
    /// within its own length of it.
    fn may_cut(&self, text: &str, space: usize) -> bool {
        self.guarded.iter().all(|token| {
            let reach = token.content.len() + 1;
            let from = char_boundary_before(text, space.saturating_sub(reach));
            let to = char_boundary_after(text, space.saturating_add(reach + 1));
            let near = &text[from..to];
            if token.normalized {
                !near.to_lowercase().contains(&token.content)
            } else {
                !near.contains(&token.content)
            }
        })
    }
}

/// The added tokens of `tokenizer` a cut beside could change.
fn guarded_tokens(tokenizer: &tokenizers::Tokenizer) -> Vec<GuardedToken> {
    tokenizer
        .get_added_tokens_decoder()
        .into_values()
        .filter(|token| {
            token.lstrip
                || token.rstrip
                || token.single_word
                || token
                    .content
                    .chars()
                    .any(|c| c.is_whitespace() || c == '\u{2581}')
        })
        .map(|token| GuardedToken {
            content: if token.normalized {
                token.content.to_lowercase()
            } else {
                token.content
            },
            normalized: token.normalized,
        })
        .collect()
}

/// Whether `normalizer` provably leaves `text` as it is: it is made only of Unicode normal
/// forms, and the text is already in each. ASCII text always is; other text is when the
/// Unicode quick check says so (yes, not maybe), made with the tables of the crate that
/// normalises for the `tokenizers` crate: by its definition (Unicode Standard Annex #15), a
/// text the quick check passes is given back as it is by that normal form.
fn leaves_unchanged(normalizer: &NormalizerWrapper, text: &str) -> bool {
    use unicode_normalization_alignments::{
        is_nfc_quick, is_nfd_quick, is_nfkc_quick, is_nfkd_quick, IsNormalized,
    };
    let quick_check = match normalizer {
        NormalizerWrapper::NFC(_) => is_nfc_quick::<std::str::Chars<'_>>,
        NormalizerWrapper::NFD(_) => is_nfd_quick,
        NormalizerWrapper::NFKC(_) => is_nfkc_quick,
        NormalizerWrapper::NFKD(_) => is_nfkd_quick,
        NormalizerWrapper::Sequence(sequence) => {
            return sequence
                .as_ref()
                .iter()
                .all(|normalizer| leaves_unchanged(normalizer, text));
        }
        _ => return false,
    };
    text.is_ascii() || quick_check(text.chars()) == IsNormalized::Yes
}

/// What in the loaded file is known to make the crate panic, in words, if anything is.
fn known_panic(tokenizer: &tokenizers::Tokenizer) -> Option<&'static str> {
    // The crate's matcher of added tokens finds an empty one at the same place for ever,
    // growing its list of splits until memory runs out: empty as written, or once the file's
    // normaliser has made it so (`\n` under a Strip).
    let empty = |token: &tokenizers::AddedToken| {
        if token.content.is_empty() {
            return true;
        }
        let Some(normalizer) = tokenizer.get_normalizer().filter(|_| token.normalized) else {
            return false;
        };
        let mut normalized = tokenizers::NormalizedString::from(token.content.as_str());
        contained(|| normalizer.normalize(&mut normalized).is_err() || normalized.get().is_empty())
            .unwrap_or(true)
    };
    if tokenizer.get_added_tokens_decoder().values().any(empty) {
        return Some("an added token is empty once normalised");
    }
    let mut pre_tokenizers: Vec<&PreTokenizerWrapper> =
        tokenizer.get_pre_tokenizer().into_iter().collect();
    while let Some(pre_tokenizer) = pre_tokenizers.pop() {
        match pre_tokenizer {
            PreTokenizerWrapper::FixedLength(fixed) if fixed.length == 0 => {
                return Some("its FixedLength pre-tokenizer has a length of 0");
            }
            PreTokenizerWrapper::Sequence(sequence) => pre_tokenizers.extend(sequence.as_ref()),
            _ => {}
        }
    }
    None
}

/// The parts of a `tokenizer.json` [`unsafe_merge`] reads.
#[derive(serde::Deserialize)]
struct ModelPart<T> {
    model: Option<T>,
}

/// A BPE model's prefix of a word's later pieces.
#[derive(serde::Deserialize)]
struct PrefixPart {
    continuing_subword_prefix: Option<String>,
}

/// A BPE model's merges.
#[derive(serde::Deserialize)]
struct MergesPart {
    #[serde(default)]
    merges: Vec<Merge>,
}

/// A merge as a file gives it: two tokens, or one string holding both.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Merge {
    Pair(Vec<String>),
    Joined(String),
}

/// A merge whose second token does not start with the model's `continuing_subword_prefix`,
/// in words: the crate cuts the prefix's length off it unchecked (a panic when it is shorter,
/// a broken string when the cut falls inside a character). None when the file has no prefix,
/// or is no JSON (the crate says why).
fn unsafe_merge(bytes: &[u8]) -> Option<String> {
    let prefix = serde_json::from_slice::<ModelPart<PrefixPart>>(bytes)
        .ok()?
        .model?
        .continuing_subword_prefix
        .filter(|prefix| !prefix.is_empty())?;
    let merges = serde_json::from_slice::<ModelPart<MergesPart>>(bytes)
        .ok()?
        .model?
        .merges;
    merges.iter().find_map(|merge| {
        let second = match merge {
            Merge::Pair(pair) => pair.get(1).map_or("", String::as_str),
            Merge::Joined(both) => both.split_once(' ').map_or("", |(_, second)| second),
        };
        (!second.starts_with(&prefix)).then(|| {
            format!(
                "its BPE merge of {:?} does not start with its continuing_subword_prefix {:?}",
                sanitize(second),
                sanitize(&prefix)
            )
        })
    })
}

thread_local! {
    /// Whether this thread is inside [`contained`].
    static CONTAINED: Cell<bool> = const { Cell::new(false) };
}

/// Whether a panic on this thread now is one a tokenizer call is contained in: it is caught,
/// becomes a one-line error, and is not to be reported (a panic hook that restores a terminal
/// or prints the panic leaves it alone).
pub fn panic_is_contained() -> bool {
    CONTAINED.with(Cell::get)
}

/// Runs `work`, catching a panic as its message; the panic hook stays silent for it (the
/// hook that was set first, or is set later and asks [`panic_is_contained`], is not called).
fn contained<R>(work: impl FnOnce() -> R) -> Result<R, String> {
    static QUIET_HOOK: Once = Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !panic_is_contained() {
                previous(info);
            }
        }));
    });
    let outer = CONTAINED.with(|flag| flag.replace(true));
    let result = std::panic::catch_unwind(AssertUnwindSafe(work));
    CONTAINED.with(|flag| flag.set(outer));
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "it failed".to_string());
        format!("the tokenizers library failed: {message}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizers::remembered::piece_work;
    use crate::tokenizers::test_texts::{repo_root, texts, unbroken_texts, EDGE_TEXTS};

    /// The real files `scripts/install-hf-tokenizers` installs (Qwen3's and Llama 3.1's); none
    /// (the test skips) when it has not run, unless `SCHEMATAX_REQUIRE_ORACLE` is set.
    fn installed() -> Vec<PathBuf> {
        let dir = std::env::var_os("SCHEMATAX_HF_TOKENIZERS")
            .map(PathBuf::from)
            .unwrap_or_else(|| repo_root().join("target/hf-tokenizers"));
        if !dir.join(".installed").exists() {
            let message = format!(
                "not installed in {}; run scripts/install-hf-tokenizers",
                dir.display()
            );
            assert!(
                std::env::var_os("SCHEMATAX_REQUIRE_ORACLE").is_none(),
                "{message}"
            );
            eprintln!("skipped: {message}");
            return Vec::new();
        }
        ["qwen3", "llama3_1"]
            .iter()
            .map(|model| dir.join(model).join("tokenizer.json"))
            .collect()
    }

    /// A piece at every word start at least this far from the last: many cuts, few encodes.
    const OFTEN: Sizes = Sizes {
        target: 200,
        max: usize::MAX,
    };

    #[test]
    fn real_files_count_in_pieces_as_they_count_whole_texts() {
        let texts = texts();
        for file in installed() {
            let loaded = HuggingFace::load(&file).unwrap();
            assert!(loaded.word_cuts, "{} is cut at word starts", file.display());
            let whole = |text: &str| loaded.count_in(text, Sizes::WHOLE, false).unwrap();
            for text in EDGE_TEXTS {
                let cut = loaded.count_in(text, Sizes::EVERY_WORD, true).unwrap();
                assert_eq!(cut, whole(text), "{}: {text:?}", file.display());
            }
            for text in &texts {
                let cut = loaded.count_in(text, OFTEN, true).unwrap();
                assert_eq!(cut, whole(text), "{}: {text:?}", file.display());
            }
            // Long texts at the sizes counting uses: `crates/engine/tests/it/tokenizers.rs`,
            // against the reference library.
            for text in unbroken_texts() {
                let cuts = pieces(&text, Sizes::COUNTING, |_, _| true).count() as u64;
                let cut = loaded.count(&text).unwrap();
                assert!(whole(&text).abs_diff(cut) <= 4 * cuts, "{}", file.display());
            }
        }
    }

    /// Tokens of `text` as the crate's own `encode_fast` gives them (no cache).
    fn encoded_whole(loaded: &HuggingFace, text: &str) -> u64 {
        loaded.tokenizer.encode_fast(text, false).unwrap().len() as u64
    }

    #[test]
    fn remembered_piece_counts_give_the_crate_s_own_counts() {
        let mut texts = texts();
        texts.extend(unbroken_texts());
        for file in installed() {
            let loaded = HuggingFace::load(&file).unwrap();
            assert!(loaded.cached, "{}", file.display());
            // Qwen3's NFC and Llama 3.1's lack of a normaliser leave ASCII text alone.
            let normalizer = loaded.tokenizer.get_normalizer();
            assert!(normalizer.is_none_or(|n| leaves_unchanged(n, "ASCII text")));
            // Twice: the second time every piece is remembered.
            for round in 0..2 {
                for text in &texts {
                    let remembered = loaded.encode(text, false).unwrap();
                    assert_eq!(
                        remembered,
                        encoded_whole(&loaded, text),
                        "{round}: {text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn each_distinct_piece_is_given_to_the_model_once_per_thread() {
        let Some(file) = installed().into_iter().next() else {
            return;
        };
        let loaded = HuggingFace::load(&file).unwrap();
        let texts = texts();
        let before = piece_work();
        let first: Vec<u64> = texts
            .iter()
            .map(|t| loaded.encode(t, false).unwrap())
            .collect();
        let once = piece_work();
        let again: Vec<u64> = texts
            .iter()
            .map(|t| loaded.encode(t, false).unwrap())
            .collect();
        let twice = piece_work();
        assert_eq!(first, again);
        let (asked, counted) = (once.asked - before.asked, once.counted - before.counted);
        // The test captures' definitions repeat their words: under a fifth of the pieces
        // asked for are distinct.
        assert!(counted * 5 < asked, "{counted} of {asked} pieces counted");
        assert_eq!(twice.asked - once.asked, asked);
        assert_eq!(
            twice.counted, once.counted,
            "nothing counted the second time"
        );
    }

    #[test]
    fn every_generated_pipeline_counts_remembered_pieces_as_the_crate_does() {
        use serde_json::json;
        let dir = tempfile::tempdir().unwrap();
        let added = json!([
            {"id": 300, "content": "<tag x>", "single_word": false, "lstrip": true,
             "rstrip": false, "normalized": false, "special": true},
            {"id": 301, "content": "page", "single_word": true, "lstrip": false,
             "rstrip": true, "normalized": true, "special": false}
        ]);
        let pipelines = [
            (json!(null), json!(null)),
            (json!(null), json!({"type": "WhitespaceSplit"})),
            (
                json!({"type": "NFKC"}),
                json!({"type": "FixedLength", "length": 3}),
            ),
            (
                json!({"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "NFKD"}]}),
                json!({"type": "WhitespaceSplit"}),
            ),
            (
                json!({"type": "Strip", "strip_left": true, "strip_right": true}),
                json!({"type": "Whitespace"}),
            ),
            (
                json!({"type": "Prepend", "prepend": "▁"}),
                json!({"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always",
                       "split": true}),
            ),
            (
                json!({"type": "Lowercase"}),
                json!({"type": "ByteLevel", "add_prefix_space": true,
                                                   "trim_offsets": true, "use_regex": true}),
            ),
        ];
        let mut texts = texts();
        texts.push("Open the PAGE now, or the <tag x> tag, the page the  page".into());
        for (normalizer, pre_tokenizer) in pipelines {
            let path = file(dir.path(), normalizer, pre_tokenizer, added.clone());
            let loaded = HuggingFace::load(&path).unwrap();
            let normal_forms = ["NFKC", "Sequence"].iter().any(|form| {
                loaded.tokenizer.get_normalizer().is_some_and(|n| {
                    serde_json::to_string(n)
                        .unwrap()
                        .contains(&format!("\"{form}\""))
                })
            });
            let none = loaded.tokenizer.get_normalizer().is_none();
            let unchanged = loaded
                .tokenizer
                .get_normalizer()
                .is_none_or(|n| leaves_unchanged(n, "ASCII text"));
            assert_eq!(unchanged, normal_forms || none);
            for text in &texts {
                let remembered = loaded.encode(text, false).unwrap();
                assert_eq!(remembered, encoded_whole(&loaded, text), "{text:?}");
            }
        }
    }

    /// A tokenizer.json of `pre_tokenizer` and `normalizer` over a model that knows every
    /// byte and a few words (`the ` among them, which spans a word start), with `added` tokens.
    fn file(
        dir: &Path,
        normalizer: serde_json::Value,
        pre_tokenizer: serde_json::Value,
        added: serde_json::Value,
    ) -> PathBuf {
        let words = ["t", "h", "e", " ", "th", "the", "the ", "page", "<tag x>"];
        let model = bpe(
            &words,
            serde_json::json!([["t", "h"], ["th", "e"], ["the", " "]]),
        );
        file_of(dir, [normalizer, pre_tokenizer, added, model])
    }

    /// A BPE model that knows every byte and `words`, with `merges`.
    fn bpe(words: &[&str], merges: serde_json::Value) -> serde_json::Value {
        let mut vocab = serde_json::Map::new();
        for byte in 0..=255u8 {
            vocab.insert(format!("<0x{byte:02X}>"), vocab.len().into());
        }
        for word in words {
            vocab.insert(word.to_string(), vocab.len().into());
        }
        serde_json::json!({"type": "BPE", "dropout": null, "unk_token": null,
                  "continuing_subword_prefix": null, "end_of_word_suffix": null,
                  "fuse_unk": false, "byte_fallback": true, "vocab": vocab, "merges": merges})
    }

    /// A tokenizer.json of a normaliser, a pre-tokenizer, added tokens and a model.
    fn file_of(
        dir: &Path,
        [normalizer, pre_tokenizer, added, model]: [serde_json::Value; 4],
    ) -> PathBuf {
        let json = serde_json::json!({
            "version": "1.0", "truncation": null, "padding": null,
            "added_tokens": added, "normalizer": normalizer,
            "pre_tokenizer": pre_tokenizer, "post_processor": null, "decoder": null,
            "model": model
        });
        let path = dir.join(format!("t{}.json", std::fs::read_dir(dir).unwrap().count()));
        std::fs::write(&path, json.to_string()).unwrap();
        path
    }

    /// Pieces the generated texts are made of: words, numbers, JSON, whitespace runs, quotes
    /// and contractions, Unicode in and out of its normal forms (composed and decomposed
    /// letters, stray marks, Hangul jamo, ligatures, emoji sequences), `▁`, and added tokens'
    /// contents, whole and broken.
    const FRAGMENTS: [&str; 64] = [
        "the",
        "The",
        "THE",
        " ",
        "  ",
        "   ",
        "\t",
        "\n",
        "\r\n",
        "\n\n",
        "\r",
        " \n ",
        "page",
        " page",
        "Page",
        "it's",
        "'S",
        "'ll",
        "we've",
        "I'M",
        "12",
        "3456789",
        "3.14",
        "{\"type\": \"object\"}",
        "\"",
        ":",
        ",",
        "[",
        "]",
        "//",
        "...",
        "!?",
        "-",
        "_",
        "é",
        "e\u{301}",
        "\u{301}",
        "\u{327}\u{301}",
        "A\u{30a}",
        "ﬁ",
        "ß",
        "İ",
        "Ω",
        "日本語",
        "\u{1100}\u{1161}",
        "가\u{11a8}",
        "👍🏽",
        "🏳️‍🌈",
        "\u{a0}",
        "\u{2581}",
        "\u{200b}",
        "\u{3000}",
        "<tag x>",
        "<tag",
        " x>",
        "<|im_start|>",
        "<|endoftext|>",
        "<think>",
        "<tool_call>",
        "<|begin_of_text|>",
        "<|reserved_special_token_3|>",
        "<|im_",
        "\u{0}",
        "x",
    ];

    /// `count` texts of up to 40 [`FRAGMENTS`] each, drawn by a fixed generator.
    fn generated_texts(count: usize) -> Vec<String> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let fragments = next() % 41;
                (0..fragments)
                    .map(|_| FRAGMENTS[(next() % FRAGMENTS.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    /// Checks that `loaded` counts every one of `texts` as the crate's own `encode` does,
    /// twice (the second time from its remembered pieces).
    fn counts_as_the_crate(loaded: &HuggingFace, texts: &[String], label: &str) {
        for round in 0..2 {
            for text in texts {
                let encoded = loaded.tokenizer.encode(text.as_str(), false).unwrap();
                let counted = loaded.encode(text, false).unwrap();
                assert_eq!(counted, encoded.len() as u64, "{label} {round}: {text:?}");
            }
        }
    }

    #[test]
    fn the_shortcut_counts_generated_texts_as_the_crate_s_encode() {
        let mut texts = generated_texts(1500);
        texts.extend(EDGE_TEXTS.iter().map(ToString::to_string));
        for file in installed() {
            let loaded = HuggingFace::load(&file).unwrap();
            assert!(loaded.shortcut.is_some(), "{}", file.display());
            counts_as_the_crate(&loaded, &texts, &file.display().to_string());
        }
        let dir = tempfile::tempdir().unwrap();
        for (config, shortcut) in crafted_pipelines() {
            let label = serde_json::to_string(&config[..2]).unwrap();
            let loaded = HuggingFace::load(&file_of(dir.path(), config)).unwrap();
            assert_eq!(loaded.shortcut.is_some(), shortcut, "{label}");
            counts_as_the_crate(&loaded, &texts[..500], &label);
        }
    }

    /// A `Split` step of `pattern` (`{"Regex": ...}` or `{"String": ...}`).
    fn split_step(pattern: serde_json::Value, behavior: &str, invert: bool) -> serde_json::Value {
        serde_json::json!({"type": "Split", "pattern": pattern, "behavior": behavior,
                           "invert": invert})
    }

    /// Qwen3's pattern.
    fn qwen_pattern() -> serde_json::Value {
        serde_json::json!({"Regex": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"})
    }

    /// A `ByteLevel` step.
    fn byte_level_step(prefix: bool, regex: bool) -> serde_json::Value {
        serde_json::json!({"type": "ByteLevel", "add_prefix_space": prefix,
                           "trim_offsets": true, "use_regex": regex})
    }

    /// A `Metaspace` step that prepends by `scheme`.
    fn metaspace_step(scheme: &str) -> serde_json::Value {
        serde_json::json!({"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme,
                           "split": true})
    }

    /// A `Sequence` of pre-tokenizer `steps`.
    fn sequence_of(steps: serde_json::Value) -> serde_json::Value {
        serde_json::json!({"type": "Sequence", "pretokenizers": steps})
    }

    /// Added tokens that take spaces around them and whole words, one of them matched after
    /// normalisation when `normalized`.
    fn added_tokens(normalized: bool) -> serde_json::Value {
        serde_json::json!([
            {"id": 300, "content": "<tag x>", "single_word": false, "lstrip": true,
             "rstrip": false, "normalized": false, "special": true},
            {"id": 301, "content": "page", "single_word": true, "lstrip": false,
             "rstrip": true, "normalized": normalized, "special": false},
            {"id": 302, "content": "<|im_start|>", "single_word": false, "lstrip": false,
             "rstrip": true, "normalized": false, "special": false}
        ])
    }

    /// Small models of three kinds: a byte-level BPE, a WordPiece and a Unigram.
    fn test_models() -> [serde_json::Value; 3] {
        use serde_json::json;
        let words = ["t", "h", "e", "th", "the", "Ġ", "Ġt", "page", "▁", "▁the"];
        let merges = json!([["t", "h"], ["th", "e"], ["Ġ", "t"], ["▁", "the"]]);
        let word_piece = json!({"type": "WordPiece", "unk_token": "[UNK]",
            "continuing_subword_prefix": "##", "max_input_chars_per_word": 12,
            "vocab": {"[UNK]": 0, "the": 1, "t": 2, "##he": 3, "##e": 4, "page": 5, "▁": 6,
                      "##s": 7, "it": 8, "'": 9}});
        let unigram = json!({"type": "Unigram", "unk_id": 0, "byte_fallback": false,
            "vocab": [["<unk>", 0.0], ["the", -1.0], ["t", -2.0], ["h", -2.0], ["e", -2.0],
                      ["▁", -1.5], ["▁the", -0.5], ["page", -1.0], ["a", -3.0]]});
        [bpe(&words, merges), word_piece, unigram]
    }

    /// Pipelines (normaliser, pre-tokenizer, added tokens, model) of every kind of step the
    /// shortcut takes or leaves, and whether it takes them.
    fn crafted_pipelines() -> Vec<([serde_json::Value; 4], bool)> {
        let mut pipelines: Vec<_> = shortcut_pipelines()
            .into_iter()
            .map(|p| (p, true))
            .collect();
        pipelines.extend(whole_pipelines().into_iter().map(|p| (p, false)));
        pipelines
    }

    /// Pipelines the shortcut takes.
    fn shortcut_pipelines() -> Vec<[serde_json::Value; 4]> {
        use serde_json::json;
        let [model, word_piece, unigram] = test_models();
        let split = split_step;
        // Qwen's and Llama's shape.
        let qwen = sequence_of(json!([
            split(qwen_pattern(), "Isolated", false),
            byte_level_step(false, false)
        ]));
        // Two cuts, one by a string and one inverted, then every kind of later step.
        let two_cuts = sequence_of(json!([
            split(json!({"String": " "}), "Removed", false),
            split(json!({"Regex": r"\w+|[^\w\s]+"}), "Removed", true),
            sequence_of(json!([{"type": "Digits", "individual_digits": true},
                               {"type": "Punctuation", "behavior": "Isolated"}])),
            metaspace_step("always")
        ]));
        let every_step = sequence_of(json!([split(qwen_pattern(), "Isolated", true),
            {"type": "WhitespaceSplit"}, {"type": "UnicodeScripts"},
            {"type": "FixedLength", "length": 4}, {"type": "BertPreTokenizer"},
            {"type": "CharDelimiterSplit", "delimiter": "e"}, {"type": "Whitespace"},
            metaspace_step("never"), byte_level_step(true, true)]));
        // A pattern that looks around a piece's ends (behind, its start, word edges), and
        // patterns that match empty text.
        let looking_around = sequence_of(json!([
            split(
                json!({"Regex": r"(?<=a)b|^x|\bt|e$|\s+(?!\S)"}),
                "Isolated",
                false
            ),
            metaspace_step("always")
        ]));
        let empty_matches = sequence_of(json!([
            split(json!({"Regex": "e*"}), "Removed", false),
            split(json!({"Regex": r"\s*"}), "Isolated", false)
        ]));
        let lower = json!({"type": "Sequence",
            "normalizers": [{"type": "NFKD"}, {"type": "Lowercase"}]});
        let strip = json!({"type": "Sequence", "normalizers": [{"type": "NFD"},
            {"type": "Strip", "strip_left": true, "strip_right": true}]});
        vec![
            [
                json!({"type": "NFC"}),
                qwen,
                added_tokens(false),
                model.clone(),
            ],
            [lower, two_cuts, added_tokens(true), word_piece],
            [strip, every_step, json!([]), model.clone()],
            [json!(null), looking_around, added_tokens(false), unigram],
            [json!(null), empty_matches, added_tokens(false), model],
        ]
    }

    /// Pipelines left to the crate's whole pre-tokenizer: a first step that merges parts or
    /// is no `Split`, a Metaspace that asks where its piece was, no pre-tokenizer.
    fn whole_pipelines() -> Vec<[serde_json::Value; 4]> {
        use serde_json::json;
        let [model, word_piece, unigram] = test_models();
        let nfc = json!({"type": "NFC"});
        let first = sequence_of(json!([
            split_step(json!({"String": " "}), "Isolated", false),
            metaspace_step("first")
        ]));
        vec![
            [
                nfc.clone(),
                split_step(qwen_pattern(), "MergedWithPrevious", false),
                added_tokens(false),
                model.clone(),
            ],
            [
                nfc,
                split_step(qwen_pattern(), "Contiguous", false),
                added_tokens(false),
                model.clone(),
            ],
            [
                json!(null),
                byte_level_step(true, true),
                added_tokens(false),
                model,
            ],
            [json!(null), first, added_tokens(false), unigram],
            [json!(null), json!(null), added_tokens(false), word_piece],
        ]
    }

    #[test]
    fn a_normaliser_is_skipped_only_for_texts_it_gives_back() {
        use serde_json::json;
        let normalizers: Vec<NormalizerWrapper> = ["NFC", "NFD", "NFKC", "NFKD"]
            .iter()
            .map(|form| json!({"type": form}))
            .chain([
                json!({"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "NFKC"}]}),
            ])
            .map(|json| serde_json::from_value(json).unwrap())
            .collect();
        let lowercase: NormalizerWrapper =
            serde_json::from_value(json!({"type": "Lowercase"})).unwrap();
        assert!(!leaves_unchanged(&lowercase, "ascii"));
        assert!(!leaves_unchanged(&normalizers[0], "e\u{301}"));
        // Every character below U+3400 and in the Hangul and emoji blocks: alone, after a
        // letter, and before a combining mark.
        let characters = (0..0x3400u32).chain(0xAC00..0xAD00).chain(0x1F300..0x1F700);
        let mut skipped = 0;
        for character in characters.filter_map(char::from_u32) {
            for text in [
                format!("{character}"),
                format!("a{character}"),
                format!("{character}\u{301}x"),
            ] {
                for normalizer in &normalizers {
                    if leaves_unchanged(normalizer, &text) {
                        skipped += 1;
                        let mut normalized = tokenizers::NormalizedString::from(text.as_str());
                        normalizer.normalize(&mut normalized).unwrap();
                        assert_eq!(normalized.get(), text, "{text:?}");
                    }
                }
            }
        }
        assert!(skipped > 40_000, "{skipped}");
    }

    #[test]
    fn only_pipelines_that_count_pieces_as_the_whole_are_cut_at_word_starts() {
        use serde_json::json;
        let dir = tempfile::tempdir().unwrap();
        let split = json!({"type": "WhitespaceSplit"});
        let cut = HuggingFace::load(&file(dir.path(), json!(null), split.clone(), json!([])));
        assert!(cut.unwrap().word_cuts);
        // No pre-tokenizer: the whole text is one word, and `the ` spans a piece's end.
        let whole = file(dir.path(), json!(null), json!(null), json!([]));
        let loaded = HuggingFace::load(&whole).unwrap();
        assert!(!loaded.word_cuts);
        let text = "the page ".repeat(30_000);
        let allowed = |text: &str, at: usize| loaded.word_cuts && loaded.may_cut(text, at);
        let forced = pieces(&text, Sizes::COUNTING, allowed);
        assert!(forced.skip(1).all(|p| p.start == Start::Forced));
        // Pieces of three characters from each piece's start.
        let fixed = json!({"type": "FixedLength", "length": 3});
        let chunks = HuggingFace::load(&file(dir.path(), json!(null), fixed, json!([])));
        assert!(!chunks.unwrap().word_cuts);
        // Spaces stripped from a text's ends, and a `▁` prepended to it, are read around: a
        // piece is counted after its letter.
        let strip = json!({"type": "Strip", "strip_left": true, "strip_right": true});
        let stripped = HuggingFace::load(&file(dir.path(), strip, split.clone(), json!([])));
        assert!(stripped.unwrap().word_cuts);
        let prepend = json!({"type": "Prepend", "prepend": "▁"});
        let metaspace = json!({"type": "Metaspace", "replacement": "▁",
                               "prepend_scheme": "always", "split": true});
        let spm = HuggingFace::load(&file(dir.path(), prepend, metaspace, json!([])));
        assert!(spm.unwrap().word_cuts);
    }

    #[test]
    fn no_piece_ends_beside_an_added_token_a_cut_would_change() {
        use serde_json::json;
        let dir = tempfile::tempdir().unwrap();
        let added = json!([
            {"id": 300, "content": "<tag x>", "single_word": false, "lstrip": false,
             "rstrip": false, "normalized": false, "special": true},
            {"id": 301, "content": "page", "single_word": false, "lstrip": false,
             "rstrip": true, "normalized": true, "special": false}
        ]);
        let split = json!({"type": "WhitespaceSplit"});
        let path = file(dir.path(), json!(null), split, added);
        let loaded = HuggingFace::load(&path).unwrap();
        assert!(loaded.word_cuts);
        let text = "Open the PAGE now, or the <tag x> tag";
        let cuts: Vec<usize> = (1..text.len() - 1)
            .filter(|&at| loaded.may_cut(text, at))
            .collect();
        for beside in [
            text.find("PAGE").unwrap() + 4,
            text.find("<tag").unwrap() + 4,
        ] {
            assert!(!cuts.contains(&beside), "{beside} in {cuts:?}");
        }
        assert!(cuts.contains(&4), "{cuts:?}");
        let whole = loaded.count_in(text, Sizes::WHOLE, false).unwrap();
        assert_eq!(
            loaded.count_in(text, Sizes::EVERY_WORD, true).unwrap(),
            whole
        );
    }
}
