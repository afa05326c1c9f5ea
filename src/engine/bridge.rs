//! The three bridge tools: what they cost, and what they return to the model in a session
//! (ENGINE.md §4, §7; ENGINE-2026-09.md §2, §5).
//!
//! The seed bridge measures a fixed `1508 + digits(N)` characters; the newer bridge is three
//! definitions whose `tool_search` description frames and embeds the catalog listing,
//! reproduced byte for byte. The error texts the golden files show are Hermes's; the others
//! (unknown names in `tool_describe`, bad `tool_call` arguments) are this analyzer's wording.

use serde_json::{json, Map, Value};

use super::catalog::{ToolEntry, BRIDGE_TOOL_NAMES};
use super::listing::ListingForm;
use super::tokens::{write_compact_json, CharCounter, JsonSink};

/// Characters of the seed's three bridge definitions, before the digits of the deferred count.
pub const SEED_BRIDGE_BASE_CHARS: u64 = 1508;
/// Characters of a description kept in a seed `tool_search` match (no ellipsis is added).
pub const SEARCH_DESCRIPTION_CHARS: usize = 400;
/// Characters of a description kept in a newer `tool_search` result (`…` added when cut).
pub const RESULT_DESCRIPTION_CHARS: usize = 500;
/// Queries one newer `tool_search` call takes at most.
pub const MAX_QUERIES: usize = 7;
/// Required parameter names a newer `tool_search` result lists per tool, at most.
pub const MAX_REQUIRED_NAMES: usize = 32;
/// Characters each of those names is cut to.
pub const REQUIRED_NAME_CHARS: usize = 64;

/// Characters of the seed bridge for `deferred` deferred tools: `1508 + digits(N)`.
pub fn seed_bridge_chars(deferred: usize) -> u64 {
    SEED_BRIDGE_BASE_CHARS + deferred.to_string().len() as u64
}

/// The message a call outside the session's catalog gets.
pub fn not_available_message(name: &str) -> String {
    format!(
        "'{name}' is not available in this session. Use tool_search to find tools you can call."
    )
}

/// `{"error": message}`.
pub fn error_payload(message: &str) -> Value {
    json!({ "error": message })
}

/// The first `n` characters of `text`.
fn first_chars(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// The seed `tool_search` result: `{"query", "total_available", "matches": [{"name",
/// "source", "source_name", "description"}]}`, or the error for an empty query. No scores.
pub fn seed_search_payload<'a>(
    query: &str,
    total_available: usize,
    matches: impl IntoIterator<Item = (&'a ToolEntry, &'a str)>,
) -> Value {
    if query.trim().is_empty() {
        return error_payload("query is required");
    }
    let matches: Vec<Value> = matches
        .into_iter()
        .map(|(entry, toolset)| {
            json!({
                "name": entry.name,
                "source": "mcp",
                "source_name": toolset,
                "description": first_chars(&entry.description, SEARCH_DESCRIPTION_CHARS),
            })
        })
        .collect();
    json!({ "query": query, "total_available": total_available, "matches": matches })
}

/// The seed `tool_describe` result for a catalog entry: `{"name", "description",
/// "parameters"}`, full.
pub fn seed_describe_payload(entry: &ToolEntry) -> Value {
    json!({
        "name": entry.name,
        "description": entry.description,
        "parameters": Value::Object(entry.parameters.parse()),
    })
}

/// Why a `tool_describe` / `tool_call` name is refused, given whether the catalog has it.
pub fn name_error(name: &str, in_catalog: bool) -> Option<String> {
    if BRIDGE_TOOL_NAMES.contains(&name) {
        return Some(format!(
            "'{name}' is a Tool Search bridge tool, not a deferred tool."
        ));
    }
    (!in_catalog).then(|| not_available_message(name))
}

/// Why the `queries` argument of a newer `tool_search` is refused; the message is the error
/// text Hermes returns to the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueriesError {
    /// No query, or only blank ones.
    #[error("queries is required and must contain at least one non-empty string")]
    Missing,
    /// Neither a string nor an array of strings.
    #[error("queries is required and must be an array of strings")]
    NotStrings,
    /// More than [`MAX_QUERIES`].
    #[error("too many queries: {0} > max {MAX_QUERIES}. Retry with fewer, more targeted queries.")]
    TooMany(usize),
}

/// The `queries` argument of a newer `tool_search`: one string or an array of strings, each
/// trimmed, blanks dropped, at most [`MAX_QUERIES`].
pub fn parse_queries(value: Option<&Value>) -> Result<Vec<String>, QueriesError> {
    let raw: Vec<&str> = match value {
        None | Some(Value::Null) => return Err(QueriesError::Missing),
        Some(Value::String(one)) => vec![one],
        Some(Value::Array(items)) => items
            .iter()
            .map(Value::as_str)
            .collect::<Option<_>>()
            .ok_or(QueriesError::NotStrings)?,
        Some(_) => return Err(QueriesError::NotStrings),
    };
    let queries: Vec<String> = raw
        .iter()
        .map(|q| q.trim())
        .filter(|q| !q.is_empty())
        .map(str::to_string)
        .collect();
    match queries.len() {
        0 => Err(QueriesError::Missing),
        n if n > MAX_QUERIES => Err(QueriesError::TooMany(n)),
        _ => Ok(queries),
    }
}

/// The text a query with no match gets beside the connected sources.
pub const NO_MATCH_HINT: &str = "This query returned no lexical matches, but the sources above are connected and their tools remain available. Retry tool_search with the service name plus a concrete action or object before concluding the capability is unavailable.";

/// A tool in a newer `tool_search` result's shared map.
fn result_tool(entry: &ToolEntry, toolset: &str) -> Value {
    let mut description = first_chars(&entry.description, RESULT_DESCRIPTION_CHARS);
    if entry.description.chars().count() > RESULT_DESCRIPTION_CHARS {
        description.push('…');
    }
    let required: Vec<String> = entry
        .required_names()
        .iter()
        .take(MAX_REQUIRED_NAMES)
        .map(|name| first_chars(name, REQUIRED_NAME_CHARS))
        .collect();
    json!({
        "source": "mcp",
        "source_name": toolset,
        "description": description,
        "required": required,
    })
}

/// One query's matches in a newer `tool_search` call.
pub struct QueryMatches<'a> {
    /// The query (trimmed).
    pub query: &'a str,
    /// Its hits, best first: the entry and its toolset.
    pub matches: Vec<(&'a ToolEntry, &'a str)>,
}

/// The newer `tool_search` result: `{"queries", "total_available", "results": [{"query",
/// "matches"}], "tools": {name: {...}}}`; a query with no match also gets the connected
/// sources (`[(label, tool_count)]`, sorted) and a hint.
pub fn search_results_payload(
    total_available: usize,
    results: &[QueryMatches<'_>],
    sources: &[(String, usize)],
) -> Value {
    let mut tools = Map::new();
    let results: Vec<Value> = results
        .iter()
        .map(|result| {
            let names: Vec<&str> = result
                .matches
                .iter()
                .map(|(e, _)| e.name.as_str())
                .collect();
            for (entry, toolset) in &result.matches {
                if !tools.contains_key(&entry.name) {
                    tools.insert(entry.name.clone(), result_tool(entry, toolset));
                }
            }
            let mut value = json!({ "query": result.query, "matches": names });
            if names.is_empty() {
                let available: Vec<Value> = sources
                    .iter()
                    .map(|(name, count)| json!({ "name": name, "tool_count": count }))
                    .collect();
                value["available_sources"] = Value::Array(available);
                value["hint"] = Value::String(NO_MATCH_HINT.into());
            }
            value
        })
        .collect();
    let queries: Vec<&str> = results.iter().filter_map(|r| r["query"].as_str()).collect();
    json!({
        "queries": queries,
        "total_available": total_available,
        "results": results,
        "tools": tools,
    })
}

/// The newer `tool_describe` result: `{"tools": {name: {description, parameters}}}` plus
/// `not_found` and a hint when some names are unknown.
pub fn describe_results_payload<'a>(
    found: impl IntoIterator<Item = &'a ToolEntry>,
    not_found: &[String],
) -> Value {
    let mut tools = Map::new();
    for entry in found {
        tools.insert(
            entry.name.clone(),
            json!({
                "description": entry.description,
                "parameters": Value::Object(entry.parameters.parse()),
            }),
        );
    }
    let mut payload = json!({ "tools": tools });
    if !not_found.is_empty() {
        payload["not_found"] = json!(not_found);
        payload["hint"] = Value::String(
            "Use exact names from tool_search results or the deferred tool catalog.".into(),
        );
    }
    payload
}

/// What the newer `tool_search` description says before any listing.
fn search_description_base(deferred: usize) -> String {
    format!(
        "Search {deferred} additional tools that are loaded on demand. Takes a list of queries searched in parallel against the same catalog; send one query per distinct capability you need. Queries are keyword searches, not questions: the app or service name plus an action and object, no filler words (`gmail send email`, `nvidia driver status`, not `what's my GPU driver version?`); a word no tool contains makes the query return nothing. Returns matching tool names grouped per query plus a shared map with each tool's description. Follow with `tool_describe` to load full parameter schemas, then `tool_call` to invoke. Tools listed at the top of this system prompt are already available and do not need to be searched."
    )
}

/// The sentences that introduce a listing of `form`, with the blank lines around them.
pub fn listing_framing(form: ListingForm) -> String {
    match form {
        ListingForm::Groups => "\n\nThe servers below are connected and their tools ARE available through this bridge. For any request in these domains, search here FIRST — do not claim the capability is unavailable and do not substitute a generic tool (terminal/browser) without searching.\n\n".to_string(),
        ListingForm::None => String::new(),
        other => {
            let mut text = String::from("\n\nEvery deferred capability is listed below. If a tool name appears here, do NOT claim it is unavailable — load it with `tool_describe` (skip `tool_search` when you already see the exact name).");
            if other == ListingForm::Mixed {
                text.push_str(" For servers marked 'names not listed', the tools exist too — find them with `tool_search` before concluding anything is missing.");
            }
            text.push_str("\n\n");
            text
        }
    }
}

/// `{"type":"function","function":{"name","description","parameters"}}`.
fn function(name: &str, description: String, parameters: Value) -> Value {
    json!({"type": "function", "function": {"name": name, "description": description, "parameters": parameters}})
}

/// The newer bridge: `tool_search` (with the listing of `form`, when any), `tool_describe`,
/// `tool_call`, exactly as Hermes sends them.
pub fn bridge_definitions(deferred: usize, listing: Option<(&str, ListingForm)>) -> [Value; 3] {
    let mut search = search_description_base(deferred);
    if let Some((text, form)) = listing {
        search.push_str(&listing_framing(form));
        search.push_str(text);
    }
    [
        function(
            "tool_search",
            search,
            json!({"type": "object", "properties": {
                "queries": {"type": "array", "items": {"type": "string"}, "description": "Keyword queries, one per capability: app or service name + action + object (e.g. ['github create issue', 'slack send message', 'gmail fetch emails']). Not questions or sentences: every word must appear in tool text, or the query returns nothing. Searched in parallel; results come back grouped per query. A single string is accepted and treated as one query."},
                "limit": {"type": "integer", "description": "Maximum number of matches per query. Defaults to 5 and is clamped to the configured maximum (25 by default)."}},
                "required": ["queries"]}),
        ),
        function(
            "tool_describe",
            "Load the full JSON schemas for tools returned by `tool_search`. Required before `tool_call` if a tool's parameters are unknown. Batch every schema you need into one call.".into(),
            json!({"type": "object", "properties": {
                "names": {"type": "array", "items": {"type": "string"}, "description": "Exact tool names (as returned by tool_search). A single string is accepted and treated as one name."}},
                "required": ["names"]}),
        ),
        function(
            "tool_call",
            "Invoke deferred tools. Takes `calls`, an array of {name, arguments} — one entry per invocation; a single call is an array of one. Local tools require one entry per tool_call. Only connectors__ names may be batched together; mixed and multi-local batches are rejected. Connector entries execute individually with results in input order. Argument shapes match each tool's schema (see `tool_describe`). Policy, hooks, and approvals run as for directly-listed tools.".into(),
            json!({"type": "object", "properties": {
                "calls": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string", "description": "Exact tool name to invoke."},
                    "arguments": {"type": "object", "description": "Arguments matching the tool schema."}},
                    "required": ["name", "arguments"]},
                    "description": "One local invocation, or one or more connector invocations. Never mix local and connector tools."}},
                "required": ["calls"]}),
        ),
    ]
}

/// Characters of the newer bridge: the three definitions, the listing's framing and the
/// listing (given as the characters it takes inside a JSON string).
pub fn bridge_chars(deferred: usize, listing: Option<(ListingForm, u64)>) -> u64 {
    let mut counter = CharCounter::default();
    for definition in bridge_definitions(deferred, None) {
        write_compact_json(&definition, &mut counter);
    }
    if let Some((form, listing_json_chars)) = listing {
        counter.push_escaped(&listing_framing(form));
        counter.0 += listing_json_chars;
    }
    counter.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::capture_file::McpTool;
    use crate::engine::profile::Profile;

    fn entry(description: &str) -> ToolEntry {
        ToolEntry::new(
            Profile::Seed,
            "srv",
            &McpTool {
                name: "t".into(),
                description: Some(description.into()),
                input_schema: None,
                truncated_chars: 0,
            },
        )
    }

    #[test]
    fn seed_search_payload_truncates_to_400_chars_without_ellipsis() {
        let long = "é".repeat(500);
        let e = entry(&long);
        let payload = seed_search_payload("q", 7, [(&e, "mcp-srv")]);
        let description = payload["matches"][0]["description"].as_str().unwrap();
        assert_eq!(description.chars().count(), 400);
        assert_eq!(payload["total_available"], 7);
        assert_eq!(payload["matches"][0]["source"], "mcp");
        assert_eq!(payload["matches"][0]["source_name"], "mcp-srv");
        let keys: Vec<_> = payload.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["query", "total_available", "matches"]);
        assert_eq!(
            seed_search_payload("  ", 3, []),
            json!({"error": "query is required"})
        );
    }

    #[test]
    fn seed_describe_is_full() {
        let e = entry(&"x".repeat(900));
        let p = seed_describe_payload(&e);
        assert_eq!(p["description"].as_str().unwrap().len(), 900);
        assert_eq!(p["parameters"], json!({"type": "object", "properties": {}}));
        assert_eq!(seed_bridge_chars(5), 1509);
        assert_eq!(seed_bridge_chars(406), 1511);
    }

    #[test]
    fn names_and_arguments() {
        assert!(name_error("tool_call", true).unwrap().contains("bridge"));
        assert_eq!(
            name_error("mcp_x", false).unwrap(),
            not_available_message("mcp_x")
        );
        assert_eq!(name_error("mcp_x", true), None);
    }

    #[test]
    fn queries_and_names_arguments() {
        assert_eq!(parse_queries(Some(&json!(" one "))).unwrap(), ["one"]);
        assert_eq!(
            parse_queries(Some(&json!(["a", " ", "b"]))).unwrap(),
            ["a", "b"]
        );
        assert_eq!(
            parse_queries(Some(&json!(5))),
            Err(QueriesError::NotStrings)
        );
        assert_eq!(
            parse_queries(Some(&json!(["a", 1]))),
            Err(QueriesError::NotStrings)
        );
        assert_eq!(
            parse_queries(Some(&json!([" "]))),
            Err(QueriesError::Missing)
        );
        assert_eq!(parse_queries(None), Err(QueriesError::Missing));
        let eight: Vec<String> = (0..8).map(|i| i.to_string()).collect();
        assert_eq!(
            parse_queries(Some(&json!(eight))).unwrap_err().to_string(),
            "too many queries: 8 > max 7. Retry with fewer, more targeted queries."
        );
    }

    #[test]
    fn result_descriptions_are_cut_at_500_with_an_ellipsis() {
        let long = entry(&"d".repeat(600));
        let payload = search_results_payload(
            1,
            &[QueryMatches {
                query: "q",
                matches: vec![(&long, "mcp-srv")],
            }],
            &[],
        );
        let description = payload["tools"]["mcp_srv_t"]["description"]
            .as_str()
            .unwrap();
        assert_eq!(description.chars().count(), 501);
        assert!(description.ends_with('…'));
    }

    #[test]
    fn bridge_chars_equal_the_definitions() {
        for form in [ListingForm::Full, ListingForm::Mixed, ListingForm::Groups] {
            let listing = "Deferred tool catalog:\nx \"quoted\"";
            let mut json = CharCounter::default();
            json.push_escaped(listing);
            let mut measured = CharCounter::default();
            for definition in bridge_definitions(12, Some((listing, form))) {
                write_compact_json(&definition, &mut measured);
            }
            assert_eq!(bridge_chars(12, Some((form, json.0))), measured.0, "{form}");
        }
        assert!(bridge_chars(7, None) < bridge_chars(1000, None));
    }
}
