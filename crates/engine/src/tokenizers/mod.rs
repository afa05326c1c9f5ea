//! Which tokenizer a model's figures are in, and counting with it.
//!
//! A model id picks its tokenizer by family: Claude models get the Claude generation that
//! counts for them, OpenAI models the encoding tiktoken names for them, and any other id is
//! looked up as a Hugging Face repository in the local cache (never downloaded). A
//! `tokenizer.json` given by path wins over all of these. With no model, or a model nothing is
//! known of, o200k_base stands in, and the choice says so.

pub mod claude;
mod gpt4_split;
mod hf_shortcut;
mod hub;
mod hugging_face;
mod openai_split;
mod pieces;
mod remembered;
#[cfg(test)]
mod test_texts;

pub use hub::{find_in_hub, hub_cache};
pub use hugging_face::panic_is_contained;
pub use pieces::MAX_PIECE_BYTES;

use crate::inputs::error::InputError;
use crate::text::sanitize;
use claude::ClaudeTokenizer;
use hugging_face::HuggingFace;
use rayon::prelude::*;
use remembered::{with_piece_counts, Owner};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The largest `tokenizer.json` read (the big open-model files are 10 to 30 MB).
pub const MAX_TOKENIZER_BYTES: u64 = 256 * 1024 * 1024;

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

    /// bpe-openai's tokenizer of the encoding (its tables load the first time).
    fn bpe(self) -> &'static bpe_openai::Tokenizer {
        match self {
            Encoding::O200k => bpe_openai::o200k_base(),
            Encoding::Cl100k => bpe_openai::cl100k_base(),
        }
    }
}

/// A tokenizer schematax can count with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    /// An OpenAI encoding.
    Tiktoken(Encoding),
    /// A Claude generation.
    Claude(ClaudeTokenizer),
    /// A Hugging Face `tokenizer.json`.
    HuggingFace(PathBuf),
}

impl Tokenizer {
    /// Its name as a measure: `o200k_base`, `claude-v4.7`, or `hf:` and the file's folder.
    pub fn name(&self) -> String {
        match self {
            Tokenizer::Tiktoken(encoding) => encoding.name().to_string(),
            Tokenizer::Claude(generation) => generation.name().to_string(),
            Tokenizer::HuggingFace(path) => format!("hf:{}", hugging_face_label(path)),
        }
    }

    /// A name of at most a dozen characters, for a column heading.
    pub fn short_name(&self) -> String {
        let name = match self {
            // o200k_base and cl100k_base fit: named as everywhere else.
            Tokenizer::Tiktoken(encoding) => encoding.name().to_string(),
            Tokenizer::Claude(generation) => generation.name().to_string(),
            Tokenizer::HuggingFace(path) => hugging_face_label(path),
        };
        name.chars().take(12).collect()
    }
}

/// How a file's tokenizer is called: the repository of a Hugging Face cache snapshot
/// (`models--Org--Name/snapshots/REV/tokenizer.json` gives `Name`), else the folder it is in;
/// made safe for a terminal (a folder's name may hold escape sequences).
fn hugging_face_label(path: &Path) -> String {
    let folders: Vec<&str> = path
        .ancestors()
        .skip(1)
        .filter_map(|p| p.file_name()?.to_str())
        .collect();
    let label = if let Some(repo) = folders.iter().find_map(|f| f.strip_prefix("models--")) {
        repo.rsplit("--").next().unwrap_or(repo)
    } else {
        folders.first().copied().unwrap_or("tokenizer.json")
    };
    sanitize(label).into_owned()
}

/// Why a tokenizer was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenizerOrigin {
    /// A `tokenizer.json` given by path.
    Given,
    /// The model's family: a Claude or an OpenAI model.
    ModelFamily {
        /// The model id.
        model: String,
    },
    /// The model's `tokenizer.json` in the local Hugging Face cache.
    HuggingFaceCache {
        /// The model id.
        model: String,
    },
    /// No model is configured: o200k_base stands in.
    NoModel,
    /// Nothing is known of the model's tokenizer: o200k_base stands in.
    UnknownModel {
        /// The model id.
        model: String,
    },
}

/// The tokenizer a session's real counts are in, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenizerChoice {
    /// The tokenizer.
    pub tokenizer: Tokenizer,
    /// Why it was chosen.
    pub origin: TokenizerOrigin,
}

impl TokenizerChoice {
    /// The choice when nothing names a model: o200k_base stands in.
    pub fn stand_in() -> TokenizerChoice {
        TokenizerChoice {
            tokenizer: Tokenizer::Tiktoken(Encoding::O200k),
            origin: TokenizerOrigin::NoModel,
        }
    }

    /// Whether the tokenizer only stands in for one the model's own is not known.
    pub fn is_stand_in(&self) -> bool {
        matches!(
            self.origin,
            TokenizerOrigin::NoModel | TokenizerOrigin::UnknownModel { .. }
        )
    }
}

/// Picks the tokenizer: `given` (a `tokenizer.json`) when there is one, else the model's
/// family, else the model's file in the Hugging Face cache at `hub`, else o200k_base as a
/// stand-in.
pub fn choose(model: Option<&str>, given: Option<&Path>, hub: Option<&Path>) -> TokenizerChoice {
    if let Some(path) = given {
        return TokenizerChoice {
            tokenizer: Tokenizer::HuggingFace(path.to_path_buf()),
            origin: TokenizerOrigin::Given,
        };
    }
    let Some(model) = model.map(str::trim).filter(|m| !m.is_empty()) else {
        return TokenizerChoice::stand_in();
    };
    let origin_model = model.to_string();
    if let Some(tokenizer) = family_tokenizer(model) {
        return TokenizerChoice {
            tokenizer,
            origin: TokenizerOrigin::ModelFamily {
                model: origin_model,
            },
        };
    }
    if let Some(path) = hub.and_then(|hub| find_in_hub(hub, model)) {
        return TokenizerChoice {
            tokenizer: Tokenizer::HuggingFace(path),
            origin: TokenizerOrigin::HuggingFaceCache {
                model: origin_model,
            },
        };
    }
    TokenizerChoice {
        tokenizer: Tokenizer::Tiktoken(Encoding::O200k),
        origin: TokenizerOrigin::UnknownModel {
            model: origin_model,
        },
    }
}

/// The tokenizer of a Claude or OpenAI model id (a provider prefix such as `anthropic/` or
/// `openai/` is dropped), or None.
pub fn family_tokenizer(model: &str) -> Option<Tokenizer> {
    let name = model
        .rsplit('/')
        .next()
        .unwrap_or(model)
        .to_ascii_lowercase();
    if name.starts_with("claude") {
        return Some(Tokenizer::Claude(claude_generation(&name)));
    }
    match tiktoken_rs::tokenizer::get_tokenizer(&name)? {
        tiktoken_rs::tokenizer::Tokenizer::O200kBase
        | tiktoken_rs::tokenizer::Tokenizer::O200kHarmony => {
            Some(Tokenizer::Tiktoken(Encoding::O200k))
        }
        tiktoken_rs::tokenizer::Tokenizer::Cl100kBase => {
            Some(Tokenizer::Tiktoken(Encoding::Cl100k))
        }
        _ => None,
    }
}

/// The generation of a Claude model id by its version (`claude-opus-4-7`, `claude-opus-4.7`,
/// `claude-3-5-sonnet-20241022`): 4.8 and later count as v4.8, 4.7 as v4.7, the rest as v3.
fn claude_generation(name: &str) -> ClaudeTokenizer {
    // The version is the first one- or two-digit number, with the next such number as its
    // minor when one follows at once (a date, eight digits, is neither).
    let numbers: Vec<&str> = name
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .collect();
    let major: u32 = match numbers.first() {
        Some(n) if n.len() <= 2 => n.parse().unwrap_or(0),
        _ => return ClaudeTokenizer::V3,
    };
    let minor: u32 = match numbers.get(1) {
        Some(n) if n.len() <= 2 => n.parse().unwrap_or(0),
        _ => 0,
    };
    match (major, minor) {
        (major, _) if major >= 5 => ClaudeTokenizer::V4_8,
        (4, minor) if minor >= 8 => ClaudeTokenizer::V4_8,
        (4, 7) => ClaudeTokenizer::V4_7,
        _ => ClaudeTokenizer::V3,
    }
}

/// Tokens of `text` in `encoding`, as bpe-openai's `count` gives them: the text cut by the
/// encoding's pattern (`openai_split`), and each piece's count taken from this thread's
/// remembered counts or made by the encoding and remembered.
fn count_openai(encoding: Encoding, text: &str) -> u64 {
    let bpe = encoding.bpe();
    let text = bpe.normalize(text);
    with_piece_counts(Owner::OpenAi(encoding), |counts| {
        let mut tokens = 0;
        openai_split::for_each_piece(encoding, text.as_str(), |piece| {
            let counted = counts.count(piece, |piece| {
                Ok::<u64, Infallible>(bpe.bpe.count(piece.as_bytes()) as u64)
            });
            tokens += counted.unwrap_or_else(|never| match never {});
        });
        tokens
    })
}

/// A tokenizer that could not be loaded or could not count: a `tokenizer.json` that cannot be
/// read, is not one, or fails on a text (the built-in tokenizers always load and count).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct TokenizerError(#[from] pub InputError);

/// A tokenizer ready to count.
pub struct LoadedTokenizer {
    counter: Counter,
}

/// What counts, by kind of tokenizer. OpenAI's encodings count their pieces with `bpe-openai`,
/// which gives tiktoken's counts (tests hold it to tiktoken-rs) 1.5 to 2 times as fast.
enum Counter {
    OpenAi(Encoding),
    Claude(ClaudeTokenizer),
    HuggingFace(Box<HuggingFace>),
}

impl std::fmt::Debug for LoadedTokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.counter {
            Counter::OpenAi(..) => "openai",
            Counter::Claude(generation) => generation.name(),
            Counter::HuggingFace(_) => "tokenizer.json",
        };
        f.debug_struct("LoadedTokenizer")
            .field("kind", &kind)
            .finish()
    }
}

impl LoadedTokenizer {
    /// Loads `tokenizer`: a fraction of a second for the built-in ones, longer for a large
    /// `tokenizer.json`, which must count a few test texts to be used. Never call it on a UI
    /// thread.
    pub fn load(tokenizer: &Tokenizer) -> Result<LoadedTokenizer, TokenizerError> {
        let counter = match tokenizer {
            Tokenizer::Tiktoken(encoding) => {
                // The first count loads the encoding's tables and compiles its pattern: do it
                // now, not mid-count.
                count_openai(*encoding, "");
                Counter::OpenAi(*encoding)
            }
            Tokenizer::Claude(generation) => {
                // The first count loads the generation's pieces: do it now, not mid-count.
                generation.count("");
                Counter::Claude(*generation)
            }
            Tokenizer::HuggingFace(path) => {
                Counter::HuggingFace(Box::new(HuggingFace::load(path)?))
            }
        };
        Ok(LoadedTokenizer { counter })
    }

    /// `tokenizer`, loaded once per process and shared: every later call gets the same one at
    /// once (a failure is not kept, so a fixed file loads on the next call).
    pub fn shared(tokenizer: &Tokenizer) -> Result<Arc<LoadedTokenizer>, TokenizerError> {
        static LOADED: Mutex<Vec<(Tokenizer, Arc<LoadedTokenizer>)>> = Mutex::new(Vec::new());
        let cached = |loaded: &[(Tokenizer, Arc<LoadedTokenizer>)]| {
            loaded
                .iter()
                .find(|(key, _)| key == tokenizer)
                .map(|(_, value)| Arc::clone(value))
        };
        if let Some(found) = cached(&LOADED.lock().unwrap_or_else(PoisonError::into_inner)) {
            return Ok(found);
        }
        // Loaded without the lock held: a slow file does not hold up another tokenizer.
        let fresh = Arc::new(LoadedTokenizer::load(tokenizer)?);
        let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = cached(&loaded) {
            return Ok(found);
        }
        loaded.push((tokenizer.clone(), Arc::clone(&fresh)));
        Ok(fresh)
    }

    /// Tokens of `text` alone: no special tokens added, and for Claude without the frame of a
    /// message. A long text is counted in pieces of at most [`MAX_PIECE_BYTES`], so what it
    /// costs does not grow with the text. Only a `tokenizer.json` can fail (never with a
    /// count of 0 for a text it cannot count).
    pub fn count(&self, text: &str) -> Result<u64, TokenizerError> {
        Ok(match &self.counter {
            Counter::OpenAi(encoding) => count_openai(*encoding, text),
            Counter::Claude(generation) => generation
                .count(text)
                .saturating_sub(generation.frame_tokens()),
            Counter::HuggingFace(tokenizer) => tokenizer.count(text)?,
        })
    }

    /// Counts every text on every core, in chunks of about the same amount of text.
    pub fn count_all<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Result<Vec<u64>, TokenizerError> {
        self.count_each(texts, |t| t.as_ref().len(), |t| self.count(t.as_ref()))
    }

    /// `count` of each item on every core, in consecutive chunks of about the same `size`
    /// (the text an item stands for, which `count` makes only when its chunk is counted: the
    /// texts of a whole catalog are never all held at once); the first failure, if any.
    pub fn count_each<T: Sync>(
        &self,
        items: &[T],
        size: impl Fn(&T) -> usize + Sync,
        count: impl Fn(&T) -> Result<u64, TokenizerError> + Sync,
    ) -> Result<Vec<u64>, TokenizerError> {
        self.count_each_reporting(items, size, count, &mut |_, _| {})
    }

    /// [`LoadedTokenizer::count_each`], calling `progress` from the calling thread with how
    /// many items are counted and how many there are, after each run of
    /// [`CHUNKS_PER_REPORT`] chunks per core.
    pub fn count_each_reporting<T: Sync>(
        &self,
        items: &[T],
        size: impl Fn(&T) -> usize + Sync,
        count: impl Fn(&T) -> Result<u64, TokenizerError> + Sync,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Vec<u64>, TokenizerError> {
        let sizes: Vec<usize> = items.iter().map(&size).collect();
        let chunks = chunks_by_size(&sizes, CHUNK_BYTES);
        let per_report = CHUNKS_PER_REPORT * rayon::current_num_threads();
        let mut counts = Vec::with_capacity(items.len());
        progress(0, items.len());
        for run in chunks.chunks(per_report) {
            let counted: Vec<u64> = run
                .par_iter()
                .flat_map_iter(|range| items[range.clone()].iter().map(&count))
                .collect::<Result<_, _>>()?;
            counts.extend(counted);
            progress(counts.len(), items.len());
        }
        Ok(counts)
    }
}

/// Text per unit of parallel work: small enough for many units on many cores, large enough
/// that handing one out costs nothing beside counting it.
const CHUNK_BYTES: usize = 64 * 1024;

/// Chunks per core counted between two progress reports: the cores wait for the slowest
/// chunk of a run, a few hundredths of the run.
const CHUNKS_PER_REPORT: usize = 16;

/// Consecutive ranges of items of about `bytes` bytes each, by their sizes (a larger item is
/// a range alone).
fn chunks_by_size(sizes: &[usize], bytes: usize) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (index, item) in sizes.iter().enumerate() {
        size += item.max(&1);
        if size >= bytes {
            ranges.push(start..index + 1);
            (start, size) = (index + 1, 0);
        }
    }
    if start < sizes.len() {
        ranges.push(start..sizes.len());
    }
    ranges
}

/// The first line of a library's message, shortened.
pub(crate) fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let mut short: String = line.chars().take(160).collect();
    if short.len() < line.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_models_get_their_generation() {
        let cases = [
            ("claude-3-5-sonnet-20241022", ClaudeTokenizer::V3),
            ("anthropic/claude-sonnet-4.5", ClaudeTokenizer::V3),
            ("claude-opus-4-6", ClaudeTokenizer::V3),
            ("claude-opus-4-7", ClaudeTokenizer::V4_7),
            ("Anthropic/Claude-Opus-4.7", ClaudeTokenizer::V4_7),
            ("claude-opus-4-8-20261001", ClaudeTokenizer::V4_8),
            ("claude-sonnet-5", ClaudeTokenizer::V4_8),
            ("claude-sonnet-4-20250514", ClaudeTokenizer::V3),
            ("claude", ClaudeTokenizer::V3),
        ];
        for (model, generation) in cases {
            assert_eq!(
                family_tokenizer(model),
                Some(Tokenizer::Claude(generation)),
                "{model}"
            );
        }
    }

    #[test]
    fn openai_models_get_their_encoding() {
        let o200k = Some(Tokenizer::Tiktoken(Encoding::O200k));
        let cl100k = Some(Tokenizer::Tiktoken(Encoding::Cl100k));
        assert_eq!(family_tokenizer("gpt-4o"), o200k);
        assert_eq!(family_tokenizer("openai/gpt-5-mini"), o200k);
        assert_eq!(family_tokenizer("openai/gpt-oss-120b"), o200k);
        assert_eq!(family_tokenizer("gpt-4-0613"), cl100k);
        assert_eq!(family_tokenizer("gpt-3.5-turbo"), cl100k);
        assert_eq!(family_tokenizer("text-davinci-003"), None);
        assert_eq!(family_tokenizer("NousResearch/Hermes-4-70B"), None);
    }

    #[test]
    fn the_hub_cache_gives_the_repository_s_file() {
        let hub = tempfile::tempdir().unwrap();
        let rev = "0123456789abcdef0123456789abcdef01234567";
        let dir = hub
            .path()
            .join("models--NousResearch--Hermes-4-70B/snapshots")
            .join(rev);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("tokenizer.json"), "{}").unwrap();
        let choice = choose(Some("NousResearch/Hermes-4-70B"), None, Some(hub.path()));
        assert!(matches!(
            choice.origin,
            TokenizerOrigin::HuggingFaceCache { .. }
        ));
        assert_eq!(
            choice.tokenizer,
            Tokenizer::HuggingFace(dir.join("tokenizer.json"))
        );
        assert_eq!(choice.tokenizer.short_name(), "Hermes-4-70B");
    }

    #[test]
    fn the_choice_says_where_it_came_from() {
        let given = Path::new("/x/qwen3/tokenizer.json");
        let choice = choose(Some("claude-opus-4-7"), Some(given), None);
        assert_eq!(choice.origin, TokenizerOrigin::Given);
        assert_eq!(choice.tokenizer.name(), "hf:qwen3");
        assert_eq!(choose(None, None, None), TokenizerChoice::stand_in());
        assert!(choose(Some("  "), None, None).is_stand_in());
        let unknown = choose(Some("mystery-model"), None, None);
        assert_eq!(
            unknown.origin,
            TokenizerOrigin::UnknownModel {
                model: "mystery-model".into()
            }
        );
        assert!(unknown.is_stand_in());
        let claude = choose(Some("claude-opus-4-7"), None, None);
        assert!(!claude.is_stand_in());
        assert_eq!(claude.tokenizer.short_name(), "claude-v4.7");
    }

    #[test]
    fn counts_exclude_special_tokens_and_the_claude_frame() {
        let o200k = LoadedTokenizer::load(&Tokenizer::Tiktoken(Encoding::O200k)).unwrap();
        assert_eq!(o200k.count("hello world"), Ok(2));
        assert_eq!(o200k.count(""), Ok(0));
        // Special-token text counts as ordinary text.
        assert!(o200k.count("<|endoftext|>").unwrap() > 1);
        let claude = LoadedTokenizer::load(&Tokenizer::Claude(ClaudeTokenizer::V3)).unwrap();
        assert_eq!(
            claude.count("hello world"),
            Ok(ClaudeTokenizer::V3.count("hello world") - ClaudeTokenizer::V3.frame_tokens())
        );
        let texts: Vec<String> = (0..3000).map(|i| format!("tool number {i} ")).collect();
        let each: Vec<u64> = texts.iter().map(|t| o200k.count(t).unwrap()).collect();
        assert_eq!(o200k.count_all(&texts), Ok(each));
    }

    #[test]
    fn openai_counts_remember_their_pieces_and_equal_the_encodings_own() {
        let texts = test_texts::texts();
        for encoding in [Encoding::O200k, Encoding::Cl100k] {
            let loaded = LoadedTokenizer::load(&Tokenizer::Tiktoken(encoding)).unwrap();
            let bpe = encoding.bpe();
            let before = remembered::piece_work();
            for round in 0..2 {
                for text in &texts {
                    let own = bpe.count(text.as_str()) as u64;
                    assert_eq!(
                        loaded.count(text),
                        Ok(own),
                        "{} {round}: {text:?}",
                        encoding.name()
                    );
                }
            }
            let work = remembered::piece_work();
            let (asked, counted) = (work.asked - before.asked, work.counted - before.counted);
            // Tool texts repeat their words: most pieces were counted before.
            assert!(counted * 10 < asked, "{counted} of {asked} pieces counted");
        }
    }

    #[test]
    fn a_folder_name_is_shown_without_its_escape_sequences() {
        let path = Path::new("/m/evil\u{1b}]0;owned\u{7}\u{1b}[31mred\u{1b}[0m/tokenizer.json");
        let tokenizer = Tokenizer::HuggingFace(path.to_path_buf());
        assert_eq!(tokenizer.name(), "hf:evilred");
        assert_eq!(tokenizer.short_name(), "evilred");
        let cached = Path::new("/h/models--Org--Bad\u{1b}[2J/snapshots/r/tokenizer.json");
        assert_eq!(
            Tokenizer::HuggingFace(cached.to_path_buf()).name(),
            "hf:Bad"
        );
    }

    #[test]
    fn no_tokenizer_is_given_more_than_a_piece_at_once() {
        use pieces::longest_read;
        let dir = tempfile::tempdir().unwrap();
        let mut vocab = serde_json::Map::new();
        for byte in 0..=255u8 {
            vocab.insert(format!("<0x{byte:02X}>"), vocab.len().into());
        }
        let json = serde_json::json!({
            "version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
            "normalizer": null, "pre_tokenizer": {"type": "WhitespaceSplit"},
            "post_processor": null, "decoder": null,
            "model": {"type": "BPE", "dropout": null, "unk_token": null,
                      "continuing_subword_prefix": null, "end_of_word_suffix": null,
                      "fuse_unk": false, "byte_fallback": true, "vocab": vocab, "merges": []}
        });
        let file = dir.path().join("tokenizer.json");
        std::fs::write(&file, json.to_string()).unwrap();
        let tokenizers = [
            Tokenizer::Claude(ClaudeTokenizer::V3),
            Tokenizer::Claude(ClaudeTokenizer::V4_7),
            Tokenizer::HuggingFace(file),
        ];
        let texts = [
            "Take a screenshot of the page. ".repeat(40_000),
            "a".repeat(1_000_000),
            " ".repeat(1_000_000),
        ];
        for tokenizer in &tokenizers {
            let loaded = LoadedTokenizer::load(tokenizer).unwrap();
            for text in &texts {
                longest_read::take();
                loaded.count(text).unwrap();
                let longest = longest_read::take();
                // A piece read after the letter before it is one byte longer.
                assert!(
                    longest <= MAX_PIECE_BYTES + 1,
                    "{}: {longest}",
                    tokenizer.name()
                );
                assert!(
                    longest >= MAX_PIECE_BYTES / 8,
                    "{}: {longest}",
                    tokenizer.name()
                );
            }
        }
    }

    #[test]
    fn a_count_reports_its_progress_in_runs_of_chunks_up_to_every_item() {
        let o200k = LoadedTokenizer::load(&Tokenizer::Tiktoken(Encoding::O200k)).unwrap();
        // Texts of three runs of chunks on every core: reports between the first and last.
        let text = "lists the open issues of a repository ".repeat(100);
        let per_chunk = CHUNK_BYTES.div_ceil(text.len());
        let texts: Vec<String> =
            (0..3 * CHUNKS_PER_REPORT * rayon::current_num_threads() * per_chunk)
                .map(|i| format!("tool {i} {text}"))
                .collect();
        let mut reports = Vec::new();
        let counts = o200k
            .count_each_reporting(
                &texts,
                String::len,
                |t| o200k.count(t),
                &mut |done, total| reports.push((done, total)),
            )
            .unwrap();
        assert_eq!(counts, o200k.count_all(&texts).unwrap());
        assert_eq!(reports.first(), Some(&(0, texts.len())));
        assert_eq!(reports.last(), Some(&(texts.len(), texts.len())));
        assert!(reports.len() > 2, "{reports:?}");
        assert!(reports.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }

    #[test]
    fn chunks_cover_every_text_once_in_order() {
        let sizes = [4, 2, 0, 8, 1];
        let ranges = chunks_by_size(&sizes, 5);
        assert_eq!(ranges, vec![0..2, 2..4, 4..5]);
        assert!(chunks_by_size(&[], 5).is_empty());
    }

    #[test]
    fn a_bad_tokenizer_file_is_one_line_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        let error = LoadedTokenizer::load(&Tokenizer::HuggingFace(missing.clone())).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("{}: no such file", missing.display())
        );
        let bad = dir.path().join("tokenizer.json");
        std::fs::write(&bad, "{\"model\": 5}").unwrap();
        let error = LoadedTokenizer::load(&Tokenizer::HuggingFace(bad.clone())).unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with(&format!(
                "{}: not a Hugging Face tokenizer.json (",
                bad.display()
            )),
            "{text}"
        );
        assert!(!text.contains('\n'));
        // A JSON file that is plainly something else says what it is.
        std::fs::write(&bad, r#"{"server": "s", "tools": []}"#).unwrap();
        let text = LoadedTokenizer::load(&Tokenizer::HuggingFace(bad.clone()))
            .unwrap_err()
            .to_string();
        assert!(text.ends_with("(a JSON object with no `model`)"), "{text}");
        std::fs::write(&bad, "{oops").unwrap();
        let text = LoadedTokenizer::load(&Tokenizer::HuggingFace(bad.clone()))
            .unwrap_err()
            .to_string();
        assert!(text.contains("(not JSON: "), "{text}");
    }
}
