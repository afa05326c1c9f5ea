//! `hermes.yaml` -> [`Config`]: the `tools.tool_search` settings (ENGINE.md §5), the model
//! (§4, context length) and the `mcp_servers` entries (§1, include/exclude and `enabled`).
//!
//! A config typo never fails: every fallback is recorded in [`Config::warnings`].

use serde_yaml::Value as Yaml;
use std::fmt;
use std::path::Path;

use super::error::InputError;

/// Largest config file read, so a mistaken path to a huge file fails fast.
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// `tools.tool_search.enabled`: auto (the threshold decides), on or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Active when the deferrable schemas reach the threshold.
    #[default]
    Auto,
    /// Always active (while anything is deferrable).
    On,
    /// Never active.
    Off,
}

impl Mode {
    /// The lowercase name used in YAML, JSON and on screen.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::On => "on",
            Mode::Off => "off",
        }
    }

    /// The next mode in the cycle auto -> on -> off -> auto.
    pub fn cycled(self) -> Mode {
        match self {
            Mode::Auto => Mode::On,
            Mode::On => Mode::Off,
            Mode::Off => Mode::Auto,
        }
    }

    /// Parses `enabled` text as Hermes does (trimmed, lowercased); `None` for anything unknown.
    pub fn from_text(text: &str) -> Option<Mode> {
        match text.trim().to_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Some(Mode::On),
            "false" | "0" | "no" | "off" => Some(Mode::Off),
            "auto" => Some(Mode::Auto),
            _ => None,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The resolved `tools.tool_search` block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolSearchSettings {
    /// auto / on / off.
    pub enabled: Mode,
    /// Percent of the context window the deferrable schemas must reach, in [0, 100].
    pub threshold_pct: f64,
    /// Upper bound of a search limit, in [1, 50].
    pub max_search_limit: u32,
    /// Limit used when a search names none, in [1, max_search_limit].
    pub search_default_limit: u32,
}

/// Default `threshold_pct`.
pub const DEFAULT_THRESHOLD_PCT: f64 = 10.0;
/// Default `max_search_limit`.
pub const DEFAULT_MAX_SEARCH_LIMIT: i64 = 20;
/// Default `search_default_limit`.
pub const DEFAULT_SEARCH_LIMIT: i64 = 5;
/// Hard bounds of `max_search_limit`.
pub const MAX_SEARCH_LIMIT_RANGE: (i64, i64) = (1, 50);

impl Default for ToolSearchSettings {
    fn default() -> Self {
        ToolSearchSettings {
            enabled: Mode::Auto,
            threshold_pct: DEFAULT_THRESHOLD_PCT,
            max_search_limit: DEFAULT_MAX_SEARCH_LIMIT as u32,
            search_default_limit: DEFAULT_SEARCH_LIMIT as u32,
        }
    }
}

/// A YAML or JSON scalar reduced to what the §5 parsing rules look at.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar<'a> {
    /// The key is absent or null.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer literal.
    Int(i128),
    /// A float literal (may be NaN or infinite in YAML).
    Float(f64),
    /// A string.
    Text(&'a str),
    /// A list or mapping.
    Compound,
}

impl<'a> Scalar<'a> {
    /// Reads a YAML value.
    pub fn from_yaml(value: Option<&'a Yaml>) -> Self {
        match value {
            None | Some(Yaml::Null) => Scalar::Null,
            Some(Yaml::Bool(b)) => Scalar::Bool(*b),
            Some(Yaml::Number(n)) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Scalar::Int(i as i128),
                (_, Some(u)) => Scalar::Int(u as i128),
                _ => Scalar::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Some(Yaml::String(s)) => Scalar::Text(s),
            Some(Yaml::Tagged(t)) => Scalar::from_yaml(Some(&t.value)),
            Some(_) => Scalar::Compound,
        }
    }

    /// Reads a JSON value (as `tool_search` receives its `limit` argument).
    pub fn from_json(value: Option<&'a serde_json::Value>) -> Self {
        use serde_json::Value as Json;
        match value {
            None | Some(Json::Null) => Scalar::Null,
            Some(Json::Bool(b)) => Scalar::Bool(*b),
            Some(Json::Number(n)) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Scalar::Int(i as i128),
                (_, Some(u)) => Scalar::Int(u as i128),
                _ => Scalar::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Some(Json::String(s)) => Scalar::Text(s),
            Some(_) => Scalar::Compound,
        }
    }

    /// The value as it reads in a warning.
    pub fn describe(&self) -> String {
        match self {
            Scalar::Null => "null".into(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => f.to_string(),
            Scalar::Text(s) => format!("{s:?}"),
            Scalar::Compound => "a list or mapping".into(),
        }
    }

    /// The §5 integer rule: an integer, a float truncated, a numeric string parsed, a boolean
    /// as 1 or 0; `None` for anything else.
    pub fn as_integer(&self) -> Option<i128> {
        match self {
            Scalar::Bool(b) => Some(i128::from(*b)),
            Scalar::Int(i) => Some(*i),
            Scalar::Float(f) if f.is_finite() => Some(f.trunc().clamp(-1e30, 1e30) as i128),
            Scalar::Text(s) => s.trim().parse::<i128>().ok(),
            _ => None,
        }
    }

    /// The §5 number rule of `threshold_pct`: a number or numeric string, finite.
    pub fn as_finite_number(&self) -> Option<f64> {
        let number = match self {
            Scalar::Bool(b) => f64::from(u8::from(*b)),
            Scalar::Int(i) => *i as f64,
            Scalar::Float(f) => *f,
            Scalar::Text(s) => s.trim().parse::<f64>().ok()?,
            _ => return None,
        };
        number.is_finite().then_some(number)
    }
}

/// Applies the integer rule to `raw` and clamps into `[low, high]`; `fallback` when unparseable.
pub fn clamp_integer(raw: &Scalar<'_>, fallback: i64, low: i64, high: i64) -> i64 {
    let value = raw.as_integer().unwrap_or(fallback as i128);
    value.clamp(low as i128, high as i128) as i64
}

impl ToolSearchSettings {
    /// Parses the value of `tools.tool_search` (absent = `None`), recording every fallback.
    pub fn parse(value: Option<&Yaml>, warnings: &mut Vec<String>) -> ToolSearchSettings {
        let mut settings = ToolSearchSettings::default();
        let map = match value {
            None | Some(Yaml::Null) => return settings,
            Some(Yaml::Mapping(map)) => map,
            Some(Yaml::Bool(true)) => return settings,
            Some(Yaml::Bool(false)) => {
                settings.enabled = Mode::Off;
                return settings;
            }
            Some(Yaml::String(s)) => {
                match s.trim().to_lowercase().as_str() {
                    "false" | "off" | "no" => settings.enabled = Mode::Off,
                    "true" | "auto" => {}
                    _ => warnings.push(format!(
                        "tools.tool_search: {s:?} is not true/false/off/no; using auto with defaults"
                    )),
                }
                return settings;
            }
            Some(other) => {
                warnings.push(format!(
                    "tools.tool_search: expected a mapping or a boolean, found {}; using auto with defaults",
                    Scalar::from_yaml(Some(other)).describe()
                ));
                return settings;
            }
        };
        let get = |key: &str| map.get(key);

        let enabled = Scalar::from_yaml(get("enabled"));
        settings.enabled = match &enabled {
            Scalar::Null => Mode::Auto,
            Scalar::Bool(b) => Mode::from_text(&b.to_string()).unwrap_or_default(),
            Scalar::Int(i) => Mode::from_text(&i.to_string()).unwrap_or_else(|| {
                warnings.push(format!(
                    "tools.tool_search.enabled: {i} is not auto/on/off; using auto"
                ));
                Mode::Auto
            }),
            Scalar::Text(s) => Mode::from_text(s).unwrap_or_else(|| {
                warnings.push(format!(
                    "tools.tool_search.enabled: {s:?} is not auto/on/off; using auto"
                ));
                Mode::Auto
            }),
            other => {
                warnings.push(format!(
                    "tools.tool_search.enabled: {} is not auto/on/off; using auto",
                    other.describe()
                ));
                Mode::Auto
            }
        };

        let threshold = Scalar::from_yaml(get("threshold_pct"));
        if threshold != Scalar::Null {
            match threshold.as_finite_number() {
                Some(pct) => {
                    let clamped = pct.clamp(0.0, 100.0);
                    if clamped != pct {
                        warnings.push(format!(
                            "tools.tool_search.threshold_pct: {pct} is outside [0, 100]; clamped to {clamped}"
                        ));
                    }
                    settings.threshold_pct = clamped;
                }
                None => warnings.push(format!(
                    "tools.tool_search.threshold_pct: {} is not a finite number; using {DEFAULT_THRESHOLD_PCT}",
                    threshold.describe()
                )),
            }
        }

        // max_search_limit is parsed first: it bounds search_default_limit.
        let (low, high) = MAX_SEARCH_LIMIT_RANGE;
        let max = parse_limit_key(
            "max_search_limit",
            get("max_search_limit"),
            DEFAULT_MAX_SEARCH_LIMIT,
            low,
            high,
            warnings,
        );
        let default = parse_limit_key(
            "search_default_limit",
            get("search_default_limit"),
            DEFAULT_SEARCH_LIMIT,
            1,
            max,
            warnings,
        );
        settings.max_search_limit = max as u32;
        settings.search_default_limit = default as u32;

        const KNOWN: [&str; 4] = [
            "enabled",
            "threshold_pct",
            "max_search_limit",
            "search_default_limit",
        ];
        for key in map.keys() {
            let name = yaml_key(key);
            if !KNOWN.contains(&name.as_str()) {
                warnings.push(format!("tools.tool_search: unknown key {name:?} ignored"));
            }
        }
        settings
    }
}

/// One limit key of §5, with a warning for each fallback or clamp.
fn parse_limit_key(
    key: &str,
    value: Option<&Yaml>,
    fallback: i64,
    low: i64,
    high: i64,
    warnings: &mut Vec<String>,
) -> i64 {
    let raw = Scalar::from_yaml(value);
    if raw == Scalar::Null {
        return fallback.clamp(low, high);
    }
    let Some(parsed) = raw.as_integer() else {
        let used = fallback.clamp(low, high);
        warnings.push(format!(
            "tools.tool_search.{key}: {} is not an integer; using {used}",
            raw.describe()
        ));
        return used;
    };
    let used = clamp_integer(&raw, fallback, low, high);
    if used as i128 != parsed {
        warnings.push(format!(
            "tools.tool_search.{key}: {parsed} is outside [{low}, {high}]; clamped to {used}"
        ));
    }
    used
}

/// The `model` section: the model id and an explicit context length.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelConfig {
    /// `model.default`, `model.model`, or `model` itself when it is a string.
    pub id: Option<String>,
    /// `model.context_length`, when a positive integer.
    pub context_length: Option<u64>,
}

/// How an MCP server is reached (kept for `schematax capture`).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Transport {
    /// A child process speaking newline-delimited JSON-RPC on stdio.
    Stdio {
        /// Program to run.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Extra environment (values may hold `${VAR}`); secrets, never printed.
        env: Vec<(String, String)>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// Endpoint URL.
        url: String,
        /// Extra request headers; secrets, never printed.
        headers: Vec<(String, String)>,
    },
    /// Neither `command` nor `url` is set.
    #[default]
    Unspecified,
}

/// One entry of `mcp_servers`.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// The server key (raw, unsanitised).
    pub name: String,
    /// `enabled` (default true); a disabled server is skipped entirely.
    pub enabled: bool,
    /// `tools.include`: when non-empty, only these raw MCP tool names.
    pub include: Vec<String>,
    /// `tools.exclude`: raw MCP tool names to drop (ignored when include is non-empty).
    pub exclude: Vec<String>,
    /// How to reach the server.
    pub transport: Transport,
}

/// A parsed `hermes.yaml`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// `tools.tool_search`.
    pub tool_search: ToolSearchSettings,
    /// `model`.
    pub model: ModelConfig,
    /// `mcp_servers` in config order; `None` when the config has no such section.
    pub mcp_servers: Option<Vec<ServerConfig>>,
    /// Every fallback and ignored key, one line each.
    pub warnings: Vec<String>,
}

impl Config {
    /// Reads and parses a config file; errors name the file.
    pub fn load(path: &Path) -> Result<Config, InputError> {
        let bytes = super::error::read_limited(path, MAX_CONFIG_BYTES)?;
        Config::parse(&bytes).map_err(|message| InputError::new(path, message))
    }

    /// Parses config text; the error is a one-line reason.
    pub fn parse(bytes: &[u8]) -> Result<Config, String> {
        if std::str::from_utf8(bytes).is_err() {
            return Err("not valid UTF-8".into());
        }
        let root: Yaml = if bytes.iter().all(u8::is_ascii_whitespace) {
            Yaml::Null
        } else {
            serde_yaml::from_slice(bytes)
                .map_err(|e| format!("invalid YAML: {}", one_line(&e.to_string())))?
        };
        let root = match root {
            Yaml::Null => serde_yaml::Mapping::new(),
            Yaml::Mapping(map) => map,
            other => {
                return Err(format!(
                    "expected a mapping at the top level, found {}",
                    Scalar::from_yaml(Some(&other)).describe()
                ))
            }
        };
        let mut warnings = Vec::new();
        let tools = match root.get("tools") {
            Some(Yaml::Mapping(map)) => Some(map),
            None | Some(Yaml::Null) => None,
            Some(_) => {
                warnings.push("tools: not a mapping; treated as empty".to_string());
                None
            }
        };
        let tool_search =
            ToolSearchSettings::parse(tools.and_then(|t| t.get("tool_search")), &mut warnings);
        let model = parse_model(root.get("model"), &mut warnings);
        let mcp_servers = match root.get("mcp_servers") {
            None => None,
            Some(Yaml::Null) => Some(Vec::new()),
            Some(Yaml::Mapping(map)) => Some(
                map.iter()
                    .filter_map(|(key, value)| parse_server(&yaml_key(key), value, &mut warnings))
                    .collect(),
            ),
            Some(_) => {
                warnings.push("mcp_servers: not a mapping; no servers configured".to_string());
                Some(Vec::new())
            }
        };
        Ok(Config {
            tool_search,
            model,
            mcp_servers,
            warnings,
        })
    }
}

/// Joins a multi-line message into one line.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A mapping key as text (numbers and booleans are allowed as YAML keys).
fn yaml_key(key: &Yaml) -> String {
    match key {
        Yaml::String(s) => s.clone(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Number(n) => n.to_string(),
        Yaml::Null => "null".into(),
        _ => "?".into(),
    }
}

fn parse_model(value: Option<&Yaml>, warnings: &mut Vec<String>) -> ModelConfig {
    let text = |v: Option<&Yaml>| match v {
        Some(Yaml::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    };
    match value {
        None | Some(Yaml::Null) => ModelConfig::default(),
        Some(Yaml::String(_)) => ModelConfig {
            id: text(value),
            context_length: None,
        },
        Some(Yaml::Mapping(map)) => {
            let id = text(map.get("default")).or_else(|| text(map.get("model")));
            let raw = Scalar::from_yaml(map.get("context_length"));
            let context_length = match raw {
                Scalar::Null => None,
                _ => match raw.as_integer() {
                    Some(n) if n > 0 && n <= u64::MAX as i128 => Some(n as u64),
                    _ => {
                        warnings.push(format!(
                            "model.context_length: {} is not a positive integer; ignored",
                            raw.describe()
                        ));
                        None
                    }
                },
            };
            ModelConfig { id, context_length }
        }
        Some(other) => {
            warnings.push(format!(
                "model: expected a model id or a mapping, found {}; ignored",
                Scalar::from_yaml(Some(other)).describe()
            ));
            ModelConfig::default()
        }
    }
}

/// A list of strings (a single string counts as a list of one).
fn string_list(value: Option<&Yaml>, what: &str, warnings: &mut Vec<String>) -> Vec<String> {
    match value {
        None | Some(Yaml::Null) => Vec::new(),
        Some(Yaml::String(s)) => vec![s.clone()],
        Some(Yaml::Sequence(items)) => items
            .iter()
            .filter_map(|item| match item {
                Yaml::String(s) => Some(s.clone()),
                Yaml::Number(n) => Some(n.to_string()),
                other => {
                    warnings.push(format!(
                        "{what}: {} is not a string; ignored",
                        Scalar::from_yaml(Some(other)).describe()
                    ));
                    None
                }
            })
            .collect(),
        Some(other) => {
            warnings.push(format!(
                "{what}: expected a list of names, found {}; ignored",
                Scalar::from_yaml(Some(other)).describe()
            ));
            Vec::new()
        }
    }
}

/// A mapping of string to string (`env`, `headers`).
fn string_pairs(
    value: Option<&Yaml>,
    what: &str,
    warnings: &mut Vec<String>,
) -> Vec<(String, String)> {
    match value {
        None | Some(Yaml::Null) => Vec::new(),
        Some(Yaml::Mapping(map)) => map
            .iter()
            .filter_map(|(k, v)| {
                let value = match v {
                    Yaml::String(s) => s.clone(),
                    Yaml::Number(n) => n.to_string(),
                    Yaml::Bool(b) => b.to_string(),
                    _ => {
                        warnings.push(format!("{what}.{}: not a string; ignored", yaml_key(k)));
                        return None;
                    }
                };
                Some((yaml_key(k), value))
            })
            .collect(),
        Some(_) => {
            warnings.push(format!("{what}: expected a mapping; ignored"));
            Vec::new()
        }
    }
}

fn parse_server(name: &str, value: &Yaml, warnings: &mut Vec<String>) -> Option<ServerConfig> {
    let map = match value {
        Yaml::Mapping(map) => map,
        Yaml::Null => &serde_yaml::Mapping::new(),
        other => {
            warnings.push(format!(
                "mcp_servers.{name}: expected a mapping, found {}; server skipped",
                Scalar::from_yaml(Some(other)).describe()
            ));
            return None;
        }
    };
    let prefix = format!("mcp_servers.{name}");
    let enabled = match Scalar::from_yaml(map.get("enabled")) {
        Scalar::Null => true,
        Scalar::Bool(b) => b,
        raw => match raw {
            Scalar::Text(s) if Mode::from_text(s) == Some(Mode::Off) => false,
            Scalar::Text(s) if Mode::from_text(s) == Some(Mode::On) => true,
            Scalar::Int(0) => false,
            Scalar::Int(1) => true,
            other => {
                warnings.push(format!(
                    "{prefix}.enabled: {} is not true/false; treated as true",
                    other.describe()
                ));
                true
            }
        },
    };
    let (include, exclude) = match map.get("tools") {
        None | Some(Yaml::Null) => (Vec::new(), Vec::new()),
        Some(Yaml::Mapping(tools)) => (
            string_list(
                tools.get("include"),
                &format!("{prefix}.tools.include"),
                warnings,
            ),
            string_list(
                tools.get("exclude"),
                &format!("{prefix}.tools.exclude"),
                warnings,
            ),
        ),
        Some(_) => {
            warnings.push(format!("{prefix}.tools: not a mapping; ignored"));
            (Vec::new(), Vec::new())
        }
    };
    let command = match map.get("command") {
        Some(Yaml::String(s)) => Some(s.clone()),
        _ => None,
    };
    let url = match map.get("url") {
        Some(Yaml::String(s)) => Some(s.clone()),
        _ => None,
    };
    let transport = match (command, url) {
        (Some(command), _) => Transport::Stdio {
            command,
            args: string_list(map.get("args"), &format!("{prefix}.args"), warnings),
            env: string_pairs(map.get("env"), &format!("{prefix}.env"), warnings),
        },
        (None, Some(url)) => Transport::Http {
            url,
            headers: string_pairs(map.get("headers"), &format!("{prefix}.headers"), warnings),
        },
        (None, None) => Transport::Unspecified,
    };
    const KNOWN: [&str; 12] = [
        "enabled",
        "tools",
        "command",
        "args",
        "env",
        "url",
        "headers",
        "timeout",
        "connect_timeout",
        "transport",
        "cwd",
        "sampling",
    ];
    for key in map.keys() {
        let key = yaml_key(key);
        if !KNOWN.contains(&key.as_str()) {
            warnings.push(format!("{prefix}: unknown key {key:?} ignored"));
        }
    }
    Some(ServerConfig {
        name: name.to_string(),
        enabled,
        include,
        exclude,
        transport,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(yaml: &str) -> (ToolSearchSettings, Vec<String>) {
        let config = Config::parse(yaml.as_bytes()).expect("parses");
        (config.tool_search, config.warnings)
    }

    #[test]
    fn defaults_when_absent() {
        assert_eq!(settings("").0, ToolSearchSettings::default());
    }

    #[test]
    fn typos_fall_back_with_a_warning() {
        let (s, warnings) = settings(
            "tools:\n  tool_search:\n    enabled: maybe\n    threshold_pct: ten\n    colour: red",
        );
        assert_eq!(s, ToolSearchSettings::default());
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("\"colour\"")));
    }

    #[test]
    fn clamps_are_reported() {
        let (s, warnings) =
            settings("tools:\n  tool_search:\n    threshold_pct: 150\n    max_search_limit: 99");
        assert_eq!(s.threshold_pct, 100.0);
        assert_eq!(s.max_search_limit, 50);
        assert_eq!(warnings.len(), 2);
    }

    #[test]
    fn model_forms() {
        let c = Config::parse(b"model: gpt-4o").unwrap();
        assert_eq!(c.model.id.as_deref(), Some("gpt-4o"));
        let c = Config::parse(b"model:\n  model: x\n  context_length: '64000'").unwrap();
        assert_eq!(
            c.model,
            ModelConfig {
                id: Some("x".into()),
                context_length: Some(64000)
            }
        );
        let c = Config::parse(b"model:\n  default: x\n  context_length: -1").unwrap();
        assert_eq!(c.model.context_length, None);
        assert_eq!(c.warnings.len(), 1);
    }

    #[test]
    fn servers_keep_config_order_and_filters() {
        let c = Config::parse(
            b"mcp_servers:\n  zeta:\n    command: npx\n    args: [-y, z]\n    tools:\n      include: [a]\n  alpha:\n    url: http://127.0.0.1:1/mcp\n    enabled: false\n    tools:\n      exclude: b\n",
        )
        .unwrap();
        let servers = c.mcp_servers.unwrap();
        assert_eq!(servers[0].name, "zeta");
        assert_eq!(servers[0].include, vec!["a"]);
        assert!(
            matches!(&servers[0].transport, Transport::Stdio { args, .. } if args == &["-y", "z"])
        );
        assert_eq!(servers[1].name, "alpha");
        assert!(!servers[1].enabled);
        assert_eq!(servers[1].exclude, vec!["b"]);
    }

    #[test]
    fn bad_documents_are_errors() {
        assert!(Config::parse(b"- a\n- b")
            .unwrap_err()
            .contains("top level"));
        assert!(Config::parse(b"a: [")
            .unwrap_err()
            .starts_with("invalid YAML"));
        assert!(Config::parse(b"a: \xff").unwrap_err().contains("UTF-8"));
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut yaml = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            yaml.push_str(&format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"));
        }
        assert!(Config::parse(yaml.as_bytes()).is_err());
    }
}
