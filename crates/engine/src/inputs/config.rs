//! `hermes.yaml` -> [`Config`]: the `tools.tool_search` settings (ENGINE.md §5,
//! ENGINE-2026-09.md §3), the model (context length), the `mcp_servers` entries (include,
//! exclude, `enabled`, transport) and schematax's own `schematax.profile`.
//!
//! Read as Hermes reads it: YAML 1.1 scalars ([`super::yaml`]), `${VAR}` filled from the
//! environment, and a file that is not valid YAML ignored as a whole (Hermes warns and runs on
//! the defaults). A typo never fails: every fallback is recorded as a warning, with a "did you
//! mean" for misspelt keys and sections.

use std::borrow::Cow;
use std::path::Path;

use crate::inputs::error::{read_limited, InputError};
use crate::nouns::config::{
    Config, ConfigProblem, ConfigWarning, Expected, Found, Instead, Mode, ModelConfig, Resolved,
    Scalar, ServerConfig, ToolSearchSettings, Transport, WhyIgnored, MAX_SEARCH_LIMIT_RANGE,
};
use crate::text::did_you_mean;
use crate::yaml::{self, Mapping, Yaml, YamlError};
use schematax_releases::{AgentChoice, Profile};

/// Largest config file read, so a mistaken path to a huge file fails fast.
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

impl Found {
    fn of(value: &Yaml) -> Found {
        match value {
            Yaml::Seq(_) => Found::List,
            Yaml::Map(_) => Found::Mapping,
            scalar => Scalar::from_yaml(Some(scalar)).found(),
        }
    }
}

impl<'a> Scalar<'a> {
    /// Reads a YAML value.
    pub fn from_yaml(value: Option<&'a Yaml>) -> Self {
        match value {
            None | Some(Yaml::Null) => Scalar::Null,
            Some(Yaml::Bool(b)) => Scalar::Bool(*b),
            Some(Yaml::Int(i)) => Scalar::Int(*i),
            Some(Yaml::Float(f)) => Scalar::Float(*f),
            Some(Yaml::Str(s)) => Scalar::Text(s),
            Some(_) => Scalar::Compound,
        }
    }

    /// The value as a warning names it.
    pub fn found(&self) -> Found {
        match self {
            Scalar::Null => Found::Scalar("null".into()),
            Scalar::Bool(b) => Found::Scalar(b.to_string()),
            Scalar::Int(i) => Found::Scalar(i.to_string()),
            Scalar::Float(f) => Found::Scalar(f.to_string()),
            Scalar::Text(s) => Found::Scalar(format!("{s:?}")),
            Scalar::Compound => Found::Compound,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::from_root(&Mapping::default())
    }
}

/// Parses a YAML document from bytes (UTF-8 required).
pub fn parse_yaml_document(bytes: &[u8]) -> Result<Yaml, YamlError> {
    parse_config_document(bytes).map(|document| document.root)
}

/// Parses a YAML document from bytes (UTF-8 required), noting its first duplicate key.
fn parse_config_document(bytes: &[u8]) -> Result<yaml::Document, YamlError> {
    let text = std::str::from_utf8(bytes).map_err(|e| YamlError::Syntax {
        reason: format!("not valid UTF-8 (at byte {})", e.valid_up_to()),
        line: 0,
        column: 0,
    })?;
    yaml::parse_document(text)
}

impl Config {
    /// Reads and parses a config file, filling `${VAR}` from the environment. A file that
    /// cannot be read, whose size or nesting is refused, or that Hermes would ignore as a
    /// whole (not YAML, not a mapping) is an error naming it: figures built on the defaults
    /// would describe an agent with no MCP server at all.
    pub fn load(path: &Path) -> Result<Config, InputError> {
        let bytes = read_limited(path, MAX_CONFIG_BYTES)?;
        let substituted = std::cell::RefCell::new(Vec::new());
        let lookup = |name: &str| {
            let value = std::env::var(name).ok();
            substituted.borrow_mut().extend(value.clone());
            value
        };
        let mut config = Config::parse_with(&bytes, &lookup)
            .map_err(|e| InputError::new(path, e.to_string()))?;
        if config.warnings.iter().any(|w| {
            w.key == "tools"
                && matches!(
                    w.problem,
                    ConfigProblem::Invalid {
                        found: Found::List,
                        ..
                    }
                )
        }) {
            return Err(InputError::new(
                path,
                "a `tools` list, as a capture file holds: this is not a hermes.yaml (give captures with --tools)",
            ));
        }
        config.substituted = substituted.into_inner();
        match &config.ignored {
            Some(reason) => Err(InputError::new(
                path,
                format!("{reason}; Hermes would ignore the whole file and connect no MCP server"),
            )),
            None => Ok(config),
        }
    }

    /// Parses config text, leaving `${VAR}` as written (see [`Config::parse_with`]).
    pub fn parse(bytes: &[u8]) -> Result<Config, YamlError> {
        Config::parse_with(bytes, &|_| None)
    }

    /// Parses config text; `lookup` fills `${VAR}`. Not valid YAML, or not a mapping, gives
    /// the defaults with [`Config::ignored`] set (as Hermes runs then); only documents refused
    /// for their size or shape (nesting, aliases) are errors.
    pub fn parse_with(
        bytes: &[u8],
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, YamlError> {
        let ignored = |reason: WhyIgnored| {
            Ok(Config {
                ignored: Some(reason),
                ..Config::default()
            })
        };
        let document = match parse_config_document(bytes) {
            Ok(document) => document,
            Err(error) if error.is_syntax() => return ignored(WhyIgnored::NotYaml(error)),
            Err(error) => return Err(error),
        };
        let duplicate_key = document.duplicate_key;
        let mut root = document.root;
        root.expand_variables(lookup);
        match root {
            Yaml::Null => Ok(Config::default()),
            Yaml::Map(map) => Ok(Config {
                duplicate_key,
                ..Config::from_root(&map)
            }),
            other => ignored(WhyIgnored::NotAMapping(Found::of(&other))),
        }
    }

    fn from_root(root: &Mapping) -> Config {
        let mut warnings = Vec::new();
        check_keys(
            root,
            "",
            &KNOWN_SECTIONS,
            KeyCheck::OnlyNearMisses,
            &mut warnings,
        );
        let tools = match root.get("tools") {
            Some(Yaml::Map(map)) => {
                check_keys(
                    map,
                    "tools.",
                    &["tool_search"],
                    KeyCheck::OnlyNearMisses,
                    &mut warnings,
                );
                Some(map)
            }
            None | Some(Yaml::Null) => None,
            Some(other) => {
                warnings.push(ConfigWarning::invalid(
                    "tools",
                    Found::of(other),
                    Expected::Mapping,
                    Instead::Empty,
                ));
                None
            }
        };
        let raw = tools.and_then(|t| t.get("tool_search"));
        let tool_search = Profile::all()
            .map(|profile| resolve_tool_search(raw, profile))
            .collect();
        let defer = match raw {
            Some(Yaml::Map(block)) => parse_defer(block.get("defer"), &mut warnings),
            _ => None,
        };
        let model = parse_model(root.get("model"), &mut warnings);
        let mcp_servers = match root.get("mcp_servers") {
            None => None,
            Some(Yaml::Null) => Some(Vec::new()),
            Some(Yaml::Map(map)) => Some(
                map.iter()
                    .filter_map(|(key, value)| parse_server(&key.key_text(), value, &mut warnings))
                    .collect(),
            ),
            Some(other) => {
                warnings.push(ConfigWarning::invalid(
                    "mcp_servers",
                    Found::of(other),
                    Expected::Mapping,
                    Instead::NoServers,
                ));
                Some(Vec::new())
            }
        };
        let mut profile = parse_profile(root.get("schematax"), &mut warnings);
        let agent = match parse_agent(root.get("schematax"), &mut warnings) {
            Some((AgentChoice::Hermes, Some(version))) => {
                profile =
                    profile.or_else(|| Profile::for_version(&version).ok().map(|m| m.profile));
                None
            }
            Some((AgentChoice::Hermes, None)) | None => None,
            Some((other, _)) => Some(other),
        };
        Config {
            tool_search,
            defer,
            model,
            mcp_servers,
            profile,
            agent,
            warnings,
            ignored: None,
            duplicate_key: None,
            substituted: Vec::new(),
        }
    }

    /// `tools.tool_search.defer` as `profile` reads it: none before the key, or when the
    /// profile drops the whole block.
    pub fn defer_for(&self, profile: Profile) -> Option<&[String]> {
        if !profile.spec().config.defer_key || self.resolved(profile).dropped {
            return None;
        }
        self.defer.as_deref()
    }

    /// `tools.tool_search` under `profile`.
    pub fn tool_search(&self, profile: Profile) -> &ToolSearchSettings {
        &self.resolved(profile).settings
    }

    fn resolved(&self, profile: Profile) -> &Resolved {
        &self.tool_search[profile.index()]
    }

    /// Every warning of the config under `profile`: the loud "ignored" first, then the
    /// `tools.tool_search` fallbacks of that profile, then the rest.
    pub fn warnings(&self, profile: Profile) -> impl Iterator<Item = ConfigWarning> + '_ {
        if let Some(refused) = self.refused_by(profile) {
            let warnings: Vec<ConfigWarning> = refused.warnings(profile).collect();
            return Box::new(warnings.into_iter()) as Box<dyn Iterator<Item = ConfigWarning>>;
        }
        let ignored = self.ignored.as_ref().map(|reason| {
            ConfigWarning::new(
                "",
                ConfigProblem::FileIgnored {
                    reason: reason.clone(),
                },
            )
        });
        let duplicate = self.duplicate_key.as_ref().map(|duplicate| {
            ConfigWarning::new(
                duplicate.to_string(),
                ConfigProblem::DuplicateKey { profile },
            )
        });
        Box::new(
            ignored
                .into_iter()
                .chain(self.resolved(profile).warnings.iter().cloned())
                .chain(duplicate)
                .chain(self.warnings.iter().cloned()),
        )
    }

    /// The config as `profile`'s release reads it: the file itself, or, when the release's
    /// loader refuses it (a duplicate key under ruamel.yaml), the defaults with the reason.
    pub fn as_read_by(&self, profile: Profile) -> Cow<'_, Config> {
        match self.refused_by(profile) {
            Some(refused) => Cow::Owned(refused),
            None => Cow::Borrowed(self),
        }
    }

    /// The defaults Hermes runs on when `profile`'s loader refuses this file.
    fn refused_by(&self, profile: Profile) -> Option<Config> {
        let key = self.duplicate_key.as_ref()?;
        if !profile.spec().config.rejects_duplicate_keys || self.ignored.is_some() {
            return None;
        }
        Some(Config {
            ignored: Some(WhyIgnored::Refused {
                key: key.clone(),
                profile,
            }),
            // Hermes then connects no MCP server at all.
            mcp_servers: Some(Vec::new()),
            ..Config::default()
        })
    }
}

/// Top-level sections schematax reads.
const KNOWN_SECTIONS: [&str; 4] = ["model", "tools", "mcp_servers", "schematax"];

/// Which unknown keys of a mapping are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyCheck {
    /// Every unknown key (a block schematax reads whole).
    All,
    /// Only keys close to a known one (a section where Hermes has keys schematax ignores).
    OnlyNearMisses,
}

/// Reports the keys of `map` that are not in `known`, with a suggestion when one is close.
fn check_keys(
    map: &Mapping,
    prefix: &str,
    known: &[&str],
    check: KeyCheck,
    warnings: &mut Vec<ConfigWarning>,
) {
    for key in map.keys() {
        let name = key.key_text();
        if known.contains(&name.as_str()) {
            continue;
        }
        let guess = did_you_mean(&name, known).map(|guess| format!("{prefix}{guess}"));
        if guess.is_some() || check == KeyCheck::All {
            warnings.push(ConfigWarning::new(
                format!("{prefix}{name}"),
                ConfigProblem::UnknownKey { guess },
            ));
        }
    }
}

/// Keys of `tools.tool_search` each profile reads.
fn known_tool_search_keys(profile: Profile) -> &'static [&'static str] {
    let rules = profile.spec().config;
    match (rules.listing_keys, rules.defer_key) {
        (true, true) => &[
            "enabled",
            "threshold_pct",
            "max_search_limit",
            "search_default_limit",
            "listing",
            "listing_max_tokens",
            "defer",
        ],
        (true, false) => &[
            "enabled",
            "threshold_pct",
            "max_search_limit",
            "search_default_limit",
            "listing",
            "listing_max_tokens",
        ],
        _ => &[
            "enabled",
            "threshold_pct",
            "max_search_limit",
            "search_default_limit",
        ],
    }
}

/// The integer keys of a block, parsed first: an infinite value in any of them makes Hermes
/// drop the whole block. Returns `(max_search_limit, search_default_limit, listing_max_tokens)`
/// or `None` for that fallback.
fn integer_keys(
    block: &Mapping,
    profile: Profile,
    warnings: &mut Vec<ConfigWarning>,
) -> Option<(i64, i64, i64)> {
    let rules = profile.spec().config;
    let (low, high) = MAX_SEARCH_LIMIT_RANGE;
    let max = integer_key(
        block,
        "max_search_limit",
        rules.max_search_limit,
        (low, high),
        warnings,
    )?;
    let default = integer_key(
        block,
        "search_default_limit",
        rules.search_default_limit,
        (1, max),
        warnings,
    )?;
    let listing = match rules.listing_max_tokens {
        Some((fallback, low, high)) => {
            integer_key(block, "listing_max_tokens", fallback, (low, high), warnings)?
        }
        None => 0,
    };
    Some((max, default, listing))
}

/// One integer key with a warning for each fallback or clamp; `None` when it is infinite.
fn integer_key(
    block: &Mapping,
    key: &str,
    fallback: i64,
    (low, high): (i64, i64),
    warnings: &mut Vec<ConfigWarning>,
) -> Option<i64> {
    let raw = Scalar::from_yaml(block.get(key));
    if raw == Scalar::Null {
        return Some(fallback.clamp(low, high));
    }
    match raw.to_integer() {
        Err(true) => None,
        Err(false) => {
            let used = fallback.clamp(low, high);
            warnings.push(ConfigWarning::invalid(
                format!("tools.tool_search.{key}"),
                raw.found(),
                Expected::Integer,
                Instead::Value(used.to_string()),
            ));
            Some(used)
        }
        Ok(parsed) => {
            let used = parsed.clamp(i128::from(low), i128::from(high)) as i64;
            if i128::from(used) != parsed {
                warnings.push(ConfigWarning::new(
                    format!("tools.tool_search.{key}"),
                    ConfigProblem::Clamped {
                        value: parsed.to_string(),
                        low: low.to_string(),
                        high: high.to_string(),
                        used: used.to_string(),
                    },
                ));
            }
            Some(used)
        }
    }
}

/// A tri-state key (`enabled`, `listing`).
fn mode_key(block: &Mapping, key: &str, warnings: &mut Vec<ConfigWarning>) -> Mode {
    let raw = Scalar::from_yaml(block.get(key));
    let text = match &raw {
        Scalar::Null => return Mode::Auto,
        Scalar::Bool(b) => b.to_string(),
        Scalar::Int(i) => i.to_string(),
        Scalar::Text(s) => s.to_string(),
        _ => String::new(),
    };
    Mode::from_text(&text).unwrap_or_else(|| {
        warnings.push(ConfigWarning::invalid(
            format!("tools.tool_search.{key}"),
            raw.found(),
            Expected::Mode,
            Instead::Value(Mode::Auto.to_string()),
        ));
        Mode::Auto
    })
}

/// Resolves the value of `tools.tool_search` (absent = `None`) under `profile`.
fn resolve_tool_search(value: Option<&Yaml>, profile: Profile) -> Resolved {
    let mut settings = ToolSearchSettings::defaults(profile);
    let mut warnings = Vec::new();
    let block = match tool_search_block(value, &mut warnings) {
        Ok(block) => block,
        Err(enabled) => {
            settings.enabled = enabled;
            return Resolved {
                settings,
                dropped: false,
                warnings,
            };
        }
    };
    let Some((max, default, listing_max)) = integer_keys(block, profile, &mut warnings) else {
        warnings.push(ConfigWarning::new(
            "tools.tool_search",
            ConfigProblem::BlockDropped,
        ));
        return Resolved {
            settings: ToolSearchSettings::defaults(profile),
            dropped: true,
            warnings,
        };
    };
    settings.max_search_limit = max as u32;
    settings.search_default_limit = default as u32;
    settings.enabled = mode_key(block, "enabled", &mut warnings);
    settings.threshold_pct = threshold_key(block, settings.threshold_pct, &mut warnings);
    if profile.spec().config.listing_keys {
        settings.listing = mode_key(block, "listing", &mut warnings);
        settings.listing_max_tokens = listing_max as u32;
    }
    warn_keys_of_other_releases(block, profile, &mut warnings);
    warn_unknown_keys(block, profile, &mut warnings);
    Resolved {
        settings,
        dropped: false,
        warnings,
    }
}

/// The mapping of `tools.tool_search`; or, for any other value, the mode Hermes then runs with
/// its defaults (absent, null or `true`: auto; `false`: off; anything else: auto, reported).
fn tool_search_block<'a>(
    value: Option<&'a Yaml>,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<&'a Mapping, Mode> {
    match value {
        None | Some(Yaml::Null) | Some(Yaml::Bool(true)) => Err(Mode::Auto),
        Some(Yaml::Bool(false)) => Err(Mode::Off),
        Some(Yaml::Map(block)) => Ok(block),
        Some(Yaml::Str(text)) => {
            warnings.push(ConfigWarning::new(
                "tools.tool_search",
                ConfigProblem::QuotedBoolean { text: text.clone() },
            ));
            Err(Mode::Auto)
        }
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                "tools.tool_search",
                Found::of(other),
                Expected::MappingOrBoolean,
                Instead::Defaults,
            ));
            Err(Mode::Auto)
        }
    }
}

/// `threshold_pct`: a number clamped to [0, 100] as Python's `max(0, min(100, pct))` does
/// (NaN and +inf become 100, -inf 0); else `default`, reported.
fn threshold_key(block: &Mapping, default: f64, warnings: &mut Vec<ConfigWarning>) -> f64 {
    let threshold = Scalar::from_yaml(block.get("threshold_pct"));
    if threshold == Scalar::Null {
        return default;
    }
    match threshold.to_number() {
        Some(pct) => {
            let clamped = ToolSearchSettings::clamp_threshold_pct(pct);
            if clamped != pct {
                warnings.push(ConfigWarning::new(
                    "tools.tool_search.threshold_pct",
                    ConfigProblem::Clamped {
                        value: threshold.found().to_string(),
                        low: "0".into(),
                        high: "100".into(),
                        used: clamped.to_string(),
                    },
                ));
            }
            clamped
        }
        None => {
            warnings.push(ConfigWarning::invalid(
                "tools.tool_search.threshold_pct",
                threshold.found(),
                Expected::Number,
                Instead::Value(default.to_string()),
            ));
            default
        }
    }
}

/// Keys a later (or earlier) release reads and `profile` does not: reported, ignored.
fn warn_keys_of_other_releases(
    block: &Mapping,
    profile: Profile,
    warnings: &mut Vec<ConfigWarning>,
) {
    let reads = |profile: Profile, key: &str| {
        let rules = profile.spec().config;
        if key == "defer" {
            rules.defer_key
        } else {
            rules.listing_keys
        }
    };
    for key in ["listing", "listing_max_tokens", "defer"] {
        if !reads(profile, key) && block.get(key).is_some() {
            let since = Profile::released()
                .find(|p| reads(*p, key))
                .and_then(|p| p.spec().releases.first())
                .map_or("", |r| r.version);
            warnings.push(ConfigWarning::new(
                format!("tools.tool_search.{key}"),
                ConfigProblem::NotReadBy { since, profile },
            ));
        }
    }
}

/// Keys no release reads: reported with a guess at the one meant.
fn warn_unknown_keys(block: &Mapping, profile: Profile, warnings: &mut Vec<ConfigWarning>) {
    let known = known_tool_search_keys(profile);
    let all_keys = known_tool_search_keys(Profile::newest());
    for key in block.keys() {
        let name = key.key_text();
        if known.contains(&name.as_str()) || all_keys.contains(&name.as_str()) {
            continue;
        }
        warnings.push(ConfigWarning::new(
            format!("tools.tool_search.{name}"),
            ConfigProblem::UnknownKey {
                guess: did_you_mean(&name, all_keys).map(str::to_string),
            },
        ));
    }
}

/// `defer`: a list of tool names (trimmed, blanks dropped, sorted, deduplicated); anything
/// else is reported and ignored.
fn parse_defer(value: Option<&Yaml>, warnings: &mut Vec<ConfigWarning>) -> Option<Vec<String>> {
    match value {
        None | Some(Yaml::Null) => None,
        Some(Yaml::Seq(items)) => {
            let mut names: Vec<String> = items
                .iter()
                .filter_map(|item| match item {
                    Yaml::Str(s) => Some(s.trim().to_string()),
                    other => {
                        warnings.push(ConfigWarning::invalid(
                            "tools.tool_search.defer",
                            Found::of(other),
                            Expected::ToolName,
                            Instead::Ignored,
                        ));
                        None
                    }
                })
                .filter(|name| !name.is_empty())
                .collect();
            names.sort();
            names.dedup();
            Some(names)
        }
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                "tools.tool_search.defer",
                Found::of(other),
                Expected::ToolNames,
                Instead::Ignored,
            ));
            None
        }
    }
}

/// `schematax.hermes` (a Hermes version) or `schematax.profile` (a profile id): which engine
/// the config's Hermes runs.
fn parse_profile(value: Option<&Yaml>, warnings: &mut Vec<ConfigWarning>) -> Option<Profile> {
    let map = match value {
        None | Some(Yaml::Null) => return None,
        Some(Yaml::Map(map)) => map,
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                "schematax",
                Found::of(other),
                Expected::Mapping,
                Instead::Ignored,
            ));
            return None;
        }
    };
    check_keys(
        map,
        "schematax.",
        &["hermes", "profile", "agent"],
        KeyCheck::All,
        warnings,
    );
    let fallback = Profile::default();
    let hermes = match map.get("hermes") {
        None | Some(Yaml::Null) => None,
        Some(value @ (Yaml::Str(_) | Yaml::Float(_) | Yaml::Int(_))) => {
            let version = value.key_text();
            match Profile::for_version(&version) {
                Ok(found) => {
                    if found.newer_than_verified {
                        warnings.push(ConfigWarning::new(
                            "schematax.hermes",
                            ConfigProblem::NewerThanVerified {
                                version: found.asked,
                                profile: found.profile,
                                release: found.release.version,
                            },
                        ));
                    }
                    Some(found.profile)
                }
                Err(error) => {
                    warnings.push(ConfigWarning::new(
                        "schematax.hermes",
                        ConfigProblem::NoSuchRelease { error, fallback },
                    ));
                    None
                }
            }
        }
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                "schematax.hermes",
                Found::of(other),
                Expected::Version,
                Instead::Value(fallback.to_string()),
            ));
            None
        }
    };
    let profile = match map.get("profile") {
        None | Some(Yaml::Null) => None,
        Some(Yaml::Str(id)) => Profile::from_id(id).or_else(|| {
            warnings.push(ConfigWarning::new(
                "schematax.profile",
                ConfigProblem::NoSuchProfile {
                    id: id.clone(),
                    fallback,
                },
            ));
            None
        }),
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                "schematax.profile",
                Found::of(other),
                Expected::Profile,
                Instead::Value(fallback.to_string()),
            ));
            None
        }
    };
    if let (Some(by_version), Some(by_id)) = (hermes, profile) {
        if by_version != by_id {
            warnings.push(ConfigWarning::new(
                "schematax",
                ConfigProblem::ProfilesDisagree { by_version, by_id },
            ));
        }
    }
    profile.or(hermes)
}

/// `schematax.agent`: `NAME[@VERSION]` of a known agent (a wrong type is reported by
/// [`parse_profile`]'s key check of the section; here only the value).
fn parse_agent(
    value: Option<&Yaml>,
    warnings: &mut Vec<ConfigWarning>,
) -> Option<(AgentChoice, Option<String>)> {
    let Some(Yaml::Map(map)) = value else {
        return None;
    };
    match map.get("agent") {
        None | Some(Yaml::Null) => None,
        Some(Yaml::Str(text)) => match AgentChoice::parse(text) {
            Ok(choice) => Some(choice),
            Err(error) => {
                warnings.push(ConfigWarning::new(
                    "schematax.agent",
                    ConfigProblem::NoSuchAgent(error),
                ));
                None
            }
        },
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                "schematax.agent",
                Found::of(other),
                Expected::Agent,
                Instead::Value("hermes".to_string()),
            ));
            None
        }
    }
}

fn parse_model(value: Option<&Yaml>, warnings: &mut Vec<ConfigWarning>) -> ModelConfig {
    let text = |v: Option<&Yaml>| match v {
        Some(Yaml::Str(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    };
    match value {
        None | Some(Yaml::Null) => ModelConfig::default(),
        Some(Yaml::Str(_)) => ModelConfig {
            id: text(value),
            context_length: None,
        },
        Some(Yaml::Map(map)) => {
            check_keys(
                map,
                "model.",
                &["default", "model", "context_length"],
                KeyCheck::OnlyNearMisses,
                warnings,
            );
            let id = text(map.get("default")).or_else(|| text(map.get("model")));
            let raw = Scalar::from_yaml(map.get("context_length"));
            let context_length = match raw {
                Scalar::Null => None,
                _ => match raw.to_integer() {
                    Ok(n) if n > 0 && n <= i128::from(u64::MAX) => Some(n as u64),
                    _ => {
                        warnings.push(ConfigWarning::invalid(
                            "model.context_length",
                            raw.found(),
                            Expected::PositiveInteger,
                            Instead::Ignored,
                        ));
                        None
                    }
                },
            };
            ModelConfig { id, context_length }
        }
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                "model",
                Found::of(other),
                Expected::ModelOrMapping,
                Instead::Ignored,
            ));
            ModelConfig::default()
        }
    }
}

/// A list of strings (a single string counts as a list of one).
fn string_list(value: Option<&Yaml>, what: &str, warnings: &mut Vec<ConfigWarning>) -> Vec<String> {
    match value {
        None | Some(Yaml::Null) => Vec::new(),
        Some(Yaml::Str(s)) => vec![s.clone()],
        Some(Yaml::Seq(items)) => items
            .iter()
            .filter_map(|item| match item {
                Yaml::Str(s) => Some(s.clone()),
                Yaml::Int(_) | Yaml::Float(_) => Some(item.key_text()),
                other => {
                    warnings.push(ConfigWarning::invalid(
                        what,
                        Found::of(other),
                        Expected::String,
                        Instead::Ignored,
                    ));
                    None
                }
            })
            .collect(),
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                what,
                Found::of(other),
                Expected::Names,
                Instead::Ignored,
            ));
            Vec::new()
        }
    }
}

/// A mapping of string to string (`env`, `headers`).
fn string_pairs(
    value: Option<&Yaml>,
    what: &str,
    warnings: &mut Vec<ConfigWarning>,
) -> Vec<(String, String)> {
    match value {
        None | Some(Yaml::Null) => Vec::new(),
        Some(Yaml::Map(map)) => map
            .iter()
            .filter_map(|(k, v)| {
                let value = match v {
                    Yaml::Str(s) => s.clone(),
                    Yaml::Int(_) | Yaml::Float(_) => v.key_text(),
                    Yaml::Bool(b) => b.to_string(),
                    other => {
                        warnings.push(ConfigWarning::invalid(
                            format!("{what}.{}", k.key_text()),
                            Found::of(other),
                            Expected::String,
                            Instead::Ignored,
                        ));
                        return None;
                    }
                };
                Some((k.key_text(), value))
            })
            .collect(),
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                what,
                Found::of(other),
                Expected::Mapping,
                Instead::Ignored,
            ));
            Vec::new()
        }
    }
}

/// Keys of an `mcp_servers` entry (those Hermes reads; schematax uses some of them).
const SERVER_KEYS: [&str; 12] = [
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

/// `tools.include` and `tools.exclude` of a server entry (include `None` when not a list).
fn server_filters(
    tools: Option<&Yaml>,
    prefix: &str,
    warnings: &mut Vec<ConfigWarning>,
) -> (Option<Vec<String>>, Vec<String>) {
    match tools {
        None | Some(Yaml::Null) => (None, Vec::new()),
        Some(Yaml::Map(tools)) => {
            check_keys(
                tools,
                &format!("{prefix}.tools."),
                &["include", "exclude"],
                KeyCheck::All,
                warnings,
            );
            let include = match tools.get("include") {
                value @ Some(Yaml::Str(_) | Yaml::Seq(_)) => Some(string_list(
                    value,
                    &format!("{prefix}.tools.include"),
                    warnings,
                )),
                other => {
                    string_list(other, &format!("{prefix}.tools.include"), warnings);
                    None
                }
            };
            (
                include,
                string_list(
                    tools.get("exclude"),
                    &format!("{prefix}.tools.exclude"),
                    warnings,
                ),
            )
        }
        Some(other) => {
            warnings.push(ConfigWarning::invalid(
                format!("{prefix}.tools"),
                Found::of(other),
                Expected::Mapping,
                Instead::Ignored,
            ));
            (None, Vec::new())
        }
    }
}

fn parse_server(
    name: &str,
    value: &Yaml,
    warnings: &mut Vec<ConfigWarning>,
) -> Option<ServerConfig> {
    let empty = Mapping::default();
    let map = match value {
        Yaml::Map(map) => map,
        Yaml::Null => &empty,
        other => {
            warnings.push(ConfigWarning::invalid(
                format!("mcp_servers.{name}"),
                Found::of(other),
                Expected::Mapping,
                Instead::ServerSkipped,
            ));
            return None;
        }
    };
    let prefix = format!("mcp_servers.{name}");
    let enabled = match Scalar::from_yaml(map.get("enabled")) {
        Scalar::Null => true,
        Scalar::Bool(b) => b,
        Scalar::Text(s) if Mode::from_text(s) == Some(Mode::Off) => false,
        Scalar::Text(s) if Mode::from_text(s) == Some(Mode::On) => true,
        Scalar::Int(0) => false,
        Scalar::Int(1) => true,
        other => {
            warnings.push(ConfigWarning::invalid(
                format!("{prefix}.enabled"),
                other.found(),
                Expected::Boolean,
                Instead::TreatedAs("true".into()),
            ));
            true
        }
    };
    let (include, exclude) = server_filters(map.get("tools"), &prefix, warnings);
    let text = |key: &str| match map.get(key) {
        Some(Yaml::Str(s)) => Some(s.clone()),
        _ => None,
    };
    let transport = match (text("command"), text("url")) {
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
    check_keys(
        map,
        &format!("{prefix}."),
        &SERVER_KEYS,
        KeyCheck::All,
        warnings,
    );
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
    use crate::nouns::config::{python_float, python_int};

    fn parse(yaml: &str) -> Config {
        Config::parse(yaml.as_bytes()).expect("parses")
    }

    fn settings(yaml: &str, profile: Profile) -> (ToolSearchSettings, Vec<ConfigWarning>) {
        let config = parse(yaml);
        (
            *config.tool_search(profile),
            config.warnings(profile).collect(),
        )
    }

    fn unknown(key: &str, guess: Option<&str>) -> ConfigWarning {
        ConfigWarning::new(
            key,
            ConfigProblem::UnknownKey {
                guess: guess.map(str::to_string),
            },
        )
    }

    #[test]
    fn defaults_when_absent() {
        assert_eq!(
            settings("", Profile::seed()).0,
            ToolSearchSettings::defaults(Profile::seed())
        );
        let current = settings("", Profile::from_id("hermes-2026-09").unwrap()).0;
        assert_eq!(
            (
                current.threshold_pct,
                current.max_search_limit,
                current.listing_max_tokens
            ),
            (5.0, 25, 4000)
        );
    }

    #[test]
    fn typos_fall_back_with_a_warning_and_a_guess() {
        let (s, warnings) = settings(
            "tools:\n  tool_search:\n    enabled: maybe\n    threshold_pct: ten\n    colour: red\n    treshold_pct: 3",
            Profile::seed(),
        );
        assert_eq!(s, ToolSearchSettings::defaults(Profile::seed()));
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        assert!(warnings.contains(&unknown("tools.tool_search.colour", None)));
        assert!(warnings.contains(&unknown(
            "tools.tool_search.treshold_pct",
            Some("threshold_pct")
        )));
    }

    #[test]
    fn misspelt_sections_are_reported_with_a_guess() {
        let config = parse("tool:\n  tool_search: false\nmcp_server:\n  x: {}\nagent:\n  a: 1\ntools:\n  tool_serach: {}\nmodel:\n  context_lenght: 5\n");
        let warnings: Vec<ConfigWarning> = config.warnings(Profile::seed()).collect();
        for (key, guess) in [
            ("tool", "tools"),
            ("mcp_server", "mcp_servers"),
            ("tools.tool_serach", "tools.tool_search"),
            ("model.context_lenght", "model.context_length"),
        ] {
            assert!(
                warnings.contains(&unknown(key, Some(guess))),
                "{key}: {warnings:?}"
            );
        }
        assert!(
            !warnings.iter().any(|w| w.key.contains("agent")),
            "Hermes sections schematax does not read are not typos"
        );
    }

    #[test]
    fn clamps_nan_and_infinities() {
        let (s, warnings) = settings(
            "tools:\n  tool_search:\n    threshold_pct: 150\n    max_search_limit: 99",
            Profile::seed(),
        );
        assert_eq!((s.threshold_pct, s.max_search_limit), (100.0, 50));
        assert_eq!(warnings.len(), 2);
        for (value, expected) in [
            (".nan", 100.0),
            (".inf", 100.0),
            ("-.inf", 0.0),
            ("'nan'", 100.0),
        ] {
            let (s, _) = settings(
                &format!("tools:\n  tool_search:\n    threshold_pct: {value}"),
                Profile::seed(),
            );
            assert_eq!(s.threshold_pct, expected, "{value}");
        }
        for key in ["max_search_limit", "search_default_limit"] {
            let (s, warnings) = settings(
                &format!("tools:\n  tool_search:\n    enabled: off\n    threshold_pct: 3\n    {key}: .inf"),
                Profile::seed(),
            );
            assert_eq!(
                s,
                ToolSearchSettings::defaults(Profile::seed()),
                "{key}: whole block resets"
            );
            assert!(warnings
                .iter()
                .any(|w| w.problem == ConfigProblem::BlockDropped));
        }
        let (s, _) = settings(
            "tools:\n  tool_search:\n    max_search_limit: .nan\n    enabled: off",
            Profile::seed(),
        );
        assert_eq!((s.max_search_limit, s.enabled), (20, Mode::Off));
        let (s, _) = settings(
            "tools:\n  tool_search:\n    listing_max_tokens: 1e400\n    enabled: off",
            Profile::from_id("hermes-2026-09").unwrap(),
        );
        assert_eq!(
            s.enabled,
            Mode::Auto,
            "listing_max_tokens counts in a release with a listing"
        );
    }

    #[test]
    fn only_booleans_are_shorthands() {
        assert_eq!(
            settings("tools:\n  tool_search: off", Profile::seed())
                .0
                .enabled,
            Mode::Off
        );
        let (s, warnings) = settings("tools:\n  tool_search: 'off'", Profile::seed());
        assert_eq!(s.enabled, Mode::Auto);
        assert_eq!(
            warnings[0].problem,
            ConfigProblem::QuotedBoolean { text: "off".into() }
        );
        assert_eq!(
            settings(
                "tools:\n  tool_search: no",
                Profile::from_id("hermes-2026-09").unwrap()
            )
            .0
            .enabled,
            Mode::Off
        );
    }

    #[test]
    fn newer_keys_are_read_by_the_newer_profile_only() {
        let yaml = "tools:\n  tool_search:\n    listing: off\n    listing_max_tokens: 50\n    defer: [b, ' a ', '', b]";
        let (s, warnings) = settings(yaml, Profile::from_id("hermes-2026-09").unwrap());
        assert_eq!((s.listing, s.listing_max_tokens), (Mode::Off, 200));
        assert_eq!(warnings.len(), 1, "the clamp: {warnings:?}");
        let (_, warnings) = settings(yaml, Profile::seed());
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert_eq!(parse(yaml).defer, Some(vec!["a".into(), "b".into()]));
        let config = parse("tools:\n  tool_search:\n    defer: todo_list");
        assert_eq!(config.defer, None);
        assert!(config
            .warnings
            .iter()
            .any(|w| w.key == "tools.tool_search.defer"));
    }

    #[test]
    fn variables_come_from_the_environment() {
        let config = Config::parse_with(
            b"tools:\n  tool_search:\n    threshold_pct: ${PCT}\n    enabled: ${UNSET}\n",
            &|name| (name == "PCT").then(|| "12.5".to_string()),
        )
        .unwrap();
        assert_eq!(config.tool_search(Profile::seed()).threshold_pct, 12.5);
        assert!(config.warnings(Profile::seed()).any(|w| w
            == ConfigWarning::invalid(
                "tools.tool_search.enabled",
                Found::Scalar("\"${UNSET}\"".into()),
                Expected::Mode,
                Instead::Value("auto".into())
            )));
    }

    #[test]
    fn a_broken_file_runs_on_the_defaults_loudly() {
        for text in [&b"a: ["[..], b"- a\n- b", b"a: \xff"] {
            let config = Config::parse(text).unwrap();
            assert!(config.ignored.is_some(), "{text:?}");
            assert_eq!(
                *config.tool_search(Profile::seed()),
                ToolSearchSettings::defaults(Profile::seed())
            );
            let first = config.warnings(Profile::seed()).next().unwrap();
            assert!(
                matches!(first.problem, ConfigProblem::FileIgnored { .. }),
                "{first:?}"
            );
        }
        let deep = format!("a: {}1{}", "[".repeat(200), "]".repeat(200));
        assert!(Config::parse(deep.as_bytes()).is_err());
    }

    #[test]
    fn model_forms() {
        let c = parse("model: gpt-4o");
        assert_eq!(c.model.id.as_deref(), Some("gpt-4o"));
        let c = parse("model:\n  model: x\n  context_length: '64000'");
        assert_eq!(
            c.model,
            ModelConfig {
                id: Some("x".into()),
                context_length: Some(64000)
            }
        );
        let c = parse("model:\n  default: x\n  context_length: -1");
        assert_eq!(c.model.context_length, None);
        assert_eq!(c.warnings.len(), 1);
    }

    #[test]
    fn servers_keep_config_order_filters_and_typos() {
        let c = parse(
            "mcp_servers:\n  zeta:\n    command: npx\n    args: [-y, z]\n    tools:\n      include: [a]\n  alpha:\n    url: http://127.0.0.1:1/mcp\n    enabled: false\n    enabeld: true\n    tools:\n      exclude: b\n",
        );
        let servers = c.mcp_servers.as_ref().unwrap();
        assert_eq!(servers[0].name, "zeta");
        assert_eq!(servers[0].include, Some(vec!["a".to_string()]));
        assert!(
            matches!(&servers[0].transport, Transport::Stdio { args, .. } if args == &["-y", "z"])
        );
        assert_eq!(servers[1].name, "alpha");
        assert!(!servers[1].enabled);
        assert_eq!(servers[1].exclude, vec!["b"]);
        assert_eq!(
            c.warnings,
            [unknown(
                "mcp_servers.alpha.enabeld",
                Some("mcp_servers.alpha.enabled")
            )]
        );
    }

    #[test]
    fn profile_from_the_config() {
        assert_eq!(
            parse("schematax:\n  profile: hermes-2026-09").profile,
            Some(Profile::from_id("hermes-2026-09").unwrap())
        );
        let c = parse("schematax:\n  profile: newest\n  colour: x");
        assert_eq!(c.profile, None);
        assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    }

    #[test]
    fn python_number_parsing() {
        assert_eq!(python_int(" +1_000 "), Some(1000));
        assert_eq!(python_int("2.5"), None);
        assert_eq!(python_int("1__0"), None);
        assert_eq!(python_float("-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(python_float("1e3"), Some(1000.0));
        assert_eq!(python_float(".5"), Some(0.5));
        assert_eq!(python_float("5."), Some(5.0));
        assert!(python_float("NaN").unwrap().is_nan());
        assert_eq!(python_float("."), None);
        assert_eq!(python_float("ten"), None);
    }
}
