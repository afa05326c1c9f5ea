//! Queries that share their rarest word, answered together. A lint asks every tool's name and
//! first sentence, and many of those share their rarest word. The documents holding it are
//! read once for the group: their weights for every term the group's queries hold are
//! gathered, and each query adds its tokens' weights up over them, in the order
//! [`SearchIndex::score`] adds them, so every such document's sum is its score to the last bit.
//! Under the rarest-word gate these are the only documents admitted, and the pruned ranking of
//! a query alone reads each one's own terms, far apart in memory: a query whose rarest word a
//! few thousand tools hold costs a few thousand cache misses. Without the gate (seed, releases
//! before 0.21.3), the best of them set the bar from which the documents without the word are
//! ranked beside them ([`SearchIndex::max_score_beside`]): the word is usually the heaviest of
//! the query, so that bar is most often the last one, and the documents of the word are never
//! read again. Either way the hits, their order and their scores are those of the query
//! searched alone.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::{Cell, RefCell};

use crate::replay::search::index::SearchIndex;
use crate::replay::search::result::{tally, Gate, SearchResult, SearchWork, WORK};
use crate::replay::search::terms::{QueryToken, Vocabulary};
use crate::replay::search::topk::{Ranked, TopK};
use crate::replay::search::Asked;
use schematax_releases::Admission;

/// A query is answered with others of its rarest word when at least this many documents hold
/// that word: with fewer, the pruned ranking of the query alone reads about as little.
const SHARED_FROM: usize = 64;

/// The most queries in one group: a group is searched to its end once started, so a lint
/// stops within one group of its being cancelled.
const GROUP_MOST: usize = 1_024;

/// A term held by at least one candidate in this many is gathered as a weight for every
/// candidate (0 where it is not held), added up without a branch; a rarer one as a list.
/// A gathering then holds at most 48 bytes for each weight it finds (16 as found, and 32 in
/// a run of weights or 16 in a list), whatever the catalog.
const DENSE_SHARE: usize = 4;

/// The most weights found that a thread keeps room for between gatherings (16 MiB).
const FOUND_KEPT: usize = 1 << 20;

/// Candidates whose own terms are fetched side by side, before they are read.
const WARM_RUN: usize = 16;

/// No slot: the term is not one that a query of the group holds.
const NO_SLOT: u32 = u32::MAX;

/// A query answered with the others of its rarest word: its tokens, and its gate when the
/// profile has the rarest-word gate.
struct SharedQuery {
    /// Its place in the queries given.
    place: usize,
    tokens: Vec<QueryToken>,
    gate: Option<Gate>,
}

impl SharedQuery {
    /// How many of the query's distinct terms a hit must hold (its gate's rule, else one).
    fn required(&self) -> usize {
        self.gate.as_ref().map_or(1, |gate| gate.required)
    }
}

/// The documents holding a group's rarest word (its candidates, in catalog order), and their
/// weights for every term that the group's queries hold, gathered once and read by every
/// thread that ranks one of the queries.
struct Gathered<'a> {
    /// The rarest word's term.
    rarest: u32,
    docs: &'a [u32],
    /// The rarest word's weight in each candidate.
    rarest_weights: &'a [f64],
    /// The other terms of the group's queries, ascending: a term's place here is its slot.
    terms: Vec<u32>,
    /// Per slot, where its list starts in `lists` (and the next slot's, where it ends).
    list_starts: Vec<u32>,
    /// Per slot, the candidates holding its term (their places among the candidates) and their
    /// weights, slot after slot; nothing for a term gathered in `dense`.
    lists: Vec<(u32, f64)>,
    /// Per slot, where its weights for every candidate start in `dense` (in runs of the number
    /// of candidates), or [`NO_SLOT`] when it is gathered as a list.
    dense_of: Vec<u32>,
    dense: Vec<f64>,
    /// The candidates' terms read to gather them.
    read: usize,
}

/// Per-thread scratch: each term's slot while a group is gathered (else [`NO_SLOT`]), the
/// weights found then in the order found, and a query's sum and count of distinct terms held
/// for each candidate.
#[derive(Default)]
struct Scratch {
    slots: Vec<u32>,
    /// (slot, place of the candidate, weight).
    found: Vec<(u32, u32, f64)>,
    sums: Vec<f64>,
    held: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl SearchIndex {
    /// The term of the rarest word of `query` (its `tokens`), when the query is answered with
    /// the others of that word: the word is held by at least [`SHARED_FROM`] documents, the
    /// twins' index does not answer it, it has another word besides the rarest, it is not
    /// scanned as common words only, and no tool is named by the whole query. The search of
    /// such a query ranks the documents holding that word by every word; under the gate they
    /// are the only ones admitted, and without it the others are ranked after them, from the
    /// bar they set (see [`SearchIndex::max_score_beside`]).
    fn shared_rarest(&self, query: &str, tokens: &[QueryToken]) -> Option<u32> {
        if query.trim().is_empty() || tokens.is_empty() || self.is_empty() {
            return None;
        }
        let rarest = self.rarest(tokens).term?;
        if self.postings(Some(rarest)).0.len() < SHARED_FROM {
            return None;
        }
        if self.twins.as_deref().is_some_and(|t| t.answer(tokens)) {
            return None;
        }
        let walked = self.walked_terms(tokens);
        if walked.len() < 2 || self.scans_common(&walked) || !self.exact_names(query).is_empty() {
            return None;
        }
        Some(rarest)
    }

    /// `queries` in groups to give [`SearchIndex::search_together_measured`]: those that share
    /// their rarest word (see [`SearchIndex::shared_rarest`]) together, at most [`GROUP_MOST`]
    /// to a group, every other query alone; groups in the order of their first query.
    pub fn search_groups(&self, vocabulary: &Vocabulary, queries: &[&str]) -> Vec<Vec<usize>> {
        let rarest_words: Vec<Option<u32>> = queries
            .par_iter()
            .map(|query| self.shared_rarest(query, &SearchIndex::query_tokens(vocabulary, query)))
            .collect();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        // Per rarest word, its group still filling.
        let mut group_of: FxHashMap<u32, usize> = FxHashMap::default();
        for (place, rarest) in rarest_words.into_iter().enumerate() {
            let group = match rarest {
                Some(rarest) => match group_of.get(&rarest) {
                    Some(&group) if groups[group].len() < GROUP_MOST => group,
                    _ => *group_of.insert(rarest, groups.len()).insert(groups.len()),
                },
                None => groups.len(),
            };
            if group == groups.len() {
                groups.push(Vec::new());
            }
            groups[group].push(place);
        }
        groups
    }

    /// Searches every query of `queries`: each result as [`SearchIndex::search_measured`] gives
    /// it (less what scores below its floor, see [`Asked`]), in order, with the work done for
    /// it (a group's gathering is counted in its first query's, its ranking as postings read,
    /// and a ranking beside it as a search counts its work). Queries that share their rarest
    /// word are ranked together, on every core, over one gathering of its documents.
    pub fn search_together_measured(
        &self,
        vocabulary: &Vocabulary,
        queries: &[Asked],
        limit: usize,
    ) -> Vec<(SearchResult, SearchWork)> {
        if let [asked] = queries {
            return vec![self.search_asked_measured(vocabulary, *asked, limit)];
        }
        let mut results: Vec<Option<(SearchResult, SearchWork)>> = vec![None; queries.len()];
        let mut shared: FxHashMap<u32, Vec<(usize, Vec<QueryToken>)>> = FxHashMap::default();
        for (place, asked) in queries.iter().enumerate() {
            let tokens = SearchIndex::query_tokens(vocabulary, asked.query);
            match self
                .shared_rarest(asked.query, &tokens)
                .filter(|_| limit > 0)
            {
                Some(rarest) => shared.entry(rarest).or_default().push((place, tokens)),
                None => {
                    results[place] = Some(self.search_asked_measured(vocabulary, *asked, limit));
                }
            }
        }
        for (rarest, group) in shared {
            if let [(place, _)] = group.as_slice() {
                let asked = queries[*place];
                results[*place] = Some(self.search_asked_measured(vocabulary, asked, limit));
                continue;
            }
            let coverage_from = match self.admission {
                Some(Admission::RarestToken { coverage_from }) => Some(coverage_from),
                Some(Admission::ScoreAboveZero) | None => None,
            };
            let group: Vec<SharedQuery> = group
                .into_iter()
                .map(|(place, tokens)| SharedQuery {
                    place,
                    gate: coverage_from.map(|from| self.gate(vocabulary, &tokens, from).0),
                    tokens,
                })
                .collect();
            let gathered = self.gather(rarest, &group);
            let answers: Vec<(usize, (SearchResult, SearchWork))> = group
                .into_par_iter()
                .enumerate()
                .map(|(i, query)| {
                    let before = WORK.with(Cell::get);
                    // The gathering is counted in the work of the group's first query.
                    tally(if i == 0 { gathered.read } else { 0 }, 0);
                    let best = gathered.rank(&query, limit);
                    let result = match query.gate {
                        Some(gate) => self.gated_result(best, &query.tokens, &[], gate),
                        None => {
                            // The documents holding the rarest word are ranked: the others
                            // after them.
                            let asked = queries[query.place];
                            let mut kept = TopK::floored(limit, asked.floor);
                            for ranked in best {
                                kept.offer(ranked);
                            }
                            let walked = self.walked_terms(&query.tokens);
                            let best = self.max_score_beside(&query.tokens, &walked, rarest, kept);
                            if best.is_empty() && asked.floor.is_finite() {
                                // Nothing at or above the floor: the whole search says what
                                // answers.
                                self.search(vocabulary, asked.query, limit)
                            } else {
                                self.scored_result((asked.query, &query.tokens, limit), best, &[])
                            }
                        }
                    };
                    (query.place, (result, WORK.with(Cell::get).since(before)))
                })
                .collect();
            for (place, answer) in answers {
                results[place] = Some(answer);
            }
        }
        results
            .into_iter()
            .map(|answer| answer.expect("every query is answered"))
            .collect()
    }

    /// Gathers the documents holding `rarest` and their weights for every other term that a
    /// query of `group` holds: a list of the candidates holding it, or a weight for every
    /// candidate when at least one in [`DENSE_SHARE`] holds it. Each candidate's own terms
    /// are read once.
    fn gather(&self, rarest: u32, group: &[SharedQuery]) -> Gathered<'_> {
        let (docs, rarest_weights) = self.postings(Some(rarest));
        let mut terms: Vec<u32> = group
            .iter()
            .flat_map(|query| query.tokens.iter().filter_map(|token| token.term))
            .filter(|&term| term != rarest && (term as usize) < self.max_weights.len())
            .collect();
        terms.sort_unstable();
        terms.dedup();
        let mut read = 0;
        let mut counts = vec![0u32; terms.len()];
        let (mut list_starts, mut lists, mut dense_of, mut dense) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        SCRATCH.with(|cell| {
            let Scratch { slots, found, .. } = &mut *cell.borrow_mut();
            if slots.len() < self.max_weights.len() {
                slots.resize(self.max_weights.len(), NO_SLOT);
            }
            for (slot, &term) in terms.iter().enumerate() {
                slots[term as usize] = slot as u32;
            }
            found.clear();
            for (batch, run) in docs.chunks(WARM_RUN).enumerate() {
                // The run's terms are fetched side by side before they are read.
                self.warm(run.iter().copied());
                for (at, &doc) in run.iter().enumerate() {
                    let place = (batch * WARM_RUN + at) as u32;
                    let held = self.terms_of(doc);
                    read += held.len();
                    for &(term, tf) in held {
                        let slot = slots[term as usize];
                        if slot != NO_SLOT {
                            counts[slot as usize] += 1;
                            found.push((slot, place, self.weight_of(term, doc, tf)));
                        }
                    }
                }
            }
            for &term in &terms {
                slots[term as usize] = NO_SLOT;
            }
            // Each slot gets a list, or a run in `dense` when common among the candidates.
            let (mut listed, mut runs) = (0, 0);
            for &count in &counts {
                list_starts.push(listed);
                if count as usize * DENSE_SHARE < docs.len() {
                    dense_of.push(NO_SLOT);
                    listed += count;
                } else {
                    dense_of.push(runs);
                    runs += 1;
                }
            }
            list_starts.push(listed);
            dense.resize(runs as usize * docs.len(), 0.0);
            lists.resize(listed as usize, (0, 0.0));
            let mut next = list_starts.clone();
            for &(slot, place, weight) in found.iter() {
                let slot = slot as usize;
                match dense_of[slot] {
                    NO_SLOT => {
                        lists[next[slot] as usize] = (place, weight);
                        next[slot] += 1;
                    }
                    run => dense[run as usize * docs.len() + place as usize] = weight,
                }
            }
            if found.capacity() > FOUND_KEPT {
                *found = Vec::new();
            }
        });
        Gathered {
            rarest,
            docs,
            rarest_weights,
            terms,
            list_starts,
            lists,
            dense_of,
            dense,
            read,
        }
    }
}

impl Gathered<'_> {
    /// The best `limit` candidates for `query`: each candidate's weights for the query's
    /// tokens added up in the query's order, as [`SearchIndex::score`] adds them (a weight of 0
    /// where a candidate lacks a term changes no sum), so that each sum is the candidate's
    /// score to the last bit; and the distinct terms it holds, for the gate's coverage rule.
    fn rank(&self, query: &SharedQuery, limit: usize) -> Vec<Ranked> {
        let count = self.docs.len();
        SCRATCH.with(|cell| {
            let scratch = &mut *cell.borrow_mut();
            scratch.sums.clear();
            scratch.sums.resize(count, 0.0);
            scratch.held.clear();
            scratch.held.resize(count, 0);
            let (sums, held) = (&mut scratch.sums, &mut scratch.held);
            // A set, so that a query of thousands of words costs no quadratic lookups.
            let mut seen = FxHashSet::default();
            let mut read = 0;
            for term in query.tokens.iter().filter_map(|token| token.term) {
                let first = seen.insert(term);
                if term == self.rarest {
                    // Every candidate holds the rarest word: it is the `+ 1` of the count of
                    // terms held, below (the gate's rule; without the gate one is required).
                    add_each(sums, self.rarest_weights);
                    read += count;
                    continue;
                }
                // A term the index does not know (of another vocabulary) has no candidate.
                let Ok(slot) = self.terms.binary_search(&term) else {
                    continue;
                };
                match self.dense_of[slot] {
                    NO_SLOT => {
                        let list = &self.lists
                            [self.list_starts[slot] as usize..self.list_starts[slot + 1] as usize];
                        for &(place, weight) in list {
                            sums[place as usize] += weight;
                            held[place as usize] += u32::from(first);
                        }
                        read += list.len();
                    }
                    at => {
                        let at = at as usize;
                        let weights = &self.dense[at * count..(at + 1) * count];
                        add_each(sums, weights);
                        if first {
                            for (held, &weight) in held.iter_mut().zip(weights) {
                                *held += u32::from(weight > 0.0);
                            }
                        }
                        read += count;
                    }
                }
            }
            tally(read, 0);
            let mut best = TopK::new(limit);
            // Candidates come in catalog order: one that only ties the worst kept loses.
            let mut worst = 0.0;
            for ((&doc, &score), &held) in self.docs.iter().zip(sums.iter()).zip(held.iter()) {
                if score > worst && held as usize + 1 >= query.required() {
                    best.offer(Ranked { score, doc });
                    worst = best.worst().map_or(0.0, |kept| kept.score);
                }
            }
            best.into_sorted()
        })
    }
}

/// Adds `weights` to `sums`, place by place.
fn add_each(sums: &mut [f64], weights: &[f64]) {
    for (sum, &weight) in sums.iter_mut().zip(weights) {
        *sum += weight;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::search::fixture::{named_texts, seed_rules, Lcg};
    use schematax_releases::{Profile, SearchRules, HERMES_2026_09};

    const WORDS: [&str; 24] = [
        "list", "get", "the", "a", "file", "files", "issue", "page", "web", "query", "run",
        "create", "delete", "user", "repo", "branch", "commit", "search", "alpha", "beta", "gamma",
        "delta", "epsilon", "zeta",
    ];

    /// A catalog of `docs` tools on a skewed vocabulary (the first words common, the last
    /// ones held by a few hundredths of the tools), some of them sharing a description.
    fn catalog(rng: &mut Lcg, rules: SearchRules, docs: usize) -> (Vocabulary, SearchIndex) {
        let mut tools: Vec<(String, String)> = Vec::new();
        for d in 0..docs {
            let text = if d > 0 && rng.below(5) == 0 {
                tools[rng.below(tools.len())].1.clone()
            } else {
                rng.skewed_phrase(&WORDS, 2, 14)
            };
            let name = format!("{}_{}_{d}", WORDS[rng.below(WORDS.len())], d % 9);
            tools.push((name, text));
        }
        named_texts(rules, tools)
    }

    #[test]
    fn queries_searched_together_are_answered_as_each_alone() {
        let mut rng = Lcg(23);
        let (mut compared, mut shared, mut floored_compared) = (0, 0, 0);
        // hermes-0.20.6 ranks first the tool a query names exactly, at an infinite score.
        let stems = Profile::from_id("hermes-0.20.6").unwrap().spec().search;
        for rules in [
            seed_rules(),
            stems,
            HERMES_2026_09.search,
            Profile::newest().spec().search,
        ] {
            for _ in 0..12 {
                let docs = 300 + rng.below(900);
                let (vocabulary, index) = catalog(&mut rng, rules, docs);
                let queries: Vec<String> = (0..200)
                    .map(|i| match rng.below(10) {
                        // A tool's whole name: it leads, so the query is searched alone.
                        0 => format!("{}_{}_{i}", WORDS[rng.below(WORDS.len())], i % 9),
                        // A word twice, the rarest among them maybe.
                        1 => {
                            let word = WORDS[rng.below(WORDS.len())];
                            format!("{word} {} {word}", WORDS[rng.below(WORDS.len())])
                        }
                        _ => rng.phrase(&WORDS, 1, 8),
                    })
                    .collect();
                let asked: Vec<&str> = queries.iter().map(String::as_str).collect();
                shared += asked
                    .iter()
                    .filter(|q| {
                        let tokens = SearchIndex::query_tokens(&vocabulary, q);
                        index.shared_rarest(q, &tokens).is_some()
                    })
                    .count();
                // A limit above the tools of a group's rarest word (at least 64) leaves the
                // best of them short of full: the tools without it are then seeded as alone.
                for limit in [1, 5, 8, 100] {
                    let whole: Vec<Asked> = asked.iter().map(|q| Asked::whole(q)).collect();
                    let together = index.search_together_measured(&vocabulary, &whole, limit);
                    assert_eq!(together.len(), asked.len());
                    let mut alone_results = Vec::new();
                    for (query, (result, _)) in asked.iter().zip(together) {
                        let alone = index.search(&vocabulary, query, limit);
                        assert_eq!(result, alone, "{query:?} limit {limit}");
                        alone_results.push(alone);
                        compared += 1;
                    }
                    // With a floor (a hit's score, or above every hit), the hits at or above
                    // it; when none reaches it, the whole result.
                    let floored: Vec<Asked> = asked
                        .iter()
                        .zip(&alone_results)
                        .map(|(query, alone)| Asked {
                            query,
                            floor: {
                                let scores: Vec<f64> = alone
                                    .hits
                                    .iter()
                                    .map(|hit| hit.score)
                                    .filter(|score| score.is_finite())
                                    .collect();
                                match scores.len() {
                                    0 => 1.0,
                                    _ if rng.below(4) == 0 => scores[0] * 2.0,
                                    n => scores[rng.below(n)],
                                }
                            },
                        })
                        .collect();
                    let together = index.search_together_measured(&vocabulary, &floored, limit);
                    for ((asked, (result, _)), alone) in
                        floored.iter().zip(together).zip(alone_results)
                    {
                        let mut expected = alone.clone();
                        expected.hits.retain(|hit| hit.score >= asked.floor);
                        if expected.hits.is_empty() || alone.gate.is_some() {
                            expected = alone;
                        }
                        assert_eq!(result, expected, "{asked:?} limit {limit}");
                        floored_compared += 1;
                    }
                }
            }
        }
        assert!(compared > 10_000, "only {compared} searches compared");
        assert_eq!(floored_compared, compared);
        assert!(
            shared > 800,
            "only {shared} queries shared their rarest word"
        );
    }

    #[test]
    fn groups_hold_every_query_once_and_a_shared_group_one_rarest_word() {
        let mut rng = Lcg(5);
        let (vocabulary, index) = catalog(&mut rng, HERMES_2026_09.search, 1_000);
        let queries: Vec<String> = (0..300).map(|_| rng.phrase(&WORDS, 2, 5)).collect();
        let asked: Vec<&str> = queries.iter().map(String::as_str).collect();
        let groups = index.search_groups(&vocabulary, &asked);
        let mut places: Vec<usize> = groups.iter().flatten().copied().collect();
        places.sort_unstable();
        assert_eq!(places, (0..asked.len()).collect::<Vec<_>>());
        let rarest = |place: usize| {
            let tokens = SearchIndex::query_tokens(&vocabulary, asked[place]);
            index.shared_rarest(asked[place], &tokens)
        };
        let mut shared_groups = 0;
        for group in &groups {
            if group.len() > 1 {
                shared_groups += 1;
                assert!(rarest(group[0]).is_some(), "{group:?}");
                assert!(group.iter().all(|&place| rarest(place) == rarest(group[0])));
            }
        }
        assert!(shared_groups >= 3, "{shared_groups} shared groups");
        // A rarest word asked by more queries than a group holds fills several groups.
        let shared = asked[groups.iter().find(|group| group.len() > 1).unwrap()[0]];
        let many = vec![shared; 2 * GROUP_MOST + 52];
        let sizes: Vec<usize> = index
            .search_groups(&vocabulary, &many)
            .iter()
            .map(Vec::len)
            .collect();
        assert_eq!(sizes, [GROUP_MOST, GROUP_MOST, 52]);
        // Without the gate, the queries that share their rarest word are grouped as well.
        let (vocabulary, index) = catalog(&mut rng, seed_rules(), 1_000);
        let groups = index.search_groups(&vocabulary, &asked);
        assert!(groups.iter().any(|group| group.len() > 1));
    }

    #[test]
    fn a_group_reads_less_than_its_queries_alone() {
        // A twentieth of the tools hold "commit", each tool a few other words: the gathering
        // reads each of those tools' terms once for the whole group, and each query adds up
        // only its own words, where alone each query bounds every one of those tools.
        let mut rng = Lcg(3);
        let tools: Vec<(String, String)> = (0..2_000)
            .map(|d| {
                let mut text = vec!["commit"; usize::from(d % 20 == 0)];
                text.extend((0..6).map(|_| WORDS[rng.below(16)]));
                (format!("tool_{d}"), text.join(" "))
            })
            .collect();
        let (vocabulary, index) = named_texts(HERMES_2026_09.search, tools);
        let queries: Vec<String> = (0..40)
            .map(|i| format!("commit {} {}", WORDS[i % 16], WORDS[(i * 7) % 16]))
            .collect();
        let asked: Vec<&str> = queries.iter().map(String::as_str).collect();
        assert_eq!(index.search_groups(&vocabulary, &asked).len(), 1);
        let whole: Vec<Asked> = asked.iter().map(|q| Asked::whole(q)).collect();
        let together = index.search_together_measured(&vocabulary, &whole, 5);
        let read: u64 = together.iter().map(|(_, work)| work.postings).sum();
        let alone: u64 = asked
            .iter()
            .map(|q| index.search_measured(&vocabulary, q, 5).1)
            .map(|work| work.postings + work.lookups)
            .sum();
        assert!(read < alone, "together {read}, alone {alone}");
    }
}
