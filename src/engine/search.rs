//! The catalog search (ENGINE.md §6, ENGINE-2026-09.md §4): search text, tokens (stemmed by
//! releases from 0.20.6), BM25 with k1 = 1.5 and b = 0.75, each profile's admission rule, and the
//! limit rule.
//!
//! The index keeps, per term, its documents and each one's BM25 weight, computed once per
//! catalog, the term's largest weight and its documents by weight; and, per document, its
//! terms, so a document's weight for a term is a short lookup. A query of one term walks
//! that term's documents heaviest first. A longer query is ranked with MaxScore-style
//! pruning: the terms that can still make a document win (under the rarest-word gate, the gate)
//! name the candidates, their weights are added up over the postings, and candidates are
//! scored in full, highest bound first, until no bound left can beat the worst of the best
//! `limit` kept. The pruning is exact: a skipped document's score is strictly lower, or equal
//! and later in the catalog. Scores are the sums Hermes computes, token by token in query
//! order, so they are the same to the last bit whatever the pruning skipped.
//!
//! Ties (tools that share a description tie on nearly every query) cost no more than the few
//! documents that win them: a term whose documents can at best tie the worst kept stays light
//! once the few earlier in the catalog are scored, and candidates that no bound tells apart are
//! scored by adding up every term's postings once sifting them one by one costs more. Each
//! search counts its work ([`SearchWork`]), so tests can hold it to a growth rate rather than
//! a clock.

use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::{Arc, OnceLock};

use super::config::{Scalar, ToolSearchSettings};
use super::profile::{Admission, SearchRules};

/// BM25 term-frequency saturation.
pub const K1: f64 = 1.5;
/// BM25 length normalisation.
pub const B: f64 = 0.75;
/// The score of every substring-fallback hit (seed).
pub const FALLBACK_SCORE: f64 = 0.1;

/// BM25's inverse document frequency of a term in `df` of `n` documents.
pub fn idf(n: f64, df: f64) -> f64 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// BM25's weight of a term with inverse document frequency `idf`, found `tf` times in a
/// document of `dl` tokens, in a catalog of mean length `avgdl`. Written as Hermes writes it,
/// so the sums are the same to the last bit.
pub fn term_weight(idf: f64, tf: f64, dl: f64, avgdl: f64) -> f64 {
    idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * dl / avgdl.max(1.0)))
}

/// Maximal runs of ASCII `[A-Za-z0-9]` in `text`, as written.
pub fn raw_tokens(text: &str) -> impl Iterator<Item = &str> + '_ {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
}

/// The search tokens of `text` under `rules`: ASCII alphanumeric runs, lowercased, and
/// stemmed (Snowball English) when the profile stems.
pub fn tokens<'a>(text: &'a str, rules: &SearchRules) -> impl Iterator<Item = String> + 'a {
    let stem = rules.stem;
    raw_tokens(text).map(move |token| term_of(token.to_ascii_lowercase(), stem))
}

/// The term of a lowercase word: its stem when the profile stems, else the word itself.
fn term_of(lower: String, stem: bool) -> String {
    if stem {
        stem_word(&lower)
    } else {
        lower
    }
}

/// The Snowball English (Porter2) stem of a lowercase word, as Snowball 3.1 gives it.
pub fn stem_word(word: &str) -> String {
    thread_local! {
        static STEMMER: snowstem::Stemmer = snowstem::Stemmer::create(snowstem::Algorithm::English);
    }
    STEMMER.with(|stemmer| stemmer.stem(word).into_owned())
}

/// The pieces of a tool's search text, in order, under `rules`: its name words (`_ . - :` as
/// separators; releases naming `mcp__S__T` drop `mcp__` first), its server label when the profile
/// indexes it and the name lacks it as a word, its description, its top-level parameter names.
pub fn search_text<'a>(
    rules: &SearchRules,
    name: &'a str,
    label: &'a str,
    description: &'a str,
    parameter_names: impl Iterator<Item = &'a str> + 'a,
) -> impl Iterator<Item = &'a str> + 'a {
    let name = rules
        .drop_name_prefix
        .and_then(|prefix| name.strip_prefix(prefix))
        .unwrap_or(name);
    let separators = |c: char| matches!(c, '_' | '.' | '-' | ':') || c.is_whitespace();
    let label = (rules.label_in_text
        && !label.is_empty()
        && !name.split(separators).any(|word| word == label))
    .then_some(label);
    std::iter::once(name)
        .chain(label)
        .chain(std::iter::once(description))
        .chain(parameter_names)
}

/// The limit of a search: absent/null -> `search_default_limit`; otherwise the integer rule
/// (fallback `search_default_limit`), clamped to [1, max_search_limit].
pub fn resolve_limit(raw: &Scalar<'_>, settings: &ToolSearchSettings) -> usize {
    let default = i128::from(settings.search_default_limit);
    let max = i128::from(settings.max_search_limit);
    let value = match raw {
        Scalar::Null => default,
        _ => raw.to_integer().unwrap_or(default),
    };
    value.clamp(1, max.max(1)) as usize
}

/// How a search found its hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// BM25 admitted at least one document.
    Bm25,
    /// The tool named by the whole query leads (releases from 0.20.6).
    Exact,
    /// Nothing scored; the query matched tool names as a substring (seed).
    Substring,
    /// Nothing found.
    None,
}

impl Via {
    /// `bm25`, `exact`, `substring` or `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Bm25 => "bm25",
            Via::Exact => "exact",
            Via::Substring => "substring",
            Via::None => "none",
        }
    }
}

/// One ranked hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Position in the catalog the index was built from.
    pub doc: usize,
    /// BM25 score, 0.1 for a substring hit, infinite for an exact-name hit.
    pub score: f64,
    /// Whether the tool's name is the whole query.
    pub exact_name: bool,
    /// The distinct query words whose tokens the document holds, in query order.
    pub matched_terms: Vec<String>,
}

/// The rarest-word gate's admission rule for one query (releases from 0.21.3).
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The query word whose token is the rarest: every hit must hold it.
    pub word: String,
    /// Its search token (stemmed).
    pub token: String,
    /// Documents holding it (0: the query admits nothing but an exact name).
    pub document_frequency: usize,
    /// Distinct query tokens found in at least one document.
    pub answerable: usize,
    /// How many of those a document must hold.
    pub required: usize,
}

/// A search's result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// Which rule produced the hits.
    pub via: Via,
    /// Hits, best first, cut to the limit.
    pub hits: Vec<Hit>,
    /// The rarest-word gate's admission rule (none before 0.21.3 or for a query with no tokens).
    pub gate: Option<Gate>,
}

impl SearchResult {
    /// No hits.
    pub fn empty() -> SearchResult {
        SearchResult {
            via: Via::None,
            hits: Vec::new(),
            gate: None,
        }
    }
}

/// The work a search did, as counts of its basic steps: what makes it slow, without a clock.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchWork {
    /// Postings (a document's weight for a term) and tool names read one after another.
    pub postings: u64,
    /// Terms looked up in a document's own term list, one at a time.
    pub lookups: u64,
}

impl std::ops::Add for SearchWork {
    type Output = SearchWork;

    fn add(self, other: SearchWork) -> SearchWork {
        SearchWork {
            postings: self.postings + other.postings,
            lookups: self.lookups + other.lookups,
        }
    }
}

impl std::iter::Sum for SearchWork {
    fn sum<I: Iterator<Item = SearchWork>>(works: I) -> SearchWork {
        works.fold(SearchWork::default(), |a, b| a + b)
    }
}

/// Why a document is or is not a hit of a query, under the rarest-word gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admitted {
    /// It is admitted.
    Yes,
    /// It lacks the query's rarest word.
    MissingGate {
        /// The word.
        word: String,
    },
    /// It holds too few of the query's answerable words.
    TooFewWords {
        /// Words it holds.
        held: usize,
        /// Words it must hold.
        required: usize,
    },
    /// The query has no search tokens.
    NoTokens,
}

/// Every search token seen in a session's tools, each with a dense id; with stemming, each
/// distinct word is stemmed once.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    ids: FxHashMap<Box<str>, u32>,
    /// Lowercase word -> term id (the stem's), so a word is stemmed once.
    words: FxHashMap<Box<str>, u32>,
    /// Term text by id.
    terms: Vec<Box<str>>,
    rules: Option<SearchRules>,
}

/// A tool's search text as token counts: `(term id, tf)` sorted by id, its length, and its
/// lowercased name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TermCounts {
    /// Shared with every index built over the tool, which scores a document by looking its
    /// terms up here.
    terms: Arc<[(u32, u32)]>,
    length: u32,
    lowercase_name: Arc<str>,
}

impl TermCounts {
    /// Token count of the document (duplicates counted): BM25's `dl`.
    pub fn length(&self) -> u32 {
        self.length
    }
}

impl Vocabulary {
    /// An empty vocabulary tokenising by `rules`.
    pub fn new(rules: SearchRules) -> Vocabulary {
        Vocabulary {
            rules: Some(rules),
            ..Vocabulary::default()
        }
    }

    fn stems(&self) -> bool {
        self.rules.is_some_and(|r| r.stem)
    }

    /// Terms known.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether no term is known.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The text of a term.
    pub fn term(&self, id: u32) -> &str {
        &self.terms[id as usize]
    }

    /// The term id of a raw token (lowercased and stemmed as the profile does), when known.
    pub fn id(&self, token: &str) -> Option<u32> {
        let lower = token.to_ascii_lowercase();
        if let Some(&id) = self.words.get(lower.as_str()) {
            return Some(id);
        }
        self.ids.get(term_of(lower, self.stems()).as_str()).copied()
    }

    /// An empty group of documents to tokenise (on any thread) for this vocabulary.
    pub fn group(&self) -> TokenisedGroup {
        TokenisedGroup {
            stem: self.stems(),
            places: FxHashMap::default(),
            words: Vec::new(),
            terms: Vec::new(),
            documents: Vec::new(),
        }
    }

    /// Tokenises the pieces of one tool's search text (see [`search_text`]) into term counts,
    /// adding new terms.
    #[cfg(test)]
    pub fn count_terms<'a>(
        &mut self,
        name: &str,
        pieces: impl Iterator<Item = &'a str>,
    ) -> TermCounts {
        let mut group = self.group();
        group.add(name, pieces);
        let mut counts = self.count_groups(vec![group]);
        counts.pop().and_then(|mut c| c.pop()).unwrap_or_default()
    }

    /// The term counts of groups of documents tokenised apart (on any thread), adding new
    /// terms. Each group's words get their ids in the order they were first seen in it, group
    /// after group, so the ids are those of counting every document in turn.
    pub fn count_groups(&mut self, groups: Vec<TokenisedGroup>) -> Vec<Vec<TermCounts>> {
        use rayon::prelude::*;
        let ids: Vec<Vec<u32>> = groups.iter().map(|group| self.adopt(group)).collect();
        groups
            .into_par_iter()
            .zip(ids)
            .map(|(group, ids)| {
                group
                    .documents
                    .into_iter()
                    .map(|document| {
                        let mut terms: Vec<u32> =
                            document.words.iter().map(|&w| ids[w as usize]).collect();
                        terms.sort_unstable();
                        TermCounts {
                            terms: terms
                                .chunk_by(|a, b| a == b)
                                .map(|run| (run[0], run.len() as u32))
                                .collect::<Vec<_>>()
                                .into(),
                            length: document.words.len() as u32,
                            lowercase_name: document.lowercase_name,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The term ids of a group's words (by their place in the group), adding the new ones.
    fn adopt(&mut self, group: &TokenisedGroup) -> Vec<u32> {
        debug_assert_eq!(group.stem, self.stems(), "a group of another profile");
        group
            .words
            .iter()
            .zip(&group.terms)
            .map(|(word, term)| {
                if let Some(&id) = self.words.get(word) {
                    return id;
                }
                let next = self.terms.len() as u32;
                let id = *self.ids.entry(term.clone()).or_insert(next);
                if id == next {
                    self.terms.push(term.clone());
                }
                self.words.insert(word.clone(), id);
                id
            })
            .collect()
    }
}

/// Documents tokenised without a vocabulary, so that many groups can be tokenised at once
/// (made by [`Vocabulary::group`]): the group's distinct lowercase words in first-seen order,
/// each with its term (worked out once), and each document's tokens as places in that list.
#[derive(Debug)]
pub struct TokenisedGroup {
    /// Whether the profile stems.
    stem: bool,
    /// Lowercase word -> its place in `words`.
    places: FxHashMap<Box<str>, u32>,
    words: Vec<Box<str>>,
    /// Per word, its term.
    terms: Vec<Box<str>>,
    documents: Vec<TokenisedDocument>,
}

/// One document of a [`TokenisedGroup`].
#[derive(Debug)]
struct TokenisedDocument {
    /// Its tokens, in order, as places in the group's words.
    words: Vec<u32>,
    lowercase_name: Arc<str>,
}

impl TokenisedGroup {
    /// Tokenises a document: its name and the pieces of its search text ([`search_text`]).
    pub fn add<'a>(&mut self, name: &str, pieces: impl Iterator<Item = &'a str>) {
        let mut words = Vec::new();
        let mut lower = String::new();
        for piece in pieces {
            for token in raw_tokens(piece) {
                lower.clear();
                lower.push_str(token);
                lower.make_ascii_lowercase();
                let place = match self.places.get(lower.as_str()) {
                    Some(&place) => place,
                    None => {
                        let place = self.words.len() as u32;
                        let word: Box<str> = lower.as_str().into();
                        self.places.insert(word.clone(), place);
                        self.terms
                            .push(term_of(lower.clone(), self.stem).into_boxed_str());
                        self.words.push(word);
                        place
                    }
                };
                words.push(place);
            }
        }
        self.documents.push(TokenisedDocument {
            words,
            lowercase_name: name.to_lowercase().into(),
        });
    }
}

/// One query token: the word as typed (lowercase) and its term, when any document has it.
#[derive(Debug, Clone)]
struct QueryToken {
    word: String,
    term: Option<u32>,
}

/// Per-thread scratch of a search: an accumulator per document, and which ones it touched.
#[derive(Default)]
struct Scratch {
    scores: Vec<f64>,
    matched: Vec<u32>,
    touched: Vec<u32>,
}

/// Per-thread marks of the documents a pruned search has scored: `stamps[doc] == search`.
#[derive(Default)]
struct Seen {
    stamps: Vec<u32>,
    search: u32,
}

impl Seen {
    /// Starts a search over `docs` documents: nothing is seen yet.
    fn start(&mut self, docs: usize) {
        if self.stamps.len() < docs {
            self.stamps.resize(docs, 0);
        }
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.stamps.fill(0);
            self.search = 1;
        }
    }

    /// Marks `doc`; true the first time in this search.
    fn first_time(&mut self, doc: u32) -> bool {
        let stamp = &mut self.stamps[doc as usize];
        let first = *stamp != self.search;
        *stamp = self.search;
        first
    }
}

/// A query term as the pruned search walks it: its id, how many times the query has it, and
/// the most it can add to any document's score.
#[derive(Debug, Clone, Copy)]
struct WalkedTerm {
    term: u32,
    count: f64,
    bound: f64,
}

/// Slack on the pruning bounds, so that a bound summed in another order than the score can
/// never prune a document that would tie or win.
const BOUND_SLACK: f64 = 1e-9;

/// The flag of a document that holds the gate token (or, in a seed search, an essential
/// term), beside its count of distinct terms.
const HOLDS_GATE: u32 = 1 << 31;

/// The light terms, heaviest first, are added up over their postings rather than looked up in
/// each candidate while their postings come to at most this many per candidate: adding up a
/// posting costs a fraction of looking a term up in a document.
const ADD_UP_FACTOR: usize = 8;

/// How many of a seed query's heaviest terms, and of its rarest, pick the documents scored
/// first, to set the bar the pruning starts from.
const SEEDING_TERMS: usize = 2;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
    /// The work of the searches run on this thread so far (a search runs on one thread).
    static WORK: Cell<SearchWork> = const {
        Cell::new(SearchWork {
            postings: 0,
            lookups: 0,
        })
    };
}

/// Counts work done by the search running on this thread.
fn tally(postings: usize, lookups: usize) {
    WORK.with(|work| {
        let mut sum = work.get();
        sum.postings = sum.postings.wrapping_add(postings as u64);
        sum.lookups = sum.lookups.wrapping_add(lookups as u64);
        work.set(sum);
    });
}

/// A candidate in the top-k heap: the worst on top (lower score, then later in the catalog).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ranked {
    score: f64,
    doc: u32,
}

impl Eq for Ranked {}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        // "Greater" = better: higher score, then earlier in the catalog.
        self.score
            .total_cmp(&other.score)
            .then(other.doc.cmp(&self.doc))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A document to consider: the most it can score, and how many of the query's distinct terms
/// it is known to hold. Ordered by the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    bound: Ranked,
    held: u32,
}

/// The best `limit` candidates offered so far ("greater" is better), the worst on top.
struct TopK<T = Ranked> {
    heap: BinaryHeap<std::cmp::Reverse<T>>,
    limit: usize,
}

impl<T: Ord> TopK<T> {
    /// An empty selection of at most `limit`.
    fn new(limit: usize) -> TopK<T> {
        TopK {
            heap: BinaryHeap::with_capacity(limit + 1),
            limit,
        }
    }

    /// Keeps `candidate` if it is among the best `limit` so far.
    fn offer(&mut self, candidate: T) {
        if self.heap.len() < self.limit {
            self.heap.push(std::cmp::Reverse(candidate));
        } else if self.heap.peek().is_some_and(|worst| candidate > worst.0) {
            self.heap.pop();
            self.heap.push(std::cmp::Reverse(candidate));
        }
    }

    /// The selection, best first.
    fn into_sorted(self) -> Vec<T> {
        let mut best: Vec<T> = self.heap.into_iter().map(|r| r.0).collect();
        best.sort_by(|a, b| b.cmp(a));
        best
    }
}

impl TopK {
    /// The score a new candidate must beat, once the selection is full.
    fn bar(&self) -> Option<f64> {
        self.worst().map(|worst| worst.score)
    }

    /// The worst kept, once the selection is full.
    fn worst(&self) -> Option<Ranked> {
        if self.heap.len() < self.limit {
            return None;
        }
        self.heap.peek().map(|worst| worst.0)
    }

    /// Whether nothing scoring at most `bound` can get in.
    fn shuts_out(&self, bound: f64) -> bool {
        self.bar()
            .is_some_and(|bar| bound + BOUND_SLACK * bound.abs().max(1.0) < bar)
    }

    /// Whether a candidate scoring exactly `score` at `doc` would lose to the worst kept.
    fn loses_tie(&self, score: f64, doc: u32) -> bool {
        self.heap.len() >= self.limit
            && self
                .heap
                .peek()
                .is_some_and(|worst| Ranked { score, doc } < worst.0)
    }
}

/// The best `limit` of `candidates`, best first (for documents, ties keep catalog order).
fn top_k<T: Ord>(candidates: impl Iterator<Item = T>, limit: usize) -> Vec<T> {
    let mut best = TopK::new(limit);
    candidates.for_each(|c| best.offer(c));
    best.into_sorted()
}

/// A BM25 index over a catalog, in catalog order: per term, its documents and their weights.
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    /// `docs[offsets[t]..offsets[t + 1]]`: documents of term `t`, ascending.
    offsets: Vec<u32>,
    docs: Vec<u32>,
    /// The BM25 weight of term `t` in each of those documents.
    weights: Vec<f64>,
    /// Per term, its largest weight: the most it adds to any document's score.
    max_weights: Vec<f64>,
    /// Per term, its inverse document frequency.
    idfs: Vec<f64>,
    /// Per doc, its `(term, tf)` pairs sorted by term: a document's weight for a term is
    /// looked up here, a few cache lines, instead of in the term's long postings.
    forward: Vec<Arc<[(u32, u32)]>>,
    /// Per doc, its length in tokens (BM25's `dl`).
    lengths: Vec<u32>,
    /// Per term, positions in its range, heaviest weight first (ties in catalog order): sorted
    /// the first time a search walks the term, so building the index never pays for it.
    by_weight: Vec<OnceLock<Box<[u32]>>>,
    /// Per doc: lowercased name (substring fallback, exact names).
    lowercase_names: Vec<Arc<str>>,
    /// Docs sorted by lowercased name, for exact-name lookups.
    by_name: Vec<u32>,
    avgdl: f64,
    admission: Option<Admission>,
    /// The tool named by the whole query ranks first (and a substring fallback never runs).
    exact_name_first: bool,
}

impl SearchIndex {
    /// Indexes documents in catalog order; every term id must come from `vocabulary`.
    pub fn build<'a>(
        vocabulary: &Vocabulary,
        documents: impl IntoIterator<Item = &'a TermCounts>,
    ) -> SearchIndex {
        let documents: Vec<&TermCounts> = documents.into_iter().collect();
        let mut offsets = vec![0u32; vocabulary.len() + 1];
        for counts in &documents {
            for &(term, _) in counts.terms.iter() {
                offsets[term as usize + 1] += 1;
            }
        }
        for t in 1..offsets.len() {
            offsets[t] += offsets[t - 1];
        }
        let total = *offsets.last().unwrap_or(&0) as usize;
        let lengths: Vec<u32> = documents.iter().map(|c| c.length).collect();
        let sum: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        let avgdl = if lengths.is_empty() {
            0.0
        } else {
            sum as f64 / lengths.len() as f64
        };
        let n = documents.len() as f64;
        let idfs: Vec<f64> = offsets
            .windows(2)
            .map(|range| idf(n, f64::from(range[1] - range[0])))
            .collect();
        // One pass in catalog order: each document's postings go to their terms' ranges, with
        // their weights.
        let mut cursor = offsets.clone();
        let mut docs = vec![0u32; total];
        let mut weights = vec![0.0f64; total];
        let mut max_weights = vec![0.0f64; idfs.len()];
        for (doc, counts) in documents.iter().enumerate() {
            let dl = f64::from(counts.length);
            for &(term, tf) in counts.terms.iter() {
                let term = term as usize;
                let slot = cursor[term] as usize;
                cursor[term] += 1;
                let weight = term_weight(idfs[term], f64::from(tf), dl, avgdl);
                docs[slot] = doc as u32;
                weights[slot] = weight;
                max_weights[term] = max_weights[term].max(weight);
            }
        }
        let lowercase_names: Vec<Arc<str>> = documents
            .iter()
            .map(|c| Arc::clone(&c.lowercase_name))
            .collect();
        let forward = documents.iter().map(|c| Arc::clone(&c.terms)).collect();
        let mut by_name: Vec<u32> = (0..documents.len() as u32).collect();
        by_name.sort_by(|&a, &b| lowercase_names[a as usize].cmp(&lowercase_names[b as usize]));
        SearchIndex {
            offsets,
            docs,
            weights,
            by_weight: (0..max_weights.len()).map(|_| OnceLock::new()).collect(),
            max_weights,
            idfs,
            forward,
            lengths,
            lowercase_names,
            by_name,
            avgdl,
            admission: vocabulary.rules.map(|r| r.admission),
            exact_name_first: vocabulary.rules.is_some_and(|r| r.exact_name_first),
        }
    }

    /// Documents indexed.
    pub fn len(&self) -> usize {
        self.lowercase_names.len()
    }

    /// Whether the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.lowercase_names.is_empty()
    }

    /// Mean document length in tokens.
    pub fn avgdl(&self) -> f64 {
        self.avgdl
    }

    /// Documents of a term and their weights (empty when no document has it).
    fn postings(&self, term: Option<u32>) -> (&[u32], &[f64]) {
        match term {
            Some(t) if (t as usize) + 1 < self.offsets.len() => {
                let range =
                    self.offsets[t as usize] as usize..self.offsets[t as usize + 1] as usize;
                (&self.docs[range.clone()], &self.weights[range])
            }
            _ => (&[], &[]),
        }
    }

    /// The weight of a term in a document (None when absent): the same expression, on the
    /// same values, as the weight in the term's postings, so the same to the last bit.
    fn weight(&self, term: Option<u32>, doc: u32) -> Option<f64> {
        let term = term?;
        let terms = &self.forward[doc as usize];
        let at = terms.binary_search_by_key(&term, |&(t, _)| t).ok()?;
        Some(self.weight_of(term, doc, terms[at].1))
    }

    /// The weight of `term`, found `tf` times in `doc`.
    fn weight_of(&self, term: u32, doc: u32, tf: u32) -> f64 {
        term_weight(
            self.idfs[term as usize],
            f64::from(tf),
            f64::from(self.lengths[doc as usize]),
            self.avgdl,
        )
    }

    /// Documents containing the token (lowercased, and stemmed as the profile does).
    pub fn document_frequency(&self, vocabulary: &Vocabulary, token: &str) -> usize {
        self.postings(vocabulary.id(token)).0.len()
    }

    /// The query's tokens, in order, each with its term.
    fn query_tokens(vocabulary: &Vocabulary, query: &str) -> Vec<QueryToken> {
        raw_tokens(query)
            .map(|token| QueryToken {
                word: token.to_ascii_lowercase(),
                term: vocabulary.id(token),
            })
            .collect()
    }

    /// Documents whose lowercased name is the whole trimmed, lowercased query.
    fn exact_names(&self, query: &str) -> Vec<u32> {
        let needle = query.trim().to_lowercase();
        let start = self
            .by_name
            .partition_point(|&d| *self.lowercase_names[d as usize] < *needle.as_str());
        self.by_name[start..]
            .iter()
            .take_while(|&&d| *self.lowercase_names[d as usize] == *needle.as_str())
            .copied()
            .collect()
    }

    /// [`SearchIndex::search`], and the work it did.
    pub fn search_measured(
        &self,
        vocabulary: &Vocabulary,
        query: &str,
        limit: usize,
    ) -> (SearchResult, SearchWork) {
        let before = WORK.with(Cell::get);
        let result = self.search(vocabulary, query, limit);
        let after = WORK.with(Cell::get);
        let work = SearchWork {
            postings: after.postings.wrapping_sub(before.postings),
            lookups: after.lookups.wrapping_sub(before.lookups),
        };
        (result, work)
    }

    /// Ranks the catalog for `query` under the profile's admission rule, cut to `limit` hits.
    pub fn search(&self, vocabulary: &Vocabulary, query: &str, limit: usize) -> SearchResult {
        let tokens = SearchIndex::query_tokens(vocabulary, query);
        if query.trim().is_empty() || tokens.is_empty() || self.is_empty() || limit == 0 {
            return SearchResult::empty();
        }
        match self.admission.unwrap_or(Admission::ScoreAboveZero) {
            Admission::ScoreAboveZero => self.search_score_above_zero(query, &tokens, limit),
            Admission::RarestToken { coverage_from } => {
                self.search_rarest_token(vocabulary, query, &tokens, limit, coverage_from)
            }
        }
    }

    /// Adds every query token's weights into the thread's accumulator and calls `finish` with
    /// the touched documents, their scores, and for each how many distinct query terms it holds
    /// (with [`HOLDS_GATE`] set when it holds one of the `flagged` terms).
    fn accumulate<R>(
        &self,
        tokens: &[QueryToken],
        flagged: &[u32],
        finish: impl FnOnce(&[u32], &mut [f64], &mut [u32]) -> R,
    ) -> R {
        let mut seen = rustc_hash::FxHashSet::default();
        let first_time: Vec<bool> = tokens
            .iter()
            .map(|t| t.term.is_some_and(|term| seen.insert(term)))
            .collect();
        // Sorted, so a query of thousands of words costs no quadratic lookups.
        let mut flagged = flagged.to_vec();
        flagged.sort_unstable();
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let Scratch {
                scores,
                matched,
                touched,
            } = &mut *scratch;
            if scores.len() < self.len() {
                scores.resize(self.len(), 0.0);
                matched.resize(self.len(), 0);
            }
            touched.clear();
            for (token, &first) in tokens.iter().zip(&first_time) {
                let (docs, weights) = self.postings(token.term);
                tally(docs.len(), 0);
                // A repeated token adds its weight again, but is not a new term.
                let count = u32::from(first);
                let flag = if token
                    .term
                    .is_some_and(|term| flagged.binary_search(&term).is_ok())
                {
                    HOLDS_GATE
                } else {
                    0
                };
                for (&doc, &weight) in docs.iter().zip(weights) {
                    let slot = doc as usize;
                    if matched[slot] == 0 {
                        touched.push(doc);
                    }
                    scores[slot] += weight;
                    matched[slot] = (matched[slot] + count) | flag;
                }
            }
            let result = finish(touched, scores, matched);
            // `finish` changes only the touched documents' slots: they are all cleared here.
            for &doc in touched.iter() {
                scores[doc as usize] = 0.0;
                matched[doc as usize] = 0;
            }
            result
        })
    }

    /// Every document scoring above 0 (after the tool named by the query, where the profile
    /// ranks it first), else the substring fallback.
    fn search_score_above_zero(
        &self,
        query: &str,
        tokens: &[QueryToken],
        limit: usize,
    ) -> SearchResult {
        let walked = self.walked_terms(tokens);
        let scored = if walked.len() > 1 {
            self.max_score(tokens, &walked, limit)
        } else {
            // One term: its documents heaviest first, until the rest cannot get in.
            self.walk(&walked, TopK::new(limit), |doc| {
                let score = self.score(doc, tokens);
                (score > 0.0).then_some(score)
            })
        };
        let exact = if self.exact_name_first {
            self.exact_names(query)
        } else {
            Vec::new()
        };
        // The exact names lead at an infinite score; the best of the rest follow (the top
        // `limit` holds at least `limit - exact.len()` of them).
        let best: Vec<Ranked> = exact
            .iter()
            .map(|&doc| Ranked {
                score: f64::INFINITY,
                doc,
            })
            .chain(scored.into_iter().filter(|r| !exact.contains(&r.doc)))
            .take(limit)
            .collect();
        if best.is_empty() {
            tally(self.len(), 0);
            let needle = query.trim().to_lowercase();
            let hits: Vec<Hit> = self
                .lowercase_names
                .iter()
                .enumerate()
                .filter(|(_, name)| name.contains(needle.as_str()))
                .take(limit)
                .map(|(doc, _)| Hit {
                    doc,
                    score: FALLBACK_SCORE,
                    exact_name: false,
                    matched_terms: Vec::new(),
                })
                .collect();
            let via = if hits.is_empty() {
                Via::None
            } else {
                Via::Substring
            };
            return SearchResult {
                via,
                hits,
                gate: None,
            };
        }
        let via = if exact.is_empty() {
            Via::Bm25
        } else {
            Via::Exact
        };
        SearchResult {
            via,
            hits: self.hits(best, tokens, &exact),
            gate: None,
        }
    }

    /// Seed's best `limit` documents for a query of several terms (MaxScore-style, exact).
    /// The heaviest documents of the heaviest terms, and the documents holding most of the
    /// rarest terms, are scored first, to set a bar. Terms are then taken lightest first
    /// while a document holding only those cannot get in (see [`SearchIndex::light_terms`]);
    /// the others are the essential terms, and the candidates are the documents holding one of
    /// them (see [`SearchIndex::rank_candidates`]).
    fn max_score(&self, tokens: &[QueryToken], walked: &[WalkedTerm], limit: usize) -> Vec<Ranked> {
        let mut best = TopK::new(limit);
        SEEN.with(|cell| {
            let mut seen = cell.borrow_mut();
            seen.start(self.len());
            for heavy in walked.iter().take(SEEDING_TERMS) {
                let term = heavy.term as usize;
                let start = self.offsets[term] as usize;
                for &position in self.impact_order(term).iter().take(limit) {
                    let doc = self.docs[start + position as usize];
                    tally(1, 0);
                    if seen.first_time(doc) {
                        self.offer_scored(&mut best, doc, tokens);
                    }
                }
            }
            for candidate in self.likely(&self.seeding_terms(walked), limit) {
                if seen.first_time(candidate.doc) {
                    self.offer_scored(&mut best, candidate.doc, tokens);
                }
            }
            let lightest_first: Vec<WalkedTerm> = walked.iter().rev().copied().collect();
            let light = self.light_terms(tokens, &lightest_first, &mut best, &mut seen);
            let (light, essential) = lightest_first.split_at(light);
            self.rank_candidates(tokens, &mut best, &mut seen, essential, light, |_, _| true);
        });
        best.into_sorted()
    }

    /// The rarest terms (up to [`SEEDING_TERMS`]), whose documents holding most
    /// of them are scored first. A term with over [`ADD_UP_FACTOR`] times the rarest's
    /// documents is left out: a common word (the words of a name a thousand tools share) is a
    /// light term, whose postings the search never needs to read.
    fn seeding_terms(&self, walked: &[WalkedTerm]) -> Vec<WalkedTerm> {
        let df = |term: &WalkedTerm| self.postings(Some(term.term)).0.len();
        let mut rarest: Vec<WalkedTerm> = walked.to_vec();
        rarest.sort_by_key(|term| (df(term), term.term));
        let most = rarest.first().map_or(0, |term| df(term) * ADD_UP_FACTOR);
        rarest.truncate(SEEDING_TERMS);
        rarest.retain(|term| df(term) <= most);
        rarest
    }

    /// The best `limit` documents by the weights of `terms` (one or two) alone, each weight
    /// times its count in the query: the postings of two terms are merged, in catalog order.
    fn likely(&self, terms: &[WalkedTerm], limit: usize) -> Vec<Ranked> {
        let list = |term: WalkedTerm| {
            let (docs, weights) = self.postings(Some(term.term));
            tally(docs.len(), 0);
            docs.iter()
                .zip(weights)
                .map(move |(&doc, &weight)| (doc, weight * term.count))
        };
        let ranked = |(doc, score)| Ranked { score, doc };
        match terms {
            [one] => top_k(list(*one).map(ranked), limit),
            [one, two] => {
                let mut a = list(*one).peekable();
                let mut b = list(*two).peekable();
                let merged = std::iter::from_fn(|| match (a.peek(), b.peek()) {
                    (Some(x), Some(y)) if x.0 == y.0 => {
                        let (doc, wa) = a.next()?;
                        let (_, wb) = b.next()?;
                        Some((doc, wa + wb))
                    }
                    (Some(x), Some(y)) if x.0 < y.0 => a.next(),
                    (Some(_), Some(_)) | (None, _) => b.next(),
                    (Some(_), None) => a.next(),
                });
                top_k(merged.map(ranked), limit)
            }
            _ => Vec::new(),
        }
    }

    /// How many of the lightest terms (`lightest_first`) cannot lift a document that holds
    /// none of the others into `best`. Such a document scores at most the largest weights of
    /// the terms it holds, summed as its score is summed ([`SearchIndex::light_bound`]): when
    /// that is below the worst kept, it cannot get in; when it only ties the worst kept, it can
    /// get in only by coming earlier in the catalog, so those few documents are scored now and
    /// the terms stay light. (A tie is the rule in catalogs of tools that share a description:
    /// without this, a name's shared word would make every one of them a candidate.)
    fn light_terms(
        &self,
        tokens: &[QueryToken],
        lightest_first: &[WalkedTerm],
        best: &mut TopK,
        seen: &mut Seen,
    ) -> usize {
        let mut cheap = 0.0;
        for (at, term) in lightest_first.iter().enumerate() {
            cheap += term.bound;
            if best.shuts_out(cheap) {
                continue;
            }
            let light = &lightest_first[..=at];
            let bound = self.light_bound(tokens, light);
            let Some(worst) = best.worst() else {
                return at;
            };
            if bound > worst.score {
                return at;
            }
            if bound == worst.score {
                for term in light {
                    let (docs, _) = self.postings(Some(term.term));
                    let earlier = &docs[..docs.partition_point(|&doc| doc < worst.doc)];
                    tally(earlier.len(), 0);
                    for &doc in earlier {
                        if seen.first_time(doc) {
                            self.offer_scored(best, doc, tokens);
                        }
                    }
                }
            }
        }
        lightest_first.len()
    }

    /// The most a document holding no query term but the `light` ones can score: their
    /// largest weights added token by token in query order, as its score is. Rounding never
    /// takes a sum of smaller numbers, added in the same order, above it.
    fn light_bound(&self, tokens: &[QueryToken], light: &[WalkedTerm]) -> f64 {
        let mut terms: Vec<u32> = light.iter().map(|t| t.term).collect();
        terms.sort_unstable();
        tokens
            .iter()
            .filter_map(|t| t.term)
            .filter(|term| terms.binary_search(term).is_ok())
            .fold(0.0, |sum, term| sum + self.max_weights[term as usize])
    }

    /// Offers to `best`, exactly, every document that holds one of the `essential` terms, is
    /// admitted by `admits` (given the document and how many of the query's distinct terms it
    /// holds; more never admits less) and can beat the worst kept; documents `seen` already
    /// are not offered again. `light` are the query's other terms, lightest first.
    ///
    /// The weights of the essential terms are added up over their postings; the documents
    /// holding one are the candidates. The heaviest light terms are then added up too, for
    /// the candidates only, while that is cheaper than looking them up (see
    /// [`ADD_UP_FACTOR`]). Each candidate gets a bound: its sum plus the bounds of the light
    /// terms not added up. Documents are
    /// then taken highest bound first, their remaining light terms looked up one by one,
    /// heaviest first, while they can still get in, and scored in full, until no bound left
    /// can beat the worst kept.
    fn rank_candidates(
        &self,
        tokens: &[QueryToken],
        best: &mut TopK,
        seen: &mut Seen,
        essential: &[WalkedTerm],
        light: &[WalkedTerm],
        admits: impl Fn(u32, usize) -> bool,
    ) {
        let mut essential_terms: Vec<u32> = essential.iter().map(|t| t.term).collect();
        essential_terms.sort_unstable();
        let (pool, added) = self.candidate_pool(tokens, best, &essential_terms, light, &admits);
        let looked_up = &light[..light.len() - added];
        // `below[i]`: the most the looked-up terms before `i` can add.
        let mut below = vec![0.0f64; looked_up.len() + 1];
        for (i, term) in looked_up.iter().enumerate() {
            below[i + 1] = below[i] + term.bound;
        }
        let unknown = below[looked_up.len()];
        // Looks up the light terms of a candidate while it can still get in, then admits and
        // scores it; gives the number of terms it looked up.
        let consider = |best: &mut TopK, candidate: Candidate| {
            let partial = candidate.bound.score - unknown;
            let doc = candidate.bound.doc;
            let mut added_weight = 0.0;
            let mut held = candidate.held as usize;
            let mut lookups = 0;
            for i in (0..looked_up.len()).rev() {
                let term = &looked_up[i];
                lookups += 1;
                if let Some(weight) = self.weight(Some(term.term), doc) {
                    added_weight += weight * term.count;
                    held += 1;
                }
                if best.shuts_out(partial + added_weight + below[i]) {
                    tally(0, lookups);
                    return lookups;
                }
            }
            tally(0, lookups);
            if admits(doc, held) {
                self.offer_scored(best, doc, tokens);
                lookups += tokens.len();
            }
            lookups
        };
        let bounds = pool
            .iter()
            .map(|&(doc, partial, held)| Candidate {
                bound: Ranked {
                    score: partial + unknown,
                    doc,
                },
                held,
            })
            .filter(|c| admits(c.bound.doc, c.held as usize + looked_up.len()));
        // What adding up every term's postings costs, in lookups: more than the candidates
        // sifted one by one, unless they tie (tools sharing a description tie on every query,
        // and no bound tells them apart).
        let add_up_all = essential
            .iter()
            .chain(light)
            .map(|t| self.postings(Some(t.term)).0.len())
            .sum::<usize>()
            / ADD_UP_FACTOR;
        let mut lookups = 0;
        // The best bounds, taken first, raise the bar before the rest is sifted.
        for candidate in top_k(bounds.clone(), best.limit) {
            if seen.first_time(candidate.bound.doc) {
                lookups += consider(best, candidate);
            }
        }
        let candidates: Vec<Candidate> =
            bounds.filter(|c| !best.shuts_out(c.bound.score)).collect();
        // Highest bound first; a heap, as only the first few are usually taken.
        let mut candidates = BinaryHeap::from(candidates);
        while let Some(candidate) = candidates.pop() {
            if best.shuts_out(candidate.bound.score) {
                break;
            }
            if lookups > add_up_all {
                self.offer_summed(tokens, best, seen, &essential_terms, &admits);
                return;
            }
            if seen.first_time(candidate.bound.doc) {
                lookups += consider(best, candidate);
            }
        }
    }

    /// The candidates of [`SearchIndex::rank_candidates`]: the documents holding one of the
    /// `essential_terms` that `admits` may admit, each with the weights of the terms added up
    /// so far and how many of the query's terms it holds; and how many `light` terms, heaviest
    /// first, were added up.
    fn candidate_pool(
        &self,
        tokens: &[QueryToken],
        best: &TopK,
        essential_terms: &[u32],
        light: &[WalkedTerm],
        admits: &impl Fn(u32, usize) -> bool,
    ) -> (Vec<(u32, f64, u32)>, usize) {
        let essential_tokens: Vec<QueryToken> = tokens
            .iter()
            .filter(|t| {
                t.term
                    .is_some_and(|term| essential_terms.binary_search(&term).is_ok())
            })
            .cloned()
            .collect();
        self.accumulate(
            &essential_tokens,
            essential_terms,
            |touched, partial, marks| {
                let pool: Vec<u32> = touched
                    .iter()
                    .copied()
                    .filter(|&doc| marks[doc as usize] & HOLDS_GATE != 0)
                    .filter(|&doc| {
                        let held = (marks[doc as usize] & !HOLDS_GATE) as usize;
                        admits(doc, held + light.len())
                    })
                    .collect();
                // A light term is looked up in the candidates that can still get in: the
                // heaviest are added up over their postings instead while that costs less
                // than the lookups. Counting those candidates costs a pass over the pool, made
                // only for a term with more postings than that.
                let mut budget = pool.len() * ADD_UP_FACTOR;
                let mut unknown: f64 = light.iter().map(|t| t.bound).sum();
                let mut added = 0;
                for term in light.iter().rev() {
                    let (docs, weights) = self.postings(Some(term.term));
                    if docs.len() > budget {
                        break;
                    }
                    if docs.len() > pool.len() {
                        tally(pool.len(), 0);
                        let open = pool
                            .iter()
                            .filter(|&&doc| !best.shuts_out(partial[doc as usize] + unknown))
                            .count();
                        if docs.len() > open * ADD_UP_FACTOR {
                            break;
                        }
                    }
                    budget -= docs.len();
                    unknown -= term.bound;
                    added += 1;
                    tally(docs.len(), 0);
                    for (&doc, &weight) in docs.iter().zip(weights) {
                        let mark = &mut marks[doc as usize];
                        if *mark & HOLDS_GATE != 0 {
                            partial[doc as usize] += weight * term.count;
                            *mark += 1;
                        }
                    }
                }
                let pool: Vec<(u32, f64, u32)> = pool
                    .into_iter()
                    .map(|doc| {
                        let held = marks[doc as usize] & !HOLDS_GATE;
                        (doc, partial[doc as usize], held)
                    })
                    .collect();
                (pool, added)
            },
        )
    }

    /// Offers to `best` the best of the documents holding one of the `essential_terms` that
    /// `admits` admits, each scored exactly by adding up every query token's postings (token
    /// by token in query order, as a score is summed). A document `seen` already was offered,
    /// or shown unable to get in.
    fn offer_summed(
        &self,
        tokens: &[QueryToken],
        best: &mut TopK,
        seen: &mut Seen,
        essential_terms: &[u32],
        admits: &impl Fn(u32, usize) -> bool,
    ) {
        let limit = best.limit;
        let summed = self.accumulate(tokens, essential_terms, |touched, scores, marks| {
            let admitted = touched.iter().copied().filter(|&doc| {
                let mark = marks[doc as usize];
                mark & HOLDS_GATE != 0 && admits(doc, (mark & !HOLDS_GATE) as usize)
            });
            top_k(
                admitted.map(|doc| Ranked {
                    score: scores[doc as usize],
                    doc,
                }),
                limit,
            )
        });
        // The rest of the documents rank below these `limit`, each offered or shut out.
        for ranked in summed {
            if seen.first_time(ranked.doc) {
                best.offer(ranked);
            }
        }
    }

    /// Scores `doc` in full and offers it to `best` when it scores above 0.
    fn offer_scored(&self, best: &mut TopK, doc: u32, tokens: &[QueryToken]) {
        let score = self.score(doc, tokens);
        if score > 0.0 {
            best.offer(Ranked { score, doc });
        }
    }

    /// The rarest-word gate for the query, and the gate's term: its rarest token (the
    /// first of the rarest, in query order) and the coverage rule.
    fn gate(
        &self,
        vocabulary: &Vocabulary,
        tokens: &[QueryToken],
        coverage_from: usize,
    ) -> (Gate, Option<u32>) {
        let df = |t: &QueryToken| self.postings(t.term).0.len();
        let rarest = tokens
            .iter()
            .enumerate()
            .min_by_key(|(i, t)| (df(t), *i))
            .map(|(_, t)| t)
            .expect("a query with tokens");
        let mut answerable: Vec<u32> = tokens
            .iter()
            .filter(|t| df(t) > 0)
            .filter_map(|t| t.term)
            .collect();
        answerable.sort_unstable();
        answerable.dedup();
        let required = if answerable.len() < coverage_from {
            1
        } else {
            answerable.len().div_ceil(2)
        };
        let token = match rarest.term {
            Some(t) => vocabulary.term(t).to_string(),
            None if vocabulary.stems() => stem_word(&rarest.word),
            None => rarest.word.clone(),
        };
        let gate = Gate {
            word: rarest.word.clone(),
            token,
            document_frequency: df(rarest),
            answerable: answerable.len(),
            required,
        };
        (gate, rarest.term)
    }

    /// Newer profile: documents holding the rarest token and enough answerable tokens, plus the
    /// tool named by the whole query (first, with an infinite score).
    fn search_rarest_token(
        &self,
        vocabulary: &Vocabulary,
        query: &str,
        tokens: &[QueryToken],
        limit: usize,
        coverage_from: usize,
    ) -> SearchResult {
        let (gate, gate_term) = self.gate(vocabulary, tokens, coverage_from);
        let exact = self.exact_names(query);
        let answerable = self.walked_terms(tokens);
        let admitted = |doc: u32, held: usize| !exact.contains(&doc) && held >= gate.required;
        let mut best = TopK::new(limit);
        for &doc in &exact {
            best.offer(Ranked {
                score: f64::INFINITY,
                doc,
            });
        }
        let (gate_walk, others): (Vec<WalkedTerm>, Vec<WalkedTerm>) =
            answerable.iter().partition(|t| Some(t.term) == gate_term);
        let best = if others.is_empty() {
            // The gate is the only word: its documents heaviest first, until the rest cannot
            // get in.
            self.walk(&gate_walk, best, |doc| {
                admitted(doc, 1).then(|| self.score(doc, tokens))
            })
        } else {
            // Every hit holds the gate: its documents are the candidates.
            SEEN.with(|cell| {
                let mut seen = cell.borrow_mut();
                seen.start(self.len());
                let lightest_first: Vec<WalkedTerm> = others.iter().rev().copied().collect();
                self.rank_candidates(
                    tokens,
                    &mut best,
                    &mut seen,
                    &gate_walk,
                    &lightest_first,
                    admitted,
                );
            });
            best.into_sorted()
        };
        let via = match best.first() {
            None => Via::None,
            Some(first) if first.score.is_infinite() => Via::Exact,
            Some(_) => Via::Bm25,
        };
        SearchResult {
            via,
            hits: self.hits(best, tokens, &exact),
            gate: Some(gate),
        }
    }

    /// The query's distinct terms that some document holds, each with its bound (its largest
    /// weight times its count in the query), weightiest first.
    fn walked_terms(&self, tokens: &[QueryToken]) -> Vec<WalkedTerm> {
        let mut terms: Vec<u32> = tokens.iter().filter_map(|t| t.term).collect();
        terms.sort_unstable();
        let mut walked: Vec<WalkedTerm> = terms
            .chunk_by(|a, b| a == b)
            .map(|run| (run[0], run.len() as u32))
            .filter(|&(term, _)| !self.postings(Some(term)).0.is_empty())
            .map(|(term, count)| WalkedTerm {
                term,
                count: f64::from(count),
                bound: self.max_weights[term as usize] * f64::from(count),
            })
            .collect();
        walked.sort_by(|a, b| b.bound.total_cmp(&a.bound).then(a.term.cmp(&b.term)));
        walked
    }

    /// The best documents of a query of one term (`walked[0]`, maybe repeated): `best` with
    /// the term's documents that `score_of` scores offered to it, heaviest in the term first,
    /// until no document left can beat the worst kept. When the query has the term once, a
    /// document not scored yet scores exactly its weight, and the documents left weigh no more
    /// (equal weights in catalog order): once one only ties the worst kept and comes later in
    /// the catalog, none after it can get in either. (A repeated term's score is a sum that
    /// two different weights can round to alike, so then only a lower bound stops the walk.)
    fn walk(
        &self,
        walked: &[WalkedTerm],
        mut best: TopK,
        mut score_of: impl FnMut(u32) -> Option<f64>,
    ) -> Vec<Ranked> {
        let Some(walked_term) = walked.first() else {
            return best.into_sorted();
        };
        let term = walked_term.term as usize;
        let start = self.offsets[term] as usize;
        let exact = walked_term.count == 1.0;
        for &position in self.impact_order(term).iter() {
            let slot = start + position as usize;
            let doc = self.docs[slot];
            tally(1, 0);
            let bound = self.weights[slot] * walked_term.count;
            if best.shuts_out(bound) || (exact && best.loses_tie(bound, doc)) {
                break;
            }
            if let Some(score) = score_of(doc) {
                best.offer(Ranked { score, doc });
            }
        }
        best.into_sorted()
    }

    /// The positions of term `term`'s postings, heaviest weight first, ties in catalog order.
    fn impact_order(&self, term: usize) -> &[u32] {
        self.by_weight[term].get_or_init(|| {
            let range = self.offsets[term] as usize..self.offsets[term + 1] as usize;
            tally(range.len(), 0);
            // One key per posting: the weight's bits inverted (weights are positive, so their
            // bits order as they do), then the position.
            let mut keys: Vec<u128> = self.weights[range]
                .iter()
                .enumerate()
                .map(|(i, w)| (u128::from(!w.to_bits()) << 32) | i as u128)
                .collect();
            keys.sort_unstable();
            keys.into_iter().map(|key| key as u32).collect()
        })
    }

    /// A document's BM25 score for the query: the weights of its tokens, added in query order
    /// (a repeated token counts each time), as Hermes adds them.
    fn score(&self, doc: u32, tokens: &[QueryToken]) -> f64 {
        tally(0, tokens.len());
        let mut score = 0.0;
        for token in tokens {
            if let Some(weight) = self.weight(token.term, doc) {
                score += weight;
            }
        }
        score
    }

    /// Turns ranked documents into hits with their matched words.
    fn hits(&self, best: Vec<Ranked>, tokens: &[QueryToken], exact: &[u32]) -> Vec<Hit> {
        tally(0, best.len() * tokens.len());
        best.into_iter()
            .map(|r| Hit {
                doc: r.doc as usize,
                score: r.score,
                exact_name: exact.contains(&r.doc),
                matched_terms: self.matched_words(r.doc, tokens),
            })
            .collect()
    }

    /// The distinct query words whose terms occur in `doc`, in query order.
    fn matched_words(&self, doc: u32, tokens: &[QueryToken]) -> Vec<String> {
        let mut seen: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
        tokens
            .iter()
            .filter(|token| self.weight(token.term, doc).is_some())
            .filter(|token| seen.insert(token.word.as_str()))
            .map(|token| token.word.clone())
            .collect()
    }

    /// The best-scoring documents the rarest-word gate does not admit for `query` (up to
    /// `n`), each with why: the tools a person expected and does not see.
    pub fn near_misses(
        &self,
        vocabulary: &Vocabulary,
        query: &str,
        n: usize,
    ) -> Vec<(usize, f64, Admitted)> {
        let Some(Admission::RarestToken { coverage_from }) = self.admission else {
            return Vec::new();
        };
        let tokens = SearchIndex::query_tokens(vocabulary, query);
        if tokens.is_empty() || self.is_empty() || n == 0 {
            return Vec::new();
        }
        let (gate, gate_term) = self.gate(vocabulary, &tokens, coverage_from);
        let exact = self.exact_names(query);
        let best = self.accumulate(&tokens, gate_term.as_slice(), |touched, scores, matched| {
            let rejected = touched.iter().filter(|&&doc| {
                let held = matched[doc as usize];
                !exact.contains(&doc)
                    && (held & HOLDS_GATE == 0 || ((held & !HOLDS_GATE) as usize) < gate.required)
            });
            top_k(
                rejected.map(|&doc| Ranked {
                    score: scores[doc as usize],
                    doc,
                }),
                n,
            )
            .into_iter()
            .map(|r| {
                let held = matched[r.doc as usize];
                let why = if held & HOLDS_GATE == 0 {
                    Admitted::MissingGate {
                        word: gate.word.clone(),
                    }
                } else {
                    Admitted::TooFewWords {
                        held: (held & !HOLDS_GATE) as usize,
                        required: gate.required,
                    }
                };
                (r.doc as usize, r.score, why)
            })
            .collect()
        });
        best
    }

    /// Whether the rarest-word gate admits `doc` for `query`, and if not, why.
    pub fn admission(&self, vocabulary: &Vocabulary, query: &str, doc: usize) -> Admitted {
        let tokens = SearchIndex::query_tokens(vocabulary, query);
        if tokens.is_empty() {
            return Admitted::NoTokens;
        }
        let coverage_from = match self.admission {
            Some(Admission::RarestToken { coverage_from }) => coverage_from,
            _ => usize::MAX,
        };
        if self.exact_names(query).contains(&(doc as u32)) {
            return Admitted::Yes;
        }
        let (gate, gate_term) = self.gate(vocabulary, &tokens, coverage_from);
        let doc = doc as u32;
        if self.weight(gate_term, doc).is_none() {
            return Admitted::MissingGate { word: gate.word };
        }
        let mut held: Vec<u32> = tokens
            .iter()
            .filter_map(|t| t.term)
            .filter(|&t| self.weight(Some(t), doc).is_some())
            .collect();
        held.sort_unstable();
        held.dedup();
        if held.len() < gate.required {
            return Admitted::TooFewWords {
                held: held.len(),
                required: gate.required,
            };
        }
        Admitted::Yes
    }

    /// BM25 score of document `doc` for a query given as term counts (a term counted `n` times
    /// contributes `n` times its weight): what a search for that text would score it, summed
    /// in term order rather than token order, so equal to it within rounding.
    pub fn score_terms(&self, query: &TermCounts, doc: usize) -> f64 {
        // Both term lists are sorted: one pass through them side by side.
        let terms = &self.forward[doc];
        let mut at = 0;
        let mut score = 0.0;
        for &(term, count) in query.terms.iter() {
            while at < terms.len() && terms[at].0 < term {
                at += 1;
            }
            if let Some(&(held, tf)) = terms.get(at).filter(|(held, _)| *held == term) {
                score += f64::from(count) * self.weight_of(held, doc as u32, tf);
            }
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::profile::{Profile, HERMES_2026_09};

    fn seed_rules() -> SearchRules {
        Profile::seed().spec().search
    }

    struct Fixture {
        vocabulary: Vocabulary,
        index: SearchIndex,
    }

    impl Fixture {
        fn search(&self, query: &str, limit: usize) -> SearchResult {
            self.index.search(&self.vocabulary, query, limit)
        }
    }

    fn index_with(
        rules: SearchRules,
        docs: &[(&'static str, &'static str, &'static [&'static str])],
    ) -> Fixture {
        let mut vocabulary = Vocabulary::new(rules);
        let counts: Vec<TermCounts> = docs
            .iter()
            .map(|(name, description, params)| {
                vocabulary.count_terms(
                    name,
                    search_text(&rules, name, "", description, params.iter().copied()),
                )
            })
            .collect();
        let index = SearchIndex::build(&vocabulary, &counts);
        Fixture { vocabulary, index }
    }

    fn index(docs: &[(&'static str, &'static str, &'static [&'static str])]) -> Fixture {
        index_with(seed_rules(), docs)
    }

    #[test]
    fn groups_tokenised_apart_get_the_ids_of_one_pass_in_order() {
        let texts = [
            "Runs the tests",
            "run a Test; tests RUN",
            "creates issues",
            "issue runs",
        ];
        for rules in [seed_rules(), HERMES_2026_09.search] {
            let mut one_by_one = Vocabulary::new(rules);
            let expected: Vec<TermCounts> = texts
                .iter()
                .map(|t| one_by_one.count_terms("N", std::iter::once(*t)))
                .collect();
            for split in 0..=texts.len() {
                let mut vocabulary = Vocabulary::new(rules);
                let groups = [&texts[..split], &texts[split..]].map(|run| {
                    let mut group = vocabulary.group();
                    for t in run {
                        group.add("N", std::iter::once(*t));
                    }
                    group
                });
                let counts: Vec<TermCounts> = vocabulary
                    .count_groups(groups.into())
                    .into_iter()
                    .flatten()
                    .collect();
                assert_eq!(counts, expected, "split at {split}");
                assert_eq!(vocabulary.terms, one_by_one.terms);
            }
            // The ids are the terms in the order they first occur in the texts.
            let mut first_seen: Vec<Box<str>> = Vec::new();
            for term in texts.iter().flat_map(|t| tokens(t, &rules)) {
                if !first_seen.iter().any(|seen| **seen == *term) {
                    first_seen.push(term.into());
                }
            }
            assert_eq!(one_by_one.terms, first_seen);
        }
        let mut vocabulary = Vocabulary::new(HERMES_2026_09.search);
        let runs = vocabulary.count_terms("Run", std::iter::once("runs running"));
        assert_eq!(vocabulary.terms.len(), 1, "{:?}", vocabulary.terms);
        assert_eq!(&*runs.terms, &[(0, 2)]);
        assert_eq!((runs.length, &*runs.lowercase_name), (2, "run"));
    }

    #[test]
    fn tokens_are_ascii_alphanumeric_runs() {
        let t: Vec<_> = tokens("listItems café_v2 東京 S3-put 100%", &seed_rules()).collect();
        assert_eq!(t, ["listitems", "caf", "v2", "s3", "put", "100"]);
        let t: Vec<_> = tokens("Creates issues, running", &HERMES_2026_09.search).collect();
        assert_eq!(t, ["creat", "issu", "run"]);
    }

    #[test]
    fn search_text_pieces_by_profile() {
        let seed: Vec<_> = search_text(
            &seed_rules(),
            "mcp_a.b-c:d",
            "a",
            "Desc.",
            ["x", "y"].into_iter(),
        )
        .collect();
        assert_eq!(seed, ["mcp_a.b-c:d", "Desc.", "x", "y"]);
        let rules = HERMES_2026_09.search;
        let with_label: Vec<_> = search_text(
            &rules,
            "mcp__my_api__deep",
            "my-api",
            "D",
            std::iter::empty(),
        )
        .collect();
        assert_eq!(with_label, ["my_api__deep", "my-api", "D"]);
        let without: Vec<_> =
            search_text(&rules, "mcp__github__x", "github", "D", std::iter::empty()).collect();
        assert_eq!(without, ["github__x", "D"]);
    }

    #[test]
    fn ties_keep_catalog_order_and_duplicates_count() {
        let idx = index(&[
            ("mcp_a_one", "create thing", &[]),
            ("mcp_a_two", "create thing", &[]),
        ]);
        let r = idx.search("create", 5);
        assert_eq!(r.hits.iter().map(|h| h.doc).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(r.hits[0].score, r.hits[1].score);
        let twice = idx.search("create create", 5);
        assert!((twice.hits[0].score - 2.0 * r.hits[0].score).abs() < 1e-12);
        assert_eq!(twice.hits[0].matched_terms, ["create"]);
        assert_eq!(idx.search("create", 1).hits[0].doc, 0);
    }

    /// A tiny deterministic generator for the differential tests.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as usize
        }
    }

    /// The ranking from scratch: every document scored in full with freshly computed
    /// weights, admitted by the profile's rule, sorted by score then catalog order.
    fn full_sort(
        vocabulary: &Vocabulary,
        counts: &[TermCounts],
        names: &[String],
        rules: &SearchRules,
        query: &str,
        limit: usize,
    ) -> Vec<(usize, f64)> {
        let n = counts.len() as f64;
        let avgdl = counts.iter().map(|c| f64::from(c.length)).sum::<f64>() / n;
        let tf = |doc: usize, term: u32| {
            counts[doc]
                .terms
                .iter()
                .find(|(t, _)| *t == term)
                .map(|&(_, tf)| tf)
        };
        let df = |term: u32| (0..counts.len()).filter(|&d| tf(d, term).is_some()).count();
        let terms: Vec<Option<u32>> = raw_tokens(query).map(|w| vocabulary.id(w)).collect();
        let score = |doc: usize| {
            let mut score = 0.0;
            for term in terms.iter().flatten() {
                if let Some(tf) = tf(doc, *term) {
                    let dl = f64::from(counts[doc].length);
                    score += term_weight(idf(n, df(*term) as f64), f64::from(tf), dl, avgdl);
                }
            }
            score
        };
        let gated = matches!(rules.admission, Admission::RarestToken { .. });
        let exact: Vec<usize> = (0..counts.len())
            .filter(|&d| gated && names[d].to_lowercase() == query.trim().to_lowercase())
            .collect();
        let admitted: Vec<usize> = match rules.admission {
            Admission::ScoreAboveZero => (0..counts.len()).filter(|&d| score(d) > 0.0).collect(),
            Admission::RarestToken { coverage_from } => {
                let rarest = terms
                    .iter()
                    .enumerate()
                    .min_by_key(|(i, t)| (t.map_or(0, df), *i))
                    .and_then(|(_, t)| *t);
                let mut answerable: Vec<u32> = terms
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|&t| df(t) > 0)
                    .collect();
                answerable.sort_unstable();
                answerable.dedup();
                let required = if answerable.len() < coverage_from {
                    1
                } else {
                    answerable.len().div_ceil(2)
                };
                (0..counts.len())
                    .filter(|d| !exact.contains(d))
                    .filter(|&d| rarest.is_some_and(|r| tf(d, r).is_some()))
                    .filter(|&d| {
                        answerable.iter().filter(|&&t| tf(d, t).is_some()).count() >= required
                    })
                    .collect()
            }
        };
        let mut ranked: Vec<(usize, f64)> = exact.iter().map(|&d| (d, f64::INFINITY)).collect();
        let mut scored: Vec<(usize, f64)> = admitted.into_iter().map(|d| (d, score(d))).collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.extend(scored);
        ranked.truncate(limit);
        ranked
    }

    #[test]
    fn pruned_search_equals_a_full_sort_from_scratch() {
        let words = [
            "alpha", "beta", "gamma", "delta", "issue", "issues", "list", "get", "page", "pages",
            "web", "run", "running", "query", "file",
        ];
        let mut rng = Lcg(7);
        let mut compared = 0;
        for rules in [seed_rules(), HERMES_2026_09.search] {
            for _ in 0..150 {
                let docs = 1 + rng.below(120);
                let mut vocabulary = Vocabulary::new(rules);
                let mut names = Vec::new();
                let mut counts = Vec::new();
                for d in 0..docs {
                    // Some documents repeat an earlier one, so that ties are common.
                    let text: Vec<&str> = if d > 0 && rng.below(4) == 0 {
                        vec![words[d % 3], words[3 + d % 2]]
                    } else {
                        // Skewed: the first words are common, the last ones rare.
                        (0..1 + rng.below(12))
                            .map(|_| {
                                let common_up_to = 1 + rng.below(words.len());
                                words[rng.below(common_up_to)]
                            })
                            .collect()
                    };
                    let name = format!("{}_{}", words[rng.below(words.len())], d % 7);
                    let text = text.join(" ");
                    counts.push(vocabulary.count_terms(
                        &name,
                        search_text(&rules, &name, "", &text, std::iter::empty()),
                    ));
                    names.push(name);
                }
                let index = SearchIndex::build(&vocabulary, &counts);
                for _ in 0..8 {
                    let query = if rng.below(6) == 0 {
                        names[rng.below(names.len())].clone()
                    } else {
                        (0..1 + rng.below(6))
                            .map(|_| words[rng.below(words.len())])
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let limit = 1 + rng.below(8);
                    let expected = full_sort(&vocabulary, &counts, &names, &rules, &query, limit);
                    let got = index.search(&vocabulary, &query, limit);
                    if got.via == Via::Substring {
                        continue;
                    }
                    let got: Vec<(usize, f64)> =
                        got.hits.iter().map(|h| (h.doc, h.score)).collect();
                    assert_eq!(got.len(), expected.len(), "{query:?} limit {limit}");
                    for (g, e) in got.iter().zip(&expected) {
                        assert_eq!(g.0, e.0, "{query:?} limit {limit}: {got:?} vs {expected:?}");
                        assert!(g.1 == e.1, "{query:?}: score {} vs {}", g.1, e.1);
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared > 2000, "only {compared} searches compared");
    }

    #[test]
    fn pruned_search_equals_a_full_sort_on_catalogs_of_twins() {
        // Families of tools that share a description and differ by a number in their names,
        // as generated servers do: nearly every query ties hundreds of documents.
        let words = [
            "alpha", "beta", "gamma", "delta", "issue", "list", "get", "page", "web", "run",
        ];
        let mut rng = Lcg(11);
        let mut compared = 0;
        for rules in [seed_rules(), HERMES_2026_09.search] {
            for _ in 0..40 {
                let families: Vec<String> = (0..1 + rng.below(3))
                    .map(|_| {
                        (0..1 + rng.below(8))
                            .map(|_| words[rng.below(words.len())])
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                let mut vocabulary = Vocabulary::new(rules);
                let mut names = Vec::new();
                let mut texts = Vec::new();
                let mut counts = Vec::new();
                for d in 0..20 + rng.below(300) {
                    let text = if rng.below(10) == 0 {
                        words[rng.below(words.len())].to_string()
                    } else {
                        families[rng.below(families.len())].clone()
                    };
                    let name = format!("same_{}_{}", words[rng.below(3)], d);
                    counts.push(vocabulary.count_terms(
                        &name,
                        search_text(&rules, &name, "", &text, std::iter::empty()),
                    ));
                    names.push(name);
                    texts.push(text);
                }
                let index = SearchIndex::build(&vocabulary, &counts);
                for _ in 0..12 {
                    let doc = rng.below(names.len());
                    let query = match rng.below(4) {
                        0 => names[doc].replace('_', " "),
                        1 => texts[doc].clone(),
                        2 => format!("{} {}", texts[doc], words[rng.below(words.len())]),
                        _ => format!("same {}", words[rng.below(words.len())]),
                    };
                    let limit = 1 + rng.below(8);
                    let expected = full_sort(&vocabulary, &counts, &names, &rules, &query, limit);
                    let got = index.search(&vocabulary, &query, limit);
                    let got: Vec<(usize, f64)> =
                        got.hits.iter().map(|h| (h.doc, h.score)).collect();
                    assert_eq!(got, expected, "{query:?} limit {limit}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 900, "only {compared} searches compared");
    }

    #[test]
    fn ties_do_not_make_a_search_read_every_twin() {
        // Tools of one description named apart by a number: a name's query finds its tool by
        // the number and reads no more as the twins multiply; the shared sentence, tied by
        // every twin, reads each a bounded number of times.
        let text = "Fetch a web page and return its content as markdown.";
        for rules in [seed_rules(), HERMES_2026_09.search] {
            let work = |twins: usize| {
                let mut vocabulary = Vocabulary::new(rules);
                let counts: Vec<TermCounts> = (0..twins)
                    .map(|i| {
                        let name = format!("same_{i}");
                        vocabulary.count_terms(
                            &name,
                            search_text(&rules, &name, "", text, std::iter::empty()),
                        )
                    })
                    .collect();
                let index = SearchIndex::build(&vocabulary, &counts);
                // The first searches sort the shared words' documents by weight, once.
                index.search(&vocabulary, "same 1", 5);
                let (hits, name) = index.search_measured(&vocabulary, "same 17", 5);
                assert_eq!(hits.hits[0].doc, 17);
                let (hits, sentence) = index.search_measured(&vocabulary, text, 5);
                let docs: Vec<usize> = hits.hits.iter().map(|h| h.doc).collect();
                assert_eq!(docs, [0, 1, 2, 3, 4]);
                let cost = |work: SearchWork| work.postings + work.lookups;
                (cost(name), cost(sentence) as f64 / twins as f64)
            };
            let (few, many) = (work(500), work(4_000));
            assert!(
                many.0 <= few.0 + 8,
                "name: {few:?} at 500, {many:?} at 4,000"
            );
            assert!(
                many.1 < 1.5 * few.1,
                "sentence: {few:?} at 500, {many:?} at 4,000"
            );
        }
    }

    #[test]
    fn a_repeated_term_keeps_ties_in_catalog_order() {
        // Six times 0.x added up: the two x documents' weights differ by an ulp and their
        // sums are equal, so the earlier one must come first at any limit.
        let filler = ["y"; 29].join(" ");
        let texts = ["x x", "x x x z z", filler.as_str()];
        let mut vocabulary = Vocabulary::new(seed_rules());
        let counts: Vec<TermCounts> = texts
            .iter()
            .map(|t| vocabulary.count_terms("", std::iter::once(*t)))
            .collect();
        let index = SearchIndex::build(&vocabulary, &counts);
        let query = "x x x x x x";
        let all = index.search(&vocabulary, query, 3);
        assert_eq!(all.hits.len(), 2);
        assert_eq!(all.hits[0].score, all.hits[1].score, "the sums tie");
        assert_eq!(all.hits[0].doc, 0);
        assert_eq!(index.search(&vocabulary, query, 1).hits[0].doc, 0);
    }

    #[test]
    fn fallback_only_when_nothing_scores() {
        let idx = index(&[
            ("mcp_x_github_issue", "open", &[]),
            ("mcp_x_slack", "post", &[]),
        ]);
        let r = idx.search("hub", 5);
        assert_eq!(
            (r.via, r.hits.len(), r.hits[0].score),
            (Via::Substring, 1, FALLBACK_SCORE)
        );
        assert_eq!(idx.search("open", 5).via, Via::Bm25);
        assert_eq!(idx.search("___", 5).via, Via::None);
        assert_eq!(idx.search("", 5).via, Via::None);
        assert_eq!(idx.search("hub", 0).via, Via::None);
        assert_eq!(index(&[]).search("hub", 5).via, Via::None);
    }

    #[test]
    fn rarest_token_gate_coverage_and_exact_names() {
        let idx = index_with(
            HERMES_2026_09.search,
            &[
                ("mcp__gh__create_issue", "open an issue", &["title"]),
                ("mcp__gh__list_issues", "list the issues", &[]),
                ("mcp__slack__send", "send a message", &[]),
            ],
        );
        let r = idx.search("issues slack", 5);
        let docs: Vec<usize> = r.hits.iter().map(|h| h.doc).collect();
        assert_eq!(
            docs,
            [2],
            "slack is the rarest word and only the slack tool has it"
        );
        assert_eq!(r.gate.as_ref().unwrap().word, "slack");
        let r = idx.search("nonexistent issues", 5);
        assert_eq!((r.via, r.gate.unwrap().document_frequency), (Via::None, 0));
        let r = idx.search("MCP__GH__LIST_ISSUES", 5);
        assert_eq!(r.via, Via::Exact);
        assert!(r.hits[0].score.is_infinite() && r.hits[0].exact_name);
        assert_eq!(r.hits[0].doc, 1);
        let r = idx.search("create open issue title", 5);
        let gate = r.gate.unwrap();
        assert_eq!((gate.answerable, gate.required), (4, 2));
        assert_eq!(r.hits.len(), 1);
        assert_eq!(
            idx.index.admission(&idx.vocabulary, "issues slack", 0),
            Admitted::MissingGate {
                word: "slack".into()
            }
        );
        assert_eq!(
            idx.index
                .admission(&idx.vocabulary, "create open title list", 1),
            Admitted::MissingGate {
                word: "create".into()
            },
            "four words in one document each: the first is the gate"
        );
        assert_eq!(
            idx.index
                .admission(&idx.vocabulary, "list slack send message", 1),
            Admitted::TooFewWords {
                held: 1,
                required: 2
            },
            "list_issues holds the gate (list) but not half of the four words"
        );
        assert_eq!(
            idx.index
                .admission(&idx.vocabulary, "list gh slack send", 1),
            Admitted::Yes
        );
        let misses = idx.index.near_misses(&idx.vocabulary, "issues slack", 5);
        let why: Vec<(usize, Admitted)> = misses.into_iter().map(|(d, _, a)| (d, a)).collect();
        let slack = || Admitted::MissingGate {
            word: "slack".into(),
        };
        assert_eq!(
            why,
            [(1, slack()), (0, slack())],
            "the issue tools score but lack the gate; list_issues (issues twice) ranks first"
        );
    }

    #[test]
    fn index_counts_lengths_and_frequencies() {
        let f = index(&[
            ("mcp_a_x", "Alpha beta beta", &["beta_id"]),
            ("mcp_a_y", "gamma", &[]),
        ]);
        assert_eq!(f.index.len(), 2);
        assert_eq!(f.index.document_frequency(&f.vocabulary, "beta"), 1);
        assert_eq!(f.index.document_frequency(&f.vocabulary, "mcp"), 2);
        assert_eq!(f.index.document_frequency(&f.vocabulary, "zeta"), 0);
        // dl: "mcp a x alpha beta beta beta id" = 8, "mcp a y gamma" = 4.
        assert_eq!(f.index.avgdl(), 6.0);
    }

    #[test]
    fn scoring_a_document_by_term_counts_matches_a_search() {
        let f = index(&[
            ("mcp_a_x", "alpha beta beta", &[]),
            ("mcp_a_y", "beta gamma", &[]),
            ("mcp_a_z", "delta", &[]),
        ]);
        let mut vocabulary = f.vocabulary.clone();
        let query = vocabulary.count_terms("", std::iter::once("beta beta gamma"));
        let hits = f.search("beta beta gamma", 5).hits;
        assert_eq!(hits.len(), 2);
        for hit in hits {
            assert!((f.index.score_terms(&query, hit.doc) - hit.score).abs() < 1e-12);
        }
        assert_eq!(f.index.score_terms(&query, 2), 0.0);
    }

    #[test]
    fn limit_rule() {
        let s = ToolSearchSettings::defaults(Profile::seed());
        assert_eq!(resolve_limit(&Scalar::Null, &s), 5);
        assert_eq!(resolve_limit(&Scalar::Float(2.9), &s), 2);
        assert_eq!(resolve_limit(&Scalar::Text("2.5"), &s), 5);
        assert_eq!(resolve_limit(&Scalar::Int(-4), &s), 1);
        assert_eq!(resolve_limit(&Scalar::Int(999), &s), 20);
    }
}
