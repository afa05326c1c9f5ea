//! The pruned ranking (MaxScore-style, exact): a query's terms with their bounds, the walk of one
//! term's documents heaviest first, the documents scored first to set a bar, the light terms that
//! cannot lift a document alone, and the candidates ranked highest bound first.

use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::BinaryHeap;

use crate::replay::search::index::{SearchIndex, Slot, HOLDS_GATE};
use crate::replay::search::result::tally;
use crate::replay::search::terms::QueryToken;
use crate::replay::search::topk::{top_k, top_k_in_catalog_order, Ranked, TopK};

/// Per-thread marks of the documents a pruned search has offered, ruled out, or had decided
/// before it started: `stamps[doc] == search`.
#[derive(Default)]
pub(super) struct Seen {
    stamps: Vec<u32>,
    search: u32,
}

impl Seen {
    /// Starts a search over `docs` documents: nothing is seen yet.
    pub(super) fn start(&mut self, docs: usize) {
        if self.stamps.len() < docs {
            self.stamps.resize(docs, 0);
        }
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.stamps.fill(0);
            self.search = 1;
        }
    }

    /// Whether `doc` is marked in this search.
    pub(super) fn holds(&self, doc: u32) -> bool {
        self.stamps[doc as usize] == self.search
    }

    /// Marks `doc`; true the first time in this search.
    pub(super) fn first_time(&mut self, doc: u32) -> bool {
        let stamp = &mut self.stamps[doc as usize];
        let first = *stamp != self.search;
        *stamp = self.search;
        first
    }
}

/// A query term as the pruned search walks it: its id, how many times the query has it, and
/// the most it can add to any document's score.
#[derive(Debug, Clone, Copy)]
pub(super) struct WalkedTerm {
    pub(super) term: u32,
    pub(super) count: f64,
    pub(super) bound: f64,
}

/// Adding up a posting costs a fraction of looking a term up in a document, whose terms are far
/// apart in memory: this many postings are worth one lookup.
const ADD_UP_FACTOR: usize = 8;

/// Beside the documents of a query's rarest word (see [`SearchIndex::max_score_beside`]), a
/// light term is added up over its postings while they come to at most this many per
/// candidate (elsewhere [`ADD_UP_FACTOR`]). Those candidates are few against the term's
/// postings, and a lookup reads a candidate's own terms, far apart in memory: 32 against 8
/// takes about a tenth off seed's lint of 100,000 distinct tools. On a small vocabulary it
/// leaves the lint's time as it was, with more postings read (4x the tools: 5.6x the postings
/// and lookups, against 4.6x).
const BESIDE_ADD_UP_FACTOR: usize = 32;

/// Under the rarest-word gate, whose candidates are the few documents holding the query's
/// rarest word, a light term is added up over its postings while they come to at most this
/// many per candidate (elsewhere [`ADD_UP_FACTOR`]). 16 against 8 makes sentence queries
/// 10-20% faster under the newest release on every shape at 100,000 tools; without the gate it
/// leaves them as they were and makes a small vocabulary's lint read postings that grow faster
/// than N log N.
pub(super) const GATED_ADD_UP_FACTOR: usize = 16;

/// How a pruned search splits a query's terms: the `essential` ones name the candidates; the
/// `light` ones (lightest first) are added up over their postings while those come to at most
/// `add_up` per candidate, and looked up in each candidate after that.
pub(super) struct Split<'a> {
    pub(super) essential: &'a [WalkedTerm],
    pub(super) light: &'a [WalkedTerm],
    pub(super) add_up: usize,
}

/// How many of a seed query's heaviest terms, and of its rarest, pick the documents scored
/// first, to set the bar the pruning starts from.
const SEEDING_TERMS: usize = 2;

thread_local! {
    pub(super) static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// A document to consider: the most it can score, and how many of the query's distinct terms
/// it is known to hold. Ordered by the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    bound: Ranked,
    held: u32,
}

/// How many candidates a pruned search takes at a time, their terms read side by side.
const WARM_BATCH: usize = 8;

/// The light terms looked up in a candidate's own terms (those not added up over their
/// postings), lightest first, and what they can add to a document of each length met: the
/// bounds depend on a candidate only through its length, which many candidates share.
struct LookedUp<'a> {
    terms: &'a [WalkedTerm],
    /// Per document length met, where its sums start in `sums`.
    by_length: FxHashMap<u32, u32>,
    /// For each length met, `terms.len() + 1` sums: `[i]` is the most the terms before `i`
    /// can add to a document of that length.
    sums: Vec<f64>,
    /// The most the terms can add to any document.
    unknown: f64,
}

impl<'a> LookedUp<'a> {
    /// Ready to look `terms` (lightest first) up in candidates.
    fn new(terms: &'a [WalkedTerm]) -> LookedUp<'a> {
        LookedUp {
            terms,
            by_length: FxHashMap::default(),
            sums: Vec::new(),
            unknown: terms.iter().map(|term| term.bound).sum(),
        }
    }

    /// The most all the terms can add to `doc`.
    fn all(&mut self, index: &SearchIndex, doc: u32) -> f64 {
        let last = self.terms.len();
        self.within(index, doc)[last]
    }

    /// The most the terms before each `i` can add to `doc`, in `[i]`, up to all of them.
    fn within(&mut self, index: &SearchIndex, doc: u32) -> &[f64] {
        let length = index.length(doc);
        let run = self.terms.len() + 1;
        let start = match self.by_length.get(&length) {
            Some(&start) => start as usize,
            None => {
                let start = self.sums.len();
                self.by_length.insert(length, start as u32);
                let mut sum = 0.0;
                self.sums.push(sum);
                for term in self.terms {
                    sum += index.term_bound(term, length);
                    self.sums.push(sum);
                }
                start
            }
        };
        &self.sums[start..start + run]
    }
}

impl SearchIndex {
    /// Seed's best documents for a query of several terms that `best` (empty) keeps, less any
    /// below its floor (MaxScore-style, exact).
    /// The heaviest documents of the heaviest terms, and the documents holding most of the
    /// rarest terms, are scored first, to set a bar. Terms are then taken lightest first
    /// while a document holding only those cannot get in (see [`SearchIndex::light_terms`]);
    /// the others are the essential terms, and the candidates are the documents holding one of
    /// them (see [`SearchIndex::rank_candidates`]).
    pub(super) fn max_score(
        &self,
        tokens: &[QueryToken],
        walked: &[WalkedTerm],
        best: TopK,
    ) -> Vec<Ranked> {
        self.max_score_from(tokens, walked, best, &[], ADD_UP_FACTOR)
    }

    /// Seed's best documents for a query whose documents holding the term `decided_term` are
    /// ranked already: `best` holds the best of them, and the others are shut out by it. The
    /// rest hold none of it, so they are ranked by the query's other terms (`walked`, less
    /// that one), from the bar those set (often above all the other terms can weigh, which
    /// ends the search at once).
    pub(super) fn max_score_beside(
        &self,
        tokens: &[QueryToken],
        walked: &[WalkedTerm],
        decided_term: u32,
        best: TopK,
    ) -> Vec<Ranked> {
        let others: Vec<WalkedTerm> = walked
            .iter()
            .filter(|term| term.term != decided_term)
            .copied()
            .collect();
        let (decided, _) = self.postings(Some(decided_term));
        self.max_score_from(tokens, &others, best, decided, BESIDE_ADD_UP_FACTOR)
    }

    /// [`SearchIndex::max_score`] from `best`, the `decided` documents (offered to it already,
    /// or shut out by it) never offered again; the bar is seeded only while `best` is not full.
    /// A light term is added up over its postings while they come to at most `add_up` per
    /// candidate.
    fn max_score_from(
        &self,
        tokens: &[QueryToken],
        walked: &[WalkedTerm],
        mut best: TopK,
        decided: &[u32],
        add_up: usize,
    ) -> Vec<Ranked> {
        let limit = best.limit;
        SEEN.with(|cell| {
            let mut seen = cell.borrow_mut();
            seen.start(self.len());
            for &doc in decided {
                seen.first_time(doc);
            }
            if best.worst().is_none() {
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
            }
            let lightest_first: Vec<WalkedTerm> = walked.iter().rev().copied().collect();
            let light = self.light_terms(tokens, &lightest_first, &mut best, &mut seen);
            let (light, essential) = lightest_first.split_at(light);
            let split = Split {
                essential,
                light,
                add_up,
            };
            self.rank_candidates(tokens, &mut best, &mut seen, split, |_, _| true);
        });
        best.into_sorted_from_floor()
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
    /// times its count in the query: the postings of two terms are merged, in catalog order
    /// (which makes a tie with the worst kept a loss, see [`top_k_in_catalog_order`]).
    fn likely(&self, terms: &[WalkedTerm], limit: usize) -> Vec<Ranked> {
        let list = |term: &WalkedTerm| {
            let (docs, weights) = self.postings(Some(term.term));
            tally(docs.len(), 0);
            (docs, weights, term.count)
        };
        let ranked = |doc, score| Ranked { score, doc };
        match terms {
            [one] => {
                let (docs, weights, count) = list(one);
                let weighed = docs.iter().zip(weights);
                top_k_in_catalog_order(weighed.map(|(&doc, &w)| ranked(doc, w * count)), limit)
            }
            [one, two] => {
                let (a_docs, a_weights, a_count) = list(one);
                let (b_docs, b_weights, b_count) = list(two);
                let (mut a, mut b) = (0, 0);
                let merged = std::iter::from_fn(|| {
                    let (x, y) = (a_docs.get(a), b_docs.get(b));
                    match (x, y) {
                        (Some(&x), Some(&y)) if x == y => {
                            let score = a_weights[a] * a_count + b_weights[b] * b_count;
                            a += 1;
                            b += 1;
                            Some(ranked(x, score))
                        }
                        (Some(&x), Some(&y)) if x < y => {
                            a += 1;
                            Some(ranked(x, a_weights[a - 1] * a_count))
                        }
                        (Some(&x), None) => {
                            a += 1;
                            Some(ranked(x, a_weights[a - 1] * a_count))
                        }
                        (_, Some(&y)) => {
                            b += 1;
                            Some(ranked(y, b_weights[b - 1] * b_count))
                        }
                        (None, None) => None,
                    }
                });
                top_k_in_catalog_order(merged, limit)
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
    /// [`Split::add_up`]). Each candidate gets a bound: its sum plus what the light terms not
    /// added up can weigh in a document of its length ([`SearchIndex::length_bound`]; the
    /// few best by the terms' bounds over all documents are taken first, to raise the bar).
    /// Documents are then taken highest bound first, a few at a time ([`SearchIndex::sift`]),
    /// their remaining light terms looked up one by one, heaviest first, and scored in full
    /// while they can still get in, until no bound left can beat the worst kept; or, once the
    /// candidates tie so that this costs more than adding up every term's postings, by adding
    /// them up.
    pub(super) fn rank_candidates(
        &self,
        tokens: &[QueryToken],
        best: &mut TopK,
        seen: &mut Seen,
        split: Split,
        admits: impl Fn(u32, usize) -> bool,
    ) {
        let Split {
            essential,
            light,
            add_up,
        } = split;
        let mut essential_terms: Vec<u32> = essential.iter().map(|t| t.term).collect();
        essential_terms.sort_unstable();
        let (pool, added) =
            self.candidate_pool(tokens, best, (&essential_terms, light, add_up), &admits);
        let light_terms = &light[..light.len() - added];
        let mut looked_up = LookedUp::new(light_terms);
        let unknown = looked_up.unknown;
        let bounds = pool
            .iter()
            .map(|&(doc, partial, held)| Candidate {
                bound: Ranked {
                    score: partial + unknown,
                    doc,
                },
                held,
            })
            .filter(|c| admits(c.bound.doc, c.held as usize + light_terms.len()));
        let mut lookups = 0;
        // The best bounds, taken first, raise the bar before the rest is sifted.
        let unseen = bounds.clone().filter(|c| !seen.holds(c.bound.doc));
        for candidate in top_k(unseen, best.limit) {
            if seen.first_time(candidate.bound.doc) {
                lookups +=
                    self.consider(tokens, best, &mut looked_up, (candidate, unknown), &admits);
            }
        }
        // The others that can still get in, bounded by their own lengths.
        let candidates: Vec<Candidate> = bounds
            .filter(|c| !best.shuts_out(c.bound.score))
            .map(|c| Candidate {
                bound: Ranked {
                    score: c.bound.score - unknown + looked_up.all(self, c.bound.doc),
                    doc: c.bound.doc,
                },
                held: c.held,
            })
            .filter(|c| !best.shuts_out(c.bound.score))
            .collect();
        // What adding up every term's postings costs, in lookups: more than the candidates
        // sifted one by one, unless they tie (tools sharing a description tie on every query,
        // and no bound tells them apart).
        let add_up_all = essential
            .iter()
            .chain(light)
            .map(|t| self.postings(Some(t.term)).0.len())
            .sum::<usize>()
            / ADD_UP_FACTOR;
        let sifted = self.sift(candidates, best, seen, (lookups, add_up_all), |best, c| {
            let counted = looked_up.all(self, c.bound.doc);
            self.consider(tokens, best, &mut looked_up, (c, counted), &admits)
        });
        if !sifted {
            self.offer_summed(tokens, best, seen, &essential_terms, &admits);
        }
    }

    /// What `term` can add to the score of a document of `length` tokens before its terms are
    /// read: its weight at its largest frequency at that length, times its count in the
    /// query, and never more than its bound over all documents.
    fn term_bound(&self, term: &WalkedTerm, length: u32) -> f64 {
        (self.length_bound(term.term, length) * term.count).min(term.bound)
    }

    /// Bounds the `looked_up` light terms by `candidate`'s own length; while it can still get
    /// in, looks them up and adds them up, heaviest first; then admits and scores it.
    /// `counted` is what its bound counted for those terms. Gives the number of terms looked
    /// up. (Reading them all in one pass over its terms instead cost more than it saved: most
    /// candidates drop out after the first term or two.)
    fn consider(
        &self,
        tokens: &[QueryToken],
        best: &mut TopK,
        looked_up: &mut LookedUp,
        (candidate, counted): (Candidate, f64),
        admits: &impl Fn(u32, usize) -> bool,
    ) -> usize {
        let partial = candidate.bound.score - counted;
        let doc = candidate.bound.doc;
        let terms = looked_up.terms;
        let within = looked_up.within(self, doc);
        if best.shuts_out(partial + within[terms.len()]) {
            return 0;
        }
        let mut lookups = 0;
        let mut added_weight = 0.0;
        let mut held = candidate.held as usize;
        for i in (0..terms.len()).rev() {
            lookups += 1;
            if let Some(weight) = self.weight(Some(terms[i].term), doc) {
                added_weight += weight * terms[i].count;
                held += 1;
            }
            if best.shuts_out(partial + added_weight + within[i]) {
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
    }

    /// Offers `candidates` to `consider` highest bound first, until no bound left can beat the
    /// worst kept; documents `seen` already are passed over. A heap, as only the first few are
    /// usually taken. They are taken a few at a time, and the terms of those few asked from
    /// memory at once (see [`SearchIndex::warm`]): bounds only fall and the bar only rises, so
    /// the first one shut out ends the sifting. Gives false, with candidates left, once more
    /// than `budget.1` terms are looked up, counting `budget.0` looked up before.
    fn sift(
        &self,
        candidates: Vec<Candidate>,
        best: &mut TopK,
        seen: &mut Seen,
        budget: (usize, usize),
        mut consider: impl FnMut(&mut TopK, Candidate) -> usize,
    ) -> bool {
        let (mut lookups, budget) = budget;
        let mut candidates = BinaryHeap::from(candidates);
        let mut batch: Vec<Candidate> = Vec::with_capacity(WARM_BATCH);
        loop {
            batch.clear();
            // Documents seen already (scored, or decided before the search) are passed over
            // before their terms are fetched.
            let mut ended = false;
            while batch.len() < WARM_BATCH {
                match candidates.pop() {
                    Some(candidate) if !best.shuts_out(candidate.bound.score) => {
                        if !seen.holds(candidate.bound.doc) {
                            batch.push(candidate);
                        }
                    }
                    _ => {
                        ended = true;
                        break;
                    }
                }
            }
            self.warm(batch.iter().map(|c| c.bound.doc));
            for &candidate in &batch {
                if best.shuts_out(candidate.bound.score) {
                    return true;
                }
                if lookups > budget {
                    return false;
                }
                if seen.first_time(candidate.bound.doc) {
                    lookups += consider(best, candidate);
                }
            }
            if ended {
                return true;
            }
        }
    }

    /// The candidates of [`SearchIndex::rank_candidates`] that can still get in: the documents
    /// holding one of the `essential_terms` that `admits` may admit, less those whose sum and
    /// the bounds of the light terms not added up cannot beat the worst kept, each with the
    /// weights of the terms added up so far and how many of the query's terms it holds; and
    /// how many `light` terms, heaviest first, were added up (while their postings come to at
    /// most `add_up` per candidate, counting every candidate).
    fn candidate_pool(
        &self,
        tokens: &[QueryToken],
        best: &TopK,
        (essential_terms, light, add_up): (&[u32], &[WalkedTerm], usize),
        admits: &impl Fn(u32, usize) -> bool,
    ) -> (Vec<(u32, f64, u32)>, usize) {
        let essential_terms_in_order: Vec<Option<u32>> = tokens
            .iter()
            .map(|t| t.term)
            .filter(|term| term.is_some_and(|term| essential_terms.binary_search(&term).is_ok()))
            .collect();
        self.accumulate(
            &essential_terms_in_order,
            essential_terms,
            |touched, slots| {
                // The candidates, and of those the ones that can still get in: a document
                // shut out now stays shut out (its bound only falls, the bar only rises), so
                // only those open are carried on.
                let mut unknown: f64 = light.iter().map(|t| t.bound).sum();
                // Below this, a bound is shut out ([`TopK::shuts_out`]; `best` does not change
                // here).
                let cut = best.cut();
                let mut candidates = 0;
                // Without a branch on whether a candidate can still get in, which is as good
                // as random: each is written after the open ones and kept when it can.
                let mut open: Vec<u32> = vec![0; touched.len()];
                let mut opened = 0;
                for &doc in touched {
                    let slot = slots[doc as usize];
                    if slot.held & HOLDS_GATE == 0
                        || !admits(doc, (slot.held & !HOLDS_GATE) as usize + light.len())
                    {
                        continue;
                    }
                    candidates += 1;
                    open[opened] = doc;
                    opened += usize::from(slot.score + unknown >= cut);
                }
                open.truncate(opened);
                tally(candidates, 0);
                // A light term is looked up in the candidates that can still get in: the
                // heaviest are added up over their postings instead while that costs less
                // than the lookups.
                let mut budget = candidates * add_up;
                let mut added = 0;
                // Whether `open` holds candidates shut out by the terms added since it was
                // last narrowed.
                let mut stale = false;
                let narrow = |open: &mut Vec<u32>, slots: &[Slot], unknown: f64| {
                    let mut kept = 0;
                    for at in 0..open.len() {
                        let doc = open[at];
                        open[kept] = doc;
                        kept += usize::from(slots[doc as usize].score + unknown >= cut);
                    }
                    open.truncate(kept);
                };
                for term in light.iter().rev() {
                    let (docs, weights) = self.postings(Some(term.term));
                    if docs.len() > budget {
                        break;
                    }
                    if docs.len() > candidates {
                        if stale {
                            narrow(&mut open, slots, unknown);
                            stale = false;
                        }
                        if docs.len() > open.len() * add_up {
                            break;
                        }
                    }
                    budget -= docs.len();
                    unknown -= term.bound;
                    added += 1;
                    tally(docs.len(), 0);
                    // Without a branch, which was mispredicted wherever candidates and other
                    // documents alternate: a document that is no candidate gets 0 added,
                    // which leaves it as it was (0 or a positive sum).
                    for (&doc, &weight) in docs.iter().zip(weights) {
                        let slot = &mut slots[doc as usize];
                        let candidate = slot.held >> HOLDS_GATE.trailing_zeros();
                        slot.score += weight * term.count * f64::from(candidate);
                        slot.held += candidate;
                    }
                    stale = true;
                }
                if stale {
                    narrow(&mut open, slots, unknown);
                }
                let pool: Vec<(u32, f64, u32)> = open
                    .into_iter()
                    .map(|doc| {
                        let slot = slots[doc as usize];
                        (doc, slot.score, slot.held & !HOLDS_GATE)
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
        let terms: Vec<Option<u32>> = tokens.iter().map(|t| t.term).collect();
        let summed = self.accumulate(&terms, essential_terms, |touched, slots| {
            let admitted = touched.iter().copied().filter(|&doc| {
                let held = slots[doc as usize].held;
                held & HOLDS_GATE != 0 && admits(doc, (held & !HOLDS_GATE) as usize)
            });
            top_k(
                admitted.map(|doc| Ranked {
                    score: slots[doc as usize].score,
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

    /// The query's distinct terms that some document holds, each with its bound (its largest
    /// weight times its count in the query), weightiest first.
    pub(super) fn walked_terms(&self, tokens: &[QueryToken]) -> Vec<WalkedTerm> {
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
    pub(super) fn walk(
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
        best.into_sorted_from_floor()
    }
}

#[cfg(test)]
mod tests {
    use crate::replay::search::fixture::{named_texts, seed_rules, Lcg};
    use crate::replay::search::topk::{Ranked, TopK};
    use crate::replay::search::{
        idf, raw_tokens, search_text, term_weight, SearchIndex, SearchWork, TermCounts, Via,
        Vocabulary,
    };
    use schematax_releases::{Admission, SearchRules, HERMES_2026_09};

    /// Tools given one by one as a name and a text (without parameters): their vocabulary,
    /// their term counts and names for [`full_sort`], and then their index.
    struct Counted {
        rules: SearchRules,
        vocabulary: Vocabulary,
        counts: Vec<TermCounts>,
        names: Vec<String>,
    }

    impl Counted {
        fn new(rules: SearchRules) -> Counted {
            Counted {
                rules,
                vocabulary: Vocabulary::new(rules),
                counts: Vec::new(),
                names: Vec::new(),
            }
        }

        fn add(&mut self, name: String, text: &str) {
            let terms = search_text(&self.rules, &name, "", text, std::iter::empty());
            self.counts.push(self.vocabulary.count_terms(&name, terms));
            self.names.push(name);
        }

        fn index(&self) -> SearchIndex {
            SearchIndex::build(&self.vocabulary, &self.counts)
        }

        fn full_sort(&self, query: &str, limit: usize) -> Vec<(usize, f64)> {
            full_sort(
                &self.vocabulary,
                &self.counts,
                &self.names,
                &self.rules,
                query,
                limit,
            )
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
                let mut tools = Counted::new(rules);
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
                    tools.add(name, &text.join(" "));
                }
                let index = tools.index();
                for _ in 0..8 {
                    let query = if rng.below(6) == 0 {
                        tools.names[rng.below(tools.names.len())].clone()
                    } else {
                        rng.phrase(&words, 1, 6)
                    };
                    let limit = 1 + rng.below(8);
                    let expected = tools.full_sort(&query, limit);
                    let got = index.search(&tools.vocabulary, &query, limit);
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
    fn a_search_beside_ranked_documents_equals_a_full_sort() {
        // The documents holding one of the query's terms (any, not only its rarest) ranked
        // first, as a group of queries ranks them; the others ranked beside them.
        let words = [
            "alpha", "beta", "gamma", "delta", "issue", "list", "get", "page", "web", "run",
            "query", "file",
        ];
        let rules = seed_rules();
        let mut rng = Lcg(19);
        let mut compared = 0;
        for _ in 0..120 {
            let mut tools = Counted::new(rules);
            for d in 0..2 + rng.below(150) {
                tools.add(format!("tool_{d}"), &rng.skewed_phrase(&words, 1, 10));
            }
            let index = tools.index();
            for _ in 0..10 {
                let query = rng.phrase(&words, 2, 6);
                let tokens = SearchIndex::query_tokens(&tools.vocabulary, &query);
                let walked = index.walked_terms(&tokens);
                if walked.len() < 2 {
                    continue;
                }
                let decided_term = walked[rng.below(walked.len())].term;
                let limit = 1 + rng.below(8);
                let mut best = TopK::new(limit);
                for &doc in index.postings(Some(decided_term)).0 {
                    best.offer(Ranked {
                        score: index.score(doc, &tokens),
                        doc,
                    });
                }
                let got: Vec<(usize, f64)> = index
                    .max_score_beside(&tokens, &walked, decided_term, best)
                    .iter()
                    .map(|r| (r.doc as usize, r.score))
                    .collect();
                let expected = tools.full_sort(&query, limit);
                assert_eq!(got, expected, "{query:?} limit {limit}");
                compared += 1;
            }
        }
        assert!(compared > 900, "only {compared} searches compared");
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
                    .map(|_| rng.phrase(&words, 1, 8))
                    .collect();
                let mut tools = Counted::new(rules);
                let mut texts = Vec::new();
                for d in 0..20 + rng.below(300) {
                    let text = if rng.below(10) == 0 {
                        words[rng.below(words.len())].to_string()
                    } else {
                        families[rng.below(families.len())].clone()
                    };
                    tools.add(format!("same_{}_{}", words[rng.below(3)], d), &text);
                    texts.push(text);
                }
                let index = tools.index();
                for _ in 0..12 {
                    let doc = rng.below(texts.len());
                    let query = match rng.below(4) {
                        0 => tools.names[doc].replace('_', " "),
                        1 => texts[doc].clone(),
                        2 => format!("{} {}", texts[doc], words[rng.below(words.len())]),
                        _ => format!("same {}", words[rng.below(words.len())]),
                    };
                    let limit = 1 + rng.below(8);
                    let expected = tools.full_sort(&query, limit);
                    let got = index.search(&tools.vocabulary, &query, limit);
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
                let tools = (0..twins).map(|i| (format!("same_{i}"), text.to_string()));
                let (vocabulary, index) = named_texts(rules, tools);
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
    fn pruned_search_equals_a_full_sort_on_the_real_captures() {
        use crate::inputs::capture_file::load_paths;
        let dir =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/captures");
        let captures = load_paths(&[dir]).unwrap().captures;
        // Real lengths, from a few words to hundreds; queries made of the tools' own words:
        // a few keywords and a whole first sentence of every seventh tool.
        let descriptions: Vec<&str> = captures
            .iter()
            .flat_map(|c| &c.tools)
            .filter_map(|t| t.description.as_deref())
            .step_by(7)
            .collect();
        let mut queries: Vec<String> = Vec::new();
        for description in descriptions {
            let words: Vec<&str> = description.split_whitespace().collect();
            queries.push(
                words
                    .iter()
                    .skip(1)
                    .step_by(2)
                    .take(3)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            queries.push(crate::text::first_sentence(description).to_string());
        }
        for rules in [seed_rules(), HERMES_2026_09.search] {
            let mut vocabulary = Vocabulary::new(rules);
            let (mut names, mut counts) = (Vec::new(), Vec::new());
            for capture in &captures {
                for tool in &capture.tools {
                    let schema = tool
                        .input_schema
                        .as_ref()
                        .map(crate::nouns::object_text::ObjectText::parse)
                        .unwrap_or_default();
                    let parameters = crate::replay::catalog::parameter_names(&schema);
                    let text = search_text(
                        &rules,
                        &tool.name,
                        &capture.server,
                        tool.description.as_deref().unwrap_or(""),
                        parameters,
                    );
                    counts.push(vocabulary.count_terms(&tool.name, text));
                    names.push(tool.name.clone());
                }
            }
            let index = SearchIndex::build(&vocabulary, &counts);
            for query in &queries {
                let expected = full_sort(&vocabulary, &counts, &names, &rules, query, 5);
                let got = index.search(&vocabulary, query, 5);
                let got: Vec<(usize, f64)> = got.hits.iter().map(|h| (h.doc, h.score)).collect();
                assert_eq!(got, expected, "{query:?}");
            }
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
}
