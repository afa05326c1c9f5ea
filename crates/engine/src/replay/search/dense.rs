//! The scan of a query made only of common words. When every word of a query is held by a good
//! part of the catalog (descriptions drawn from a small shared vocabulary), the pruned ranking
//! reads most postings of most of its words, for every query. Here each document's common
//! terms are held as the bits of one 64-bit mask, with their weights side by side (rounded to
//! `f32`, for bounds only): the scan reads one mask per document, drops it when the count of
//! query terms it holds cannot reach the worst kept, then when its weights cannot, and scores
//! in full only the documents that can still get in. Scanned in catalog order, the bar rises
//! as it goes, so about `limit · ln(N / limit)` documents are scored in full; what grows with
//! the catalog is the scan of one word per document. The ranking is exact: a bound is never
//! below the score it bounds, and a document that could tie the worst kept is scored.

use crate::replay::search::index::SearchIndex;
use crate::replay::search::maxscore::WalkedTerm;
use crate::replay::search::result::scan_tally;
use crate::replay::search::terms::QueryToken;
use crate::replay::search::topk::{Ranked, TopK};

/// The most terms held as bits: a mask is one `u64`.
const MOST_COMMON: usize = 64;

/// A term is common when at least one document in this many holds it.
const COMMON_SHARE: usize = 16;

/// No bit: the term is not one of the common ones.
const NO_BIT: u8 = u8::MAX;

/// An `f32` weight is within 2^-24 of the weight; sums of them in `f64`, times this, are never
/// below the `f64` score they bound.
const ROUNDING_SLACK: f64 = 1.0 + 1e-6;

/// The catalog's commonest terms (up to [`MOST_COMMON`], each in at least a
/// [`COMMON_SHARE`]th of the documents) as bits, and each document's as a mask with weights.
#[derive(Debug, Clone, Default)]
pub(super) struct CommonTerms {
    /// Per term, its bit, or [`NO_BIT`].
    bits: Vec<u8>,
    /// Per document, the bits of the common terms it holds.
    masks: Vec<u64>,
    /// Per document, where the weights of its common terms start in `weights` (and where the
    /// last one's end).
    starts: Vec<u32>,
    /// Each document's common terms' weights, in the order of their bits.
    weights: Vec<f32>,
}

impl CommonTerms {
    /// The common terms of `index`, read from its postings and its documents' terms.
    fn build(index: &SearchIndex) -> CommonTerms {
        let docs = index.len();
        let df = |term: usize| (index.offsets[term + 1] - index.offsets[term]) as usize;
        let mut common: Vec<usize> = (0..index.offsets.len().saturating_sub(1))
            .filter(|&term| df(term) * COMMON_SHARE >= docs && df(term) > 0)
            .collect();
        common.sort_by_key(|&term| (std::cmp::Reverse(df(term)), term));
        common.truncate(MOST_COMMON);
        let mut bits = vec![NO_BIT; index.offsets.len().saturating_sub(1)];
        for (bit, &term) in common.iter().enumerate() {
            bits[term] = bit as u8;
        }
        let mut masks = Vec::with_capacity(docs);
        let mut starts = Vec::with_capacity(docs + 1);
        let mut weights = Vec::new();
        let mut held: Vec<(u8, f32)> = Vec::new();
        for doc in 0..docs as u32 {
            held.clear();
            held.extend(index.terms_of(doc).iter().filter_map(|&(term, tf)| {
                let bit = bits[term as usize];
                (bit != NO_BIT).then(|| (bit, index.weight_of(term, doc, tf) as f32))
            }));
            held.sort_unstable_by_key(|&(bit, _)| bit);
            starts.push(weights.len() as u32);
            masks.push(held.iter().fold(0u64, |mask, &(bit, _)| mask | 1 << bit));
            weights.extend(held.iter().map(|&(_, weight)| weight));
        }
        starts.push(weights.len() as u32);
        CommonTerms {
            bits,
            masks,
            starts,
            weights,
        }
    }
}

/// A query's terms as bits: the mask of them all, and each bit's count in the query.
struct QueryBits {
    mask: u64,
    counts: [f64; MOST_COMMON],
}

impl SearchIndex {
    /// The common terms, indexed the first time a query needs them.
    fn common_terms(&self) -> &CommonTerms {
        self.common.get_or_init(|| CommonTerms::build(self))
    }

    /// Whether [`SearchIndex::scan_common`] ranks the query `walked` better than the pruned
    /// ranking: it has two terms or more, every one common, whose postings together outnumber
    /// the documents (the pruned ranking would read most of them).
    pub(super) fn scans_common(&self, walked: &[WalkedTerm]) -> bool {
        if walked.len() < 2 {
            return false;
        }
        let postings: usize = walked
            .iter()
            .map(|t| self.postings(Some(t.term)).0.len())
            .sum();
        if postings < self.len() {
            return false;
        }
        let common = self.common_terms();
        walked
            .iter()
            .all(|t| common.bits[t.term as usize] != NO_BIT)
    }

    /// Offers to `best`, exactly, every document that holds one of the `walked` terms (all
    /// common: see [`SearchIndex::scans_common`]) and the `required` one if any, that `admits`
    /// admits (given the document and how many of the query's distinct terms it holds) and that
    /// scores above 0 and can beat the worst kept.
    pub(super) fn scan_common(
        &self,
        tokens: &[QueryToken],
        walked: &[WalkedTerm],
        required: Option<u32>,
        best: &mut TopK,
        admits: impl Fn(u32, usize) -> bool,
    ) {
        let common = self.common_terms();
        let bit_of = |term: u32| common.bits[term as usize];
        let mut query = QueryBits {
            mask: 0,
            counts: [0.0; MOST_COMMON],
        };
        for term in walked {
            let bit = bit_of(term.term);
            query.mask |= 1 << bit;
            query.counts[bit as usize] = term.count;
        }
        let required_bit = required.map_or(0, |term| 1u64 << bit_of(term));
        // `most[j]`: the most a document holding `j` of the terms can score (the `j` largest
        // bounds; `walked` is heaviest first).
        let most: Vec<f64> = std::iter::once(0.0)
            .chain(walked.iter().scan(0.0, |sum, term| {
                *sum += term.bound;
                Some(*sum)
            }))
            .collect();
        let fewest = |best: &TopK| {
            most.iter()
                .position(|&m| !best.shuts_out(m))
                .unwrap_or(most.len())
        };
        let mut fewest_held = fewest(best).max(1);
        for (doc, &mask) in common.masks.iter().enumerate() {
            let held = mask & query.mask;
            let count = held.count_ones() as usize;
            if count < fewest_held || held & required_bit != required_bit {
                continue;
            }
            let doc = doc as u32;
            let weights = &common.weights[common.starts[doc as usize] as usize..];
            let mut bound = 0.0;
            let mut rest = held;
            while rest != 0 {
                let bit = rest.trailing_zeros();
                let at = (mask & ((1u64 << bit) - 1)).count_ones() as usize;
                bound += query.counts[bit as usize] * f64::from(weights[at]);
                rest &= rest - 1;
            }
            if best.shuts_out(bound * ROUNDING_SLACK) || !admits(doc, count) {
                continue;
            }
            let score = self.score(doc, tokens);
            if score > 0.0 {
                best.offer(Ranked { score, doc });
                fewest_held = fewest(best).max(1);
            }
        }
        scan_tally(common.masks.len());
    }
}

#[cfg(test)]
mod tests {
    use crate::replay::search::fixture::seed_rules;
    use crate::replay::search::topk::TopK;
    use crate::replay::search::{search_text, SearchIndex, TermCounts, Vocabulary};
    use schematax_releases::{SearchRules, HERMES_2026_09};

    /// A catalog of `docs` tools whose texts draw 1-14 words from `words` (seeded), and its
    /// index.
    fn catalog(
        rules: SearchRules,
        words: &[&str],
        docs: usize,
        seed: u64,
    ) -> (Vocabulary, SearchIndex) {
        let mut state = seed;
        let mut below = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % n as u64) as usize
        };
        let mut vocabulary = Vocabulary::new(rules);
        let counts: Vec<TermCounts> = (0..docs)
            .map(|d| {
                let text: Vec<&str> = (0..1 + below(14))
                    .map(|_| words[below(words.len())])
                    .collect();
                let name = format!("tool_{d}");
                vocabulary.count_terms(
                    &name,
                    search_text(&rules, &name, "", &text.join(" "), std::iter::empty()),
                )
            })
            .collect();
        let index = SearchIndex::build(&vocabulary, &counts);
        (vocabulary, index)
    }

    #[test]
    fn the_scan_ranks_as_the_pruned_ranking_does() {
        // Small vocabularies, so every word is common; some texts repeat words, so ties and
        // repeated terms are frequent.
        let words = [
            "alpha", "beta", "gamma", "delta", "list", "get", "page", "web", "run",
        ];
        let mut compared = 0;
        for rules in [seed_rules(), HERMES_2026_09.search] {
            for seed in 0..30u64 {
                let (vocabulary, index) = catalog(
                    rules,
                    &words[..3 + seed as usize % 7],
                    50 + 40 * seed as usize,
                    seed,
                );
                for q in 0..20usize {
                    let query: Vec<&str> = (0..2 + q % 9)
                        .map(|i| words[(i * 7 + q * 3 + seed as usize) % words.len()])
                        .collect();
                    let tokens = SearchIndex::query_tokens(&vocabulary, &query.join(" "));
                    let walked = index.walked_terms(&tokens);
                    if !index.scans_common(&walked) {
                        continue;
                    }
                    let limit = 1 + q % 8;
                    let pruned = index.max_score(&tokens, &walked, limit);
                    let mut best = TopK::new(limit);
                    index.scan_common(&tokens, &walked, None, &mut best, |_, _| true);
                    assert_eq!(best.into_sorted(), pruned, "{query:?} limit {limit}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 500, "only {compared} queries compared");
    }
}
