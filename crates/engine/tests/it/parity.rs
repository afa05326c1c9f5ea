//! Parity with Hermes Agent's Tool Search: every golden file in `tests/data/parity` (the seed
//! engine) and `tests/data/parity/hermes-current` (the hermes-2026-09 engine), copied from the
//! shared folder. Scores agree to 1e-6; names, characters, definitions, listings and payloads
//! byte for byte.

use schematax_engine::inputs::capture_file::{load_file, parse_capture};
use schematax_engine::nouns::config::{Config, Mode, Scalar, ToolSearchSettings};
use schematax_engine::nouns::json_text::{write_compact_json, CharCounter};
use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::replay::activation::{is_active, ContextLength, ContextSource};
use schematax_engine::replay::listing::short_description;
use schematax_engine::replay::search::{resolve_limit, stem_word};
use schematax_engine::replay::session::{Overrides, Session};
use schematax_releases::{Profile, SentenceEnd};
use serde_json::Value;
use std::path::PathBuf;

fn data(path: &str) -> PathBuf {
    crate::support::repo_root().join("tests/data").join(path)
}

fn golden(name: &str) -> Value {
    let path = data("parity").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn mode(text: &str) -> Mode {
    Mode::from_text(text).unwrap_or_else(|| panic!("mode {text}"))
}

/// Compact JSON as Python's `json.dumps(separators=(",", ":"), ensure_ascii=False)` writes it.
fn compact(value: &Value) -> String {
    let mut out = String::new();
    write_compact_json(value, &mut out);
    out
}

/// A session of `captures` under `profile`, registered in the order given (as the config's
/// `mcp_servers` would list them).
fn session(profile: Profile, captures: &[ServerCapture]) -> Session {
    let mut yaml = String::from("mcp_servers:\n");
    for capture in captures {
        yaml.push_str(&format!(
            "  {}: {{}}\n",
            serde_json::to_string(&capture.server).unwrap()
        ));
    }
    Session::new(
        &Config::parse(yaml.as_bytes()).unwrap(),
        captures,
        &Overrides {
            profile: Some(profile),
            ..Overrides::default()
        },
    )
}

/// The servers of a golden file given inline.
///
/// The golden files were made without Hermes's MCP client library, which refuses a whole
/// `tools/list` holding a tool without `inputSchema` (so Hermes does not connect such a server;
/// `crates/engine/tests/it/releases.rs` checks that against the releases). Hermes measures such a tool with an
/// empty schema, which is what it is given here, so that the files' servers connect.
fn inline_servers(golden: &Value) -> Vec<ServerCapture> {
    golden["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let mut s = s.clone();
            for tool in s["tools"].as_array_mut().unwrap() {
                let tool = tool.as_object_mut().unwrap();
                if !tool.contains_key("inputSchema") {
                    tool.insert("inputSchema".into(), serde_json::json!({}));
                }
            }
            parse_capture(s.to_string().as_bytes(), "unnamed").unwrap()
        })
        .collect()
}

/// The servers of a golden file given by name: the repository's copies of the captures.
fn named_servers(golden: &Value) -> Vec<ServerCapture> {
    golden["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| {
            load_file(&data("captures").join(format!("{}.json", name.as_str().unwrap()))).unwrap()
        })
        .collect()
}

/// Asserts two lists are equal, naming the first entries that differ.
fn assert_same_list(name: &str, got: &[Value], want: &Value) {
    let want = want.as_array().unwrap();
    let differ: Vec<String> = got
        .iter()
        .zip(want)
        .filter(|(g, w)| g != w)
        .take(8)
        .map(|(g, w)| format!("got {g}, want {w}"))
        .collect();
    assert!(
        differ.is_empty() && got.len() == want.len(),
        "{name}: {} of {} entries, {} wanted; first differences:\n{}",
        got.len(),
        got.len(),
        want.len(),
        differ.join("\n")
    );
}

/// Tools in registration order without those left out by collisions: (server, name, chars).
fn registered(session: &Session) -> Vec<Value> {
    let lost: Vec<(&str, &str)> = session
        .collisions()
        .iter()
        .map(|c| (c.server.as_str(), c.tool.as_str()))
        .collect();
    session
        .servers()
        .iter()
        .flat_map(|s| s.tools.iter())
        .filter(|t| !lost.contains(&(t.server.as_str(), t.raw_name.as_str())))
        .map(|t| serde_json::json!({"server": t.server, "name": t.name, "chars": t.chars}))
        .collect()
}

fn check_collisions(name: &str, session: &Session, golden: &Value) {
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
}

fn check_server_tokens(name: &str, session: &Session, golden: &Value) {
    let mut per_server = serde_json::Map::new();
    for (server, cost) in session
        .servers()
        .iter()
        .zip(session.server_costs())
        .filter(|(_, c)| c.tools > 0)
    {
        per_server.insert(server.name.clone(), cost.estimate_tokens.into());
    }
    assert_eq!(
        Value::Object(per_server),
        golden["server_tokens"],
        "{name}: server tokens"
    );
    assert_eq!(
        Some(session.activation().deferrable_tokens),
        golden["deferrable_tokens"].as_u64(),
        "{name}: deferrable tokens"
    );
}

/// Every search case: hits in order, scores within 1e-6 (`"inf"` for an exact name).
fn check_searches(name: &str, session: &Session, golden: &Value) {
    let searches = golden["searches"].as_array().unwrap();
    assert!(!searches.is_empty());
    for case in searches {
        let query = case["query"].as_str().unwrap();
        let limit = resolve_limit(&Scalar::from_json(Some(&case["limit"])), session.settings());
        let result = session.search(query, limit);
        let context = format!("{name}: query {query:?} limit {limit}");
        if let Some(via) = case["via"].as_str() {
            assert_eq!(result.via.as_str(), via, "{context}");
        }
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
            match &want["score"] {
                Value::String(inf) => {
                    assert_eq!(inf, "inf", "{context}");
                    assert!(hit.score.is_infinite() && hit.exact_name, "{context}");
                }
                score => {
                    let want = score.as_f64().unwrap();
                    assert!(
                        (hit.score - want).abs() <= 1e-6,
                        "{context}: score {} vs {want}",
                        hit.score
                    );
                }
            }
        }
    }
}

/// Every simulated `tool_search` call gives the payload byte for byte.
fn check_payloads(name: &str, session: &Session, golden: &Value) {
    for case in golden["payloads"].as_array().unwrap() {
        let (payload, _) = session.tool_search(&case["arguments"]);
        assert_eq!(
            compact(&payload),
            compact(&case["result"]),
            "{name}: payload of {}",
            case["arguments"]
        );
    }
}

/// Checks a seed catalog golden file: names, chars, collisions, tokens, bridge and searches.
fn check_seed_catalog_file(name: &str) {
    let golden = golden(name);
    let session = session(Profile::seed(), &inline_servers(&golden));
    assert_same_list(name, &registered(&session), &golden["tools"]);
    check_collisions(name, &session, &golden);
    check_server_tokens(name, &session, &golden);
    assert_eq!(
        Some(session.activation().bridge_chars),
        golden["bridge_chars"].as_u64(),
        "{name}"
    );
    check_searches(name, &session, &golden);
}

#[test]
fn seed_basic_catalog() {
    check_seed_catalog_file("basic.json");
}

#[test]
fn seed_edge_catalog() {
    check_seed_catalog_file("edge.json");
}

#[test]
fn seed_real_captures_catalog() {
    check_seed_catalog_file("captures.json");
}

#[test]
fn seed_activation_cases() {
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
fn seed_config_cases() {
    let cases = golden("config.json");
    for case in cases.as_array().unwrap() {
        let yaml = case["yaml"].as_str().unwrap();
        let config = Config::parse(yaml.as_bytes()).unwrap_or_else(|e| panic!("{yaml:?}: {e}"));
        let want = &case["resolved"];
        let expected = ToolSearchSettings {
            enabled: mode(want["enabled"].as_str().unwrap()),
            threshold_pct: want["threshold_pct"].as_f64().unwrap(),
            max_search_limit: want["max_search_limit"].as_u64().unwrap() as u32,
            search_default_limit: want["search_default_limit"].as_u64().unwrap() as u32,
            ..ToolSearchSettings::defaults(Profile::seed())
        };
        assert_eq!(*config.tool_search(Profile::seed()), expected, "{yaml:?}");
    }
}

#[test]
fn seed_limit_cases() {
    let cases = golden("limits.json");
    for case in cases.as_array().unwrap() {
        let settings = ToolSearchSettings {
            search_default_limit: case["default"].as_u64().unwrap() as u32,
            max_search_limit: case["max"].as_u64().unwrap() as u32,
            ..ToolSearchSettings::defaults(Profile::seed())
        };
        let limit = resolve_limit(&Scalar::from_json(case.get("raw")), &settings);
        assert_eq!(Some(limit as u64), case["limit"].as_u64(), "{case}");
    }
}

fn current() -> Profile {
    Profile::from_id("hermes-2026-09").expect("the upstream row")
}

/// The settings of an assembly case.
fn case_settings(case: &Value) -> (ToolSearchSettings, ContextLength) {
    let mut settings = ToolSearchSettings::defaults(current());
    settings.threshold_pct = case["threshold_pct"].as_f64().unwrap();
    settings.listing_max_tokens = case["listing_max_tokens"].as_u64().unwrap() as u32;
    if let Some(listing) = case["listing"].as_str() {
        settings.listing = mode(listing);
    }
    if let Some(enabled) = case["enabled"].as_str() {
        settings.enabled = mode(enabled);
    }
    let context = ContextLength {
        tokens: case["context_length"].as_u64().unwrap(),
        source: ContextSource::Flag,
    };
    (settings, context)
}

/// An assembly case: activation, tier, form, budget and bridge cost.
fn check_assembly(name: &str, session: &Session, case: &Value) {
    let (settings, context) = case_settings(case);
    let a = session.activation_at(&settings, context);
    let context = format!("{name}: {case}");
    assert_eq!(Some(a.active), case["active"].as_bool(), "{context}");
    assert_eq!(
        Some(a.deferrable_tools as u64),
        case["deferred_count"].as_u64(),
        "{context}"
    );
    assert_eq!(
        Some(a.deferrable_tokens),
        case["deferred_tokens"].as_u64(),
        "{context}"
    );
    assert_eq!(
        Some(u64::from(a.tier())),
        case["tier"].as_u64(),
        "{context}"
    );
    let form = a
        .listing
        .as_ref()
        .map_or("none", |l| l.listing.form.as_str());
    assert_eq!(Some(form), case["listing_form"].as_str(), "{context}");
    assert_eq!(
        a.listing.as_ref().map(|l| l.budget),
        case["listing_budget"].as_u64(),
        "{context}"
    );
    if let Some(chars) = case["listing_chars"].as_u64() {
        assert_eq!(
            a.listing.as_ref().map(|l| l.listing.chars),
            Some(chars),
            "{context}"
        );
    }
    assert_eq!(
        Some(a.bridge_chars),
        case["bridge_chars"].as_u64(),
        "{context}"
    );
    assert_eq!(
        Some(a.bridge_tokens),
        case["bridge_tokens"].as_u64(),
        "{context}"
    );
}

#[test]
fn current_small_catalog() {
    let golden = golden("hermes-current/small.json");
    let captures = inline_servers(&golden);
    let session = session(current(), &captures);
    check_collisions("small", &session, &golden);
    let definitions: Vec<String> = session
        .servers()
        .iter()
        .flat_map(|s| s.tools.iter())
        .filter(|t| {
            !session
                .collisions()
                .iter()
                .any(|c| c.server == t.server && c.tool == t.raw_name)
        })
        .map(schematax_engine::replay::catalog::ToolEntry::definition)
        .collect();
    let want: Vec<String> = golden["definitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(compact)
        .collect();
    assert_eq!(definitions, want, "small: definitions byte for byte");
    let chars: Vec<u64> = definitions
        .iter()
        .map(|d| d.chars().count() as u64)
        .collect();
    assert_eq!(serde_json::json!(chars), golden["chars"]);
    for (name, tokens) in golden["search_tokens"].as_object().unwrap() {
        let doc = session.lookup(name);
        let schematax_engine::replay::session::Lookup::Found(doc) = doc else {
            panic!("{name}: {doc:?}")
        };
        assert_eq!(
            serde_json::json!(session.search_tokens(doc)),
            *tokens,
            "small: search tokens of {name}"
        );
    }
    for case in golden["cases"].as_array().unwrap() {
        check_assembly("small", &session, case);
        let (settings, context) = case_settings(case);
        let mut tuned = session.clone();
        tuned.retune(&Overrides {
            threshold_pct: Some(settings.threshold_pct),
            ..Overrides::default()
        });
        let mut with_budget = Session::new(
            &Config::parse(
                format!(
                    "tools:\n  tool_search:\n    listing_max_tokens: {}\n",
                    settings.listing_max_tokens
                )
                .as_bytes(),
            )
            .unwrap(),
            &captures,
            &Overrides {
                profile: Some(current()),
                context_length: Some(context.tokens),
                threshold_pct: Some(settings.threshold_pct),
                ..Overrides::default()
            },
        );
        with_budget.rebuild();
        let activation = with_budget.activation();
        let state = activation.listing.as_ref().unwrap();
        let text = with_budget.listing().text(&state.listing);
        assert_eq!(
            text.as_deref(),
            case["listing_text"].as_str(),
            "small: listing text of {case}"
        );
        let bridge: Vec<String> = with_budget
            .bridge_definitions()
            .unwrap()
            .iter()
            .map(compact)
            .collect();
        let want: Vec<String> = case["bridge"]
            .as_array()
            .unwrap()
            .iter()
            .map(compact)
            .collect();
        assert_eq!(bridge, want, "small: bridge definitions byte for byte");
        let mut counter = CharCounter::default();
        for definition in with_budget.bridge_definitions().unwrap() {
            write_compact_json(&definition, &mut counter);
        }
        assert_eq!(Some(counter.0), case["bridge_chars"].as_u64());
    }
    check_searches("small", &session, &golden);
    check_payloads("small", &session, &golden);
}

#[test]
fn current_real_captures_catalog() {
    let golden = golden("hermes-current/captures.json");
    let session = session(current(), &named_servers(&golden));
    assert_same_list("captures: tools", &registered(&session), &golden["tools"]);
    check_collisions("captures", &session, &golden);
    check_server_tokens("captures", &session, &golden);
    check_searches("captures", &session, &golden);
    let cases = golden["assembly"].as_array().unwrap();
    assert!(cases.len() >= 70);
    for case in cases {
        check_assembly("captures", &session, case);
    }
    check_payloads("captures", &session, &golden);
}

#[test]
fn current_config_cases() {
    let golden = golden("hermes-current/config.json");
    for case in golden["cases"].as_array().unwrap() {
        let yaml = format!("tools:\n  tool_search: {}\n", compact(&case["raw"]));
        let config = Config::parse(yaml.as_bytes()).unwrap();
        let want = &case["resolved"];
        let expected = ToolSearchSettings {
            enabled: mode(want["enabled"].as_str().unwrap()),
            threshold_pct: want["threshold_pct"].as_f64().unwrap(),
            max_search_limit: want["max_search_limit"].as_u64().unwrap() as u32,
            search_default_limit: want["search_default_limit"].as_u64().unwrap() as u32,
            listing: mode(want["listing"].as_str().unwrap()),
            listing_max_tokens: want["listing_max_tokens"].as_u64().unwrap() as u32,
        };
        assert_eq!(*config.tool_search(current()), expected, "{yaml:?}");
        let defer = config.defer.as_ref().map(|names| serde_json::json!(names));
        assert_eq!(
            defer.unwrap_or(Value::Null),
            want["defer"],
            "{yaml:?}: defer"
        );
    }
}

#[test]
fn current_short_descriptions_and_stems() {
    let golden = golden("hermes-current/text.json");
    for case in golden["short_desc"].as_array().unwrap() {
        assert_eq!(
            short_description(case["text"].as_str().unwrap(), SentenceEnd::MarkThenSpace),
            case["short"].as_str().unwrap(),
            "{case}"
        );
    }
    for (word, stem) in golden["stems"].as_object().unwrap() {
        assert_eq!(stem_word(word), stem.as_str().unwrap(), "stem of {word}");
    }
}
