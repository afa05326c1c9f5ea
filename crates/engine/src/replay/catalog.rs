//! From MCP tools to Hermes tool definitions and the session's catalog (ENGINE.md §1, §2;
//! ENGINE-2026-09.md §1): naming, the definition the model is sent, include/exclude,
//! collisions, deferral and session scoping. What differs by profile comes from
//! [`Profile::spec`].

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;

use crate::nouns::json_text::{
    write_compact_object, write_json_string, CharCounter, JsonSink, SameText,
};
use crate::nouns::object_text::ObjectText;
use crate::nouns::tools::McpTool;
use crate::replay::schema::normalise;
use schematax_releases::{CollisionPolicy, Profile, RegistrationRules};

/// The names Hermes reserves for its bridge tools: never deferred, never catalog entries.
pub const BRIDGE_TOOL_NAMES: [&str; 3] = ["tool_search", "tool_describe", "tool_call"];

/// Replaces every character outside `[A-Za-z0-9_]` with `_` (no collapsing, case kept).
pub fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Hex digits of the SHA-256 that end a clamped name.
const CLAMP_HASH_DIGITS: usize = 8;

/// The Hermes name of MCP tool `tool` on server `server`: `mcp_{S}_{T}` or `mcp__{S}__{T}`,
/// both parts sanitised; where the profile clamps names, one over the limit keeps its start
/// and ends in `_` and the first 8 hex digits of its SHA-256.
pub fn hermes_name(profile: Profile, server: &str, tool: &str) -> String {
    let naming = profile.spec().registration;
    let separator = naming.separator;
    let full = format!(
        "mcp{separator}{}{separator}{}",
        sanitize(server),
        sanitize(tool)
    );
    match naming.clamp {
        Some(limit) if full.len() > limit => {
            use sha2::{Digest, Sha256};
            let digest = Sha256::digest(full.as_bytes());
            let hex: String = digest
                .iter()
                .flat_map(|b| [b >> 4, b & 0xf])
                .take(CLAMP_HASH_DIGITS)
                .map(|nibble| char::from_digit(u32::from(nibble), 16).unwrap_or('0'))
                .collect();
            // Sanitised names are ASCII: bytes are characters.
            format!("{}_{hex}", &full[..limit - CLAMP_HASH_DIGITS - 1])
        }
        _ => full,
    }
}

/// The toolset of server `server`: `mcp-{raw server key}`.
pub fn toolset_name(server: &str) -> String {
    format!("mcp-{server}")
}

/// Whether `c` is a Unicode tag character (U+E0000..U+E007F).
fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// Removes Unicode tag characters, keeping whole flag emoji tag sequences (U+1F3F4, then tags
/// U+E0020..U+E007E, then U+E007F): hidden text a model reads but people do not see.
pub fn strip_tag_characters(text: &str) -> Cow<'_, str> {
    // Every tag character is written in UTF-8 from the byte 0xF3 on: a text without that byte,
    // nearly every text, is found to hold none without decoding it.
    if !text.as_bytes().contains(&0xF3) || !text.chars().any(is_tag) {
        return Cow::Borrowed(text);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\u{1F3F4}' {
            let mut end = i + 1;
            while end < chars.len() && ('\u{E0020}'..='\u{E007E}').contains(&chars[end]) {
                end += 1;
            }
            if end > i + 1 && end < chars.len() && chars[end] == '\u{E007F}' {
                out.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            }
        }
        if !is_tag(c) {
            out.push(c);
        }
        i += 1;
    }
    Cow::Owned(out)
}

/// The description Hermes sends: the tool's own, or `MCP tool {T} from {S}` when empty; tag
/// characters stripped where the profile says.
pub fn effective_description<'a>(
    profile: Profile,
    tool: &'a McpTool,
    server: &str,
) -> Cow<'a, str> {
    let text = match tool.description.as_deref() {
        Some(text) if !text.is_empty() => Cow::Borrowed(text),
        _ => Cow::Owned(format!("MCP tool {} from {server}", tool.name)),
    };
    if !profile.spec().registration.strip_tag_characters {
        return text;
    }
    match text {
        Cow::Borrowed(text) => strip_tag_characters(text),
        Cow::Owned(text) => Cow::Owned(strip_tag_characters(&text).into_owned()),
    }
}

/// The description Hermes sends ([`effective_description`]), sharing the captured text when
/// it is sent as it was captured.
fn shared_description(profile: Profile, tool: &McpTool, server: &str) -> Arc<str> {
    match (
        effective_description(profile, tool, server),
        &tool.description,
    ) {
        (Cow::Borrowed(sent), Some(captured)) if sent.len() == captured.len() => {
            Arc::clone(captured)
        }
        (sent, _) => sent.into(),
    }
}

/// Writes `{"type":"function","function":{"name","description","parameters"}}` as compact JSON.
pub fn write_definition<S: JsonSink>(
    name: &str,
    description: &str,
    parameters: &ObjectText,
    out: &mut S,
) {
    out.push_str(r#"{"type":"function","function":{"name":"#);
    write_json_string(name, out);
    out.push_str(r#","description":"#);
    write_json_string(description, out);
    out.push_str(r#","parameters":"#);
    parameters.write_to(out);
    out.push_str("}}");
}

/// The definition as schematax measured it before Hermes's schema passes: the captured
/// `inputSchema` (given parsed) with `"properties": {}` added when missing, as its text: the
/// captured text itself when nothing was added.
fn captured_parameters(tool: &McpTool, parsed: Option<&Map<String, Value>>) -> ObjectText {
    match (&tool.input_schema, parsed) {
        (Some(text), Some(schema)) if schema.contains_key("properties") => text.clone(),
        _ => {
            let mut schema = parsed.cloned().unwrap_or_else(|| {
                let mut object = Map::new();
                object.insert("type".into(), Value::String("object".into()));
                object
            });
            schema
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
            ObjectText::new(&schema)
        }
    }
}

/// What Hermes's schema passes did to a captured schema.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaChange {
    /// The captured `inputSchema` (`properties` filled in when missing, as a client would).
    pub captured: ObjectText,
    /// Characters of the definition with the captured schema.
    pub captured_chars: u64,
}

/// One MCP tool as Hermes defines it for the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolEntry {
    /// The Hermes name: `mcp_{S}_{T}` or `mcp__{S}__{T}`.
    pub name: String,
    /// The raw MCP tool name.
    pub raw_name: String,
    /// The raw server key.
    pub server: String,
    /// The description sent (possibly the `MCP tool X from S` stand-in): the captured text
    /// itself, shared, when it is sent as captured.
    pub description: Arc<str>,
    /// Whether the server gave no description of its own.
    pub has_own_description: bool,
    /// The parameters sent: the captured `inputSchema` after the profile's schema passes
    /// (the captured text itself, shared, when the passes left it as it was).
    pub parameters: ObjectText,
    /// Top-level parameter names, in schema order (what search indexes).
    parameter_names: Names,
    /// Unicode scalar values of the definition: exactly what is measured.
    pub chars: u64,
    /// The captured schema, when the passes changed it.
    pub schema_change: Option<Box<SchemaChange>>,
    /// Whether the tool has no `inputSchema` at all: Hermes's MCP client rejects the whole
    /// server for it.
    pub missing_input_schema: bool,
    /// Characters cut from over-long strings at load: in `chars`, not in the text analysed.
    pub truncated_chars: u64,
}

impl ToolEntry {
    /// Builds the definition Hermes would send for `tool` of `server` under `profile`.
    pub fn new(profile: Profile, server: &str, tool: &McpTool) -> ToolEntry {
        let parsed = tool.input_schema.as_ref().map(ObjectText::parse);
        let captured_text = captured_parameters(tool, parsed.as_ref());
        let normalised = normalise(parsed, &profile.spec().schema);
        let unchanged = {
            let captured = captured_text.as_str();
            let mut compared = SameText::new(&captured);
            write_compact_object(&normalised, &mut compared);
            compared.is_same()
        };
        let parameters = if unchanged {
            captured_text.clone()
        } else {
            ObjectText::edited(&captured_text, &normalised)
        };
        let mut entry = ToolEntry {
            name: hermes_name(profile, server, &tool.name),
            raw_name: tool.name.clone(),
            server: server.to_string(),
            description: shared_description(profile, tool, server),
            has_own_description: tool.description.as_deref().is_some_and(|d| !d.is_empty()),
            parameter_names: Names::new(parameter_names(&normalised)),
            parameters,
            chars: 0,
            schema_change: None,
            missing_input_schema: tool.input_schema.is_none(),
            truncated_chars: tool.truncated_chars,
        };
        entry.chars = entry.measure(&entry.parameters);
        if !unchanged {
            let captured_chars = entry.measure(&captured_text);
            entry.schema_change = Some(Box::new(SchemaChange {
                captured: captured_text,
                captured_chars,
            }));
        }
        entry
    }

    /// Characters of this tool's definition with `parameters` (and the cut characters).
    fn measure(&self, parameters: &ObjectText) -> u64 {
        let mut counter = CharCounter::default();
        write_definition(&self.name, &self.description, parameters, &mut counter);
        counter.0 + self.truncated_chars
    }

    /// Writes `{"type":"function","function":{...}}` as compact JSON.
    pub fn write_definition<S: JsonSink>(&self, out: &mut S) {
        write_definition(&self.name, &self.description, &self.parameters, out);
    }

    /// The definition as compact JSON: the text the model is sent and the tokenizers count.
    pub fn definition(&self) -> String {
        let mut text = String::with_capacity(self.chars as usize + 16);
        self.write_definition(&mut text);
        text
    }

    /// Top-level parameter names, in schema order.
    pub fn parameter_names(&self) -> impl Iterator<Item = &str> {
        self.parameter_names.iter()
    }

    /// Names of the `required` list of the parameters, in order.
    pub fn required_names(&self) -> Vec<String> {
        match self.parameters.parse().remove("required") {
            Some(Value::Array(names)) => names
                .into_iter()
                .filter_map(|name| match name {
                    Value::String(name) => Some(name),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A few names held end to end in one text: two allocations, however many names. The names
/// of one schema come from one capture file, so their text fits the file's limit, well within
/// `u32` offsets.
#[derive(Debug, Clone, PartialEq)]
struct Names {
    text: Box<str>,
    /// Where each name ends in `text`.
    ends: Box<[u32]>,
}

const _: () = assert!(crate::inputs::capture_file::MAX_CAPTURE_BYTES < u32::MAX as u64 / 2);

impl Names {
    /// `names`, in order.
    fn new<'a>(names: impl Iterator<Item = &'a str>) -> Names {
        let mut text = String::new();
        let mut ends = Vec::new();
        for name in names {
            text.push_str(name);
            ends.push(text.len() as u32);
        }
        Names {
            text: text.into(),
            ends: ends.into(),
        }
    }

    /// The names, in order.
    fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter())
            .map(|(start, &end)| &self.text[start as usize..end as usize])
    }
}

/// The keys of `parameters.properties`, in order.
pub fn parameter_names(parameters: &Map<String, Value>) -> impl Iterator<Item = &str> {
    parameters
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|properties| properties.keys().map(String::as_str))
}

/// Characters of the definition of MCP tool `tool` on `server` under `profile`.
pub fn definition_chars(profile: Profile, server: &str, tool: &McpTool) -> u64 {
    ToolEntry::new(profile, server, tool).chars
}

/// `tools.include` / `tools.exclude` of one server, by RAW MCP tool name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolFilter {
    /// When given, a whitelist that wins over `exclude` (given empty: see
    /// [`schematax_releases::RegistrationRules::empty_include_is_whitelist`]).
    pub include: Option<Vec<String>>,
    /// Names to drop.
    pub exclude: Vec<String>,
}

impl ToolFilter {
    /// Whether the tool with this raw name is kept under a release's rules: an entry holding
    /// `*`, `?` or `[` may be a case-sensitive shell pattern (Python's `fnmatchcase`).
    pub fn allows(&self, raw_name: &str, rules: &RegistrationRules) -> bool {
        let matches = |entry: &String| {
            entry == raw_name
                || (rules.filter_globs
                    && entry.contains(['*', '?', '['])
                    && glob_matches(entry, raw_name))
        };
        match &self.include {
            Some(include) if !include.is_empty() || rules.empty_include_is_whitelist => {
                include.iter().any(matches)
            }
            _ => !self.exclude.iter().any(matches),
        }
    }
}

/// Python's `fnmatch.fnmatchcase`: `*` any run, `?` one character, `[...]` a set (`[!...]`
/// its complement, `a-z` ranges, a leading `]` literal); a `[` with no closing `]` is itself.
pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    // The set at `pattern[at]` (a `[`): whether it holds `c`, and where it ends; `None` when
    // the `[` is unclosed.
    let set = |at: usize, c: char| -> Option<(bool, usize)> {
        let mut i = at + 1;
        let negated = pattern.get(i) == Some(&'!');
        if negated {
            i += 1;
        }
        let start = i;
        let mut hit = false;
        while i < pattern.len() && (pattern[i] != ']' || i == start) {
            if pattern.get(i + 1) == Some(&'-') && i + 2 < pattern.len() && pattern[i + 2] != ']' {
                hit |= (pattern[i]..=pattern[i + 2]).contains(&c);
                i += 3;
            } else {
                hit |= pattern[i] == c;
                i += 1;
            }
        }
        (i < pattern.len()).then_some((hit != negated, i + 1))
    };
    // Backtracking over the last `*`, as the usual linear-space wildcard match.
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        let step = match pattern.get(p) {
            Some('*') => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some('?') => Some(p + 1),
            Some('[') => match set(p, text[t]) {
                Some((true, end)) => Some(end),
                Some((false, _)) => None,
                None => (text[t] == '[').then_some(p + 1),
            },
            Some(&c) => (c == text[t]).then_some(p + 1),
            None => None,
        };
        match (step, star) {
            (Some(next), _) => {
                p = next;
                t += 1;
            }
            (None, Some((star_at, matched))) => {
                p = star_at + 1;
                t = matched + 1;
                star = Some((star_at, matched + 1));
            }
            (None, None) => return false,
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

/// One server of the session and its tools after include/exclude.
#[derive(Debug, Clone, PartialEq)]
pub struct Server {
    /// The raw server key.
    pub name: String,
    /// `mcp-{name}`.
    pub toolset: String,
    /// Tool definitions, in the order the server listed them.
    pub tools: Vec<ToolEntry>,
    /// How many listed tools include/exclude removed.
    pub filtered_out: usize,
    /// Characters of all its tools' definitions (in the catalog or not).
    pub chars: u64,
}

impl Server {
    /// Builds a server from its listed tools, applying its include/exclude filter.
    pub fn new(profile: Profile, name: &str, tools: &[McpTool], filter: &ToolFilter) -> Server {
        let kept: Vec<ToolEntry> = tools
            .par_iter()
            .filter(|t| filter.allows(&t.name, &profile.spec().registration))
            .map(|t| ToolEntry::new(profile, name, t))
            .collect();
        Server {
            name: name.to_string(),
            toolset: toolset_name(name),
            filtered_out: tools.len() - kept.len(),
            chars: kept.iter().map(|t| t.chars).sum(),
            tools: kept,
        }
    }
}

/// Session scoping: `enabled_toolsets` (absent = all) minus `disabled_toolsets`. A toolset is
/// named `mcp-{server}` or by the raw server key as an alias.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scope {
    /// When set, only these toolsets are in the session.
    pub enabled_toolsets: Option<Vec<String>>,
    /// Always subtracted.
    pub disabled_toolsets: Vec<String>,
}

impl Scope {
    /// Whether the tools of `server` are in the session.
    pub fn allows(&self, server: &Server) -> bool {
        let names = |list: &[String]| {
            list.iter()
                .any(|n| *n == server.toolset || *n == server.name)
        };
        let enabled = self.enabled_toolsets.as_deref().is_none_or(names);
        enabled && !names(&self.disabled_toolsets)
    }
}

/// A position in [`Server::tools`] of the session's server list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ToolRef {
    /// Index of the server.
    pub server: usize,
    /// Index of the tool in that server.
    pub tool: usize,
}

/// Why a tool was left out of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollisionKind {
    /// A later registration of the same name overwrote it (seed: the last one wins).
    Overwritten,
    /// An earlier server owns the name (the first owner keeps it).
    NameTaken,
    /// Another tool of its own server has the same name, so the server registers neither.
    DuplicateInServer,
    /// Its server lists the same tool twice; the first listing is kept.
    Repeated,
}

/// A tool that lost a name collision and is not in the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collision {
    /// Its server.
    pub server: String,
    /// Its raw MCP name.
    pub tool: String,
    /// The Hermes name both produce.
    pub name: String,
    /// The server whose tool holds the name (none when no tool of that name is registered).
    pub kept_server: Option<String>,
    /// Why it lost.
    pub kind: CollisionKind,
}

/// The deferrable tools of the session, sorted by Hermes name (byte order; it breaks every tie).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    /// Catalog entries in catalog order.
    pub tools: Vec<ToolRef>,
    /// Every registered tool, in or out of the session's scope, in name order: Hermes's
    /// registry (one tool per name).
    pub registered: Vec<ToolRef>,
    /// Tools left out by name collisions, in registration order.
    pub collisions: Vec<Collision>,
}

/// Every tool of the servers grouped by Hermes name: groups in name order (byte order), each
/// in registration order. Built once per set of servers, it makes every catalog rebuild a
/// linear pass with no hashing or sorting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NameGroups {
    refs: Vec<ToolRef>,
    /// Start of each group in `refs`, and `refs.len()` at the end.
    starts: Vec<usize>,
}

impl NameGroups {
    /// Groups the tools of `servers` (registration order is server order, then tool order).
    pub fn new(servers: &[Server]) -> NameGroups {
        let mut refs: Vec<ToolRef> = servers
            .iter()
            .enumerate()
            .flat_map(|(server, s)| (0..s.tools.len()).map(move |tool| ToolRef { server, tool }))
            .collect();
        // On every core: a catalog's names are most of the work of its collisions.
        refs.par_sort_by(|a, b| {
            entry(servers, *a)
                .name
                .cmp(&entry(servers, *b).name)
                .then(a.cmp(b))
        });
        let mut starts: Vec<usize> = (0..refs.len())
            .filter(|&i| i == 0 || entry(servers, refs[i - 1]).name != entry(servers, refs[i]).name)
            .collect();
        starts.push(refs.len());
        NameGroups { refs, starts }
    }

    /// The groups, in name order.
    fn groups(&self) -> impl Iterator<Item = &[ToolRef]> {
        self.starts.windows(2).map(|w| &self.refs[w[0]..w[1]])
    }
}

/// Who holds one name among its live registrations, and who lost it.
fn settle(
    policy: CollisionPolicy,
    servers: &[Server],
    live: &[ToolRef],
    mut lost: impl FnMut(ToolRef, CollisionKind, Option<usize>),
) -> Option<ToolRef> {
    match policy {
        CollisionPolicy::LastWins => {
            let (&winner, earlier) = live.split_last()?;
            for &loser in earlier {
                lost(loser, CollisionKind::Overwritten, Some(winner.server));
            }
            Some(winner)
        }
        CollisionPolicy::FirstOwner => {
            let raw = |r: &ToolRef| entry(servers, *r).raw_name.as_str();
            // A server whose tools of this name differ in raw name registers none of them; a
            // tool it lists twice keeps its first listing. Per server: its first listing, and
            // whether another differs from it in raw name (one pass, so a name listed
            // thousands of times costs no more than thousands of names).
            let mut by_server: FxHashMap<usize, (ToolRef, bool)> = FxHashMap::default();
            for r in live {
                by_server
                    .entry(r.server)
                    .and_modify(|(first, differs)| *differs |= raw(first) != raw(r))
                    .or_insert((*r, false));
            }
            let ambiguous = |r: &ToolRef| by_server[&r.server].1;
            let first_listing = |r: &ToolRef| by_server[&r.server].0 == *r;
            let winner = live
                .iter()
                .copied()
                .find(|r| !ambiguous(r) && first_listing(r));
            for &r in live {
                if ambiguous(&r) {
                    lost(
                        r,
                        CollisionKind::DuplicateInServer,
                        winner.map(|w| w.server),
                    );
                } else if !first_listing(&r) {
                    lost(r, CollisionKind::Repeated, Some(r.server));
                } else if Some(r) != winner {
                    lost(r, CollisionKind::NameTaken, winner.map(|w| w.server));
                }
            }
            winner
        }
    }
}

impl Catalog {
    /// Registers the connected servers (`connected[i]` for `servers[i]`) in order, settling
    /// each name by the profile's collision policy, then keeps the scoped ones. `groups` must
    /// come from the same `servers`.
    pub fn build(
        profile: Profile,
        servers: &[Server],
        groups: &NameGroups,
        connected: &[bool],
        scope: &Scope,
    ) -> Catalog {
        let mut tools = Vec::new();
        let mut registered = Vec::new();
        let mut collisions: Vec<(ToolRef, Collision)> = Vec::new();
        let mut live: Vec<ToolRef> = Vec::new();
        for group in groups.groups() {
            live.clear();
            live.extend(group.iter().filter(|r| connected[r.server]));
            let winner = settle(
                profile.spec().registration.collisions,
                servers,
                &live,
                |loser, kind, kept| {
                    let tool = entry(servers, loser);
                    collisions.push((
                        loser,
                        Collision {
                            server: tool.server.clone(),
                            tool: tool.raw_name.clone(),
                            name: tool.name.clone(),
                            kept_server: kept.map(|s| servers[s].name.clone()),
                            kind,
                        },
                    ));
                },
            );
            if let Some(winner) = winner {
                registered.push(winner);
                if scope.allows(&servers[winner.server]) {
                    tools.push(winner);
                }
            }
        }
        collisions.sort_by_key(|(place, _)| *place);
        Catalog {
            tools,
            registered,
            collisions: collisions.into_iter().map(|(_, c)| c).collect(),
        }
    }
}

/// The entry a [`ToolRef`] points at.
pub fn entry(servers: &[Server], tool: ToolRef) -> &ToolEntry {
    &servers[tool.server].tools[tool.tool]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_held_end_to_end_read_back_in_order() {
        let names = ["q", "", "ünïcode", "with space", "\u{0}nul"];
        let held = Names::new(names.iter().copied());
        assert!(held.iter().eq(names.iter().copied()));
        assert_eq!(Names::new(std::iter::empty()).iter().count(), 0);
    }

    fn seed() -> Profile {
        Profile::seed()
    }

    fn current() -> Profile {
        Profile::from_id("hermes-2026-09").unwrap()
    }

    fn tool(name: &str) -> McpTool {
        McpTool {
            name: name.into(),
            description: Some(format!("does {name}").into()),
            input_schema: None,
            truncated_chars: 0,
            ..McpTool::default()
        }
    }

    #[test]
    fn names_are_sanitised_without_collapsing() {
        assert_eq!(
            hermes_name(seed(), "github", "create-issue"),
            "mcp_github_create_issue"
        );
        assert_eq!(
            hermes_name(seed(), "my-api", "query.data"),
            "mcp_my_api_query_data"
        );
        assert_eq!(hermes_name(seed(), "a b", "x--Y"), "mcp_a_b_x__Y");
        assert_eq!(hermes_name(seed(), "uni", "café"), "mcp_uni_caf_");
        assert_eq!(
            hermes_name(current(), "my-api", "query.data"),
            "mcp__my_api__query_data"
        );
        assert_eq!(toolset_name("my-api"), "mcp-my-api");
    }

    #[test]
    fn definition_is_compact_and_fills_defaults() {
        let tool = McpTool {
            name: "t".into(),
            description: None,
            input_schema: None,
            truncated_chars: 0,
            ..McpTool::default()
        };
        let e = ToolEntry::new(seed(), "s", &tool);
        assert_eq!(
            e.definition(),
            r#"{"type":"function","function":{"name":"mcp_s_t","description":"MCP tool t from s","parameters":{"type":"object","properties":{}}}}"#
        );
        assert_eq!(e.chars, e.definition().chars().count() as u64);
        assert_eq!(definition_chars(seed(), "s", &tool), e.chars);
        assert!(!e.has_own_description && e.missing_input_schema);
        assert!(
            e.schema_change.is_none(),
            "the stand-in is what a client sends"
        );
        let empty_schema = McpTool {
            input_schema: Some(ObjectText::new(&Map::new())),
            ..tool
        };
        let e = ToolEntry::new(seed(), "s", &empty_schema);
        assert!(e
            .definition()
            .ends_with(r#""parameters":{"type":"object","properties":{}}}}"#));
        assert!(!e.missing_input_schema);
        let change = e.schema_change.as_ref().expect("{} became a full schema");
        assert!(change.captured_chars < e.chars);
    }

    #[test]
    fn a_description_sent_as_captured_is_held_once() {
        let own = tool("t");
        let captured = own.description.as_ref().unwrap();
        for profile in [seed(), current()] {
            let entry = ToolEntry::new(profile, "s", &own);
            assert!(Arc::ptr_eq(&entry.description, captured));
        }
        // A description that is not sent as captured is the definition's own.
        let tagged = McpTool {
            description: Some("ab\u{E0041} c".into()),
            ..tool("t")
        };
        let entry = ToolEntry::new(current(), "s", &tagged);
        assert_eq!(&*entry.description, "ab c");
        let entry = ToolEntry::new(seed(), "s", &tagged);
        assert!(Arc::ptr_eq(
            &entry.description,
            tagged.description.as_ref().unwrap()
        ));
        let none = McpTool {
            description: None,
            ..tool("t")
        };
        assert_eq!(
            &*ToolEntry::new(seed(), "s", &none).description,
            "MCP tool t from s"
        );
    }

    #[test]
    fn tag_characters_are_stripped_by_the_newer_profile_except_in_flags() {
        let flag = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
        let text = format!("a\u{E0041}\u{E0042}b {flag} c\u{E007F}");
        assert_eq!(strip_tag_characters(&text), format!("ab {flag} c"));
        assert!(matches!(strip_tag_characters("plain"), Cow::Borrowed(_)));
        let t = McpTool {
            name: "t".into(),
            description: Some(text.as_str().into()),
            input_schema: None,
            truncated_chars: 0,
            ..McpTool::default()
        };
        assert_eq!(&*ToolEntry::new(seed(), "s", &t).description, text);
        assert_eq!(
            &*ToolEntry::new(current(), "s", &t).description,
            format!("ab {flag} c")
        );
    }

    #[test]
    fn globs_match_as_python_fnmatchcase() {
        for (pattern, text, expected) in [
            ("get*", "get_user", true),
            ("get*", "Get_user", false),
            ("*_radar_*", "cf_radar_http", true),
            ("?ab", "xab", true),
            ("?ab", "ab", false),
            ("[a-m]bc", "kbc", true),
            ("[a-m]bc", "zbc", false),
            ("[!a-m]bc", "zbc", true),
            ("[]]x", "]x", true),
            ("[abc", "[abc", true),
            ("a*b*c", "aXXbYYc", true),
            ("a*b*c", "aXXbYY", false),
            ("*", "", true),
        ] {
            assert_eq!(glob_matches(pattern, text), expected, "{pattern} {text}");
        }
        let f = ToolFilter {
            include: Some(vec!["get*".into()]),
            exclude: vec![],
        };
        assert!(
            !f.allows("get_a", &seed().spec().registration),
            "0.17: names only"
        );
        assert!(f.allows("get_a", &Profile::newest().spec().registration));
    }

    #[test]
    fn include_wins_over_exclude() {
        let rules = seed().spec().registration;
        let f = ToolFilter {
            include: Some(vec!["a".into()]),
            exclude: vec!["a".into()],
        };
        assert!(f.allows("a", &rules) && !f.allows("b", &rules));
        let f = ToolFilter {
            include: Some(vec![]),
            exclude: vec!["a".into()],
        };
        assert!(!f.allows("a", &rules) && f.allows("b", &rules));
        // From 0.20.6 an include given empty registers nothing.
        let newest = Profile::newest().spec().registration;
        assert!(!f.allows("b", &newest));
        let server = Server::new(seed(), "s", &[tool("a"), tool("b")], &f);
        assert_eq!(server.tools.len(), 1);
        assert_eq!(server.filtered_out, 1);
    }

    fn build(profile: Profile, servers: &[Server], connected: &[bool]) -> Catalog {
        Catalog::build(
            profile,
            servers,
            &NameGroups::new(servers),
            connected,
            &Scope::default(),
        )
    }

    #[test]
    fn seed_last_registration_wins_a_collision_and_catalog_is_sorted() {
        let servers = vec![
            Server::new(
                seed(),
                "my-api",
                &[tool("q.d"), tool("z")],
                &ToolFilter::default(),
            ),
            Server::new(
                seed(),
                "my_api",
                &[tool("q_d"), tool("a")],
                &ToolFilter::default(),
            ),
        ];
        let catalog = build(seed(), &servers, &[true, true]);
        let names: Vec<_> = catalog
            .tools
            .iter()
            .map(|r| entry(&servers, *r).name.as_str())
            .collect();
        assert_eq!(names, ["mcp_my_api_a", "mcp_my_api_q_d", "mcp_my_api_z"]);
        assert_eq!(catalog.tools[1], ToolRef { server: 1, tool: 0 }, "my_api's");
        assert_eq!(
            catalog.collisions,
            [Collision {
                server: "my-api".into(),
                tool: "q.d".into(),
                name: "mcp_my_api_q_d".into(),
                kept_server: Some("my_api".into()),
                kind: CollisionKind::Overwritten,
            }]
        );
        // With the later server off, the earlier one keeps its tool.
        let catalog = build(seed(), &servers, &[true, false]);
        assert!(catalog.collisions.is_empty());
    }

    #[test]
    fn newer_profile_keeps_the_first_owner_and_drops_a_servers_own_duplicates() {
        let servers = vec![
            Server::new(
                current(),
                "my-api",
                &[tool("x"), tool("d-up"), tool("d_up")],
                &ToolFilter::default(),
            ),
            Server::new(
                current(),
                "my_api",
                &[tool("x"), tool("d_up")],
                &ToolFilter::default(),
            ),
        ];
        let catalog = build(current(), &servers, &[true, true]);
        assert_eq!(
            catalog.tools,
            [
                ToolRef { server: 1, tool: 1 },
                ToolRef { server: 0, tool: 0 }
            ],
            "my_api keeps d_up (my-api's two cancel out), my-api keeps x"
        );
        let kinds: Vec<_> = catalog
            .collisions
            .iter()
            .map(|c| (c.server.as_str(), c.tool.as_str(), c.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("my-api", "d-up", CollisionKind::DuplicateInServer),
                ("my-api", "d_up", CollisionKind::DuplicateInServer),
                ("my_api", "x", CollisionKind::NameTaken),
            ]
        );
    }

    #[test]
    fn disabled_servers_and_scope_are_left_out() {
        let servers = vec![
            Server::new(seed(), "a", &[tool("x")], &ToolFilter::default()),
            Server::new(seed(), "b", &[tool("y")], &ToolFilter::default()),
        ];
        let only_b = Scope {
            enabled_toolsets: Some(vec!["mcp-b".into()]),
            disabled_toolsets: vec![],
        };
        let groups = NameGroups::new(&servers);
        assert_eq!(
            Catalog::build(seed(), &servers, &groups, &[true, true], &only_b).tools,
            [ToolRef { server: 1, tool: 0 }]
        );
        let not_b = Scope {
            enabled_toolsets: None,
            disabled_toolsets: vec!["b".into()],
        };
        assert_eq!(
            Catalog::build(seed(), &servers, &groups, &[true, true], &not_b).tools,
            [ToolRef { server: 0, tool: 0 }]
        );
        assert_eq!(
            build(seed(), &servers, &[false, true]).tools,
            [ToolRef { server: 1, tool: 0 }]
        );
    }
}
