//! The BM25 index over a catalog: per term its postings (documents and weights, computed once),
//! its largest weight and its documents by weight; per document its terms and length; the
//! accumulator that adds postings up; and a document's score for a query.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use crate::replay::search::common::CommonTerms;
use crate::replay::search::result::{tally, tally_scored};
use crate::replay::search::terms::QueryToken;
use crate::replay::search::terms::{TermCounts, Vocabulary};
use crate::replay::search::twins::{Cores, Twins};
use schematax_releases::Admission;

/// BM25 term-frequency saturation.
pub const K1: f64 = 1.5;

/// BM25 length normalisation.
pub const B: f64 = 0.75;

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

/// The flag of a document that holds the gate token (or, in a seed search, an essential
/// term), beside its count of distinct terms.
pub(super) const HOLDS_GATE: u32 = 1 << 31;

/// A document's accumulator in a search: the weights added up for it, and how many distinct
/// query terms it holds (with [`HOLDS_GATE`]). Side by side, and aligned to their 16 bytes, so
/// that adding a posting touches one cache line, not two.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(16))]
pub(super) struct Slot {
    /// The weights added up.
    pub(super) score: f64,
    /// The distinct query terms held, with [`HOLDS_GATE`] when one of them is flagged.
    pub(super) held: u32,
}

/// Per-thread scratch of a search: an accumulator per document, and which ones it touched.
#[derive(Default)]
struct Scratch {
    slots: Vec<Slot>,
    touched: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// A BM25 index over a catalog, in catalog order: per term, its documents and their weights.
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    /// `docs[offsets[t]..offsets[t + 1]]`: documents of term `t`, ascending.
    pub(super) offsets: Vec<u32>,
    pub(super) docs: Vec<u32>,
    /// The BM25 weight of term `t` in each of those documents.
    pub(super) weights: Vec<f64>,
    /// Per term, its largest weight: the most it adds to any document's score.
    pub(super) max_weights: Vec<f64>,
    /// Per term, its largest term frequency in a document.
    max_tfs: Vec<u32>,
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
    pub(super) lowercase_names: Vec<Arc<str>>,
    /// Docs sorted by lowercased name, for exact-name lookups.
    by_name: Vec<u32>,
    avgdl: f64,
    pub(super) admission: Option<Admission>,
    /// The tool named by the whole query ranks first (and a substring fallback never runs).
    pub(super) exact_name_first: bool,
    /// The groups of twins and their own index, when many documents are twins.
    pub(super) twins: Option<Box<Twins<SearchIndex>>>,
    /// The commonest terms as bits of a mask per document, built the first time a query of
    /// common words only is ranked.
    pub(super) common: OnceLock<CommonTerms>,
}

impl SearchIndex {
    /// Indexes documents in catalog order; every term id must come from `vocabulary`. When
    /// many documents are twins (see [`Twins`]), a second index over one entry per group of
    /// twins answers the queries that no member's own words take part in.
    pub fn build<'a>(
        vocabulary: &Vocabulary,
        documents: impl IntoIterator<Item = &'a TermCounts>,
    ) -> SearchIndex {
        SearchIndex::build_on(vocabulary, documents, Cores::Every)
    }

    /// [`SearchIndex::build`] on the calling thread alone: safe to call from within parallel
    /// work that the build must not wait on.
    pub fn build_here<'a>(
        vocabulary: &Vocabulary,
        documents: impl IntoIterator<Item = &'a TermCounts>,
    ) -> SearchIndex {
        SearchIndex::build_on(vocabulary, documents, Cores::This)
    }

    fn build_on<'a>(
        vocabulary: &Vocabulary,
        documents: impl IntoIterator<Item = &'a TermCounts>,
        cores: Cores,
    ) -> SearchIndex {
        let documents: Vec<&TermCounts> = documents.into_iter().collect();
        let mut frequencies = vec![0u32; vocabulary.len()];
        for counts in &documents {
            for &(term, _) in counts.terms.iter() {
                frequencies[term as usize] += 1;
            }
        }
        let sum: u64 = documents.iter().map(|c| u64::from(c.length)).sum();
        let avgdl = if documents.is_empty() {
            0.0
        } else {
            sum as f64 / documents.len() as f64
        };
        let n = documents.len() as f64;
        let idfs: Vec<f64> = frequencies
            .iter()
            .map(|&df| idf(n, f64::from(df)))
            .collect();
        let twins = Twins::<SearchIndex>::find(vocabulary, &documents, cores).map(|grouping| {
            let entries: Vec<&TermCounts> = grouping.entries.iter().collect();
            let index = SearchIndex::assemble(vocabulary, &entries, idfs.clone(), avgdl);
            Box::new(grouping.into_twins(index))
        });
        SearchIndex {
            twins,
            ..SearchIndex::assemble(vocabulary, &documents, idfs, avgdl)
        }
    }

    /// The index of `documents` with the given per-term `idfs` and mean length (those of the
    /// whole catalog, also when `documents` are its groups of twins).
    fn assemble(
        vocabulary: &Vocabulary,
        documents: &[&TermCounts],
        idfs: Vec<f64>,
        avgdl: f64,
    ) -> SearchIndex {
        let mut offsets = vec![0u32; vocabulary.len() + 1];
        for counts in documents {
            for &(term, _) in counts.terms.iter() {
                offsets[term as usize + 1] += 1;
            }
        }
        for t in 1..offsets.len() {
            offsets[t] += offsets[t - 1];
        }
        let total = *offsets.last().unwrap_or(&0) as usize;
        let lengths: Vec<u32> = documents.iter().map(|c| c.length).collect();
        // One pass in catalog order: each document's postings go to their terms' ranges, with
        // their weights.
        let mut cursor = offsets.clone();
        let mut docs = vec![0u32; total];
        let mut weights = vec![0.0f64; total];
        let mut max_weights = vec![0.0f64; idfs.len()];
        let mut max_tfs = vec![0u32; idfs.len()];
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
                max_tfs[term] = max_tfs[term].max(tf);
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
            max_tfs,
            idfs,
            forward,
            lengths,
            lowercase_names,
            by_name,
            avgdl,
            admission: vocabulary.rules.map(|r| r.admission),
            exact_name_first: vocabulary.rules.is_some_and(|r| r.exact_name_first),
            twins: None,
            common: OnceLock::new(),
        }
    }

    /// Documents indexed.
    pub fn len(&self) -> usize {
        self.lowercase_names.len()
    }

    /// The entries a query naming no member's own word ranks: one per group of twins when the
    /// catalog is grouped, else one per document.
    pub fn ranked_entries(&self) -> usize {
        self.twins
            .as_deref()
            .map_or(self.len(), Twins::<SearchIndex>::entries)
    }

    /// The same index without its groups of twins: every query ranked over the documents.
    #[cfg(test)]
    pub(super) fn without_twins(&self) -> SearchIndex {
        SearchIndex {
            twins: None,
            ..self.clone()
        }
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
    pub(super) fn postings(&self, term: Option<u32>) -> (&[u32], &[f64]) {
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
    pub(super) fn weight(&self, term: Option<u32>, doc: u32) -> Option<f64> {
        let term = term?;
        let terms = &self.forward[doc as usize];
        let at = terms.binary_search_by_key(&term, |&(t, _)| t).ok()?;
        Some(self.weight_of(term, doc, terms[at].1))
    }

    /// Whether `doc` holds a term (false for no term).
    pub(super) fn holds(&self, term: Option<u32>, doc: u32) -> bool {
        term.is_some_and(|term| {
            self.forward[doc as usize]
                .binary_search_by_key(&term, |&(t, _)| t)
                .is_ok()
        })
    }

    /// Reads a term in each cache line of the terms of each of `docs`: independent reads the
    /// processor makes side by side, so that the documents' terms, far apart in memory, arrive
    /// together rather than one miss after another when each is then searched.
    pub(super) fn warm(&self, docs: impl Iterator<Item = u32>) {
        /// Term entries in a cache line.
        const PER_LINE: usize = 64 / std::mem::size_of::<(u32, u32)>();
        let terms = docs.fold(0u32, |acc, doc| {
            self.forward[doc as usize]
                .iter()
                .step_by(PER_LINE)
                .fold(acc, |acc, &(term, _)| acc ^ term)
        });
        std::hint::black_box(terms);
    }

    /// The most `term` can weigh in a document of `length` tokens before its terms are read:
    /// its weight at its largest term frequency in any document, at that length (a weight
    /// grows with the frequency and shrinks with the length).
    pub(super) fn length_bound(&self, term: u32, length: u32) -> f64 {
        term_weight(
            self.idfs[term as usize],
            f64::from(self.max_tfs[term as usize]),
            f64::from(length),
            self.avgdl,
        )
    }

    /// The length of `doc` in tokens (BM25's `dl`).
    pub(super) fn length(&self, doc: u32) -> u32 {
        self.lengths[doc as usize]
    }

    /// The `(term, tf)` pairs of `doc`, sorted by term.
    pub(super) fn terms_of(&self, doc: u32) -> &[(u32, u32)] {
        &self.forward[doc as usize]
    }

    /// The weight of `term`, found `tf` times in `doc`.
    pub(super) fn weight_of(&self, term: u32, doc: u32, tf: u32) -> f64 {
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

    /// Documents whose lowercased name is the whole trimmed, lowercased query.
    pub(super) fn exact_names(&self, query: &str) -> Vec<u32> {
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

    /// Adds the weights of every query token (given by its term, in query order) into the
    /// thread's accumulator and calls `finish` with the touched documents and every document's
    /// [`Slot`]: its score, and how many distinct query terms it holds (with [`HOLDS_GATE`] set
    /// when it holds one of the `flagged` terms).
    pub(super) fn accumulate<R>(
        &self,
        terms: &[Option<u32>],
        flagged: &[u32],
        finish: impl FnOnce(&[u32], &mut [Slot]) -> R,
    ) -> R {
        let mut seen = rustc_hash::FxHashSet::default();
        let first_time: Vec<bool> = terms
            .iter()
            .map(|term| term.is_some_and(|term| seen.insert(term)))
            .collect();
        // Sorted, so a query of thousands of words costs no quadratic lookups.
        let mut flagged = flagged.to_vec();
        flagged.sort_unstable();
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let Scratch { slots, touched } = &mut *scratch;
            if slots.len() < self.len() {
                slots.resize(self.len(), Slot::default());
            }
            touched.clear();
            for (&term, &first) in terms.iter().zip(&first_time) {
                let (docs, weights) = self.postings(term);
                tally(docs.len(), 0);
                // A repeated token adds its weight again, but is not a new term.
                let count = u32::from(first);
                let flag = if term.is_some_and(|term| flagged.binary_search(&term).is_ok()) {
                    HOLDS_GATE
                } else {
                    0
                };
                // Without a branch, which was mispredicted wherever documents touched before
                // and new ones alternate: each document is written after the touched ones,
                // and kept there only when it is new.
                let mut len = touched.len();
                touched.resize(len + docs.len(), 0);
                for (&doc, &weight) in docs.iter().zip(weights) {
                    let slot = &mut slots[doc as usize];
                    let before = slot.held;
                    touched[len] = doc;
                    len += usize::from(before == 0);
                    slot.score += weight;
                    slot.held = (before + count) | flag;
                }
                touched.truncate(len);
            }
            let result = finish(touched, slots);
            // `finish` changes only the touched documents' slots: they are all cleared here.
            for &doc in touched.iter() {
                slots[doc as usize] = Slot::default();
            }
            result
        })
    }

    /// The positions of term `term`'s postings, heaviest weight first, ties in catalog order.
    pub(super) fn impact_order(&self, term: usize) -> &[u32] {
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
    pub(super) fn score(&self, doc: u32, tokens: &[QueryToken]) -> f64 {
        tally(0, tokens.len());
        tally_scored();
        let mut score = 0.0;
        for token in tokens {
            if let Some(weight) = self.weight(token.term, doc) {
                score += weight;
            }
        }
        score
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
    use crate::replay::search::fixture::index;

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
}
