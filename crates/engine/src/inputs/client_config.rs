//! The MCP client configs users already have -> [`ClientConfig`]: which servers each agent
//! would start or reach, how, and the per-server settings that change what the agent shows its
//! model. Pure data: nothing here starts a server (`schematax capture` does, from these).
//!
//! Formats read (the kind is told by the file's name, else by its content):
//!
//! | kind | file | servers | per-server settings read |
//! |---|---|---|---|
//! | [`ClientKind::ClaudeDesktop`] | `claude_desktop_config.json` | `mcpServers` | |
//! | [`ClientKind::ClaudeCode`] | `.mcp.json`, `~/.claude.json` (top level), `managed-mcp.json` | `mcpServers` | `alwaysLoad` |
//! | [`ClientKind::Cursor`] | `.cursor/mcp.json` | `mcpServers` | |
//! | [`ClientKind::VsCode`] | `.vscode/mcp.json`, user `settings.json` | `servers`, `mcp.servers` | |
//! | [`ClientKind::GeminiCli`] | `.gemini/settings.json`, `settings.json` | `mcpServers`, `mcp.allowed`/`mcp.excluded` | `includeTools`, `excludeTools`, `trust` |
//! | [`ClientKind::Codex`] | `config.toml` | `[mcp_servers.NAME]` | `enabled_tools`, `disabled_tools` |
//! | [`ClientKind::Other`] | any other `mcpServers` JSON (Windsurf, Cline, ...) | `mcpServers` | as present |
//!
//! Every JSON entry is read the same way: `command`, `args`, `env`, `cwd` (stdio), else
//! `httpUrl`, `url` or `serverUrl` with `headers` (Streamable HTTP); `disabled: true` or
//! `enabled: false` switch a server off. Values keep their `${VAR}` references for the caller
//! to fill (Gemini CLI's bare `$VAR` is written `${VAR}`; Codex's `env_vars`,
//! `env_http_headers` and `bearer_token_env_var` become `${VAR}` values).

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

use crate::inputs::error::{read_limited, InputError};
use crate::nouns::config::Transport;

/// Largest client config read.
pub const MAX_CLIENT_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// Which agent's config a file is: it decides the keys read and how tool lists match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClientKind {
    /// Claude Desktop's `claude_desktop_config.json`.
    ClaudeDesktop,
    /// Claude Code's `.mcp.json`, `~/.claude.json` (its top-level `mcpServers`) or
    /// `managed-mcp.json`; also an `mcpServers` file a server of which sets `alwaysLoad`.
    ClaudeCode,
    /// Cursor's `.cursor/mcp.json`.
    Cursor,
    /// VS Code's `.vscode/mcp.json` (`servers`) or user `settings.json` (`mcp.servers`).
    VsCode,
    /// Codex's `config.toml` (`[mcp_servers.NAME]` tables).
    Codex,
    /// Gemini CLI's `settings.json`; also an `mcpServers` file with Gemini CLI's keys
    /// (`httpUrl`, `includeTools`, `excludeTools`, `trust`, `mcp.allowed`, `mcp.excluded`).
    GeminiCli,
    /// An `mcpServers` JSON file whose name and keys name no one client.
    Other,
}

/// A client config: its kind and its servers, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientConfig {
    /// Which agent's config this is.
    pub kind: ClientKind,
    /// Every server the file names, switched off or not, in file order.
    pub servers: Vec<ClientServer>,
}

/// One server of a client config.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientServer {
    /// The server's key in the file (raw: agents build tool names from it).
    pub name: String,
    /// False when the file switches the server off: `disabled: true` or `enabled: false`
    /// (Codex's `enabled = false`), or for Gemini CLI a name in `mcp.excluded` or missing from
    /// a given `mcp.allowed` (also the older `excludeMCPServers`/`allowMCPServers`).
    pub enabled: bool,
    /// How to start or reach it. Values may hold `${VAR}`, for the caller to fill from the
    /// environment; env and header values are secrets.
    pub transport: Transport,
    /// The working directory of a stdio server (`cwd`), as written: a relative one is
    /// relative to where the agent runs.
    pub cwd: Option<PathBuf>,
    /// Claude Code's `alwaysLoad`: `true` never defers the server's tools, `false` defers
    /// them all (a tool's `_meta["anthropic/alwaysLoad"]` overrides either way); `None` when
    /// unset.
    pub always_load: Option<bool>,
    /// The allow-list of raw tool names: Gemini CLI's `includeTools` or Codex's
    /// `enabled_tools`. `None` when unset (every tool); `Some(empty)` exposes none.
    pub include_tools: Option<Vec<String>>,
    /// The deny-list of raw tool names, applied after the allow-list: Gemini CLI's
    /// `excludeTools` or Codex's `disabled_tools`.
    pub exclude_tools: Vec<String>,
    /// Gemini CLI's `trust` (calls run without confirmation); `None` when unset.
    pub trust: Option<bool>,
}

impl ClientServer {
    /// Whether the agent `kind` shows the model this server's tool `tool` (its raw MCP name),
    /// by the server's lists: not in `exclude_tools`, and in `include_tools` when that is set.
    /// Gemini CLI also takes an allow-list entry `tool(...)` for `tool` (`isEnabled` in
    /// google-gemini/gemini-cli's `packages/core/src/tools/mcp-client.ts`); Codex matches names
    /// exactly (`ToolFilter` in openai/codex). Whether the server is `enabled` is not looked
    /// at here.
    pub fn exposes_tool(&self, kind: ClientKind, tool: &str) -> bool {
        if self.exclude_tools.iter().any(|name| name == tool) {
            return false;
        }
        let Some(include) = &self.include_tools else {
            return true;
        };
        include.iter().any(|entry| {
            entry == tool
                || (kind == ClientKind::GeminiCli
                    && entry
                        .strip_prefix(tool)
                        .is_some_and(|rest| rest.starts_with('(')))
        })
    }
}

/// Why a client config cannot be used, one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientConfigError {
    /// The bytes are not UTF-8.
    #[error("not valid UTF-8 (at byte {0})")]
    NotUtf8(usize),
    /// Not JSON (nor, for a file not named `.toml`, a Codex `config.toml`).
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// A `.toml` file that is not TOML.
    #[error("invalid TOML at line {line}, column {column}: {message}")]
    InvalidToml {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the parser says, one line.
        message: String,
    },
    /// JSON whose top level is not an object.
    #[error("expected a JSON object at the top level")]
    NotAnObject,
    /// No server table in a JSON config.
    #[error("no `mcpServers` (Claude, Cursor, Gemini CLI) or `servers` (VS Code) object")]
    NoServers,
    /// No server table in a TOML config.
    #[error("no `[mcp_servers.NAME]` tables (Codex config.toml)")]
    NoCodexServers,
    /// A server that can be neither started nor reached.
    #[error("server {0:?} has neither `command` nor `url`")]
    NoTransport(String),
    /// A key of the wrong type: where it is and what it should be.
    #[error("{place}: expected {expected}")]
    WrongType {
        /// The key: `mcpServers`, or `server "x": args`.
        place: String,
        /// What it should be: `an object`, `a string`, `a list of strings`, `true or false`.
        expected: &'static str,
    },
}

/// Reads a client config (at most [`MAX_CLIENT_CONFIG_BYTES`]): an error names the file and
/// what is wrong with it, in one line.
pub fn load_client_config(path: &Path) -> Result<ClientConfig, InputError> {
    let bytes = read_limited(path, MAX_CLIENT_CONFIG_BYTES)?;
    parse_client_config(&bytes, path).map_err(|reason| InputError::new(path, reason.to_string()))
}

/// Parses a client config; `path` tells its kind by name (`config.toml`, `.mcp.json`,
/// `.gemini/settings.json`, ...) and is not read.
pub fn parse_client_config(bytes: &[u8], path: &Path) -> Result<ClientConfig, ClientConfigError> {
    let text =
        std::str::from_utf8(bytes).map_err(|e| ClientConfigError::NotUtf8(e.valid_up_to()))?;
    if path.extension().is_some_and(|e| e == "toml") {
        return parse_codex(text);
    }
    match serde_json::from_str::<Value>(text) {
        Ok(root) => parse_json(root, path),
        // A Codex config under another name is still read as one.
        Err(error) => match text.parse::<toml::Table>() {
            Ok(table) if table.contains_key("mcp_servers") => codex_servers(table),
            _ => Err(ClientConfigError::InvalidJson(error.to_string())),
        },
    }
}

/// The kind a file's name tells, when it tells one.
fn kind_by_name(path: &Path) -> Option<ClientKind> {
    let file = path.file_name()?.to_str()?;
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|name| name.to_str());
    Some(match (file, folder) {
        ("claude_desktop_config.json", _) => ClientKind::ClaudeDesktop,
        (".mcp.json" | ".claude.json" | "managed-mcp.json", _) | (_, Some(".claude")) => {
            ClientKind::ClaudeCode
        }
        (_, Some(".gemini")) | ("settings.json", _) => ClientKind::GeminiCli,
        (_, Some(".cursor")) => ClientKind::Cursor,
        (_, Some(".vscode")) => ClientKind::VsCode,
        _ => return None,
    })
}

/// The kind an `mcpServers` file's keys tell: Gemini CLI's or Claude Code's own keys.
fn kind_by_content(root: &Map<String, Value>, servers: &Map<String, Value>) -> ClientKind {
    let entry_has = |keys: &[&str]| {
        servers
            .values()
            .filter_map(Value::as_object)
            .any(|entry| keys.iter().any(|key| entry.contains_key(*key)))
    };
    let gemini_lists = root
        .get("mcp")
        .and_then(Value::as_object)
        .is_some_and(|mcp| mcp.contains_key("allowed") || mcp.contains_key("excluded"))
        || root.contains_key("allowMCPServers")
        || root.contains_key("excludeMCPServers");
    if gemini_lists || entry_has(&["httpUrl", "includeTools", "excludeTools", "trust"]) {
        ClientKind::GeminiCli
    } else if entry_has(&["alwaysLoad"]) {
        ClientKind::ClaudeCode
    } else {
        ClientKind::Other
    }
}

/// A JSON client config: `mcpServers`, `servers` (VS Code) or `mcp.servers` (VS Code's user
/// settings).
fn parse_json(root: Value, path: &Path) -> Result<ClientConfig, ClientConfigError> {
    let Value::Object(root) = root else {
        return Err(ClientConfigError::NotAnObject);
    };
    let object = |value: &Value, place: &str| {
        value
            .as_object()
            .cloned()
            .ok_or_else(|| wrong(place.to_string(), "an object"))
    };
    let (kind, servers) = if let Some(servers) = root.get("mcpServers") {
        let servers = object(servers, "mcpServers")?;
        let kind = kind_by_name(path)
            .filter(|kind| *kind != ClientKind::VsCode)
            .unwrap_or_else(|| kind_by_content(&root, &servers));
        (kind, servers)
    } else if let Some(servers) = root.get("servers") {
        (ClientKind::VsCode, object(servers, "servers")?)
    } else if let Some(servers) = root.get("mcp").and_then(|mcp| mcp.get("servers")) {
        (ClientKind::VsCode, object(servers, "mcp.servers")?)
    } else {
        return Err(ClientConfigError::NoServers);
    };
    let lists = if kind == ClientKind::GeminiCli {
        GeminiLists::read(&root)?
    } else {
        GeminiLists::default()
    };
    let servers = servers
        .iter()
        .map(|(name, entry)| {
            let mut server = json_server(kind, name, entry)?;
            server.enabled &= lists.admits(name);
            Ok(server)
        })
        .collect::<Result<_, ClientConfigError>>()?;
    Ok(ClientConfig { kind, servers })
}

/// Gemini CLI's lists of the servers it connects: `mcp.allowed` (only these) and
/// `mcp.excluded` (never these); the older top-level `allowMCPServers`/`excludeMCPServers`
/// when the newer are absent.
#[derive(Debug, Default)]
struct GeminiLists {
    allowed: Option<Vec<String>>,
    excluded: Vec<String>,
}

impl GeminiLists {
    fn read(root: &Map<String, Value>) -> Result<GeminiLists, ClientConfigError> {
        let list = |newer: &str, older: &str| -> Result<Option<Vec<String>>, ClientConfigError> {
            let (value, place) = match root.get("mcp").and_then(|mcp| mcp.get(newer)) {
                Some(value) => (value, format!("mcp.{newer}")),
                None => match root.get(older) {
                    Some(value) => (value, older.to_string()),
                    None => return Ok(None),
                },
            };
            string_list(value, place).map(Some)
        };
        Ok(GeminiLists {
            allowed: list("allowed", "allowMCPServers")?,
            excluded: list("excluded", "excludeMCPServers")?.unwrap_or_default(),
        })
    }

    /// Whether the lists let server `name` connect.
    fn admits(&self, name: &str) -> bool {
        !self.excluded.iter().any(|n| n == name)
            && self
                .allowed
                .as_ref()
                .is_none_or(|allowed| allowed.iter().any(|n| n == name))
    }
}

/// One entry of a JSON config's server table.
fn json_server(
    kind: ClientKind,
    name: &str,
    entry: &Value,
) -> Result<ClientServer, ClientConfigError> {
    let entry = Entry::new(name, entry)?;
    // Gemini CLI fills `$VAR` as well as `${VAR}` in every string of its settings.
    let fill = |text: String| {
        if kind == ClientKind::GeminiCli {
            braced_vars(&text)
        } else {
            text
        }
    };
    let url = match entry.text("httpUrl")? {
        Some(url) => Some(url),
        None => match entry.text("url")? {
            Some(url) => Some(url),
            None => entry.text("serverUrl")?,
        },
    };
    let transport = match (entry.text("command")?, url) {
        (Some(command), _) => Transport::Stdio {
            command: fill(command),
            args: entry
                .strings("args")?
                .unwrap_or_default()
                .into_iter()
                .map(fill)
                .collect(),
            env: fill_pairs(entry.pairs("env")?, fill),
        },
        (None, Some(url)) => Transport::Http {
            url: fill(url),
            headers: fill_pairs(entry.pairs("headers")?, fill),
        },
        (None, None) => return Err(ClientConfigError::NoTransport(name.to_string())),
    };
    let disabled = entry.flag("disabled")? == Some(true) || entry.flag("enabled")? == Some(false);
    Ok(ClientServer {
        name: name.to_string(),
        enabled: !disabled,
        transport,
        cwd: entry.text("cwd")?.map(|cwd| PathBuf::from(fill(cwd))),
        always_load: entry.flag("alwaysLoad")?,
        include_tools: entry.strings("includeTools")?,
        exclude_tools: entry.strings("excludeTools")?.unwrap_or_default(),
        trust: entry.flag("trust")?,
    })
}

/// `pairs` with every value passed through `fill`.
fn fill_pairs(
    pairs: Vec<(String, String)>,
    fill: impl Fn(String) -> String,
) -> Vec<(String, String)> {
    pairs.into_iter().map(|(k, v)| (k, fill(v))).collect()
}

/// A Codex `config.toml`.
fn parse_codex(text: &str) -> Result<ClientConfig, ClientConfigError> {
    let table = text.parse::<toml::Table>().map_err(|error| {
        let mut at = error.span().map_or(0, |span| span.start).min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &text[..at];
        ClientConfigError::InvalidToml {
            line: before.matches('\n').count() + 1,
            column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
            message: crate::inputs::error::one_line(error.message()),
        }
    })?;
    codex_servers(table)
}

/// The `[mcp_servers.NAME]` tables of a parsed Codex config, read as openai/codex reads them
/// (`RawMcpServerConfig` in `codex-rs/core/src/config/types.rs`): `command`, `args`, `env`, `env_vars` (variables
/// passed on from Codex's environment), `cwd`; or `url`, `http_headers`, `env_http_headers`
/// (header -> variable), `bearer_token_env_var`; and `enabled`, `enabled_tools`,
/// `disabled_tools`.
fn codex_servers(mut table: toml::Table) -> Result<ClientConfig, ClientConfigError> {
    let servers = match table.remove("mcp_servers") {
        Some(toml::Value::Table(servers)) => servers,
        Some(_) => return Err(wrong("mcp_servers".to_string(), "a table")),
        None => return Err(ClientConfigError::NoCodexServers),
    };
    let servers = servers
        .into_iter()
        .map(|(name, entry)| codex_server(&name, &json_of_toml(entry)))
        .collect::<Result<_, _>>()?;
    Ok(ClientConfig {
        kind: ClientKind::Codex,
        servers,
    })
}

/// One `[mcp_servers.NAME]` table.
fn codex_server(name: &str, entry: &Value) -> Result<ClientServer, ClientConfigError> {
    let entry = Entry::new(name, entry)?;
    let from_env = |variable: &str| format!("${{{variable}}}");
    let transport = match (entry.text("command")?, entry.text("url")?) {
        (Some(command), _) => {
            let mut env = entry.pairs("env")?;
            for variable in entry.strings("env_vars")?.unwrap_or_default() {
                let value = from_env(&variable);
                env.push((variable, value));
            }
            Transport::Stdio {
                command,
                args: entry.strings("args")?.unwrap_or_default(),
                env,
            }
        }
        (None, Some(url)) => {
            let mut headers = entry.pairs("http_headers")?;
            for (header, variable) in entry.pairs("env_http_headers")? {
                headers.push((header, from_env(&variable)));
            }
            if let Some(variable) = entry.text("bearer_token_env_var")? {
                headers.push((
                    "Authorization".to_string(),
                    format!("Bearer {}", from_env(&variable)),
                ));
            }
            Transport::Http { url, headers }
        }
        (None, None) => return Err(ClientConfigError::NoTransport(name.to_string())),
    };
    Ok(ClientServer {
        name: name.to_string(),
        enabled: entry.flag("enabled")? != Some(false),
        transport,
        cwd: entry.text("cwd")?.map(PathBuf::from),
        always_load: None,
        include_tools: entry.strings("enabled_tools")?,
        exclude_tools: entry.strings("disabled_tools")?.unwrap_or_default(),
        trust: None,
    })
}

/// A TOML value as the JSON value it stands for (a date as its text).
fn json_of_toml(value: toml::Value) -> Value {
    match value {
        toml::Value::String(text) => Value::String(text),
        toml::Value::Integer(n) => Value::from(n),
        toml::Value::Float(x) => serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(at) => Value::String(at.to_string()),
        toml::Value::Array(items) => Value::Array(items.into_iter().map(json_of_toml).collect()),
        toml::Value::Table(table) => Value::Object(
            table
                .into_iter()
                .map(|(key, item)| (key, json_of_toml(item)))
                .collect(),
        ),
    }
}

/// The keys of one server entry, each checked for its type.
struct Entry<'a> {
    server: &'a str,
    map: &'a Map<String, Value>,
}

impl<'a> Entry<'a> {
    fn new(server: &'a str, entry: &'a Value) -> Result<Entry<'a>, ClientConfigError> {
        match entry {
            Value::Object(map) => Ok(Entry { server, map }),
            _ => Err(wrong(format!("server {server:?}"), "an object")),
        }
    }

    fn place(&self, key: &str) -> String {
        format!("server {:?}: {key}", self.server)
    }

    /// A string key; absent or null is `None`.
    fn text(&self, key: &str) -> Result<Option<String>, ClientConfigError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(_) => Err(wrong(self.place(key), "a string")),
        }
    }

    /// A list of strings; absent or null is `None`.
    fn strings(&self, key: &str) -> Result<Option<Vec<String>>, ClientConfigError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => string_list(value, self.place(key)).map(Some),
        }
    }

    /// A true/false key; absent or null is `None`.
    fn flag(&self, key: &str) -> Result<Option<bool>, ClientConfigError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(flag)) => Ok(Some(*flag)),
            Some(_) => Err(wrong(self.place(key), "true or false")),
        }
    }

    /// A mapping of names to values (`env`, `headers`), in file order; a number or a boolean
    /// value is taken as its text, as the environment or a header would carry it.
    fn pairs(&self, key: &str) -> Result<Vec<(String, String)>, ClientConfigError> {
        let map = match self.map.get(key) {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Object(map)) => map,
            Some(_) => return Err(wrong(self.place(key), "an object of strings")),
        };
        map.iter()
            .map(|(name, value)| match value {
                Value::String(text) => Ok((name.clone(), text.clone())),
                Value::Number(_) | Value::Bool(_) => Ok((name.clone(), value.to_string())),
                _ => Err(wrong(self.place(&format!("{key}.{name}")), "a string")),
            })
            .collect()
    }
}

/// A list of strings at `place`.
fn string_list(value: &Value, place: String) -> Result<Vec<String>, ClientConfigError> {
    value
        .as_array()
        .and_then(|items| {
            items
                .iter()
                .map(|item| item.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
        })
        .ok_or_else(|| wrong(place, "a list of strings"))
}

fn wrong(place: String, expected: &'static str) -> ClientConfigError {
    ClientConfigError::WrongType { place, expected }
}

/// `text` with every bare `$NAME` written `${NAME}` (Gemini CLI fills both; `NAME` is letters,
/// digits and `_`); `${...}` and a `$` before anything else are left as they are.
fn braced_vars(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if name_len == 0 {
            out.push('$');
        } else {
            out.push_str(&format!("${{{}}}", &after[..name_len]));
        }
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, path: &str) -> Result<ClientConfig, ClientConfigError> {
        parse_client_config(text.as_bytes(), Path::new(path))
    }

    fn names(config: &ClientConfig) -> Vec<(&str, bool)> {
        config
            .servers
            .iter()
            .map(|s| (s.name.as_str(), s.enabled))
            .collect()
    }

    #[test]
    fn claude_desktop_and_cursor_shape() {
        let text = r#"{"mcpServers": {
            "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"K": "${K}", "PORT": 3000}},
            "remote": {"url": "https://example.invalid/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
            "off": {"command": "x", "disabled": true},
            "windsurf": {"serverUrl": "https://example.invalid/w"}
        }}"#;
        let config = parse(text, "/home/u/.config/Claude/claude_desktop_config.json").unwrap();
        assert_eq!(config.kind, ClientKind::ClaudeDesktop);
        assert_eq!(
            names(&config),
            [
                ("fs", true),
                ("remote", true),
                ("off", false),
                ("windsurf", true)
            ]
        );
        assert_eq!(
            config.servers[0].transport,
            Transport::Stdio {
                command: "npx".into(),
                args: vec![
                    "-y".into(),
                    "@modelcontextprotocol/server-filesystem".into(),
                    "/tmp".into()
                ],
                env: vec![("K".into(), "${K}".into()), ("PORT".into(), "3000".into())],
            }
        );
        assert_eq!(
            config.servers[1].transport,
            Transport::Http {
                url: "https://example.invalid/mcp".into(),
                headers: vec![("Authorization".into(), "Bearer ${TOKEN}".into())],
            }
        );
        assert!(
            matches!(&config.servers[3].transport, Transport::Http { url, .. } if url == "https://example.invalid/w")
        );
        assert_eq!(
            parse(text, "p/.cursor/mcp.json").unwrap().kind,
            ClientKind::Cursor
        );
        assert_eq!(
            parse(text, "mcp_config.json").unwrap().kind,
            ClientKind::Other
        );
    }

    #[test]
    fn claude_code_always_load_per_server() {
        let text = r#"{"mcpServers": {
            "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "alwaysLoad": true},
            "slack": {"command": "slack-mcp", "alwaysLoad": false},
            "time": {"command": "uvx", "args": ["mcp-server-time"]}
        }}"#;
        let config = parse(text, "project/.mcp.json").unwrap();
        assert_eq!(config.kind, ClientKind::ClaudeCode);
        let always: Vec<_> = config.servers.iter().map(|s| s.always_load).collect();
        assert_eq!(always, [Some(true), Some(false), None]);
        // The key alone tells Claude Code from an unnamed file.
        assert_eq!(
            parse(text, "servers.json").unwrap().kind,
            ClientKind::ClaudeCode
        );
        assert_eq!(
            parse(text, "/home/u/.claude.json").unwrap().kind,
            ClientKind::ClaudeCode
        );
    }

    #[test]
    fn vs_code_shapes() {
        let config = parse(r#"{"inputs": [], "servers": {"memory": {"type": "stdio", "command": "npx", "args": ["-y", "m"]}, "web": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}"#, ".vscode/mcp.json").unwrap();
        assert_eq!(config.kind, ClientKind::VsCode);
        assert_eq!(names(&config), [("memory", true), ("web", true)]);
        let user = parse(
            r#"{"editor.fontSize": 14, "mcp": {"servers": {"m": {"command": "x"}}}}"#,
            "Code/User/settings.json",
        )
        .unwrap();
        assert_eq!(user.kind, ClientKind::VsCode);
        assert_eq!(names(&user), [("m", true)]);
    }

    #[test]
    fn gemini_cli_settings() {
        let text = r#"{
            "mcp": {"excluded": ["experimental"]},
            "mcpServers": {
                "python": {"command": "python", "args": ["-m", "srv", "$HOME/x"], "cwd": "./servers", "env": {"API_KEY": "$MY_TOKEN", "B": "${OTHER}", "C": "cost $5"}, "trust": true, "includeTools": ["safe_tool", "reader(path)"], "excludeTools": ["safe_tool"]},
                "remote": {"httpUrl": "https://example.invalid/mcp", "url": "https://example.invalid/sse", "headers": {"Authorization": "Bearer $TOKEN"}},
                "experimental": {"command": "exp"}
            }
        }"#;
        let config = parse(text, "/home/u/.gemini/settings.json").unwrap();
        assert_eq!(config.kind, ClientKind::GeminiCli);
        assert_eq!(
            names(&config),
            [("python", true), ("remote", true), ("experimental", false)]
        );
        let python = &config.servers[0];
        assert_eq!(
            python.transport,
            Transport::Stdio {
                command: "python".into(),
                args: vec!["-m".into(), "srv".into(), "${HOME}/x".into()],
                env: vec![
                    ("API_KEY".into(), "${MY_TOKEN}".into()),
                    ("B".into(), "${OTHER}".into()),
                    ("C".into(), "cost ${5}".into()),
                ],
            }
        );
        assert_eq!(python.cwd.as_deref(), Some(Path::new("./servers")));
        assert_eq!(python.trust, Some(true));
        assert_eq!(python.exclude_tools, ["safe_tool"]);
        // excludeTools wins over includeTools; `name(...)` in includeTools admits `name`.
        let kind = ClientKind::GeminiCli;
        assert!(!python.exposes_tool(kind, "safe_tool"));
        assert!(python.exposes_tool(kind, "reader"));
        assert!(!python.exposes_tool(kind, "read"));
        assert!(!python.exposes_tool(kind, "writer"));
        assert!(config.servers[1].exposes_tool(kind, "anything"));
        // httpUrl is Streamable HTTP and wins over url.
        assert_eq!(
            config.servers[1].transport,
            Transport::Http {
                url: "https://example.invalid/mcp".into(),
                headers: vec![("Authorization".into(), "Bearer ${TOKEN}".into())],
            }
        );
        // `mcp.allowed` admits only those named; the older key names too.
        let allowed = parse(
            r#"{"allowMCPServers": ["b"], "mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}}"#,
            "settings.json",
        )
        .unwrap();
        assert_eq!(names(&allowed), [("a", false), ("b", true)]);
        // Gemini CLI's keys tell the kind under any name.
        assert_eq!(
            parse(
                r#"{"mcpServers": {"a": {"httpUrl": "http://h/mcp"}}}"#,
                "x.json"
            )
            .unwrap()
            .kind,
            ClientKind::GeminiCli
        );
    }

    #[test]
    fn codex_config_toml() {
        let text = r#"
model = "gpt-5.5"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
cwd = "/srv/docs"
env_vars = ["DOCS_TOKEN"]
enabled_tools = ["search", "fetch"]
disabled_tools = ["fetch"]

[mcp_servers.docs.env]
LOG = "debug"

[mcp_servers.github]
url = "https://api.githubcopilot.com/mcp/"
bearer_token_env_var = "GITHUB_PAT"
http_headers = { "X-Client" = "codex" }
env_http_headers = { "X-Org" = "GH_ORG" }

[mcp_servers.off]
command = "off-mcp"
enabled = false
"#;
        let config = parse(text, "/home/u/.codex/config.toml").unwrap();
        assert_eq!(config.kind, ClientKind::Codex);
        assert_eq!(
            names(&config),
            [("docs", true), ("github", true), ("off", false)]
        );
        let docs = &config.servers[0];
        assert_eq!(
            docs.transport,
            Transport::Stdio {
                command: "npx".into(),
                args: vec!["-y".into(), "docs-mcp".into()],
                env: vec![
                    ("LOG".into(), "debug".into()),
                    ("DOCS_TOKEN".into(), "${DOCS_TOKEN}".into())
                ],
            }
        );
        assert_eq!(docs.cwd.as_deref(), Some(Path::new("/srv/docs")));
        assert_eq!(
            docs.include_tools.as_deref(),
            Some(&["search".to_string(), "fetch".to_string()][..])
        );
        assert!(docs.exposes_tool(ClientKind::Codex, "search"));
        assert!(!docs.exposes_tool(ClientKind::Codex, "fetch"));
        assert!(!docs.exposes_tool(ClientKind::Codex, "other"));
        assert_eq!(
            config.servers[1].transport,
            Transport::Http {
                url: "https://api.githubcopilot.com/mcp/".into(),
                headers: vec![
                    ("X-Client".into(), "codex".into()),
                    ("X-Org".into(), "${GH_ORG}".into()),
                    ("Authorization".into(), "Bearer ${GITHUB_PAT}".into()),
                ],
            }
        );
        // A Codex config under another name is told by its content.
        assert_eq!(
            parse(text, "codex-settings").unwrap().kind,
            ClientKind::Codex
        );
    }

    #[test]
    fn bad_configs_are_one_line_errors() {
        let error = |text: &str, path: &str| parse(text, path).unwrap_err().to_string();
        assert_eq!(
            error("{}", "x.json"),
            "no `mcpServers` (Claude, Cursor, Gemini CLI) or `servers` (VS Code) object"
        );
        assert_eq!(
            error(r#"{"mcpServers": {"x": {}}}"#, "x.json"),
            "server \"x\" has neither `command` nor `url`"
        );
        assert_eq!(
            error(
                r#"{"mcpServers": {"x": {"command": "c", "args": "-y"}}}"#,
                "x.json"
            ),
            "server \"x\": args: expected a list of strings"
        );
        assert_eq!(
            error(
                r#"{"mcpServers": {"x": {"command": "c", "env": {"A": {}}}}}"#,
                "x.json"
            ),
            "server \"x\": env.A: expected a string"
        );
        assert_eq!(
            error(
                r#"{"mcpServers": {"x": {"command": "c", "alwaysLoad": "yes"}}}"#,
                ".mcp.json"
            ),
            "server \"x\": alwaysLoad: expected true or false"
        );
        assert_eq!(
            error(r#"{"mcpServers": [1]}"#, "x.json"),
            "mcpServers: expected an object"
        );
        assert_eq!(
            error(
                r#"{"mcp": {"excluded": "a"}, "mcpServers": {}}"#,
                "settings.json"
            ),
            "mcp.excluded: expected a list of strings"
        );
        assert_eq!(
            error("[]", "x.json"),
            "expected a JSON object at the top level"
        );
        assert!(error("{", "x.json").starts_with("invalid JSON: "));
        assert_eq!(
            error("model = 1\n", "config.toml"),
            "no `[mcp_servers.NAME]` tables (Codex config.toml)"
        );
        assert_eq!(
            error("[mcp_servers.a]\nargs = [1]\n", "config.toml"),
            "server \"a\" has neither `command` nor `url`"
        );
        let toml = error("a = 1\n[mcp_servers.x\ncommand = \"c\"\n", "config.toml");
        assert!(
            toml.starts_with("invalid TOML at line 2, column ") && !toml.contains('\n'),
            "{toml}"
        );
        assert_eq!(
            parse_client_config(b"\xff", Path::new("x.json"))
                .unwrap_err()
                .to_string(),
            "not valid UTF-8 (at byte 0)"
        );
    }

    #[test]
    fn deep_nesting_is_refused_not_followed() {
        for text in [
            format!("x = {}", "[".repeat(100_000)),
            format!(
                "[mcp_servers.a]\ncommand = \"c\"\nargs = {}1{}",
                "[".repeat(50_000),
                "]".repeat(50_000)
            ),
        ] {
            let error = parse(&text, "config.toml").unwrap_err().to_string();
            assert!(error.contains("recursion"), "{error}");
        }
        let json = format!(r#"{{"mcpServers": {}}}"#, "[".repeat(100_000));
        assert!(parse(&json, "x.json")
            .unwrap_err()
            .to_string()
            .contains("recursion"));
    }

    #[test]
    fn loading_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "[mcp_servers.a]\ncommand = 5\n").unwrap();
        let error = load_client_config(&path).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "{}: server \"a\": command: expected a string",
                path.display()
            )
        );
        assert!(load_client_config(&dir.path().join("missing.json")).is_err());
    }

    #[test]
    fn bare_variables_get_braces() {
        assert_eq!(braced_vars("$A-${B} $ $$C x$"), "${A}-${B} $ $${C} x$");
        assert_eq!(braced_vars("plain"), "plain");
        assert_eq!(braced_vars("é$NAMÉ"), "é${NAM}É");
    }
}
