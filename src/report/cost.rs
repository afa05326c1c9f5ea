//! `schematax report`: cost per server, the gate with its numbers, savings and warnings.

use serde::Serialize;

use super::table::{Align, Table};
use super::{dollars, pct_label, thousands, Format};
use crate::engine::activation::{Activation, Cost, TURNS_PER_SESSION};
use crate::engine::inputs::Inputs;
use crate::engine::session::Session;

/// The resolved `tools.tool_search` settings.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ConfigSummary {
    /// auto / on / off.
    pub enabled: String,
    /// Percent of the context window.
    pub threshold_pct: f64,
    /// Limit of a search that names none.
    pub search_default_limit: u32,
    /// Upper bound of a search limit.
    pub max_search_limit: u32,
}

/// One connected server's row.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ServerRow {
    /// Raw server key.
    pub server: String,
    /// `mcp-{server}`.
    pub toolset: String,
    /// Tools in the session's catalog.
    pub tools: usize,
    /// Characters of their definitions.
    pub chars: u64,
    /// chars/4 estimate.
    pub estimate_tokens: u64,
    /// o200k_base tokens (null when not counted).
    pub o200k_tokens: Option<u64>,
    /// cl100k_base tokens (null when not counted).
    pub cl100k_tokens: Option<u64>,
    /// Percent of the deferrable chars.
    pub share_pct: f64,
}

/// Dollars before, after and saved.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Dollars {
    /// Per turn.
    pub per_turn: f64,
    /// Per session of six turns.
    pub per_session: f64,
}

impl From<Cost> for Dollars {
    fn from(cost: Cost) -> Dollars {
        Dollars {
            per_turn: cost.per_turn,
            per_session: cost.per_session,
        }
    }
}

/// A tool skipped by a name collision.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CollisionRow {
    /// Server of the skipped tool.
    pub server: String,
    /// Raw name of the skipped tool.
    pub tool: String,
    /// The Hermes name both produce.
    pub name: String,
    /// Server that kept the name (null when a server's own duplicates cancel out).
    pub kept_server: Option<String>,
}

/// The whole `report` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CostReport {
    /// Where the config came from.
    pub config_path: String,
    /// Resolved settings (after command-line overrides).
    pub config: ConfigSummary,
    /// Context length in force (0 = unknown).
    pub context_length: u64,
    /// `flag`, `config`, `model_table`, `unknown_model` or `unknown`.
    pub context_source: String,
    /// The source in words.
    pub context_source_detail: String,
    /// Connected servers in registration order.
    pub servers: Vec<ServerRow>,
    /// Tools in the catalog.
    pub deferrable_tools: usize,
    /// Their characters.
    pub deferrable_chars: u64,
    /// chars/4 of them: what the gate sees.
    pub deferrable_tokens: u64,
    /// Tokens they must reach to activate auto mode (seed; null for the newer profile).
    pub threshold_tokens: Option<u64>,
    /// Whether Tool Search is active.
    pub active: bool,
    /// Tokens (auto mode) that can go before it deactivates, or must come before it activates.
    pub tokens_to_flip: Option<i64>,
    /// Characters of the bridge definitions.
    pub bridge_chars: u64,
    /// chars/4 of the bridge.
    pub bridge_tokens: u64,
    /// chars/4 tokens of the MCP part of the tool array without Tool Search.
    pub tokens_before: u64,
    /// The same as sent: the bridge when active.
    pub tokens_after: u64,
    /// Percent saved.
    pub savings_pct: f64,
    /// Dollars per million input tokens used below.
    pub price_per_mtok: f64,
    /// Cost of `tokens_before`.
    pub dollars_before: Dollars,
    /// Cost of `tokens_after`.
    pub dollars_after: Dollars,
    /// The difference.
    pub dollars_saved: Dollars,
    /// Tools skipped by name collisions.
    pub collisions: Vec<CollisionRow>,
    /// Config fallbacks, skipped files and entries, assembly notes.
    pub warnings: Vec<String>,
}

impl CostReport {
    /// Builds the report for a session (token counts included when the session has them).
    pub fn build(inputs: &Inputs, session: &Session, price_per_mtok: f64) -> CostReport {
        let activation: Activation = session.activation();
        let settings = session.settings();
        let costs = session.server_costs();
        let servers = session
            .servers()
            .iter()
            .zip(&costs)
            .enumerate()
            .filter(|(i, _)| session.is_connected(*i))
            .map(|(_, pair)| pair)
            .map(|(server, cost)| ServerRow {
                server: server.name.clone(),
                toolset: server.toolset.clone(),
                tools: cost.tools,
                chars: cost.chars,
                estimate_tokens: cost.estimate_tokens,
                o200k_tokens: cost.counted.map(|c| c.o200k),
                cl100k_tokens: cost.counted.map(|c| c.cl100k),
                share_pct: if activation.deferrable_chars == 0 {
                    0.0
                } else {
                    cost.chars as f64 * 100.0 / activation.deferrable_chars as f64
                },
            })
            .collect();
        let collisions = session
            .collisions()
            .iter()
            .map(|c| CollisionRow {
                server: c.server.clone(),
                tool: c.tool.clone(),
                name: c.name.clone(),
                kept_server: c.kept_server.clone(),
            })
            .collect::<Vec<_>>();
        let mut warnings: Vec<String> = inputs.warnings(session.profile()).collect();
        warnings.extend(session.notes().iter().map(ToString::to_string));
        warnings.extend(session.collisions().iter().map(ToString::to_string));
        let before = Cost::of(activation.tokens_before(), price_per_mtok);
        let after = Cost::of(activation.tokens_after(), price_per_mtok);
        CostReport {
            config_path: inputs.config_label.clone(),
            config: ConfigSummary {
                enabled: settings.enabled.to_string(),
                threshold_pct: settings.threshold_pct,
                search_default_limit: settings.search_default_limit,
                max_search_limit: settings.max_search_limit,
            },
            context_length: activation.context.tokens,
            context_source: activation.context.source.tag().to_string(),
            context_source_detail: activation.context.source.to_string(),
            servers,
            deferrable_tools: activation.deferrable_tools,
            deferrable_chars: activation.deferrable_chars,
            deferrable_tokens: activation.deferrable_tokens,
            threshold_tokens: activation.threshold_tokens,
            active: activation.active,
            tokens_to_flip: activation.tokens_to_flip(),
            bridge_chars: activation.bridge_chars,
            bridge_tokens: activation.bridge_tokens,
            tokens_before: activation.tokens_before(),
            tokens_after: activation.tokens_after(),
            savings_pct: activation.savings_pct(),
            price_per_mtok,
            dollars_saved: Dollars {
                per_turn: before.per_turn - after.per_turn,
                per_session: before.per_session - after.per_session,
            },
            dollars_before: before.into(),
            dollars_after: after.into(),
            collisions,
            warnings,
        }
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => super::to_json(self),
            Format::Table => self.to_text(),
            Format::Markdown => self.to_markdown(),
        }
    }

    fn server_table(&self) -> Table {
        let mut table = Table::new(&[
            ("server", Align::Left),
            ("toolset", Align::Left),
            ("tools", Align::Right),
            ("chars", Align::Right),
            ("chars/4", Align::Right),
            ("o200k", Align::Right),
            ("cl100k", Align::Right),
            ("share", Align::Right),
        ]);
        let counted = |n: Option<u64>| n.map_or("-".to_string(), thousands);
        for row in &self.servers {
            table.row([
                row.server.clone(),
                row.toolset.clone(),
                row.tools.to_string(),
                thousands(row.chars),
                thousands(row.estimate_tokens),
                counted(row.o200k_tokens),
                counted(row.cl100k_tokens),
                format!("{:.1}%", row.share_pct),
            ]);
        }
        let sum =
            |f: fn(&ServerRow) -> Option<u64>| self.servers.iter().map(f).sum::<Option<u64>>();
        table.row([
            "total".to_string(),
            String::new(),
            self.deferrable_tools.to_string(),
            thousands(self.deferrable_chars),
            thousands(self.deferrable_tokens),
            counted(sum(|r| r.o200k_tokens)),
            counted(sum(|r| r.cl100k_tokens)),
            if self.servers.is_empty() {
                String::new()
            } else {
                "100.0%".into()
            },
        ]);
        table
    }

    /// The gate's lines, as (label, value).
    fn gate_lines(&self) -> Vec<(&'static str, String)> {
        let context = if self.context_length == 0 {
            format!("unknown ({})", self.context_source_detail)
        } else {
            format!(
                "{} ({})",
                thousands(self.context_length),
                self.context_source_detail
            )
        };
        let threshold = if self.context_length == 0 {
            format!(
                "{} tokens (fixed minimum when the context length is unknown)",
                thousands(self.threshold_tokens.unwrap_or(0))
            )
        } else {
            format!(
                "{} tokens = floor({} x {} / 100)",
                thousands(self.threshold_tokens.unwrap_or(0)),
                thousands(self.context_length),
                pct_label(self.config.threshold_pct)
            )
        };
        let verdict = match (self.active, self.tokens_to_flip) {
            (true, Some(n)) => format!(
                "ACTIVE: {} tokens of schemas less would deactivate it",
                thousands(n as u64)
            ),
            (false, Some(n)) => format!(
                "INACTIVE: {} tokens of schemas more would activate it",
                thousands(n as u64)
            ),
            (true, None) => format!("ACTIVE (mode {})", self.config.enabled),
            (false, None) if self.deferrable_tools == 0 => "INACTIVE: nothing to defer".to_string(),
            (false, None) => format!("INACTIVE (mode {})", self.config.enabled),
        };
        vec![
            ("mode", self.config.enabled.clone()),
            ("threshold_pct", pct_label(self.config.threshold_pct)),
            ("context length", context),
            (
                "deferrable",
                format!(
                    "{} tokens (chars/4) in {} tools",
                    thousands(self.deferrable_tokens),
                    self.deferrable_tools
                ),
            ),
            ("threshold", threshold),
            ("verdict", verdict),
        ]
    }

    /// The savings lines, as (label, value).
    fn savings_lines(&self) -> Vec<(&'static str, String)> {
        let money = |d: &Dollars| {
            format!(
                "{}/turn, {}/session",
                dollars(d.per_turn),
                dollars(d.per_session)
            )
        };
        let after = if self.active {
            format!(
                "{} tokens (the 3 bridge tools)",
                thousands(self.tokens_after)
            )
        } else {
            format!(
                "{} tokens (unchanged: Tool Search inactive)",
                thousands(self.tokens_after)
            )
        };
        vec![
            (
                "before",
                format!(
                    "{} tokens, {}",
                    thousands(self.tokens_before),
                    money(&self.dollars_before)
                ),
            ),
            ("after", format!("{after}, {}", money(&self.dollars_after))),
            (
                "saved",
                format!(
                    "{} tokens ({:.1}%), {}",
                    signed_thousands(self.tokens_before as i64 - self.tokens_after as i64),
                    self.savings_pct,
                    money(&self.dollars_saved)
                ),
            ),
            (
                "price",
                format!(
                    "${:.2} per million input tokens, {TURNS_PER_SESSION} turns a session",
                    self.price_per_mtok
                ),
            ),
        ]
    }

    fn to_text(&self) -> String {
        let mut out = format!(
            "schematax report: {} ({} servers, {} tools)\n\n",
            crate::text::sanitize(&self.config_path),
            self.servers.len(),
            self.deferrable_tools
        );
        if self.servers.is_empty() {
            out.push_str("No MCP servers are connected: nothing to defer.\n\n");
        } else {
            out.push_str(&self.server_table().to_text());
            out.push_str(
                "  (chars/4 drives activation; o200k and cl100k are real tokenizer counts)\n\n",
            );
        }
        let labelled = |title: &str, lines: Vec<(&str, String)>| {
            let mut text = format!("{title}\n");
            for (label, value) in lines {
                text.push_str(&format!(
                    "  {label:<15} {}\n",
                    crate::text::sanitize(&value)
                ));
            }
            text
        };
        out.push_str(&labelled("Tool Search gate", self.gate_lines()));
        out.push('\n');
        out.push_str(&labelled(
            "Savings per turn (chars/4 tokens of the MCP tool schemas)",
            self.savings_lines(),
        ));
        if !self.warnings.is_empty() {
            out.push_str("\nwarnings\n");
            for warning in &self.warnings {
                out.push_str(&format!("  - {}\n", crate::text::sanitize(warning)));
            }
        }
        out
    }

    fn to_markdown(&self) -> String {
        use super::table::escape_markdown;
        let mut out = format!(
            "# schematax report: {}\n\n",
            escape_markdown(&self.config_path)
        );
        out.push_str("## Servers\n\n");
        if self.servers.is_empty() {
            out.push_str("No MCP servers are connected: nothing to defer.\n\n");
        } else {
            out.push_str(&self.server_table().to_markdown());
            out.push_str(
                "\nchars/4 drives activation; o200k and cl100k are real tokenizer counts.\n\n",
            );
        }
        for (title, lines) in [
            ("Tool Search gate", self.gate_lines()),
            ("Savings per turn", self.savings_lines()),
        ] {
            out.push_str(&format!("## {title}\n\n"));
            for (label, value) in lines {
                out.push_str(&format!("- **{label}**: {}\n", escape_markdown(&value)));
            }
            out.push('\n');
        }
        if !self.warnings.is_empty() {
            out.push_str("## Warnings\n\n");
            for warning in &self.warnings {
                out.push_str(&format!("- {}\n", escape_markdown(warning)));
            }
        }
        out
    }
}

/// A signed integer with thousands separators (Tool Search on a tiny catalog can cost more).
fn signed_thousands(n: i64) -> String {
    if n < 0 {
        format!("-{}", thousands(n.unsigned_abs()))
    } else {
        thousands(n as u64)
    }
}
