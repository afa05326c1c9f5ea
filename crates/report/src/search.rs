//! `schematax search Q1 [Q2 ...]`: one `tool_search` call. The ranked hits of each query with
//! their scores and matched words (and, from 0.21.3, the rarest-word gate), and the
//! payload the model receives.

use serde::Serialize;
use serde_json::Value;

use crate::table::{Align, Table};
use crate::Format;
use schematax_engine::replay::search::{raw_tokens, Gate, SearchResult};
use schematax_engine::replay::session::Session;
use schematax_engine::text::{first_sentence, sanitize};

/// One ranked hit.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HitRow {
    /// 1-based rank.
    pub rank: usize,
    /// Hermes name.
    pub name: String,
    /// Raw MCP name.
    pub raw_name: String,
    /// Server key.
    pub server: String,
    /// BM25 score, 0.1 for a substring-fallback hit; null for an exact-name hit.
    pub score: Option<f64>,
    /// Whether the tool's name is the whole query (from 0.20.6; ranked first).
    pub exact_name: bool,
    /// Distinct query words the tool's search text holds.
    pub matched_terms: Vec<String>,
}

/// The rarest-word gate's admission rule for a query.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GateRow {
    /// The rarest query word: every hit holds it.
    pub word: String,
    /// Its search token (stemmed).
    pub token: String,
    /// Tools holding it.
    pub document_frequency: usize,
    /// Distinct query words some tool holds.
    pub answerable: usize,
    /// How many of them a hit must hold.
    pub required: usize,
}

impl From<&Gate> for GateRow {
    fn from(gate: &Gate) -> GateRow {
        GateRow {
            word: gate.word.clone(),
            token: gate.token.clone(),
            document_frequency: gate.document_frequency,
            answerable: gate.answerable,
            required: gate.required,
        }
    }
}

/// One query of the call.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QueryResult {
    /// The query.
    pub query: String,
    /// `bm25`, `exact`, `substring` or `none`.
    pub via: &'static str,
    /// The rarest-word gate (from 0.21.3).
    pub gate: Option<GateRow>,
    /// Hits, best first.
    pub hits: Vec<HitRow>,
}

/// The whole `search` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SearchReport {
    /// The engine profile.
    pub profile: String,
    /// The Hermes releases the profile replays (`0.18.1, 0.18.2, 0.19.0`).
    pub hermes: String,
    /// The query, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The limit after the limit rule.
    pub limit: usize,
    /// How the only query found its hits, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
    /// Catalog size.
    pub total_available: usize,
    /// The only query's hits, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hits: Option<Vec<HitRow>>,
    /// Every query, in order.
    pub queries: Vec<QueryResult>,
    /// The exact `tool_search` result the model would receive (seed: one per query, an array
    /// when there are several).
    pub payload: Value,
}

impl SearchReport {
    /// Runs one `tool_search` call with `queries` in `session`.
    pub fn build(session: &Session, queries: &[String], limit: usize) -> SearchReport {
        let results: Vec<(String, SearchResult)> = queries
            .iter()
            .map(|q| (q.clone(), session.search(q, limit)))
            .collect();
        let rows: Vec<QueryResult> = results
            .iter()
            .map(|(query, result)| QueryResult {
                query: query.clone(),
                via: result.via.as_str(),
                gate: result.gate.as_ref().map(GateRow::from),
                hits: result
                    .hits
                    .iter()
                    .enumerate()
                    .map(|(i, hit)| {
                        let (entry, _) = session.catalog_entry(hit.doc);
                        HitRow {
                            rank: i + 1,
                            name: entry.name.clone(),
                            raw_name: entry.raw_name.clone(),
                            server: entry.server.clone(),
                            score: hit.score.is_finite().then_some(hit.score),
                            exact_name: hit.exact_name,
                            matched_terms: hit.matched_terms.clone(),
                        }
                    })
                    .collect(),
            })
            .collect();
        let only = (rows.len() == 1).then(|| &rows[0]);
        SearchReport {
            profile: session.profile().id().to_string(),
            hermes: session.profile().releases_label(),
            query: only.map(|q| q.query.clone()),
            limit,
            via: only.map(|q| q.via),
            total_available: session.total_available(),
            hits: only.map(|q| q.hits.clone()),
            payload: session.search_payload(&results),
            queries: rows,
        }
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format, session: &Session) -> String {
        match format {
            Format::Json => super::to_json(self),
            Format::Table => {
                let mut out = String::new();
                for (i, query) in self.queries.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    out.push_str(&format!("{}\n", self.headline(query)));
                    if let Some(gate) = &query.gate {
                        out.push_str(&format!("{}\n", gate_line(gate)));
                    }
                    out.push('\n');
                    if query.hits.is_empty() {
                        out.push_str(&self.empty_reason(query));
                        out.push('\n');
                    } else {
                        out.push_str(&table(query, session).to_text());
                    }
                }
                out
            }
            Format::Markdown => {
                let mut out = String::new();
                for query in &self.queries {
                    out.push_str(&format!(
                        "# {}\n\n",
                        super::table::escape_markdown(&self.headline(query))
                    ));
                    if let Some(gate) = &query.gate {
                        out.push_str(&format!(
                            "{}\n\n",
                            super::table::escape_markdown(&gate_line(gate))
                        ));
                    }
                    if query.hits.is_empty() {
                        out.push_str(&self.empty_reason(query));
                        out.push('\n');
                    } else {
                        out.push_str(&table(query, session).to_markdown());
                    }
                    out.push('\n');
                }
                out.push_str("## Payload the model receives\n\n");
                let payload = super::to_json(&self.payload).trim_end().to_string();
                out.push_str(&super::code_block("json", &payload));
                out
            }
        }
    }

    fn headline(&self, query: &QueryResult) -> String {
        format!(
            "tool_search {:?}: {} via {} (profile {} for Hermes {}, limit {}, {} available)",
            sanitize(&query.query),
            schematax_engine::text::count(query.hits.len(), "hit", "hits"),
            query.via,
            self.profile,
            self.hermes,
            self.limit,
            schematax_engine::text::count(self.total_available, "tool", "tools")
        )
    }

    fn empty_reason(&self, query: &QueryResult) -> String {
        if query.query.trim().is_empty() {
            "Empty query: the model gets an error.".into()
        } else if self.total_available == 0 {
            "The catalog is empty: no deferrable tools in this session.".into()
        } else if raw_tokens(&query.query).next().is_none() {
            "The query has no searchable words (only ASCII letters and digits count).".into()
        } else if let Some(gate) = &query.gate {
            if gate.document_frequency == 0 {
                format!(
                    "No tool holds \"{}\", the query's rarest word, so the rarest-word gate admits nothing (there is no substring fallback): drop or replace that word.",
                    sanitize(&gate.word)
                )
            } else {
                format!(
                    "Every tool holding \"{}\" holds fewer than {} of the query's {}.",
                    sanitize(&gate.word),
                    gate.required,
                    schematax_engine::text::count(gate.answerable, "word", "words")
                )
            }
        } else {
            "No tool matched: no query word is in any tool's search text, and the query is in no tool name.".into()
        }
    }
}

/// The gate in words.
fn gate_line(gate: &GateRow) -> String {
    if gate.document_frequency == 0 {
        return format!(
            "gate: \"{}\" (token {}) is the rarest word and in no tool: nothing is admitted but a tool named by the whole query",
            sanitize(&gate.word),
            sanitize(&gate.token),
        );
    }
    format!(
        "gate: \"{}\" (token {}, in {} tool{}) is the rarest word: every hit holds it and {} of the {} answerable word{}",
        sanitize(&gate.word),
        sanitize(&gate.token),
        gate.document_frequency,
        if gate.document_frequency == 1 { "" } else { "s" },
        gate.required,
        gate.answerable,
        if gate.answerable == 1 { "" } else { "s" }
    )
}

fn table(query: &QueryResult, session: &Session) -> Table {
    let mut table = Table::new(&[
        ("rank", Align::Right),
        ("name", Align::Left),
        ("server", Align::Left),
        ("score", Align::Right),
        ("matched", Align::Left),
        ("description", Align::Left),
    ])
    .clip_column("matched", 32)
    .clip_column("description", 48);
    for hit in &query.hits {
        let description = session
            .find(&hit.name)
            .map(|(e, _)| first_sentence(&e.description).to_string())
            .unwrap_or_default();
        table.row([
            hit.rank.to_string(),
            hit.name.clone(),
            hit.server.clone(),
            match hit.score {
                Some(score) => format!("{score:.4}"),
                None => "exact".into(),
            },
            match (hit.exact_name, hit.matched_terms.is_empty()) {
                (true, _) => "(the whole name)".to_string(),
                (false, true) => "(name substring)".to_string(),
                (false, false) => hit.matched_terms.join(" "),
            },
            description,
        ]);
    }
    table
}
