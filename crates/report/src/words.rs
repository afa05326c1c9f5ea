//! The words of the engine's data, made once for the CLI, the page and the view: config
//! warnings, evaluation warnings, lint problems, the session's notes and name collisions,
//! admissions and where a context length came from. (What loading skips, like an error, is a
//! reason of the engine's and reads as its own line.)

use std::fmt;

use schematax_engine::analyses::compare::ComparedWarning;
use schematax_engine::analyses::eval::EvalWarning;
use schematax_engine::analyses::lint::{
    Problem, Unreached, MAX_DESCRIPTION_BYTES, MAX_NAME_CHARS, MAX_SCHEMA_DEPTH,
    MIN_DESCRIPTION_CHARS,
};
use schematax_engine::inputs::InputWarning;
use schematax_engine::nouns::config::{ConfigProblem, ConfigWarning, Expected, Found, Instead};
use schematax_engine::replay::activation::ContextSource;
use schematax_engine::replay::catalog::{Collision, CollisionKind};
use schematax_engine::replay::search::Admitted;
use schematax_engine::replay::session::Note;
use schematax_engine::text::thousands;
use schematax_releases::Profile;

/// The words a person reads for a value of the engine: a warning, a note, a lint problem.
/// The engine returns data; this is where its sentences are made, once, for every output.
pub trait Words {
    /// Writes the words.
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// The words, as one string.
    fn words(&self) -> String {
        Worded(self).to_string()
    }
}

/// A value's [`Words`] where a `Display` is wanted (in `format!` and `write!`).
pub struct Worded<'a, T: ?Sized>(pub &'a T);

impl<T: Words + ?Sized> fmt::Display for Worded<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_words(f)
    }
}

impl Words for InputWarning {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputWarning::Config(warning) => warning.write_words(f),
            InputWarning::Load(warning) => fmt::Display::fmt(warning, f),
        }
    }
}

impl Words for ConfigWarning {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
            ConfigProblem::NoSuchAgent(error) => write!(f, "{key}: {error}; using hermes"),
            ConfigProblem::NoSuchProfile { id, fallback } => {
                let ids: Vec<&str> = Profile::all().map(Profile::id).collect();
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

impl Words for EvalWarning {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
                schematax_engine::text::thousands(*count as u64)
            ),
            EvalWarning::UnknownKey {
                position,
                key,
                guess,
            } => write!(
                f,
                "query #{position}: unknown key {key:?}, ignored (did you mean `{guess}`?)"
            ),
        }
    }
}

impl Words for ComparedWarning {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.warning.write_words(f)?;
        if !self.only_under.is_empty() {
            let names: Vec<&str> = self.only_under.iter().map(|p| p.id()).collect();
            write!(f, " (under {})", names.join(", "))?;
        }
        Ok(())
    }
}

impl Words for Problem {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NoDescription { sent } => write!(
                f,
                "Hermes sends \"{sent}\", which says nothing of what it does: add a description"
            ),
            Problem::ShortDescription { description } => write!(
                f,
                "description \"{description}\" is under {MIN_DESCRIPTION_CHARS} characters: say what it does and on what, in the words users search with"
            ),
            Problem::LongDescription { bytes, at_least } => write!(
                f,
                "description is {}{} bytes, over the {} some clients keep: put the essentials first and move details to parameter descriptions",
                if *at_least { "at least " } else { "" },
                thousands(*bytes as u64),
                thousands(MAX_DESCRIPTION_BYTES as u64)
            ),
            Problem::CamelCase { name, snake } => write!(
                f,
                "\"{name}\" is one search token (\"{}\"): a query for its words does not match it; name it {snake}",
                name.to_ascii_lowercase()
            ),
            Problem::NonAscii { count, first } => write!(
                f,
                "{count} word{} with non-ASCII letters ({}{}): search only keeps ASCII letters and digits, so they are split or dropped",
                if *count == 1 { "" } else { "s" },
                quoted(first),
                if *count > 3 { ", ..." } else { "" }
            ),
            Problem::LongName { name, chars } => write!(
                f,
                "Hermes name {name} is {chars} characters; providers reject function names over {MAX_NAME_CHARS}: shorten the tool name or the server key"
            ),
            Problem::ParamNoDescription { params } => write!(
                f,
                "{} no description: the model must guess what to pass",
                parameters_have(params)
            ),
            Problem::ParamNoType { params } => write!(
                f,
                "{} no type: add \"type\" so the model sends the right kind of value",
                parameters_have(params)
            ),
            Problem::DeepSchema { depth } => write!(
                f,
                "parameters nest {depth} levels deep (over {MAX_SCHEMA_DEPTH}): models fill deep objects badly; flatten them"
            ),
            Problem::SearchWordsChanged { added, removed } => {
                write_search_words_changed(f, added, removed)
            }
            Problem::SchemaRewritten {
                name,
                captured_chars,
                sent_chars,
            } => write_schema_rewritten(f, name, *captured_chars, *sent_chars),
            Problem::Costly { tokens } => write!(
                f,
                "its definition costs {} tokens by chars/4, in the costliest tenth of the catalog: trim the description or schema",
                thousands(*tokens)
            ),
            Problem::Shadowed { query, limit, above } => write_shadowed(f, query, *limit, above),
            Problem::WeakFirstSentence { limit } => write!(
                f,
                "a search for its own first sentence does not return it in the top {limit}: make that sentence specific to this tool"
            ),
            Problem::NearDuplicate {
                other,
                server,
                similarity,
            } => write!(
                f,
                "its search text matches {other} (server {server}) at {:.0}% similarity: the model may pick either; tell them apart in the descriptions",
                similarity * 100.0
            ),
            Problem::NameCollision(collision) => {
                write!(f, "{}: rename the tool or the server key", Worded(collision))
            }
            Problem::Refused(note @ Note::NoInputSchema { .. }) => write!(
                f,
                "{}; add \"inputSchema\": {{\"type\": \"object\"}} to every tool",
                Worded(note)
            ),
            Problem::Refused(note) => write!(f, "{}; fix the entry", Worded(note)),
            Problem::Unreachable { id, query, k, why } => {
                write!(f, "query {id} \"{query}\" does not return it in the top {k}: ")?;
                write_unreached(f, why)
            }
        }
    }
}

/// `"a", "b"`.
fn quoted(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
    quoted.join(", ")
}

/// `parameter x has` / `parameters x, y have`.
fn parameters_have(names: &[String]) -> String {
    match names {
        [one] => format!("parameter {one} has"),
        many => format!("parameters {} have", many.join(", ")),
    }
}

/// The schema passes' change of the definition's size.
fn write_schema_rewritten(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    captured_chars: u64,
    sent_chars: u64,
) -> fmt::Result {
    let delta = sent_chars as i64 - captured_chars as i64;
    write!(
        f,
        "Hermes's schema passes rewrite its schema: {} -> {} chars ({}{delta}); see `schematax describe {name}`",
        thousands(captured_chars),
        thousands(sent_chars),
        if delta >= 0 { "+" } else { "" },
    )
}

/// A search for the tool's name words that returns others.
fn write_shadowed(
    f: &mut fmt::Formatter<'_>,
    query: &str,
    limit: u32,
    above: &[String],
) -> fmt::Result {
    write!(
        f,
        "a search for its name words \"{query}\" does not return it in the top {limit}"
    )?;
    if !above.is_empty() {
        write!(f, ", outranked by {}", above.join(", "))?;
    }
    f.write_str(": put those words in its description")
}

/// The schema passes' added and removed parameters.
fn write_search_words_changed(
    f: &mut fmt::Formatter<'_>,
    added: &[String],
    removed: &[String],
) -> fmt::Result {
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(format!("adds the parameter {}", quoted(added)));
    }
    if !removed.is_empty() {
        parts.push(format!("removes {}", quoted(removed)));
    }
    write!(
        f,
        "Hermes's schema passes {}, and with it the tool's search words: fix the schema (a property map holding a parameter named \"properties\" gains a fake \"type\" parameter)",
        parts.join(" and ")
    )
}

/// Why a query does not return its tool, and what to do.
fn write_unreached(f: &mut fmt::Formatter<'_>, why: &Unreached) -> fmt::Result {
    match why {
        Unreached::MissingGate { word } => write!(
            f,
            "its rarest word \"{word}\" is not in the tool's text, so the rarest-word gate never admits it: add that word to the description"
        ),
        Unreached::TooFewWords { held, required } => write!(
            f,
            "the tool holds {held} of the query's words and needs {required}: use the words people search with"
        ),
        Unreached::NoTokens => f.write_str("the query has no searchable words"),
        Unreached::NothingRanks => f.write_str("nothing ranks for it"),
        Unreached::Outranked(above) => write!(f, "outranked by {}", above.join(", ")),
    }
}

impl Words for ContextSource {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContextSource::Flag => f.write_str("--context"),
            ContextSource::View => f.write_str("set in the view"),
            ContextSource::Config => f.write_str("model.context_length"),
            ContextSource::ModelTable(id) => write!(f, "known model {id}"),
            ContextSource::UnknownModel(id) => write!(f, "default for unknown model {id}"),
            ContextSource::Unknown => f.write_str("no model configured"),
        }
    }
}

impl Words for Collision {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Collision {
            server,
            tool,
            name,
            kept_server,
            kind,
        } = self;
        let kept = kept_server.as_deref().unwrap_or("no server");
        match kind {
            CollisionKind::Overwritten => write!(
                f,
                "{server}/{tool} is overwritten by server {kept}'s tool of the same name {name}: the last registration wins (Hermes connects servers in parallel, so in real use whichever connects last keeps the name)"
            ),
            CollisionKind::NameTaken => write!(
                f,
                "{server}/{tool} is skipped: server {kept} registered the name {name} first"
            ),
            CollisionKind::DuplicateInServer => write!(
                f,
                "{server}/{tool} is skipped: another tool of {server} has the same name {name}, so Hermes registers neither"
            ),
            CollisionKind::Repeated => write!(
                f,
                "{server}/{tool} is listed twice by {server}: Hermes keeps the first listing"
            ),
        }
    }
}

impl Words for Admitted {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Admitted::Yes => f.write_str("admitted"),
            Admitted::MissingGate { word } => {
                write!(f, "lacks \"{word}\", the query's rarest word")
            }
            Admitted::TooFewWords { held, required } => write!(
                f,
                "holds {held} of the query's words; the rule needs {required}"
            ),
            Admitted::NoTokens => f.write_str("the query has no searchable words"),
        }
    }
}

impl Words for Note {
    fn write_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::NotConfigured { server, source } => {
                write!(f, "capture {server} ({source}) is not in mcp_servers: not counted")
            }
            Note::NoCapture { server } => write!(
                f,
                "server {server} is configured but has no capture: not counted (run `schematax capture`)"
            ),
            Note::Disabled { server } => {
                write!(f, "server {server} has enabled: false: not counted")
            }
            Note::NoInputSchema {
                server,
                tool,
                tools,
            } => {
                let which = match tools {
                    1 => format!("tool {tool} has"),
                    _ => format!(
                        "{} tools ({tool} and {} more) have",
                        thousands(*tools as u64),
                        thousands(*tools as u64 - 1)
                    ),
                };
                write!(
                    f,
                    "server {server}: {which} no inputSchema; Hermes's MCP client rejects the whole tool list, so Hermes does not connect {server}: not counted"
                )
            }
            Note::Refused {
                server,
                position,
                reason,
            } => write!(
                f,
                "server {server}: tool #{position}: {reason}; Hermes's MCP client rejects the whole tool list, so Hermes does not connect {server}: not counted"
            ),
            Note::UnknownToolset {
                list,
                name,
                suggestion,
            } => {
                write!(f, "{list}: no server has the toolset {name:?}")?;
                match suggestion {
                    Some(guess) => write!(f, " (did you mean {guess:?}?)"),
                    None => write!(f, " (toolsets are mcp-SERVER or the server's name)"),
                }
            }
        }
    }
}

/// A value of the wrong kind: "expected a mapping, found a list" for a key that takes a list
/// or mapping, "`"x"` is not an integer" for one that takes a single value; then what is used
/// instead.
fn write_invalid(
    f: &mut fmt::Formatter<'_>,
    key: &str,
    found: &Found,
    expected: Expected,
    instead: &Instead,
) -> fmt::Result {
    let takes_a_structure = matches!(
        expected,
        Expected::Mapping
            | Expected::MappingOrBoolean
            | Expected::ModelOrMapping
            | Expected::Names
            | Expected::ToolNames
    );
    let expected = expected_words(expected);
    if takes_a_structure {
        write!(f, "{key}: expected {expected}, found {found}")?;
    } else {
        write!(f, "{key}: {found} is not {expected}")?;
    }
    match instead {
        Instead::Value(value) => write!(f, "; using {value}"),
        Instead::TreatedAs(value) => write!(f, "; treated as {value}"),
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
        Expected::Agent => "an agent name (NAME or NAME@VERSION)",
    }
}

#[cfg(test)]
mod tests {
    use super::Words;
    use schematax_engine::nouns::config::Config;
    use schematax_releases::Profile;

    fn warnings(yaml: &str) -> Vec<String> {
        let config = Config::parse(yaml.as_bytes()).expect("parses");
        config
            .warnings(Profile::seed())
            .map(|w| w.words())
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
                "mcp_servers.a.enabled: \"maybe\" is not true/false; treated as true",
            ),
            (
                "mcp_servers: 5",
                "mcp_servers: expected a mapping, found 5; no servers configured",
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

    #[test]
    fn lint_problems_read_with_their_figures_and_fix() {
        use schematax_engine::analyses::lint::{Problem, Unreached};
        let shadowed = |above: Vec<String>| {
            Problem::Shadowed {
                query: "get status".into(),
                limit: 5,
                above,
            }
            .words()
        };
        assert_eq!(
            shadowed(Vec::new()),
            "a search for its name words \"get status\" does not return it in the top 5: put those words in its description"
        );
        assert_eq!(
            shadowed(vec!["a".into(), "b".into()]),
            "a search for its name words \"get status\" does not return it in the top 5, outranked by a, b: put those words in its description"
        );
        let changed = Problem::SearchWordsChanged {
            added: vec!["type".into()],
            removed: vec!["properties".into(), "x".into()],
        };
        assert!(changed
            .words()
            .starts_with("Hermes's schema passes adds the parameter \"type\" and removes \"properties\", \"x\", and with it"));
        let rewritten = Problem::SchemaRewritten {
            name: "mcp_a_b".into(),
            captured_chars: 1200,
            sent_chars: 1100,
        };
        assert!(rewritten.words().contains("1,200 -> 1,100 chars (-100)"));
        let unreachable = Problem::Unreachable {
            id: "q1".into(),
            query: "dns".into(),
            k: 3,
            why: Unreached::TooFewWords {
                held: 1,
                required: 2,
            },
        };
        assert_eq!(
            unreachable.words(),
            "query q1 \"dns\" does not return it in the top 3: the tool holds 1 of the query's words and needs 2: use the words people search with"
        );
    }
}
