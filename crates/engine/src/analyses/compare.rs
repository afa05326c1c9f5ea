//! The same inputs under several engine profiles (Hermes releases), side by side: what each
//! sends and costs, and, for a queries file, where each ranks the expected tools, and which
//! queries a later release finds or loses against the first. Tools are matched across
//! profiles by `server/tool` (their Hermes names differ).

use crate::analyses::eval::{evaluate, EvalWarning, Evaluation, QuerySet};
use crate::nouns::config::Config;
use crate::nouns::tools::ServerCapture;
use crate::replay::activation::Activation;
use crate::replay::session::{Overrides, SearchIndexing, Session};
use schematax_releases::Profile;

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

/// One query under every profile compared.
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
    /// Rank of the first expected tool under each profile (the order of
    /// [`ProfileComparison::sides`]).
    pub ranks: Vec<Option<usize>>,
}

impl QueryComparison {
    /// Whether the profile at `side` finds an expected tool in the top `k`.
    pub fn found_by(&self, side: usize, k: usize) -> bool {
        self.ranks[side].is_some_and(|r| r <= k)
    }

    /// Whether the profile at `side` finds it in the top `k` and the first profile does not.
    pub fn gained_by(&self, side: usize, k: usize) -> bool {
        self.found_by(side, k) && !self.found_by(0, k)
    }

    /// Whether the first profile finds it in the top `k` and the profile at `side` does not.
    pub fn lost_by(&self, side: usize, k: usize) -> bool {
        self.found_by(0, k) && !self.found_by(side, k)
    }
}

/// Several profiles side by side, the first the baseline.
#[derive(Debug, Clone)]
pub struct ProfileComparison {
    /// One side per profile, in the order asked for.
    pub sides: Vec<ProfileSide>,
    /// Every query of the queries file under every profile.
    pub queries: Vec<QueryComparison>,
    /// The k of recall@k.
    pub k: usize,
    /// The evaluations' warnings (skipped queries, expected tools not in a catalog), each
    /// once, with the profiles it holds for when not all.
    pub warnings: Vec<ComparedWarning>,
}

/// An evaluation warning of a comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComparedWarning {
    /// The warning.
    pub warning: EvalWarning,
    /// The profiles it holds for; empty when it holds for all.
    pub only_under: Vec<Profile>,
}

impl ProfileComparison {
    /// Builds a session per profile (one at a time) with `overrides` (its profile ignored)
    /// and evaluates `queries` in each at `k` (default: the first profile's
    /// `search_default_limit`).
    pub fn build(
        config: &Config,
        captures: &[ServerCapture],
        overrides: &Overrides,
        profiles: &[Profile],
        queries: Option<&QuerySet>,
        k: Option<usize>,
    ) -> ProfileComparison {
        let mut k = k;
        // Without queries nothing searches: the catalogs are not indexed.
        let indexing = SearchIndexing::when_searching(queries.is_some());
        let sides: Vec<ProfileSide> = profiles
            .iter()
            .map(|&profile| {
                let session = Session::indexed(
                    config,
                    captures,
                    &Overrides {
                        profile: Some(profile),
                        ..overrides.clone()
                    },
                    indexing,
                );
                let at = *k.get_or_insert(session.settings().search_default_limit as usize);
                let evaluation = queries.map(|set| evaluate(&session, set, at, false));
                ProfileSide {
                    profile,
                    activation: session.activation(),
                    evaluation,
                }
            })
            .collect();
        let k = k.unwrap_or(5);
        let evaluations: Option<Vec<&Evaluation>> =
            sides.iter().map(|side| side.evaluation.as_ref()).collect();
        let queries = match evaluations {
            Some(evaluations) if !evaluations.is_empty() => {
                let mut per_side: Vec<_> = evaluations.iter().map(|e| e.queries()).collect();
                let mut out = Vec::new();
                loop {
                    let outcomes: Option<Vec<_>> =
                        per_side.iter_mut().map(Iterator::next).collect();
                    let Some(outcomes) = outcomes else { break };
                    let first = &outcomes[0];
                    // As the catalog names them; when no catalog has them, as the file does
                    // (a warning says so).
                    let expected = outcomes
                        .iter()
                        .find(|o| !o.expected_tools.is_empty())
                        .map(|o| {
                            o.expected_tools
                                .iter()
                                .map(std::string::ToString::to_string)
                                .collect()
                        })
                        .unwrap_or_else(|| first.query.expected.clone());
                    out.push(QueryComparison {
                        id: first.query.id.clone(),
                        query: first.query.query.clone(),
                        style: first.query.style.clone(),
                        expected,
                        ranks: outcomes.iter().map(|o| o.rank).collect(),
                    });
                }
                out
            }
            _ => Vec::new(),
        };
        let warnings = merged_warnings(&sides);
        ProfileComparison {
            sides,
            queries,
            k,
            warnings,
        }
    }
}

/// Each side's evaluation warnings once, in first-seen order; one that holds for some sides
/// only names them.
fn merged_warnings(sides: &[ProfileSide]) -> Vec<ComparedWarning> {
    let mut merged: Vec<ComparedWarning> = Vec::new();
    for side in sides {
        for warning in side.evaluation.iter().flat_map(|e| &e.warnings) {
            match merged.iter_mut().find(|m| m.warning == *warning) {
                Some(seen) => seen.only_under.push(side.profile),
                None => merged.push(ComparedWarning {
                    warning: warning.clone(),
                    only_under: vec![side.profile],
                }),
            }
        }
    }
    for warning in &mut merged {
        if warning.only_under.len() == sides.len() {
            warning.only_under.clear();
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::Inputs;

    /// The sample under seed and the newest release, with this queries file.
    fn sample_compared(queries: &[u8]) -> ProfileComparison {
        let inputs = Inputs::sample();
        let set = QuerySet::parse(queries).unwrap();
        ProfileComparison::build(
            &inputs.config,
            &inputs.captures,
            &Overrides::default(),
            &[Profile::seed(), Profile::newest()],
            Some(&set),
            None,
        )
    }

    #[test]
    fn the_sample_under_two_releases() {
        let c = sample_compared(
            b"queries:\n  - {id: a, query: scrape a web page, expected: [firecrawl/firecrawl_scrape]}\n  - {id: b, query: what is the meaning of this zzz, expected: [fetch/fetch]}\n",
        );
        assert_eq!(c.sides[0].profile, Profile::seed());
        assert_eq!(c.sides[1].profile, Profile::newest());
        assert!(c.sides[1].activation.bridge_tokens > c.sides[0].activation.bridge_tokens);
        assert_eq!(c.queries.len(), 2);
        assert_eq!(c.queries[0].expected, ["firecrawl/firecrawl_scrape"]);
        assert_eq!(
            c.queries[1].ranks[1], None,
            "zzz is in no tool: the gate admits nothing"
        );
    }

    #[test]
    fn a_tool_no_catalog_has_is_shown_as_the_file_names_it_and_warned_once() {
        let c = sample_compared(
            b"queries:\n  - {id: a, query: read a file, expected: [filesystem/read_file]}\n",
        );
        assert_eq!(c.queries[0].expected, ["filesystem/read_file"]);
        assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
        assert_eq!(
            c.warnings[0],
            ComparedWarning {
                warning: EvalWarning::NotInCatalog {
                    query: "a".into(),
                    tool: "filesystem/read_file".into()
                },
                only_under: Vec::new(),
            },
            "it holds for both"
        );
    }
}
