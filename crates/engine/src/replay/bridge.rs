//! The three bridge tools: what they cost, and what they return to the model in a session
//! (ENGINE.md §4, §7; ENGINE-2026-09.md §2, §5), for every release.
//!
//! The definitions are each release's own bytes ([`schematax_releases::bridge_texts`]): `tool_search`'s
//! description with the deferred count, then, when the release lists the catalog, the framing
//! of the listing's form and the listing. The payloads follow the release's dispatch: one
//! `query` / `name` (up to 0.20.5) or batched `queries` / `names` (0.20.6 on). Texts the
//! releases return are theirs; the `tool_call` scope message is Hermes's too.

use serde_json::{json, Map, Value};

use schematax_releases::{BridgeProtocol, BridgeTexts, DescriptionCap, Dispatch};

use crate::nouns::json_text::{write_compact_json, CharCounter, JsonSink};
use crate::replay::catalog::{ToolEntry, BRIDGE_TOOL_NAMES};
use crate::replay::listing::ListingForm;

/// Required parameter names a batched `tool_search` result lists per tool, at most.
pub const MAX_REQUIRED_NAMES: usize = 32;
/// Characters each of those names is cut to.
pub const REQUIRED_NAME_CHARS: usize = 64;

/// The framing a listing of `form` gets in a release's `tool_search` (empty for none, or without framing).
pub fn framing(texts: &BridgeTexts, form: ListingForm) -> &'static str {
    match (texts.framing, form) {
        (None, _) | (_, ListingForm::None) => "",
        (Some(f), ListingForm::Groups) => f.groups,
        (Some(f), ListingForm::Mixed) => f.mixed,
        (Some(f), ListingForm::Full | ListingForm::Names) => f.listed,
    }
}

/// `tool_search`'s full description for `deferred` tools and a listing.
pub fn search_description(
    texts: &BridgeTexts,
    deferred: usize,
    listing: Option<(&str, ListingForm)>,
) -> String {
    let mut text = texts
        .search_description
        .replace("{count}", &deferred.to_string());
    if let Some((listing, form)) = listing {
        text.push_str(framing(texts, form));
        text.push_str(listing);
    }
    text
}

/// A release's three definitions for `deferred` tools and a listing, exactly as it sends them.
pub fn definitions(
    texts: &BridgeTexts,
    deferred: usize,
    listing: Option<(&str, ListingForm)>,
) -> [Value; 3] {
    let mut definitions = texts
        .definitions
        .map(|text| serde_json::from_str::<Value>(text).expect("bridge texts are JSON"));
    definitions[0]["function"]["description"] =
        Value::String(search_description(texts, deferred, listing));
    definitions
}

/// Characters of a release's three definitions; a listing is given by its form and the
/// characters it takes inside a JSON string.
pub fn texts_chars(
    texts: &BridgeTexts,
    deferred: usize,
    listing: Option<(ListingForm, u64)>,
) -> u64 {
    let mut counter = CharCounter::default();
    for text in texts.definitions {
        counter.push_str(text);
    }
    counter.push_escaped(
        &texts
            .search_description
            .replace("{count}", &deferred.to_string()),
    );
    if let Some((form, listing_json_chars)) = listing {
        counter.push_escaped(framing(texts, form));
        counter.0 += listing_json_chars;
    }
    counter.0
}

/// `text` cut to a release's cap on a search result's description.
pub fn cap_description(cap: &DescriptionCap, text: &str) -> String {
    let mut out: String = text.chars().take(cap.chars).collect();
    if cap.ellipsis && out.len() < text.len() {
        out.push('…');
    }
    out
}

/// `{"error": message}`.
pub fn error_payload(message: &str) -> Value {
    json!({ "error": message })
}

/// Python's `str()` of a JSON value, as the releases coerce arguments with it.
pub fn python_str(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => python_repr(other),
    }
}

/// Python's `repr()` of a JSON value.
fn python_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1e16 => format!("{f:.1}"),
            (_, _, Some(f)) => f.to_string(),
            _ => n.to_string(),
        },
        Value::String(text) => {
            let quote = if text.contains('\'') && !text.contains('"') {
                '"'
            } else {
                '\''
            };
            let mut out = String::from(quote);
            for c in text.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        out.push_str(&format!("\\x{:02x}", c as u32));
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
            out
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(python_repr).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!(
                    "{}: {}",
                    python_repr(&Value::String(k.clone())),
                    python_repr(v)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Python truthiness of an argument.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// `str(args.get(key) or "").strip()`: a single-argument bridge's text argument.
pub fn single_argument(arguments: &Value, key: &str) -> String {
    match arguments.get(key) {
        Some(value) if truthy(value) => python_str(value).trim().to_string(),
        _ => String::new(),
    }
}

/// Why a batched list argument (`queries`, `names`) is refused: the error text the release
/// returns to the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListArgumentError {
    /// Neither a string nor a list.
    #[error("{key} is required and must be an array of strings")]
    NotAList {
        /// `queries` or `names`.
        key: &'static str,
    },
    /// Nothing left once blanks are dropped.
    #[error("{key} is required and must contain at least one non-empty string")]
    Empty {
        /// `queries` or `names`.
        key: &'static str,
    },
    /// Over the release's maximum.
    #[error("too many {key}: {count} > max {max}. {retry}")]
    TooMany {
        /// `queries` or `names`.
        key: &'static str,
        /// How many were given.
        count: usize,
        /// The maximum.
        max: usize,
        /// What to do instead.
        retry: &'static str,
    },
}

/// A batched list argument: one string or a list; each item `str(item or "").strip()`,
/// blanks dropped (and duplicates, when `dedupe`), at most `max`.
pub fn list_argument(
    arguments: &Value,
    key: &'static str,
    dedupe: bool,
    max: usize,
) -> Result<Vec<String>, ListArgumentError> {
    let items: Vec<&Value> = match arguments.get(key) {
        Some(one @ Value::String(_)) => vec![one],
        Some(Value::Array(items)) => items.iter().collect(),
        _ => return Err(ListArgumentError::NotAList { key }),
    };
    let mut out: Vec<String> = Vec::new();
    for item in items {
        let text = if truthy(item) {
            python_str(item).trim().to_string()
        } else {
            String::new()
        };
        if !(text.is_empty() || dedupe && out.contains(&text)) {
            out.push(text);
        }
    }
    let retry = if key == "queries" {
        "Retry with fewer, more targeted queries."
    } else {
        "Retry with fewer names per call."
    };
    match out.len() {
        0 => Err(ListArgumentError::Empty { key }),
        count if count > max => Err(ListArgumentError::TooMany {
            key,
            count,
            max,
            retry,
        }),
        _ => Ok(out),
    }
}

/// One query's hits: the entry and its toolset, best first.
pub struct QueryMatches<'a> {
    /// The query (trimmed).
    pub query: &'a str,
    /// Its hits.
    pub matches: Vec<(&'a ToolEntry, &'a str)>,
}

/// The connected sources a result with no match names: `[{name, tool_count}]`, sorted.
fn sources_value(sources: &[(String, usize)]) -> Value {
    Value::Array(
        sources
            .iter()
            .map(|(name, count)| json!({ "name": name, "tool_count": count }))
            .collect(),
    )
}

/// A single-query `tool_search` result: `{"query", "total_available", "matches": [{"name",
/// "source", "source_name", "description"}]}`, and with no match (and a hint) the connected
/// sources. No scores.
pub fn single_search_payload(
    protocol: &BridgeProtocol,
    result: &QueryMatches<'_>,
    total_available: usize,
    sources: &[(String, usize)],
) -> Value {
    let matches: Vec<Value> = result
        .matches
        .iter()
        .map(|(entry, toolset)| {
            json!({
                "name": entry.name,
                "source": "mcp",
                "source_name": toolset,
                "description": cap_description(&protocol.description, &entry.description),
            })
        })
        .collect();
    let empty = matches.is_empty();
    let mut payload =
        json!({ "query": result.query, "total_available": total_available, "matches": matches });
    if let (
        true,
        false,
        Dispatch::Single {
            no_match_hint: Some(hint),
        },
    ) = (empty, sources.is_empty(), protocol.dispatch)
    {
        payload["available_sources"] = sources_value(sources);
        payload["hint"] = Value::String(hint.into());
    }
    payload
}

/// A tool in a batched `tool_search` result's shared map.
fn result_tool(protocol: &BridgeProtocol, entry: &ToolEntry, toolset: &str) -> Value {
    let required: Vec<String> = entry
        .required_names()
        .iter()
        .take(MAX_REQUIRED_NAMES)
        .map(|name| name.chars().take(REQUIRED_NAME_CHARS).collect())
        .collect();
    json!({
        "source": "mcp",
        "source_name": toolset,
        "description": cap_description(&protocol.description, &entry.description),
        "required": required,
    })
}

/// A batched `tool_search` result: `{"queries", "total_available", "results": [{"query",
/// "matches"}], "tools": {name: {...}}}`; a query with no match also gets the connected
/// sources and the hint.
pub fn batched_search_payload(
    protocol: &BridgeProtocol,
    results: &[QueryMatches<'_>],
    total_available: usize,
    sources: &[(String, usize)],
) -> Value {
    let hint = match protocol.dispatch {
        Dispatch::Batched { no_match_hint, .. } => no_match_hint,
        Dispatch::Single { no_match_hint } => no_match_hint.unwrap_or_default(),
    };
    let mut tools = Map::new();
    let groups: Vec<Value> = results
        .iter()
        .map(|result| {
            let names: Vec<&str> = result
                .matches
                .iter()
                .map(|(e, _)| e.name.as_str())
                .collect();
            for (entry, toolset) in &result.matches {
                if !tools.contains_key(&entry.name) {
                    tools.insert(entry.name.clone(), result_tool(protocol, entry, toolset));
                }
            }
            let mut value = json!({ "query": result.query, "matches": names });
            if names.is_empty() && !sources.is_empty() {
                value["available_sources"] = sources_value(sources);
                value["hint"] = Value::String(hint.into());
            }
            value
        })
        .collect();
    let queries: Vec<&str> = results.iter().map(|r| r.query).collect();
    json!({
        "queries": queries,
        "total_available": total_available,
        "results": groups,
        "tools": tools,
    })
}

/// `{"name", "description", "parameters"}`: a single-name `tool_describe` result.
pub fn single_describe_payload(entry: &ToolEntry) -> Value {
    json!({
        "name": entry.name,
        "description": &*entry.description,
        "parameters": Value::Object(entry.parameters.parse()),
    })
}

/// What a single-name `tool_describe` answers for a name that is not in the catalog.
pub fn single_describe_error(name: &str, registered: bool) -> Value {
    if name.is_empty() {
        return error_payload("name is required");
    }
    if registered && !BRIDGE_TOOL_NAMES.contains(&name) {
        return error_payload(&format!(
            "'{name}' is not currently available. Re-run tool_search to refresh."
        ));
    }
    error_payload(&format!(
        "'{name}' is not a deferrable tool. If you see it in the tools list already, call it directly; otherwise check the spelling against tool_search."
    ))
}

/// A batched `tool_describe` result: `{"tools": {name: {description, parameters}}}`, plus
/// `not_found` and a hint for the names not in the catalog.
pub fn batched_describe_payload<'a>(
    found: impl IntoIterator<Item = &'a ToolEntry>,
    not_found: &[String],
) -> Value {
    let mut tools = Map::new();
    for entry in found {
        tools.insert(
            entry.name.clone(),
            json!({
                "description": &*entry.description,
                "parameters": Value::Object(entry.parameters.parse()),
            }),
        );
    }
    let mut payload = json!({ "tools": tools });
    if !not_found.is_empty() {
        payload["not_found"] = json!(not_found);
        payload["hint"] = Value::String(
            "Names in not_found are not currently available. Re-run tool_search to refresh.".into(),
        );
    }
    payload
}

/// Characters of a definition list written as compact JSON.
pub fn definitions_chars(definitions: &[Value]) -> u64 {
    let mut counter = CharCounter::default();
    for definition in definitions {
        write_compact_json(definition, &mut counter);
    }
    counter.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nouns::tools::McpTool;
    use schematax_releases::bridge_texts;
    use schematax_releases::Profile;

    fn entry(description: &str) -> ToolEntry {
        ToolEntry::new(
            Profile::seed(),
            "srv",
            &McpTool {
                name: "t".into(),
                description: Some(description.into()),
                input_schema: None,
                truncated_chars: 0,
                ..McpTool::default()
            },
        )
    }

    #[test]
    fn the_first_bridge_measures_1508_plus_the_count_digits() {
        let texts = bridge_texts::RELEASE_0_16_0;
        assert_eq!(texts_chars(&texts, 5, None), 1509);
        assert_eq!(texts_chars(&texts, 406, None), 1511);
        assert_eq!(definitions_chars(&definitions(&texts, 406, None)), 1511);
    }

    #[test]
    fn single_search_cuts_descriptions_to_400_without_ellipsis() {
        let long = "é".repeat(500);
        let e = entry(&long);
        let protocol = Profile::seed().spec().bridge;
        let result = QueryMatches {
            query: "q",
            matches: vec![(&e, "mcp-srv")],
        };
        let payload = single_search_payload(&protocol, &result, 7, &[]);
        let description = payload["matches"][0]["description"].as_str().unwrap();
        assert_eq!(description.chars().count(), 400);
        let keys: Vec<_> = payload.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["query", "total_available", "matches"]);
    }

    #[test]
    fn python_coercion_of_arguments() {
        assert_eq!(single_argument(&json!({"name": " x "}), "name"), "x");
        assert_eq!(single_argument(&json!({"name": 0}), "name"), "");
        assert_eq!(single_argument(&json!({"name": 12}), "name"), "12");
        assert_eq!(
            single_argument(&json!({"name": ["a", true, null, 2.0]}), "name"),
            "['a', True, None, 2.0]"
        );
        assert_eq!(
            list_argument(
                &json!({"queries": ["a", 1, "", null, " b "]}),
                "queries",
                false,
                7
            ),
            Ok(vec!["a".into(), "1".into(), "b".into()])
        );
        assert_eq!(
            list_argument(&json!({"names": ["a", "a"]}), "names", true, 10),
            Ok(vec!["a".into()])
        );
        let eight: Vec<String> = (1..=8).map(|i| i.to_string()).collect();
        assert_eq!(
            list_argument(&json!({ "queries": eight }), "queries", false, 7)
                .unwrap_err()
                .to_string(),
            "too many queries: 8 > max 7. Retry with fewer, more targeted queries."
        );
        assert_eq!(
            list_argument(&json!({"queries": 5}), "queries", false, 7)
                .unwrap_err()
                .to_string(),
            "queries is required and must be an array of strings"
        );
    }

    #[test]
    fn batched_descriptions_are_cut_at_500_with_an_ellipsis() {
        let long = entry(&"d".repeat(600));
        let protocol = Profile::newest().spec().bridge;
        let payload = batched_search_payload(
            &protocol,
            &[QueryMatches {
                query: "q",
                matches: vec![(&long, "mcp-srv")],
            }],
            1,
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
        for profile in Profile::all() {
            let texts = profile.spec().bridge.texts;
            let forms: &[ListingForm] = if texts.framing.is_some() {
                &[ListingForm::Full, ListingForm::Mixed, ListingForm::Groups]
            } else {
                &[]
            };
            for &form in forms {
                let listing = "Deferred tool catalog:\nx \"quoted\"";
                let mut json = CharCounter::default();
                json.push_escaped(listing);
                let measured = definitions_chars(&definitions(&texts, 12, Some((listing, form))));
                assert_eq!(
                    texts_chars(&texts, 12, Some((form, json.0))),
                    measured,
                    "{profile} {form}"
                );
            }
            assert_eq!(
                texts_chars(&texts, 7, None),
                definitions_chars(&definitions(&texts, 7, None)),
                "{profile}"
            );
        }
    }
}
