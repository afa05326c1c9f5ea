//! A simulated Hermes session: the servers, settings and scope in force, with the catalog and
//! search index derived from them and rebuilt on every change (the catalog is stateless).

use serde_json::{Map, Value};
use std::sync::Arc;

use super::activation::{Activation, ContextLength, ContextSource};
use super::bridge;
use super::capture_file::ServerCapture;
use super::catalog::{
    entry, Catalog, Collision, NameGroups, Scope, Server, ToolEntry, ToolFilter, ToolRef,
};
use super::config::{Config, Mode, ToolSearchSettings};
use super::search::{SearchIndex, SearchResult, TermCounts, Vocabulary};
use super::tokens::{count_with_both_encodings, TokenCount};

/// Values given on the command line (or set in the TUI) that win over the config.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    /// `--context N`.
    pub context_length: Option<u64>,
    /// `--threshold-pct P` (clamped to [0, 100]).
    pub threshold_pct: Option<f64>,
    /// `--enabled auto|on|off`.
    pub mode: Option<Mode>,
    /// `--enabled-toolsets` / `--disabled-toolsets`.
    pub scope: Scope,
}

/// The cost of one server's tools in the session's catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ServerCost {
    /// Tools of the server in the catalog.
    pub tools: usize,
    /// Characters of their definitions.
    pub chars: u64,
    /// chars/4 of those characters.
    pub estimate_tokens: u64,
    /// Real token counts, once counted (sums over the tools).
    pub counted: Option<TokenCount>,
}

/// What a reference to a tool resolved to (catalog positions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// Exactly one tool.
    Found(usize),
    /// A raw name several servers share.
    Ambiguous(Vec<usize>),
    /// No tool of the catalog.
    Missing,
}

/// A session: inputs plus derived catalog and index.
#[derive(Debug, Clone)]
pub struct Session {
    /// Immutable tool data, shared with background workers (token counting).
    servers: Arc<Vec<Server>>,
    /// Per server: connected (false when disabled in the config or toggled off).
    connected: Vec<bool>,
    /// Search tokens and name groups of every tool, made once at load.
    corpus: Arc<Corpus>,
    settings: ToolSearchSettings,
    context: ContextLength,
    scope: Scope,
    /// Real token counts per server and tool, when counted.
    token_counts: Vec<Vec<Option<TokenCount>>>,
    catalog: Catalog,
    /// Shared, so a clone for a background worker is cheap.
    index: Arc<SearchIndex>,
    notes: Vec<String>,
}

/// What never changes in a session: every tool's search tokens and the tools grouped by name.
#[derive(Debug)]
struct Corpus {
    vocabulary: Vocabulary,
    /// Per server, per tool.
    documents: Vec<Vec<TermCounts>>,
    groups: NameGroups,
}

impl Session {
    /// Builds the session: with `mcp_servers` in the config, the configured servers that have a
    /// capture, in config order; without, every capture, sorted by server name.
    pub fn new(config: &Config, captures: &[ServerCapture], overrides: &Overrides) -> Session {
        let mut notes = Vec::new();
        let servers: Vec<(Server, bool)> = match &config.mcp_servers {
            Some(configured) => {
                for capture in captures {
                    if !configured.iter().any(|s| s.name == capture.server) {
                        notes.push(format!(
                            "capture {} ({}) is not in mcp_servers: not counted",
                            capture.server,
                            capture.source.display()
                        ));
                    }
                }
                configured
                    .iter()
                    .filter_map(|server| {
                        let Some(capture) = captures.iter().find(|c| c.server == server.name) else {
                            notes.push(format!(
                                "server {} is configured but has no capture: not counted (run `schematax capture`)",
                                server.name
                            ));
                            return None;
                        };
                        if !server.enabled {
                            notes.push(format!("server {} has enabled: false: not counted", server.name));
                        }
                        let filter = ToolFilter {
                            include: server.include.clone(),
                            exclude: server.exclude.clone(),
                        };
                        Some((Server::new(&server.name, &capture.tools, &filter), server.enabled))
                    })
                    .collect()
            }
            None => {
                let mut sorted: Vec<&ServerCapture> = captures.iter().collect();
                sorted.sort_by(|a, b| a.server.cmp(&b.server));
                sorted
                    .into_iter()
                    .map(|c| {
                        (
                            Server::new(&c.server, &c.tools, &ToolFilter::default()),
                            true,
                        )
                    })
                    .collect()
            }
        };
        let mut settings = config.tool_search;
        if let Some(pct) = overrides.threshold_pct {
            settings.threshold_pct = pct.clamp(0.0, 100.0);
        }
        if let Some(mode) = overrides.mode {
            settings.enabled = mode;
        }
        let (servers, connected): (Vec<Server>, Vec<bool>) = servers.into_iter().unzip();
        let token_counts = servers.iter().map(|s| vec![None; s.tools.len()]).collect();
        let mut vocabulary = Vocabulary::default();
        let documents = servers
            .iter()
            .map(|s| {
                s.tools
                    .iter()
                    .map(|e| vocabulary.count_terms(&e.name, &e.description, e.parameter_names()))
                    .collect()
            })
            .collect();
        let groups = NameGroups::new(&servers);
        let mut session = Session {
            servers: Arc::new(servers),
            connected,
            corpus: Arc::new(Corpus {
                vocabulary,
                documents,
                groups,
            }),
            settings,
            context: ContextLength::resolve(overrides.context_length, &config.model),
            scope: overrides.scope.clone(),
            token_counts,
            catalog: Catalog::default(),
            index: Arc::default(),
            notes,
        };
        session.rebuild();
        session
    }

    /// Rebuilds the catalog and index from the current servers and scope (done on every change).
    pub fn rebuild(&mut self) {
        let corpus = &self.corpus;
        self.catalog = Catalog::build(&self.servers, &corpus.groups, &self.connected, &self.scope);
        let documents = self
            .catalog
            .tools
            .iter()
            .map(|&r| &corpus.documents[r.server][r.tool]);
        self.index = Arc::new(SearchIndex::build(&corpus.vocabulary, documents));
    }

    /// All servers of the session, in registration order (connected or not).
    pub fn servers(&self) -> &[Server] {
        &self.servers
    }

    /// The servers' tool data, to share with a background worker.
    pub fn shared_servers(&self) -> Arc<Vec<Server>> {
        Arc::clone(&self.servers)
    }

    /// Whether server `server` is connected.
    pub fn is_connected(&self, server: usize) -> bool {
        self.connected.get(server).copied().unwrap_or(false)
    }

    /// Connects or disconnects a server, as if it were added or removed mid-session.
    pub fn set_connected(&mut self, server: usize, connected: bool) {
        if let Some(slot) = self.connected.get_mut(server) {
            if *slot != connected {
                *slot = connected;
                self.rebuild();
            }
        }
    }

    /// The tool_search settings in force.
    pub fn settings(&self) -> &ToolSearchSettings {
        &self.settings
    }

    /// Sets threshold_pct (clamped to [0, 100]).
    pub fn set_threshold_pct(&mut self, pct: f64) {
        if pct.is_finite() {
            self.settings.threshold_pct = pct.clamp(0.0, 100.0);
        }
    }

    /// Sets the mode.
    pub fn set_mode(&mut self, mode: Mode) {
        self.settings.enabled = mode;
    }

    /// Sets the context length, as `--context` would.
    pub fn set_context_length(&mut self, tokens: u64) {
        self.context = ContextLength {
            tokens,
            source: ContextSource::Flag,
        };
    }

    /// The context length in force and its source.
    pub fn context(&self) -> &ContextLength {
        &self.context
    }

    /// The session scope.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// Assembly notes: unconfigured captures, configured servers without a capture, disabled servers.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Tools that lost a name collision under the current servers.
    pub fn collisions(&self) -> &[Collision] {
        &self.catalog.collisions
    }

    /// The catalog: deferrable, scoped tools in catalog order.
    pub fn catalog(&self) -> impl ExactSizeIterator<Item = &ToolEntry> + '_ {
        self.catalog.tools.iter().map(|&r| entry(&self.servers, r))
    }

    /// Where the catalog entry at position `doc` lives in [`Session::servers`].
    pub fn catalog_ref(&self, doc: usize) -> ToolRef {
        self.catalog.tools[doc]
    }

    /// The catalog entry at catalog position `doc` and its server index.
    pub fn catalog_entry(&self, doc: usize) -> (&ToolEntry, usize) {
        let r = self.catalog.tools[doc];
        (entry(&self.servers, r), r.server)
    }

    /// Finds a catalog entry by Hermes name.
    pub fn find(&self, name: &str) -> Option<(&ToolEntry, usize)> {
        Some(self.catalog_entry(self.position(name)?))
    }

    /// Resolves a user's reference to a catalog tool: a Hermes name, `server/tool`, or a raw
    /// MCP tool name (ambiguous when several servers have it).
    pub fn lookup(&self, reference: &str) -> Lookup {
        if let Some(position) = self.position(reference) {
            return Lookup::Found(position);
        }
        let split = reference.split_once('/');
        let matches: Vec<usize> = self
            .catalog()
            .enumerate()
            .filter(|(_, e)| match split {
                Some((server, tool)) => e.server == server && e.raw_name == tool,
                None => e.raw_name == reference,
            })
            .map(|(position, _)| position)
            .collect();
        match matches.len() {
            0 => Lookup::Missing,
            1 => Lookup::Found(matches[0]),
            _ => Lookup::Ambiguous(matches),
        }
    }

    /// The catalog position of a Hermes name.
    fn position(&self, name: &str) -> Option<usize> {
        self.catalog
            .tools
            .binary_search_by(|&r| entry(&self.servers, r).name.as_str().cmp(name))
            .ok()
    }

    /// Evaluates the gate for the current catalog.
    pub fn activation(&self) -> Activation {
        let chars = self.catalog().map(|e| e.chars).sum();
        Activation::evaluate(
            self.settings.enabled,
            self.settings.threshold_pct,
            self.context.clone(),
            self.catalog.tools.len(),
            chars,
        )
    }

    /// The catalog cost of each server (index-aligned with [`Session::servers`]).
    pub fn server_costs(&self) -> Vec<ServerCost> {
        let mut costs = vec![ServerCost::default(); self.servers.len()];
        let mut counted: Vec<Option<TokenCount>> =
            vec![Some(TokenCount::default()); self.servers.len()];
        for &ToolRef { server, tool } in &self.catalog.tools {
            costs[server].tools += 1;
            costs[server].chars += self.servers[server].tools[tool].chars;
            counted[server] = match (counted[server], self.token_counts[server][tool]) {
                (Some(sum), Some(count)) => Some(sum + count),
                _ => None,
            };
        }
        for (cost, counted) in costs.iter_mut().zip(counted) {
            cost.estimate_tokens = super::tokens::estimate_tokens(cost.chars);
            cost.counted = counted;
        }
        costs
    }

    /// Real token counts of every tool of every server, once given.
    pub fn token_count(&self, server: usize, tool: usize) -> Option<TokenCount> {
        self.token_counts.get(server)?.get(tool).copied().flatten()
    }

    /// Stores real token counts of tools.
    pub fn set_token_counts(&mut self, counts: impl IntoIterator<Item = (ToolRef, TokenCount)>) {
        for (ToolRef { server, tool }, count) in counts {
            if let Some(slot) = self
                .token_counts
                .get_mut(server)
                .and_then(|s| s.get_mut(tool))
            {
                *slot = Some(count);
            }
        }
    }

    /// Whether every tool has its real token counts.
    pub fn tokens_counted(&self) -> bool {
        self.token_counts.iter().flatten().all(Option::is_some)
    }

    /// Runs `tool_search` for `query` with `limit` hits at most (already resolved).
    pub fn search(&self, query: &str, limit: usize) -> SearchResult {
        self.index.search(&self.corpus.vocabulary, query, limit)
    }

    /// How well catalog tool `target` answers the whole search text of catalog tool `query`,
    /// relative to how well `query` answers itself (1.0 = as well; BM25 scores).
    pub fn relative_score(&self, query: usize, target: usize) -> f64 {
        let terms = self.catalog_terms(query);
        let own = self.index.score_terms(terms, query);
        if own <= 0.0 {
            return 0.0;
        }
        self.index.score_terms(terms, target) / own
    }

    fn catalog_terms(&self, doc: usize) -> &TermCounts {
        let r = self.catalog.tools[doc];
        &self.corpus.documents[r.server][r.tool]
    }

    /// Catalog size seen by `tool_search` (`total_available`).
    pub fn total_available(&self) -> usize {
        self.catalog.tools.len()
    }

    /// The exact `tool_search` payload the model receives for `result`.
    pub fn search_payload(&self, query: &str, result: &SearchResult) -> Value {
        bridge::tool_search_payload(
            query,
            self.total_available(),
            result.hits.iter().map(|hit| {
                let (e, server) = self.catalog_entry(hit.doc);
                (e, self.servers[server].toolset.as_str())
            }),
        )
    }

    /// The `tool_describe` payload for `name`, or the error the model gets.
    pub fn describe(&self, name: &str) -> Result<Value, String> {
        let found = self.find(name);
        if let Some(error) = bridge::name_error(name, found.is_some()) {
            return Err(error);
        }
        Ok(bridge::tool_describe_payload(
            found.expect("name_error checks presence").0,
        ))
    }

    /// Checks a `tool_call`: the name must be in the catalog and the arguments an object.
    pub fn call(&self, name: &str, arguments: &Value) -> Result<Map<String, Value>, String> {
        if let Some(error) = bridge::name_error(name, self.find(name).is_some()) {
            return Err(error);
        }
        bridge::call_arguments(arguments)
    }
}

/// Real token counts of every tool of `servers`. Loads both
/// encoders, which takes a noticeable fraction of a second: never call it on a UI thread.
pub fn count_tokens(servers: &[Server]) -> Result<Vec<(ToolRef, TokenCount)>, String> {
    use rayon::prelude::*;
    let places: Vec<ToolRef> = servers
        .iter()
        .enumerate()
        .flat_map(|(server, s)| (0..s.tools.len()).map(move |tool| ToolRef { server, tool }))
        .collect();
    let definitions: Vec<String> = places
        .par_iter()
        .map(|&place| entry(servers, place).definition())
        .collect();
    let counts = count_with_both_encodings(&definitions)?;
    Ok(places.into_iter().zip(counts).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::capture_file::parse_capture;

    fn capture(server: &str, tools: &str) -> ServerCapture {
        parse_capture(
            format!("{{\"server\":\"{server}\",\"tools\":{tools}}}").as_bytes(),
            server,
        )
        .unwrap()
    }

    fn captures() -> Vec<ServerCapture> {
        vec![
            capture(
                "zed",
                r#"[{"name":"open","description":"Open a file in the editor"}]"#,
            ),
            capture(
                "git",
                r#"[{"name":"commit","description":"Record changes"},{"name":"push","description":"Upload commits"}]"#,
            ),
        ]
    }

    #[test]
    fn without_mcp_servers_every_capture_counts_in_name_order() {
        let s = Session::new(&Config::default(), &captures(), &Overrides::default());
        let names: Vec<_> = s.servers().iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["git", "zed"]);
        assert_eq!(s.total_available(), 3);
        assert!(s.notes().is_empty());
    }

    #[test]
    fn with_mcp_servers_only_configured_enabled_servers_count() {
        let config = Config::parse(b"mcp_servers:\n  zed: {command: z, tools: {exclude: [x]}}\n  ghost: {command: g}\n  off: {command: o, enabled: false}").unwrap();
        let mut all = captures();
        all.push(capture("off", r#"[{"name":"t"}]"#));
        let s = Session::new(&config, &all, &Overrides::default());
        let names: Vec<_> = s
            .servers()
            .iter()
            .enumerate()
            .map(|(i, srv)| (srv.name.as_str(), s.is_connected(i)))
            .collect();
        assert_eq!(names, [("zed", true), ("off", false)]);
        assert_eq!(s.total_available(), 1);
        assert_eq!(s.notes().len(), 3, "{:?}", s.notes());
    }

    #[test]
    fn toggling_a_server_rebuilds_catalog_and_gate() {
        let mut s = Session::new(
            &Config::default(),
            &captures(),
            &Overrides {
                mode: Some(Mode::On),
                ..Default::default()
            },
        );
        let before = s.activation();
        s.set_connected(0, false);
        let after = s.activation();
        assert_eq!((before.deferrable_tools, after.deferrable_tools), (3, 1));
        assert!(after.deferrable_chars < before.deferrable_chars);
        assert_eq!(s.search("commit", 5).hits.len(), 0);
        s.set_connected(0, true);
        assert_eq!(s.search("commit", 5).hits.len(), 1);
    }

    #[test]
    fn describe_and_call_respect_the_session() {
        let scoped = Overrides {
            scope: Scope {
                enabled_toolsets: Some(vec!["git".into()]),
                disabled_toolsets: vec![],
            },
            ..Default::default()
        };
        let s = Session::new(&Config::default(), &captures(), &scoped);
        assert_eq!(s.describe("mcp_git_push").unwrap()["name"], "mcp_git_push");
        assert_eq!(
            s.describe("mcp_zed_open").unwrap_err(),
            bridge::not_available_message("mcp_zed_open")
        );
        assert!(s.call("mcp_git_push", &serde_json::json!({"a": 1})).is_ok());
        assert!(s.call("tool_search", &serde_json::json!({})).is_err());
    }

    #[test]
    fn lookup_by_hermes_server_slash_or_raw_name() {
        let mut all = captures();
        all.push(capture("hg", r#"[{"name":"commit"}]"#));
        let s = Session::new(&Config::default(), &all, &Overrides::default());
        let name_of = |l: Lookup| match l {
            Lookup::Found(p) => s.catalog_entry(p).0.name.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(name_of(s.lookup("mcp_git_push")), "mcp_git_push");
        assert_eq!(name_of(s.lookup("push")), "mcp_git_push");
        assert_eq!(name_of(s.lookup("hg/commit")), "mcp_hg_commit");
        assert!(matches!(s.lookup("commit"), Lookup::Ambiguous(v) if v.len() == 2));
        assert_eq!(s.lookup("nope"), Lookup::Missing);
    }

    #[test]
    fn server_costs_sum_counts_only_when_all_are_known() {
        let mut s = Session::new(&Config::default(), &captures(), &Overrides::default());
        assert_eq!(s.server_costs()[0].counted, None);
        s.set_token_counts([
            (
                ToolRef { server: 0, tool: 0 },
                TokenCount {
                    o200k: 3,
                    cl100k: 4,
                },
            ),
            (
                ToolRef { server: 0, tool: 1 },
                TokenCount {
                    o200k: 1,
                    cl100k: 1,
                },
            ),
        ]);
        assert_eq!(
            s.server_costs()[0].counted,
            Some(TokenCount {
                o200k: 4,
                cl100k: 5
            })
        );
        assert!(!s.tokens_counted());
    }
}
