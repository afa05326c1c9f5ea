//! `schematax report`: cost per server, activation with its numbers (the seed's gate, or the
//! newer listing's budget, form and tier), savings and warnings.

use crate::words::Words;
use serde::Serialize;
use std::sync::Arc;

use crate::table::{Align, Table};
use crate::tokenizer::TokenizerSummary;
use crate::{dollars, pct_label, thousands, Format};
use schematax_engine::inputs::Inputs;
use schematax_engine::nouns::json_text::{estimate_tokens, write_compact_json};
use schematax_engine::replay::activation::{Activation, Cost, Traffic, TURNS_PER_SESSION};
use schematax_engine::replay::catalog::{CollisionKind, Server, ToolRef};
use schematax_engine::replay::session::{Note, Session};

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
    /// `listing` (from 0.20.0; null before).
    pub listing: Option<String>,
    /// `listing_max_tokens` (from 0.20.0; null before).
    pub listing_max_tokens: Option<u32>,
    /// `defer`, when set (core tools only; reported, not modelled).
    pub defer: Option<Vec<String>>,
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
    /// Tokens in the report's `tokenizer` (null when not counted).
    pub tokens: Option<u64>,
    /// Percent of the deferrable chars.
    pub share_pct: f64,
    /// Tools whose definition Hermes's schema passes change.
    pub tools_rewritten: usize,
}

/// A tool left out by a name collision.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CollisionRow {
    /// Server of the tool left out.
    pub server: String,
    /// Its raw name.
    pub tool: String,
    /// The Hermes name.
    pub name: String,
    /// Server that holds the name (null when none does).
    pub kept_server: Option<String>,
    /// `overwritten`, `name_taken` or `duplicate_in_server`.
    pub kind: &'static str,
}

/// The version of the `report --format json` shape: a `check --baseline` refuses another.
pub const REPORT_VERSION: u32 = 2;

/// One catalog tool's row.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct ToolRow {
    /// Raw server key.
    pub server: String,
    /// Raw MCP name.
    pub tool: String,
    /// The Hermes name.
    pub name: String,
    /// Characters of its definition.
    pub chars: u64,
    /// chars/4 estimate.
    pub estimate_tokens: u64,
    /// Its definition's tokens in the report's tokenizer (`tokenizer`), as Hermes sends it;
    /// null with `--estimate-only`.
    #[serde(default)]
    pub tokens: Option<u64>,
}

/// The whole `report` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CostReport {
    /// [`REPORT_VERSION`].
    pub report_version: u32,
    /// The engine profile (`hermes-0.22.2`; see `schematax profiles`).
    pub profile: String,
    /// The Hermes releases the profile replays (`0.18.1, 0.18.2, 0.19.0`).
    pub hermes: String,
    /// Where the config came from: its path, `embedded sample` or `none`.
    pub config_path: String,
    /// What was loaded, in words: the config's path, `embedded sample`, or the captures given.
    pub inputs: String,
    /// Resolved settings (after command-line overrides).
    pub config: ConfigSummary,
    /// Context length in force (0 = unknown).
    pub context_length: u64,
    /// `flag`, `view`, `config`, `model_table`, `unknown_model` or `unknown`.
    pub context_source: String,
    /// The source in words.
    pub context_source_detail: String,
    /// The tokenizer of the servers' `tokens`: the configured model's.
    pub tokenizer: TokenizerSummary,
    /// Connected servers in registration order.
    pub servers: Vec<ServerRow>,
    /// Tools in the catalog.
    pub deferrable_tools: usize,
    /// Their characters.
    pub deferrable_chars: u64,
    /// chars/4 of them: what the gate sees.
    pub deferrable_tokens: u64,
    /// Tokens they must reach to activate auto mode (before 0.20.0; null from it).
    pub threshold_tokens: Option<u64>,
    /// Whether Tool Search is active.
    pub active: bool,
    /// Tokens (seed, auto mode) that can go before it deactivates, or must come before it
    /// activates.
    pub tokens_to_flip: Option<i64>,
    /// 0 inactive; 1 when the bridge names tools; 2 when it does not (from 0.20.0).
    pub tier: u8,
    /// `full`, `names`, `mixed`, `groups` or `none` (from 0.20.0; null before).
    pub listing_form: Option<String>,
    /// Tokens the listing may take (from 0.20.0, when active).
    pub listing_budget: Option<u64>,
    /// Characters of the listing (from 0.20.0, when active).
    pub listing_chars: Option<u64>,
    /// Characters of the bridge definitions, listing included.
    pub bridge_chars: u64,
    /// chars/4 of the bridge.
    pub bridge_tokens: u64,
    /// chars/4 tokens of the MCP part of the tool array without Tool Search.
    pub tokens_before: u64,
    /// The same as sent: the bridge when active.
    pub tokens_after: u64,
    /// Percent saved (negative when the bridge costs more than it replaces).
    pub savings_pct: f64,
    /// Dollars per million input tokens used below.
    pub price_per_mtok: f64,
    /// Turns in a session.
    pub turns_per_session: u64,
    /// Turns a day, for the monthly figures.
    pub turns_per_day: u64,
    /// Cost of `tokens_before`.
    pub dollars_before: Cost,
    /// Cost of `tokens_after`.
    pub dollars_after: Cost,
    /// The difference.
    pub dollars_saved: Cost,
    /// Every catalog tool, in catalog order (the order of `sent.tools`).
    pub tools: Vec<ToolRow>,
    /// Tools left out by name collisions.
    pub collisions: Vec<CollisionRow>,
    /// Configured servers with a capture that Hermes does not connect (its MCP client refuses
    /// their tool list), with what they would cost once fixed.
    pub not_connected: Vec<NotConnectedRow>,
    /// Config fallbacks, skipped files and entries, assembly notes, collisions.
    pub warnings: Vec<String>,
    /// What Hermes sends, byte for byte: each catalog tool's definition and, when active, the
    /// three bridge definitions (listing included).
    pub sent: Sent,
}

/// A server Hermes does not connect, and its cost once fixed.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NotConnectedRow {
    /// The server.
    pub server: String,
    /// Why, in words.
    pub reason: String,
    /// Its tools (after include/exclude).
    pub tools: usize,
    /// chars/4 tokens they would cost.
    pub estimate_tokens: u64,
}

/// The definitions Hermes sends, written out only when the report is serialised: each is the
/// compact JSON the model receives, as a string, so its bytes can be compared as they are.
#[derive(Debug, Clone)]
pub struct Sent {
    servers: Arc<Vec<Server>>,
    tools: Vec<ToolRef>,
    bridge: Option<Vec<String>>,
}

impl Sent {
    /// What `session` sends.
    pub fn of(session: &Session) -> Sent {
        Sent {
            servers: session.shared_servers(),
            tools: (0..session.total_available())
                .map(|doc| session.catalog_ref(doc))
                .collect(),
            bridge: session.bridge_definitions().map(|definitions| {
                definitions
                    .iter()
                    .map(|d| {
                        let mut text = String::new();
                        write_compact_json(d, &mut text);
                        text
                    })
                    .collect()
            }),
        }
    }

    /// Each catalog tool's definition as the model receives it (compact JSON), in catalog
    /// order.
    pub fn definitions(&self) -> impl Iterator<Item = String> + '_ {
        self.tools
            .iter()
            .map(|&r| self.servers[r.server].tools[r.tool].definition())
    }
}

impl PartialEq for Sent {
    fn eq(&self, other: &Sent) -> bool {
        self.bridge == other.bridge && self.definitions().eq(other.definitions())
    }
}

impl Serialize for Sent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeSeq, SerializeStruct};
        struct Tools<'a>(&'a Sent);
        impl Serialize for Tools<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut seq = serializer.serialize_seq(Some(self.0.tools.len()))?;
                for definition in self.0.definitions() {
                    seq.serialize_element(&definition)?;
                }
                seq.end()
            }
        }
        let mut sent = serializer.serialize_struct("Sent", 2)?;
        sent.serialize_field("tools", &Tools(self))?;
        sent.serialize_field("bridge", &self.bridge)?;
        sent.end()
    }
}

/// The JSON name of a collision kind.
pub fn collision_kind(kind: CollisionKind) -> &'static str {
    match kind {
        CollisionKind::Overwritten => "overwritten",
        CollisionKind::NameTaken => "name_taken",
        CollisionKind::DuplicateInServer => "duplicate_in_server",
        CollisionKind::Repeated => "repeated",
    }
}

/// The connected servers' rows, in registration order.
fn server_rows(session: &Session, activation: &Activation) -> Vec<ServerRow> {
    let costs = session.server_costs();
    session
        .servers()
        .iter()
        .zip(&costs)
        .enumerate()
        .filter(|(i, _)| session.is_connected(*i))
        .map(|(_, (server, cost))| ServerRow {
            server: server.name.clone(),
            toolset: server.toolset.clone(),
            tools: cost.tools,
            chars: cost.chars,
            estimate_tokens: cost.estimate_tokens,
            tokens: cost.counted,
            share_pct: if activation.deferrable_chars == 0 {
                0.0
            } else {
                cost.chars as f64 * 100.0 / activation.deferrable_chars as f64
            },
            tools_rewritten: server
                .tools
                .iter()
                .filter(|t| t.schema_change.is_some())
                .count(),
        })
        .collect()
}

/// The tools left out by name collisions.
fn collision_rows(session: &Session) -> Vec<CollisionRow> {
    session
        .collisions()
        .iter()
        .map(|c| CollisionRow {
            server: c.server.clone(),
            tool: c.tool.clone(),
            name: c.name.clone(),
            kept_server: c.kept_server.clone(),
            kind: collision_kind(c.kind),
        })
        .collect()
}

/// The configured servers Hermes does not connect, with what they would cost once fixed.
fn not_connected_rows(session: &Session) -> Vec<NotConnectedRow> {
    session
        .notes()
        .iter()
        .filter_map(|note| {
            let (Note::NoInputSchema { server: name, .. } | Note::Refused { server: name, .. }) =
                note
            else {
                return None;
            };
            let server = session.servers().iter().find(|s| &s.name == name)?;
            Some(NotConnectedRow {
                server: name.clone(),
                reason: note.words(),
                tools: server.tools.len(),
                estimate_tokens: estimate_tokens(server.chars),
            })
        })
        .collect()
}

/// Every catalog tool's row, in catalog order.
fn tool_rows(session: &Session) -> Vec<ToolRow> {
    (0..session.total_available())
        .map(|doc| {
            let (entry, _) = session.catalog_entry(doc);
            ToolRow {
                server: entry.server.clone(),
                tool: entry.raw_name.clone(),
                name: entry.name.clone(),
                chars: entry.chars,
                estimate_tokens: estimate_tokens(entry.chars),
                tokens: session.catalog_token_count(doc),
            }
        })
        .collect()
}

impl ConfigSummary {
    /// The settings in force in `session`, with the config's `defer`.
    fn of(inputs: &Inputs, session: &Session) -> ConfigSummary {
        let settings = session.settings();
        let newer = session.profile().spec().listing.is_some();
        ConfigSummary {
            enabled: settings.enabled.to_string(),
            threshold_pct: settings.threshold_pct,
            search_default_limit: settings.search_default_limit,
            max_search_limit: settings.max_search_limit,
            listing: newer.then(|| settings.listing.to_string()),
            listing_max_tokens: newer.then_some(settings.listing_max_tokens),
            defer: inputs
                .config
                .defer_for(session.profile())
                .map(<[String]>::to_vec),
        }
    }
}

impl CostReport {
    /// Builds the report for a session (token counts included when the session has them).
    pub fn build(inputs: &Inputs, session: &Session, traffic: &Traffic) -> CostReport {
        let activation: Activation = session.activation();
        let newer = session.profile().spec().listing.is_some();
        let servers = server_rows(session, &activation);
        let collisions = collision_rows(session);
        let not_connected = not_connected_rows(session);
        let mut warnings: Vec<String> = inputs
            .warnings(session.profile())
            .map(|w| w.words())
            .collect();
        warnings.extend(session.notes().iter().map(Words::words));
        warnings.extend(session.collisions().iter().map(Words::words));
        let before = Cost::of(activation.tokens_before(), traffic);
        let after = Cost::of(activation.tokens_after(), traffic);
        let listing = activation.listing.as_ref();
        CostReport {
            report_version: REPORT_VERSION,
            profile: session.profile().id().to_string(),
            hermes: session.profile().releases_label(),
            config_path: inputs.config_source(),
            inputs: inputs.config_label.clone(),
            config: ConfigSummary::of(inputs, session),
            context_length: activation.context.tokens,
            context_source: activation.context.source.tag().to_string(),
            context_source_detail: activation.context.source.words(),
            tokenizer: TokenizerSummary::of(session.tokenizer()),
            servers,
            deferrable_tools: activation.deferrable_tools,
            deferrable_chars: activation.deferrable_chars,
            deferrable_tokens: activation.deferrable_tokens,
            threshold_tokens: activation.threshold_tokens,
            active: activation.active,
            tokens_to_flip: activation.tokens_to_flip(),
            tier: activation.tier(),
            listing_form: newer.then(|| {
                listing
                    .map_or("none", |l| l.listing.form.as_str())
                    .to_string()
            }),
            listing_budget: listing.map(|l| l.budget),
            listing_chars: listing.map(|l| l.listing.chars),
            bridge_chars: activation.bridge_chars,
            bridge_tokens: activation.bridge_tokens,
            tokens_before: activation.tokens_before(),
            tokens_after: activation.tokens_after(),
            savings_pct: activation.savings_pct(),
            price_per_mtok: traffic.price_per_mtok,
            turns_per_session: TURNS_PER_SESSION,
            turns_per_day: traffic.turns_per_day,
            dollars_saved: before.minus(&after),
            dollars_before: before,
            dollars_after: after,
            tools: tool_rows(session),
            collisions,
            not_connected,
            warnings,
            sent: Sent::of(session),
        }
    }

    /// Writes the report in `format` to `out` (JSON as it is made: with a row per tool left
    /// without a schema or per warning, a large catalog's report is never held whole).
    pub fn write(&self, format: Format, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match format {
            Format::Json => super::write_json(self, out),
            Format::Table => out.write_all(self.to_text().as_bytes()),
            Format::Markdown => out.write_all(self.to_markdown().as_bytes()),
        }
    }

    fn server_table(&self) -> Table {
        let mut table = Table::new(&[
            ("server", Align::Left),
            ("toolset", Align::Left),
            ("tools", Align::Right),
            ("chars", Align::Right),
            ("chars/4", Align::Right),
            (self.tokenizer.name.as_str(), Align::Right),
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
                counted(row.tokens),
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
            counted(sum(|r| r.tokens)),
            if self.servers.is_empty() {
                String::new()
            } else {
                "100.0%".into()
            },
        ]);
        table
    }

    fn context_line(&self) -> String {
        if self.context_length == 0 {
            format!("unknown ({})", self.context_source_detail)
        } else {
            format!(
                "{} ({})",
                thousands(self.context_length),
                self.context_source_detail
            )
        }
    }

    /// The activation lines, as (label, value).
    fn gate_lines(&self) -> Vec<(&'static str, String)> {
        let mut lines = vec![
            (
                "profile",
                format!("{} (Hermes {})", self.profile, self.hermes),
            ),
            ("mode", self.config.enabled.clone()),
            ("threshold_pct", pct_label(self.config.threshold_pct)),
            ("context length", self.context_line()),
            (
                "deferrable",
                format!(
                    "{} tokens (chars/4) in {}",
                    thousands(self.deferrable_tokens),
                    schematax_engine::text::count(self.deferrable_tools, "tool", "tools")
                ),
            ),
        ];
        match self.threshold_tokens {
            Some(threshold) => {
                let line = if self.context_length == 0 {
                    format!(
                        "{} tokens (fixed minimum when the context length is unknown)",
                        thousands(threshold)
                    )
                } else {
                    format!(
                        "{} tokens = floor({} x {} / 100)",
                        thousands(threshold),
                        thousands(self.context_length),
                        pct_label(self.config.threshold_pct)
                    )
                };
                lines.push(("threshold", line));
            }
            None => lines.extend(self.listing_lines()),
        }
        let verdict = match (self.active, self.tokens_to_flip) {
            (true, Some(n)) => format!(
                "ACTIVE: {} tokens of schemas less would deactivate it",
                thousands(n as u64)
            ),
            (false, Some(n)) => format!(
                "INACTIVE: {} tokens of schemas more would activate it",
                thousands(n as u64)
            ),
            (false, _) if self.deferrable_tools == 0 => "INACTIVE: nothing to defer".to_string(),
            (true, None) if self.threshold_tokens.is_none() => format!(
                "ACTIVE, tier {}: this release activates whenever a tool can be deferred",
                self.tier
            ),
            (true, None) => format!("ACTIVE (mode {})", self.config.enabled),
            (false, None) => format!("INACTIVE (mode {})", self.config.enabled),
        };
        lines.push(("verdict", verdict));
        lines
    }

    /// The listing lines (from 0.20.0).
    fn listing_lines(&self) -> Vec<(&'static str, String)> {
        let (Some(budget), Some(form)) = (self.listing_budget, &self.listing_form) else {
            return Vec::new();
        };
        let max = self.config.listing_max_tokens.unwrap_or(0);
        let leg = if self.context_length == 0 {
            "10,000 (context unknown)".to_string()
        } else {
            format!(
                "floor({} x {} / 100)",
                thousands(self.context_length),
                pct_label(self.config.threshold_pct)
            )
        };
        let what = match form.as_str() {
            "full" => "every tool with its short description",
            "names" => "every tool's name",
            "mixed" => "names, with the largest servers summarised",
            "groups" => "each server summarised (no tool names)",
            _ if self.config.listing.as_deref() == Some("off") => "no listing (listing: off)",
            _ => "no listing (not even the server summaries fit)",
        };
        vec![
            (
                "listing budget",
                format!(
                    "{} tokens = min(listing_max_tokens {}, {leg})",
                    thousands(budget),
                    thousands(u64::from(max))
                ),
            ),
            (
                "listing",
                format!(
                    "{form}: {what}, {} chars",
                    thousands(self.listing_chars.unwrap_or(0))
                ),
            ),
        ]
    }

    /// The savings lines, as (label, value).
    fn savings_lines(&self) -> Vec<(&'static str, String)> {
        let money = |d: &Cost| {
            format!(
                "{}/turn, {}/session, {}/month",
                dollars(d.per_turn),
                dollars(d.per_session),
                dollars(d.per_month)
            )
        };
        let after = match (self.active, &self.listing_form) {
            (true, Some(form)) if form != "none" => format!(
                "{} tokens (the 3 bridge tools with the {form} listing)",
                thousands(self.tokens_after)
            ),
            (true, _) => format!(
                "{} tokens (the 3 bridge tools)",
                thousands(self.tokens_after)
            ),
            (false, _) => format!(
                "{} tokens (unchanged: Tool Search inactive)",
                thousands(self.tokens_after)
            ),
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
                    "${:.2} per million input tokens; {} turns a session, {} turns a day, 30 days a month",
                    self.price_per_mtok, self.turns_per_session, self.turns_per_day
                ),
            ),
        ]
    }

    /// What the token columns are, under the server table.
    fn counts_note(&self) -> String {
        if self.servers.iter().any(|s| s.tokens.is_some()) {
            format!("chars/4 drives activation; {}", self.tokenizer.detail)
        } else {
            format!(
                "chars/4 drives activation; with --estimate-only, {} is not counted",
                self.tokenizer.name
            )
        }
    }

    fn to_text(&self) -> String {
        let mut out = format!(
            "schematax report: {} ({}, {}, profile {} for Hermes {})\n\n",
            schematax_engine::text::sanitize(&self.inputs),
            schematax_engine::text::count(self.servers.len(), "server", "servers"),
            schematax_engine::text::count(self.deferrable_tools, "tool", "tools"),
            self.profile,
            self.hermes
        );
        if self.servers.is_empty() {
            out.push_str("No MCP servers are connected: nothing to defer.\n\n");
        } else {
            out.push_str(&self.server_table().to_text());
            out.push_str(&format!("  ({})\n\n", self.counts_note()));
        }
        for row in &self.not_connected {
            out.push_str(&format!(
                "Not connected: {} ({}, {} tokens once fixed): its tool list is refused\n",
                schematax_engine::text::sanitize(&row.server),
                schematax_engine::text::count(row.tools, "tool", "tools"),
                thousands(row.estimate_tokens)
            ));
        }
        if !self.not_connected.is_empty() {
            out.push('\n');
        }
        let labelled = |title: &str, lines: Vec<(&str, String)>| {
            let mut text = format!("{title}\n");
            for (label, value) in lines {
                text.push_str(&format!(
                    "  {label:<15} {}\n",
                    schematax_engine::text::sanitize(&value)
                ));
            }
            text
        };
        out.push_str(&labelled("Tool Search", self.gate_lines()));
        out.push('\n');
        out.push_str(&labelled(
            "Savings per turn (chars/4 tokens of the MCP tool schemas)",
            self.savings_lines(),
        ));
        if !self.warnings.is_empty() {
            out.push_str("\nwarnings\n");
            for warning in &self.warnings {
                out.push_str(&format!(
                    "  - {}\n",
                    schematax_engine::text::sanitize(warning)
                ));
            }
        }
        out
    }

    fn to_markdown(&self) -> String {
        use super::table::escape_markdown;
        let mut out = format!(
            "# schematax report: {}\n\nProfile {} for Hermes {}.\n\n",
            escape_markdown(&self.inputs),
            escape_markdown(&self.profile),
            escape_markdown(&self.hermes)
        );
        out.push_str("## Servers\n\n");
        if self.servers.is_empty() {
            out.push_str("No MCP servers are connected: nothing to defer.\n\n");
        } else {
            out.push_str(&self.server_table().to_markdown());
            out.push_str(&format!("\n{}.\n\n", self.counts_note()));
        }
        for row in &self.not_connected {
            out.push_str(&format!(
                "- Not connected: **{}** ({}, {} tokens once fixed): its tool list is refused\n",
                escape_markdown(&row.server),
                schematax_engine::text::count(row.tools, "tool", "tools"),
                thousands(row.estimate_tokens)
            ));
        }
        if !self.not_connected.is_empty() {
            out.push('\n');
        }
        for (title, lines) in [
            ("Tool Search", self.gate_lines()),
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
pub fn signed_thousands(n: i64) -> String {
    if n < 0 {
        format!("-{}", thousands(n.unsigned_abs()))
    } else {
        thousands(n as u64)
    }
}
