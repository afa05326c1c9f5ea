//! The words of the engine's warnings, made once for the CLI, the page and the view: a config
//! key Hermes reads otherwise than written, and what loading the inputs skipped.

use std::fmt;

use crate::engine::compare::ComparedWarning;
use crate::engine::config::{ConfigProblem, ConfigWarning, Expected, Found, Instead};
use crate::engine::eval::EvalWarning;
use crate::engine::inputs::InputWarning;
use crate::engine::profile::Profile;

impl fmt::Display for InputWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputWarning::Config(warning) => warning.fmt(f),
            InputWarning::Load(warning) => warning.fmt(f),
        }
    }
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = &self.key;
        match &self.problem {
            ConfigProblem::UnknownKey { guess: None } => write!(f, "{key}: unknown key, ignored"),
            ConfigProblem::UnknownKey { guess: Some(guess) } => {
                write!(f, "{key}: unknown key, ignored; did you mean {guess}?")
            }
            ConfigProblem::NotReadBy { since, profile } => {
                write!(f, "{key}: read from Hermes {since} on; {profile} ignores it")
            }
            ConfigProblem::Invalid {
                found,
                expected,
                instead,
            } => write_invalid(f, key, found, *expected, instead),
            ConfigProblem::Clamped {
                value,
                low,
                high,
                used,
            } => write!(f, "{key}: {value} is outside [{low}, {high}]; clamped to {used}"),
            ConfigProblem::QuotedBoolean { text } => write!(
                f,
                "{key}: the string {text:?} is not a boolean or a mapping: Hermes uses auto with the defaults (write it unquoted, or use `enabled:`)"
            ),
            ConfigProblem::BlockDropped => write!(
                f,
                "{key}: an infinite search limit makes Hermes drop the whole block; every setting is the default (enabled: auto included)"
            ),
            ConfigProblem::NewerThanVerified {
                version,
                profile,
                release,
            } => write!(
                f,
                "{key}: {version} is newer than every verified release; replaying {profile} ({release}), the newest"
            ),
            ConfigProblem::NoSuchRelease { error, fallback } => {
                write!(f, "{key}: {error}; using {fallback}")
            }
            ConfigProblem::NoSuchProfile { id, fallback } => {
                let ids: Vec<&str> = Profile::all().map(|p| p.id()).collect();
                write!(
                    f,
                    "{key}: {id:?} is not a profile ({}); using {fallback}",
                    ids.join(", ")
                )
            }
            ConfigProblem::ProfilesDisagree { by_version, by_id } => write!(
                f,
                "{key}: hermes names {by_version} and profile names {by_id}; using {by_id}"
            ),
            ConfigProblem::DuplicateKey { profile } => {
                write!(f, "{key}: {profile}'s config loader keeps the later value")
            }
            ConfigProblem::FileIgnored { reason } => write!(
                f,
                "Hermes would ignore this whole file ({reason}) and run on the defaults; the figures below use the defaults"
            ),
        }
    }
}

impl fmt::Display for EvalWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalWarning::NoQueryText { position } => {
                write!(f, "query #{position} skipped: no `query` text")
            }
            EvalWarning::NoExpectedTools { position, query } => {
                write!(
                    f,
                    "query #{position} ({query:?}) skipped: no `expected` tools"
                )
            }
            EvalWarning::NotInCatalog { query, tool } => write!(
                f,
                "query {query}: expected tool {tool:?} is not in this session's catalog"
            ),
            EvalWarning::MoreNotInCatalog { count } => write!(
                f,
                "and {} more expected tools not in this session's catalog",
                crate::text::thousands(*count as u64)
            ),
        }
    }
}

impl fmt::Display for ComparedWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.warning.fmt(f)?;
        if !self.only_under.is_empty() {
            let names: Vec<&str> = self.only_under.iter().map(|p| p.id()).collect();
            write!(f, " (under {})", names.join(", "))?;
        }
        Ok(())
    }
}

/// A value of the wrong kind: "`"x"` is not an integer" for a scalar, "expected a mapping,
/// found a list" for a list or mapping; then what is used instead.
fn write_invalid(
    f: &mut fmt::Formatter<'_>,
    key: &str,
    found: &Found,
    expected: Expected,
    instead: &Instead,
) -> fmt::Result {
    let expected = expected_words(expected);
    if found.is_compound() {
        write!(f, "{key}: expected {expected}, found {found}")?;
    } else {
        write!(f, "{key}: {found} is not {expected}")?;
    }
    match instead {
        Instead::Value(value) => write!(f, "; using {value}"),
        Instead::Ignored => f.write_str("; ignored"),
        Instead::Empty => f.write_str("; treated as empty"),
        Instead::NoServers => f.write_str("; no servers configured"),
        Instead::ServerSkipped => f.write_str("; server skipped"),
        Instead::Defaults => f.write_str("; Hermes uses auto with the defaults"),
    }
}

/// What a key takes, as a warning says it.
fn expected_words(expected: Expected) -> &'static str {
    match expected {
        Expected::Integer => "an integer",
        Expected::PositiveInteger => "a positive integer",
        Expected::Number => "a number",
        Expected::Mode => "auto/on/off",
        Expected::Boolean => "true/false",
        Expected::Mapping => "a mapping",
        Expected::MappingOrBoolean => "a mapping or a boolean",
        Expected::ModelOrMapping => "a model id or a mapping",
        Expected::String => "a string",
        Expected::Names => "a list of names",
        Expected::ToolName => "a tool name",
        Expected::ToolNames => "a list of tool names",
        Expected::Version => "a version",
        Expected::Profile => "a profile name",
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::config::Config;
    use crate::engine::profile::Profile;

    fn warnings(yaml: &str) -> Vec<String> {
        let config = Config::parse(yaml.as_bytes()).expect("parses");
        config
            .warnings(Profile::seed())
            .map(|w| w.to_string())
            .collect()
    }

    #[test]
    fn each_kind_of_warning_reads_as_one_line() {
        let cases = [
            (
                "tools:\n  tool_search:\n    max_search_limit: many",
                "tools.tool_search.max_search_limit: \"many\" is not an integer; using 20",
            ),
            (
                "tools:\n  tool_search:\n    threshold_pct: 140",
                "tools.tool_search.threshold_pct: 140 is outside [0, 100]; clamped to 100",
            ),
            (
                "tools:\n  tool_search:\n    colour: red",
                "tools.tool_search.colour: unknown key, ignored",
            ),
            (
                "tols: {}",
                "tols: unknown key, ignored; did you mean tools?",
            ),
            (
                "mcp_servers: [a]",
                "mcp_servers: expected a mapping, found a list; no servers configured",
            ),
            (
                "mcp_servers:\n  a:\n    enabled: maybe",
                "mcp_servers.a.enabled: \"maybe\" is not true/false; using true",
            ),
            (
                "tools:\n  tool_search:\n    listing: off",
                "tools.tool_search.listing: read from Hermes 0.20.0.post2 on; seed ignores it",
            ),
        ];
        for (yaml, line) in cases {
            let got = warnings(yaml);
            assert!(got.iter().any(|w| w == line), "{yaml:?}: {got:?}");
        }
    }

    #[test]
    fn a_file_hermes_ignores_says_so_first() {
        let got = warnings("- a\n- b");
        assert_eq!(
            got[0],
            "Hermes would ignore this whole file (expected a mapping at the top level, found a list) and run on the defaults; the figures below use the defaults"
        );
    }
}
