//! Top-k selection: documents ranked by score then catalog order, the best `limit` kept in a
//! heap with the worst on top, and the bar a pruned search must beat (never below the floor
//! its asker needs, if any).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Slack on the pruning bounds, so that a bound summed in another order than the score can
/// never prune a document that would tie or win.
const BOUND_SLACK: f64 = 1e-9;

/// A candidate in the top-k heap: the worst on top (lower score, then later in the catalog).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Ranked {
    pub(super) score: f64,
    pub(super) doc: u32,
}

impl Eq for Ranked {}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        // "Greater" = better: higher score, then earlier in the catalog.
        self.score
            .total_cmp(&other.score)
            .then(other.doc.cmp(&self.doc))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The best `limit` candidates offered so far ("greater" is better), the worst on top.
pub(super) struct TopK<T = Ranked> {
    heap: BinaryHeap<std::cmp::Reverse<T>>,
    pub(super) limit: usize,
    /// The least score the asker needs ranked: a pruned search may shut out what scores below
    /// it (negative infinity: nothing is shut out before the selection is full).
    floor: f64,
}

impl<T: Ord> TopK<T> {
    /// An empty selection of at most `limit`.
    pub(super) fn new(limit: usize) -> TopK<T> {
        TopK::floored(limit, f64::NEG_INFINITY)
    }

    /// An empty selection of at most `limit`, of which only the candidates scoring at least
    /// `floor` are needed: those are kept exactly as without it, and a pruned search may leave
    /// out any below it.
    pub(super) fn floored(limit: usize, floor: f64) -> TopK<T> {
        TopK {
            heap: BinaryHeap::with_capacity(limit + 1),
            limit,
            floor,
        }
    }

    /// Keeps `candidate` if it is among the best `limit` so far.
    pub(super) fn offer(&mut self, candidate: T) {
        if self.heap.len() < self.limit {
            self.heap.push(std::cmp::Reverse(candidate));
        } else if self.heap.peek().is_some_and(|worst| candidate > worst.0) {
            self.heap.pop();
            self.heap.push(std::cmp::Reverse(candidate));
        }
    }

    /// The selection, best first.
    pub(super) fn into_sorted(self) -> Vec<T> {
        let mut best: Vec<T> = self.heap.into_iter().map(|r| r.0).collect();
        best.sort_by(|a, b| b.cmp(a));
        best
    }
}

impl TopK {
    /// The score a new candidate must beat, once the selection is full.
    fn bar(&self) -> Option<f64> {
        self.worst().map(|worst| worst.score)
    }

    /// The worst kept, once the selection is full.
    pub(super) fn worst(&self) -> Option<Ranked> {
        if self.heap.len() < self.limit {
            return None;
        }
        self.heap.peek().map(|worst| worst.0)
    }

    /// Whether nothing scoring at most `bound` can get in.
    pub(super) fn shuts_out(&self, bound: f64) -> bool {
        bound < self.cut()
    }

    /// The least bound that can still get in (below it, [`TopK::shuts_out`]): the bar less the
    /// bounds' slack, or negative infinity until the selection is full; never below the floor
    /// less the slack. An infinite bar (exact names fill the selection) stays infinite:
    /// nothing finite gets in.
    pub(super) fn cut(&self) -> f64 {
        let slack = |score: f64| score - (BOUND_SLACK * score.abs().max(1.0)).min(f64::MAX);
        let below_floor = if self.floor.is_finite() {
            slack(self.floor)
        } else {
            f64::NEG_INFINITY
        };
        self.bar()
            .map_or(below_floor, |bar| slack(bar).max(below_floor))
    }

    /// The selection, best first, less what scores below the floor: every candidate scoring at
    /// least the floor that would be among the best `limit` (what a search that shuts out only
    /// below the floor finds in full).
    pub(super) fn into_sorted_from_floor(self) -> Vec<Ranked> {
        let floor = self.floor;
        let mut best = self.into_sorted();
        if floor.is_finite() {
            best.retain(|ranked| ranked.score >= floor);
        }
        best
    }

    /// The least score needed (not a finite number: no floor).
    pub(super) fn floor(&self) -> f64 {
        self.floor
    }

    /// Whether a candidate scoring exactly `score` at `doc` would lose to the worst kept.
    pub(super) fn loses_tie(&self, score: f64, doc: u32) -> bool {
        self.heap.len() >= self.limit
            && self
                .heap
                .peek()
                .is_some_and(|worst| Ranked { score, doc } < worst.0)
    }
}

/// The best `limit` of `candidates` offered in catalog order, best first: once the selection
/// is full, a candidate must score above the worst kept (a tie comes later in the catalog and
/// loses), a comparison of two numbers.
pub(super) fn top_k_in_catalog_order(
    candidates: impl Iterator<Item = Ranked>,
    limit: usize,
) -> Vec<Ranked> {
    let mut best = TopK::new(limit);
    let mut bar = f64::NEG_INFINITY;
    for candidate in candidates {
        if candidate.score > bar || best.heap.len() < limit {
            best.offer(candidate);
            if let Some(worst) = best.worst() {
                bar = worst.score;
            }
        }
    }
    best.into_sorted()
}

/// The best `limit` of `candidates`, best first (for documents, ties keep catalog order).
pub(super) fn top_k<T: Ord>(candidates: impl Iterator<Item = T>, limit: usize) -> Vec<T> {
    let mut best = TopK::new(limit);
    candidates.for_each(|c| best.offer(c));
    best.into_sorted()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_is_just_below_the_bar_and_an_infinite_bar_shuts_out_every_finite_bound() {
        let mut best = TopK::new(1);
        assert_eq!(best.cut(), f64::NEG_INFINITY);
        assert!(!best.shuts_out(-1e300));
        best.offer(Ranked { score: 2.0, doc: 0 });
        assert!(best.cut() < 2.0 && best.cut() > 2.0 - 1e-6);
        assert!(!best.shuts_out(2.0) && best.shuts_out(1.9));
        best.offer(Ranked {
            score: f64::INFINITY,
            doc: 1,
        });
        assert_eq!(best.cut(), f64::INFINITY);
        assert!(best.shuts_out(f64::MAX));
    }

    #[test]
    fn a_floor_raises_the_cut_until_the_bar_passes_it() {
        let mut best = TopK::floored(2, 3.0);
        assert!(best.cut() < 3.0 && best.cut() > 3.0 - 1e-6);
        assert!(best.shuts_out(2.9) && !best.shuts_out(3.0));
        best.offer(Ranked { score: 1.0, doc: 0 });
        best.offer(Ranked { score: 5.0, doc: 1 });
        // Full, with a bar of 1 below the floor: the floor still cuts.
        assert!(best.shuts_out(2.9));
        best.offer(Ranked { score: 4.0, doc: 2 });
        assert!(best.cut() > 4.0 - 1e-6 && best.shuts_out(3.9));
        let kept: Vec<u32> = best
            .into_sorted_from_floor()
            .iter()
            .map(|r| r.doc)
            .collect();
        assert_eq!(kept, [1, 2]);
        // Below the floor, a candidate offered anyway is not given back.
        let mut best = TopK::floored(3, 3.0);
        best.offer(Ranked { score: 1.0, doc: 0 });
        best.offer(Ranked { score: 3.0, doc: 1 });
        let kept: Vec<u32> = best
            .into_sorted_from_floor()
            .iter()
            .map(|r| r.doc)
            .collect();
        assert_eq!(kept, [1]);
        // No floor: as a plain selection.
        let best: TopK = TopK::floored(1, f64::NEG_INFINITY);
        assert_eq!(best.cut(), f64::NEG_INFINITY);
    }

    #[test]
    fn the_best_in_catalog_order_are_the_best_of_a_full_selection() {
        // Scores from a few values, so that ties are common, in catalog order.
        let mut rng = crate::test_rng::Lcg(7);
        for limit in [1, 3, 5, 40] {
            let candidates: Vec<Ranked> = (0..200)
                .map(|doc| Ranked {
                    score: rng.below(5) as f64,
                    doc,
                })
                .collect();
            assert_eq!(
                top_k_in_catalog_order(candidates.iter().copied(), limit),
                top_k(candidates.iter().copied(), limit)
            );
        }
    }
}
