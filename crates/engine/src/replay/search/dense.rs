//! The scan of a query made only of common words. When every word of a query is held by a good
//! part of the catalog (descriptions drawn from a small shared vocabulary), the pruned ranking
//! reads most postings of most of its words, for every query. Here each document's common
//! terms are held as the bits of one 64-bit mask, with their weights side by side (rounded to
//! `f32`, for bounds only), and a second mask of the terms it holds more than once: the scan
//! reads the two masks of each document, drops it when the count of query terms it holds once
//! and more than once cannot reach the worst kept (most documents hold a word once, and weigh
//! it well below its largest weight), then when its weights cannot, and scores in full only
//! the documents that can still get in. Scanned in catalog order, the bar rises
//! as it goes, so about `limit · ln(N / limit)` documents are scored in full; what grows with
//! the catalog is the scan of one word per document. The ranking is exact: a bound is never
//! below the score it bounds, and a document that could tie the worst kept is scored.

use crate::replay::search::common::CommonTerms;
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
        let mut repeated = Vec::with_capacity(docs);
        let mut once_bounds = vec![0.0f64; MOST_COMMON];
        let mut starts = Vec::with_capacity(docs + 1);
        let mut weights = Vec::new();
        let mut held: Vec<(u8, u32, f64)> = Vec::new();
        for doc in 0..docs as u32 {
            held.clear();
            held.extend(index.terms_of(doc).iter().filter_map(|&(term, tf)| {
                let bit = bits[term as usize];
                (bit != NO_BIT).then(|| (bit, tf, index.weight_of(term, doc, tf)))
            }));
            held.sort_unstable_by_key(|&(bit, _, _)| bit);
            starts.push(weights.len() as u32);
            let (mut mask, mut more) = (0u64, 0u64);
            for &(bit, tf, weight) in &held {
                mask |= 1 << bit;
                if tf > 1 {
                    more |= 1 << bit;
                } else {
                    once_bounds[bit as usize] = once_bounds[bit as usize].max(weight);
                }
            }
            masks.push(mask);
            repeated.push(more);
            weights.extend(held.iter().map(|&(_, _, weight)| weight as f32));
        }
        starts.push(weights.len() as u32);
        CommonTerms {
            bits,
            masks,
            repeated,
            once_bounds,
            starts,
            weights,
        }
    }
}

/// The most a document can score by how many of a query's terms it holds once and how many
/// more than once: the largest bounds of that many terms, added up.
struct HeldBounds {
    /// `once[j]`: the `j` largest bounds of the terms held once.
    once: Vec<f64>,
    /// `any[j]`: the `j` largest bounds of the terms (at any frequency).
    any: Vec<f64>,
}

impl HeldBounds {
    /// The bounds of `walked` (heaviest first), `once_bound` giving a term's bound when a
    /// document holds it once.
    fn new(walked: &[WalkedTerm], once_bound: impl Fn(&WalkedTerm) -> f64) -> HeldBounds {
        let largest_first = |mut bounds: Vec<f64>| {
            bounds.sort_by(|a, b| b.total_cmp(a));
            std::iter::once(0.0)
                .chain(bounds.into_iter().scan(0.0, |sum, bound| {
                    *sum += bound;
                    Some(*sum)
                }))
                .collect()
        };
        HeldBounds {
            once: largest_first(walked.iter().map(&once_bound).collect()),
            any: largest_first(walked.iter().map(|t| t.bound).collect()),
        }
    }

    /// For each count of terms held more than once, the fewest terms held once a document
    /// must have to still get into `best` (one more than it can have when none can do).
    fn fewest_once(&self, best: &TopK) -> Vec<usize> {
        self.any
            .iter()
            .enumerate()
            .map(|(repeated_terms, &repeated)| {
                let fewest = self
                    .once
                    .iter()
                    .position(|&once| !best.shuts_out(once + repeated))
                    .unwrap_or(self.once.len());
                // A document holding no query term scores 0 and never gets in.
                fewest.max(usize::from(repeated_terms == 0))
            })
            .collect()
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
        let bounds = HeldBounds::new(walked, |term| {
            common.once_bounds[bit_of(term.term) as usize] * term.count
        });
        let mut fewest_once = bounds.fewest_once(best);
        for (doc, (&mask, &more)) in common.masks.iter().zip(&common.repeated).enumerate() {
            let held = mask & query.mask;
            let repeated = (held & more).count_ones() as usize;
            let once = held.count_ones() as usize - repeated;
            if once < fewest_once[repeated] || held & required_bit != required_bit {
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
            if best.shuts_out(bound * ROUNDING_SLACK) || !admits(doc, once + repeated) {
                continue;
            }
            let score = self.score(doc, tokens);
            if score > 0.0 {
                best.offer(Ranked { score, doc });
                fewest_once = bounds.fewest_once(best);
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
