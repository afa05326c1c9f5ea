//! From MCP tools to Hermes tool definitions and the session's catalog (ENGINE.md §1, §2):
//! naming, the definition the model is sent, include/exclude, collisions, deferral and
//! session scoping.

use serde_json::{Map, Value};
use std::borrow::Cow;

use super::capture_file::McpTool;
use super::tokens::{write_compact_json, write_json_string, CharCounter, JsonSink};

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

/// The Hermes name of MCP tool `tool` on server `server`: `mcp_{S}_{T}`, both sanitised.
pub fn hermes_name(server: &str, tool: &str) -> String {
    format!("mcp_{}_{}", sanitize(server), sanitize(tool))
}

/// The toolset of server `server`: `mcp-{raw server key}`.
pub fn toolset_name(server: &str) -> String {
    format!("mcp-{server}")
}

/// The description Hermes sends: the tool's own, or `MCP tool {T} from {S}` when empty.
pub fn effective_description<'a>(tool: &'a McpTool, server: &str) -> Cow<'a, str> {
    match tool.description.as_deref() {
        Some(text) if !text.is_empty() => Cow::Borrowed(text),
        _ => Cow::Owned(format!("MCP tool {} from {server}", tool.name)),
    }
}

/// The parameters Hermes sends: the `inputSchema` with `"properties": {}` added when missing
/// (a tool without a schema gets `{"type": "object", "properties": {}}`).
pub fn effective_parameters(tool: &McpTool) -> Map<String, Value> {
    let mut schema = tool.input_schema.clone().unwrap_or_else(|| {
        let mut object = Map::new();
        object.insert("type".into(), Value::String("object".into()));
        object
    });
    if !schema.contains_key("properties") {
        schema.insert("properties".into(), Value::Object(Map::new()));
    }
    schema
}

/// Writes the definition Hermes sends, `{"type":"function","function":{"name","description",
/// "parameters"}}`, as compact JSON. `schema` is the captured `inputSchema`: `"properties": {}`
/// is written at its end when it has none, and `{"type":"object","properties":{}}` stands in
/// for a missing one.
pub fn write_definition<S: JsonSink>(
    name: &str,
    description: &str,
    schema: Option<&Map<String, Value>>,
    out: &mut S,
) {
    out.push_str(r#"{"type":"function","function":{"name":"#);
    write_json_string(name, out);
    out.push_str(r#","description":"#);
    write_json_string(description, out);
    out.push_str(r#","parameters":{"#);
    match schema {
        None => out.push_str(r#""type":"object","properties":{}"#),
        Some(schema) => {
            for (i, (key, value)) in schema.iter().enumerate() {
                if i > 0 {
                    out.push_str(",");
                }
                write_json_string(key, out);
                out.push_str(":");
                write_compact_json(value, out);
            }
            if !schema.contains_key("properties") {
                out.push_str(if schema.is_empty() {
                    r#""properties":{}"#
                } else {
                    r#","properties":{}"#
                });
            }
        }
    }
    out.push_str("}}}");
}

/// Characters of the definition of MCP tool `tool` on `server`: what the chars/4 estimate sums.
pub fn definition_chars(server: &str, tool: &McpTool) -> u64 {
    let mut counter = CharCounter::default();
    let description = effective_description(tool, server);
    write_definition(
        &hermes_name(server, &tool.name),
        &description,
        tool.input_schema.as_ref(),
        &mut counter,
    );
    counter.0
}

/// One MCP tool as Hermes defines it for the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolEntry {
    /// The Hermes name, `mcp_{S}_{T}`.
    pub name: String,
    /// The raw MCP tool name.
    pub raw_name: String,
    /// The raw server key.
    pub server: String,
    /// The description sent (possibly the `MCP tool X from S` stand-in).
    pub description: String,
    /// Whether the server gave no description of its own.
    pub has_own_description: bool,
    /// The parameters sent.
    pub parameters: Map<String, Value>,
    /// Unicode scalar values of the definition: exactly what is measured.
    pub chars: u64,
}

impl ToolEntry {
    /// Builds the definition Hermes would send for `tool` of `server`.
    pub fn new(server: &str, tool: &McpTool) -> ToolEntry {
        let mut entry = ToolEntry {
            name: hermes_name(server, &tool.name),
            raw_name: tool.name.clone(),
            server: server.to_string(),
            description: effective_description(tool, server).into_owned(),
            has_own_description: tool.description.as_deref().is_some_and(|d| !d.is_empty()),
            parameters: effective_parameters(tool),
            chars: 0,
        };
        let mut counter = CharCounter::default();
        entry.write_definition(&mut counter);
        entry.chars = counter.0;
        entry
    }

    /// Writes `{"type":"function","function":{...}}` as compact JSON.
    pub fn write_definition<S: JsonSink>(&self, out: &mut S) {
        write_definition(&self.name, &self.description, Some(&self.parameters), out);
    }

    /// The definition as compact JSON: the text the model is sent and the tokenizers count.
    pub fn definition(&self) -> String {
        let mut text = String::with_capacity(self.chars as usize + 16);
        self.write_definition(&mut text);
        text
    }

    /// Top-level parameter names, in schema order.
    pub fn parameter_names(&self) -> impl Iterator<Item = &str> {
        self.parameters
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|properties| properties.keys().map(String::as_str))
    }
}

/// `tools.include` / `tools.exclude` of one server, by RAW MCP tool name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolFilter {
    /// When non-empty, a whitelist that wins over `exclude`.
    pub include: Vec<String>,
    /// Names to drop.
    pub exclude: Vec<String>,
}

impl ToolFilter {
    /// Whether the tool with this raw name is kept.
    pub fn allows(&self, raw_name: &str) -> bool {
        if !self.include.is_empty() {
            return self.include.iter().any(|n| n == raw_name);
        }
        !self.exclude.iter().any(|n| n == raw_name)
    }
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
}

impl Server {
    /// Builds a server from its listed tools, applying its include/exclude filter.
    pub fn new(name: &str, tools: &[McpTool], filter: &ToolFilter) -> Server {
        use rayon::prelude::*;
        let kept: Vec<ToolEntry> = tools
            .par_iter()
            .filter(|t| filter.allows(&t.name))
            .map(|t| ToolEntry::new(name, t))
            .collect();
        Server {
            name: name.to_string(),
            toolset: toolset_name(name),
            filtered_out: tools.len() - kept.len(),
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ToolRef {
    /// Index of the server.
    pub server: usize,
    /// Index of the tool in that server.
    pub tool: usize,
}

/// A tool that lost a name collision and was not registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collision {
    /// Its server.
    pub server: String,
    /// Its raw MCP name.
    pub tool: String,
    /// The Hermes name both produce.
    pub name: String,
    /// The server whose tool was registered first and kept the name.
    pub kept_server: String,
}

/// The deferrable tools of the session, sorted by Hermes name (byte order; it breaks every tie).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    /// Catalog entries in catalog order.
    pub tools: Vec<ToolRef>,
    /// Tools skipped because an earlier server registered the same name.
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
        refs.sort_by(|a, b| {
            entry(servers, *a)
                .name
                .cmp(&entry(servers, *b).name)
                .then((a.server, a.tool).cmp(&(b.server, b.tool)))
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

impl Catalog {
    /// Registers the connected servers (`connected[i]` for `servers[i]`) in order, the first
    /// name winning, then keeps the scoped ones. `groups` must come from the same `servers`.
    pub fn build(
        servers: &[Server],
        groups: &NameGroups,
        connected: &[bool],
        scope: &Scope,
    ) -> Catalog {
        let mut tools = Vec::new();
        let mut collisions: Vec<(ToolRef, Collision)> = Vec::new();
        for group in groups.groups() {
            let mut live = group.iter().filter(|r| connected[r.server]);
            let Some(&winner) = live.next() else { continue };
            if scope.allows(&servers[winner.server]) {
                tools.push(winner);
            }
            for &loser in live {
                let tool = entry(servers, loser);
                collisions.push((
                    loser,
                    Collision {
                        server: tool.server.clone(),
                        tool: tool.raw_name.clone(),
                        name: tool.name.clone(),
                        kept_server: servers[winner.server].name.clone(),
                    },
                ));
            }
        }
        collisions.sort_by_key(|(place, _)| (place.server, place.tool));
        Catalog {
            tools,
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

    fn tool(name: &str) -> McpTool {
        McpTool {
            name: name.into(),
            description: Some(format!("does {name}")),
            input_schema: None,
        }
    }

    #[test]
    fn names_are_sanitised_without_collapsing() {
        assert_eq!(
            hermes_name("github", "create-issue"),
            "mcp_github_create_issue"
        );
        assert_eq!(hermes_name("my-api", "query.data"), "mcp_my_api_query_data");
        assert_eq!(hermes_name("a b", "x--Y"), "mcp_a_b_x__Y");
        assert_eq!(hermes_name("uni", "café"), "mcp_uni_caf_");
        assert_eq!(toolset_name("my-api"), "mcp-my-api");
    }

    #[test]
    fn definition_is_compact_and_fills_defaults() {
        let tool = McpTool {
            name: "t".into(),
            description: None,
            input_schema: None,
        };
        let e = ToolEntry::new("s", &tool);
        assert_eq!(
            e.definition(),
            r#"{"type":"function","function":{"name":"mcp_s_t","description":"MCP tool t from s","parameters":{"type":"object","properties":{}}}}"#
        );
        assert_eq!(e.chars, e.definition().chars().count() as u64);
        assert_eq!(definition_chars("s", &tool), e.chars);
        assert!(!e.has_own_description);
        let empty_schema = McpTool {
            input_schema: Some(Map::new()),
            ..tool
        };
        assert!(ToolEntry::new("s", &empty_schema)
            .definition()
            .ends_with(r#""parameters":{"properties":{}}}}"#));
        assert_eq!(
            definition_chars("s", &empty_schema),
            ToolEntry::new("s", &empty_schema).chars
        );
    }

    #[test]
    fn include_wins_over_exclude() {
        let f = ToolFilter {
            include: vec!["a".into()],
            exclude: vec!["a".into()],
        };
        assert!(f.allows("a") && !f.allows("b"));
        let f = ToolFilter {
            include: vec![],
            exclude: vec!["a".into()],
        };
        assert!(!f.allows("a") && f.allows("b"));
        let server = Server::new("s", &[tool("a"), tool("b")], &f);
        assert_eq!(server.tools.len(), 1);
        assert_eq!(server.filtered_out, 1);
    }

    #[test]
    fn first_registered_wins_a_collision_and_catalog_is_sorted() {
        let servers = vec![
            Server::new("my-api", &[tool("q.d"), tool("z")], &ToolFilter::default()),
            Server::new("my_api", &[tool("q_d"), tool("a")], &ToolFilter::default()),
        ];
        let catalog = Catalog::build(
            &servers,
            &NameGroups::new(&servers),
            &[true, true],
            &Scope::default(),
        );
        let names: Vec<_> = catalog
            .tools
            .iter()
            .map(|r| entry(&servers, *r).name.as_str())
            .collect();
        assert_eq!(names, ["mcp_my_api_a", "mcp_my_api_q_d", "mcp_my_api_z"]);
        assert_eq!(catalog.collisions.len(), 1);
        assert_eq!(catalog.collisions[0].server, "my_api");
        assert_eq!(catalog.collisions[0].kept_server, "my-api");
    }

    #[test]
    fn disabled_servers_and_scope_are_left_out() {
        let servers = vec![
            Server::new("a", &[tool("x")], &ToolFilter::default()),
            Server::new("b", &[tool("x")], &ToolFilter::default()),
        ];
        let only_b = Scope {
            enabled_toolsets: Some(vec!["mcp-b".into()]),
            disabled_toolsets: vec![],
        };
        assert_eq!(
            Catalog::build(&servers, &NameGroups::new(&servers), &[true, true], &only_b).tools,
            [ToolRef { server: 1, tool: 0 }]
        );
        let not_a = Scope {
            enabled_toolsets: None,
            disabled_toolsets: vec!["a".into()],
        };
        assert_eq!(
            Catalog::build(&servers, &NameGroups::new(&servers), &[true, true], &not_a).tools,
            [ToolRef { server: 1, tool: 0 }]
        );
        assert_eq!(
            Catalog::build(
                &servers,
                &NameGroups::new(&servers),
                &[true, false],
                &Scope::default()
            )
            .tools,
            [ToolRef { server: 0, tool: 0 }]
        );
    }
}
