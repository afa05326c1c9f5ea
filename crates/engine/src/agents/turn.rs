//! One turn of an agent: which MCP tools it defers under its rule and settings, and every
//! text it sends for them (full definitions, the listing of deferred tools, its fixed tools,
//! the servers' instructions), with what one search loads.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::Arc;

use schematax_releases::agents::{
    AgentRelease, DeferralRule, DefinitionShape, InstructionsRule, ListingRule, RankingRule,
};

use super::naming::catalog_names;
use super::settings::{AgentSettings, ToolSearchSwitch};
use crate::nouns::json_text::{char_count, estimate_tokens, write_json_string};
use crate::nouns::object_text::ObjectText;
use crate::nouns::tools::{McpTool, ServerCapture};
use crate::tokenizers::{LoadedTokenizer, TokenizerError};

/// Longest full name Claude-style pools keep; a longer tool is dropped from the pool.
const MAX_POOL_NAME_CHARS: usize = 128;

/// One MCP tool as an agent sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnTool {
    /// The name the model sees.
    pub name: String,
    /// Its namespace (the prefixed server, as the agent names it).
    pub namespace: String,
    /// Its tool part.
    pub callable: String,
    /// The server key.
    pub server: String,
    /// The raw MCP tool name.
    pub tool: String,
    /// Index of the server in the captures.
    pub capture: usize,
    /// Index of the tool in its capture.
    pub index: usize,
    /// The full definition as the agent sends it (shared with the turn's parts).
    pub definition: Arc<str>,
    /// The definition as one search loads it (descriptions cut as the agent cuts them): the
    /// definition itself, shared, when nothing is cut.
    pub loaded: Arc<str>,
    /// The agent defers it this turn.
    pub deferred: bool,
}

/// Some texts the agent sends, and their size.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Part {
    /// The texts, as sent: a tool's definition is shared with the tool, not copied.
    pub texts: Vec<Arc<str>>,
    /// Their characters together.
    pub chars: u64,
    /// Their tokens in the counting tokenizer, when one was given.
    pub tokens: Option<u64>,
}

impl Part {
    fn of<T: Into<Arc<str>>>(texts: impl IntoIterator<Item = T>) -> Part {
        let texts: Vec<Arc<str>> = texts.into_iter().map(Into::into).collect();
        let chars = texts.iter().map(|t| char_count(t)).sum();
        Part {
            texts,
            chars,
            tokens: None,
        }
    }

    /// The chars/4 estimate, text by text, as the agents' own estimates sum it.
    pub fn estimate(&self) -> u64 {
        self.texts
            .iter()
            .map(|t| estimate_tokens(char_count(t)))
            .sum()
    }

    fn count(&mut self, tokenizer: &LoadedTokenizer) -> Result<(), TokenizerError> {
        self.tokens = Some(tokenizer.count_all(&self.texts)?.iter().sum());
        Ok(())
    }
}

/// How the figure of a token-share rule was measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ShareMeasure {
    /// The deferrable definitions counted in the tokenizer, less the agent's overhead.
    Tokens {
        /// Their tokens.
        counted: u64,
        /// Tokens taken off.
        overhead: u64,
    },
    /// No tokenizer: the agent's own fallback, characters (UTF-16 code units) of names,
    /// descriptions and schemas against the threshold times its characters per token.
    Chars {
        /// The characters measured.
        chars: u64,
        /// The characters needed.
        needed: u64,
    },
}

/// Why the agent defers, or not, this turn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Activation {
    /// The agent always defers MCP tools.
    Always,
    /// The agent never defers.
    Never,
    /// The caller marks tools as deferred (modelled: every MCP tool).
    CallerMarks,
    /// Nothing can be deferred (every tool is always loaded, or there are none).
    NothingDeferrable,
    /// The agent's setting turns deferral on or off outright.
    Switch {
        /// The setting as read.
        switch: ToolSearchSwitch,
        /// It defers.
        on: bool,
    },
    /// The deferrable tools against a share of the context window.
    TokenShare {
        /// The percent of the window.
        pct: u32,
        /// `floor(window x pct / 100)` tokens.
        threshold: u64,
        /// What was measured.
        measure: ShareMeasure,
        /// It defers.
        on: bool,
        /// The setting was `auto:x` with an `x` that is not a number.
        invalid_setting: bool,
    },
}

impl Activation {
    /// Whether deferral is on.
    pub fn on(&self) -> bool {
        match self {
            Activation::Always | Activation::CallerMarks => true,
            Activation::Never | Activation::NothingDeferrable => false,
            Activation::Switch { on, .. } | Activation::TokenShare { on, .. } => *on,
        }
    }
}

/// One turn of one agent over a catalog.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentTurn {
    /// The agent release whose rules were applied.
    pub release: &'static AgentRelease,
    /// Every tool the agent puts before the model, deferred or not, in pool order.
    pub tools: Vec<TurnTool>,
    /// Tools of the catalog the agent leaves out (filtered, hidden, duplicate or overlong
    /// names), as `server/tool`.
    pub left_out: Vec<String>,
    /// Why it defers, or not.
    pub activation: Activation,
    /// Full definitions sent this turn (tools not deferred).
    pub eager: Part,
    /// Every definition, as sent when nothing is deferred.
    pub all_definitions: Part,
    /// What the model sees of the deferred tools.
    pub listing: Part,
    /// The agent's fixed tools (its search tool and helpers), sent while it defers.
    pub fixed_tools: Part,
    /// The servers' instructions, sent every turn.
    pub instructions: Part,
    /// What one search loads: the agent's default result count of median-sized loaded
    /// definitions.
    pub one_search: Part,
}

impl AgentTurn {
    /// Applies `release`'s rules to `captures` under `settings`. With a tokenizer, every part
    /// is also counted in it (and a token-share rule counts the deferrable definitions);
    /// without, a token-share rule takes the agent's own characters fallback.
    pub fn build(
        release: &'static AgentRelease,
        captures: &[ServerCapture],
        settings: &AgentSettings,
        tokenizer: Option<&LoadedTokenizer>,
    ) -> Result<AgentTurn, TokenizerError> {
        let rules = release.rules;
        let (mut tools, left_out) = pool(release, captures, settings);
        let deferrable: Vec<bool> = tools
            .iter()
            .map(|t| deferrable(release, &captures[t.capture], t, settings))
            .collect();
        // Each definition is counted once: the share rule, the definitions sent whole and all
        // of them read these counts.
        let definition_tokens = match tokenizer {
            Some(tokenizer) => {
                let texts: Vec<&str> = tools.iter().map(|t| &*t.definition).collect();
                Some(tokenizer.count_all(&texts)?)
            }
            None => None,
        };
        let activation = activate(
            release,
            captures,
            &tools,
            &deferrable,
            settings,
            definition_tokens.as_deref(),
        );
        for (tool, can) in tools.iter_mut().zip(&deferrable) {
            tool.deferred = activation.on() && *can;
        }
        let deferring = tools.iter().any(|t| t.deferred);
        let eager = Part::of(
            tools
                .iter()
                .filter(|t| !t.deferred)
                .map(|t| Arc::clone(&t.definition)),
        );
        let all_definitions = Part::of(tools.iter().map(|t| Arc::clone(&t.definition)));
        let listing = Part::of(listing_texts(release, &tools, captures));
        let fixed_tools = Part::of(
            if deferring { rules.fixed_tools } else { &[] }
                .iter()
                .copied(),
        );
        let instructions = Part::of(instruction_texts(&rules.instructions, &tools, captures));
        let one_search = Part::of(
            if deferring && !matches!(rules.ranking, RankingRule::None) {
                one_search_texts(&tools, rules.loading.default_results)
            } else {
                Vec::new()
            },
        );
        let mut turn = AgentTurn {
            release,
            tools,
            left_out,
            activation,
            eager,
            all_definitions,
            listing,
            fixed_tools,
            instructions,
            one_search,
        };
        if let (Some(tokenizer), Some(counts)) = (tokenizer, definition_tokens) {
            turn.all_definitions.tokens = Some(counts.iter().sum());
            turn.eager.tokens = Some(
                turn.tools
                    .iter()
                    .zip(&counts)
                    .filter(|(t, _)| !t.deferred)
                    .map(|(_, n)| n)
                    .sum(),
            );
            for part in [
                &mut turn.listing,
                &mut turn.fixed_tools,
                &mut turn.instructions,
            ] {
                part.count(tokenizer)?;
            }
            // One search loads copies of one definition: counted once.
            let one = match turn.one_search.texts.first() {
                Some(text) => tokenizer.count(text)?,
                None => 0,
            };
            turn.one_search.tokens = Some(one * turn.one_search.texts.len() as u64);
        }
        Ok(turn)
    }

    /// Tools deferred this turn.
    pub fn deferred(&self) -> usize {
        self.tools.iter().filter(|t| t.deferred).count()
    }

    /// Characters sent every turn: eager definitions, the listing, the fixed tools and the
    /// instructions.
    pub fn chars_per_turn(&self) -> u64 {
        self.eager.chars + self.listing.chars + self.fixed_tools.chars + self.instructions.chars
    }

    /// Characters a turn would cost with nothing deferred: every definition and the
    /// instructions.
    pub fn chars_without_deferral(&self) -> u64 {
        self.all_definitions.chars + self.instructions.chars
    }

    /// Tokens sent every turn, when counted.
    pub fn tokens_per_turn(&self) -> Option<u64> {
        Some(
            self.eager.tokens?
                + self.listing.tokens?
                + self.fixed_tools.tokens?
                + self.instructions.tokens?,
        )
    }

    /// Tokens a turn would cost with nothing deferred, when counted.
    pub fn tokens_without_deferral(&self) -> Option<u64> {
        Some(self.all_definitions.tokens? + self.instructions.tokens?)
    }

    /// The chars/4 estimate of a turn, part by part.
    pub fn estimate_per_turn(&self) -> u64 {
        self.eager.estimate()
            + self.listing.estimate()
            + self.fixed_tools.estimate()
            + self.instructions.estimate()
    }

    /// The chars/4 estimate of a turn with nothing deferred.
    pub fn estimate_without_deferral(&self) -> u64 {
        self.all_definitions.estimate() + self.instructions.estimate()
    }
}

/// The tools the agent puts in its pool, in pool order, and those it leaves out.
fn pool(
    release: &'static AgentRelease,
    captures: &[ServerCapture],
    settings: &AgentSettings,
) -> (Vec<TurnTool>, Vec<String>) {
    let rules = release.rules;
    let keyword_pool = matches!(rules.ranking, RankingRule::Keywords { .. });
    let mut tools = Vec::new();
    let mut left_out = Vec::new();
    let mut seen = HashSet::new();
    let names = catalog_names(&rules.naming, captures);
    for (c, capture) in captures.iter().enumerate() {
        let server = settings.servers.get(&capture.server);
        for (i, tool) in capture.tools.iter().enumerate() {
            let Some(named) = names[c][i].clone() else {
                left_out.push(format!("{}/{}", capture.server, tool.name));
                continue;
            };
            let filtered = server.is_some_and(|s| {
                s.exclude_tools.contains(&tool.name)
                    || s.include_tools
                        .as_ref()
                        .is_some_and(|only| !only.contains(&tool.name))
            });
            let name = named.full;
            let hidden = keyword_pool
                && (tool.meta.hidden_from_model || name.chars().count() > MAX_POOL_NAME_CHARS);
            if filtered || hidden || !seen.insert(name.clone()) {
                left_out.push(format!("{}/{}", capture.server, tool.name));
                continue;
            }
            let whole: Arc<str> = definition(rules.definition, &name, tool, None).into();
            // A search loads the definition as sent, unless its description is over the cap.
            let cut = rules.loading.description_chars.filter(|&cap| {
                tool.description
                    .as_deref()
                    .is_some_and(|d| d.len() > cap && d.chars().count() > cap)
            });
            let loaded = match cut {
                Some(cap) => definition(rules.definition, &name, tool, Some(cap)).into(),
                None => Arc::clone(&whole),
            };
            tools.push(TurnTool {
                definition: whole,
                loaded,
                name,
                namespace: named.namespace,
                callable: named.callable,
                server: capture.server.clone(),
                tool: tool.name.clone(),
                capture: c,
                index: i,
                deferred: false,
            });
        }
    }
    if keyword_pool {
        tools.sort_by(|a, b| super::naming::locale_order(&a.name, &b.name));
    }
    (tools, left_out)
}

/// Whether the agent may defer `tool` (before activation decides whether it does).
fn deferrable(
    release: &AgentRelease,
    capture: &ServerCapture,
    tool: &TurnTool,
    settings: &AgentSettings,
) -> bool {
    match release.rules.deferral {
        DeferralRule::Never => false,
        DeferralRule::Always | DeferralRule::CallerMarks => true,
        DeferralRule::SettingWithTokenShare { .. } => {
            let own = capture.tools[tool.index].meta.always_load;
            let server = settings
                .servers
                .get(&capture.server)
                .and_then(|s| s.always_load);
            !own.or(server).unwrap_or(false)
        }
    }
}

fn activate(
    release: &AgentRelease,
    captures: &[ServerCapture],
    tools: &[TurnTool],
    deferrable: &[bool],
    settings: &AgentSettings,
    definition_tokens: Option<&[u64]>,
) -> Activation {
    let activation = match release.rules.deferral {
        DeferralRule::Never => return Activation::Never,
        DeferralRule::Always => Activation::Always,
        DeferralRule::CallerMarks => Activation::CallerMarks,
        DeferralRule::SettingWithTokenShare {
            default_pct,
            overhead_tokens,
            fallback_chars_per_token,
        } => match ToolSearchSwitch::parse(settings.enable_tool_search.as_deref(), default_pct) {
            switch @ (ToolSearchSwitch::Always | ToolSearchSwitch::Never) => Activation::Switch {
                switch,
                on: switch == ToolSearchSwitch::Always,
            },
            ToolSearchSwitch::Auto { pct, invalid } => {
                let threshold = settings.context_window * u64::from(pct) / 100;
                let candidates: Vec<usize> = (0..tools.len()).filter(|&i| deferrable[i]).collect();
                let measure = match definition_tokens {
                    Some(counts) => ShareMeasure::Tokens {
                        counted: candidates.iter().map(|&i| counts[i]).sum(),
                        overhead: overhead_tokens,
                    },
                    None => ShareMeasure::Chars {
                        chars: candidates
                            .iter()
                            .map(|&i| {
                                let t = &tools[i];
                                fallback_chars(t, &captures[t.capture].tools[t.index])
                            })
                            .sum(),
                        // The threshold is at most a few million: exact in f64.
                        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                        needed: (threshold as f64 * fallback_chars_per_token).floor() as u64,
                    },
                };
                let on = match measure {
                    ShareMeasure::Tokens { counted, overhead } => {
                        counted.saturating_sub(overhead) >= threshold
                    }
                    ShareMeasure::Chars { chars, needed } => chars >= needed,
                };
                Activation::TokenShare {
                    pct,
                    threshold,
                    measure,
                    on,
                    invalid_setting: invalid,
                }
            }
        },
    };
    if activation.on() && !deferrable.iter().any(|d| *d) {
        return Activation::NothingDeferrable;
    }
    activation
}

/// Claude Code's offline measure of a tool: UTF-16 code units of its name, description and
/// schema JSON.
fn fallback_chars(tool: &TurnTool, mcp: &McpTool) -> u64 {
    let units = |text: &str| text.encode_utf16().count() as u64;
    units(&tool.name) + units(mcp.description.as_deref().unwrap_or("")) + units(&schema_text(mcp))
}

/// The schema a definition carries: the tool's own, else an empty object schema.
fn schema_text(tool: &McpTool) -> Cow<'_, str> {
    tool.input_schema
        .as_ref()
        .map_or(Cow::Borrowed(r#"{"type":"object"}"#), ObjectText::as_str)
}

/// A tool's definition in `shape`, its description cut at `cap` characters when given.
pub fn definition(
    shape: DefinitionShape,
    name: &str,
    tool: &McpTool,
    cap: Option<usize>,
) -> String {
    let mut out = String::new();
    let description = tool.description.as_deref().unwrap_or("");
    let description: std::borrow::Cow<'_, str> = match cap {
        Some(cap) if description.chars().count() > cap => {
            description.chars().take(cap).collect::<String>().into()
        }
        _ => description.into(),
    };
    let schema = schema_text(tool);
    let (open, schema_key) = match shape {
        DefinitionShape::Anthropic => ("{\"name\":", "input_schema"),
        DefinitionShape::ResponsesFunction => ("{\"type\":\"function\",\"name\":", "parameters"),
        DefinitionShape::GeminiDeclaration => ("{\"name\":", "parametersJsonSchema"),
    };
    out.push_str(open);
    write_json_string(name, &mut out);
    out.push_str(",\"description\":");
    write_json_string(&description, &mut out);
    if shape == DefinitionShape::ResponsesFunction {
        out.push_str(",\"strict\":false");
    }
    out.push_str(",\"");
    out.push_str(schema_key);
    out.push_str("\":");
    out.push_str(&schema);
    out.push('}');
    out
}

fn listing_texts(
    release: &AgentRelease,
    tools: &[TurnTool],
    captures: &[ServerCapture],
) -> Vec<String> {
    let deferred: Vec<&TurnTool> = tools.iter().filter(|t| t.deferred).collect();
    if deferred.is_empty() {
        return Vec::new();
    }
    match release.rules.listing {
        ListingRule::Nothing => Vec::new(),
        ListingRule::NamesOnePerLine {
            open,
            header,
            close,
            newline_after_last,
        } => {
            let mut names: Vec<&str> = deferred.iter().map(|t| t.name.as_str()).collect();
            names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            let mut text = String::from(open);
            if !header.is_empty() {
                text.push_str(header);
                text.push('\n');
            }
            text.push_str(&names.join("\n"));
            if newline_after_last {
                text.push('\n');
            }
            text.push_str(close);
            vec![text]
        }
        ListingRule::Namespaces {
            open,
            close,
            description_chars,
            max_bytes,
            builtin,
        } => {
            let mut entries: Vec<(String, Option<String>)> = Vec::new();
            for tool in deferred {
                let namespace = tool.namespace.clone();
                if entries.iter().any(|(n, _)| *n == namespace) {
                    continue;
                }
                let description = captures[tool.capture]
                    .instructions
                    .as_deref()
                    .and_then(|i| i.lines().next())
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(|l| cut_description(l, description_chars));
                entries.push((namespace, description));
            }
            if !builtin.0.is_empty() {
                entries.push((builtin.0.to_string(), Some(builtin.1.to_string())));
            }
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            vec![super::namespaces::render(open, close, &entries, max_bytes)]
        }
    }
}

fn cut_description(line: &str, max: usize) -> String {
    if line.chars().count() <= max {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(max.saturating_sub(3)).collect();
    cut.push_str("...");
    cut
}

fn instruction_texts(
    rule: &InstructionsRule,
    tools: &[TurnTool],
    captures: &[ServerCapture],
) -> Vec<String> {
    let InstructionsRule::Block {
        open,
        close,
        cap_chars,
        cut_mark,
    } = *rule
    else {
        return Vec::new();
    };
    let connected: HashSet<usize> = tools.iter().map(|t| t.capture).collect();
    let sections: Vec<String> = captures
        .iter()
        .enumerate()
        .filter(|(c, _)| connected.contains(c))
        .filter_map(|(_, capture)| {
            let text = capture.instructions.as_deref()?;
            if text.trim().is_empty() {
                return None;
            }
            let units: Vec<u16> = text.encode_utf16().collect();
            let text = if units.len() > cap_chars {
                String::from_utf16_lossy(&units[..cap_chars]) + cut_mark
            } else {
                text.to_string()
            };
            Some(format!("## {}\n{text}", capture.server))
        })
        .collect();
    if sections.is_empty() {
        return Vec::new();
    }
    vec![format!("{open}{}{close}", sections.join("\n\n"))]
}

/// `results` copies of the median loaded definition of the deferred tools.
fn one_search_texts(tools: &[TurnTool], results: usize) -> Vec<Arc<str>> {
    let loaded: Vec<&TurnTool> = tools.iter().filter(|t| t.deferred).collect();
    if loaded.is_empty() || results == 0 {
        return Vec::new();
    }
    let mut sized: Vec<(u64, &str, &TurnTool)> = loaded
        .iter()
        .map(|t| (char_count(&t.loaded), t.name.as_str(), *t))
        .collect();
    let middle = sized.len() / 2;
    let (_, _, median) = *sized
        .select_nth_unstable_by(middle, |a, b| (a.0, a.1).cmp(&(b.0, b.1)))
        .1;
    vec![Arc::clone(&median.loaded); results.min(loaded.len())]
}
