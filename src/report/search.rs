//! `schematax search`: the ranked hits with their scores, and the payload the model receives.

use serde::Serialize;
use serde_json::Value;

use super::table::{Align, Table};
use super::Format;
use crate::engine::search::SearchResult;
use crate::engine::session::Session;
use crate::text::{first_sentence, sanitize};

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
    /// BM25 score, or 0.1 for a substring-fallback hit.
    pub score: f64,
    /// Distinct query tokens the tool's search text holds.
    pub matched_terms: Vec<String>,
}

/// The whole `search` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SearchReport {
    /// The query as given.
    pub query: String,
    /// The limit after the limit rule.
    pub limit: usize,
    /// `bm25`, `substring` or `none`.
    pub via: String,
    /// Catalog size.
    pub total_available: usize,
    /// Hits, best first.
    pub hits: Vec<HitRow>,
    /// The exact `tool_search` result the model would receive.
    pub payload: Value,
}

impl SearchReport {
    /// Runs the search in `session`.
    pub fn build(session: &Session, query: &str, limit: usize) -> SearchReport {
        let result: SearchResult = session.search(query, limit);
        let hits = result
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
                    score: hit.score,
                    matched_terms: hit.matched_terms.clone(),
                }
            })
            .collect();
        SearchReport {
            query: query.to_string(),
            limit,
            via: result.via.as_str().to_string(),
            total_available: session.total_available(),
            hits,
            payload: session.search_payload(&[(query.to_string(), result.clone())]),
        }
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format, session: &Session) -> String {
        match format {
            Format::Json => super::to_json(self),
            Format::Table => {
                let mut out = format!("{}\n\n", self.headline());
                if self.hits.is_empty() {
                    out.push_str(&self.empty_reason());
                    out.push('\n');
                } else {
                    out.push_str(&self.table(session).max_cell_width(48).to_text());
                }
                out
            }
            Format::Markdown => {
                let mut out = format!("# {}\n\n", super::table::escape_markdown(&self.headline()));
                if self.hits.is_empty() {
                    out.push_str(&self.empty_reason());
                    out.push('\n');
                } else {
                    out.push_str(&self.table(session).to_markdown());
                }
                out.push_str("\n## Payload the model receives\n\n");
                let payload = super::to_json(&self.payload).trim_end().to_string();
                out.push_str(&super::code_block("json", &payload));
                out
            }
        }
    }

    fn headline(&self) -> String {
        format!(
            "tool_search {:?}: {} hit{} via {} (limit {}, {} tools available)",
            sanitize(&self.query),
            self.hits.len(),
            if self.hits.len() == 1 { "" } else { "s" },
            self.via,
            self.limit,
            self.total_available
        )
    }

    fn empty_reason(&self) -> String {
        if self.query.trim().is_empty() {
            "Empty query: the model gets {\"error\": \"query is required\"}.".into()
        } else if self.total_available == 0 {
            "The catalog is empty: no deferrable tools in this session.".into()
        } else if crate::engine::search::raw_tokens(&self.query)
            .next()
            .is_none()
        {
            "The query has no searchable words (only ASCII letters and digits count).".into()
        } else {
            "No tool matched: no query word is in any tool's search text, and the query is in no tool name.".into()
        }
    }

    fn table(&self, session: &Session) -> Table {
        let mut table = Table::new(&[
            ("rank", Align::Right),
            ("name", Align::Left),
            ("server", Align::Left),
            ("score", Align::Right),
            ("matched", Align::Left),
            ("description", Align::Left),
        ]);
        for hit in &self.hits {
            let description = session
                .find(&hit.name)
                .map(|(e, _)| first_sentence(&e.description).to_string())
                .unwrap_or_default();
            table.row([
                hit.rank.to_string(),
                hit.name.clone(),
                hit.server.clone(),
                format!("{:.4}", hit.score),
                if hit.matched_terms.is_empty() {
                    "(name substring)".to_string()
                } else {
                    hit.matched_terms.join(" ")
                },
                description,
            ]);
        }
        table
    }
}
