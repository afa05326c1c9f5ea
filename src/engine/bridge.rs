//! What the three bridge tools return to the model in a session (ENGINE.md §7).
//!
//! ENGINE.md fixes the payload shapes and the out-of-session message; the wording of the other
//! errors is this analyzer's own.

use serde_json::{json, Map, Value};

use super::catalog::{ToolEntry, BRIDGE_TOOL_NAMES};

/// Characters of a description kept in a `tool_search` match (no ellipsis is added).
pub const SEARCH_DESCRIPTION_CHARS: usize = 400;

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

/// The `tool_search` result: `{"query", "total_available", "matches": [{"name", "source",
/// "source_name", "description"}]}`, or the error for an empty query. No scores.
pub fn tool_search_payload<'a>(
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
                "description": entry.description.chars().take(SEARCH_DESCRIPTION_CHARS).collect::<String>(),
            })
        })
        .collect();
    json!({ "query": query, "total_available": total_available, "matches": matches })
}

/// The `tool_describe` result for a catalog entry: `{"name", "description", "parameters"}`, full.
pub fn tool_describe_payload(entry: &ToolEntry) -> Value {
    json!({
        "name": entry.name,
        "description": entry.description,
        "parameters": Value::Object(entry.parameters.clone()),
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

/// The arguments of a `tool_call`: an object, or a JSON string holding one.
pub fn call_arguments(arguments: &Value) -> Result<Map<String, Value>, String> {
    match arguments {
        Value::Object(map) => Ok(map.clone()),
        Value::Null => Ok(Map::new()),
        Value::String(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err("arguments must be a JSON object.".into()),
            Err(e) => Err(format!("arguments is not valid JSON: {e}")),
        },
        _ => Err("arguments must be a JSON object.".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::capture_file::McpTool;

    fn entry(description: &str) -> ToolEntry {
        ToolEntry::new(
            "srv",
            &McpTool {
                name: "t".into(),
                description: Some(description.into()),
                input_schema: None,
            },
        )
    }

    #[test]
    fn search_payload_truncates_to_400_chars_without_ellipsis() {
        let long = "é".repeat(500);
        let e = entry(&long);
        let payload = tool_search_payload("q", 7, [(&e, "mcp-srv")]);
        let description = payload["matches"][0]["description"].as_str().unwrap();
        assert_eq!(description.chars().count(), 400);
        assert_eq!(payload["total_available"], 7);
        assert_eq!(payload["matches"][0]["source"], "mcp");
        assert_eq!(payload["matches"][0]["source_name"], "mcp-srv");
        let keys: Vec<_> = payload.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["query", "total_available", "matches"]);
    }

    #[test]
    fn empty_query_is_an_error() {
        assert_eq!(
            tool_search_payload("  ", 3, []),
            json!({"error": "query is required"})
        );
    }

    #[test]
    fn describe_is_full() {
        let e = entry(&"x".repeat(900));
        let p = tool_describe_payload(&e);
        assert_eq!(p["description"].as_str().unwrap().len(), 900);
        assert_eq!(p["parameters"], json!({"type": "object", "properties": {}}));
    }

    #[test]
    fn names_and_arguments() {
        assert!(name_error("tool_call", true).unwrap().contains("bridge"));
        assert_eq!(
            name_error("mcp_x", false).unwrap(),
            not_available_message("mcp_x")
        );
        assert_eq!(name_error("mcp_x", true), None);
        assert_eq!(call_arguments(&json!("{\"a\":1}")).unwrap()["a"], 1);
        assert!(call_arguments(&json!("[1]")).is_err());
        assert!(call_arguments(&json!(3)).is_err());
    }
}
