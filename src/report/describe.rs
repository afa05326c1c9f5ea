//! `schematax describe`: the `tool_describe` payload of one tool and what it costs.

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;
use serde::Serialize;
use serde_json::Value;

use super::{thousands, Format};
use crate::engine::session::{Lookup, Session};

/// A described tool.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DescribeReport {
    /// Hermes name.
    pub name: String,
    /// Raw MCP name.
    pub raw_name: String,
    /// Server key.
    pub server: String,
    /// Characters of the full definition.
    pub chars: u64,
    /// chars/4 of the definition.
    pub estimate_tokens: u64,
    /// o200k_base tokens of the definition, when counted.
    pub o200k_tokens: Option<u64>,
    /// cl100k_base tokens of the definition, when counted.
    pub cl100k_tokens: Option<u64>,
    /// The exact `tool_describe` result.
    pub payload: Value,
}

/// A name that does not describe: the model's error and the closest names.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DescribeError {
    /// What `tool_describe` returns.
    pub error: Value,
    /// Closest catalog names (fuzzy match), best first.
    pub suggestions: Vec<String>,
}

/// Describes `reference` (Hermes name, `server/tool` or raw name) in `session`.
pub fn describe(session: &Session, reference: &str) -> Result<DescribeReport, DescribeError> {
    let position = match session.lookup(reference) {
        Lookup::Found(position) => position,
        Lookup::Ambiguous(positions) => {
            return Err(DescribeError {
                error: Value::String(format!(
                    "'{reference}' is the name of a tool on several servers; use a Hermes name"
                )),
                suggestions: positions
                    .iter()
                    .map(|&p| session.catalog_entry(p).0.name.clone())
                    .collect(),
            })
        }
        Lookup::Missing => {
            let error = session
                .describe(reference)
                .expect_err("a missing name does not describe");
            return Err(DescribeError {
                error,
                suggestions: suggestions(session, reference),
            });
        }
    };
    let (entry, _) = session.catalog_entry(position);
    let place = session.catalog_ref(position);
    let counted = session.token_count(place.server, place.tool);
    Ok(DescribeReport {
        name: entry.name.clone(),
        raw_name: entry.raw_name.clone(),
        server: entry.server.clone(),
        chars: entry.chars,
        estimate_tokens: crate::engine::tokens::estimate_tokens(entry.chars),
        o200k_tokens: counted.map(|c| c.o200k),
        cl100k_tokens: counted.map(|c| c.cl100k),
        payload: session
            .describe(&entry.name)
            .expect("a catalog entry describes"),
    })
}

/// Up to three catalog names closest to `reference`.
fn suggestions(session: &Session, reference: &str) -> Vec<String> {
    let matcher = SkimMatcherV2::default();
    let mut scored: Vec<(i64, &str)> = session
        .catalog()
        .filter_map(|e| {
            matcher
                .fuzzy_match(&e.name, reference)
                .map(|score| (score, e.name.as_str()))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(3)
        .map(|(_, name)| name.to_string())
        .collect()
}

impl DescribeReport {
    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let payload = super::to_json(&self.payload).trim_end().to_string();
        let counted = |n: Option<u64>, label: &str| {
            n.map(|n| format!(", {} {label}", thousands(n)))
                .unwrap_or_default()
        };
        let cost = format!(
            "{} chars, {} tokens (chars/4){}{}",
            thousands(self.chars),
            thousands(self.estimate_tokens),
            counted(self.o200k_tokens, "o200k_base"),
            counted(self.cl100k_tokens, "cl100k_base")
        );
        let title = format!(
            "tool_describe {} (server {}, MCP name {})",
            self.name, self.server, self.raw_name
        );
        match format {
            Format::Json => super::to_json(self),
            Format::Table => format!(
                "{}\ncost: {cost}\n\n{payload}\n",
                crate::text::sanitize(&title)
            ),
            Format::Markdown => format!(
                "# {}\n\nCost: {cost}\n\n{}",
                super::table::escape_markdown(&title),
                super::code_block("json", &payload)
            ),
        }
    }
}

impl DescribeError {
    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let hint = if self.suggestions.is_empty() {
            String::new()
        } else {
            format!("did you mean: {}", self.suggestions.join(", "))
        };
        let error = match &self.error {
            Value::String(text) => text.clone(),
            Value::Object(map) if map.contains_key("error") => {
                map["error"].as_str().unwrap_or_default().to_string()
            }
            other => super::to_json(other).trim_end().to_string(),
        };
        match format {
            Format::Json => super::to_json(self),
            Format::Table => {
                let mut out = format!("tool_describe error: {}\n", crate::text::sanitize(&error));
                if !hint.is_empty() {
                    out.push_str(&format!("{}\n", crate::text::sanitize(&hint)));
                }
                out
            }
            Format::Markdown => {
                let mut out = format!(
                    "**tool_describe error**: {}\n",
                    super::table::escape_markdown(&error)
                );
                if !hint.is_empty() {
                    out.push_str(&format!("\n{}\n", super::table::escape_markdown(&hint)));
                }
                out
            }
        }
    }
}
