//! Tool description quality: which tools an agent will fail to find through Tool Search, and
//! why. Every rule runs over the session's catalog through the same engine.

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::analyses::eval::{resolve, QuerySet};
use crate::replay::catalog::Collision;
use crate::replay::catalog::ToolEntry;
use crate::replay::order::permute;
use crate::replay::search::{raw_tokens, Admitted, Asked, SearchWork};
use crate::replay::session::{Note, Session};
use schematax_releases::{Admission, Profile};

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The tool is broken for some clients, or cannot be found.
    Error,
    /// The tool is likely to be missed or misread.
    Warning,
    /// Worth knowing.
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A lint rule: its id, severity and what it checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Stable id, e.g. `no-description`.
    pub id: &'static str,
    /// Severity of its findings.
    pub severity: Severity,
    /// One line: what it checks.
    pub summary: &'static str,
}

const fn rule(id: &'static str, severity: Severity, summary: &'static str) -> Rule {
    Rule {
        id,
        severity,
        summary,
    }
}

/// The tool has no description: Hermes sends `MCP tool X from S`.
pub const NO_DESCRIPTION: Rule = rule("no-description", Severity::Error, "tool has no description");
/// The description is under [`MIN_DESCRIPTION_CHARS`].
pub const SHORT_DESCRIPTION: Rule = rule(
    "short-description",
    Severity::Warning,
    "description too short to search",
);
/// The description is over [`MAX_DESCRIPTION_BYTES`].
pub const LONG_DESCRIPTION: Rule = rule(
    "long-description",
    Severity::Warning,
    "description over 2 KB, which some clients cut",
);
/// The definition is in the costliest tenth of the catalog.
pub const COSTLY_TOOL: Rule = rule(
    "costly-tool",
    Severity::Info,
    "definition in the costliest tenth of the catalog",
);
/// A camelCase name is one search token.
pub const CAMEL_CASE: Rule = rule(
    "camel-case-name",
    Severity::Warning,
    "camelCase name is one search token",
);
/// Words with non-ASCII letters are split or dropped by the search tokenizer.
pub const NON_ASCII: Rule = rule(
    "non-ascii-words",
    Severity::Warning,
    "words the search tokenizer cannot use",
);
/// A top-level parameter has no description.
pub const PARAM_NO_DESCRIPTION: Rule = rule(
    "param-no-description",
    Severity::Warning,
    "parameter without a description",
);
/// A top-level parameter has no type.
pub const PARAM_NO_TYPE: Rule = rule(
    "param-no-type",
    Severity::Warning,
    "parameter without a type",
);
/// The schema nests deeper than [`MAX_SCHEMA_DEPTH`].
pub const DEEP_SCHEMA: Rule = rule(
    "deep-schema",
    Severity::Warning,
    "schema nested deeper than 3 levels",
);
/// The Hermes name is over [`MAX_NAME_CHARS`].
pub const LONG_NAME: Rule = rule(
    "long-name",
    Severity::Error,
    "Hermes name over 64 characters",
);
/// The Hermes name collides with another server's tool.
pub const NAME_COLLISION: Rule = rule(
    "name-collision",
    Severity::Error,
    "name collides after sanitising",
);
/// Another server has a near-identical tool.
pub const NEAR_DUPLICATE: Rule = rule(
    "near-duplicate",
    Severity::Warning,
    "near-duplicate of a tool on another server",
);
/// The tool's own name words do not find it.
pub const SHADOWED: Rule = rule(
    "shadowed",
    Severity::Warning,
    "its own name words do not find it",
);
/// The tool's own first sentence does not find it.
pub const WEAK_FIRST_SENTENCE: Rule = rule(
    "weak-first-sentence",
    Severity::Info,
    "its own first sentence does not find it",
);

/// The tool has no `inputSchema`: Hermes's MCP client rejects its whole server.
pub const NO_INPUT_SCHEMA: Rule = rule(
    "no-input-schema",
    Severity::Error,
    "no inputSchema: Hermes cannot connect the server",
);
/// Another entry of the server's tool list Hermes's MCP client refuses.
pub const REFUSED_TOOL_LIST: Rule = rule(
    "refused-tool-list",
    Severity::Error,
    "an entry the MCP client refuses: Hermes cannot connect the server",
);
/// Hermes's schema passes change the tool's search words.
pub const SEARCH_WORDS_CHANGED: Rule = rule(
    "search-words-changed",
    Severity::Warning,
    "Hermes's schema passes change its search words",
);
/// Hermes's schema passes change the definition it sends.
pub const SCHEMA_REWRITTEN: Rule = rule(
    "schema-rewritten",
    Severity::Info,
    "Hermes's schema passes change its definition",
);
/// A query of the queries file cannot reach the tool it expects.
pub const UNREACHABLE: Rule = rule(
    "unreachable",
    Severity::Warning,
    "a query that should find it cannot",
);

/// Every rule, in report order.
pub const RULES: [Rule; 19] = [
    NO_INPUT_SCHEMA,
    REFUSED_TOOL_LIST,
    NO_DESCRIPTION,
    SHORT_DESCRIPTION,
    LONG_DESCRIPTION,
    COSTLY_TOOL,
    CAMEL_CASE,
    NON_ASCII,
    PARAM_NO_DESCRIPTION,
    PARAM_NO_TYPE,
    DEEP_SCHEMA,
    LONG_NAME,
    NAME_COLLISION,
    NEAR_DUPLICATE,
    SHADOWED,
    WEAK_FIRST_SENTENCE,
    UNREACHABLE,
    SEARCH_WORDS_CHANGED,
    SCHEMA_REWRITTEN,
];

/// Shortest description that is useful to search.
pub const MIN_DESCRIPTION_CHARS: usize = 20;
/// Longest description some clients keep whole.
pub const MAX_DESCRIPTION_BYTES: usize = 2048;
/// Longest function name providers accept.
pub const MAX_NAME_CHARS: usize = 64;
/// Deepest schema nesting before it is flagged.
pub const MAX_SCHEMA_DEPTH: usize = 3;
/// Relative BM25 score, both ways, from which two tools are near-duplicates.
pub const NEAR_DUPLICATE_SIMILARITY: f64 = 0.8;

/// What a finding found, with the figures its words need (the words are made in `report`).
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// No description of its own: Hermes sends `sent` in its place.
    NoDescription {
        /// What Hermes sends.
        sent: String,
    },
    /// A description under [`MIN_DESCRIPTION_CHARS`].
    ShortDescription {
        /// The description, trimmed.
        description: String,
    },
    /// A description over [`MAX_DESCRIPTION_BYTES`].
    LongDescription {
        /// Its length in bytes.
        bytes: usize,
        /// It was cut at load, so it is longer still.
        at_least: bool,
    },
    /// A camelCase name, one search token.
    CamelCase {
        /// The raw name.
        name: String,
        /// The snake_case name to use.
        snake: String,
    },
    /// Words with non-ASCII letters.
    NonAscii {
        /// How many.
        count: usize,
        /// The first three.
        first: Vec<String>,
    },
    /// A Hermes name over [`MAX_NAME_CHARS`].
    LongName {
        /// The Hermes name.
        name: String,
        /// Its length in characters.
        chars: usize,
    },
    /// Top-level parameters with no description.
    ParamNoDescription {
        /// Their names.
        params: Vec<String>,
    },
    /// Top-level parameters with no type.
    ParamNoType {
        /// Their names.
        params: Vec<String>,
    },
    /// Parameters nested deeper than [`MAX_SCHEMA_DEPTH`].
    DeepSchema {
        /// The depth.
        depth: usize,
    },
    /// The schema passes add or remove parameters, and with them search words.
    SearchWordsChanged {
        /// Parameters added.
        added: Vec<String>,
        /// Parameters removed.
        removed: Vec<String>,
    },
    /// The schema passes rewrite the definition.
    SchemaRewritten {
        /// Its Hermes name.
        name: String,
        /// Definition characters as captured.
        captured_chars: u64,
        /// Definition characters as sent.
        sent_chars: u64,
    },
    /// In the catalog's costliest tenth.
    Costly {
        /// Its definition's chars/4 tokens.
        tokens: u64,
    },
    /// A search for its name words does not return it.
    Shadowed {
        /// The name words searched.
        query: String,
        /// The number of results looked at.
        limit: u32,
        /// What came instead (Hermes names).
        above: Vec<String>,
    },
    /// A search for its own first sentence does not return it.
    WeakFirstSentence {
        /// The number of results looked at.
        limit: u32,
    },
    /// A tool of another server whose search text scores as well as its own.
    NearDuplicate {
        /// Its Hermes name.
        other: String,
        /// Its server.
        server: String,
        /// How alike, 0 to 1.
        similarity: f64,
    },
    /// A tool that lost a name collision.
    NameCollision(Collision),
    /// A server Hermes cannot connect.
    Refused(Note),
    /// A query of a queries file does not return the tool.
    Unreachable {
        /// The query's id.
        id: String,
        /// Its text.
        query: String,
        /// The number of results looked at.
        k: usize,
        /// Why.
        why: Unreached,
    },
}

/// Why a query does not bring its expected tool into the results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreached {
    /// The query's rarest word is not in the tool's text: the rarest-word gate (0.21.3 on)
    /// never admits it.
    MissingGate {
        /// The word.
        word: String,
    },
    /// The tool holds too few of the query's words for the gate.
    TooFewWords {
        /// Words it holds.
        held: usize,
        /// Words it must hold.
        required: usize,
    },
    /// The query has no searchable words.
    NoTokens,
    /// Nothing ranks for the query.
    NothingRanks,
    /// Other tools come first (Hermes names).
    Outranked(Vec<String>),
}

/// One finding about one tool, held compactly (32 bytes): the rule, the tool and the few
/// facts its problem needs. A lint of 100,000 tools has hundreds of thousands of them, so
/// names and problems are made only when [`Findings`] is read.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The rule.
    pub rule: &'static Rule,
    /// The catalog position of the tool, or for [`Detail::Collision`] the index of the
    /// session's name collision.
    subject: u32,
    detail: Detail,
}

/// What a finding's problem needs beyond its tool and rule.
#[derive(Debug, Clone, PartialEq)]
enum Detail {
    /// Nothing: the tool's own data makes the problem.
    Tool,
    /// A tool left out by a name collision.
    Collision,
    /// A server Hermes cannot connect: its note (an index of [`Session::notes`]).
    Refused,
    /// A search for the tool's own words did not return it: which of the lint's search
    /// results it returned instead.
    Outranked { result: u32 },
    /// The near-identical tool of another server, and how alike they are (0 to 1).
    Twin { other: u32, similarity: f64 },
    /// A query of a queries file that does not return the tool: its problem is made when
    /// found, from what the session does not keep.
    Query(Box<QueryFinding>),
}

/// A query's problem, with the catalog positions of the tools it returned.
#[derive(Debug, Clone, PartialEq)]
struct QueryFinding {
    problem: Problem,
    related: Box<[u32]>,
}

impl Finding {
    fn about_tool(rule: &'static Rule, doc: usize, detail: Detail) -> Finding {
        Finding {
            rule,
            subject: doc as u32,
            detail,
        }
    }
}

/// One finding with its names and problem: what the reports and the view show.
#[derive(Debug, Clone, PartialEq)]
pub struct FindingDetails {
    /// The rule.
    pub rule: Rule,
    /// Server key.
    pub server: String,
    /// Raw MCP tool name.
    pub tool: String,
    /// Hermes name (empty for a tool that lost a name collision).
    pub name: String,
    /// What is wrong, with its figures.
    pub problem: Problem,
    /// Hermes names of the tools involved (what outranks a shadowed tool, a duplicate).
    pub related: Vec<String>,
}

/// The findings of one lint, most severe first, then by server, tool and rule, with the
/// session they are about (a clone sharing its tool data), which resolves their details.
#[derive(Clone)]
pub struct Findings {
    session: Session,
    list: Vec<Finding>,
    /// What the findability rules' searches returned, which outranked findings point into.
    results: HitLists,
    work: LintWork,
}

/// The work of a lint's findability searches, as counts rather than time: it grows with the
/// catalog, not with how busy the machine is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LintWork {
    /// Searches run: one per distinct query (a tool's name words or its first sentence).
    pub searches: usize,
    /// What they did together.
    pub search: SearchWork,
}

impl fmt::Debug for Findings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Findings")
            .field("profile", &self.profile())
            .field("list", &self.list)
            .finish_non_exhaustive()
    }
}

impl Findings {
    /// How many there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The findings in order, compact.
    pub fn iter(&self) -> std::slice::Iter<'_, Finding> {
        self.list.iter()
    }

    /// The details of the finding at `index`.
    pub fn details(&self, index: usize) -> Option<FindingDetails> {
        self.list.get(index).map(|finding| self.describe(finding))
    }

    /// The details of every finding, one at a time, in order.
    pub fn all_details(&self) -> impl Iterator<Item = FindingDetails> + '_ {
        self.list.iter().map(|finding| self.describe(finding))
    }

    /// The server key and raw tool name a finding of this lint is about, without writing it
    /// out.
    pub fn subject(&self, finding: &Finding) -> (&str, &str) {
        subject_of(&self.session, finding)
    }

    /// The number of tools linted.
    pub fn tools(&self) -> usize {
        self.session.total_available()
    }

    /// The profile the findability rules ran under.
    pub fn profile(&self) -> Profile {
        self.session.profile()
    }

    /// The work the findability rules' searches did.
    pub fn work(&self) -> LintWork {
        self.work
    }

    /// Adds the findings of a queries file: each expected tool a query fails to bring into
    /// the top `k`, with why (under the rarest-word gate: the rarest word it lacks, or the words
    /// it lacks). They follow the lint's findings, in the same order among themselves.
    pub fn add_queries(&mut self, set: &QuerySet, k: usize) {
        let mut found = query_findings(&self.session, set, k);
        sort_findings(&self.session, &mut found);
        self.list.append(&mut found);
    }

    /// The details of a finding of this lint.
    fn describe(&self, finding: &Finding) -> FindingDetails {
        let session = &self.session;
        let name_of = |doc: &u32| session.catalog_entry(*doc as usize).0.name.clone();
        match &finding.detail {
            Detail::Collision => {
                let collision = &session.collisions()[finding.subject as usize];
                return FindingDetails {
                    rule: *finding.rule,
                    server: collision.server.clone(),
                    tool: collision.tool.clone(),
                    name: String::new(),
                    problem: Problem::NameCollision(collision.clone()),
                    related: vec![collision.name.clone()],
                };
            }
            Detail::Refused => {
                let note = &session.notes()[finding.subject as usize];
                let (server, tool) = refused_subject(note);
                return FindingDetails {
                    rule: *finding.rule,
                    server: server.to_string(),
                    tool: tool.to_string(),
                    name: String::new(),
                    problem: Problem::Refused(note.clone()),
                    related: Vec::new(),
                };
            }
            _ => {}
        }
        let (entry, _) = session.catalog_entry(finding.subject as usize);
        let limit = session.settings().search_default_limit;
        let (problem, related) = match &finding.detail {
            Detail::Tool => (tool_problem(entry, finding.rule), Vec::new()),
            Detail::Collision | Detail::Refused => {
                unreachable!("collisions and refused servers are resolved above")
            }
            Detail::Outranked { result } => {
                let above: Vec<String> = self.results.get(*result).iter().map(name_of).collect();
                (outranked(finding.rule, entry, limit, above.clone()), above)
            }
            Detail::Twin { other, similarity } => {
                let (other, _) = session.catalog_entry(*other as usize);
                let problem = Problem::NearDuplicate {
                    other: other.name.clone(),
                    server: other.server.clone(),
                    similarity: *similarity,
                };
                (problem, vec![other.name.clone()])
            }
            Detail::Query(query) => (
                query.problem.clone(),
                query.related.iter().map(name_of).collect(),
            ),
        };
        FindingDetails {
            rule: *finding.rule,
            server: entry.server.clone(),
            tool: entry.raw_name.clone(),
            name: entry.name.clone(),
            problem,
            related,
        }
    }
}

/// How a long lint tells its caller how far it is, and learns that it should stop: the engine
/// calls and reads these, the caller shows them (the command line draws a progress line).
pub struct LintWatch<'a> {
    /// Called now and then, from the thread that called the lint, with the number of its
    /// findability searches done (each distinct name or first sentence of a tool, searched
    /// once) and of them all.
    pub progress: &'a mut dyn FnMut(usize, usize),
    /// Set (from any thread, e.g. on Ctrl-C) to stop the lint within a group of searches (at
    /// most 1,024 that share their rarest word: milliseconds).
    pub cancel: &'a AtomicBool,
}

/// A lint stopped by its [`LintWatch::cancel`] flag before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the lint was interrupted")]
pub struct Interrupted;

/// About this many findability searches run side by side between two progress reports (and
/// checks of the cancel flag, which each group of searches also checks before it starts).
const PROGRESS_SEARCHES: usize = 2_000;

/// Lints every tool of the session's catalog (and the tools that lost a name collision).
pub fn lint(session: &Session) -> Findings {
    let never = AtomicBool::new(false);
    let watch = LintWatch {
        progress: &mut |_, _| {},
        cancel: &never,
    };
    lint_watched(session, watch).unwrap_or_else(|Interrupted| unreachable!("never cancelled"))
}

/// [`lint`], reporting its progress and stopping early when `watch` says so.
pub fn lint_watched(session: &Session, watch: LintWatch<'_>) -> Result<Findings, Interrupted> {
    let limit = session.settings().search_default_limit as usize;
    let costly_from = costly_threshold(session);
    let searches = Searches::run(session, limit, watch)?;
    let mut list: Vec<Finding> = (0..session.total_available())
        .into_par_iter()
        .flat_map_iter(|doc| {
            let (entry, _) = session.catalog_entry(doc);
            let mut found = Vec::new();
            let costly = costly_from.is_some_and(|edge| entry.chars > edge);
            tool_rules(entry, costly, &mut |rule, _| {
                found.push(Finding::about_tool(rule, doc, Detail::Tool));
            });
            findability_findings(session, &searches, doc, &mut found);
            found
        })
        .collect();
    list.extend((0..session.collisions().len()).map(|index| Finding {
        rule: &NAME_COLLISION,
        subject: index as u32,
        detail: Detail::Collision,
    }));
    list.extend(
        session
            .notes()
            .iter()
            .enumerate()
            .filter_map(|(index, note)| {
                let rule = match note {
                    Note::NoInputSchema { .. } => &NO_INPUT_SCHEMA,
                    Note::Refused { .. } => &REFUSED_TOOL_LIST,
                    _ => return None,
                };
                Some(Finding {
                    rule,
                    subject: index as u32,
                    detail: Detail::Refused,
                })
            }),
    );
    sort_findings(session, &mut list);
    Ok(Findings {
        session: session.clone(),
        list,
        results: searches.results,
        work: searches.work,
    })
}

fn query_findings(session: &Session, set: &QuerySet, k: usize) -> Vec<Finding> {
    let k = k.clamp(1, session.settings().max_search_limit as usize);
    set.queries
        .par_iter()
        .flat_map_iter(|query| {
            let result = session.search(&query.query, k);
            let expected: Vec<usize> = query
                .expected
                .iter()
                .flat_map(|name| resolve(session, name, query.server.as_deref()))
                .collect();
            let found = expected
                .iter()
                .any(|doc| result.hits.iter().any(|h| h.doc == *doc));
            let mut out = Vec::new();
            if found {
                return out;
            }
            let above: Vec<String> = result
                .hits
                .iter()
                .map(|h| session.catalog_entry(h.doc).0.name.clone())
                .collect();
            for doc in expected {
                // Only releases with the rarest-word gate (0.21.3 on) have an admission
                // rule: before it, a tool with any of the query's words is ranked.
                let admission = if result.gate.is_some() {
                    session.admission(&query.query, doc)
                } else {
                    Admitted::Yes
                };
                let why = match admission {
                    Admitted::Yes if above.is_empty() => Unreached::NothingRanks,
                    Admitted::Yes => Unreached::Outranked(above.clone()),
                    Admitted::MissingGate { word } => Unreached::MissingGate { word },
                    Admitted::TooFewWords { held, required } => {
                        Unreached::TooFewWords { held, required }
                    }
                    Admitted::NoTokens => Unreached::NoTokens,
                };
                let problem = Problem::Unreachable {
                    id: query.id.clone(),
                    query: query.query.clone(),
                    k,
                    why,
                };
                out.push(Finding::about_tool(
                    &UNREACHABLE,
                    doc,
                    Detail::Query(Box::new(QueryFinding {
                        problem,
                        related: result.hits.iter().map(|hit| hit.doc as u32).collect(),
                    })),
                ));
            }
            out
        })
        .collect()
}

/// Most severe first, then by server, tool and rule; findings alike keep their order. The
/// order is sorted as positions and applied in place: a sort of the findings themselves
/// would copy them all.
fn sort_findings(session: &Session, findings: &mut [Finding]) {
    let key = |position: u32| {
        let finding = &findings[position as usize];
        let (server, tool) = subject_of(session, finding);
        (
            finding.rule.severity,
            server,
            tool,
            finding.rule.id,
            position,
        )
    };
    let mut order: Vec<u32> = (0..findings.len() as u32).collect();
    order.par_sort_unstable_by(|&a, &b| key(a).cmp(&key(b)));
    permute(findings, &mut order);
}

/// The server key and raw tool name a finding is about.
fn subject_of<'s>(session: &'s Session, finding: &Finding) -> (&'s str, &'s str) {
    match finding.detail {
        Detail::Collision => {
            let collision = &session.collisions()[finding.subject as usize];
            (&collision.server, &collision.tool)
        }
        Detail::Refused => refused_subject(&session.notes()[finding.subject as usize]),
        _ => {
            let (entry, _) = session.catalog_entry(finding.subject as usize);
            (&entry.server, &entry.raw_name)
        }
    }
}

/// The server and tool a refused server's note names (the tool empty when the entry has no
/// name).
fn refused_subject(note: &Note) -> (&str, &str) {
    match note {
        Note::NoInputSchema { server, tool, .. } => (server, tool),
        Note::Refused { server, .. } => (server, ""),
        _ => ("", ""),
    }
}

/// The definition size a tool must exceed to be in the costliest tenth (catalogs of 10+
/// tools): at least nine tenths of the catalog then cost less. Tools tied at the edge are left
/// out, so that a catalog of equal tools has none.
fn costly_threshold(session: &Session) -> Option<u64> {
    let mut chars: Vec<u64> = session.catalog().map(|e| e.chars).collect();
    if chars.len() < 10 {
        return None;
    }
    let edge = chars.len() / 10;
    let (_, &mut above, _) = chars.select_nth_unstable_by(edge, |a, b| b.cmp(a));
    Some(above)
}

/// Receives each rule a tool breaks (at most once per rule) with a maker of its problem,
/// called only if the receiver wants it: the lint pass makes none.
type Reporter<'a> = dyn FnMut(&'static Rule, &dyn Fn() -> Problem) + 'a;

/// A function that checks one tool against a group of rules.
type RuleGroup = fn(&ToolEntry, &mut Reporter);

/// The rules that read one tool alone, by group (the costly-tool rule aside, which needs the
/// whole catalog to know the costliest tenth).
const TOOL_RULE_GROUPS: [(RuleGroup, &[Rule]); 3] = [
    (
        text_rules,
        &[
            NO_DESCRIPTION,
            SHORT_DESCRIPTION,
            LONG_DESCRIPTION,
            CAMEL_CASE,
            NON_ASCII,
            LONG_NAME,
        ],
    ),
    (
        schema_rules,
        &[PARAM_NO_DESCRIPTION, PARAM_NO_TYPE, DEEP_SCHEMA],
    ),
    (pass_rules, &[SEARCH_WORDS_CHANGED, SCHEMA_REWRITTEN]),
];

/// Every rule that reads one tool alone; `costly` says whether the tool is in the catalog's
/// costliest tenth.
fn tool_rules(entry: &ToolEntry, costly: bool, report: &mut Reporter) {
    for (group, _) in TOOL_RULE_GROUPS {
        group(entry, report);
    }
    if costly {
        costly_rule(entry, report);
    }
}

/// The costly-tool rule, for a tool in the catalog's costliest tenth.
fn costly_rule(entry: &ToolEntry, report: &mut Reporter) {
    report(&COSTLY_TOOL, &|| Problem::Costly {
        tokens: crate::nouns::json_text::estimate_tokens(entry.chars),
    });
}

/// The problem of a one-tool rule the tool breaks: only that rule's group runs again.
fn tool_problem(entry: &ToolEntry, rule: &Rule) -> Problem {
    let group = TOOL_RULE_GROUPS
        .iter()
        .find(|(_, rules)| rules.contains(rule))
        .map_or(costly_rule as RuleGroup, |&(group, _)| group);
    let mut problem = None;
    group(entry, &mut |broken, make| {
        if broken == rule {
            problem = Some(make());
        }
    });
    problem.unwrap_or_else(|| unreachable!("{} does not break {}", entry.name, rule.id))
}

/// Description, name and word rules.
fn text_rules(entry: &ToolEntry, report: &mut Reporter) {
    if !entry.has_own_description {
        report(&NO_DESCRIPTION, &|| Problem::NoDescription {
            sent: entry.description.to_string(),
        });
    } else if entry.description.trim().chars().count() < MIN_DESCRIPTION_CHARS {
        report(&SHORT_DESCRIPTION, &|| Problem::ShortDescription {
            description: entry.description.trim().to_string(),
        });
    }
    if entry.description.len() > MAX_DESCRIPTION_BYTES {
        report(&LONG_DESCRIPTION, &|| Problem::LongDescription {
            bytes: entry.description.len(),
            // A description cut at load is longer than what is left of it.
            at_least: entry.truncated_chars > 0,
        });
    }
    if let Some(snake) = camel_to_snake(&entry.raw_name) {
        report(&CAMEL_CASE, &|| Problem::CamelCase {
            name: entry.raw_name.clone(),
            snake: snake.clone(),
        });
    }
    let odd = non_ascii_words(entry);
    if !odd.is_empty() {
        report(&NON_ASCII, &|| Problem::NonAscii {
            count: odd.len(),
            first: odd
                .iter()
                .take(3)
                .map(std::string::ToString::to_string)
                .collect(),
        });
    }
    let hermes_chars = entry.name.chars().count();
    if hermes_chars > MAX_NAME_CHARS {
        report(&LONG_NAME, &|| Problem::LongName {
            name: entry.name.clone(),
            chars: hermes_chars,
        });
    }
}

/// The words of the tool's name, description and parameter names with non-ASCII letters,
/// each once, in order.
fn non_ascii_words(entry: &ToolEntry) -> Vec<&str> {
    let mut odd: Vec<&str> = Vec::new();
    for text in [entry.raw_name.as_str(), &*entry.description]
        .into_iter()
        .chain(entry.parameter_names())
    {
        for word in
            text.split(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != '_'))
        {
            if word.chars().any(|c| c.is_alphabetic() && !c.is_ascii()) && !odd.contains(&word) {
                odd.push(word);
            }
        }
    }
    odd
}

/// What Hermes's schema passes do to the tool: changed search words, a changed definition.
fn pass_rules(entry: &ToolEntry, report: &mut Reporter) {
    let Some(change) = &entry.schema_change else {
        return;
    };
    let captured = change.captured.parse();
    let before: Vec<&str> = crate::replay::catalog::parameter_names(&captured).collect();
    let after: Vec<&str> = entry.parameter_names().collect();
    let missing_from = |names: &[&str], others: &[&str]| -> Vec<String> {
        names
            .iter()
            .filter(|p| !others.contains(p))
            .map(std::string::ToString::to_string)
            .collect()
    };
    let added = missing_from(&after, &before);
    let removed = missing_from(&before, &after);
    if !added.is_empty() || !removed.is_empty() {
        report(&SEARCH_WORDS_CHANGED, &|| Problem::SearchWordsChanged {
            added: added.clone(),
            removed: removed.clone(),
        });
    }
    report(&SCHEMA_REWRITTEN, &|| Problem::SchemaRewritten {
        name: entry.name.clone(),
        captured_chars: change.captured_chars,
        sent_chars: entry.chars,
    });
}

/// `listItems` -> `Some("list_items")`; `None` when the name has no lower-to-upper step.
pub fn camel_to_snake(name: &str) -> Option<String> {
    let chars: Vec<char> = name.chars().collect();
    let is_camel = chars
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    if !is_camel {
        return None;
    }
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase()
            && i > 0
            && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit())
        {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    Some(out)
}

/// Parameter and nesting rules.
fn schema_rules(entry: &ToolEntry, report: &mut Reporter) {
    let parameters = entry.parameters.parse();
    let properties = parameters.get("properties").and_then(Value::as_object);
    let mut no_description = Vec::new();
    let mut no_type = Vec::new();
    for (name, schema) in properties.into_iter().flatten() {
        let Some(schema) = schema.as_object() else {
            continue;
        };
        if schema
            .get("description")
            .and_then(Value::as_str)
            .is_none_or(|d| d.trim().is_empty())
        {
            no_description.push(name.as_str());
        }
        const TYPED: [&str; 7] = ["type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"];
        if !TYPED.iter().any(|k| schema.contains_key(*k)) {
            no_type.push(name.as_str());
        }
    }
    let owned = |names: &[&str]| names.iter().map(std::string::ToString::to_string).collect();
    if !no_description.is_empty() {
        report(&PARAM_NO_DESCRIPTION, &|| Problem::ParamNoDescription {
            params: owned(&no_description),
        });
    }
    if !no_type.is_empty() {
        report(&PARAM_NO_TYPE, &|| Problem::ParamNoType {
            params: owned(&no_type),
        });
    }
    let depth = properties.map_or(0, properties_depth);
    if depth > MAX_SCHEMA_DEPTH {
        report(&DEEP_SCHEMA, &|| Problem::DeepSchema { depth });
    }
}

/// Levels of object nesting under a `properties` map: a top-level parameter is level 1.
fn properties_depth(properties: &Map<String, Value>) -> usize {
    properties
        .values()
        .map(|schema| 1 + schema_depth(schema))
        .max()
        .unwrap_or(0)
}

/// Levels of properties below one schema (through `items`, combinators and additionalProperties).
fn schema_depth(schema: &Value) -> usize {
    let Some(object) = schema.as_object() else {
        return 0;
    };
    let mut depth = object
        .get("properties")
        .and_then(Value::as_object)
        .map_or(0, properties_depth);
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = object.get(key) {
            depth = depth.max(schema_depth(inner));
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(options)) = object.get(key) {
            depth = depth.max(options.iter().map(schema_depth).max().unwrap_or(0));
        }
    }
    depth
}

/// The queries the findability rules run for a tool: its name words, and its own first
/// sentence when it has a description of its own.
fn own_queries(entry: &ToolEntry) -> (Option<String>, Option<&str>) {
    let name_words: Vec<String> = raw_tokens(&entry.raw_name)
        .map(str::to_ascii_lowercase)
        .collect();
    let name_query = (!name_words.is_empty()).then(|| name_words.join(" "));
    let sentence = crate::text::first_sentence(&entry.description);
    let sentence_query =
        (entry.has_own_description && raw_tokens(sentence).next().is_some()).then_some(sentence);
    (name_query, sentence_query)
}

/// Lists of catalog positions (search results, best first), end to end.
#[derive(Debug, Clone, Default)]
struct HitLists {
    docs: Vec<u32>,
    /// Where each list ends in `docs`.
    ends: Vec<u32>,
}

impl HitLists {
    /// Adds a list; it is numbered in the order added.
    fn push(&mut self, docs: &[u32]) {
        self.docs.extend_from_slice(docs);
        self.ends.push(self.docs.len() as u32);
    }

    /// The list numbered `list`.
    fn get(&self, list: u32) -> &[u32] {
        let list = list as usize;
        let start = list.checked_sub(1).map_or(0, |before| self.ends[before]);
        &self.docs[start as usize..self.ends[list] as usize]
    }
}

/// What one findability search returned (its hits' catalog places, best first) and its work.
type Answer = (Box<[u32]>, SearchWork);

/// The findability queries of every tool, each distinct query run once (tools that share a
/// description, or copies of one server, share their searches), and what each returned.
struct Searches<'s> {
    /// Each distinct query and the number of its result.
    numbers: FxHashMap<Cow<'s, str>, u32>,
    results: HitLists,
    work: LintWork,
}

impl<'s> Searches<'s> {
    /// Runs every tool's own queries, in parallel, grouped as the search answers them best
    /// ([`Session::search_groups`]), about [`PROGRESS_SEARCHES`] searches between two reports
    /// to `watch`; stops when its cancel flag is set.
    fn run(
        session: &'s Session,
        limit: usize,
        watch: LintWatch<'_>,
    ) -> Result<Searches<'s>, Interrupted> {
        // Under the rarest-word gate a search gives its whole result: no floor is asked.
        let floored = session.profile().spec().search.admission == Admission::ScoreAboveZero;
        // Each tool's own queries, and the floor of its name's search: its own score for it,
        // or none (negative infinity) when it does not score above 0 for it.
        let own: Vec<(Option<String>, Option<&'s str>, f64)> = (0..session.total_available())
            .into_par_iter()
            .map(|doc| {
                let (name_query, sentence_query) = own_queries(session.catalog_entry(doc).0);
                let score = match &name_query {
                    Some(query) if floored => session.query_score(query, doc),
                    _ => f64::NEG_INFINITY,
                };
                let floor = if score > 0.0 && score.is_finite() {
                    score
                } else {
                    f64::NEG_INFINITY
                };
                (name_query, sentence_query, floor)
            })
            .collect();
        let mut numbers: FxHashMap<Cow<'s, str>, u32> = FxHashMap::default();
        // The queries in the order they are numbered, and the least score each needs ranked.
        let mut queries: Vec<Cow<'s, str>> = Vec::new();
        let mut floors: Vec<f64> = Vec::new();
        // Numbers `query` if it is new, and lowers its floor to `floor`.
        let mut need = |query: Cow<'s, str>, floor: f64| {
            let number = match numbers.get(&query) {
                Some(&number) => number as usize,
                None => {
                    numbers.insert(query.clone(), queries.len() as u32);
                    queries.push(query);
                    floors.push(floor);
                    return;
                }
            };
            floors[number] = floors[number].min(floor);
        };
        for (name_query, sentence_query, floor) in own {
            // A name's search decides only whether it returns its tool, and what came
            // instead: the hits scoring at least the tool's own score.
            if let Some(query) = name_query {
                need(Cow::Owned(query), floor);
            }
            // A first sentence's hits are all read, for near-duplicates.
            if let Some(sentence) = sentence_query {
                need(Cow::Borrowed(sentence), f64::NEG_INFINITY);
            }
        }
        let texts: Vec<&str> = queries.iter().map(AsRef::as_ref).collect();
        let groups = session.search_groups(&texts);
        let LintWatch { progress, cancel } = watch;
        let mut hits: Vec<Option<Answer>> = vec![None; texts.len()];
        let mut done = 0;
        progress(0, texts.len());
        let mut rest = groups.as_slice();
        while !rest.is_empty() {
            let mut searches = 0;
            let run_length = rest
                .iter()
                .take_while(|group| {
                    let more = searches < PROGRESS_SEARCHES;
                    searches += group.len();
                    more
                })
                .count();
            let (run, after) = rest.split_at(run_length);
            rest = after;
            let answered: Vec<Vec<(usize, Answer)>> = run
                .par_iter()
                .map(|group| {
                    if cancel.load(Ordering::Relaxed) {
                        return Vec::new();
                    }
                    let asked: Vec<Asked> = group
                        .iter()
                        .map(|&number| Asked {
                            query: texts[number],
                            floor: floors[number],
                        })
                        .collect();
                    let answers = session.search_together_measured(&asked, limit);
                    group
                        .iter()
                        .zip(answers)
                        .map(|(&number, (result, work))| {
                            let docs = result.hits.iter().map(|hit| hit.doc as u32).collect();
                            (number, (docs, work))
                        })
                        .collect()
                })
                .collect();
            if cancel.load(Ordering::Relaxed) {
                return Err(Interrupted);
            }
            for (number, answer) in answered.into_iter().flatten() {
                hits[number] = Some(answer);
                done += 1;
            }
            progress(done, texts.len());
        }
        let hits: Vec<Answer> = hits
            .into_iter()
            .map(|answer| answer.expect("every query is searched"))
            .collect();
        let mut results = HitLists::default();
        for (list, _) in &hits {
            results.push(list);
        }
        let work = LintWork {
            searches: hits.len(),
            search: hits.iter().map(|(_, work)| *work).sum(),
        };
        Ok(Searches {
            numbers,
            results,
            work,
        })
    }

    /// The number of a query [`Searches::run`] ran, and what it returned.
    fn of(&self, query: &str) -> (u32, &[u32]) {
        let number = self.numbers[query];
        (number, self.results.get(number))
    }
}

/// Shadowing, first-sentence and near-duplicate rules: the tool's own text run as queries.
fn findability_findings(
    session: &Session,
    searches: &Searches,
    doc: usize,
    found: &mut Vec<Finding>,
) {
    let (entry, _) = session.catalog_entry(doc);
    let (name_query, sentence_query) = own_queries(entry);
    let returns_it = |hits: &[u32]| hits.contains(&(doc as u32));
    if let Some(query) = name_query {
        let (result, hits) = searches.of(&query);
        if !returns_it(hits) {
            found.push(Finding::about_tool(
                &SHADOWED,
                doc,
                Detail::Outranked { result },
            ));
        }
    }
    let Some(sentence) = sentence_query else {
        return;
    };
    let (result, hits) = searches.of(sentence);
    if !returns_it(hits) {
        found.push(Finding::about_tool(
            &WEAK_FIRST_SENTENCE,
            doc,
            Detail::Outranked { result },
        ));
    }
    for &hit in hits {
        let (other, _) = session.catalog_entry(hit as usize);
        if hit as usize == doc || other.server == entry.server {
            continue;
        }
        // The pair is reported once, from the later name; the second score only when the
        // first reaches the bar.
        if (entry.name.as_str(), doc) <= (other.name.as_str(), hit as usize) {
            continue;
        }
        let there = session.relative_score(doc, hit as usize);
        // `<`, not "not at least": a NaN score goes on to the other one, as `min` takes it.
        if there < NEAR_DUPLICATE_SIMILARITY {
            continue;
        }
        let similarity = there.min(session.relative_score(hit as usize, doc));
        if similarity >= NEAR_DUPLICATE_SIMILARITY {
            found.push(Finding::about_tool(
                &NEAR_DUPLICATE,
                doc,
                Detail::Twin {
                    other: hit,
                    similarity,
                },
            ));
        }
    }
}

/// The problem of a findability rule whose search returned `above` instead of the tool.
fn outranked(rule: &Rule, entry: &ToolEntry, limit: u32, above: Vec<String>) -> Problem {
    if *rule == SHADOWED {
        Problem::Shadowed {
            query: own_queries(entry).0.unwrap_or_default(),
            limit,
            above,
        }
    } else {
        Problem::WeakFirstSentence { limit }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::inputs::capture_file::parse_capture;
    use crate::nouns::config::Config;
    use crate::nouns::tools::SkipReason;
    use crate::replay::session::Overrides;

    /// A session of captures given as (server, tools JSON), with a config's settings; a tool
    /// given without an inputSchema gets an empty object one (the tests of refused servers
    /// use [`session_as_listed`]).
    fn session_with(config: &Config, servers: &[(&str, &str)]) -> Session {
        let complete: Vec<(&str, String)> = servers
            .iter()
            .map(|(server, tools)| {
                let mut tools: Value = serde_json::from_str(tools).unwrap();
                for tool in tools.as_array_mut().unwrap() {
                    let tool = tool.as_object_mut().unwrap();
                    if !tool.contains_key("inputSchema") {
                        tool.insert("inputSchema".into(), serde_json::json!({"type": "object"}));
                    }
                }
                (*server, tools.to_string())
            })
            .collect();
        let listed: Vec<(&str, &str)> = complete.iter().map(|(s, t)| (*s, t.as_str())).collect();
        session_as_listed(config, &listed)
    }

    /// A session of captures given as (server, tools JSON), exactly as listed.
    fn session_as_listed(config: &Config, servers: &[(&str, &str)]) -> Session {
        let captures: Vec<_> = servers
            .iter()
            .map(|(server, tools)| {
                parse_capture(
                    format!("{{\"server\":\"{server}\",\"tools\":{tools}}}").as_bytes(),
                    server,
                )
                .unwrap()
            })
            .collect();
        let overrides = match config.profile {
            Some(_) => Overrides::default(),
            None => Overrides::seed_for_tests(),
        };
        Session::new(config, &captures, &overrides)
    }

    /// The details of the session's lint findings.
    fn written(session: &Session) -> Vec<FindingDetails> {
        lint(session).all_details().collect()
    }

    fn session(servers: &[(&str, &str)]) -> Session {
        session_with(&Config::default(), servers)
    }

    fn rules_of(findings: &[FindingDetails], tool: &str) -> Vec<&'static str> {
        findings
            .iter()
            .filter(|f| f.tool == tool)
            .map(|f| f.rule.id)
            .collect()
    }

    const FILLER: &str = r#"{"name":"archive_report","description":"Archive a finished quarterly sales report into cold storage.","inputSchema":{"type":"object","properties":{"report_id":{"type":"string","description":"Report id."}}}}"#;

    fn one(tool: &str) -> Vec<FindingDetails> {
        written(&session(&[("srv", &format!("[{tool},{FILLER}]"))]))
    }

    #[test]
    fn a_lint_makes_the_searches_that_share_a_rarest_word_together() {
        // 2,000 distinct tools whose first sentences each hold one of 20 verbs (100 tools
        // each, the sentence's rarest word) and two of 10 nouns (200 each): each verb's
        // sentences are ranked over one gathering of its 100 tools (under the newest
        // release's rarest-word gate, the only ones admitted), and the lint reads less than
        // its searches made one by one, with the same results.
        const VERBS: [&str; 20] = [
            "archive", "bundle", "commit", "deploy", "export", "fetch", "grant", "hide", "import",
            "join", "keep", "lock", "merge", "notify", "open", "publish", "queue", "rename",
            "sync", "tag",
        ];
        const THINGS: [&str; 10] = [
            "files", "users", "pages", "tickets", "builds", "alerts", "notes", "images", "logs",
            "tasks",
        ];
        const PLACES: [&str; 10] = [
            "cloud", "disk", "queue", "vault", "cache", "inbox", "board", "wiki", "drive", "store",
        ];
        let tools: Vec<String> = (0..2_000)
            .map(|i| {
                let (verb, thing, place) = (VERBS[i % 20], THINGS[(i / 20) % 10], PLACES[i / 200]);
                format!(
                    r#"{{"name":"tool_{i}","description":"{verb} the {thing} in the {place}.","inputSchema":{{"type":"object"}}}}"#
                )
            })
            .collect();
        let capture = format!(r#"{{"server":"srv","tools":[{}]}}"#, tools.join(","));
        let captures = [parse_capture(capture.as_bytes(), "srv").unwrap()];
        // Seed has no gate: the tools without the rarest word are ranked beside those with it.
        for profile in [Profile::newest(), Profile::seed()] {
            let overrides = Overrides {
                profile: Some(profile),
                ..Overrides::default()
            };
            let session = Session::new(&Config::default(), &captures, &overrides);
            let limit = session.settings().search_default_limit as usize;
            let findings = lint(&session);
            let searches = Searches::run(
                &session,
                limit,
                LintWatch {
                    progress: &mut |_, _| {},
                    cancel: &AtomicBool::new(false),
                },
            )
            .unwrap();
            // A name's search needs the hits down to the least score its tools get for it; a
            // first sentence's, all of them.
            let mut floors: FxHashMap<String, f64> = FxHashMap::default();
            for doc in 0..session.total_available() {
                let (name_query, sentence_query) = own_queries(session.catalog_entry(doc).0);
                if let Some(query) = name_query {
                    let own = session.query_score(&query, doc);
                    let floor = floors.entry(query).or_insert(f64::INFINITY);
                    *floor = floor.min(own);
                }
                if let Some(sentence) = sentence_query {
                    floors.insert(sentence.to_string(), f64::NEG_INFINITY);
                }
            }
            // A gated search gives its whole result.
            let gated = profile.spec().search.admission != Admission::ScoreAboveZero;
            let mut alone = SearchWork::default();
            let mut floored = 0;
            for (query, &number) in &searches.numbers {
                let (result, work) = session.search_measured(query, limit);
                let floor = floors[query.as_ref()];
                let needed: Vec<u32> = result
                    .hits
                    .iter()
                    .filter(|hit| gated || hit.score >= floor)
                    .map(|hit| hit.doc as u32)
                    .collect();
                floored += usize::from(needed.len() < result.hits.len());
                assert_eq!(searches.results.get(number), needed.as_slice(), "{query:?}");
                alone = alone + work;
            }
            // Most names come first for their own search: the hits below them are not needed.
            if !gated {
                assert!(floored > 1_000, "{floored} searches floored");
            }
            let together = findings.work().search;
            let read = |work: SearchWork| work.postings + work.lookups;
            assert!(
                read(together) < read(alone),
                "{profile:?}: together {together:?}, alone {alone:?}"
            );
        }
    }

    #[test]
    fn a_name_shadowed_in_its_whole_search_is_shadowed_by_the_same_tools() {
        // 20 servers of 30 tools, named by a verb and a noun (and after the first server, the
        // server's number), each described by words of the names and others, so that for a
        // name many tools tie, outrank it or come after it: which are shadowed, and by what,
        // is what each name's whole search says.
        const VERBS: [&str; 5] = ["list", "get", "create", "delete", "update"];
        const NOUNS: [&str; 6] = ["files", "issues", "pages", "users", "builds", "notes"];
        const OTHERS: [&str; 8] = [
            "the",
            "a",
            "in",
            "repository",
            "quickly",
            "with",
            "filter",
            "project",
        ];
        let mut rng = crate::test_rng::Lcg(11);
        let mut words: Vec<&str> = VERBS.iter().chain(&NOUNS).chain(&OTHERS).copied().collect();
        words.sort_unstable();
        let servers: Vec<(String, String)> = (0..20)
            .map(|server| {
                let tools: Vec<String> = (0..30)
                    .map(|i| {
                        let description = rng.phrase(&words, 2, 10);
                        let number = if server == 0 {
                            String::new()
                        } else {
                            format!("_{server}")
                        };
                        format!(
                            r#"{{"name":"{}_{}{number}","description":"{description}."}}"#,
                            VERBS[i % 5],
                            NOUNS[i / 5]
                        )
                    })
                    .collect();
                (format!("srv{server}"), format!("[{}]", tools.join(",")))
            })
            .collect();
        let listed: Vec<(&str, &str)> = servers
            .iter()
            .map(|(server, tools)| (server.as_str(), tools.as_str()))
            .collect();
        for profile in ["seed", "hermes-0.20.6"] {
            let config = Config {
                profile: Profile::from_id(profile),
                ..Config::default()
            };
            let session = session_with(&config, &listed);
            let limit = session.settings().search_default_limit as usize;
            let mut expected: Vec<(String, String, Vec<String>)> = Vec::new();
            for doc in 0..session.total_available() {
                let (entry, _) = session.catalog_entry(doc);
                let query = own_queries(entry).0.unwrap();
                let hits = session.search(&query, limit).hits;
                if !hits.iter().any(|hit| hit.doc == doc) {
                    let above = hits
                        .iter()
                        .map(|hit| session.catalog_entry(hit.doc).0.name.clone())
                        .collect();
                    expected.push((entry.server.clone(), entry.raw_name.clone(), above));
                }
            }
            let mut shadowed: Vec<(String, String, Vec<String>)> = written(&session)
                .into_iter()
                .filter(|finding| finding.rule == SHADOWED)
                .map(|finding| (finding.server, finding.tool, finding.related))
                .collect();
            expected.sort();
            shadowed.sort();
            assert!(
                expected.len() > 100,
                "{profile}: {} shadowed",
                expected.len()
            );
            assert_eq!(shadowed, expected, "{profile}");
        }
    }

    #[test]
    fn a_watched_lint_reports_its_progress_and_stops_when_cancelled() {
        let tools: Vec<String> = (0..2_500)
            .map(|i| {
                format!(r#"{{"name":"tool_{i}","description":"Does thing {i} for the user."}}"#)
            })
            .collect();
        let session = session(&[("srv", &format!("[{}]", tools.join(",")))]);
        let mut seen = Vec::new();
        let go_on = AtomicBool::new(false);
        let watch = LintWatch {
            progress: &mut |done, total| seen.push((done, total)),
            cancel: &go_on,
        };
        let watched = lint_watched(&session, watch).unwrap();
        // Each tool's name and first sentence: 5,000 searches, about 2,000 between reports.
        assert_eq!(
            seen,
            [(0, 5_000), (2_000, 5_000), (4_000, 5_000), (5_000, 5_000)]
        );
        let plain = lint(&session);
        assert!(watched.all_details().eq(plain.all_details()));
        assert_eq!(watched.work().searches, plain.work().searches);
        // Cancelled from the first report on: no search runs.
        let stop = AtomicBool::new(false);
        let watch = LintWatch {
            progress: &mut |_, _| stop.store(true, Ordering::Relaxed),
            cancel: &stop,
        };
        assert_eq!(lint_watched(&session, watch).err(), Some(Interrupted));
    }

    #[test]
    fn a_clean_tool_has_no_findings() {
        let findings = written(&session(&[("srv", &format!("[{FILLER}]"))]));
        assert!(findings.is_empty(), "{findings:?}");
    }

    #[test]
    fn no_description_and_short_description() {
        let f = one(r#"{"name":"purge_cache","inputSchema":{"type":"object"}}"#);
        assert!(rules_of(&f, "purge_cache").contains(&"no-description"));
        let f = one(r#"{"name":"purge_cache","description":"Purges."}"#);
        assert!(rules_of(&f, "purge_cache").contains(&"short-description"));
        assert!(!rules_of(&f, "purge_cache").contains(&"no-description"));
        let f =
            one(r#"{"name":"purge_cache","description":"Purge the CDN cache of a website zone."}"#);
        assert!(!rules_of(&f, "purge_cache")
            .iter()
            .any(|r| r.ends_with("description")));
    }

    #[test]
    fn long_description() {
        let long = format!(
            r#"{{"name":"purge_cache","description":"Purge the cache. {}"}}"#,
            "More detail here. ".repeat(120)
        );
        assert!(rules_of(&one(&long), "purge_cache").contains(&"long-description"));
        assert!(!rules_of(&one(FILLER), "archive_report").contains(&"long-description"));
        let problem = |tool: &str| {
            let findings = written(&session(&[("srv", &format!("[{tool}]"))]));
            let finding = findings
                .into_iter()
                .find(|f| f.rule.id == "long-description");
            finding.unwrap().problem
        };
        assert!(
            matches!(problem(&long), Problem::LongDescription { bytes, at_least: false } if bytes > 2048),
            "{:?}",
            problem(&long)
        );
        // A description cut at load says it was longer than what is left.
        let huge = format!(
            r#"{{"name":"purge_cache","description":"{}"}}"#,
            "word ".repeat(400_000)
        );
        assert_eq!(
            problem(&huge),
            Problem::LongDescription {
                bytes: 1_048_576,
                at_least: true
            }
        );
    }

    #[test]
    fn costly_tool_in_the_top_tenth() {
        let mut tools: Vec<String> = (0..9)
            .map(|i| {
                format!(
                    r#"{{"name":"tool_{i}","description":"Does thing number {i} for the user."}}"#
                )
            })
            .collect();
        tools.push(format!(
            r#"{{"name":"heavy","description":"Heavy tool for the user. {}"}}"#,
            "Words. ".repeat(100)
        ));
        let findings = written(&session(&[("srv", &format!("[{}]", tools.join(",")))]));
        assert!(rules_of(&findings, "heavy").contains(&"costly-tool"));
        assert!(!rules_of(&findings, "tool_3").contains(&"costly-tool"));
    }

    #[test]
    fn tools_tied_at_the_edge_of_the_costliest_tenth_are_not_costly() {
        // Seventeen tools of one size, two heavier ones of equal size, and the heaviest: the
        // tenth of twenty is two tools, and the tied pair would make three, so only the
        // heaviest is in it.
        let tool = |name: &str, words: usize| {
            format!(
                r#"{{"name":"{name}","description":"Does a thing for the user.{}"}}"#,
                " Words.".repeat(words)
            )
        };
        let mut tools: Vec<String> = (0..17).map(|i| tool(&format!("same_{i:02}"), 0)).collect();
        tools.push(tool("heavier_a", 20));
        tools.push(tool("heavier_b", 20));
        tools.push(tool("heaviest", 40));
        let findings = written(&session(&[("srv", &format!("[{}]", tools.join(",")))]));
        let costly: Vec<&str> = findings
            .iter()
            .filter(|f| f.rule.id == "costly-tool")
            .map(|f| f.tool.as_str())
            .collect();
        assert_eq!(costly, ["heaviest"]);
        let equal: Vec<String> = (0..20).map(|i| tool(&format!("same_{i:02}"), 0)).collect();
        let findings = written(&session(&[("srv", &format!("[{}]", equal.join(",")))]));
        assert!(findings.iter().all(|f| f.rule.id != "costly-tool"));
    }

    #[test]
    fn camel_case_names() {
        let f = one(r#"{"name":"listItems","description":"List the items in a shopping basket."}"#);
        let finding = f.iter().find(|f| f.rule == CAMEL_CASE).unwrap();
        assert_eq!(
            finding.problem,
            Problem::CamelCase {
                name: "listItems".into(),
                snake: "list_items".into()
            }
        );
        assert_eq!(
            camel_to_snake("getHTTPStatus2Go"),
            Some("get_httpstatus2_go".into())
        );
        assert_eq!(camel_to_snake("list_items"), None);
        assert_eq!(camel_to_snake("HTTP"), None);
    }

    #[test]
    fn non_ascii_words() {
        let f = one(r#"{"name":"trouver_café","description":"Trouve un café près de Zürich."}"#);
        let finding = f.iter().find(|f| f.rule == NON_ASCII).unwrap();
        assert_eq!(
            finding.problem,
            Problem::NonAscii {
                count: 4,
                first: vec!["trouver_café".into(), "café".into(), "près".into()]
            }
        );
        assert!(!rules_of(&one(FILLER), "archive_report").contains(&"non-ascii-words"));
    }

    #[test]
    fn parameters_without_description_or_type() {
        let f = one(
            r#"{"name":"purge_cache","description":"Purge the CDN cache of a website zone.","inputSchema":{"type":"object","properties":{"zone":{"type":"string"},"hard":{"description":"Hard purge."},"mode":{"enum":["a","b"],"description":"Mode."}}}}"#,
        );
        let no_description = f.iter().find(|f| f.rule == PARAM_NO_DESCRIPTION).unwrap();
        assert_eq!(
            no_description.problem,
            Problem::ParamNoDescription {
                params: vec!["zone".into()]
            }
        );
        let no_type = f.iter().find(|f| f.rule == PARAM_NO_TYPE).unwrap();
        assert_eq!(
            no_type.problem,
            Problem::ParamNoType {
                params: vec!["hard".into()]
            }
        );
    }

    #[test]
    fn deep_schemas() {
        let deep = r#"{"name":"purge_cache","description":"Purge the CDN cache of a website zone.","inputSchema":{"type":"object","properties":{"a":{"type":"object","description":"A.","properties":{"b":{"type":"array","items":{"type":"object","properties":{"c":{"type":"object","properties":{"d":{"type":"string"}}}}}}}}}}}"#;
        assert!(rules_of(&one(deep), "purge_cache").contains(&"deep-schema"));
        let three = r#"{"name":"purge_cache","description":"Purge the CDN cache of a website zone.","inputSchema":{"type":"object","properties":{"a":{"type":"object","description":"A.","properties":{"b":{"type":"object","properties":{"c":{"type":"string"}}}}}}}}"#;
        assert!(!rules_of(&one(three), "purge_cache").contains(&"deep-schema"));
    }

    #[test]
    fn long_hermes_names() {
        let name = "x".repeat(60);
        let f = one(&format!(
            r#"{{"name":"{name}","description":"A tool with a very long name indeed."}}"#
        ));
        assert!(rules_of(&f, &name).contains(&"long-name"));
        assert!(!rules_of(&one(FILLER), "archive_report").contains(&"long-name"));
    }

    #[test]
    fn name_collisions() {
        let s = session(&[
            (
                "my-api",
                r#"[{"name":"query.data","description":"Run a query against the data API."}]"#,
            ),
            (
                "my_api",
                r#"[{"name":"query_data","description":"Run a query against the other data API."}]"#,
            ),
        ]);
        let findings = written(&s);
        let collision = findings.iter().find(|f| f.rule == NAME_COLLISION).unwrap();
        assert_eq!(
            (collision.server.as_str(), collision.tool.as_str()),
            ("my-api", "query.data"),
            "the last registration overwrites the first"
        );
        assert!(matches!(
            &collision.problem,
            Problem::NameCollision(Collision { kept_server: Some(kept), .. }) if kept == "my_api"
        ));
        assert!(!findings
            .iter()
            .any(|f| f.rule == NAME_COLLISION && f.server == "my_api"));
    }

    #[test]
    fn refused_servers_are_findings_and_not_linted() {
        let findings = written(&session_as_listed(
            &Config::default(),
            &[
                (
                    "bare",
                    r#"[{"name":"purge_cache","description":"Purge the CDN cache."}]"#,
                ),
                ("odd", r#"[{"name":"a","description":7,"inputSchema":{}}]"#),
                ("ok", &format!("[{FILLER}]")),
            ],
        ));
        let by_rule = |id: &str| {
            findings
                .iter()
                .filter(|f| f.rule.id == id)
                .collect::<Vec<_>>()
        };
        let missing = by_rule("no-input-schema");
        assert_eq!(missing.len(), 1);
        assert_eq!(
            (missing[0].server.as_str(), missing[0].tool.as_str()),
            ("bare", "purge_cache")
        );
        assert!(
            matches!(&missing[0].problem, Problem::Refused(Note::NoInputSchema { server, .. }) if server == "bare"),
            "{:?}",
            missing[0].problem
        );
        let refused = by_rule("refused-tool-list");
        assert_eq!(refused.len(), 1);
        assert!(
            matches!(
                &refused[0].problem,
                Problem::Refused(Note::Refused {
                    reason: SkipReason::DescriptionNotString(_),
                    ..
                })
            ),
            "{:?}",
            refused[0].problem
        );
        // Their tools never reach the catalog, so no other rule speaks of them.
        assert!(findings
            .iter()
            .all(|f| f.server != "bare" || f.rule.id == "no-input-schema"));
    }

    #[test]
    fn every_one_tool_rule_is_in_one_group() {
        let others = [
            NO_INPUT_SCHEMA,
            REFUSED_TOOL_LIST,
            COSTLY_TOOL,
            NAME_COLLISION,
            NEAR_DUPLICATE,
            SHADOWED,
            WEAK_FIRST_SENTENCE,
            UNREACHABLE,
        ];
        for rule in RULES.iter().filter(|r| !others.contains(r)) {
            let groups = TOOL_RULE_GROUPS
                .iter()
                .filter(|(_, rules)| rules.contains(rule))
                .count();
            assert_eq!(groups, 1, "{}", rule.id);
        }
    }

    #[test]
    fn several_near_duplicates_of_one_tool_keep_their_rank_order() {
        // Three identical tools tie on every query, so they rank in catalog order; an
        // unrelated tool keeps their words from being in every document.
        let fetch = r#"[{"name":"fetch_url","description":"Fetch a web page by URL and return its content as markdown.","inputSchema":{"type":"object","properties":{"url":{"type":"string","description":"URL."}}}}]"#;
        let mail = r#"[{"name":"send_mail","description":"Send an email message to a recipient address.","inputSchema":{"type":"object","properties":{"to":{"type":"string","description":"To."}}}}]"#;
        let findings = written(&session(&[
            ("web1", fetch),
            ("web2", fetch),
            ("web3", fetch),
            ("mail", mail),
        ]));
        let of_web3: Vec<&[String]> = findings
            .iter()
            .filter(|f| f.rule == NEAR_DUPLICATE && f.server == "web3")
            .map(|f| f.related.as_slice())
            .collect();
        assert_eq!(
            of_web3,
            [["mcp_web1_fetch_url"], ["mcp_web2_fetch_url"]],
            "{findings:?}"
        );
    }

    #[test]
    fn a_queries_files_findings_follow_the_lint_and_are_written_out() {
        let tools = r#"[
            {"name":"purge_cache","description":"Purge the CDN cache of a website zone."},
            {"name":"list_zones","description":"List the DNS zones of the account."}
        ]"#;
        let s = session(&[("cdn", tools)]);
        let set = QuerySet::parse(
            b"queries:\n  - {id: q1, query: list the dns zones, expected: [purge_cache]}\n  - {id: q2, query: purge cache, expected: [purge_cache]}\n",
        )
        .unwrap();
        let plain = lint(&s);
        let mut findings = lint(&s);
        findings.add_queries(&set, 1);
        assert_eq!(findings.len(), plain.len() + 1, "q2 finds its tool");
        let unreachable = findings.details(findings.len() - 1).unwrap();
        assert_eq!(unreachable.rule, UNREACHABLE);
        assert_eq!(unreachable.tool, "purge_cache");
        assert_eq!(
            unreachable.problem,
            Problem::Unreachable {
                id: "q1".into(),
                query: "list the dns zones".into(),
                k: 1,
                why: Unreached::Outranked(vec!["mcp_cdn_list_zones".into()])
            }
        );
        assert_eq!(unreachable.related, ["mcp_cdn_list_zones"]);
        // The rarest-word gate says why it leaves the tool out.
        let config = Config::parse(b"schematax:\n  profile: hermes-2026-09\n").unwrap();
        let mut findings = lint(&session_with(&config, &[("cdn", tools)]));
        findings.add_queries(&set, 1);
        let unreachable = findings.details(findings.len() - 1).unwrap();
        assert!(
            matches!(
                &unreachable.problem,
                Problem::Unreachable {
                    why: Unreached::MissingGate { .. },
                    ..
                }
            ),
            "{:?}",
            unreachable.problem
        );
    }

    #[test]
    fn near_duplicates_across_servers() {
        let fetch = r#"[{"name":"fetch_url","description":"Fetch a web page by URL and return its content as markdown.","inputSchema":{"type":"object","properties":{"url":{"type":"string","description":"URL."}}}}]"#;
        let other = r#"[{"name":"fetch_url","description":"Fetch a web page by URL and return its content as markdown text.","inputSchema":{"type":"object","properties":{"url":{"type":"string","description":"URL."}}}}]"#;
        let unrelated = r#"[{"name":"send_mail","description":"Send an email message to a recipient address.","inputSchema":{"type":"object","properties":{"to":{"type":"string","description":"To."}}}}]"#;
        let findings = written(&session(&[
            ("web", fetch),
            ("web2", other),
            ("mail", unrelated),
        ]));
        let dups: Vec<&FindingDetails> = findings
            .iter()
            .filter(|f| f.rule == NEAR_DUPLICATE)
            .collect();
        assert_eq!(dups.len(), 1, "reported once per pair: {dups:?}");
        // Reported on the tool whose Hermes name sorts last (`mcp_web_` after `mcp_web2`),
        // pointing at the other.
        assert_eq!(dups[0].server, "web");
        assert_eq!(dups[0].related, ["mcp_web2_fetch_url"]);
        assert!(!findings
            .iter()
            .any(|f| f.rule == NEAR_DUPLICATE && f.tool == "send_mail"));
    }

    #[test]
    fn shadowed_and_weak_first_sentence() {
        // "get_status" is named for words that its description never uses, and three other
        // tools use them heavily.
        let tools = r#"[
            {"name":"get_status","description":"Report pipeline health."},
            {"name":"status_get_a","description":"Get status. Get the status of a build: status, status."},
            {"name":"status_get_b","description":"Get status. Get the status of a job: status, status."},
            {"name":"status_get_c","description":"Get status. Get the status of a deploy: status, status."},
            {"name":"delete_build","description":"Delete a finished build and its artifacts."}
        ]"#;
        let config = Config::parse(b"tools:\n  tool_search:\n    search_default_limit: 2").unwrap();
        let findings = written(&session_with(&config, &[("ci", tools)]));
        let shadowed = findings
            .iter()
            .find(|f| f.rule == SHADOWED && f.tool == "get_status")
            .unwrap();
        assert_eq!(shadowed.related.len(), 2);
        assert!(
            matches!(&shadowed.problem, Problem::Shadowed { query, .. } if query == "get status"),
            "{:?}",
            shadowed.problem
        );
        assert!(!findings
            .iter()
            .any(|f| f.rule == SHADOWED && f.tool == "delete_build"));
        assert!(findings
            .iter()
            .any(|f| f.rule == WEAK_FIRST_SENTENCE && f.tool == "status_get_c"));
        assert!(!findings
            .iter()
            .any(|f| f.rule == WEAK_FIRST_SENTENCE && f.tool == "delete_build"));
    }

    #[test]
    fn tools_sharing_a_description_share_searches_and_cost_the_same_per_tool_at_any_count() {
        // Tools of one description, named apart by a number, as generated servers are: one
        // search per distinct query (each name, the one sentence), and each tool costs the
        // searches as much at 1,000 tools as at 250, under every profile.
        let lint_of = |profile: Profile, count: usize| {
            let tools: Vec<String> = (0..count)
                .map(|i| {
                    format!(
                        r#"{{"name":"same_{i}","description":"Fetch a web page and return its content as markdown."}}"#
                    )
                })
                .collect();
            let config =
                Config::parse(format!("schematax:\n  profile: {}\n", profile.id()).as_bytes())
                    .unwrap();
            lint(&session_with(
                &config,
                &[("srv", &format!("[{}]", tools.join(",")))],
            ))
        };
        for profile in Profile::all() {
            let per_tool = |findings: &Findings| {
                let work = findings.work();
                assert_eq!(work.searches, findings.tools() + 1, "{}", profile.id());
                (work.search.postings + work.search.lookups) as f64 / findings.tools() as f64
            };
            let (few, many) = (lint_of(profile, 250), lint_of(profile, 1_000));
            assert!(
                many.iter().any(|f| f.rule == &WEAK_FIRST_SENTENCE),
                "{}: one sentence cannot find them all",
                profile.id()
            );
            assert!(
                per_tool(&many) < 1.5 * per_tool(&few),
                "{}: {:?} for 1,000 tools, {:?} for 250",
                profile.id(),
                many.work(),
                few.work()
            );
        }
    }

    #[test]
    fn a_finding_stays_small() {
        // Hundreds of thousands are held at once at 100,000 tools.
        assert_eq!(std::mem::size_of::<Finding>(), 32);
    }

    #[test]
    fn hit_lists_keep_each_list_apart() {
        let mut lists = HitLists::default();
        lists.push(&[4, 2]);
        lists.push(&[]);
        lists.push(&[7]);
        assert_eq!(lists.get(0), [4, 2]);
        assert!(lists.get(1).is_empty());
        assert_eq!(lists.get(2), [7]);
    }

    #[test]
    fn findings_are_sorted_by_severity_then_server_tool_and_rule() {
        // Catalog order is the reverse of the expected order: info and warnings on server
        // `a` come first, the error on server `z` last.
        let costly = format!(
            r#"{{"name":"a_costly","description":"{}","inputSchema":{{"type":"object"}}}}"#,
            "Lists every item in the shopping basket with prices. ".repeat(20)
        );
        let fillers: Vec<String> = (0..10)
            .map(|i| FILLER.replace("archive_report", &format!("archive_report_{i}")))
            .collect();
        let tools_a = format!(
            r#"[{costly},{{"name":"listItems","description":"List the items in a shopping basket.","inputSchema":{{"type":"object"}}}},{}]"#,
            fillers.join(",")
        );
        let tools_z = r#"[{"name":"purge_cache","inputSchema":{"type":"object"}}]"#;
        let findings = written(&session(&[("a", &tools_a), ("z", tools_z)]));
        let order: Vec<(Severity, &str, &str)> = findings
            .iter()
            .map(|f| (f.rule.severity, f.server.as_str(), f.rule.id))
            .collect();
        assert_eq!(
            order.first(),
            Some(&(Severity::Error, "z", "no-description"))
        );
        assert_eq!(order.last().map(|o| o.0), Some(Severity::Info));
        assert!(order.iter().any(|o| o.0 == Severity::Warning), "{order:?}");
        let mut sorted = findings.clone();
        sorted.sort_by(|x, y| {
            (x.rule.severity, &x.server, &x.tool, x.rule.id).cmp(&(
                y.rule.severity,
                &y.server,
                &y.tool,
                y.rule.id,
            ))
        });
        assert_eq!(findings, sorted);
    }
}
