//! Parity with Hermes Agent's Tool Search: every golden file in `tests/data/parity` (copied from the shared folder).

use schematax::engine::activation::{bridge_chars, is_active};
use schematax::engine::capture_file::parse_capture;
use schematax::engine::config::{Config, Mode, Scalar, ToolSearchSettings};
use schematax::engine::search::resolve_limit;
use schematax::engine::session::{Overrides, Session};
use serde_json::Value;
use std::path::PathBuf;

fn golden(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/parity")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn mode(text: &str) -> Mode {
    Mode::from_text(text).unwrap_or_else(|| panic!("mode {text}"))
}

/// Checks a catalog golden file: names, chars, collisions, tokens, bridge and searches.
fn check_catalog_file(name: &str) {
    let golden = golden(name);
    let captures: Vec<_> = golden["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| parse_capture(s.to_string().as_bytes(), "unnamed").unwrap())
        .collect();
    let session = Session::new(&Config::default(), &captures, &Overrides::default());

    // Tools in registration order, collisions left out.
    let collided: Vec<(&str, &str)> = session
        .collisions()
        .iter()
        .map(|c| (c.server.as_str(), c.tool.as_str()))
        .collect();
    let registered: Vec<Value> = session
        .servers()
        .iter()
        .flat_map(|s| s.tools.iter())
        .filter(|t| !collided.contains(&(t.server.as_str(), t.raw_name.as_str())))
        .map(|t| serde_json::json!({"server": t.server, "name": t.name, "chars": t.chars}))
        .collect();
    assert_eq!(Value::Array(registered), golden["tools"], "{name}: tools");

    let collisions: Vec<Value> = session
        .collisions()
        .iter()
        .map(|c| serde_json::json!({"server": c.server, "tool": c.tool, "name": c.name}))
        .collect();
    assert_eq!(
        Value::Array(collisions),
        golden["skipped_collisions"],
        "{name}: collisions"
    );

    let costs = session.server_costs();
    let mut per_server = serde_json::Map::new();
    for (server, cost) in session
        .servers()
        .iter()
        .zip(&costs)
        .filter(|(_, c)| c.tools > 0)
    {
        per_server.insert(server.name.clone(), cost.estimate_tokens.into());
    }
    assert_eq!(
        Value::Object(per_server),
        golden["server_tokens"],
        "{name}: server tokens"
    );
    let activation = session.activation();
    assert_eq!(
        Some(activation.deferrable_tokens),
        golden["deferrable_tokens"].as_u64(),
        "{name}"
    );
    assert_eq!(
        Some(bridge_chars(activation.deferrable_tools)),
        golden["bridge_chars"].as_u64(),
        "{name}"
    );
    assert_eq!(
        Some(activation.bridge_chars),
        golden["bridge_chars"].as_u64(),
        "{name}"
    );

    let searches = golden["searches"].as_array().unwrap();
    assert!(!searches.is_empty());
    for case in searches {
        let query = case["query"].as_str().unwrap();
        let limit = resolve_limit(&Scalar::from_json(Some(&case["limit"])), session.settings());
        let result = session.search(query, limit);
        let context = format!("{name}: query {query:?} limit {limit}");
        assert_eq!(
            result.via.as_str(),
            case["via"].as_str().unwrap(),
            "{context}"
        );
        let expected = case["hits"].as_array().unwrap();
        let got: Vec<&str> = result
            .hits
            .iter()
            .map(|h| session.catalog_entry(h.doc).0.name.as_str())
            .collect();
        let want: Vec<&str> = expected
            .iter()
            .map(|h| h["name"].as_str().unwrap())
            .collect();
        assert_eq!(got, want, "{context}");
        for (hit, want) in result.hits.iter().zip(expected) {
            let want = want["score"].as_f64().unwrap();
            assert!(
                (hit.score - want).abs() <= 1e-6,
                "{context}: score {} vs {want}",
                hit.score
            );
        }
    }
}

#[test]
fn basic_catalog() {
    check_catalog_file("basic.json");
}

#[test]
fn edge_catalog() {
    check_catalog_file("edge.json");
}

#[test]
fn real_captures_catalog() {
    check_catalog_file("captures.json");
}

#[test]
fn activation_cases() {
    let cases = golden("activation.json");
    let cases = cases.as_array().unwrap();
    assert!(cases.len() >= 600);
    for case in cases {
        let active = is_active(
            mode(case["enabled"].as_str().unwrap()),
            case["deferrable_tokens"].as_u64().unwrap(),
            case["context_length"].as_u64().unwrap(),
            case["threshold_pct"].as_f64().unwrap(),
        );
        assert_eq!(active, case["active"].as_bool().unwrap(), "{case}");
    }
}

#[test]
fn config_cases() {
    let cases = golden("config.json");
    for case in cases.as_array().unwrap() {
        let yaml = case["yaml"].as_str().unwrap();
        let settings = Config::parse(yaml.as_bytes())
            .unwrap_or_else(|e| panic!("{yaml:?}: {e}"))
            .tool_search;
        let want = &case["resolved"];
        let expected = ToolSearchSettings {
            enabled: mode(want["enabled"].as_str().unwrap()),
            threshold_pct: want["threshold_pct"].as_f64().unwrap(),
            max_search_limit: want["max_search_limit"].as_u64().unwrap() as u32,
            search_default_limit: want["search_default_limit"].as_u64().unwrap() as u32,
        };
        assert_eq!(settings, expected, "{yaml:?}");
    }
}

#[test]
fn limit_cases() {
    let cases = golden("limits.json");
    for case in cases.as_array().unwrap() {
        let settings = ToolSearchSettings {
            search_default_limit: case["default"].as_u64().unwrap() as u32,
            max_search_limit: case["max"].as_u64().unwrap() as u32,
            ..ToolSearchSettings::default()
        };
        let limit = resolve_limit(&Scalar::from_json(case.get("raw")), &settings);
        assert_eq!(Some(limit as u64), case["limit"].as_u64(), "{case}");
    }
}
