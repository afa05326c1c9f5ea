//! The scan of a query made only of common words. When every word of a query is held by a good
//! part of the catalog (descriptions drawn from a small shared vocabulary), the pruned ranking
//! reads most postings of most of its words, for every query. Here each document's common
//! terms are held as the bits of a 64-bit mask, with two bits each beside it for how often it
//! holds them (once, exactly twice, more) and its weights (rounded to `f32`, for bounds only).
//! For each query, tables give the sum of the query terms' largest weights at those
//! frequencies for every value of a byte of them (four terms); the scan adds up a document's
//! bound from them, a byte at a time, and drops it when it cannot reach the worst kept (a word
//! held once weighs well below its largest weight), then when its own weights cannot, and
//! scores in full only the documents that can still get in. Scanned in catalog order, the bar
//! rises as it goes, so about `limit · ln(N / limit)` documents are scored in full; what grows
//! with the catalog is the read of a mask, a few bytes and as many table entries per document.
//! The ranking is exact: a bound is never below the score it bounds, and a document that could
//! tie the worst kept is scored.

use crate::replay::search::common::{CommonTerms, HeldBits};
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
        let mut held_bits = Vec::with_capacity(docs);
        let mut once_bounds = vec![0.0f64; MOST_COMMON];
        let mut twice_bounds = vec![0.0f64; MOST_COMMON];
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
            let mut doc_bits = HeldBits::default();
            for &(bit, tf, weight) in &held {
                let bit_index = bit as usize;
                match tf {
                    1 => once_bounds[bit_index] = once_bounds[bit_index].max(weight),
                    2 => twice_bounds[bit_index] = twice_bounds[bit_index].max(weight),
                    _ => {}
                }
                doc_bits.held |= 1 << bit;
                doc_bits.levels[bit_index / 4] |= (tf.min(3) as u8) << (2 * (bit_index % 4));
            }
            held_bits.push(doc_bits);
            weights.extend(held.iter().map(|&(_, _, weight)| weight as f32));
        }
        starts.push(weights.len() as u32);
        CommonTerms {
            bits,
            held: held_bits,
            once_bounds,
            twice_bounds,
            starts,
            weights,
        }
    }
}

/// The most a document can score by which of a query's terms it holds once, exactly twice and
/// more than twice: each term's largest weight at that frequency, added up a byte of
/// frequencies (four terms) at a time from tables of every byte's sums.
struct LevelSums {
    /// The first byte of frequencies that holds a query term.
    first_byte: usize,
    /// For that byte and each after it up to the last that holds a query term, the sum of the
    /// bounds of its four terms at the frequencies the byte gives them.
    tables: Vec<[f64; 256]>,
}

impl LevelSums {
    /// The sums of the bounds of `walked`, each term at `bit_of` its bit, with its bound at each
    /// frequency (once, twice, more) from `levels`.
    fn new(
        walked: &[WalkedTerm],
        bit_of: impl Fn(u32) -> u8,
        levels: impl Fn(&WalkedTerm) -> [f64; 3],
    ) -> LevelSums {
        // Per bit, its bound at each frequency, 0 when the document does not hold it.
        let mut bounds = [[0.0f64; 4]; MOST_COMMON];
        let mut mask = 0u64;
        for term in walked {
            let bit = bit_of(term.term);
            mask |= 1 << bit;
            let [once, twice, more] = levels(term);
            bounds[bit as usize] = [0.0, once, twice, more];
        }
        let first_byte = (mask.trailing_zeros() as usize / 4).min(15);
        let last_byte = 63usize.saturating_sub(mask.leading_zeros() as usize) / 4;
        let tables = (first_byte..=last_byte)
            .map(|byte| {
                let mut table = [0.0f64; 256];
                for (value, sum) in table.iter_mut().enumerate() {
                    *sum = (0..4)
                        .map(|term| bounds[4 * byte + term][(value >> (2 * term)) & 3])
                        .sum();
                }
                table
            })
            .collect();
        LevelSums { first_byte, tables }
    }

    /// The most a document holding its common terms as often as `levels` says can score.
    fn of(&self, levels: &[u8; 16]) -> f64 {
        let mut sum = 0.0;
        for (table, &level) in self.tables.iter().zip(&levels[self.first_byte..]) {
            sum += table[level as usize];
        }
        sum
    }
}

/// An `f32` weight is within 2^-24 of the weight; sums of them in `f64`, times this, are never
/// below the `f64` score they bound.
const ROUNDING_SLACK: f64 = 1.0 + 1e-6;

/// A query's terms as bits, and what a scan of them needs.
struct QueryScan {
    /// The bits of the query's terms.
    mask: u64,
    /// Each bit's count in the query.
    counts: [f64; MOST_COMMON],
    /// The bit every admitted document must hold, if any.
    required: u64,
    /// The query's bounds by the terms a document holds once, twice and more.
    sums: LevelSums,
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
        let mut query = QueryScan {
            mask: 0,
            counts: [0.0; MOST_COMMON],
            required: required.map_or(0, |term| 1u64 << bit_of(term)),
            sums: LevelSums::new(walked, bit_of, |term| {
                let bit = bit_of(term.term) as usize;
                [
                    common.once_bounds[bit] * term.count,
                    common.twice_bounds[bit] * term.count,
                    term.bound,
                ]
            }),
        };
        for term in walked {
            query.mask |= 1 << bit_of(term.term);
            query.counts[bit_of(term.term) as usize] = term.count;
        }
        self.scan_masks(tokens, &query, best, admits);
        scan_tally(common.held.len());
    }

    /// Offers to `best` each document that can get in, in catalog order (a loop of its own,
    /// which the compiler keeps tight: inlined into its caller, the loop spilled registers and
    /// the lint of 48,000 small-vocabulary tools took 5% longer).
    #[inline(never)]
    fn scan_masks(
        &self,
        tokens: &[QueryToken],
        query: &QueryScan,
        best: &mut TopK,
        admits: impl Fn(u32, usize) -> bool,
    ) {
        let common = self.common_terms();
        let mut cut = best.cut();
        for (doc, bits) in common.held.iter().enumerate() {
            let held = bits.held & query.mask;
            let bound = query.sums.of(&bits.levels);
            if held == 0 || bound < cut || held & query.required != query.required {
                continue;
            }
            // Its own weights, for the few that pass.
            let doc = doc as u32;
            let weights = &common.weights[common.starts[doc as usize] as usize..];
            let mut bound = 0.0;
            let mut rest = held;
            while rest != 0 {
                let bit = rest.trailing_zeros();
                let at = (bits.held & ((1u64 << bit) - 1)).count_ones() as usize;
                bound += query.counts[bit as usize] * f64::from(weights[at]);
                rest &= rest - 1;
            }
            if bound * ROUNDING_SLACK < cut || !admits(doc, held.count_ones() as usize) {
                continue;
            }
            let score = self.score(doc, tokens);
            if score > 0.0 {
                best.offer(Ranked { score, doc });
                cut = best.cut();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::replay::search::fixture::{named_texts, seed_rules, Lcg};
    use crate::replay::search::topk::TopK;
    use crate::replay::search::{SearchIndex, Vocabulary};
    use schematax_releases::{SearchRules, HERMES_2026_09};

    /// A catalog of `docs` tools whose texts draw 1-14 words from `words` (seeded), and its
    /// index.
    fn catalog(
        rules: SearchRules,
        words: &[&str],
        docs: usize,
        seed: u64,
    ) -> (Vocabulary, SearchIndex) {
        let mut rng = Lcg(seed);
        let tools: Vec<(String, String)> = (0..docs)
            .map(|d| (format!("tool_{d}"), rng.phrase(words, 1, 14)))
            .collect();
        named_texts(rules, tools)
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
                    let pruned = index.max_score(&tokens, &walked, TopK::new(limit));
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
