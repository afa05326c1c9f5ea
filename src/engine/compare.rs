//! The same inputs under both engine profiles, side by side: what each sends and costs, and,
//! for a queries file, where each ranks the expected tools, and which tools one profile finds
//! and the other loses. Tools are matched across profiles by `server/tool` (their Hermes names
//! differ).

use super::activation::Activation;
use super::capture_file::ServerCapture;
use super::config::Config;
use super::eval::{evaluate, Evaluation, QuerySet};
use super::profile::Profile;
use super::session::{Overrides, Session};

/// One profile's view of the inputs (its session is given back once read: at 100,000 tools
/// two sessions at once cost twice as much).
#[derive(Debug, Clone)]
pub struct ProfileSide {
    /// The profile.
    pub profile: Profile,
    /// Its activation.
    pub activation: Activation,
    /// Its evaluation of the queries file, when given.
    pub evaluation: Option<Evaluation>,
}

/// One query under both profiles.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryComparison {
    /// The query's id.
    pub id: String,
    /// The query.
    pub query: String,
    /// Its style.
    pub style: String,
    /// The expected tools, as `server/tool`.
    pub expected: Vec<String>,
    /// Rank of the first expected tool under each profile ([`Profile::ALL`] order).
    pub ranks: [Option<usize>; 2],
}

impl QueryComparison {
    /// Whether the profile at `side` finds an expected tool in the top `k` and the other does
    /// not.
    pub fn found_only_by(&self, side: usize, k: usize) -> bool {
        let within = |rank: Option<usize>| rank.is_some_and(|r| r <= k);
        within(self.ranks[side]) && !within(self.ranks[1 - side])
    }
}

/// Both profiles side by side.
#[derive(Debug, Clone)]
pub struct ProfileComparison {
    /// Seed, then hermes-2026-09.
    pub sides: [ProfileSide; 2],
    /// Every query of the queries file under both.
    pub queries: Vec<QueryComparison>,
    /// The k of recall@k.
    pub k: usize,
}

impl ProfileComparison {
    /// Builds both sessions with `overrides` (its profile ignored) and evaluates `queries` in
    /// each at `k` (default: each profile's `search_default_limit`).
    pub fn build(
        config: &Config,
        captures: &[ServerCapture],
        overrides: &Overrides,
        queries: Option<&QuerySet>,
        k: Option<usize>,
    ) -> ProfileComparison {
        let sides = Profile::ALL.map(|profile| {
            let session = Session::new(
                config,
                captures,
                &Overrides {
                    profile: Some(profile),
                    ..overrides.clone()
                },
            );
            let k = k.unwrap_or(session.settings().search_default_limit as usize);
            let evaluation = queries.map(|set| evaluate(&session, set, k, false));
            ProfileSide {
                profile,
                activation: session.activation(),
                evaluation,
            }
        });
        let k = sides[0]
            .evaluation
            .as_ref()
            .map_or(k.unwrap_or(5), |e| e.overall.k);
        let queries = match (&sides[0].evaluation, &sides[1].evaluation) {
            (Some(seed), Some(newer)) => seed
                .queries()
                .zip(newer.queries())
                .map(|(a, b)| QueryComparison {
                    id: a.query.id.clone(),
                    query: a.query.query.clone(),
                    style: a.query.style.clone(),
                    expected: if a.expected_tools.is_empty() {
                        b.expected_tools.iter().map(|t| t.to_string()).collect()
                    } else {
                        a.expected_tools.iter().map(|t| t.to_string()).collect()
                    },
                    ranks: [a.rank, b.rank],
                })
                .collect(),
            _ => Vec::new(),
        };
        ProfileComparison { sides, queries, k }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::inputs::Inputs;

    #[test]
    fn the_sample_under_both_profiles() {
        let inputs = Inputs::sample();
        let set = QuerySet::parse(
            b"queries:\n  - {id: a, query: scrape a web page, expected: [firecrawl/firecrawl_scrape]}\n  - {id: b, query: what is the meaning of this zzz, expected: [fetch/fetch]}\n",
        )
        .unwrap();
        let c = ProfileComparison::build(
            &inputs.config,
            &inputs.captures,
            &Overrides::default(),
            Some(&set),
            None,
        );
        assert_eq!(c.sides[0].profile, Profile::Seed);
        assert_eq!(c.sides[1].profile, Profile::Hermes202609);
        assert!(c.sides[1].activation.bridge_tokens > c.sides[0].activation.bridge_tokens);
        assert_eq!(c.queries.len(), 2);
        assert_eq!(c.queries[0].expected, ["firecrawl/firecrawl_scrape"]);
        assert_eq!(
            c.queries[1].ranks[1], None,
            "zzz is in no tool: the newer engine returns nothing"
        );
    }
}
