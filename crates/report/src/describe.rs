//! `schematax describe`: the `tool_describe` payload of one tool, what it costs, and what
//! Hermes's schema passes changed in it.

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;
use serde::Serialize;
use serde_json::Value;

use crate::cost::signed_thousands;
use crate::tokenizer::TokenizerSummary;
use crate::{thousands, Format};
use schematax_engine::replay::catalog::ToolEntry;
use schematax_engine::replay::session::{Lookup, Session};

/// What Hermes's schema passes did to the tool's captured `inputSchema`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SchemaChangeRow {
    /// The captured schema (`properties` filled in when missing).
    pub captured_parameters: Value,
    /// Characters of the definition with the captured schema.
    pub captured_chars: u64,
    /// Characters Hermes's passes add (negative: remove).
    pub chars_delta: i64,
    /// The pretty-printed schemas' line diff: `-` captured only, `+` sent only, ` ` both.
    pub diff: Vec<String>,
}

/// A described tool.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DescribeReport {
    /// The engine profile.
    pub profile: String,
    /// The Hermes releases the profile replays (`0.18.1, 0.18.2, 0.19.0`).
    pub hermes: String,
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
    /// The tokenizer of `tokens`: the configured model's.
    pub tokenizer: TokenizerSummary,
    /// Tokens of the definition in `tokenizer`, when counted.
    pub tokens: Option<u64>,
    /// The exact `tool_describe` result.
    pub payload: Value,
    /// What Hermes changed in the captured schema (null when nothing).
    pub schema_change: Option<SchemaChangeRow>,
}

/// A name that does not describe: the model's answer and the closest names.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DescribeError {
    /// Why, one line.
    pub error: String,
    /// What `tool_describe` returns to the model.
    pub payload: Value,
    /// Closest catalog names (fuzzy match), best first.
    pub suggestions: Vec<String>,
}

/// The line diff of the captured and the sent schema, pretty-printed.
fn schema_diff(captured: &Value, sent: &Value) -> Vec<String> {
    let before = super::to_json(captured);
    let after = super::to_json(sent);
    similar::TextDiff::from_lines(&before, &after)
        .iter_all_changes()
        .map(|change| {
            let sign = match change.tag() {
                similar::ChangeTag::Delete => '-',
                similar::ChangeTag::Insert => '+',
                similar::ChangeTag::Equal => ' ',
            };
            format!("{sign}{}", change.value().trim_end_matches('\n'))
        })
        .collect()
}

/// The schema change of an entry, for output.
pub fn schema_change(entry: &ToolEntry) -> Option<SchemaChangeRow> {
    let change = entry.schema_change.as_ref()?;
    let captured = Value::Object(change.captured.parse());
    Some(SchemaChangeRow {
        diff: schema_diff(&captured, &Value::Object(entry.parameters.parse())),
        captured_parameters: captured,
        captured_chars: change.captured_chars,
        chars_delta: entry.chars as i64 - change.captured_chars as i64,
    })
}

/// Describes `reference` (Hermes name, `server/tool` or raw name) in `session`.
pub fn describe(session: &Session, reference: &str) -> Result<DescribeReport, DescribeError> {
    let position = match session.lookup(reference) {
        Lookup::Found(position) => position,
        Lookup::Ambiguous(positions) => {
            let names: Vec<String> = positions
                .iter()
                .map(|&p| session.catalog_entry(p).0.name.clone())
                .collect();
            return Err(DescribeError {
                error: format!(
                    "'{reference}' is the name of a tool on several servers; use a Hermes name"
                ),
                payload: Value::Null,
                suggestions: names,
            });
        }
        Lookup::Missing => {
            let payload = match session.describe(reference) {
                Ok(payload) | Err(payload) => payload,
            };
            return Err(DescribeError {
                error: match payload.get("error").and_then(Value::as_str) {
                    Some(error) => error.to_string(),
                    None => format!("'{reference}' is not a tool of this session's catalog"),
                },
                payload,
                suggestions: suggestions(session, reference),
            });
        }
    };
    let (entry, _) = session.catalog_entry(position);
    let place = session.catalog_ref(position);
    let counted = session.token_count(place.server, place.tool);
    let payload = match session.describe(&entry.name) {
        Ok(payload) | Err(payload) => payload,
    };
    Ok(DescribeReport {
        profile: session.profile().id().to_string(),
        hermes: session.profile().releases_label(),
        name: entry.name.clone(),
        raw_name: entry.raw_name.clone(),
        server: entry.server.clone(),
        chars: entry.chars,
        estimate_tokens: schematax_engine::nouns::json_text::estimate_tokens(entry.chars),
        tokenizer: TokenizerSummary::of(session.tokenizer()),
        tokens: counted,
        payload,
        schema_change: schema_change(entry),
    })
}

/// Up to three catalog names closest to `reference`, however it names the tool: a Hermes
/// name, `server/tool` (the tool part alone when no server is called that) or an MCP name.
fn suggestions(session: &Session, reference: &str) -> Vec<String> {
    let matcher = SkimMatcherV2::default();
    let tool_part = reference
        .rsplit_once('/')
        .map_or(reference, |(_, tool)| tool);
    let mut scored: Vec<(i64, &str)> = session
        .catalog()
        .filter_map(|e| {
            let qualified = format!("{}/{}", e.server, e.raw_name);
            [
                matcher.fuzzy_match(&e.name, reference),
                matcher.fuzzy_match(&qualified, reference),
                matcher.fuzzy_match(&e.raw_name, tool_part),
            ]
            .into_iter()
            .flatten()
            .max()
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

impl SchemaChangeRow {
    /// One line: how much Hermes's passes change the definition.
    pub fn summary(&self, chars: u64) -> String {
        format!(
            "Hermes's schema passes change the captured inputSchema: {} -> {} chars ({})",
            thousands(self.captured_chars),
            thousands(chars),
            signed_thousands(self.chars_delta)
        )
    }
}

impl DescribeReport {
    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let payload = super::to_json(&self.payload).trim_end().to_string();
        let counted = self
            .tokens
            .map(|n| format!(", {} {}", thousands(n), self.tokenizer.name))
            .unwrap_or_default();
        let cost = format!(
            "{} chars, {} tokens (chars/4){counted}",
            thousands(self.chars),
            thousands(self.estimate_tokens),
        );
        let title = format!(
            "tool_describe {} (server {}, MCP name {}, profile {} for Hermes {})",
            self.name, self.server, self.raw_name, self.profile, self.hermes
        );
        let diff = self
            .schema_change
            .as_ref()
            .map(|c| (c.summary(self.chars), c.diff.join("\n")));
        match format {
            Format::Json => super::to_json(self),
            Format::Table => {
                let mut out = format!(
                    "{}\ncost: {cost}\n\n{payload}\n",
                    schematax_engine::text::sanitize(&title)
                );
                if let Some((summary, diff)) = diff {
                    out.push_str(&format!(
                        "\n{summary}\n(- captured only, + what Hermes sends)\n{}\n",
                        schematax_engine::text::sanitize_lines(&diff)
                    ));
                }
                out
            }
            Format::Markdown => {
                let mut out = format!(
                    "# {}\n\nCost: {cost}\n\n{}",
                    super::table::escape_markdown(&title),
                    super::code_block("json", &payload)
                );
                if let Some((summary, diff)) = diff {
                    out.push_str(&format!(
                        "\n## What Hermes changed\n\n{}\n\n{}",
                        super::table::escape_markdown(&summary),
                        super::code_block("diff", &diff)
                    ));
                }
                out
            }
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
        match format {
            Format::Json => super::to_json(self),
            Format::Table => {
                let mut out = format!(
                    "tool_describe error: {}\n",
                    schematax_engine::text::sanitize(&self.error)
                );
                if !hint.is_empty() {
                    out.push_str(&format!("{}\n", schematax_engine::text::sanitize(&hint)));
                }
                out
            }
            Format::Markdown => {
                let mut out = format!(
                    "**tool_describe error**: {}\n",
                    super::table::escape_markdown(&self.error)
                );
                if !hint.is_empty() {
                    out.push_str(&format!("\n{}\n", super::table::escape_markdown(&hint)));
                }
                out
            }
        }
    }
}
