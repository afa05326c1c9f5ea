//! The catalog search (ENGINE.md §6): tokens, BM25 with k1 = 1.5 and b = 0.75, the substring
//! fallback, and the limit rule.

use rustc_hash::FxHashMap;
use std::sync::Arc;

use super::config::{clamp_integer, Scalar, ToolSearchSettings};

/// BM25 term-frequency saturation.
pub const K1: f64 = 1.5;
/// BM25 length normalisation.
pub const B: f64 = 0.75;
/// The score of every substring-fallback hit.
pub const FALLBACK_SCORE: f64 = 0.1;

/// The search tokens of `text`: maximal runs of ASCII `[A-Za-z0-9]`, lowercased. No stemming,
/// no stop words, no camelCase split; everything else (non-ASCII letters too) separates.
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_lowercase)
}

/// The search text of a tool: its name with `_ . - :` as spaces, its description, and its
/// top-level parameter names, joined by spaces.
pub fn search_text<'a>(
    name: &str,
    description: &str,
    parameter_names: impl Iterator<Item = &'a str>,
) -> String {
    let mut text: String = name
        .chars()
        .map(|c| {
            if matches!(c, '_' | '.' | '-' | ':') {
                ' '
            } else {
                c
            }
        })
        .collect();
    text.push(' ');
    text.push_str(description);
    text.push(' ');
    text.push_str(&parameter_names.collect::<Vec<_>>().join(" "));
    text
}

/// The limit of a search: absent/null -> `search_default_limit`; otherwise the integer rule
/// (fallback `search_default_limit`), clamped to [1, max_search_limit].
pub fn resolve_limit(raw: &Scalar<'_>, settings: &ToolSearchSettings) -> usize {
    let default = i64::from(settings.search_default_limit);
    let max = i64::from(settings.max_search_limit);
    match raw {
        Scalar::Null => default.clamp(1, max) as usize,
        _ => clamp_integer(raw, default, 1, max) as usize,
    }
}

/// How a search found its hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// BM25 scored at least one document above 0.
    Bm25,
    /// Nothing scored; the query matched tool names as a substring.
    Substring,
    /// Nothing found.
    None,
}

impl Via {
    /// `bm25`, `substring` or `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Bm25 => "bm25",
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
    /// BM25 score, or 0.1 for a substring hit.
    pub score: f64,
    /// The distinct query tokens the document holds, in query order (empty for substring hits).
    pub matched_terms: Vec<String>,
}

/// A search's result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// Which rule produced the hits.
    pub via: Via,
    /// Hits, best first, cut to the limit.
    pub hits: Vec<Hit>,
}

/// Every search token seen in a session's tools, each with a dense id. Tokenising a tool once,
/// when the session loads, makes rebuilding the index on every change cheap.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    ids: FxHashMap<Box<str>, u32>,
}

/// A tool's search text as token counts: `(term id, tf)` sorted by id, its length, and its
/// lowercased name for the substring fallback.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TermCounts {
    terms: Vec<(u32, u32)>,
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
    /// Terms known.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether no term is known.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The id of a lowercase token.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// Tokenises a tool's search text (name, description, top-level parameter names; see
    /// [`search_text`]) into term counts, adding new terms.
    pub fn count_terms<'a>(
        &mut self,
        name: &str,
        description: &str,
        parameter_names: impl Iterator<Item = &'a str>,
    ) -> TermCounts {
        let mut ids: Vec<u32> = Vec::new();
        let mut lowered = String::new();
        let mut add = |text: &str| {
            for token in text
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|t| !t.is_empty())
            {
                lowered.clear();
                lowered.push_str(token);
                lowered.make_ascii_lowercase();
                let next = self.ids.len() as u32;
                let id = *self.ids.entry(lowered.as_str().into()).or_insert(next);
                ids.push(id);
            }
        };
        add(name);
        add(description);
        for parameter in parameter_names {
            add(parameter);
        }
        let length = ids.len() as u32;
        ids.sort_unstable();
        let terms = ids
            .chunk_by(|a, b| a == b)
            .map(|run| (run[0], run.len() as u32))
            .collect();
        TermCounts {
            terms,
            length,
            lowercase_name: name.to_lowercase().into(),
        }
    }
}

/// A BM25 index over a catalog, in catalog order: postings per term id, stored flat.
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    /// `postings[offsets[t]..offsets[t + 1]]` holds `(doc, tf)` of term `t`, by ascending doc.
    offsets: Vec<u32>,
    postings: Vec<(u32, u32)>,
    /// Per doc: token count.
    lengths: Vec<u32>,
    /// Per doc: lowercased name, for the substring fallback.
    lowercase_names: Vec<Arc<str>>,
    avgdl: f64,
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
            for &(term, _) in &counts.terms {
                offsets[term as usize + 1] += 1;
            }
        }
        for t in 1..offsets.len() {
            offsets[t] += offsets[t - 1];
        }
        let mut cursor = offsets.clone();
        let mut postings = vec![(0u32, 0u32); *offsets.last().unwrap_or(&0) as usize];
        let mut lengths = Vec::with_capacity(documents.len());
        let mut lowercase_names = Vec::with_capacity(documents.len());
        for (doc, counts) in documents.iter().enumerate() {
            for &(term, tf) in &counts.terms {
                let slot = &mut cursor[term as usize];
                postings[*slot as usize] = (doc as u32, tf);
                *slot += 1;
            }
            lengths.push(counts.length);
            lowercase_names.push(Arc::clone(&counts.lowercase_name));
        }
        let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        let avgdl = if lengths.is_empty() {
            0.0
        } else {
            total as f64 / lengths.len() as f64
        };
        SearchIndex {
            offsets,
            postings,
            lengths,
            lowercase_names,
            avgdl,
        }
    }

    /// Documents indexed.
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Whether the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Mean document length in tokens.
    pub fn avgdl(&self) -> f64 {
        self.avgdl
    }

    /// `(doc, tf)` of a term, by ascending doc (empty when no document has it).
    fn postings(&self, term: Option<u32>) -> &[(u32, u32)] {
        match term {
            Some(t) if (t as usize) + 1 < self.offsets.len() => {
                &self.postings
                    [self.offsets[t as usize] as usize..self.offsets[t as usize + 1] as usize]
            }
            _ => &[],
        }
    }

    /// Documents containing the (lowercase) token.
    pub fn document_frequency(&self, vocabulary: &Vocabulary, token: &str) -> usize {
        self.postings(vocabulary.id(token)).len()
    }

    /// Ranks the catalog for `query`, cut to `limit` hits.
    pub fn search(&self, vocabulary: &Vocabulary, query: &str, limit: usize) -> SearchResult {
        let none = SearchResult {
            via: Via::None,
            hits: Vec::new(),
        };
        let query_tokens: Vec<String> = tokens(query).collect();
        if query.trim().is_empty() || query_tokens.is_empty() || self.is_empty() || limit == 0 {
            return none;
        }
        let n = self.len() as f64;
        let mut scores = vec![0.0f64; self.len()];
        for token in &query_tokens {
            let postings = self.postings(vocabulary.id(token));
            if postings.is_empty() {
                continue;
            }
            let df = postings.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(doc, tf) in postings {
                let tf = f64::from(tf);
                let dl = f64::from(self.lengths[doc as usize]);
                scores[doc as usize] +=
                    idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * dl / self.avgdl.max(1.0)));
            }
        }
        let mut ranked: Vec<(usize, f64)> = scores
            .iter()
            .enumerate()
            .filter(|(_, s)| **s > 0.0)
            .map(|(doc, s)| (doc, *s))
            .collect();
        if ranked.is_empty() {
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
                    matched_terms: Vec::new(),
                })
                .collect();
            let via = if hits.is_empty() {
                Via::None
            } else {
                Via::Substring
            };
            return SearchResult { via, hits };
        }
        // Stable: equal scores keep catalog order.
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked.truncate(limit);
        let hits = ranked
            .into_iter()
            .map(|(doc, score)| Hit {
                doc,
                score,
                matched_terms: self.matched_terms(vocabulary, doc, &query_tokens),
            })
            .collect();
        SearchResult {
            via: Via::Bm25,
            hits,
        }
    }

    /// BM25 score of document `doc` for a query given as term counts (a term counted `n` times
    /// contributes `n` times), as a search for that text would score it.
    pub fn score_terms(&self, query: &TermCounts, doc: usize) -> f64 {
        let n = self.len() as f64;
        let dl = f64::from(self.lengths[doc]);
        let mut score = 0.0;
        for &(term, count) in &query.terms {
            let postings = self.postings(Some(term));
            let Ok(at) = postings.binary_search_by_key(&(doc as u32), |&(d, _)| d) else {
                continue;
            };
            let df = postings.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            let tf = f64::from(postings[at].1);
            score += f64::from(count) * idf * tf * (K1 + 1.0)
                / (tf + K1 * (1.0 - B + B * dl / self.avgdl.max(1.0)));
        }
        score
    }

    /// The distinct query tokens that occur in `doc`, in query order.
    fn matched_terms(
        &self,
        vocabulary: &Vocabulary,
        doc: usize,
        query_tokens: &[String],
    ) -> Vec<String> {
        let mut matched: Vec<String> = Vec::new();
        for token in query_tokens {
            let present = self
                .postings(vocabulary.id(token))
                .binary_search_by_key(&(doc as u32), |&(d, _)| d)
                .is_ok();
            if present && !matched.contains(token) {
                matched.push(token.clone());
            }
        }
        matched
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture {
        vocabulary: Vocabulary,
        index: SearchIndex,
    }

    impl Fixture {
        fn search(&self, query: &str, limit: usize) -> SearchResult {
            self.index.search(&self.vocabulary, query, limit)
        }
    }

    fn index(docs: &[(&'static str, &'static str, &'static [&'static str])]) -> Fixture {
        let mut vocabulary = Vocabulary::default();
        let counts: Vec<TermCounts> = docs
            .iter()
            .map(|(name, description, params)| {
                vocabulary.count_terms(name, description, params.iter().copied())
            })
            .collect();
        let index = SearchIndex::build(&vocabulary, &counts);
        Fixture { vocabulary, index }
    }

    #[test]
    fn tokens_are_ascii_alphanumeric_runs() {
        let t: Vec<_> = tokens("listItems café_v2 東京 S3-put 100%").collect();
        assert_eq!(t, ["listitems", "caf", "v2", "s3", "put", "100"]);
    }

    #[test]
    fn search_text_joins_name_description_parameters() {
        assert_eq!(
            search_text("mcp_a.b-c:d", "Desc.", ["x", "y"].into_iter()),
            "mcp a b c d Desc. x y"
        );
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
        let query = vocabulary.count_terms("", "beta beta gamma", std::iter::empty());
        let hits = f.search("beta beta gamma", 5).hits;
        for hit in hits {
            assert!((f.index.score_terms(&query, hit.doc) - hit.score).abs() < 1e-12);
        }
        assert_eq!(f.index.score_terms(&query, 2), 0.0);
    }

    #[test]
    fn limit_rule() {
        let s = ToolSearchSettings::default();
        assert_eq!(resolve_limit(&Scalar::Null, &s), 5);
        assert_eq!(resolve_limit(&Scalar::Float(2.9), &s), 2);
        assert_eq!(resolve_limit(&Scalar::Text("2.5"), &s), 5);
        assert_eq!(resolve_limit(&Scalar::Int(-4), &s), 1);
        assert_eq!(resolve_limit(&Scalar::Int(999), &s), 20);
    }
}
