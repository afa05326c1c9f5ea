//! A queries file run through an agent's own search: recall@1, recall@k and MRR, and each
//! query's rank, to set beside Hermes's.

use crate::analyses::eval::{EvalQuery, Metrics, QuerySet};

use super::search::AgentIndex;

/// How one query fared in an agent's search.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentOutcome {
    /// 1-based rank of the first expected tool within k; `None` for a miss.
    pub rank: Option<usize>,
    /// The names of the top k hits.
    pub hits: Vec<String>,
    /// A tie crossed the cut: the agent may return another order.
    pub tied_at_cut: bool,
}

/// A queries file run through one agent's search.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentEvaluation {
    /// All queries.
    pub overall: Metrics,
    /// Per query, in file order.
    pub outcomes: Vec<AgentOutcome>,
}

/// The acceptable tools of a query as `(server, raw tool name)` pairs; the flag adds
/// `also_ok`.
pub type ExpectedTools<'a> = &'a dyn Fn(&EvalQuery, bool) -> Vec<(String, String)>;

/// Runs every query of `set` through `index` at depth `k`; `expected` gives the acceptable
/// tools of a query as `(server, raw tool name)` pairs (`lenient` adds `also_ok`).
pub fn evaluate(
    index: &AgentIndex,
    set: &QuerySet,
    k: usize,
    lenient: bool,
    expected: ExpectedTools<'_>,
) -> AgentEvaluation {
    let k = k.max(1);
    let outcomes: Vec<AgentOutcome> = set
        .queries
        .iter()
        .map(|query| {
            let wanted = expected(query, lenient);
            let found = index.search(&query.query, k);
            let rank = found
                .hits
                .iter()
                .position(|h| wanted.iter().any(|(s, t)| *s == h.server && *t == h.tool))
                .map(|p| p + 1);
            AgentOutcome {
                rank,
                hits: found.hits.into_iter().map(|h| h.name).collect(),
                tied_at_cut: found.tied_at_cut,
            }
        })
        .collect();
    AgentEvaluation {
        overall: metrics(&outcomes, k),
        outcomes,
    }
}

// Counts of queries are far below 2^52: exact in f64.
#[allow(clippy::cast_precision_loss)]
fn metrics(outcomes: &[AgentOutcome], k: usize) -> Metrics {
    let n = outcomes.len();
    if n == 0 {
        return Metrics {
            k,
            ..Metrics::default()
        };
    }
    let share = |count: usize| count as f64 / n as f64;
    Metrics {
        queries: n,
        k,
        recall_at_1: share(outcomes.iter().filter(|o| o.rank == Some(1)).count()),
        recall_at_k: share(outcomes.iter().filter(|o| o.rank.is_some()).count()),
        mrr: outcomes
            .iter()
            .filter_map(|o| o.rank)
            .map(|r| 1.0 / r as f64)
            .sum::<f64>()
            / n as f64,
    }
}
