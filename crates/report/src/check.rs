//! `schematax check`: a budget gate for CI. The MCP tool schemas of a config are held to a
//! token budget (in all, per server) and, against a baseline (an earlier
//! `report --format json`), to a largest growth; the verdict is the exit code, and the summary
//! says which servers and tools grew, by how much, and whether Tool Search's activation flips.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

use crate::cost::{CostReport, ToolRow, REPORT_VERSION};
use crate::table::{escape_markdown, Align, Table};
use crate::thousands;
use crate::tokenizer::TokenizerSummary;
use schematax_engine::inputs::error::{read_limited, InputError};
use schematax_engine::tokenizers::LoadedTokenizer;

/// Largest baseline file read.
const MAX_BASELINE_BYTES: u64 = schematax_engine::inputs::capture_file::MAX_CAPTURE_BYTES * 2;
/// Tools listed as grown, shrunk, added or removed, at most.
const TOOLS_LISTED: usize = 20;

/// What the schemas are held to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Budget {
    /// Most chars/4 tokens of every MCP tool schema together.
    pub max_tokens: Option<u64>,
    /// Most chars/4 tokens per server.
    pub per_server: Vec<(String, u64)>,
    /// Largest growth in percent against the baseline, in all and per server.
    pub max_increase_pct: Option<f64>,
}

/// An earlier `report --format json`: what the schemas were.
#[derive(Debug, Clone, Deserialize)]
pub struct Baseline {
    profile: String,
    hermes: String,
    config_path: String,
    tokens_before: u64,
    active: bool,
    servers: Vec<BaselineServer>,
    tools: Vec<ToolRow>,
    sent: BaselineSent,
}

#[derive(Debug, Clone, Deserialize)]
struct BaselineServer {
    server: String,
    estimate_tokens: u64,
}

#[derive(Debug, Clone, Deserialize)]
struct BaselineSent {
    tools: Vec<String>,
}

/// Only the version, read first: a report of another shape is named as such.
#[derive(Deserialize)]
struct VersionOnly {
    report_version: Option<u32>,
}

impl Baseline {
    /// Reads a baseline, refusing a file that is not a `report --format json` of this version.
    pub fn load(path: &Path) -> Result<Baseline, InputError> {
        let bytes = read_limited(path, MAX_BASELINE_BYTES)?;
        let fail = |reason: String| InputError::new(path, reason);
        let version: VersionOnly =
            serde_json::from_slice(&bytes).map_err(|e| fail(format!("not JSON: {e}")))?;
        match version.report_version {
            None => Err(fail(
                "not a `schematax report --format json` (no report_version)".into(),
            )),
            Some(v) if v != REPORT_VERSION => Err(fail(format!(
                "a report of version {v}; this schematax reads version {REPORT_VERSION}: make the baseline again"
            ))),
            Some(_) => serde_json::from_slice(&bytes)
                .map_err(|e| fail(format!("not a complete report: {e}"))),
        }
    }

    /// Refuses a baseline of another config (the figures would not be comparable).
    pub fn check_config(&self, path: &Path, current: &CostReport) -> Result<(), InputError> {
        // The same file, however its path was written (`./hermes.yaml`, `hermes.yaml`), and
        // from wherever the baseline was made: its relative path is also read from the
        // baseline file's folder (a baseline kept beside its config).
        let canonical = |p: &Path| std::fs::canonicalize(p).ok();
        let now = canonical(Path::new(&current.config_path));
        let recorded = Path::new(&self.config_path);
        let beside = path.parent().map(|folder| folder.join(recorded));
        let same_file = now.is_some()
            && (canonical(recorded) == now || beside.and_then(|b| canonical(&b)) == now);
        if self.config_path != current.config_path && !same_file {
            return Err(InputError::new(
                path,
                format!(
                    "a report of {}, not of {}: make the baseline from the same config",
                    self.config_path, current.config_path
                ),
            ));
        }
        Ok(())
    }
}

/// One figure held to a limit.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Gate {
    /// `total`, or a server's name.
    pub scope: String,
    /// chars/4 tokens now.
    pub tokens: u64,
    /// chars/4 tokens in the baseline (null without one, or for a server it lacks).
    pub baseline_tokens: Option<u64>,
    /// Growth against the baseline, in percent.
    pub change_pct: Option<f64>,
    /// The token budget (null when none applies).
    pub budget: Option<u64>,
    /// The largest growth allowed, in percent.
    pub max_increase_pct: Option<f64>,
    /// Why it fails: `over budget`, `grew too much`, both, or null when it passes.
    pub failure: Option<String>,
}

/// A tool whose definition changed against the baseline.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ToolChange {
    /// Its server.
    pub server: String,
    /// Its raw MCP name.
    pub tool: String,
    /// chars/4 tokens before (null for a new tool).
    pub before: Option<u64>,
    /// chars/4 tokens now (null for a removed tool).
    pub after: Option<u64>,
    /// The change in chars/4 tokens.
    pub delta: i64,
    /// The change in the report's tokenizer's tokens (null when not counted).
    pub tokens_delta: Option<i64>,
}

/// The whole `check` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CheckReport {
    /// Whether every gate passes.
    pub pass: bool,
    /// The profile and the releases it replays.
    pub profile: String,
    /// The Hermes releases of the profile.
    pub hermes: String,
    /// What was loaded, in words.
    pub inputs: String,
    /// The total first, then each server.
    pub gates: Vec<Gate>,
    /// The tokenizer of `tokens` and `tokens_delta`: the configured model's.
    pub tokenizer: TokenizerSummary,
    /// The tokens of every schema now in `tokenizer` (null with `--estimate-only`).
    pub tokens: Option<u64>,
    /// Whether Tool Search is active now.
    pub active: bool,
    /// Whether it was in the baseline.
    pub baseline_active: Option<bool>,
    /// The baseline's profile, when it differs from this one.
    pub baseline_profile: Option<String>,
    /// Tools that changed, largest growth first (20 at most).
    pub tool_changes: Vec<ToolChange>,
    /// Tools that changed, in all.
    pub tools_changed: usize,
    /// What the config and the captures say was read otherwise than written, or skipped
    /// (the same lines as `report`'s).
    pub warnings: Vec<String>,
    /// Where each figure comes from, for SARIF locations: `total` the config (or the first
    /// capture), each server its capture file.
    #[serde(skip)]
    pub sources: BTreeMap<String, String>,
}

/// The verdict of one figure.
fn gate(
    scope: &str,
    tokens: u64,
    baseline_tokens: Option<u64>,
    budget: Option<u64>,
    max_increase_pct: Option<f64>,
) -> Gate {
    let change_pct = baseline_tokens.map(|before| {
        if before == 0 {
            if tokens == 0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (tokens as f64 - before as f64) * 100.0 / before as f64
        }
    });
    let over = budget.is_some_and(|b| tokens > b);
    let grew = matches!((change_pct, max_increase_pct), (Some(c), Some(m)) if c > m);
    let failure = match (over, grew) {
        (true, true) => Some("over budget and grew too much".to_string()),
        (true, false) => Some("over budget".to_string()),
        (false, true) => Some("grew too much".to_string()),
        (false, false) => None,
    };
    Gate {
        scope: scope.to_string(),
        tokens,
        baseline_tokens,
        change_pct: change_pct.filter(|c| c.is_finite()),
        budget,
        max_increase_pct: max_increase_pct.filter(|_| baseline_tokens.is_some()),
        failure,
    }
}

impl CheckReport {
    /// Holds `current` to `budget`, against `baseline` when there is one. The changed tools'
    /// definitions are counted with `tokenizer` too, when there is one.
    pub fn build(
        current: &CostReport,
        baseline: Option<&Baseline>,
        budget: &Budget,
        tokenizer: Option<&LoadedTokenizer>,
        sources: BTreeMap<String, String>,
    ) -> CheckReport {
        let mut gates = vec![gate(
            "total",
            current.tokens_before,
            baseline.map(|b| b.tokens_before),
            budget.max_tokens,
            budget.max_increase_pct,
        )];
        for server in &current.servers {
            let limit = budget
                .per_server
                .iter()
                .find(|(name, _)| *name == server.server)
                .map(|(_, tokens)| *tokens);
            let before = baseline.and_then(|b| {
                b.servers
                    .iter()
                    .find(|s| s.server == server.server)
                    .map(|s| s.estimate_tokens)
            });
            gates.push(gate(
                &server.server,
                server.estimate_tokens,
                before,
                limit,
                budget.max_increase_pct,
            ));
        }
        let (tool_changes, tools_changed) = match baseline {
            Some(baseline) => tool_changes(current, baseline, tokenizer),
            None => (Vec::new(), 0),
        };
        let tokens = current
            .servers
            .iter()
            .map(|s| s.tokens)
            .sum::<Option<u64>>();
        CheckReport {
            pass: gates.iter().all(|g| g.failure.is_none()),
            profile: current.profile.clone(),
            hermes: current.hermes.clone(),
            inputs: current.inputs.clone(),
            gates,
            tokenizer: current.tokenizer.clone(),
            tokens,
            active: current.active,
            baseline_active: baseline.map(|b| b.active),
            baseline_profile: baseline
                .filter(|b| b.profile != current.profile)
                .map(|b| format!("{} (Hermes {})", b.profile, b.hermes)),
            tool_changes,
            tools_changed,
            warnings: current.warnings.clone(),
            sources,
        }
    }

    /// Renders as text, Markdown (for a pull-request comment), JSON or SARIF.
    pub fn render(&self, format: CheckFormat) -> String {
        match format {
            CheckFormat::Table => self.to_text(),
            CheckFormat::Markdown => self.to_markdown(),
            CheckFormat::Json => super::to_json(self),
            CheckFormat::Sarif => super::to_json(&self.sarif()),
        }
    }

    fn verdict(&self) -> &'static str {
        if self.pass {
            "PASS"
        } else {
            "FAIL"
        }
    }

    fn headline(&self) -> String {
        format!(
            "schematax check: {} ({} tokens of MCP tool schemas a turn by chars/4{}), profile {} for Hermes {}: {}",
            self.inputs,
            thousands(self.gates[0].tokens),
            self.tokens
                .map(|t| format!(", {} {}", thousands(t), self.tokenizer.name))
                .unwrap_or_default(),
            self.profile,
            self.hermes,
            self.verdict()
        )
    }

    fn activation_line(&self) -> String {
        let state = |active: bool| if active { "active" } else { "inactive" };
        match self.baseline_active {
            Some(before) if before != self.active => format!(
                "Tool Search flips: {} in the baseline, {} now",
                state(before),
                state(self.active)
            ),
            Some(_) => format!("Tool Search stays {}", state(self.active)),
            None => format!("Tool Search is {}", state(self.active)),
        }
    }

    /// The gates that hold something (a budget or a baseline), the total always.
    fn shown_gates(&self) -> impl Iterator<Item = &Gate> {
        self.gates.iter().enumerate().filter_map(|(i, g)| {
            (i == 0 || g.budget.is_some() || g.baseline_tokens.is_some() || g.failure.is_some())
                .then_some(g)
        })
    }

    fn gate_table(&self) -> Table {
        // The baseline's columns only when there is one.
        let against = self.baseline_active.is_some();
        let mut columns = vec![("", Align::Left), ("tokens", Align::Right)];
        if against {
            columns.extend([("baseline", Align::Right), ("change", Align::Right)]);
        }
        columns.extend([("limit", Align::Right), ("verdict", Align::Left)]);
        let mut table = Table::new(&columns);
        for g in self.shown_gates() {
            let mut row = vec![g.scope.clone(), thousands(g.tokens)];
            if against {
                row.push(g.baseline_tokens.map_or("-".into(), thousands));
                row.push(match (g.change_pct, g.baseline_tokens) {
                    (Some(c), _) => format!("{c:+.1}%"),
                    (None, Some(_)) => "from 0".into(),
                    (None, None) => "new server".into(),
                });
            }
            row.push(limits(g));
            row.push(g.failure.clone().unwrap_or_else(|| "ok".into()));
            table.row(row);
        }
        table
    }

    fn tool_table(&self) -> Table {
        let counted = format!("{} change", self.tokenizer.name);
        let mut table = Table::new(&[
            ("server", Align::Left),
            ("tool", Align::Left),
            ("before", Align::Right),
            ("after", Align::Right),
            ("change", Align::Right),
            (counted.as_str(), Align::Right),
        ]);
        for t in &self.tool_changes {
            table.row([
                t.server.clone(),
                t.tool.clone(),
                t.before.map_or("new".into(), thousands),
                t.after.map_or("removed".into(), thousands),
                format!("{:+}", t.delta),
                t.tokens_delta.map_or("-".into(), |d| format!("{d:+}")),
            ]);
        }
        table
    }

    fn more_tools(&self) -> Option<String> {
        (self.tools_changed > self.tool_changes.len()).then(|| {
            format!(
                "and {} more changed tools",
                thousands((self.tools_changed - self.tool_changes.len()) as u64)
            )
        })
    }

    fn to_text(&self) -> String {
        let mut out = format!(
            "{}\n\n{}\n{}\n",
            schematax_engine::text::sanitize(&self.headline()),
            self.gate_table().to_text(),
            self.activation_line()
        );
        if let Some(profile) = &self.baseline_profile {
            out.push_str(&format!(
                "the baseline was made under {}\n",
                schematax_engine::text::sanitize(profile)
            ));
        }
        if !self.tool_changes.is_empty() {
            out.push_str(&format!(
                "\nTools that changed (chars/4 tokens), largest growth first\n\n{}\n",
                self.tool_table().to_text()
            ));
            if let Some(more) = self.more_tools() {
                out.push_str(&format!("{more}\n"));
            }
        }
        for warning in &self.warnings {
            out.push_str(&format!(
                "warning: {}\n",
                schematax_engine::text::sanitize(warning)
            ));
        }
        out
    }

    fn to_markdown(&self) -> String {
        let mark = if self.pass { "✅" } else { "❌" };
        let mut out = format!(
            "### {mark} {}\n\n{}\n{}.\n",
            escape_markdown(&self.headline()),
            self.gate_table().to_markdown(),
            self.activation_line()
        );
        if let Some(profile) = &self.baseline_profile {
            out.push_str(&format!(
                "\nThe baseline was made under {}.\n",
                escape_markdown(profile)
            ));
        }
        if !self.tool_changes.is_empty() {
            out.push_str(&format!(
                "\n<details><summary>{} changed</summary>\n\n{}\n",
                schematax_engine::text::count(self.tools_changed, "tool", "tools"),
                self.tool_table().to_markdown()
            ));
            if let Some(more) = self.more_tools() {
                out.push_str(&format!("\n{more}\n"));
            }
            out.push_str("\n</details>\n");
        }
        if !self.warnings.is_empty() {
            out.push('\n');
            for warning in &self.warnings {
                out.push_str(&format!("- warning: {}\n", escape_markdown(warning)));
            }
        }
        out
    }

    /// SARIF 2.1.0: one result per failing gate.
    fn sarif(&self) -> serde_json::Value {
        let results: Vec<serde_json::Value> = self
            .gates
            .iter()
            .filter_map(|g| {
                let failure = g.failure.as_ref()?;
                // Code scanning needs a file for every result.
                let uri = self
                    .sources
                    .get(&g.scope)
                    .or_else(|| self.sources.values().next())
                    .map_or("hermes.yaml", String::as_str);
                Some(serde_json::json!({
                    "ruleId": "schema-budget",
                    "level": "error",
                    "message": {"text": sarif_message(g, failure)},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": {"uri": super::sarif_uri(uri)},
                        "region": {"startLine": 1},
                    }}],
                }))
            })
            .collect();
        serde_json::json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {
                    "name": "schematax",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": [{
                        "id": "schema-budget",
                        "shortDescription": {"text": "MCP tool schemas over their token budget, or grown past the allowed increase"},
                    }],
                }},
                "results": results,
            }],
        })
    }
}

/// A failing gate in words: its tokens, then beside each limit it broke, the figure that broke
/// it (the budget beside the tokens, the growth beside the allowed increase).
fn sarif_message(g: &Gate, failure: &str) -> String {
    let mut broken = Vec::new();
    if let Some(budget) = g.budget.filter(|b| g.tokens > *b) {
        broken.push(format!("over its budget of {}", thousands(budget)));
    }
    if let (Some(max), Some(before)) = (g.max_increase_pct, g.baseline_tokens) {
        let grown = g
            .change_pct
            .map_or("from 0".into(), |c| format!("{c:+.1}%"));
        if g.change_pct.is_none_or(|c| c > max) {
            broken.push(format!(
                "{grown} against the baseline's {}, more than the +{}% allowed",
                thousands(before),
                super::pct_label(max)
            ));
        }
    }
    if broken.is_empty() {
        broken.push(failure.to_string());
    }
    format!(
        "{}: {} chars/4 tokens of MCP tool schemas, {}",
        g.scope,
        thousands(g.tokens),
        broken.join(", and ")
    )
}

/// A gate's limits in words: `20,000`, `+5%`, `20,000, +5%` or `-`.
fn limits(g: &Gate) -> String {
    let parts: Vec<String> = g
        .budget
        .map(thousands)
        .into_iter()
        .chain(
            g.max_increase_pct
                .map(|m| format!("+{}%", super::pct_label(m))),
        )
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

/// `new - old` as a signed count, held to `i64`'s range (a baseline may hold any number).
fn difference(new: u64, old: u64) -> i64 {
    let exact = i128::from(new) - i128::from(old);
    i64::try_from(exact).unwrap_or(if exact > 0 { i64::MAX } else { i64::MIN })
}

/// The tools whose definitions changed, largest growth first, with their change in
/// `tokenizer`'s tokens when there is one; and how many changed in all.
fn tool_changes(
    current: &CostReport,
    baseline: &Baseline,
    tokenizer: Option<&LoadedTokenizer>,
) -> (Vec<ToolChange>, usize) {
    type Key = (String, String);
    let index = |tools: &[ToolRow], sent: Vec<String>| -> BTreeMap<Key, (u64, String)> {
        tools
            .iter()
            .zip(sent.into_iter().chain(std::iter::repeat(String::new())))
            .map(|(t, definition)| {
                (
                    (t.server.clone(), t.tool.clone()),
                    (t.estimate_tokens, definition),
                )
            })
            .collect()
    };
    let before = index(&baseline.tools, baseline.sent.tools.clone());
    let after = index(&current.tools, current.sent.definitions().collect());
    let keys: std::collections::BTreeSet<&Key> = before.keys().chain(after.keys()).collect();
    let mut changes: Vec<(ToolChange, String, String)> = keys
        .into_iter()
        .filter_map(|key| {
            let (old, new) = (before.get(key), after.get(key));
            if old.map(|o| &o.1) == new.map(|n| &n.1) {
                return None;
            }
            let tokens = |side: Option<&(u64, String)>| side.map(|s| s.0);
            let delta = difference(tokens(new).unwrap_or(0), tokens(old).unwrap_or(0));
            Some((
                ToolChange {
                    server: key.0.clone(),
                    tool: key.1.clone(),
                    before: tokens(old),
                    after: tokens(new),
                    delta,
                    tokens_delta: None,
                },
                old.map(|o| o.1.clone()).unwrap_or_default(),
                new.map(|n| n.1.clone()).unwrap_or_default(),
            ))
        })
        .collect();
    let total = changes.len();
    changes.sort_by(|a, b| b.0.delta.cmp(&a.0.delta).then(a.0.tool.cmp(&b.0.tool)));
    changes.truncate(TOOLS_LISTED);
    if let Some(tokenizer) = tokenizer {
        let texts: Vec<&str> = changes
            .iter()
            .flat_map(|(_, old, new)| [old.as_str(), new.as_str()])
            .collect();
        // The current definitions were all counted already; a baseline's definition the
        // tokenizer.json cannot count leaves the changes without a token delta (null).
        if let Ok(counts) = tokenizer.count_all(&texts) {
            for (change, pair) in changes.iter_mut().zip(counts.chunks(2)) {
                change.0.tokens_delta = Some(difference(pair[1], pair[0]));
            }
        }
    }
    (changes.into_iter().map(|c| c.0).collect(), total)
}

/// `--format` of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CheckFormat {
    /// Aligned plain text for a terminal.
    #[default]
    Table,
    /// GitHub-flavoured Markdown, for a pull-request comment.
    Markdown,
    /// Pretty-printed JSON.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}
