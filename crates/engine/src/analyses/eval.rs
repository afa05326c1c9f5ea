//! Retrieval evaluation: a file of queries with the tools they should find, run through the
//! session's search, scored as recall@1, recall@k and MRR, by server and overall.

use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use crate::inputs::config::parse_yaml_document;
use crate::inputs::error::{read_limited, InputError};
use crate::replay::order::permute;
use crate::replay::search::{Admitted, SearchResult};
use crate::replay::session::{Lookup, Session};
use crate::yaml::{Yaml, YamlError};

/// Distinct query texts searched side by side before their outcomes are laid out.
const GROUPS_PER_BATCH: usize = 4096;

/// Expected tools not in the catalog that are listed one by one; the rest are counted.
const ABSENT_LISTED: usize = 10;

/// Largest queries file read.
pub const MAX_QUERIES_BYTES: u64 = 16 * 1024 * 1024;

/// One query and the tools it should find.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalQuery {
    /// Optional id (else its 1-based position).
    pub id: String,
    /// What the model would search for.
    pub query: String,
    /// Server the raw names of `expected` are on, when given.
    pub server: Option<String>,
    /// Raw MCP names, `server/tool`, or Hermes names.
    pub expected: Vec<String>,
    /// Also acceptable, counted only when lenient.
    pub also_ok: Vec<String>,
    /// How the query is phrased (`natural` unless the file says, e.g. `keyword`).
    pub style: String,
}

/// The style of a query that names none.
pub const DEFAULT_STYLE: &str = "natural";

/// Why a queries file is unusable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueriesError {
    /// Not readable as YAML.
    #[error(transparent)]
    Yaml(#[from] YamlError),
    /// Not `queries: [...]`.
    #[error("expected a mapping with a `queries` list")]
    Shape,
    /// A hermes.yaml (a mapping of `model`, `tools` or `mcp_servers`), not a queries file.
    #[error("this is a hermes.yaml, not a queries file: give the queries file (`queries: [{{query, expected}}]`) here and the config with --config")]
    AConfig,
    /// A capture file (a server's `tools` list), not a queries file.
    #[error("this is a capture of a server's tools, not a queries file: give the queries file (`queries: [{{query, expected}}]`) here and captures with --tools")]
    ACapture,
    /// Not one entry has both a query and an expected tool.
    #[error("no entry has both `query` and `expected`: nothing to evaluate")]
    NoQueries {
        /// Entries skipped.
        skipped: usize,
    },
}

/// Something an evaluation skipped or could not find (the words are made in `report`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalWarning {
    /// An entry of the queries file with no `query` text, skipped.
    NoQueryText {
        /// Its position in the file (1-based).
        position: usize,
    },
    /// An entry with no `expected` tools, skipped.
    NoExpectedTools {
        /// Its position in the file (1-based).
        position: usize,
        /// Its query.
        query: String,
    },
    /// An expected tool the session's catalog does not have: the query counts as a miss.
    NotInCatalog {
        /// The query's id.
        query: String,
        /// The tool as the file names it.
        tool: String,
    },
    /// More expected tools not in the catalog than are listed.
    MoreNotInCatalog {
        /// How many more.
        count: usize,
    },
    /// A key of an entry that nothing reads and that looks like a typo of a known one (other
    /// keys, such as a `note`, are left alone).
    UnknownKey {
        /// The entry's position in the file (1-based).
        position: usize,
        /// The key.
        key: String,
        /// The known key it is likely a typo of.
        guess: &'static str,
    },
}

/// The keys an entry of a queries file may have.
const ENTRY_KEYS: [&str; 6] = ["id", "query", "server", "expected", "also_ok", "style"];

/// A parsed queries file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QuerySet {
    /// Usable queries, in file order (shared with the evaluations of them).
    pub queries: Arc<[EvalQuery]>,
    /// Entries skipped.
    pub warnings: Vec<EvalWarning>,
}

impl QuerySet {
    /// Reads a queries file; errors name the file.
    pub fn load(path: &Path) -> Result<QuerySet, InputError> {
        let bytes = read_limited(path, MAX_QUERIES_BYTES)?;
        QuerySet::parse(&bytes).map_err(|e| InputError::new(path, e.to_string()))
    }

    /// Parses `queries: [{id?, query, server?, expected, also_ok?, style?}]`; other keys are
    /// ignored.
    pub fn parse(bytes: &[u8]) -> Result<QuerySet, QueriesError> {
        let root = parse_yaml_document(bytes)?;
        let Some(Yaml::Seq(items)) = root.get("queries") else {
            return Err(if matches!(root.get("tools"), Some(Yaml::Seq(_))) {
                QueriesError::ACapture
            } else if ["model", "tools", "mcp_servers"]
                .iter()
                .any(|key| root.get(key).is_some())
            {
                QueriesError::AConfig
            } else {
                QueriesError::Shape
            });
        };
        let mut queries = Vec::new();
        let mut warnings = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let position = index + 1;
            if let Yaml::Map(map) = item {
                for key in map.keys().map(Yaml::key_text) {
                    if ENTRY_KEYS.contains(&key.as_str()) {
                        continue;
                    }
                    if let Some(guess) = crate::text::did_you_mean(&key, &ENTRY_KEYS) {
                        warnings.push(EvalWarning::UnknownKey {
                            position,
                            key,
                            guess,
                        });
                    }
                }
            }
            let text = |key: &str| match item.get(key) {
                Some(Yaml::Str(s)) => Some(s.clone()),
                Some(value @ (Yaml::Int(_) | Yaml::Float(_) | Yaml::Bool(_))) => {
                    Some(value.key_text())
                }
                _ => None,
            };
            let list = |key: &str| match item.get(key) {
                Some(Yaml::Str(s)) => vec![s.clone()],
                Some(Yaml::Seq(values)) => values
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
                _ => Vec::new(),
            };
            let Some(query) = text("query").filter(|q| !q.trim().is_empty()) else {
                warnings.push(EvalWarning::NoQueryText { position });
                continue;
            };
            let expected = list("expected");
            if expected.is_empty() {
                warnings.push(EvalWarning::NoExpectedTools { position, query });
                continue;
            }
            queries.push(EvalQuery {
                id: text("id").unwrap_or_else(|| position.to_string()),
                query,
                server: text("server"),
                expected,
                also_ok: list("also_ok"),
                style: text("style").unwrap_or_else(|| DEFAULT_STYLE.to_string()),
            });
        }
        if queries.is_empty() {
            return Err(QueriesError::NoQueries {
                skipped: warnings.len(),
            });
        }
        Ok(QuerySet {
            queries: queries.into(),
            warnings,
        })
    }

    /// The styles of its queries, in first-seen order.
    pub fn styles(&self) -> Vec<&str> {
        let mut styles: Vec<&str> = Vec::new();
        for query in self.queries.iter() {
            if !styles.contains(&query.style.as_str()) {
                styles.push(&query.style);
            }
        }
        styles
    }
}

/// Recall and MRR over a set of queries.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Metrics {
    /// Queries counted.
    pub queries: usize,
    /// The k of recall@k.
    pub k: usize,
    /// Share of queries whose first hit is expected.
    pub recall_at_1: f64,
    /// Share of queries with an expected tool in the top k.
    pub recall_at_k: f64,
    /// Mean of 1/rank over the top max_search_limit hits (0 for a miss).
    pub mrr: f64,
}

/// The outcome of one query, borrowed from its [`Evaluation`].
#[derive(Debug, Clone, PartialEq)]
pub struct QueryOutcome<'a> {
    /// The query (its id, text, style and expected names as written).
    pub query: &'a EvalQuery,
    /// The group it counts in (its `server`, else the first expected tool's server).
    pub group: &'a str,
    /// 1-based rank of the first acceptable hit within max_search_limit; `None` for a miss.
    pub rank: Option<usize>,
    /// Hermes names of the top k hits.
    pub hits: Vec<&'a str>,
    /// The expected tools, as `server/tool` (to compare profiles, whose names differ).
    pub expected_tools: Vec<&'a str>,
    /// For a miss under the rarest-word gate, why the first expected tool is not admitted.
    pub not_admitted: Option<&'a Admitted>,
}

/// How one query fared, as an evaluation keeps it: places in the evaluation's tables. The
/// outcome of query `i` of the set is the evaluation's outcome `i`.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    group: u32,
    rank: Option<u32>,
    hits: Box<[u32]>,
    expected_tools: Box<[u32]>,
    not_admitted: Option<Admitted>,
}

/// How one query fared, as its search leaves it: catalog positions, before they are put in
/// the evaluation's tables.
struct Scored {
    rank: Option<u32>,
    hits: Vec<usize>,
    accepted: Vec<usize>,
    not_admitted: Option<Admitted>,
}

/// The whole evaluation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Evaluation {
    /// All queries.
    pub overall: Metrics,
    /// Per group (server).
    pub by_server: BTreeMap<String, Metrics>,
    /// Per query style (`natural`, `keyword`, ...).
    pub by_style: BTreeMap<String, Metrics>,
    /// Expected names not in the session's catalog, and skipped entries.
    pub warnings: Vec<EvalWarning>,
    /// The queries run (shared with their set).
    evaluated: Arc<[EvalQuery]>,
    outcomes: Vec<Outcome>,
    /// The names the outcomes point to (groups, Hermes names, `server/tool`), each once.
    names: Vec<Box<str>>,
}

impl Evaluation {
    /// How many queries were run.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Whether no query was run.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// The outcome of each query, in file order.
    pub fn queries(&self) -> impl ExactSizeIterator<Item = QueryOutcome<'_>> + '_ {
        (0..self.outcomes.len()).map(|i| self.outcome(i))
    }

    /// The outcome of query `i` (in file order).
    pub fn query(&self, i: usize) -> Option<QueryOutcome<'_>> {
        (i < self.outcomes.len()).then(|| self.outcome(i))
    }

    fn outcome(&self, i: usize) -> QueryOutcome<'_> {
        let outcome = &self.outcomes[i];
        let names = |places: &[u32]| places.iter().map(|&n| self.name(n)).collect();
        QueryOutcome {
            query: &self.evaluated[i],
            group: self.name(outcome.group),
            rank: outcome.rank.map(|r| r as usize),
            hits: names(&outcome.hits),
            expected_tools: names(&outcome.expected_tools),
            not_admitted: outcome.not_admitted.as_ref(),
        }
    }

    fn name(&self, place: u32) -> &str {
        &self.names[place as usize]
    }
}

/// Names, each kept once, by place: the tables an evaluation's outcomes point into.
#[derive(Default)]
struct Names {
    names: Vec<Box<str>>,
    places: HashMap<Box<str>, u32>,
    /// Catalog position -> place of its Hermes name, and of its `server/tool`.
    hermes: HashMap<usize, u32>,
    tools: HashMap<usize, u32>,
}

impl Names {
    fn place(&mut self, name: &str) -> u32 {
        if let Some(&place) = self.places.get(name) {
            return place;
        }
        let place = self.names.len() as u32;
        self.names.push(name.into());
        self.places.insert(name.into(), place);
        place
    }

    fn hermes(&mut self, session: &Session, doc: usize) -> u32 {
        if let Some(&place) = self.hermes.get(&doc) {
            return place;
        }
        let place = self.place(&session.catalog_entry(doc).0.name);
        self.hermes.insert(doc, place);
        place
    }

    fn tool(&mut self, session: &Session, doc: usize) -> u32 {
        if let Some(&place) = self.tools.get(&doc) {
            return place;
        }
        let (entry, _) = session.catalog_entry(doc);
        let place = self.place(&format!("{}/{}", entry.server, entry.raw_name));
        self.tools.insert(doc, place);
        place
    }
}

/// Resolves an expected name to catalog positions; empty when it is not in the catalog.
pub fn resolve(session: &Session, name: &str, server: Option<&str>) -> Vec<usize> {
    let direct = session.lookup(name);
    let lookup = match (&direct, server) {
        (Lookup::Found(_), _) => direct,
        (_, Some(server)) if !name.contains('/') => session.lookup(&format!("{server}/{name}")),
        _ => direct,
    };
    match lookup {
        Lookup::Found(position) => vec![position],
        Lookup::Ambiguous(positions) => positions,
        Lookup::Missing => Vec::new(),
    }
}

/// The group of a query whose expected tools resolved to no catalog position.
const NOT_IN_CATALOG: &str = "(not in catalog)";

/// Runs every query; `k` is clamped to [1, max_search_limit]; `lenient` also accepts `also_ok`.
pub fn evaluate(session: &Session, set: &QuerySet, k: usize, lenient: bool) -> Evaluation {
    let depth = session.settings().max_search_limit as usize;
    let k = k.clamp(1, depth);
    let queries = &set.queries;
    // Each distinct query text is searched once, for all the queries that share it. The
    // groups run in parallel, a batch at a time, each result dropped once its queries are
    // scored; the outcomes are laid out in text order, then put in file order in place.
    let mut by_text: Vec<u32> = (0..queries.len() as u32).collect();
    by_text.sort_by(|&a, &b| queries[a as usize].query.cmp(&queries[b as usize].query));
    let groups: Vec<&[u32]> = by_text
        .chunk_by(|&a, &b| queries[a as usize].query == queries[b as usize].query)
        .collect();
    let mut names = Names::default();
    let mut outcomes = Vec::with_capacity(queries.len());
    let mut missing: Vec<(u32, Vec<EvalWarning>)> = Vec::new();
    for batch in groups.chunks(GROUPS_PER_BATCH) {
        let scored: Vec<Vec<(Scored, Vec<EvalWarning>)>> = batch
            .par_iter()
            .map(|group| {
                let result = session.search(&queries[group[0] as usize].query, depth);
                group
                    .iter()
                    .map(|&i| score(session, &queries[i as usize], &result, k, lenient))
                    .collect()
            })
            .collect();
        for (group, scored) in batch.iter().zip(scored) {
            for (&i, (scored, absent)) in group.iter().zip(scored) {
                let query = &queries[i as usize];
                let group = match (&query.server, scored.accepted.first()) {
                    (Some(server), _) => names.place(server),
                    (None, Some(&first)) => names.place(&session.catalog_entry(first).0.server),
                    (None, None) => names.place(NOT_IN_CATALOG),
                };
                outcomes.push(Outcome {
                    group,
                    rank: scored.rank,
                    hits: scored
                        .hits
                        .iter()
                        .map(|&doc| names.hermes(session, doc))
                        .collect(),
                    expected_tools: scored
                        .accepted
                        .iter()
                        .map(|&doc| names.tool(session, doc))
                        .collect(),
                    not_admitted: scored.not_admitted,
                });
                if !absent.is_empty() {
                    missing.push((i, absent));
                }
            }
        }
    }
    // Outcome j is the outcome of query by_text[j]: query i's is at the inverse position.
    let mut order = vec![0; by_text.len()];
    for (position, &query) in by_text.iter().enumerate() {
        order[query as usize] = position as u32;
    }
    permute(&mut outcomes, &mut order);
    missing.sort_unstable_by_key(|(i, _)| *i);
    let mut warnings = set.warnings.clone();
    let absent: Vec<EvalWarning> = missing.into_iter().flat_map(|(_, a)| a).collect();
    let unlisted = absent.len().saturating_sub(ABSENT_LISTED);
    warnings.extend(absent.into_iter().take(ABSENT_LISTED));
    if unlisted > 0 {
        warnings.push(EvalWarning::MoreNotInCatalog { count: unlisted });
    }
    let mut evaluation = Evaluation {
        overall: metrics(outcomes.iter(), k),
        by_server: BTreeMap::new(),
        by_style: BTreeMap::new(),
        warnings,
        evaluated: Arc::clone(queries),
        outcomes,
        names: names.names,
    };
    evaluation.by_server = by_key(&evaluation, k, |e, i| e.name(e.outcomes[i].group));
    evaluation.by_style = by_key(&evaluation, k, |e, i| &e.evaluated[i].style);
    evaluation
}

/// The metrics of the outcomes of each `key` (of the evaluation and a query's place).
fn by_key<'a>(
    evaluation: &'a Evaluation,
    k: usize,
    key: fn(&'a Evaluation, usize) -> &'a str,
) -> BTreeMap<String, Metrics> {
    let mut groups: BTreeMap<&str, Vec<&Outcome>> = BTreeMap::new();
    for (i, outcome) in evaluation.outcomes.iter().enumerate() {
        groups.entry(key(evaluation, i)).or_default().push(outcome);
    }
    groups
        .into_iter()
        .map(|(group, list)| (group.to_string(), metrics(list.into_iter(), k)))
        .collect()
}

/// How one query fared, given the result of its search, and the expected names that are not
/// in the catalog.
fn score(
    session: &Session,
    query: &EvalQuery,
    result: &SearchResult,
    k: usize,
    lenient: bool,
) -> (Scored, Vec<EvalWarning>) {
    let server = query.server.as_deref();
    let mut accepted: Vec<usize> = Vec::new();
    let mut missing = Vec::new();
    let names = query
        .expected
        .iter()
        .chain(if lenient { &query.also_ok[..] } else { &[] });
    for name in names {
        let found = resolve(session, name, server);
        if found.is_empty() {
            missing.push(EvalWarning::NotInCatalog {
                query: query.id.clone(),
                tool: name.clone(),
            });
        }
        accepted.extend(found);
    }
    let rank = result
        .hits
        .iter()
        .position(|h| accepted.contains(&h.doc))
        .map(|p| p as u32 + 1);
    let not_admitted = match (rank, accepted.first(), &result.gate) {
        (None, Some(&first), Some(_)) => {
            Some(session.admission(&query.query, first)).filter(|a| *a != Admitted::Yes)
        }
        _ => None,
    };
    let scored = Scored {
        rank,
        hits: result.hits.iter().take(k).map(|h| h.doc).collect(),
        accepted,
        not_admitted,
    };
    (scored, missing)
}

fn metrics<'a>(outcomes: impl Iterator<Item = &'a Outcome>, k: usize) -> Metrics {
    let ranks: Vec<Option<usize>> = outcomes.map(|o| o.rank.map(|r| r as usize)).collect();
    let n = ranks.len();
    if n == 0 {
        return Metrics {
            k,
            ..Metrics::default()
        };
    }
    let share = |hit: fn(usize, usize) -> bool| {
        ranks
            .iter()
            .filter(|r| r.is_some_and(|r| hit(r, k)))
            .count() as f64
            / n as f64
    };
    Metrics {
        queries: n,
        k,
        recall_at_1: share(|r, _| r == 1),
        recall_at_k: share(|r, k| r <= k),
        mrr: ranks
            .iter()
            .map(|r| r.map_or(0.0, |r| 1.0 / r as f64))
            .sum::<f64>()
            / n as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::inputs::capture_file::parse_capture;
    use crate::nouns::config::Config;
    use crate::replay::session::Overrides;

    fn session() -> Session {
        // Every tool gets an empty inputSchema (without one, Hermes cannot connect a server).
        let capture = |server: &str, tools: &str| {
            let tools = tools.replace("\"}", "\",\"inputSchema\":{}}");
            parse_capture(
                format!("{{\"server\":\"{server}\",\"tools\":{tools}}}").as_bytes(),
                server,
            )
            .unwrap()
        };
        let captures = vec![
            capture(
                "github",
                r#"[{"name":"create_issue","description":"Open a new issue in a GitHub repository"},{"name":"search_repos","description":"Search GitHub for repositories"}]"#,
            ),
            capture(
                "gitlab",
                r#"[{"name":"create_issue","description":"Create an issue in a GitLab project"}]"#,
            ),
            capture(
                "slack",
                r#"[{"name":"post_message","description":"Post a message to a Slack channel"}]"#,
            ),
        ];
        Session::new(&Config::default(), &captures, &Overrides::seed_for_tests())
    }

    fn set(yaml: &str) -> QuerySet {
        QuerySet::parse(yaml.as_bytes()).unwrap()
    }

    #[test]
    fn parses_and_skips_with_warnings() {
        let s = set("queries:\n  - id: a\n    query: x\n    expected: t\n    note: ignored\n  - query: y\n  - expected: [t]\n  - query: z\n    expected: [u, v]\n    also_ok: [w]\n");
        assert_eq!(s.queries.len(), 2);
        assert_eq!(s.queries[0].expected, ["t"]);
        assert_eq!(s.queries[1].id, "4");
        assert_eq!(s.queries[1].also_ok, ["w"]);
        assert_eq!(s.warnings.len(), 2);
        assert_eq!(QuerySet::parse(b"- a"), Err(QueriesError::Shape));
        let typo =
            QuerySet::parse(b"queries:\n  - query: a\n    expected: [t]\n    expectd: [u]\n")
                .unwrap();
        assert_eq!(
            typo.warnings,
            [EvalWarning::UnknownKey {
                position: 1,
                key: "expectd".into(),
                guess: "expected"
            }]
        );
        assert_eq!(
            QuerySet::parse(b"model: x\nmcp_servers: {}\n"),
            Err(QueriesError::AConfig)
        );
        assert_eq!(
            QuerySet::parse(br#"{"server": "s", "tools": [{"name": "t"}]}"#),
            Err(QueriesError::ACapture)
        );
        assert_eq!(
            QuerySet::parse(b"queries:\n  - query: x\n  - expected: [t]\n"),
            Err(QueriesError::NoQueries { skipped: 2 })
        );
        assert_eq!(
            QuerySet::parse(b"queries: []").unwrap_err().to_string(),
            "no entry has both `query` and `expected`: nothing to evaluate"
        );
        assert!(matches!(
            QuerySet::parse(b"queries: ["),
            Err(QueriesError::Yaml(_))
        ));
        let deep = format!("queries: {}1{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(QuerySet::parse(deep.as_bytes()).is_err());
    }

    #[test]
    fn repeated_query_texts_are_searched_once_and_scored_each_in_its_place() {
        let s = session();
        let yaml = "queries:\n  - query: create an issue\n    expected: [github/create_issue]\n  - query: post to slack\n    expected: [post_message]\n  - query: create an issue\n    expected: [gitlab/create_issue]\n  - query: create an issue\n    expected: [nowhere]\n";
        let together = evaluate(&s, &set(yaml), 1, false);
        let queries = set(yaml).queries;
        assert_eq!(together.len(), queries.len());
        for (query, outcome) in queries.iter().zip(together.queries()) {
            let alone = QuerySet {
                queries: vec![query.clone()].into(),
                warnings: Vec::new(),
            };
            assert_eq!(evaluate(&s, &alone, 1, false).query(0), Some(outcome));
        }
        let ranks: Vec<_> = together.queries().map(|q| q.rank).collect();
        assert_eq!(ranks, [Some(2), Some(1), Some(1), None]);
        assert_eq!(together.warnings.len(), 1, "{:?}", together.warnings);
    }

    #[test]
    fn outcomes_keep_file_order_across_batches() {
        let s = session();
        let texts = ["create an issue", "post to slack", "search repos", "zebra"];
        let expected = [
            "github/create_issue",
            "post_message",
            "search_repos",
            "nope",
        ];
        let mut yaml = String::from("queries:\n");
        let total = GROUPS_PER_BATCH * 2 + 17;
        for i in 0..total {
            // Mostly distinct texts (more groups than a batch holds), some repeated.
            let text = if i % 5 == 0 {
                texts[i % 4].to_string()
            } else {
                format!("{} {i}", texts[i % 4])
            };
            yaml.push_str(&format!(
                "  - {{id: q{i}, query: \"{text}\", expected: [{}]}}\n",
                expected[i % 4]
            ));
        }
        let all = set(&yaml);
        let together = evaluate(&s, &all, 2, false);
        assert_eq!(together.len(), total);
        for (i, outcome) in together.queries().enumerate() {
            assert_eq!(outcome.query.id, format!("q{i}"));
        }
        for i in (0..total).step_by(97) {
            let alone = QuerySet {
                queries: vec![all.queries[i].clone()].into(),
                warnings: Vec::new(),
            };
            assert_eq!(evaluate(&s, &alone, 2, false).query(0), together.query(i));
        }
        // The first ten queries expecting nope are named, in file order; the rest counted.
        let missing = &together.warnings;
        let expecting_nope = (0..total).filter(|i| i % 4 == 3).count();
        assert_eq!(missing.len(), ABSENT_LISTED + 1);
        let query_of = |w: &EvalWarning| match w {
            EvalWarning::NotInCatalog { query, .. } => query.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(query_of(&missing[0]), "q3");
        assert_eq!(query_of(&missing[1]), "q7");
        assert_eq!(query_of(&missing[9]), "q39");
        assert_eq!(
            missing[10],
            EvalWarning::MoreNotInCatalog {
                count: expecting_nope - ABSENT_LISTED
            }
        );
    }

    #[test]
    fn ranks_recall_and_mrr() {
        let s = session();
        let queries = set(
            "queries:\n  - query: open a github issue\n    server: github\n    expected: [create_issue]\n  - query: create an issue in a project\n    expected: [github/create_issue]\n    also_ok: [mcp_gitlab_create_issue]\n  - query: post to slack\n    expected: [mcp_slack_post_message]\n  - query: zebra\n    expected: [post_message]\n",
        );
        let strict = evaluate(&s, &queries, 1, false);
        let ranks: Vec<_> = strict.queries().map(|q| q.rank).collect();
        assert_eq!(
            ranks,
            [Some(1), Some(2), Some(1), None],
            "gitlab's issue tool ranks first for the second"
        );
        assert_eq!(strict.overall.queries, 4);
        assert_eq!(strict.overall.recall_at_1, 0.5);
        assert_eq!(strict.overall.recall_at_k, 0.5);
        assert!((strict.overall.mrr - (1.0 + 0.5 + 1.0 + 0.0) / 4.0).abs() < 1e-12);
        let first = strict.query(0).unwrap();
        assert_eq!(first.hits, ["mcp_github_create_issue"]);
        assert_eq!(first.expected_tools, ["github/create_issue"]);
        assert_eq!(first.group, "github");
        assert_eq!(strict.by_server["github"].queries, 2);
        assert_eq!(strict.by_server["slack"].recall_at_1, 0.5);

        let lenient = evaluate(&s, &queries, 3, true);
        let second = lenient.query(1).unwrap();
        assert_eq!(second.rank, Some(1));
        assert_eq!(
            second.expected_tools,
            ["github/create_issue", "gitlab/create_issue"]
        );
        assert_eq!(lenient.overall.k, 3);
        assert_eq!(lenient.overall.recall_at_k, 0.75);
    }

    #[test]
    fn missing_tools_are_misses_with_a_warning() {
        let s = session();
        let queries = set("queries:\n  - query: open a github issue\n    expected: [nope]\n");
        let e = evaluate(&s, &queries, 5, false);
        let outcome = e.query(0).unwrap();
        assert_eq!(outcome.rank, None);
        assert_eq!(outcome.group, "(not in catalog)");
        assert!(outcome.expected_tools.is_empty());
        assert_eq!(e.warnings.len(), 1);
        assert!(matches!(&e.warnings[0], EvalWarning::NotInCatalog { tool, .. } if tool == "nope"));
    }

    #[test]
    fn ambiguous_raw_names_accept_every_server() {
        let s = session();
        let queries = set(
            "queries:\n  - query: create an issue in a project\n    expected: [create_issue]\n",
        );
        let outcome = evaluate(&s, &queries, 5, false).query(0).unwrap().rank;
        assert_eq!(outcome, Some(1));
    }
}
