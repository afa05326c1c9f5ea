//! The catalog search (ENGINE.md §6): tokens, BM25 with k1 = 1.5 and b = 0.75, the substring
//! fallback, and the limit rule.

use rustc_hash::FxHashMap;

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

/// A document to index: a tool's Hermes name, description and top-level parameter names.
pub struct Document<'a, P: Iterator<Item = &'a str>> {
    /// Hermes name.
    pub name: &'a str,
    /// Description sent to the model.
    pub description: &'a str,
    /// Top-level parameter names.
    pub parameter_names: P,
}

/// A BM25 index over a catalog, in catalog order.
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    terms: FxHashMap<String, u32>,
    /// Per term: `(doc, tf)` in ascending doc order.
    postings: Vec<Vec<(u32, u32)>>,
    /// Per doc: token count.
    lengths: Vec<u32>,
    /// Per doc: lowercased name, for the substring fallback.
    lowercase_names: Vec<String>,
    avgdl: f64,
}

impl SearchIndex {
    /// Indexes `documents` (in catalog order).
    pub fn build<'a, P, I>(documents: I) -> SearchIndex
    where
        P: Iterator<Item = &'a str>,
        I: IntoIterator<Item = Document<'a, P>>,
    {
        let mut index = SearchIndex::default();
        let mut doc_terms: Vec<u32> = Vec::new();
        let mut lowered = String::new();
        for (doc, document) in documents.into_iter().enumerate() {
            doc_terms.clear();
            let mut add = |text: &str, doc_terms: &mut Vec<u32>| {
                for token in text
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter(|t| !t.is_empty())
                {
                    lowered.clear();
                    lowered.push_str(token);
                    lowered.make_ascii_lowercase();
                    let next = index.terms.len() as u32;
                    let id = match index.terms.get(lowered.as_str()) {
                        Some(&id) => id,
                        None => {
                            index.terms.insert(lowered.clone(), next);
                            index.postings.push(Vec::new());
                            next
                        }
                    };
                    doc_terms.push(id);
                }
            };
            add(document.name, &mut doc_terms);
            add(document.description, &mut doc_terms);
            for parameter in document.parameter_names {
                add(parameter, &mut doc_terms);
            }
            index.lengths.push(doc_terms.len() as u32);
            index.lowercase_names.push(document.name.to_lowercase());
            doc_terms.sort_unstable();
            for run in doc_terms.chunk_by(|a, b| a == b) {
                index.postings[run[0] as usize].push((doc as u32, run.len() as u32));
            }
        }
        let total: u64 = index.lengths.iter().map(|&l| u64::from(l)).sum();
        index.avgdl = if index.lengths.is_empty() {
            0.0
        } else {
            total as f64 / index.lengths.len() as f64
        };
        index
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

    /// Documents containing the (lowercase) token.
    pub fn document_frequency(&self, token: &str) -> usize {
        self.terms
            .get(token)
            .map_or(0, |&id| self.postings[id as usize].len())
    }

    /// Ranks the catalog for `query`, cut to `limit` hits.
    pub fn search(&self, query: &str, limit: usize) -> SearchResult {
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
            let Some(&id) = self.terms.get(token.as_str()) else {
                continue;
            };
            let postings = &self.postings[id as usize];
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
                .filter(|(_, name)| name.contains(&needle))
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
                matched_terms: self.matched_terms(doc, &query_tokens),
            })
            .collect();
        SearchResult {
            via: Via::Bm25,
            hits,
        }
    }

    /// The distinct query tokens that occur in `doc`, in query order.
    fn matched_terms(&self, doc: usize, query_tokens: &[String]) -> Vec<String> {
        let mut matched: Vec<String> = Vec::new();
        for token in query_tokens {
            if matched.contains(token) {
                continue;
            }
            let Some(&id) = self.terms.get(token.as_str()) else {
                continue;
            };
            if self.postings[id as usize]
                .binary_search_by_key(&(doc as u32), |&(d, _)| d)
                .is_ok()
            {
                matched.push(token.clone());
            }
        }
        matched
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(docs: &[(&'static str, &'static str, &'static [&'static str])]) -> SearchIndex {
        SearchIndex::build(docs.iter().map(|(name, description, params)| Document {
            name,
            description,
            parameter_names: params.iter().copied(),
        }))
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
    fn limit_rule() {
        let s = ToolSearchSettings::default();
        assert_eq!(resolve_limit(&Scalar::Null, &s), 5);
        assert_eq!(resolve_limit(&Scalar::Float(2.9), &s), 2);
        assert_eq!(resolve_limit(&Scalar::Text("2.5"), &s), 5);
        assert_eq!(resolve_limit(&Scalar::Int(-4), &s), 1);
        assert_eq!(resolve_limit(&Scalar::Int(999), &s), 20);
    }
}
