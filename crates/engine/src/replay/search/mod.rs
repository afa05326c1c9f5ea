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
//!
//! The layers, one file each:
//!
//! | file | what |
//! |---|---|
//! | `terms` | tokens, stemming, a tool's search text, [`Vocabulary`] and [`TermCounts`] |
//! | `index` | [`SearchIndex`]: postings, weights (BM25's `idf` and term weight), scores |
//! | `topk` | the best `limit` kept, the worst on top, the bar a bound must beat, and a floor |
//! | `maxscore` | the pruned ranking: term bounds, the bar's seeds, light terms, candidates |
//! | `common` | the common terms as bits of a mask per document (data only) |
//! | `dense` | the scan of a query of common words only over those masks |
//! | `admission` | the rarest-word gate ([`Gate`]), its search, and why a tool is not admitted |
//! | `twins` | groups of twins, one entry each in a second index, and their members |
//! | `shared_rarest` | queries that share their rarest word, ranked over one gathering of it |
//! | `result` | a search's result ([`SearchResult`], [`Hit`], [`Via`], [`Gate`]) and its work |
//! | `mod` | [`SearchIndex::search`] |

mod admission;
mod common;
mod dense;
mod index;
mod maxscore;
mod result;
mod shared_rarest;
mod terms;
mod topk;
mod twins;

pub use admission::Admitted;
pub use index::{idf, term_weight, SearchIndex, B, K1};
pub use result::{Gate, Hit, SearchResult, SearchWork, Via};
pub use terms::{
    raw_tokens, search_text, stem_word, tokens, TermCounts, TokenisedGroup, Vocabulary,
};

use std::cell::Cell;

use crate::nouns::config::{Scalar, ToolSearchSettings};
use result::{tally, WORK};
use schematax_releases::Admission;
use terms::QueryToken;
use topk::{Ranked, TopK};

/// A query, and the least score its asker needs ranked. A lint asks whether a tool comes back
/// for its own name: only the hits scoring at least the tool's own score can decide that, or
/// be what came instead. A search without the rarest-word gate gives back the hits of the
/// whole search that score at least `floor`, in its order (a hit naming a tool exactly scores
/// infinity), and its pruned ranking shuts out what cannot reach the floor; when no hit
/// reaches it, the whole result. A gated search gives the whole result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Asked<'q> {
    /// The query.
    pub query: &'q str,
    /// The least score needed; a floor that is not a finite number (negative infinity, say)
    /// asks for every hit.
    pub floor: f64,
}

impl<'q> Asked<'q> {
    /// `query`, every hit of it needed.
    pub fn whole(query: &'q str) -> Asked<'q> {
        Asked {
            query,
            floor: f64::NEG_INFINITY,
        }
    }
}

/// The score of every substring-fallback hit (seed).
pub const FALLBACK_SCORE: f64 = 0.1;

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

impl SearchIndex {
    /// The query's tokens, in order, each with its term.
    fn query_tokens(vocabulary: &Vocabulary, query: &str) -> Vec<QueryToken> {
        raw_tokens(query)
            .map(|token| QueryToken {
                word: token.to_ascii_lowercase(),
                term: vocabulary.id(token),
            })
            .collect()
    }

    /// The score document `doc` gets in a search for `query` (0 when it holds none of its
    /// words).
    pub fn query_score(&self, vocabulary: &Vocabulary, query: &str, doc: usize) -> f64 {
        self.score(doc as u32, &SearchIndex::query_tokens(vocabulary, query))
    }

    /// [`SearchIndex::search`], and the work it did.
    pub fn search_measured(
        &self,
        vocabulary: &Vocabulary,
        query: &str,
        limit: usize,
    ) -> (SearchResult, SearchWork) {
        self.search_asked_measured(vocabulary, Asked::whole(query), limit)
    }

    /// The search of `asked` (see [`Asked`]), and the work it did.
    fn search_asked_measured(
        &self,
        vocabulary: &Vocabulary,
        asked: Asked,
        limit: usize,
    ) -> (SearchResult, SearchWork) {
        let before = WORK.with(Cell::get);
        let result = self.search_asked(vocabulary, asked, limit);
        (result, WORK.with(Cell::get).since(before))
    }

    /// Ranks the catalog for `query` under the profile's admission rule, cut to `limit` hits.
    pub fn search(&self, vocabulary: &Vocabulary, query: &str, limit: usize) -> SearchResult {
        self.search_asked(vocabulary, Asked::whole(query), limit)
    }

    /// [`SearchIndex::search`] of `asked.query`, less the hits below `asked.floor` that a
    /// search without the rarest-word gate leaves out (see [`Asked`]).
    fn search_asked(&self, vocabulary: &Vocabulary, asked: Asked, limit: usize) -> SearchResult {
        let Asked { query, floor } = asked;
        let tokens = SearchIndex::query_tokens(vocabulary, query);
        if query.trim().is_empty() || tokens.is_empty() || self.is_empty() || limit == 0 {
            return SearchResult::empty();
        }
        match self.admission.unwrap_or(Admission::ScoreAboveZero) {
            Admission::ScoreAboveZero => {
                self.search_score_above_zero(query, &tokens, TopK::floored(limit, floor))
            }
            Admission::RarestToken { coverage_from } => {
                self.search_rarest_token(vocabulary, query, &tokens, limit, coverage_from)
            }
        }
    }

    /// Every document scoring above 0 (after the tool named by the query, where the profile
    /// ranks it first) that `best` (empty) keeps, else the substring fallback.
    fn search_score_above_zero(
        &self,
        query: &str,
        tokens: &[QueryToken],
        best: TopK,
    ) -> SearchResult {
        let limit = best.limit;
        let floored = best.floor().is_finite();
        let exact = if self.exact_name_first {
            self.exact_names(query)
        } else {
            Vec::new()
        };
        let mut scored = self.ranked_by_score(tokens, best);
        if scored.is_empty() && exact.is_empty() && floored {
            // Nothing at or above the floor: whether anything scores, or the substring
            // fallback answers, is for the whole search to say.
            scored = self.ranked_by_score(tokens, TopK::new(limit));
        }
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
        self.scored_result((query, tokens, limit), best, &exact)
    }

    /// The result of a search without the gate for `query` (its `tokens`, cut to `limit`) that
    /// ranked `best` (the `exact` names first, at an infinite score): the substring fallback
    /// when nothing scored.
    fn scored_result(
        &self,
        (query, tokens, limit): (&str, &[QueryToken], usize),
        best: Vec<Ranked>,
        exact: &[u32],
    ) -> SearchResult {
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
            hits: self.hits(best, tokens, exact),
            gate: None,
        }
    }

    /// The best documents scoring above 0 that `best` (empty) keeps, ranked (less any below its
    /// floor): over the groups of twins when the query names no member's own word.
    fn ranked_by_score(&self, tokens: &[QueryToken], mut best: TopK) -> Vec<Ranked> {
        let limit = best.limit;
        if let Some(twins) = self.twins.as_deref().filter(|twins| twins.answer(tokens)) {
            // A tool scores as its group: the groups kept, all at or above the floor, hold
            // every tool at or above it.
            let ranked = twins
                .index
                .ranked_by_score(tokens, TopK::floored(limit, best.floor()));
            return twins.expand(ranked, limit);
        }
        let walked = self.walked_terms(tokens);
        if self.scans_common(&walked) {
            self.scan_common(tokens, &walked, None, &mut best, |_, _| true);
            best.into_sorted_from_floor()
        } else if walked.len() > 1 {
            self.max_score(tokens, &walked, best)
        } else {
            // One term: its documents heaviest first, until the rest cannot get in.
            self.walk(&walked, best, |doc| {
                let score = self.score(doc, tokens);
                (score > 0.0).then_some(score)
            })
        }
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
            .filter(|token| self.holds(token.term, doc))
            .filter(|token| seen.insert(token.word.as_str()))
            .map(|token| token.word.clone())
            .collect()
    }
}

#[cfg(test)]
mod fixture {
    //! Small indexes for the unit tests of every layer.

    use super::*;
    use schematax_releases::{Profile, SearchRules};

    pub(super) fn seed_rules() -> SearchRules {
        Profile::seed().spec().search
    }

    pub(super) use crate::test_rng::Lcg;

    pub(super) struct Fixture {
        pub(super) vocabulary: Vocabulary,
        pub(super) index: SearchIndex,
    }

    impl Fixture {
        pub(super) fn search(&self, query: &str, limit: usize) -> SearchResult {
            self.index.search(&self.vocabulary, query, limit)
        }
    }

    pub(super) fn index_with(
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

    pub(super) fn index(docs: &[(&'static str, &'static str, &'static [&'static str])]) -> Fixture {
        index_with(seed_rules(), docs)
    }

    /// The vocabulary and index of tools given as (name, description), without parameters,
    /// under `rules`.
    pub(super) fn named_texts(
        rules: SearchRules,
        tools: impl IntoIterator<Item = (String, String)>,
    ) -> (Vocabulary, SearchIndex) {
        let mut vocabulary = Vocabulary::new(rules);
        let counts: Vec<TermCounts> = tools
            .into_iter()
            .map(|(name, text)| {
                vocabulary.count_terms(
                    &name,
                    search_text(&rules, &name, "", &text, std::iter::empty()),
                )
            })
            .collect();
        let index = SearchIndex::build(&vocabulary, &counts);
        (vocabulary, index)
    }
}

#[cfg(test)]
mod tests {
    use super::fixture::index;
    use super::*;
    use schematax_releases::Profile;

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
    fn limit_rule() {
        let s = ToolSearchSettings::defaults(Profile::seed());
        assert_eq!(resolve_limit(&Scalar::Null, &s), 5);
        assert_eq!(resolve_limit(&Scalar::Float(2.9), &s), 2);
        assert_eq!(resolve_limit(&Scalar::Text("2.5"), &s), 5);
        assert_eq!(resolve_limit(&Scalar::Int(-4), &s), 1);
        assert_eq!(resolve_limit(&Scalar::Int(999), &s), 20);
    }
}
