//! A simulated Hermes session under one engine profile: the servers, settings and scope in
//! force, with the catalog, search index and listing derived from them and rebuilt on every
//! change (the catalog is stateless). A session that may never search (the cost figures
//! alone) builds its search index the first time a search asks ([`SearchIndexing`]).

use rayon::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use crate::nouns::config::{Config, Mode, Scalar, ToolSearchSettings};
use crate::nouns::json_text::estimate_tokens;
use crate::nouns::tools::{ServerCapture, SkipReason};
use crate::replay::activation::{Activation, ContextLength, ContextSource};
use crate::replay::bridge;
use crate::replay::catalog::{
    entry, hermes_name, Catalog, Collision, NameGroups, Scope, Server, ToolEntry, ToolFilter,
    ToolRef,
};
use crate::replay::listing::{CatalogListing, ListingGroup};
use crate::replay::search::{
    resolve_limit, search_text, Admitted, Asked, SearchIndex, SearchResult, SearchWork, TermCounts,
    TokenisedGroup, Vocabulary,
};
use crate::tokenizers::{choose, LoadedTokenizer, TokenizerChoice, TokenizerError};
use schematax_releases::Dispatch;
use schematax_releases::{Profile, SentenceEnd};

/// Values given on the command line (or set in the TUI) that win over the config.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    /// `--profile` (else `schematax.profile`, else seed).
    pub profile: Option<Profile>,
    /// `--context N`.
    pub context_length: Option<u64>,
    /// Where an overriding context length comes from (`--context`, or the view).
    pub context_source: Option<ContextSource>,
    /// `--threshold-pct P` (clamped to [0, 100]).
    pub threshold_pct: Option<f64>,
    /// `--enabled auto|on|off`.
    pub mode: Option<Mode>,
    /// `listing` (releases from 0.20.0), as tuned in the view.
    pub listing: Option<Mode>,
    /// `listing_max_tokens` (releases from 0.20.0), as tuned in the view (clamped to [200, 60000]).
    pub listing_max_tokens: Option<u32>,
    /// `--enabled-toolsets` / `--disabled-toolsets`.
    pub scope: Scope,
    /// The tokenizer real counts are in (`--tokenizer`, `--model`, or the config's model as
    /// found in the Hugging Face cache); else chosen from the config's model by its family.
    pub tokenizer: Option<TokenizerChoice>,
}

impl Overrides {
    /// The profile a session of `config` runs: `--profile`, else the config's, else seed.
    pub fn profile_for(&self, config: &Config) -> Profile {
        self.profile.or(config.profile).unwrap_or_default()
    }

    /// The settings of `config` under `profile` with these overrides applied.
    pub fn settings(&self, config: &Config, profile: Profile) -> ToolSearchSettings {
        self.apply(*config.tool_search(profile), profile)
    }

    /// `configured` (a config's settings under `profile`) with these overrides applied, each
    /// through its setting's one clamp.
    pub fn apply(&self, configured: ToolSearchSettings, profile: Profile) -> ToolSearchSettings {
        let mut settings = configured;
        if let Some(pct) = self.threshold_pct.filter(|pct| pct.is_finite()) {
            settings.threshold_pct = ToolSearchSettings::clamp_threshold_pct(pct);
        }
        if let Some(mode) = self.mode {
            settings.enabled = mode;
        }
        if let Some(listing) = self.listing {
            settings.listing = listing;
        }
        if let Some(tokens) = self
            .listing_max_tokens
            .and_then(|max| ToolSearchSettings::clamp_listing_max_tokens(i64::from(max), profile))
        {
            settings.listing_max_tokens = tokens;
        }
        settings
    }

    /// The context length in force: an overriding one (from its source), else `configured`
    /// (what the config's model gives).
    pub fn context(&self, configured: &ContextLength) -> ContextLength {
        match self.context_length {
            Some(tokens) => ContextLength {
                tokens,
                source: self.context_source.clone().unwrap_or(ContextSource::Flag),
            },
            None => configured.clone(),
        }
    }
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
    /// Real token counts in the session's tokenizer, once every tool is counted (a sum).
    pub counted: Option<u64>,
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

/// Something about how the session was assembled that the user should know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A capture of a server the config does not list.
    NotConfigured {
        /// The server.
        server: String,
        /// The capture file.
        source: String,
    },
    /// A configured, enabled server with no capture.
    NoCapture {
        /// The server.
        server: String,
    },
    /// A configured server with `enabled: false`.
    Disabled {
        /// The server.
        server: String,
    },
    /// A tool with no `inputSchema`: Hermes's MCP client rejects the server's whole
    /// `tools/list`, so Hermes does not connect the server, and it is not counted.
    NoInputSchema {
        /// The server.
        server: String,
        /// The first such tool.
        tool: String,
        /// How many of its tools have none.
        tools: usize,
    },
    /// Another entry of the server's tool list that Hermes's MCP client refuses (and with it
    /// the whole list): the server is not connected, and not counted.
    Refused {
        /// The server.
        server: String,
        /// Which entry of its tool list (1-based).
        position: usize,
        /// Why the client refuses it.
        reason: SkipReason,
    },
    /// A toolset named in the session scope that no server has (a typo empties the session).
    UnknownToolset {
        /// Which list: `enabled_toolsets` or `disabled_toolsets`.
        list: &'static str,
        /// The name given.
        name: String,
        /// The closest toolset or server name, when one is close.
        suggestion: Option<String>,
    },
}

/// The toolsets of `scope` that name no server, each with the closest name there is.
fn unknown_toolsets(scope: &Scope, servers: &[Server]) -> Vec<Note> {
    let known: Vec<&str> = servers
        .iter()
        .flat_map(|s| [s.toolset.as_str(), s.name.as_str()])
        .collect();
    let lists = [
        (
            "enabled_toolsets",
            scope.enabled_toolsets.as_deref().unwrap_or(&[]),
        ),
        ("disabled_toolsets", scope.disabled_toolsets.as_slice()),
    ];
    lists
        .into_iter()
        .flat_map(|(list, names)| names.iter().map(move |name| (list, name)))
        .filter(|(_, name)| !known.contains(&name.as_str()))
        .map(|(list, name)| Note::UnknownToolset {
            list,
            name: name.clone(),
            suggestion: crate::text::did_you_mean(name, &known).map(str::to_string),
        })
        .collect()
}

/// When a session tokenises its tools for search and indexes its catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchIndexing {
    /// With the catalog, on every core (and on a worker when the catalog is rebuilt there).
    #[default]
    WithCatalog,
    /// The first time a search asks for it, on the thread that asks: for a session that may
    /// never search (the cost figures alone), which then costs neither the time nor the
    /// memory. A search of such a session from several threads at once waits for one build.
    OnFirstSearch,
}

impl SearchIndexing {
    /// With the catalog when the session will search (`searches`), else on the first search.
    pub fn when_searching(searches: bool) -> SearchIndexing {
        if searches {
            SearchIndexing::WithCatalog
        } else {
            SearchIndexing::OnFirstSearch
        }
    }
}

/// A catalog's search index: built with the catalog, or the first time a search asks.
type LazyIndex = Arc<OnceLock<SearchIndex>>;

/// A session: inputs plus derived catalog, index and listing.
#[derive(Debug, Clone)]
pub struct Session {
    profile: Profile,
    /// Immutable tool data, shared with background workers (token counting).
    servers: Arc<Vec<Server>>,
    /// Per server: connected (false when disabled in the config or toggled off).
    connected: Vec<bool>,
    /// Search tokens, short descriptions and name groups of every tool, made once at load.
    corpus: Arc<Corpus>,
    /// The config's settings under the profile, before any override.
    configured: ToolSearchSettings,
    /// The settings in force: `configured` with the overrides applied.
    settings: ToolSearchSettings,
    /// The context length the config's model gives, before any override.
    configured_context: ContextLength,
    /// The context length in force.
    context: ContextLength,
    scope: Scope,
    /// The tokenizer of the real counts, and why.
    tokenizer: TokenizerChoice,
    /// Real token counts per server and tool, when counted.
    token_counts: Vec<Vec<Option<u64>>>,
    catalog: Catalog,
    /// Per server: its catalog tools' count, size and token counts (kept with the catalog, so
    /// a frame or a threshold step does not walk 100,000 tools).
    costs: Vec<ServerCost>,
    /// Shared, so a clone for a background worker is cheap.
    index: LazyIndex,
    listing: Arc<CatalogListing>,
    notes: Vec<Note>,
}

/// What never changes in a session: every tool's search terms (made at load, or the first
/// time a search needs them) and the tools grouped by name.
#[derive(Debug)]
struct Corpus {
    profile: Profile,
    indexing: SearchIndexing,
    terms: OnceLock<SearchTerms>,
    groups: NameGroups,
}

/// Every tool's search terms, and the vocabulary that numbers them.
#[derive(Debug)]
struct SearchTerms {
    vocabulary: Vocabulary,
    /// Per server, per tool.
    documents: Vec<Vec<TermCounts>>,
}

impl Session {
    /// Builds the session: with `mcp_servers` in the config, the configured servers that have a
    /// capture, in config order; without, every capture, sorted by server name. The profile is
    /// `overrides.profile`, else the config's, else seed.
    pub fn new(config: &Config, captures: &[ServerCapture], overrides: &Overrides) -> Session {
        Session::indexed(config, captures, overrides, SearchIndexing::WithCatalog)
    }

    /// [`Session::new`], its search index built as `indexing` says.
    pub fn indexed(
        config: &Config,
        captures: &[ServerCapture],
        overrides: &Overrides,
        indexing: SearchIndexing,
    ) -> Session {
        let profile = overrides.profile_for(config);
        // As the release's config loader reads the file (it may refuse it).
        let config = &*config.as_read_by(profile);
        let mut notes = Vec::new();
        let plan = plan_servers(config, captures, &mut notes);
        // Built on every core, servers and their tools alike.
        let servers: Vec<(Server, bool)> = plan
            .par_iter()
            .map(|(name, capture, filter, connected)| {
                (
                    Server::new(profile, name, &capture.tools, filter),
                    *connected,
                )
            })
            .collect();
        let servers: Vec<(Server, bool)> = servers
            .into_iter()
            .zip(&plan)
            .map(|((server, connected), (_, capture, _, _))| {
                let connected = connected && hermes_connects(&server, capture, &mut notes);
                (server, connected)
            })
            .collect();
        let configured = *config.tool_search(profile);
        let settings = overrides.apply(configured, profile);
        let (servers, connected): (Vec<Server>, Vec<bool>) = servers.into_iter().unzip();
        notes.extend(unknown_toolsets(&overrides.scope, &servers));
        let token_counts = servers.iter().map(|s| vec![None; s.tools.len()]).collect();
        let corpus = Corpus::new(profile, &servers, indexing);
        let configured_context = ContextLength::resolve(None, &config.model);
        let context = overrides.context(&configured_context);
        let mut session = Session {
            profile,
            servers: Arc::new(servers),
            connected,
            corpus: Arc::new(corpus),
            configured,
            settings,
            configured_context,
            context,
            scope: overrides.scope.clone(),
            tokenizer: overrides
                .tokenizer
                .clone()
                .unwrap_or_else(|| choose(config.model.id.as_deref(), None, None)),
            token_counts,
            catalog: Catalog::default(),
            costs: Vec::new(),
            index: LazyIndex::default(),
            listing: Arc::default(),
            notes,
        };
        session.rebuild();
        session
    }

    /// Rebuilds the catalog, index and listing from the current servers and scope (done on
    /// every change).
    pub fn rebuild(&mut self) {
        let built = self.catalog_build().build();
        self.install(built);
    }

    /// What rebuilding the catalog needs, to build it away from the session (on a worker).
    pub fn catalog_build(&self) -> CatalogBuild {
        CatalogBuild {
            profile: self.profile,
            servers: Arc::clone(&self.servers),
            corpus: Arc::clone(&self.corpus),
            connected: self.connected.clone(),
            scope: self.scope.clone(),
        }
    }

    /// Puts in place a catalog built for this session's servers, as connected and scoped now;
    /// returns false, changing nothing, when it was built for other servers or the connections
    /// or scope have changed since.
    pub fn install(&mut self, built: BuiltCatalog) -> bool {
        let current = Arc::ptr_eq(&built.servers, &self.servers)
            && built.connected == self.connected
            && built.scope == self.scope;
        if current {
            self.catalog = built.catalog;
            self.index = built.index;
            self.listing = built.listing;
            self.costs = self.catalog_costs();
        }
        current
    }

    /// Connects or disconnects a server and leaves the catalog as it was, to be rebuilt by
    /// [`CatalogBuild::build`] and [`Session::install`] (or [`Session::rebuild`]): until then
    /// [`Session::is_connected`] tells the new state and the catalog the old one.
    pub fn set_connected_later(&mut self, server: usize, connected: bool) {
        if let Some(slot) = self.connected.get_mut(server) {
            *slot = connected;
        }
    }

    /// The engine profile.
    pub fn profile(&self) -> Profile {
        self.profile
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

    /// Applies the tuning in `overrides` (threshold, modes, listing budget, context length)
    /// to the config's settings, as a new session with them would: the one way a view tunes
    /// a session. The profile, scope and tokenizer of `overrides` are not read.
    pub fn retune(&mut self, overrides: &Overrides) {
        self.settings = overrides.apply(self.configured, self.profile);
        self.context = overrides.context(&self.configured_context);
    }

    /// The context length in force and its source.
    pub fn context(&self) -> &ContextLength {
        &self.context
    }

    /// The session scope.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// Assembly notes: unconfigured captures, configured servers without a capture, disabled
    /// servers, tools without an `inputSchema`.
    pub fn notes(&self) -> &[Note] {
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

    /// The catalog position of a tool of the session, when it is in the catalog.
    pub fn catalog_position(&self, place: ToolRef) -> Option<usize> {
        self.position(&entry(&self.servers, place).name)
            .filter(|&p| self.catalog.tools[p] == place)
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
        if let Some((server, tool)) = split {
            // Hermes names are unique in the catalog, so `server/tool` is at most the one
            // entry named for it: found by name, not by a scan.
            let found = self
                .position(&hermes_name(self.profile(), server, tool))
                .filter(|&p| {
                    let e = entry(&self.servers, self.catalog.tools[p]);
                    e.server == server && e.raw_name == tool
                });
            return found.map_or(Lookup::Missing, Lookup::Found);
        }
        let matches: Vec<usize> = self
            .catalog()
            .enumerate()
            .filter(|(_, e)| e.raw_name == reference)
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

    /// Evaluates activation for the current catalog.
    pub fn activation(&self) -> Activation {
        self.activation_at(&self.settings, self.context.clone())
    }

    /// Evaluates activation for the current catalog with other settings or context (for
    /// sweeps and maps).
    pub fn activation_at(
        &self,
        settings: &ToolSearchSettings,
        context: ContextLength,
    ) -> Activation {
        let chars = self.costs.iter().map(|c| c.chars).sum();
        Activation::evaluate(
            self.profile,
            settings,
            context,
            self.catalog.tools.len(),
            chars,
            &self.listing,
        )
    }

    /// The catalog's listing groups and sizes (releases from 0.20.0; empty before).
    pub fn listing(&self) -> &CatalogListing {
        &self.listing
    }

    /// The bridge definitions sent when active, exactly as the profile's release sends them
    /// (with the listing, where it has one); `None` when inactive.
    pub fn bridge_definitions(&self) -> Option<[Value; 3]> {
        self.bridge_definitions_at(&self.settings, self.context.clone())
    }

    /// [`Session::bridge_definitions`] with other settings or context.
    pub fn bridge_definitions_at(
        &self,
        settings: &ToolSearchSettings,
        context: ContextLength,
    ) -> Option<[Value; 3]> {
        let activation = self.activation_at(settings, context);
        if !activation.active {
            return None;
        }
        let texts = self.profile.spec().bridge.texts;
        let text = activation
            .listing
            .as_ref()
            .and_then(|state| Some((self.listing.text(&state.listing)?, state.listing.form)));
        Some(bridge::definitions(
            &texts,
            self.total_available(),
            text.as_ref().map(|(t, form)| (t.as_str(), *form)),
        ))
    }

    /// Every registered tool (all connected servers, in or out of the session's scope, less
    /// those a name collision left out), as `(name, toolset)`, sorted by name: Hermes's
    /// registry.
    pub fn registered(&self) -> Vec<(String, String)> {
        self.catalog
            .registered
            .iter()
            .map(|&r| {
                let server = &self.servers[r.server];
                (server.tools[r.tool].name.clone(), server.toolset.clone())
            })
            .collect()
    }

    /// Whether a Hermes name is registered (in or out of the session's scope).
    fn is_registered(&self, name: &str) -> bool {
        self.catalog
            .registered
            .binary_search_by(|&r| entry(&self.servers, r).name.as_str().cmp(name))
            .is_ok()
    }

    /// The catalog cost of each server (index-aligned with [`Session::servers`]).
    pub fn server_costs(&self) -> Vec<ServerCost> {
        self.costs.clone()
    }

    /// [`Session::server_costs`] counted from the catalog.
    fn catalog_costs(&self) -> Vec<ServerCost> {
        let mut costs = vec![ServerCost::default(); self.servers.len()];
        let mut counted: Vec<Option<u64>> = vec![Some(0); self.servers.len()];
        for &ToolRef { server, tool } in &self.catalog.tools {
            costs[server].tools += 1;
            costs[server].chars += self.servers[server].tools[tool].chars;
            counted[server] = match (counted[server], self.token_counts[server][tool]) {
                (Some(sum), Some(count)) => Some(sum + count),
                _ => None,
            };
        }
        for (cost, counted) in costs.iter_mut().zip(counted) {
            cost.estimate_tokens = estimate_tokens(cost.chars);
            cost.counted = counted;
        }
        costs
    }

    /// The tokenizer real counts are in, and why it was chosen.
    pub fn tokenizer(&self) -> &TokenizerChoice {
        &self.tokenizer
    }

    /// The real token count of the catalog's tool at `doc`, once given.
    pub fn catalog_token_count(&self, doc: usize) -> Option<u64> {
        let place = *self.catalog.tools.get(doc)?;
        self.token_count(place.server, place.tool)
    }

    /// The real token count of a tool of a server, once given.
    pub fn token_count(&self, server: usize, tool: usize) -> Option<u64> {
        self.token_counts.get(server)?.get(tool).copied().flatten()
    }

    /// Stores real token counts of tools (in [`Session::tokenizer`]).
    pub fn set_token_counts(&mut self, counts: impl IntoIterator<Item = (ToolRef, u64)>) {
        for (ToolRef { server, tool }, count) in counts {
            if let Some(slot) = self
                .token_counts
                .get_mut(server)
                .and_then(|s| s.get_mut(tool))
            {
                *slot = Some(count);
            }
        }
        self.costs = self.catalog_costs();
    }

    /// Whether every tool has its real token counts.
    pub fn tokens_counted(&self) -> bool {
        self.token_counts.iter().flatten().all(Option::is_some)
    }

    /// Loads the session's tokenizer (once per process) and counts every tool with it, on
    /// every core; returns the tokenizer for further counts. Loading takes a fraction of a
    /// second: never call it on a UI thread.
    pub fn count_tokens(&mut self) -> Result<Arc<LoadedTokenizer>, TokenizerError> {
        self.count_tokens_reporting(&mut |_, _| {})
    }

    /// [`Session::count_tokens`], calling `progress` now and then from the calling thread with
    /// how many tools are counted and how many there are.
    pub fn count_tokens_reporting(
        &mut self,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Arc<LoadedTokenizer>, TokenizerError> {
        let places = tools_in_order(&self.servers, &[]);
        self.count_tokens_of(&places, progress)
    }

    /// Counts the tools at `places` alone (e.g. the one tool `describe` shows), as
    /// [`Session::count_tokens_reporting`] counts every tool.
    pub fn count_tokens_of(
        &mut self,
        places: &[ToolRef],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Arc<LoadedTokenizer>, TokenizerError> {
        let tokenizer = LoadedTokenizer::shared(&self.tokenizer.tokenizer)?;
        let counts = count_tools(&self.servers, places, &tokenizer, progress)?;
        self.set_token_counts(counts);
        Ok(tokenizer)
    }

    /// The catalog's search index and the vocabulary its terms are numbered in, built now
    /// when the session indexes on the first search and none has yet.
    fn searchable(&self) -> (&SearchIndex, &Vocabulary) {
        let terms = self.corpus.terms(&self.servers);
        let index = self
            .index
            .get_or_init(|| index_catalog(terms, &self.catalog, self.corpus.indexing));
        (index, &terms.vocabulary)
    }

    /// Runs `tool_search` for one query with `limit` hits at most (already resolved).
    pub fn search(&self, query: &str, limit: usize) -> SearchResult {
        let (index, vocabulary) = self.searchable();
        index.search(vocabulary, query, limit)
    }

    /// The entries a search ranks: one per group of twins when the catalog has many (see
    /// [`SearchIndex::ranked_entries`]), else one per tool.
    pub fn search_entries(&self) -> usize {
        self.searchable().0.ranked_entries()
    }

    /// [`Session::search`], and the work it did.
    pub fn search_measured(&self, query: &str, limit: usize) -> (SearchResult, SearchWork) {
        let (index, vocabulary) = self.searchable();
        index.search_measured(vocabulary, query, limit)
    }

    /// The score catalog tool `doc` gets in a search for `query` (0 when it holds none of its
    /// words).
    pub fn query_score(&self, query: &str, doc: usize) -> f64 {
        let (index, vocabulary) = self.searchable();
        index.query_score(vocabulary, query, doc)
    }

    /// `queries` in groups for [`Session::search_together_measured`]: the queries that share
    /// their rarest word together (at most 1,024 to a group), every other alone.
    pub fn search_groups(&self, queries: &[&str]) -> Vec<Vec<usize>> {
        let (index, vocabulary) = self.searchable();
        index.search_groups(vocabulary, queries)
    }

    /// [`Session::search_measured`] of each of `queries` (less the hits below its floor, see
    /// [`Asked`]), in order; those that share their rarest word are ranked together, over one
    /// gathering of the tools that hold it (same hits, same scores).
    pub fn search_together_measured(
        &self,
        queries: &[Asked],
        limit: usize,
    ) -> Vec<(SearchResult, SearchWork)> {
        let (index, vocabulary) = self.searchable();
        index.search_together_measured(vocabulary, queries, limit)
    }

    /// The best-scoring tools the rarest-word gate does not admit for `query` (up to `n`),
    /// with why; empty for seed.
    pub fn near_misses(&self, query: &str, n: usize) -> Vec<(usize, f64, Admitted)> {
        let (index, vocabulary) = self.searchable();
        index.near_misses(vocabulary, query, n)
    }

    /// Whether the rarest-word gate admits catalog tool `doc` for `query`, and if not, why.
    pub fn admission(&self, query: &str, doc: usize) -> Admitted {
        let (index, vocabulary) = self.searchable();
        index.admission(vocabulary, query, doc)
    }

    /// How well catalog tool `target` answers the whole search text of catalog tool `query`,
    /// relative to how well `query` answers itself (1.0 = as well; BM25 scores).
    pub fn relative_score(&self, query: usize, target: usize) -> f64 {
        let (index, _) = self.searchable();
        let r = self.catalog.tools[query];
        let terms = &self.corpus.terms(&self.servers).documents[r.server][r.tool];
        let own = index.score_terms(terms, query);
        if own <= 0.0 {
            return 0.0;
        }
        index.score_terms(terms, target) / own
    }

    /// The search tokens of catalog tool `doc`, in text order (stemmed from 0.20.6).
    pub fn search_tokens(&self, doc: usize) -> Vec<String> {
        let (e, server) = self.catalog_entry(doc);
        let rules = self.profile.spec().search;
        search_text(
            &rules,
            &e.name,
            &self.servers[server].name,
            &e.description,
            e.parameter_names(),
        )
        .flat_map(|piece| super::search::tokens(piece, &rules).collect::<Vec<_>>())
        .collect()
    }

    /// Catalog size seen by `tool_search` (`total_available`).
    pub fn total_available(&self) -> usize {
        self.catalog.tools.len()
    }

    /// The labels of the catalog's servers with their tool counts, sorted: the
    /// `available_sources` of a newer `tool_search` result with no match.
    pub fn sources(&self) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for entry in self.catalog() {
            *counts.entry(entry.server.as_str()).or_default() += 1;
        }
        counts
            .into_iter()
            .map(|(label, count)| (label.to_string(), count))
            .collect()
    }

    fn hits<'a>(&'a self, result: &SearchResult) -> Vec<(&'a ToolEntry, &'a str)> {
        result
            .hits
            .iter()
            .map(|hit| {
                let (e, server) = self.catalog_entry(hit.doc);
                (e, self.servers[server].toolset.as_str())
            })
            .collect()
    }

    /// The exact `tool_search` payload the model receives for `queries` and their results, in
    /// the shape of the profile's release (one payload per query when it takes one query at a
    /// time and several are given: an array).
    pub fn search_payload(&self, results: &[(String, SearchResult)]) -> Value {
        let protocol = self.profile.spec().bridge;
        let sources = self.sources();
        let blank = |query: &String| query.trim().is_empty();
        match protocol.dispatch {
            Dispatch::Single { .. } if results.iter().any(|(q, _)| blank(q)) => {
                return bridge::error_payload("query is required")
            }
            Dispatch::Batched { .. } if results.iter().all(|(q, _)| blank(q)) => {
                let error = bridge::ListArgumentError::Empty { key: "queries" };
                return bridge::error_payload(&error.to_string());
            }
            _ => {}
        }
        let matches: Vec<bridge::QueryMatches<'_>> = results
            .iter()
            .filter(|(query, _)| !blank(query))
            .map(|(query, result)| bridge::QueryMatches {
                query,
                matches: self.hits(result),
            })
            .collect();
        match protocol.dispatch {
            Dispatch::Single { .. } => {
                let payloads: Vec<Value> = matches
                    .iter()
                    .map(|m| {
                        bridge::single_search_payload(
                            &protocol,
                            m,
                            self.total_available(),
                            &sources,
                        )
                    })
                    .collect();
                match <[Value; 1]>::try_from(payloads) {
                    Ok([one]) => one,
                    Err(many) => Value::Array(many),
                }
            }
            Dispatch::Batched { .. } => bridge::batched_search_payload(
                &protocol,
                &matches,
                self.total_available(),
                &sources,
            ),
        }
    }

    /// Simulates one `tool_search` call with the model's arguments, as the profile's release
    /// reads them (`{query, limit}` or `{queries, limit}`). Returns the payload and each
    /// query's ranked result.
    pub fn tool_search(&self, arguments: &Value) -> (Value, Vec<(String, SearchResult)>) {
        let limit = resolve_limit(&Scalar::from_json(arguments.get("limit")), &self.settings);
        let queries = match self.profile.spec().bridge.dispatch {
            Dispatch::Single { .. } => {
                let query = bridge::single_argument(arguments, "query");
                if query.is_empty() {
                    return (bridge::error_payload("query is required"), Vec::new());
                }
                vec![query]
            }
            Dispatch::Batched { max_queries, .. } => {
                match bridge::list_argument(arguments, "queries", false, max_queries) {
                    Ok(queries) => queries,
                    Err(error) => return (bridge::error_payload(&error.to_string()), Vec::new()),
                }
            }
        };
        let results: Vec<(String, SearchResult)> = queries
            .into_iter()
            .map(|q| {
                let result = self.search(&q, limit);
                (q, result)
            })
            .collect();
        (self.search_payload(&results), results)
    }

    /// Simulates one `tool_describe` call with the model's arguments, as the profile's
    /// release reads them (`{name}` or `{names}`).
    pub fn tool_describe(&self, arguments: &Value) -> Value {
        match self.profile.spec().bridge.dispatch {
            Dispatch::Single { .. } => {
                let name = bridge::single_argument(arguments, "name");
                match self.find(&name) {
                    Some((entry, _)) if !name.is_empty() => bridge::single_describe_payload(entry),
                    _ => bridge::single_describe_error(&name, self.is_registered(&name)),
                }
            }
            Dispatch::Batched { max_names, .. } => {
                match bridge::list_argument(arguments, "names", true, max_names) {
                    Ok(names) => {
                        let (found, missing): (Vec<&String>, Vec<&String>) =
                            names.iter().partition(|n| self.find(n).is_some());
                        let found = found.iter().filter_map(|n| self.find(n).map(|(e, _)| e));
                        let missing: Vec<String> = missing.into_iter().cloned().collect();
                        bridge::batched_describe_payload(found, &missing)
                    }
                    Err(error) => bridge::error_payload(&error.to_string()),
                }
            }
        }
    }

    /// The `tool_describe` payload for one tool name, in the shape of the profile's release;
    /// an error payload when the name is not in the catalog.
    pub fn describe(&self, name: &str) -> Result<Value, Value> {
        let arguments = match self.profile.spec().bridge.dispatch {
            Dispatch::Single { .. } => serde_json::json!({ "name": name }),
            Dispatch::Batched { .. } => serde_json::json!({ "names": [name] }),
        };
        let payload = self.tool_describe(&arguments);
        if self.find(name).is_some() {
            Ok(payload)
        } else {
            Err(payload)
        }
    }
}

/// The inputs of a catalog rebuild, detached from the session (see [`Session::catalog_build`]).
#[derive(Debug, Clone)]
pub struct CatalogBuild {
    profile: Profile,
    servers: Arc<Vec<Server>>,
    corpus: Arc<Corpus>,
    connected: Vec<bool>,
    scope: Scope,
}

/// A rebuilt catalog with its index and listing, and what it was built for.
#[derive(Debug)]
pub struct BuiltCatalog {
    servers: Arc<Vec<Server>>,
    connected: Vec<bool>,
    scope: Scope,
    catalog: Catalog,
    index: LazyIndex,
    listing: Arc<CatalogListing>,
}

impl CatalogBuild {
    /// Builds the catalog, its search index (unless the session indexes on the first
    /// search) and (from 0.20.0) its listing: the slow part of a change of servers, safe to
    /// run on a worker.
    pub fn build(self) -> BuiltCatalog {
        let corpus = &self.corpus;
        let catalog = Catalog::build(
            self.profile,
            &self.servers,
            &corpus.groups,
            &self.connected,
            &self.scope,
        );
        let index = match corpus.indexing {
            SearchIndexing::WithCatalog => Arc::new(OnceLock::from(index_catalog(
                corpus.terms(&self.servers),
                &catalog,
                corpus.indexing,
            ))),
            SearchIndexing::OnFirstSearch => LazyIndex::default(),
        };
        let listing = Arc::new(match self.profile.spec().listing {
            Some(listing) => self.listing_groups(&catalog, listing.sentence_end),
            None => CatalogListing::default(),
        });
        BuiltCatalog {
            servers: self.servers,
            connected: self.connected,
            scope: self.scope,
            catalog,
            index,
            listing,
        }
    }

    /// The catalog's tools grouped by server label, with their short descriptions.
    fn listing_groups(&self, catalog: &Catalog, rule: SentenceEnd) -> CatalogListing {
        let mut by_server: Vec<Vec<ToolRef>> = vec![Vec::new(); self.servers.len()];
        for &r in &catalog.tools {
            by_server[r.server].push(r);
        }
        // On every core: each group cuts its tools' descriptions short.
        let groups = by_server
            .par_iter()
            .enumerate()
            .filter(|(_, refs)| !refs.is_empty())
            .map(|(server, refs)| {
                ListingGroup::new(
                    &self.servers[server].name,
                    rule,
                    refs.iter().map(|r| {
                        let tool = entry(&self.servers, *r);
                        (tool.name.as_str(), &*tool.description)
                    }),
                )
            })
            .collect();
        CatalogListing::new(groups)
    }
}

impl Corpus {
    fn new(profile: Profile, servers: &[Server], indexing: SearchIndexing) -> Corpus {
        let terms = match indexing {
            SearchIndexing::WithCatalog => {
                OnceLock::from(SearchTerms::new(profile, servers, indexing))
            }
            SearchIndexing::OnFirstSearch => OnceLock::new(),
        };
        Corpus {
            profile,
            indexing,
            terms,
            groups: NameGroups::new(servers),
        }
    }

    /// Every tool's search terms (`servers` are those the corpus was made of), tokenised now
    /// if they were not at load.
    fn terms(&self, servers: &[Server]) -> &SearchTerms {
        self.terms
            .get_or_init(|| SearchTerms::new(self.profile, servers, self.indexing))
    }
}

impl SearchTerms {
    /// Tokenises every tool of `servers`: on every core, a run of tools at a time (long
    /// enough that each run meets most words once), when indexing with the catalog; else on
    /// this thread alone, as one run (a build on the first search may be asked from within
    /// other parallel work, which it must not wait on). The ids are given in catalog order
    /// either way.
    fn new(profile: Profile, servers: &[Server], indexing: SearchIndexing) -> SearchTerms {
        let rules = profile.spec().search;
        let mut vocabulary = Vocabulary::new(rules);
        let tools: Vec<(&Server, &ToolEntry)> = servers
            .iter()
            .flat_map(|s| s.tools.iter().map(move |e| (s, e)))
            .collect();
        let tokenise = |run: &[(&Server, &ToolEntry)]| {
            let mut group = vocabulary.group();
            for (s, e) in run {
                group.add(
                    &e.name,
                    search_text(
                        &rules,
                        &e.name,
                        &s.name,
                        &e.description,
                        e.parameter_names(),
                    ),
                );
            }
            group
        };
        let groups: Vec<TokenisedGroup> = match indexing {
            SearchIndexing::WithCatalog => {
                let runs = rayon::current_num_threads() * 4;
                let run_length = tools.len().div_ceil(runs).max(1);
                tools.par_chunks(run_length).map(tokenise).collect()
            }
            SearchIndexing::OnFirstSearch => vec![tokenise(&tools)],
        };
        let mut counts = vocabulary.count_groups(groups).into_iter().flatten();
        let documents = servers
            .iter()
            .map(|s| counts.by_ref().take(s.tools.len()).collect())
            .collect();
        SearchTerms {
            vocabulary,
            documents,
        }
    }
}

/// The search index of `catalog`'s tools, in catalog order: built on every core when
/// indexing with the catalog, else on this thread alone.
fn index_catalog(terms: &SearchTerms, catalog: &Catalog, indexing: SearchIndexing) -> SearchIndex {
    let documents = catalog
        .tools
        .iter()
        .map(|&r| &terms.documents[r.server][r.tool]);
    match indexing {
        SearchIndexing::WithCatalog => SearchIndex::build(&terms.vocabulary, documents),
        SearchIndexing::OnFirstSearch => SearchIndex::build_here(&terms.vocabulary, documents),
    }
}

/// A server to build: its name, its capture, its include/exclude, and whether it is enabled.
type Planned<'a> = (&'a str, &'a ServerCapture, ToolFilter, bool);

/// What to build: with `mcp_servers`, the configured servers that have a capture, in config
/// order (captures of other servers, disabled servers and servers without a capture are
/// noted); without, every capture, sorted by server name.
fn plan_servers<'a>(
    config: &'a Config,
    captures: &'a [ServerCapture],
    notes: &mut Vec<Note>,
) -> Vec<Planned<'a>> {
    match &config.mcp_servers {
        Some(configured) => {
            let configured_names: HashSet<&str> =
                configured.iter().map(|s| s.name.as_str()).collect();
            // Server name -> its first capture.
            let mut by_server: HashMap<&str, &ServerCapture> = HashMap::new();
            for capture in captures {
                by_server.entry(&capture.server).or_insert(capture);
            }
            for capture in captures {
                if !configured_names.contains(capture.server.as_str()) {
                    notes.push(Note::NotConfigured {
                        server: capture.server.clone(),
                        source: capture.source.display().to_string(),
                    });
                }
            }
            configured
                .iter()
                .filter_map(|server| {
                    if !server.enabled {
                        notes.push(Note::Disabled {
                            server: server.name.clone(),
                        });
                    }
                    let Some(capture) = by_server.get(server.name.as_str()) else {
                        if server.enabled {
                            notes.push(Note::NoCapture {
                                server: server.name.clone(),
                            });
                        }
                        return None;
                    };
                    let filter = ToolFilter {
                        include: server.include.clone(),
                        exclude: server.exclude.clone(),
                    };
                    Some((server.name.as_str(), *capture, filter, server.enabled))
                })
                .collect()
        }
        None => {
            let mut sorted: Vec<&ServerCapture> = captures.iter().collect();
            sorted.sort_by(|a, b| a.server.cmp(&b.server));
            sorted
                .into_iter()
                .map(|c| (c.server.as_str(), c, ToolFilter::default(), true))
                .collect()
        }
    }
}

/// Whether Hermes's MCP client connects an enabled server: it refuses a whole `tools/list`
/// with a tool it cannot parse (one without an inputSchema among them), or one the capture
/// says the client refused; the reason is noted. Such a server's tools are kept to show what
/// it would cost once fixed.
fn hermes_connects(server: &Server, capture: &ServerCapture, notes: &mut Vec<Note>) -> bool {
    // Every listed tool counts, include/exclude apply only after the list parsed.
    let mut missing = capture.tools.iter().filter(|t| t.input_schema.is_none());
    if let Some(first) = missing.next() {
        notes.push(Note::NoInputSchema {
            server: server.name.clone(),
            tool: first.name.clone(),
            tools: 1 + missing.count(),
        });
        return false;
    }
    if let Some((position, reason)) = &capture.client_refusal {
        notes.push(Note::Refused {
            server: server.name.clone(),
            position: *position,
            reason: reason.clone(),
        });
        return false;
    }
    true
}

/// Every tool of `servers`, those of the servers in `first` first (in that order), then the
/// rest in catalog order.
pub fn tools_in_order(servers: &[Server], first: &[usize]) -> Vec<ToolRef> {
    let tools_of = |server: usize| {
        (0..servers.get(server).map_or(0, |s| s.tools.len()))
            .map(move |tool| ToolRef { server, tool })
    };
    let mut seen = vec![false; servers.len()];
    let mut order = Vec::with_capacity(servers.len());
    for server in first.iter().copied().chain(0..servers.len()) {
        if server < servers.len() && !std::mem::replace(&mut seen[server], true) {
            order.push(server);
        }
    }
    order.into_iter().flat_map(tools_of).collect()
}

/// Real token counts of the tools at `places`, counted on every core (each definition made
/// as its chunk is counted), `progress` told from the calling thread how many are counted.
/// What was cut from over-long strings is not tokenised: it counts by chars/4. A
/// `tokenizer.json` that cannot count a definition fails the whole count.
pub fn count_tools(
    servers: &[Server],
    places: &[ToolRef],
    tokenizer: &LoadedTokenizer,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<(ToolRef, u64)>, TokenizerError> {
    let counts = tokenizer.count_each_reporting(
        places,
        |&place| entry(servers, place).chars as usize,
        |&place| {
            let tool = entry(servers, place);
            Ok(tokenizer.count(&tool.definition())? + estimate_tokens(tool.truncated_chars))
        },
        progress,
    )?;
    Ok(places.iter().copied().zip(counts).collect())
}

/// The seed engine's overrides, for the engine's tests (whose tools are named `mcp_S_T`).
#[cfg(test)]
impl Overrides {
    pub(crate) fn seed_for_tests() -> Overrides {
        Overrides {
            profile: Some(schematax_releases::Profile::seed()),
            ..Overrides::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::inputs::capture_file::parse_capture;
    use serde_json::json;

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
                r#"[{"name":"open","description":"Open a file in the editor","inputSchema":{"type":"object"}}]"#,
            ),
            capture(
                "git",
                r#"[{"name":"commit","description":"Record changes","inputSchema":{"type":"object"}},{"name":"push","description":"Upload commits","inputSchema":{"type":"object"}}]"#,
            ),
        ]
    }

    fn config(yaml: &str) -> Config {
        Config::parse(yaml.as_bytes()).unwrap()
    }

    #[test]
    fn a_session_indexed_on_the_first_search_searches_as_one_indexed_with_its_catalog() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/captures");
        let captures = crate::inputs::capture_file::load_paths(&[dir])
            .unwrap()
            .captures;
        for profile in [Profile::seed(), Profile::newest()] {
            let overrides = Overrides {
                profile: Some(profile),
                ..Overrides::default()
            };
            let config = Config::default();
            let eager = Session::new(&config, &captures, &overrides);
            let mut lazy = Session::indexed(
                &config,
                &captures,
                &overrides,
                SearchIndexing::OnFirstSearch,
            );
            assert!(eager.index.get().is_some() && eager.corpus.terms.get().is_some());
            assert!(
                lazy.index.get().is_none() && lazy.corpus.terms.get().is_none(),
                "nothing tokenised or indexed before a search"
            );
            assert_eq!(lazy.activation(), eager.activation());
            assert_eq!(lazy.listing(), eager.listing());
            // Rebuilt, the catalog is still not indexed.
            lazy.set_connected(0, false);
            lazy.set_connected(0, true);
            assert!(lazy.index.get().is_none());
            let queries: Vec<String> = eager
                .catalog()
                .flat_map(|e| [e.raw_name.replace('_', " "), e.description.to_string()])
                .collect();
            // Asked from every core at once, the first search builds the index once.
            let found: Vec<SearchResult> = queries.par_iter().map(|q| lazy.search(q, 5)).collect();
            for (query, found) in queries.iter().zip(found) {
                assert_eq!(found, eager.search(query, 5), "{query:?} under {profile}");
            }
            assert_eq!(lazy.search_entries(), eager.search_entries());
            let last = eager.total_available() - 1;
            assert_eq!(lazy.relative_score(0, last), eager.relative_score(0, last));
        }
    }

    #[test]
    fn retune_applies_the_tuning_through_each_settings_one_clamp() {
        let config = config(
            "model:\n  context_length: 100000\ntools:\n  tool_search:\n    threshold_pct: 7\n",
        );
        let newest = Overrides {
            profile: Some(Profile::newest()),
            ..Overrides::default()
        };
        let mut session = Session::new(&config, &captures(), &newest);
        let configured = *session.settings();
        assert_eq!(configured.threshold_pct, 7.0);
        let tuning = Overrides {
            threshold_pct: Some(140.0),
            mode: Some(Mode::Off),
            listing_max_tokens: Some(u32::MAX),
            context_length: Some(32_000),
            context_source: Some(ContextSource::View),
            ..newest.clone()
        };
        session.retune(&tuning);
        assert_eq!(session.settings().threshold_pct, 100.0);
        assert_eq!(session.settings().enabled, Mode::Off);
        let (_, _, high) = Profile::newest().spec().config.listing_max_tokens.unwrap();
        assert_eq!(i64::from(session.settings().listing_max_tokens), high);
        assert_eq!(session.context().tokens, 32_000);
        // The same tuning at start gives the same session; no tuning gives back the config's.
        let fresh = Session::new(&config, &captures(), &tuning);
        assert_eq!(fresh.settings(), session.settings());
        assert_eq!(fresh.context(), session.context());
        session.retune(&newest);
        assert_eq!(*session.settings(), configured);
        assert_eq!(session.context().tokens, 100_000);
    }

    #[test]
    fn without_mcp_servers_every_capture_counts_in_name_order() {
        let s = Session::new(
            &Config::default(),
            &captures(),
            &Overrides::seed_for_tests(),
        );
        let names: Vec<_> = s.servers().iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["git", "zed"]);
        assert_eq!(s.total_available(), 3);
        assert!(s.notes().is_empty());
        assert_eq!(s.profile(), Profile::seed());
    }

    #[test]
    fn with_mcp_servers_only_configured_enabled_servers_count() {
        let config = config("mcp_servers:\n  zed: {command: z, tools: {exclude: [x]}}\n  ghost: {command: g}\n  idle: {command: o, enabled: false}\n  gone: {command: o, enabled: false}");
        let mut all = captures();
        all.push(capture("idle", r#"[{"name":"t","inputSchema":{}}]"#));
        let s = Session::new(&config, &all, &Overrides::seed_for_tests());
        let names: Vec<_> = s
            .servers()
            .iter()
            .enumerate()
            .map(|(i, srv)| (srv.name.as_str(), s.is_connected(i)))
            .collect();
        assert_eq!(names, [("zed", true), ("idle", false)]);
        assert_eq!(s.total_available(), 1);
        assert_eq!(
            s.notes(),
            [
                Note::NotConfigured {
                    server: "git".into(),
                    source: String::new()
                },
                Note::NoCapture {
                    server: "ghost".into()
                },
                Note::Disabled {
                    server: "idle".into()
                },
                Note::Disabled {
                    server: "gone".into()
                },
            ],
            "a disabled server is not told to capture"
        );
    }

    #[test]
    fn tools_without_input_schema_are_noted_once_per_server() {
        let s = Session::new(
            &Config::default(),
            &[
                capture("bare", r#"[{"name":"t","description":"x"}]"#),
                capture(
                    "many",
                    r#"[{"name":"a","inputSchema":{}},{"name":"b"},{"name":"c"},{"name":"d"}]"#,
                ),
            ],
            &Overrides::seed_for_tests(),
        );
        assert_eq!(
            s.notes(),
            [
                Note::NoInputSchema {
                    server: "bare".into(),
                    tool: "t".into(),
                    tools: 1,
                },
                Note::NoInputSchema {
                    server: "many".into(),
                    tool: "b".into(),
                    tools: 3,
                }
            ]
        );
        assert_eq!(s.total_available(), 0, "neither server is connected");
    }

    #[test]
    fn the_profile_comes_from_overrides_then_config() {
        let c = config("schematax:\n  profile: hermes-2026-09");
        let s = Session::new(&c, &captures(), &Overrides::default());
        assert_eq!(s.profile(), Profile::from_id("hermes-2026-09").unwrap());
        assert!(s.catalog().all(|e| e.name.starts_with("mcp__")));
        assert_eq!(s.settings().threshold_pct, 5.0);
        let s = Session::new(
            &c,
            &captures(),
            &Overrides {
                profile: Some(Profile::seed()),
                ..Default::default()
            },
        );
        assert_eq!(s.profile(), Profile::seed());
    }

    #[test]
    fn toggling_a_server_rebuilds_catalog_and_gate() {
        let mut s = Session::new(
            &Config::default(),
            &captures(),
            &Overrides {
                mode: Some(Mode::On),
                ..Overrides::seed_for_tests()
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
            ..Overrides::seed_for_tests()
        };
        let s = Session::new(&Config::default(), &captures(), &scoped);
        assert_eq!(s.describe("mcp_git_push").unwrap()["name"], "mcp_git_push");
        // Registered, but out of the session's scope.
        assert_eq!(
            s.describe("mcp_zed_open").unwrap_err()["error"],
            "'mcp_zed_open' is not currently available. Re-run tool_search to refresh."
        );
        assert!(s.describe("mcp_nope_x").unwrap_err()["error"]
            .as_str()
            .unwrap()
            .contains("is not a deferrable tool"));
        let newer = Overrides {
            profile: Some(Profile::from_id("hermes-2026-09").unwrap()),
            ..scoped
        };
        let s = Session::new(&Config::default(), &captures(), &newer);
        assert!(s.describe("mcp__git__push").unwrap()["tools"]["mcp__git__push"].is_object());
        assert_eq!(
            s.describe("mcp__zed__open").unwrap_err()["not_found"],
            json!(["mcp__zed__open"])
        );
    }

    #[test]
    fn tool_search_calls_by_profile() {
        let s = Session::new(
            &Config::default(),
            &captures(),
            &Overrides::seed_for_tests(),
        );
        let (payload, results) = s.tool_search(&json!({"query": "commit", "limit": 9}));
        assert_eq!(payload["matches"][0]["name"], "mcp_git_commit");
        assert_eq!(results.len(), 1);
        let newer = Overrides {
            profile: Some(Profile::from_id("hermes-2026-09").unwrap()),
            ..Default::default()
        };
        let s = Session::new(&Config::default(), &captures(), &newer);
        let (payload, results) =
            s.tool_search(&json!({"queries": ["git record changes", "nothing"]}));
        assert_eq!(results.len(), 2);
        assert_eq!(
            payload["results"][0]["matches"],
            json!(["mcp__git__commit"])
        );
        assert_eq!(
            payload["results"][1]["available_sources"],
            json!([{"name": "git", "tool_count": 2}, {"name": "zed", "tool_count": 1}])
        );
        let (payload, _) = s.tool_search(&json!({"queries": []}));
        assert!(payload["error"].is_string());
    }

    #[test]
    fn lookup_by_hermes_server_slash_or_raw_name() {
        let mut all = captures();
        all.push(capture(
            "hg",
            r#"[{"name":"commit","inputSchema":{"type":"object"}}]"#,
        ));
        let s = Session::new(&Config::default(), &all, &Overrides::seed_for_tests());
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
        let mut s = Session::new(
            &Config::default(),
            &captures(),
            &Overrides::seed_for_tests(),
        );
        assert_eq!(s.server_costs()[0].counted, None);
        s.set_token_counts([
            (ToolRef { server: 0, tool: 0 }, 3),
            (ToolRef { server: 0, tool: 1 }, 1),
        ]);
        assert_eq!(s.server_costs()[0].counted, Some(4));
        assert!(!s.tokens_counted());
    }

    #[test]
    fn tools_in_order_puts_the_servers_on_screen_first() {
        let s = Session::new(
            &Config::default(),
            &captures(),
            &Overrides::seed_for_tests(),
        );
        let servers = s.shared_servers();
        let all = tools_in_order(&servers, &[]);
        let total: usize = servers.iter().map(|s| s.tools.len()).sum();
        assert_eq!(all.len(), total);
        let last = servers.len() - 1;
        let first = tools_in_order(&servers, &[last, 99, last]);
        assert_eq!(first.len(), total);
        assert_eq!(first[0].server, last);
        let mut sorted = first.clone();
        sorted.sort_by_key(|r| (r.server, r.tool));
        assert_eq!(sorted, all);
    }

    #[test]
    fn the_tokenizer_follows_the_configured_model() {
        let config = Config::parse(b"model: claude-opus-4-7\n").unwrap();
        let s = Session::new(&config, &captures(), &Overrides::seed_for_tests());
        assert_eq!(s.tokenizer().tokenizer.name(), "claude-v4.7");
        let mut s = Session::new(
            &Config::default(),
            &captures(),
            &Overrides::seed_for_tests(),
        );
        assert!(s.tokenizer().is_stand_in());
        s.count_tokens().unwrap();
        assert!(s.tokens_counted());
        assert!(s.server_costs()[0].counted.unwrap() > 0);
    }

    #[test]
    fn counting_some_tools_counts_those_alone_as_counting_all_would() {
        let mut all = Session::new(
            &Config::default(),
            &captures(),
            &Overrides::seed_for_tests(),
        );
        all.count_tokens().unwrap();
        let mut one = Session::new(
            &Config::default(),
            &captures(),
            &Overrides::seed_for_tests(),
        );
        let place = one.catalog_ref(1);
        let mut reports = Vec::new();
        one.count_tokens_of(&[place], &mut |done, total| reports.push((done, total)))
            .unwrap();
        assert_eq!(reports.last(), Some(&(1, 1)));
        assert!(!one.tokens_counted());
        assert_eq!(one.catalog_token_count(0), None);
        assert_eq!(one.catalog_token_count(1), all.catalog_token_count(1));
        assert!(one.catalog_token_count(1).is_some());
    }
}
