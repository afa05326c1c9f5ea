//! A `hermes.yaml` as read: the `tools.tool_search` settings of each release, the model, the
//! servers, and every key read otherwise than written (as data: the words are made in
//! `schematax-report`). Reading it is `crate::inputs::config`'s work.

use std::fmt;

use crate::yaml::{DuplicateKey, YamlError};
use schematax_releases::{AgentChoice, AgentError, Profile};

/// A tri-state setting (`enabled`, `listing`): auto, on or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Decided by the engine (seed: the threshold; newer: same as on).
    #[default]
    Auto,
    /// Always.
    On,
    /// Never.
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

    /// Parses text as Hermes does (trimmed, lowercased); `None` for anything unknown.
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

/// The resolved `tools.tool_search` block of one profile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolSearchSettings {
    /// auto / on / off.
    pub enabled: Mode,
    /// Percent of the context window: the gate (seed) or the listing budget (newer).
    pub threshold_pct: f64,
    /// Upper bound of a search limit, in [1, 50].
    pub max_search_limit: u32,
    /// Limit used when a search names none, in [1, max_search_limit].
    pub search_default_limit: u32,
    /// Whether a release with a listing embeds a catalog listing (auto and on alike list).
    pub listing: Mode,
    /// Most tokens the listing may take (releases from 0.20.0), in [200, 60000].
    pub listing_max_tokens: u32,
}

/// Bounds of `threshold_pct`, in percent of the context window.
pub const THRESHOLD_PCT_RANGE: (f64, f64) = (0.0, 100.0);

/// Bounds of `max_search_limit`.
pub const MAX_SEARCH_LIMIT_RANGE: (i64, i64) = (1, 50);

impl ToolSearchSettings {
    /// The defaults of `profile`.
    pub fn defaults(profile: Profile) -> ToolSearchSettings {
        let rules = profile.spec().config;
        ToolSearchSettings {
            enabled: Mode::Auto,
            threshold_pct: rules.threshold_pct,
            max_search_limit: rules.max_search_limit as u32,
            search_default_limit: rules.search_default_limit as u32,
            listing: Mode::Auto,
            listing_max_tokens: rules.listing_max_tokens.map_or(0, |(d, _, _)| d as u32),
        }
    }

    /// `threshold_pct` as every reader and the view take it: clamped to [0, 100] (Python's
    /// `max(0, min(100, pct))`), NaN read as 100. The one clamp of this setting.
    pub fn clamp_threshold_pct(pct: f64) -> f64 {
        if pct.is_nan() {
            THRESHOLD_PCT_RANGE.1
        } else {
            pct.clamp(THRESHOLD_PCT_RANGE.0, THRESHOLD_PCT_RANGE.1)
        }
    }

    /// `listing_max_tokens` clamped to the bounds of `profile`; `None` when the profile has no
    /// listing. The one clamp of this setting.
    pub fn clamp_listing_max_tokens(tokens: i64, profile: Profile) -> Option<u32> {
        let (_, low, high) = profile.spec().config.listing_max_tokens?;
        u32::try_from(tokens.clamp(low, high)).ok()
    }
}

/// One thing of the config Hermes reads otherwise than it is written: the key and what
/// happened (the words are made in `report`).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigWarning {
    /// The dotted path of the key (`tools.tool_search.threshold_pct`), the command-line flag
    /// that stands for it (`--hermes`), or empty for the whole file.
    pub key: String,
    /// What is wrong and what is used instead.
    pub problem: ConfigProblem,
}

impl ConfigWarning {
    pub(crate) fn new(key: impl Into<String>, problem: ConfigProblem) -> ConfigWarning {
        ConfigWarning {
            key: key.into(),
            problem,
        }
    }

    /// A value of the wrong kind.
    pub(crate) fn invalid(
        key: impl Into<String>,
        found: Found,
        expected: Expected,
        instead: Instead,
    ) -> Self {
        ConfigWarning::new(
            key,
            ConfigProblem::Invalid {
                found,
                expected,
                instead,
            },
        )
    }
}

/// What is wrong with a key of the config.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigProblem {
    /// A key nothing reads; `guess` is the known key (as written in the warning) it is
    /// likely a typo of.
    UnknownKey {
        /// The key probably meant.
        guess: Option<String>,
    },
    /// A key releases from `since` on read, and `profile` does not.
    NotReadBy {
        /// The first release that reads it.
        since: &'static str,
        /// The profile replayed.
        profile: Profile,
    },
    /// A value of the wrong kind, replaced.
    Invalid {
        /// The value found.
        found: Found,
        /// What the key takes.
        expected: Expected,
        /// What is used instead.
        instead: Instead,
    },
    /// A number outside its range, clamped (each figure as written).
    Clamped {
        /// The value found.
        value: String,
        /// The lowest allowed.
        low: String,
        /// The highest allowed.
        high: String,
        /// The value used.
        used: String,
    },
    /// `tool_search` written as a quoted string (`'off'`), which is not a boolean.
    QuotedBoolean {
        /// The string.
        text: String,
    },
    /// An infinite search limit: Hermes drops the whole block, `enabled` included.
    BlockDropped,
    /// `schematax.hermes` names a version newer than every verified release.
    NewerThanVerified {
        /// The version written.
        version: String,
        /// The profile replayed instead (the newest).
        profile: Profile,
        /// The release that profile was verified on.
        release: &'static str,
    },
    /// `schematax.hermes` names no known release.
    NoSuchRelease {
        /// Why.
        error: schematax_releases::VersionError,
        /// The profile used instead.
        fallback: Profile,
    },
    /// `schematax.agent` names no known agent, or a version with no rules.
    NoSuchAgent(AgentError),
    /// `schematax.profile` names no profile.
    NoSuchProfile {
        /// The name written.
        id: String,
        /// The profile used instead.
        fallback: Profile,
    },
    /// `schematax.hermes` and `schematax.profile` name different profiles; the profile wins.
    ProfilesDisagree {
        /// What the version names.
        by_version: Profile,
        /// What `profile` names (used).
        by_id: Profile,
    },
    /// A mapping holds a key twice and `profile`'s loader keeps the later value.
    DuplicateKey {
        /// The profile whose loader reads the file.
        profile: Profile,
    },
    /// Hermes ignores the whole file and runs on the defaults.
    FileIgnored {
        /// Why.
        reason: WhyIgnored,
    },
}

/// Why Hermes ignores a whole config file and runs on the defaults.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WhyIgnored {
    /// Not valid YAML.
    #[error("{0}")]
    NotYaml(YamlError),
    /// The top level is not a mapping.
    #[error("expected a mapping at the top level, found {0}")]
    NotAMapping(Found),
    /// A duplicate key, which the release's loader refuses.
    #[error("{key}, which {profile}'s config loader refuses")]
    Refused {
        /// The key and where.
        key: DuplicateKey,
        /// The profile whose loader refuses it.
        profile: Profile,
    },
}

/// A config value as found, for a warning.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// A list.
    List,
    /// A mapping.
    Mapping,
    /// A list or a mapping (where the parser does not tell them apart).
    Compound,
    /// A scalar, as written (strings quoted).
    Scalar(String),
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::List => f.write_str("a list"),
            Found::Mapping => f.write_str("a mapping"),
            Found::Compound => f.write_str("a list or mapping"),
            Found::Scalar(text) => f.write_str(text),
        }
    }
}

/// What a config key takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// An integer.
    Integer,
    /// A positive integer.
    PositiveInteger,
    /// A number.
    Number,
    /// auto, on or off.
    Mode,
    /// true or false.
    Boolean,
    /// A mapping.
    Mapping,
    /// A mapping or a boolean (`tools.tool_search`).
    MappingOrBoolean,
    /// A model id or a mapping (`model`).
    ModelOrMapping,
    /// A string.
    String,
    /// A list of names.
    Names,
    /// A tool name.
    ToolName,
    /// A list of tool names.
    ToolNames,
    /// A Hermes version.
    Version,
    /// A profile id.
    Profile,
    /// An agent, `NAME[@VERSION]`.
    Agent,
}

/// What is used in place of a value of the wrong kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Instead {
    /// This value (as written).
    Value(String),
    /// The value is taken to mean this (as written).
    TreatedAs(String),
    /// Nothing: the value is ignored.
    Ignored,
    /// Nothing: the section is treated as empty.
    Empty,
    /// No MCP server at all.
    NoServers,
    /// The server is left out.
    ServerSkipped,
    /// Hermes's defaults, with `enabled: auto`.
    Defaults,
}

/// A YAML or JSON scalar reduced to what the parsing rules look at.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar<'a> {
    /// The key is absent or null.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer literal.
    Int(i128),
    /// A float literal (may be NaN or infinite).
    Float(f64),
    /// A string.
    Text(&'a str),
    /// A list or mapping.
    Compound,
}

impl<'a> Scalar<'a> {
    /// Reads a JSON value (as `tool_search` receives its `limit` argument).
    pub fn from_json(value: Option<&'a serde_json::Value>) -> Self {
        use serde_json::Value as Json;
        match value {
            None | Some(Json::Null) => Scalar::Null,
            Some(Json::Bool(b)) => Scalar::Bool(*b),
            Some(Json::Number(n)) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Scalar::Int(i128::from(i)),
                (_, Some(u)) => Scalar::Int(i128::from(u)),
                _ => Scalar::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Some(Json::String(s)) => Scalar::Text(s),
            Some(_) => Scalar::Compound,
        }
    }

    /// The integer rule: an integer, a float truncated, an integer string (Python's `int`), a
    /// boolean as 1 or 0. `Err(true)` for an infinite float (Hermes then drops the whole
    /// block), `Err(false)` for anything else that is not an integer.
    pub fn to_integer(&self) -> Result<i128, bool> {
        match self {
            Scalar::Bool(b) => Ok(i128::from(*b)),
            Scalar::Int(i) => Ok(*i),
            Scalar::Float(f) if f.is_infinite() => Err(true),
            Scalar::Float(f) if f.is_nan() => Err(false),
            Scalar::Float(f) => Ok(f.trunc().clamp(-1e30, 1e30) as i128),
            Scalar::Text(s) => python_int(s).ok_or(false),
            _ => Err(false),
        }
    }

    /// The number rule of `threshold_pct`: a number or numeric string (Python's `float`);
    /// NaN and infinities included.
    pub fn to_number(&self) -> Option<f64> {
        match self {
            Scalar::Bool(b) => Some(f64::from(u8::from(*b))),
            Scalar::Int(i) => Some(*i as f64),
            Scalar::Float(f) => Some(*f),
            Scalar::Text(s) => python_float(s),
            _ => None,
        }
    }
}

/// Digits with single underscores between them, as Python's `int()` and `float()` take them.
fn python_digits(text: &str) -> Option<String> {
    if text.is_empty() || text.starts_with('_') || text.ends_with('_') || text.contains("__") {
        return None;
    }
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    clean.bytes().all(|b| b.is_ascii_digit()).then_some(clean)
}

/// Python's `int(text)` for base 10: whitespace trimmed, a sign, digits with underscores.
pub fn python_int(text: &str) -> Option<i128> {
    let text = text.trim();
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let value: i128 = python_digits(body)?.parse().ok()?;
    Some(if negative { -value } else { value })
}

/// Python's `float(text)`: decimal or exponent notation, `inf`, `infinity`, `nan` in any case.
pub fn python_float(text: &str) -> Option<f64> {
    let text = text.trim();
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let value = match body.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        lower => {
            let (mantissa, exponent) = match lower.split_once('e') {
                Some((m, e)) => (m, Some(e)),
                None => (lower, None),
            };
            let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
            if whole.is_empty() && fraction.is_empty() {
                return None;
            }
            let part = |p: &str| {
                if p.is_empty() {
                    Some(String::new())
                } else {
                    python_digits(p)
                }
            };
            let mut clean = format!("{}.{}", part(whole)?, part(fraction)?);
            if let Some(exponent) = exponent {
                let (sign, digits) = match exponent.as_bytes().first() {
                    Some(b'-') => ("-", &exponent[1..]),
                    Some(b'+') => ("", &exponent[1..]),
                    _ => ("", exponent),
                };
                clean = format!("{clean}e{sign}{}", python_digits(digits)?);
            }
            clean.parse::<f64>().ok()?
        }
    };
    Some(if negative { -value } else { value })
}

/// The model id and an explicit context length.
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
    /// `tools.include`, when given (a name or a list): only these raw MCP tool names.
    pub include: Option<Vec<String>>,
    /// `tools.exclude`: raw MCP tool names to drop (ignored when include is non-empty).
    pub exclude: Vec<String>,
    /// How to reach the server.
    pub transport: Transport,
}

/// The settings and warnings of `tools.tool_search` under one profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The settings.
    pub settings: ToolSearchSettings,
    /// The profile dropped the whole block (an infinite integer): `defer` too.
    pub dropped: bool,
    /// Every fallback, clamp and ignored key.
    pub warnings: Vec<ConfigWarning>,
}

/// A parsed `hermes.yaml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// `tools.tool_search`, resolved under each profile (index: [`Profile::index`]).
    pub(crate) tool_search: Vec<Resolved>,
    /// `tools.tool_search.defer`: a list of core tool names (releases from 0.21.3), sorted, trimmed.
    pub defer: Option<Vec<String>>,
    /// `model`.
    pub model: ModelConfig,
    /// `mcp_servers` in config order; `None` when the config has no such section.
    pub mcp_servers: Option<Vec<ServerConfig>>,
    /// The profile `schematax.hermes` (a Hermes version) or `schematax.profile` names, when
    /// set.
    pub profile: Option<Profile>,
    /// The agent `schematax.agent` names (`claude-code`, `codex@0.171.0`, ...), when set and
    /// known; `hermes` (with its version, if any) sets [`Config::profile`] instead.
    pub agent: Option<AgentChoice>,
    /// Fallbacks and ignored keys outside `tools.tool_search`.
    pub warnings: Vec<ConfigWarning>,
    /// Why Hermes would ignore the whole file (not valid YAML, not a mapping): its settings
    /// are then the defaults.
    pub ignored: Option<WhyIgnored>,
    /// The first key a mapping of the file holds twice: releases that read the config with
    /// ruamel.yaml refuse the file for it (see [`Config::as_read_by`]); the others keep the
    /// later value.
    pub duplicate_key: Option<DuplicateKey>,
    /// The values `${VAR}` filled from the environment anywhere in the file: secrets that
    /// `capture` never writes or prints (only [`Config::load`] fills them).
    pub substituted: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tuned_setting_has_one_clamp() {
        assert_eq!(ToolSearchSettings::clamp_threshold_pct(-3.0), 0.0);
        assert_eq!(ToolSearchSettings::clamp_threshold_pct(12.5), 12.5);
        assert_eq!(
            ToolSearchSettings::clamp_threshold_pct(f64::INFINITY),
            100.0
        );
        assert_eq!(ToolSearchSettings::clamp_threshold_pct(f64::NAN), 100.0);
        let (_, low, high) = Profile::newest().spec().config.listing_max_tokens.unwrap();
        let clamp = |t| ToolSearchSettings::clamp_listing_max_tokens(t, Profile::newest());
        assert_eq!(clamp(0).map(i64::from), Some(low));
        assert_eq!(clamp(i64::MAX).map(i64::from), Some(high));
        assert_eq!(
            ToolSearchSettings::clamp_listing_max_tokens(4_000, Profile::seed()),
            None
        );
    }
}
