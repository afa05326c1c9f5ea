//! Twins: documents that score alike on every query but those naming their own words. Copies of
//! a server installed under several names (`github-1`, `github-2`, ...) give each of its tools
//! a twin per copy, equal in length and in every term but a word of the server's name.
//!
//! Such documents are grouped into one entry of a second index: the terms they share, at their
//! length, weighted with the whole catalog's `idf` and mean length, so each weight is the one
//! every member has, to the last bit. A query none of whose terms is a member's own (the
//! `residual` terms) is ranked over the entries, each scored once, and the best entries are
//! expanded into their members in catalog order: a catalog of N tools with T twins each is
//! searched like one of N / T. Any other query is ranked over the documents, as without twins.
//!
//! The expansion is exact. Entries are numbered in the order of their first members, so a
//! ranking of entries breaks ties by first member. If a document is among the best `limit`,
//! so is its entry among the best `limit` entries: each entry ranked above it has a first
//! member ranked above the document (a higher score, or the same and earlier in the catalog).

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::Arc;

use crate::replay::search::terms::{raw_tokens, QueryToken, TermCounts, Vocabulary};
use crate::replay::search::topk::{top_k, Ranked};

/// A catalog is grouped only when its entries are at most this fraction of its documents: a
/// second index that saves less is not worth its memory.
const MOST_ENTRIES_PER_DOCUMENT: f64 = 0.5;

/// The groups of twins of a catalog and the index over them (the search's index, named by
/// the module that holds one: this module does not import it).
#[derive(Debug, Clone)]
pub(crate) struct Twins<I> {
    /// One entry per group: the terms its members share, at their length.
    pub(super) index: I,
    /// `members[starts[e]..starts[e + 1]]`: the documents of entry `e`, ascending.
    starts: Vec<u32>,
    members: Vec<u32>,
    /// The terms some member holds and its entry leaves out, ascending.
    residual: Vec<u32>,
}

/// Where an index and its twins' keys are built: on every core, or on the calling thread alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cores {
    /// On every core.
    Every,
    /// On the calling thread.
    This,
}

/// What [`Twins::find`] found, before its entries are indexed.
pub(super) struct Grouping {
    /// Per entry, the terms its members share, at their length, with its first member's name.
    pub(super) entries: Vec<TermCounts>,
    starts: Vec<u32>,
    members: Vec<u32>,
    residual: Vec<u32>,
}

impl Grouping {
    /// The twins, once their entries are indexed.
    pub(super) fn into_twins<I>(self, index: I) -> Twins<I> {
        Twins {
            index,
            starts: self.starts,
            members: self.members,
            residual: self.residual,
        }
    }
}

/// A 64-bit mix of a term and its frequency: a document's key is the sum over its terms, so a
/// term is taken out by subtracting its mix.
fn mix(term: u32, tf: u32) -> u64 {
    let mut z = ((u64::from(term) << 32) | u64::from(tf)).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A grouping key: a document's length, the sum of its kept terms' mixes, and whether it keeps
/// them all.
type Key = (u32, u64, bool);

/// The ways a document can be grouped: by all its terms (`removed` none), or by all but one
/// word of its name. Keyed by its length and the sum of its remaining terms' mixes.
struct Keys {
    length: u32,
    whole: u64,
    /// `(key, term)`: the key without `term`, one of the document's name words.
    without: Vec<(u64, u32)>,
}

impl Keys {
    fn of(vocabulary: &Vocabulary, counts: &TermCounts) -> Keys {
        let whole = counts
            .terms
            .iter()
            .fold(0u64, |sum, &(term, tf)| sum.wrapping_add(mix(term, tf)));
        let mut name_terms: Vec<u32> = raw_tokens(&counts.lowercase_name)
            .filter_map(|word| vocabulary.id(word))
            .collect();
        name_terms.sort_unstable();
        name_terms.dedup();
        let without = name_terms
            .into_iter()
            .filter_map(|term| {
                let at = counts.terms.binary_search_by_key(&term, |&(t, _)| t).ok()?;
                let tf = counts.terms[at].1;
                Some((whole.wrapping_sub(mix(term, tf)), term))
            })
            .collect();
        Keys {
            length: counts.length,
            whole,
            without,
        }
    }
}

/// The terms of `counts` without `removed`.
fn shared_terms(counts: &TermCounts, removed: Option<u32>) -> impl Iterator<Item = &(u32, u32)> {
    counts
        .terms
        .iter()
        .filter(move |&&(term, _)| Some(term) != removed)
}

impl<I> Twins<I> {
    /// Groups `documents` into twins: each takes the key (all its terms, or all but one of its
    /// name words) that most documents share, all its terms when none is shared; documents of
    /// one key whose remaining terms are equal form a group. None when the groups would save
    /// too little.
    pub(super) fn find(
        vocabulary: &Vocabulary,
        documents: &[&TermCounts],
        cores: Cores,
    ) -> Option<Grouping> {
        if documents.len() < 2 {
            return None;
        }
        let key = |counts: &&TermCounts| Keys::of(vocabulary, counts);
        let keys: Vec<Keys> = match cores {
            Cores::Every => documents.par_iter().map(key).collect(),
            Cores::This => documents.iter().map(key).collect(),
        };
        let mut shared: FxHashMap<Key, u32> = FxHashMap::default();
        for key in &keys {
            *shared.entry((key.length, key.whole, true)).or_default() += 1;
            for &(without, _) in &key.without {
                *shared.entry((key.length, without, false)).or_default() += 1;
            }
        }
        // Each document's key, and the name word it leaves out.
        let chosen: Vec<(Key, Option<u32>)> = keys
            .iter()
            .map(|key| {
                let whole = (key.length, key.whole, true);
                let mut best = (whole, None, shared[&whole]);
                for &(without, term) in &key.without {
                    let count = shared[&(key.length, without, false)];
                    if count > best.2 {
                        best = ((key.length, without, false), Some(term), count);
                    }
                }
                (best.0, best.1)
            })
            .collect();
        drop(shared);
        Self::group(documents, &chosen)
    }

    /// The groups of `documents` by their `chosen` keys, members' remaining terms checked equal.
    fn group(documents: &[&TermCounts], chosen: &[(Key, Option<u32>)]) -> Option<Grouping> {
        let mut entry_of_key: FxHashMap<Key, u32> = FxHashMap::default();
        let mut entries: Vec<(usize, Option<u32>)> = Vec::new();
        let mut entry_of: Vec<u32> = Vec::with_capacity(documents.len());
        let mut sizes: Vec<u32> = Vec::new();
        for (doc, &(key, removed)) in chosen.iter().enumerate() {
            let joined = entry_of_key.get(&key).copied().filter(|&entry| {
                let (first, first_removed) = entries[entry as usize];
                shared_terms(documents[first], first_removed)
                    .eq(shared_terms(documents[doc], removed))
            });
            let entry = joined.unwrap_or_else(|| {
                let entry = entries.len() as u32;
                entries.push((doc, removed));
                sizes.push(0);
                entry_of_key.entry(key).or_insert(entry);
                entry
            });
            sizes[entry as usize] += 1;
            entry_of.push(entry);
        }
        if entries.len() as f64 > MOST_ENTRIES_PER_DOCUMENT * documents.len() as f64 {
            return None;
        }
        let mut starts = vec![0u32; entries.len() + 1];
        for (entry, &size) in sizes.iter().enumerate() {
            starts[entry + 1] = starts[entry] + size;
        }
        let mut cursor = starts.clone();
        let mut members = vec![0u32; documents.len()];
        let mut residual = Vec::new();
        for (doc, &entry) in entry_of.iter().enumerate() {
            let slot = &mut cursor[entry as usize];
            members[*slot as usize] = doc as u32;
            *slot += 1;
            if sizes[entry as usize] > 1 {
                residual.extend(chosen[doc].1);
            }
        }
        residual.sort_unstable();
        residual.dedup();
        let entries = entries
            .into_iter()
            .zip(&sizes)
            .map(|((first, removed), &size)| {
                let counts = documents[first];
                let terms = match removed {
                    Some(_) if size > 1 => shared_terms(counts, removed).copied().collect(),
                    _ => Arc::clone(&counts.terms),
                };
                TermCounts {
                    terms,
                    length: counts.length,
                    lowercase_name: Arc::clone(&counts.lowercase_name),
                }
            })
            .collect();
        Some(Grouping {
            entries,
            starts,
            members,
            residual,
        })
    }

    /// Whether a query of `tokens` ranks alike over the entries: none of its terms is a
    /// member's own.
    pub(super) fn answer(&self, tokens: &[QueryToken]) -> bool {
        tokens
            .iter()
            .filter_map(|token| token.term)
            .all(|term| self.residual.binary_search(&term).is_err())
    }

    /// The documents of entry `entry`, ascending.
    fn members(&self, entry: u32) -> &[u32] {
        let entry = entry as usize;
        &self.members[self.starts[entry] as usize..self.starts[entry + 1] as usize]
    }

    /// The best `limit` documents of the best `limit` entries, ranked: each member at its
    /// entry's score, ties in catalog order.
    pub(super) fn expand(&self, entries: Vec<Ranked>, limit: usize) -> Vec<Ranked> {
        let docs = entries.iter().flat_map(|ranked| {
            self.members(ranked.doc)
                .iter()
                .take(limit)
                .map(move |&doc| Ranked {
                    score: ranked.score,
                    doc,
                })
        });
        top_k(docs, limit)
    }

    /// Entries of the second index.
    pub(super) fn entries(&self) -> usize {
        self.starts.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use crate::replay::search::fixture::{seed_rules, Lcg};
    use crate::replay::search::{search_text, Asked, SearchIndex, SearchWork, Via, Vocabulary};
    use schematax_releases::{SearchRules, HERMES_2026_09};

    const WORDS: [&str; 20] = [
        "list",
        "get",
        "create",
        "issue",
        "page",
        "file",
        "repository",
        "pull",
        "request",
        "comment",
        "search",
        "user",
        "team",
        "project",
        "branch",
        "commit",
        "label",
        "milestone",
        "review",
        "workflow",
    ];

    /// `tools` tools of seeded descriptions on servers of ten, the whole catalog copied
    /// `copies` times under servers renamed `<server>-<copy>`; and the descriptions.
    fn copied(rules: SearchRules, tools: usize, copies: usize) -> (Vocabulary, SearchIndex) {
        let mut rng = Lcg(5);
        let texts: Vec<String> = (0..tools)
            .map(|_| rng.skewed_phrase(&WORDS, 3, 10))
            .collect();
        let mut vocabulary = Vocabulary::new(rules);
        let mut counts = Vec::new();
        for copy in 0..copies {
            for (tool, text) in texts.iter().enumerate() {
                let server = format!("srv{}-{copy}", tool / 10);
                let name = format!("mcp__{server}__tool{tool}");
                let pieces = search_text(&rules, &name, &server, text, std::iter::empty());
                counts.push(vocabulary.count_terms(&name, pieces));
            }
        }
        let index = SearchIndex::build(&vocabulary, &counts);
        (vocabulary, index)
    }

    #[test]
    fn a_hundred_twins_of_each_tool_score_as_many_entries_as_one_copy() {
        let mut rng = Lcg(9);
        let queries: Vec<String> = (0..60).map(|_| rng.phrase(&WORDS, 1, 8)).collect();
        for rules in [seed_rules(), HERMES_2026_09.search] {
            let (one_vocabulary, one) = copied(rules, 200, 1);
            let (many_vocabulary, many) = copied(rules, 200, 100);
            assert_eq!(one.ranked_entries(), 200, "one copy has no twins");
            assert_eq!(
                many.ranked_entries(),
                200,
                "a hundred copies: one entry per tool"
            );
            let (mut alone, mut twinned) = (SearchWork::default(), SearchWork::default());
            let mut same = 0;
            for query in &queries {
                let (hits, work) = one.search_measured(&one_vocabulary, query, 5);
                let (twin_hits, twin_work) = many.search_measured(&many_vocabulary, query, 5);
                assert_eq!(
                    hits.via == Via::Bm25,
                    twin_hits.via == Via::Bm25,
                    "{query:?}"
                );
                // The same entries scored, but where the weights' last digits (the idf of
                // 100 df in 20,000 documents against 1 in 200) move a pruning decision.
                assert!(
                    twin_work.scored.abs_diff(work.scored) <= 2,
                    "{query:?}: {twin_work:?} with twins, {work:?} without"
                );
                same += usize::from(twin_work.scored == work.scored);
                alone = alone + work;
                twinned = twinned + twin_work;
            }
            assert!(alone.scored > 0);
            assert!(
                same * 10 >= queries.len() * 9,
                "{same} of {} alike",
                queries.len()
            );
            let cost = |w: SearchWork| w.postings + w.lookups;
            assert!(
                cost(twinned) <= cost(alone) + cost(alone) / 10,
                "a hundred twins: {twinned:?}, one copy: {alone:?}"
            );
        }
    }

    #[test]
    fn ranking_the_groups_gives_the_hits_and_scores_of_ranking_the_documents() {
        let mut rng = Lcg(3);
        for rules in [seed_rules(), HERMES_2026_09.search] {
            for (tools, copies) in [(40, 3), (25, 12), (7, 30)] {
                let (vocabulary, grouped) = copied(rules, tools, copies);
                assert!(grouped.twins.is_some(), "{tools} tools, {copies} copies");
                let ungrouped = grouped.without_twins();
                for _ in 0..150 {
                    let mut words: Vec<String> = (0..1 + rng.below(9))
                        .map(|_| WORDS[rng.below(WORDS.len())].to_string())
                        .collect();
                    // Some queries name a copy, a server or a tool: ranked over the documents.
                    match rng.below(6) {
                        0 => words.push(rng.below(copies).to_string()),
                        1 => words.push(format!("srv{}", rng.below(4))),
                        2 => words.push(format!("tool{}", rng.below(tools))),
                        _ => {}
                    }
                    let query = words.join(" ");
                    let limit = 1 + rng.below(12);
                    let ranked = |index: &SearchIndex| -> Vec<(usize, u64, Vec<String>)> {
                        let result = index.search(&vocabulary, &query, limit);
                        result
                            .hits
                            .into_iter()
                            .map(|h| (h.doc, h.score.to_bits(), h.matched_terms))
                            .collect()
                    };
                    assert_eq!(ranked(&grouped), ranked(&ungrouped), "{query:?} {limit}");
                    // With a floor at one of the hits' scores: those at or above it.
                    let whole = ungrouped.search(&vocabulary, &query, limit);
                    if let Some(hit) = whole.hits.get(rng.below(whole.hits.len().max(1))) {
                        let asked = Asked {
                            query: &query,
                            floor: hit.score,
                        };
                        let mut expected = whole.clone();
                        if whole.gate.is_none() {
                            expected.hits.retain(|h| h.score >= hit.score);
                        }
                        for index in [&grouped, &ungrouped] {
                            let floored = index.search_asked(&vocabulary, asked, limit);
                            assert_eq!(floored, expected, "{query:?} {limit} {}", hit.score);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_query_naming_a_copy_is_ranked_over_the_documents() {
        let (vocabulary, index) = copied(seed_rules(), 30, 10);
        assert_eq!(index.ranked_entries(), 30);
        let hits = index.search(&vocabulary, "srv1 7 list", 3).hits;
        assert!(
            hits.iter().all(|h| h.doc / 30 == 7),
            "copy 7's tools rank first"
        );
    }
}
