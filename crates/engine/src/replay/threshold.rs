//! `threshold_pct` of a context length, in tokens: what the deferrable schemas must reach to
//! activate Tool Search under the threshold gate (to 0.19), and the listing's budget (from
//! 0.20).

/// `int(context_length * (threshold_pct / 100))`, the tokens the deferrable schemas must reach
/// (computed in Hermes's order: the percentage first, so 0.7% of 1000 is 6).
pub fn threshold_tokens(context_length: u64, threshold_pct: f64) -> u64 {
    (context_length as f64 * (threshold_pct / 100.0)) as u64
}
