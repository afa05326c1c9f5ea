//! Claude token counts, offline: the method of ctok 1.3.0 (MIT, Sander Land), whose piece
//! lists, reconstructed from Anthropic's `count_tokens` answers, are shipped in
//! `crates/engine/src/tokenizers/claude/` with their license. A text is normalised (NFC, the family's quote fold),
//! split into classed runs and written as a *marked stream* (word boundaries, case and absorbed
//! spaces as marker glyphs); the count is the fewest pieces that tile that stream, plus the
//! message frame. `crates/engine/tests/it/tokenizers.rs` checks every tool of every test capture against ctok
//! itself. No tile crosses the end of an ⟨eow⟩, so the stream is tiled in segments that end
//! there, each remembered per thread: one core counts 45-50 MB of tool definitions a second
//! (6-7 MB tiled whole, with a string per character). A long text is normalised, marked and
//! tiled a piece at a time (see [`super::pieces`]): a piece that ends at a word start ends
//! its stream with that word's ⟨eow⟩, so the pieces' streams, seamed as one, are the whole
//! text's stream.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::OnceLock;

use rustc_hash::FxHashMap;
use serde::Deserialize;

use super::pieces::{pieces, Sizes, Start};
use unicode_general_category::{get_general_category, GeneralCategory};
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// A Claude tokenizer generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaudeTokenizer {
    /// Claude 3 through Opus 4.6 (ctok's `v3`).
    V3,
    /// Opus 4.7 (ctok's `v4.7`).
    V4_7,
    /// Opus 4.8 and later: v4.7's pieces under a six-token frame with no leading boundary.
    V4_8,
}

impl ClaudeTokenizer {
    /// Every generation, oldest first.
    pub const ALL: [ClaudeTokenizer; 3] = [
        ClaudeTokenizer::V3,
        ClaudeTokenizer::V4_7,
        ClaudeTokenizer::V4_8,
    ];

    /// Its name as a measure: `claude-v3`, `claude-v4.7`, `claude-v4.8`.
    pub fn name(self) -> &'static str {
        match self {
            ClaudeTokenizer::V3 => "claude-v3",
            ClaudeTokenizer::V4_7 => "claude-v4.7",
            ClaudeTokenizer::V4_8 => "claude-v4.8",
        }
    }

    /// The models it counts for.
    pub fn models(self) -> &'static str {
        match self {
            ClaudeTokenizer::V3 => "Claude 3 to Opus 4.6",
            ClaudeTokenizer::V4_7 => "Claude Opus 4.7",
            ClaudeTokenizer::V4_8 => "Claude Opus 4.8 and later",
        }
    }

    /// ctok's version string for it (`3.0`, `4.7`, `4.8`).
    pub fn ctok_version(self) -> &'static str {
        match self {
            ClaudeTokenizer::V3 => "3.0",
            ClaudeTokenizer::V4_7 => "4.7",
            ClaudeTokenizer::V4_8 => "4.8",
        }
    }

    /// Tokens of the message frame around a text.
    pub fn frame_tokens(self) -> u64 {
        self.model().message_overhead
    }

    /// Tokens of `text` sent as one user message (the frame included), as `count_tokens`
    /// answers. The first call loads the generation's pieces (a fraction of a second).
    pub fn count(self, text: &str) -> u64 {
        self.count_in(text, Sizes::COUNTING)
    }

    /// [`ClaudeTokenizer::count`], the text tiled in pieces of `sizes`.
    pub(crate) fn count_in(self, text: &str, sizes: Sizes) -> u64 {
        let model = self.model();
        model.message_overhead + tile(text, model, sizes)
    }

    fn model(self) -> &'static Model {
        static V3: OnceLock<Model> = OnceLock::new();
        static V4_7: OnceLock<Model> = OnceLock::new();
        static V4_8: OnceLock<Model> = OnceLock::new();
        const V3_DATA: &str = include_str!("claude/v3.json");
        const V4_7_DATA: &str = include_str!("claude/v4_7.json");
        match self {
            ClaudeTokenizer::V3 => V3.get_or_init(|| Model::load(0, V3_DATA, None)),
            ClaudeTokenizer::V4_7 => V4_7.get_or_init(|| Model::load(1, V4_7_DATA, None)),
            ClaudeTokenizer::V4_8 => V4_8.get_or_init(|| Model::load(2, V4_7_DATA, Some(6))),
        }
    }
}

// ---- markers -------------------------------------------------------------------------------

/// The structural markers, one noncharacter glyph each in the marked stream.
const BOW: char = '\u{FDD0}';
const EOW: char = '\u{FDD1}';
const SHIFT: char = '\u{FDD3}';
const CAPS: char = '\u{FDD4}';
/// The glyphs the stream writes (⟨pad⟩ is never in it).
const MARKERS: [char; 4] = [BOW, EOW, SHIFT, CAPS];
/// Text holding a marker glyph itself gets it escaped to private use after NFC (which strips
/// private use), and priced as the glyph it stands for.
const LITERAL_MARKERS: [(char, char); 5] = [
    ('\u{FDD0}', '\u{E000}'),
    ('\u{FDD1}', '\u{E001}'),
    ('\u{FDD2}', '\u{E002}'),
    ('\u{FDD3}', '\u{E003}'),
    ('\u{FDD4}', '\u{E004}'),
];

fn escape_literal_marker(c: char) -> char {
    LITERAL_MARKERS
        .iter()
        .find(|(glyph, _)| *glyph == c)
        .map_or(c, |(_, escape)| *escape)
}

fn unescape_literal_marker(c: char) -> char {
    LITERAL_MARKERS
        .iter()
        .find(|(_, escape)| *escape == c)
        .map_or(c, |(glyph, _)| *glyph)
}

// ---- the loaded model ----------------------------------------------------------------------

/// The shipped data of one generation.
#[derive(Deserialize)]
struct Data {
    message_overhead: u64,
    fold_quotes: bool,
    allcaps_min: Option<usize>,
    pieces: Vec<String>,
    contractions: Vec<String>,
    bytes_fallback: Vec<String>,
}

/// Pieces stored backwards, so the tiling can walk candidate starts right to left. Built
/// through a map, then frozen into one array of edges per node, sorted by character (most
/// nodes have a few children, scanned in place), with the root's ASCII children in a table:
/// the tiling looks up a child at every character of every candidate.
struct ReverseTrie {
    /// Where each node's edges start in `edges` (one more entry than there are nodes).
    offsets: Vec<u32>,
    /// Every node's (character, child) edges, sorted by character within a node.
    edges: Vec<(char, u32)>,
    /// The root's child by ASCII character.
    root_ascii: [Option<u32>; 128],
    /// Whether a node ends a piece.
    terminal: Vec<bool>,
}

impl ReverseTrie {
    fn new<'a>(pieces: impl Iterator<Item = &'a str>) -> ReverseTrie {
        let mut children: FxHashMap<(u32, char), u32> = FxHashMap::default();
        let mut terminal = vec![false];
        for piece in pieces {
            let mut node = 0u32;
            for c in piece.chars().rev() {
                let next = terminal.len() as u32;
                node = *children.entry((node, c)).or_insert(next);
                if node == next {
                    terminal.push(false);
                }
            }
            terminal[node as usize] = true;
        }
        let mut edges: Vec<(u32, char, u32)> = children
            .into_iter()
            .map(|((parent, c), child)| (parent, c, child))
            .collect();
        edges.sort_unstable();
        let mut offsets = vec![0u32; terminal.len() + 1];
        for &(parent, _, _) in &edges {
            offsets[parent as usize + 1] += 1;
        }
        for node in 0..terminal.len() {
            offsets[node + 1] += offsets[node];
        }
        let mut root_ascii = [None; 128];
        for &(parent, c, child) in &edges {
            if parent == 0 && c.is_ascii() {
                root_ascii[c as usize] = Some(child);
            }
        }
        ReverseTrie {
            offsets,
            edges: edges.into_iter().map(|(_, c, child)| (c, child)).collect(),
            root_ascii,
            terminal,
        }
    }

    fn child(&self, node: u32, c: char) -> Option<u32> {
        if node == 0 && c.is_ascii() {
            return self.root_ascii[c as usize];
        }
        let edges = &self.edges
            [self.offsets[node as usize] as usize..self.offsets[node as usize + 1] as usize];
        if edges.len() <= 8 {
            edges.iter().find(|(e, _)| *e == c).map(|&(_, child)| child)
        } else {
            edges
                .binary_search_by_key(&c, |&(e, _)| e)
                .ok()
                .map(|at| edges[at].1)
        }
    }
}

struct Model {
    /// Its generation's place in [`ClaudeTokenizer::ALL`] (which of a thread's caches is its).
    slot: usize,
    message_overhead: u64,
    fold_quotes: bool,
    allcaps_min: Option<usize>,
    /// Whether the frame ends in a ⟨bow⟩ that absorbs one leading space.
    frame_bow: bool,
    trie: ReverseTrie,
    /// Cost-1 whole codepoints of the vocabulary.
    unit_pieces: HashSet<char>,
    /// Byte strings that are one token (partial UTF-8 prefixes, and the unit codepoints).
    byte_tokens: HashSet<Vec<u8>>,
    /// The longest of them, in bytes.
    byte_token_len: usize,
}

impl Model {
    fn load(slot: usize, data: &str, frame_overhead: Option<u64>) -> Model {
        let data: Data = serde_json::from_str(data).expect("the shipped Claude pieces parse");
        let unit_pieces: HashSet<char> = data
            .pieces
            .iter()
            .filter_map(|p| {
                let mut chars = p.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !MARKERS.contains(&c) => Some(c),
                    _ => None,
                }
            })
            .collect();
        let mut byte_tokens: HashSet<Vec<u8>> = data
            .bytes_fallback
            .iter()
            .filter_map(|hex| decode_hex(hex))
            .collect();
        byte_tokens.extend(unit_pieces.iter().map(|c| c.to_string().into_bytes()));
        let byte_token_len = byte_tokens.iter().map(Vec::len).max().unwrap_or(1);
        // The glued contraction spelling (`'s` + ⟨eow⟩) is in the vocabulary too.
        let glued: Vec<String> = data
            .contractions
            .iter()
            .map(|c| format!("{c}{EOW}"))
            .collect();
        let trie = ReverseTrie::new(
            data.pieces
                .iter()
                .map(String::as_str)
                .chain(glued.iter().map(String::as_str)),
        );
        Model {
            slot,
            message_overhead: frame_overhead.unwrap_or(data.message_overhead),
            fold_quotes: data.fold_quotes,
            allcaps_min: data.allcaps_min,
            frame_bow: frame_overhead.is_none(),
            trie,
            unit_pieces,
            byte_tokens,
            byte_token_len,
        }
    }

    /// What one codepoint costs standing alone: 1 when it is a piece, else its bytes tiled.
    fn char_cost(&self, c: char) -> u64 {
        let c = unescape_literal_marker(c);
        if self.unit_pieces.contains(&c) {
            return 1;
        }
        let mut buf = [0u8; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        // Fewest byte tokens: any single byte is one, and so is a known prefix.
        let mut best = vec![u64::MAX; bytes.len() + 1];
        best[0] = 0;
        for end in 1..=bytes.len() {
            for start in end.saturating_sub(self.byte_token_len)..end {
                if best[start] == u64::MAX {
                    continue;
                }
                if end - start == 1 || self.byte_tokens.contains(&bytes[start..end]) {
                    best[end] = best[end].min(best[start] + 1);
                }
            }
        }
        best[bytes.len()]
    }
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

// ---- the tiling ----------------------------------------------------------------------------

/// The fewest tiles of `text` over the vocabulary, where a character no piece starts costs
/// `unit_cost(position)`.
fn min_vocab_tile(text: &[char], trie: &ReverseTrie, unit_cost: impl Fn(usize) -> u64) -> u64 {
    let mut best = vec![0u64; text.len() + 1];
    for end in 1..=text.len() {
        let start = end - 1;
        let node = trie.child(0, text[start]);
        best[end] = best[start]
            + match node {
                Some(n) if trie.terminal[n as usize] => 1,
                _ => unit_cost(start),
            };
        let Some(mut node) = node else { continue };
        for start in (0..end - 1).rev() {
            match trie.child(node, text[start]) {
                None => break,
                Some(next) => {
                    node = next;
                    if trie.terminal[node as usize] {
                        best[end] = best[end].min(best[start] + 1);
                    }
                }
            }
        }
    }
    best[text.len()]
}

/// What a content-final run of `n` newlines costs beyond the frame's own trailing token.
fn frame_tail(n: usize, model: &Model) -> u64 {
    if n == 0 {
        return 0;
    }
    let run: Vec<char> = vec!['\n'; n + 2];
    min_vocab_tile(&run, &model.trie, |_| 1) - 1
}

/// The tokens of `text`'s content (the frame's overhead aside), a piece of `sizes` at a time:
/// each piece is normalised and marked alone (only the first opens the message, only the last
/// ends it), and the pieces' streams are seamed as one.
fn tile(text: &str, model: &Model, sizes: Sizes) -> u64 {
    let mut seams = Seams::default();
    let mut tokens = 0;
    for piece in pieces(text, sizes, |_, _| true) {
        #[cfg(test)]
        super::pieces::longest_read::note(piece.text.len());
        let norm = nfc(piece.text, model.fold_quotes);
        let head = match piece.start {
            Start::Text => Head::Message {
                raw_space: piece.text.starts_with(' '),
            },
            Start::Word { .. } | Start::Forced => Head::Continued,
        };
        let stream = stream_norm(&norm, model, head, piece.last);
        tokens += tile_stream(&mut seams, &stream, model);
        if piece.last {
            tokens += frame_tail(norm.len() - norm.trim_end_matches('\n').len(), model);
        }
    }
    tokens
}

/// What comes before a piece of the marked stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Head {
    /// The message's frame (the text's first piece): it gives a ⟨bow⟩ to a text that does not
    /// open with its own, and absorbs one leading space of the raw text (`raw_space`).
    Message {
        /// Whether the raw text opens with a space.
        raw_space: bool,
    },
    /// The piece before, which ended at a word start.
    Continued,
}

/// The most short segments a thread remembers the cost of, per generation, before it forgets
/// them all (a few megabytes).
const SEGMENT_CACHE_ENTRIES: usize = 1 << 17;

/// The most longer segments a thread remembers, per generation: they are few and seldom
/// repeat, so a small table keeps the memory of many threads low.
const LONG_SEGMENT_CACHE_ENTRIES: usize = 1 << 14;

/// The longest segment, in bytes, kept in place as a cache key.
const SHORT_SEGMENT: usize = 31;

/// The longest segment, in bytes, remembered at all: a longer one (a long run with no word
/// end) seldom repeats, and the table's memory stays bounded.
const LONGEST_REMEMBERED_SEGMENT: usize = 1024;

/// A segment of at most [`SHORT_SEGMENT`] bytes as a key: its bytes, zero-padded, and its
/// length (one flat key: no pointer to follow when it is compared). Only its own bytes are
/// hashed, not the padding.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ShortSegment([u8; SHORT_SEGMENT], u8);

impl std::hash::Hash for ShortSegment {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(&self.0[..usize::from(self.1)]);
    }
}

/// What a thread remembers of one generation's segments: their fewest tiles.
#[derive(Default)]
struct SegmentCosts {
    /// Segments of at most [`SHORT_SEGMENT`] bytes (nearly all).
    short: FxHashMap<ShortSegment, u64>,
    /// The longer ones.
    long: FxHashMap<Box<str>, u64>,
}

impl SegmentCosts {
    /// The fewest tiles of `segment`, remembered or tiled now (and remembered).
    fn cost(&mut self, segment: &str, model: &Model) -> u64 {
        if segment.len() <= SHORT_SEGMENT {
            let mut key = ShortSegment([0u8; SHORT_SEGMENT], segment.len() as u8);
            key.0[..segment.len()].copy_from_slice(segment.as_bytes());
            if let Some(&cost) = self.short.get(&key) {
                return cost;
            }
            let cost = tile_segment(segment, model);
            if self.short.len() >= SEGMENT_CACHE_ENTRIES {
                self.short.clear();
            }
            self.short.insert(key, cost);
            return cost;
        }
        if segment.len() > LONGEST_REMEMBERED_SEGMENT {
            return tile_segment(segment, model);
        }
        if let Some(&cost) = self.long.get(segment) {
            return cost;
        }
        let cost = tile_segment(segment, model);
        if self.long.len() >= LONG_SEGMENT_CACHE_ENTRIES {
            self.long.clear();
        }
        self.long.insert(segment.into(), cost);
        cost
    }
}

thread_local! {
    /// Each generation's remembered segments (by [`Model::slot`]), on this thread.
    static SEGMENT_COSTS: RefCell<[SegmentCosts; 3]> = RefCell::default();
}

/// The fewest tiles of a marked stream: the sum over its segments, each ending after an
/// ⟨eow⟩. No piece holds ⟨eow⟩ but as its last character (a test holds the shipped lists to
/// it), so no tile crosses the end of a segment, and a segment costs the same wherever it
/// stands: each is tiled once per thread and remembered (tool texts repeat their words).
///
/// `seams` carries the seam from the stream's pieces before (a piece that ends at a word start
/// ends its stream with an ⟨eow⟩, so its segments are whole).
fn tile_stream(seams: &mut Seams, stream: &str, model: &Model) -> u64 {
    SEGMENT_COSTS.with(|costs| {
        let costs = &mut costs.borrow_mut()[model.slot];
        seams
            .segments(stream)
            .map(|segment| costs.cost(segment, model))
            .sum()
    })
}

/// The seams of a marked stream, `x⟨eow⟩ [case markers]⟨bow⟩` -> `x⟨eow⟩[case markers]⟨bow⟩`
/// (a single space between two marked spans is the seam, not a character; one left-to-right
/// pass, as a regex substitution, where `x` is any character but a line break), made while
/// the stream is cut into segments after each ⟨eow⟩: a seam only drops the space that opens
/// a segment. What a seam depends on is kept from one piece of a stream to the next.
#[derive(Debug, Default)]
struct Seams {
    /// The character before the last ⟨eow⟩ so far, when there is one no seam has taken.
    before_eow: Option<char>,
    /// Whether a segment was made.
    started: bool,
}

impl Seams {
    /// The segments of the next piece of the stream, seamed.
    fn segments<'a, 's: 'a>(&'a mut self, stream: &'s str) -> impl Iterator<Item = &'s str> + 'a {
        stream
            .split_inclusive(EOW)
            .map(move |segment| self.seam(segment))
    }

    /// One segment, seamed to the one before.
    fn seam<'s>(&mut self, segment: &'s str) -> &'s str {
        let seamed = segment.strip_prefix(' ').filter(|rest| {
            self.before_eow.is_some_and(|c| c != '\n')
                && rest.trim_start_matches(is_case_marker).starts_with(BOW)
        });
        let kept = seamed.unwrap_or(segment);
        let body = kept.strip_suffix(EOW).unwrap_or(kept);
        self.before_eow =
            if seamed.is_some() && body.trim_start_matches(is_case_marker).chars().eq([BOW]) {
                // The seam took the text up to that ⟨bow⟩: it cannot start the next.
                None
            } else if !self.started && body.is_empty() {
                None
            } else {
                // An ⟨eow⟩ alone follows the ⟨eow⟩ that ended the segment before.
                body.chars().next_back().or(Some(EOW))
            };
        self.started = true;
        kept
    }
}

fn is_case_marker(c: char) -> bool {
    c == SHIFT || c == CAPS
}

/// The fewest tiles of one stretch of a marked stream.
fn tile_segment(segment: &str, model: &Model) -> u64 {
    let chars: Vec<char> = segment.chars().collect();
    let unit = |at: usize| {
        let c = chars[at];
        if MARKERS.contains(&c) {
            1
        } else {
            model.char_cost(c)
        }
    };
    min_vocab_tile(&chars, &model.trie, unit)
}

// ---- normalisation -------------------------------------------------------------------------

/// NFC, the control characters the API strips, the folds and the spaces it treats as U+0020,
/// in ctok's order. Printable ASCII, tabs and line feeds (most tool text) pass as they are.
fn nfc(text: &str, fold_quotes: bool) -> Cow<'_, str> {
    if text
        .bytes()
        .all(|b| matches!(b, b'\t' | b'\n' | 0x20..=0x7E))
    {
        return Cow::Borrowed(text);
    }
    let stripped = if is_nfc_quick(text.chars()) == IsNormalized::Yes {
        strip_controls(text.chars())
    } else {
        strip_controls(text.nfc())
    };
    // Decomposed Thai SARA AM composes; then BMP private use is stripped.
    let folded = stripped
        .replace("\u{0E4D}\u{0E32}", "\u{0E33}")
        .chars()
        .filter(|&c| !('\u{E000}'..='\u{F8FF}').contains(&c))
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' if fold_quotes => '\'',
            '\u{201C}' | '\u{201D}' if fold_quotes => '"',
            '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}' => ' ',
            other => other,
        })
        .collect();
    Cow::Owned(folded)
}

/// C0/C1 controls but TAB, LF and NUL are stripped; NUL reads as a space.
fn strip_controls(chars: impl Iterator<Item = char>) -> String {
    chars
        .filter(|&c| !matches!(c as u32, 0x01..=0x08 | 0x0B..=0x1F | 0x7F | 0x80..=0x9F))
        .map(|c| if c == '\u{0}' { ' ' } else { c })
        .collect()
}

// ---- character classes ---------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Wordy,
    Hard,
    Digit,
    Punct,
    Space,
    /// An unattached combining mark opening a word-like run.
    StrayMark,
}

/// Non-ASCII symbols that tile over the punctuation vocabulary (measured, enumerated).
const PUNCT_SYMS: &str = "—»«•°„–−£§€…√→（№†└│།·─═█";
/// Symbols of the CJK punctuation block that read markerless (measured).
const IDEOGRAPHIC_SYMBOLS: &str = "〄〒〓〠〶〷〾〿";
/// Blocks of symbol-letters that take the full word model (measured).
const SYMBOL_LETTERS: [(u32, u32); 4] = [
    (0x16EE, 0x16F0),
    (0x2160, 0x2188),
    (0x24B6, 0x24E9),
    (0xA6E6, 0xA6EF),
];
/// Case pairs of Unicode 16.0 the models know.
const NEW_CASE_PAIRS: [(char, char); 2] = [('\u{1C89}', '\u{1C8A}'), ('\u{A7CB}', '\u{0264}')];
/// Suffixes an apostrophe binds into the word before it.
const CONTRACTION_SUFFIXES: [&str; 7] = ["s", "t", "d", "m", "ll", "re", "ve"];

/// The first letter of a general category's abbreviation (`L`, `M`, `N`, `P`, `S`, `Z`, `C`).
fn major(c: char) -> char {
    category(c).chars().next().unwrap_or('C')
}

/// The two-letter general category, as Python's `unicodedata.category` names it (ASCII's from
/// a table made of [`category_of`] once).
fn category(c: char) -> &'static str {
    static ASCII: OnceLock<[&str; 128]> = OnceLock::new();
    if c.is_ascii() {
        let table = ASCII.get_or_init(|| std::array::from_fn(|b| category_of(char::from(b as u8))));
        return table[c as usize];
    }
    category_of(c)
}

/// The two-letter general category of any character, from the Unicode tables.
fn category_of(c: char) -> &'static str {
    use GeneralCategory as G;
    match get_general_category(c) {
        G::UppercaseLetter => "Lu",
        G::LowercaseLetter => "Ll",
        G::TitlecaseLetter => "Lt",
        G::ModifierLetter => "Lm",
        G::OtherLetter => "Lo",
        G::NonspacingMark => "Mn",
        G::SpacingMark => "Mc",
        G::EnclosingMark => "Me",
        G::DecimalNumber => "Nd",
        G::LetterNumber => "Nl",
        G::OtherNumber => "No",
        G::ConnectorPunctuation => "Pc",
        G::DashPunctuation => "Pd",
        G::OpenPunctuation => "Ps",
        G::ClosePunctuation => "Pe",
        G::InitialPunctuation => "Pi",
        G::FinalPunctuation => "Pf",
        G::OtherPunctuation => "Po",
        G::MathSymbol => "Sm",
        G::CurrencySymbol => "Sc",
        G::ModifierSymbol => "Sk",
        G::OtherSymbol => "So",
        G::SpaceSeparator => "Zs",
        G::LineSeparator => "Zl",
        G::ParagraphSeparator => "Zp",
        G::Control => "Cc",
        G::Format => "Cf",
        G::Surrogate => "Cs",
        G::PrivateUse => "Co",
        G::Unassigned => "Cn",
        // A category a later Unicode adds: read as unassigned.
        _ => "Cn",
    }
}

fn is_mark(c: char) -> bool {
    major(c) == 'M'
}

fn is_new_cased(c: char) -> bool {
    NEW_CASE_PAIRS.iter().any(|(a, b)| *a == c || *b == c)
}

/// Lower case one character as the models do (Python's `str.lower` of one character).
fn lower_char(c: char, out: &mut String) {
    if c == '\u{03F4}' {
        out.push(c);
    } else if let Some((_, lower)) = NEW_CASE_PAIRS.iter().find(|(upper, _)| *upper == c) {
        out.push(*lower);
    } else {
        out.extend(c.to_lowercase());
    }
}

fn lower(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        lower_char(c, &mut out);
    }
    out
}

/// Whether [`lower_char`] leaves `c` as it is.
fn lowers_to_itself(c: char) -> bool {
    if c.is_ascii() {
        return !c.is_ascii_uppercase();
    }
    if c == '\u{03F4}' {
        return true;
    }
    if NEW_CASE_PAIRS.iter().any(|(upper, _)| *upper == c) {
        return false;
    }
    let mut lowered = c.to_lowercase();
    lowered.next() == Some(c) && lowered.next().is_none()
}

fn is_upper(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_uppercase();
    }
    if c == '\u{03F4}' {
        return false;
    }
    NEW_CASE_PAIRS.iter().any(|(upper, _)| *upper == c)
        || (c.is_uppercase() && !lowers_to_itself(c))
}

fn is_lower(c: char) -> bool {
    NEW_CASE_PAIRS.iter().any(|(_, lower)| *lower == c) || c.is_lowercase()
}

fn span_is_upper(text: &str) -> bool {
    let mut any = false;
    for c in text.chars().filter(|&c| is_upper(c) || is_lower(c)) {
        if !is_upper(c) {
            return false;
        }
        any = true;
    }
    any
}

fn is_hard_code(o: u32) -> bool {
    o >= 0x10000
        || (0x4E00..=0x9FFF).contains(&o)
        || (0x3400..=0x4DBF).contains(&o)
        || (0xF900..=0xFAFF).contains(&o)
        || (0xAC00..=0xD7A3).contains(&o)
        || matches!(
            o,
            0x3005 | 0x3006 | 0x3031 | 0x3032 | 0x3033 | 0x3034 | 0x3035 | 0x303B | 0x303C
        )
}

fn is_selector(c: char) -> bool {
    (0xFE00..=0xFE0F).contains(&(c as u32))
}

/// The class of a character (ASCII's from a table made of [`classify_any`] once).
fn classify(c: char) -> Class {
    static ASCII: OnceLock<[Class; 128]> = OnceLock::new();
    if c.is_ascii() {
        let table =
            ASCII.get_or_init(|| std::array::from_fn(|b| classify_any(char::from(b as u8))));
        return table[c as usize];
    }
    classify_any(c)
}

/// The class of any character, from its category and the measured exceptions.
fn classify_any(c: char) -> Class {
    if is_new_cased(c) {
        return Class::Wordy;
    }
    let o = c as u32;
    let cat = category(c);
    let major = major(c);
    if major == 'Z' || "\t\n\r\u{c}\u{b}".contains(c) {
        return Class::Space;
    }
    if SYMBOL_LETTERS
        .iter()
        .any(|(lo, hi)| (*lo..=*hi).contains(&o))
    {
        return Class::Wordy;
    }
    if cat == "Nd" && (o < 0x80 || (0x0660..=0x0669).contains(&o) || (0x06F0..=0x06F9).contains(&o))
    {
        return Class::Digit;
    }
    if o < 0x80 && (major == 'P' || major == 'S') {
        return Class::Punct;
    }
    if PUNCT_SYMS.contains(c) {
        return Class::Punct;
    }
    if is_selector(c) {
        return Class::Hard;
    }
    if is_mark(c) {
        return if o < 0x10000 && c.is_alphabetic() {
            Class::Wordy
        } else {
            Class::Hard
        };
    }
    if major == 'L' && !is_hard_code(o) {
        return Class::Wordy;
    }
    Class::Hard
}

/// A cased span as the tiler reads it: ⟨caps⟩ or ⟨shift⟩ and the lowered text, or the span
/// with no marker.
fn mark_case(
    span: &str,
    allcaps_min: Option<usize>,
    head_mark: bool,
) -> (Option<char>, Cow<'_, str>) {
    let unmarked = (None, Cow::Borrowed(span));
    let ascii = span.is_ascii();
    if head_mark || (!ascii && span.contains('ẞ')) {
        return unmarked;
    }
    let mut chars = span.chars();
    let head = chars.next().unwrap_or(' ');
    let rest = chars.as_str();
    if !ascii && span.contains('İ') {
        if is_upper(head) && head != 'İ' && !rest.chars().any(|c| c != 'İ' && is_upper(c)) {
            let mut out = String::with_capacity(span.len());
            lower_char(head, &mut out);
            for c in rest.chars() {
                if c == 'İ' {
                    out.push(c);
                } else {
                    lower_char(c, &mut out);
                }
            }
            return (Some(SHIFT), Cow::Owned(out));
        }
        return unmarked;
    }
    if let Some(min) = allcaps_min {
        if span_is_upper(span) && span.chars().count() >= min && !unlowerable(span) {
            return (Some(CAPS), Cow::Owned(lower(span).replace('ς', "σ")));
        }
    }
    if lowers_to_itself(head) {
        return unmarked;
    }
    if is_upper(head) && !rest.chars().any(is_upper) {
        return (Some(SHIFT), Cow::Owned(lower(span)));
    }
    unmarked
}

/// Whether a span holds a letter or mark that is neither lower case nor lowers.
fn unlowerable(span: &str) -> bool {
    span.chars().any(|c| {
        (is_new_cased(c) || matches!(major(c), 'L' | 'M'))
            && !is_lower(c)
            && (!is_upper(c) || lowers_to_itself(c))
    })
}

// ---- the marked stream ---------------------------------------------------------------------

fn is_separator(c: char) -> bool {
    (c as u32) < 0x10000 && is_mark(c) && !is_selector(c) && !c.is_alphabetic()
}

fn syriac_vowel(c: char) -> bool {
    let o = c as u32;
    o == 0x0711 || (0x0730..=0x073F).contains(&o)
}

fn stray_mark(c: char) -> bool {
    if c.is_ascii() || syriac_vowel(c) {
        return false;
    }
    canonical_combining_class(c) != 0 && !is_separator(c)
}

fn marks_like_punct(c: char) -> bool {
    let c = unescape_literal_marker(c);
    let o = c as u32;
    if o >= 0x10000 {
        return false;
    }
    if is_separator(c) {
        return true;
    }
    let cat = category(c);
    let ideographic_punct =
        (0x3001..=0x303F).contains(&o) && (cat.starts_with('P') || IDEOGRAPHIC_SYMBOLS.contains(c));
    (matches!(major(c), 'P' | 'S') || cat == "Cf" || cat == "Cn") && !ideographic_punct
}

fn digit_border(c: char) -> bool {
    let cat = category(c);
    (cat == "No" || (cat == "Nd" && !c.is_ascii())) && (c as u32) < 0x10000
}

fn digit_run(body: &str) -> bool {
    let mut chars = body.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let cat = category(first);
    (cat == "Nd" || cat == "No") && chars.all(|c| category(c) == cat)
}

fn digit_bow(body: &str) -> bool {
    digit_run(body) && body.chars().next().is_some_and(digit_border)
}

fn digit_eow(body: &str) -> bool {
    digit_run(body) && body.chars().next_back().is_some_and(digit_border)
}

fn hard_bow(body: &str) -> bool {
    body.chars()
        .next()
        .is_some_and(|c| is_selector(c) || marks_like_punct(c))
}

fn hard_eow(body: &str) -> bool {
    body.chars()
        .next_back()
        .is_some_and(|c| is_selector(c) || marks_like_punct(c))
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum HardKind {
    Punct,
    Number,
    Letter,
}

fn hard_kind(c: char) -> HardKind {
    if marks_like_punct(c) {
        HardKind::Punct
    } else if digit_border(c) {
        HardKind::Number
    } else {
        HardKind::Letter
    }
}

/// Maximal runs of one class, HARD runs split where the kind of character changes.
fn runs(norm: &str) -> Vec<(Class, &str)> {
    let mut chars = norm.char_indices();
    let Some((_, first)) = chars.next() else {
        return Vec::new();
    };
    let mut out: Vec<(Class, &str)> = Vec::new();
    let mut start = 0;
    let mut class = classify(first);
    if class == Class::Wordy && stray_mark(first) {
        class = Class::StrayMark;
    }
    for (at, c) in chars {
        let next = classify(c);
        // Consecutive unattached marks are one run, like any run of one class.
        if next == class || (class == Class::StrayMark && next == Class::Wordy && stray_mark(c)) {
            continue;
        }
        out.push((class, &norm[start..at]));
        start = at;
        class = if next == Class::Wordy && stray_mark(c) && class != Class::Wordy {
            Class::StrayMark
        } else {
            next
        };
    }
    out.push((class, &norm[start..]));
    let mut split = Vec::with_capacity(out.len());
    for (class, body) in out {
        if class != Class::Hard || body.chars().count() == 1 {
            split.push((class, body));
            continue;
        }
        let mut chars = body.char_indices();
        let Some((_, first)) = chars.next() else {
            continue;
        };
        let mut start = 0;
        let mut kind = hard_kind(first);
        for (at, c) in chars {
            if !(is_selector(c) || hard_kind(c) == kind) {
                split.push((class, &body[start..at]));
                start = at;
                kind = hard_kind(c);
            }
        }
        split.push((class, &body[start..]));
    }
    split
}

fn opens_word(runs: &[(Class, &str)], i: usize) -> bool {
    runs[i].1 == "'"
        && runs
            .get(i + 1)
            .is_some_and(|(class, _)| matches!(class, Class::Wordy | Class::StrayMark))
}

fn takes_right_border(class: Class, body: &str) -> bool {
    class == Class::Punct
        || hard_eow(body)
        || (matches!(class, Class::Digit | Class::Hard) && digit_run(body) && digit_eow(body))
}

fn contraction_seam(runs: &[(Class, &str)], i: usize) -> bool {
    if !CONTRACTION_SUFFIXES.contains(&runs[i].1) || i == 0 {
        return false;
    }
    let (class, body) = runs[i - 1];
    if class != Class::Punct || body != "'" {
        return false;
    }
    i < 2 || !takes_right_border(runs[i - 2].0, runs[i - 2].1)
}

/// Normalised text (or a piece of it, after `head`; `last` when it ends the text) as the
/// marked stream the tiler reads, before its seams ([`Seams`]).
fn stream_norm(norm: &str, model: &Model, head: Head, last: bool) -> String {
    let escaped: Cow<str> = if norm.chars().any(|c| escape_literal_marker(c) != c) {
        Cow::Owned(norm.chars().map(escape_literal_marker).collect())
    } else {
        Cow::Borrowed(norm)
    };
    let mut norm: &str = &escaped;
    if last {
        norm = norm.trim_end_matches('\n');
    }
    let frame_bow = model.frame_bow && head != Head::Continued;
    let raw_head_space = matches!(head, Head::Message { raw_space: true });
    if frame_bow && raw_head_space && norm.starts_with(' ') && !norm.starts_with("  ") {
        norm = &norm[1..];
    }
    let runs = runs(norm);
    if runs.is_empty() {
        return if frame_bow {
            BOW.to_string()
        } else {
            String::new()
        };
    }
    let n_runs = runs.len();
    let borders_space = |i: usize, side: isize| -> bool {
        let j = i as isize + side;
        if j < 0 {
            return frame_bow;
        }
        let Some((class, body)) = runs.get(j as usize) else {
            return false;
        };
        if *class != Class::Space {
            return false;
        }
        if side < 0 {
            body.ends_with(' ')
        } else {
            body.starts_with(' ') && !body.starts_with("  ")
        }
    };
    let (first_class, first_body) = (&runs[0].0, runs[0].1);
    let head_quote = opens_word(&runs, 0);
    let has_own_bow = !head_quote
        && (matches!(first_class, Class::Wordy | Class::Punct | Class::StrayMark)
            || hard_bow(first_body)
            || (matches!(first_class, Class::Digit | Class::Hard) && digit_bow(first_body))
            || (*first_class == Class::Space && first_body.starts_with(' ')));
    let mut out = String::with_capacity(norm.len() * 2);
    if !has_own_bow && frame_bow {
        out.push(if head_quote { ' ' } else { BOW });
    }
    for (i, (class, body)) in runs.iter().enumerate() {
        match class {
            Class::Wordy => {
                let fused = i > 0 && runs[i - 1].0 == Class::StrayMark;
                let (marker, rest) = mark_case(body, model.allcaps_min, fused);
                out.extend(marker);
                if !(fused || contraction_seam(&runs, i)) {
                    out.push(BOW);
                }
                out.push_str(&rest);
                out.push(EOW);
            }
            Class::StrayMark => {
                out.push(BOW);
                out.push_str(body);
                let letter_follows = i + 1 < n_runs && runs[i + 1].0 == Class::Wordy;
                if !letter_follows {
                    out.push(EOW);
                }
            }
            _ if *class == Class::Punct || hard_bow(body) || hard_eow(body) => {
                let takes_bow = borders_space(i, -1)
                    && !opens_word(&runs, i)
                    && (*class == Class::Punct || hard_bow(body));
                if takes_bow {
                    out.push(BOW);
                }
                out.push_str(body);
                if borders_space(i, 1) && (*class == Class::Punct || hard_eow(body)) {
                    out.push(EOW);
                }
            }
            Class::Digit | Class::Hard if digit_run(body) => {
                if digit_bow(body) && borders_space(i, -1) {
                    out.push(BOW);
                }
                out.push_str(body);
                if digit_eow(body) && borders_space(i, 1) {
                    out.push(EOW);
                }
            }
            _ => out.push_str(body),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_known_texts() {
        // As ctok 1.3.0 counts them (`ctok.token_count(text, version)`).
        let text = "Take a screenshot of the page or element.";
        assert_eq!(ClaudeTokenizer::V3.count(text), 16);
        assert_eq!(ClaudeTokenizer::V4_7.count(text), 24);
        assert_eq!(ClaudeTokenizer::V3.count("hello world"), 9);
    }

    #[test]
    fn counts_in_pieces_are_the_whole_text_s_counts() {
        use crate::tokenizers::test_texts::{long_texts, texts};
        let texts = texts();
        for generation in ClaudeTokenizer::ALL {
            for text in &texts {
                assert_eq!(
                    generation.count_in(text, Sizes::EVERY_WORD),
                    generation.count_in(text, Sizes::WHOLE),
                    "{}: {text:?}",
                    generation.name()
                );
            }
            for text in long_texts() {
                let whole = generation.count_in(&text, Sizes::WHOLE);
                assert_eq!(generation.count(&text), whole, "{}", generation.name());
                assert_eq!(generation.count_in(&text, Sizes::EVERY_WORD), whole);
            }
        }
    }

    #[test]
    fn a_text_cut_where_it_must_be_counts_close_to_whole() {
        use crate::tokenizers::test_texts::unbroken_texts;
        for generation in ClaudeTokenizer::ALL {
            for text in unbroken_texts() {
                let whole = generation.count_in(&text, Sizes::WHOLE);
                let cut = generation.count(&text);
                let cuts = pieces(&text, Sizes::COUNTING, |_, _| true).count() as u64;
                assert!(whole.abs_diff(cut) <= 4 * cuts, "{whole} {cut} {cuts}");
            }
        }
    }

    #[test]
    fn no_piece_holds_eow_but_at_its_end() {
        // `tile_stream` tiles the stretches between ⟨eow⟩s apart: a piece with ⟨eow⟩ inside
        // would cross from one into the next, and the counts would be wrong.
        for data in [
            include_str!("claude/v3.json"),
            include_str!("claude/v4_7.json"),
        ] {
            let data: Data = serde_json::from_str(data).unwrap();
            for piece in &data.pieces {
                let body = piece.strip_suffix(EOW).unwrap_or(piece);
                assert!(!body.contains(EOW), "{piece:?}");
            }
            for contraction in &data.contractions {
                assert!(!contraction.contains(EOW), "{contraction:?}");
            }
        }
    }

    #[test]
    fn segments_cost_what_the_whole_stream_costs() {
        let text = "Take a screenshot of the page, or the ELEMENT's \"box\"  (2 times).\n";
        for generation in ClaudeTokenizer::ALL {
            let model = generation.model();
            let head = Head::Message { raw_space: false };
            let stream = stream_norm(&nfc(text, model.fold_quotes), model, head, true);
            let whole = tile_segment(&seam_by_chars(&stream), model);
            // Twice: the second time from the thread's cache.
            assert_eq!(tile_stream(&mut Seams::default(), &stream, model), whole);
            assert_eq!(tile_stream(&mut Seams::default(), &stream, model), whole);
        }
    }

    /// The seamed segments of a whole stream.
    fn seamed_segments(stream: &str) -> Vec<&str> {
        Seams::default().segments(stream).collect()
    }

    /// The seam as its pattern reads, character by character.
    fn seam_by_chars(stream: &str) -> String {
        let chars: Vec<char> = stream.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            if i + 2 < chars.len() && chars[i] != '\n' && chars[i + 1] == EOW && chars[i + 2] == ' '
            {
                let mut j = i + 3;
                while j < chars.len() && (chars[j] == SHIFT || chars[j] == CAPS) {
                    j += 1;
                }
                if j < chars.len() && chars[j] == BOW {
                    out.push(chars[i]);
                    out.push(EOW);
                    out.extend(&chars[i + 3..=j]);
                    i = j + 1;
                    continue;
                }
            }
            out.push(chars[i]);
            i += 1;
        }
        out
    }

    #[test]
    fn seamed_segments_follow_the_pattern_on_every_short_stream() {
        // Seven characters: long enough for a seam whose ⟨bow⟩ a second one would need.
        let alphabet = ['a', '\n', ' ', EOW, BOW, SHIFT];
        let mut streams = vec![String::new()];
        for _ in 0..7 {
            streams = streams
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            for stream in &streams {
                let seamed = seam_by_chars(stream);
                let segments = seamed_segments(stream);
                assert_eq!(
                    segments,
                    seamed.split_inclusive(EOW).collect::<Vec<_>>(),
                    "{stream:?}"
                );
            }
        }
    }

    #[test]
    fn the_seam_joins_two_words() {
        let seam = |s: &str| seamed_segments(s).concat();
        let s = format!("a{EOW} {SHIFT}{BOW}b{EOW}");
        assert_eq!(seam(&s), format!("a{EOW}{SHIFT}{BOW}b{EOW}"));
        let kept = format!("a{EOW}  {BOW}b");
        assert_eq!(seam(&kept), kept);
        let caps = format!("a{EOW} {CAPS}{SHIFT}{BOW}b");
        assert_eq!(seam(&caps), format!("a{EOW}{CAPS}{SHIFT}{BOW}b"));
        // The first seam takes the ⟨bow⟩ the second would start from.
        let taken = format!("a{EOW} {BOW}{EOW} {BOW}b");
        assert_eq!(seam(&taken), format!("a{EOW}{BOW}{EOW} {BOW}b"));
    }
}
