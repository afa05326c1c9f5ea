//! Each agent's cost model on a small catalog whose every text is written out here by hand:
//! what is sent eagerly, the listing, the fixed tools, the instructions, and activation.

use schematax_engine::agents::settings::AgentSettings;
use schematax_engine::agents::turn::{Activation, AgentTurn, Part, ShareMeasure};
use schematax_engine::inputs::capture_file::parse_capture;
use schematax_engine::nouns::tools::ServerCapture;
use schematax_releases::agent_texts::{claude_code, codex};
use schematax_releases::{AgentChoice, AgentRelease};

fn release(id: &str) -> &'static AgentRelease {
    match AgentChoice::parse(id).unwrap().0 {
        AgentChoice::Other { release, .. } => release,
        AgentChoice::Hermes => panic!("{id} is hermes"),
    }
}

fn catalog() -> Vec<ServerCapture> {
    vec![
        parse_capture(
            br#"{"server":"gh","instructions":"Use gh.\nSecond line","tools":[
                {"name":"get_issue","description":"Get an issue","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}},
                {"name":"list.repos","description":"List repos"}]}"#,
            "gh",
        )
        .unwrap(),
        parse_capture(
            br#"{"server":"t","tools":[{"name":"now","description":"Time","inputSchema":{"type":"object"}}]}"#,
            "t",
        )
        .unwrap(),
    ]
}

fn chars(text: &str) -> u64 {
    text.chars().count() as u64
}

const GET_ISSUE_SCHEMA: &str = r#"{"type":"object","properties":{"id":{"type":"string"}}}"#;

#[test]
fn claude_code_lists_names_under_its_header_and_sends_instructions() {
    let turn = AgentTurn::build(
        release("claude-code"),
        &catalog(),
        &AgentSettings::default(),
        None,
    )
    .unwrap();
    assert_eq!(
        turn.activation,
        Activation::Switch {
            switch: schematax_engine::agents::settings::ToolSearchSwitch::Always,
            on: true
        }
    );
    assert_eq!(turn.deferred(), 3);
    let listing = format!(
        "<system-reminder>\n{}\nmcp__gh__get_issue\nmcp__gh__list_repos\nmcp__t__now\n</system-reminder>",
        claude_code::DEFERRED_HEADER
    );
    assert_eq!(texts(&turn.listing), std::slice::from_ref(&listing));
    assert_eq!(
        turn.listing.chars,
        18 + 248 + 1 + (18 + 1 + 19 + 1 + 11) + 19
    );
    assert_eq!(turn.fixed_tools.chars, 1440);
    let instructions = format!(
        "{}## gh\nUse gh.\nSecond line\n</system-reminder>",
        claude_code::INSTRUCTIONS_OPEN
    );
    assert_eq!(
        texts(&turn.instructions),
        std::slice::from_ref(&instructions)
    );
    assert_eq!(turn.eager.chars, 0);
    assert_eq!(
        turn.chars_per_turn(),
        chars(&listing) + 1440 + chars(&instructions)
    );
    let definitions = [
        format!(r#"{{"name":"mcp__gh__get_issue","description":"Get an issue","input_schema":{GET_ISSUE_SCHEMA}}}"#),
        r#"{"name":"mcp__gh__list_repos","description":"List repos","input_schema":{"type":"object"}}"#.to_string(),
        r#"{"name":"mcp__t__now","description":"Time","input_schema":{"type":"object"}}"#.to_string(),
    ];
    assert_eq!(texts(&turn.all_definitions), definitions);
    assert_eq!(
        turn.chars_without_deferral(),
        definitions.iter().map(|d| chars(d)).sum::<u64>() + chars(&instructions)
    );
    // One search loads five results, at most the three deferred tools: the median one,
    // three times.
    assert_eq!(texts(&turn.one_search), vec![definitions[1].clone(); 3]);
    // Each definition is held once: the parts share the tools' texts.
    for (text, tool) in turn.all_definitions.texts.iter().zip(&turn.tools) {
        assert!(std::sync::Arc::ptr_eq(text, &tool.definition));
        assert!(std::sync::Arc::ptr_eq(&tool.loaded, &tool.definition));
    }
    assert!(std::sync::Arc::ptr_eq(
        &turn.one_search.texts[0],
        &turn.tools[1].loaded
    ));
}

/// A part's texts, owned, to compare with the texts expected.
fn texts(part: &Part) -> Vec<String> {
    part.texts.iter().map(ToString::to_string).collect()
}

#[test]
fn claude_code_auto_compares_the_deferrable_characters_with_its_fallback() {
    let mut settings = AgentSettings {
        context_window: 1000,
        enable_tool_search: Some("auto:1".into()),
        ..AgentSettings::default()
    };
    // name + description + schema, in UTF-16 code units.
    let measured = (18 + 12 + GET_ISSUE_SCHEMA.len() + 19 + 10 + 17 + 11 + 4 + 17) as u64;
    let turn = AgentTurn::build(release("claude-code"), &catalog(), &settings, None).unwrap();
    assert_eq!(
        turn.activation,
        Activation::TokenShare {
            pct: 1,
            threshold: 10,
            measure: ShareMeasure::Chars {
                chars: measured,
                needed: 25
            },
            on: true,
            invalid_setting: false
        }
    );
    settings.enable_tool_search = Some("auto:50".into());
    let turn = AgentTurn::build(release("claude-code"), &catalog(), &settings, None).unwrap();
    assert!(!turn.activation.on());
    assert_eq!(turn.deferred(), 0);
    assert_eq!(turn.listing.chars + turn.fixed_tools.chars, 0);
    assert_eq!(turn.eager.chars, turn.all_definitions.chars);
}

#[test]
fn claude_code_always_load_keeps_a_tool_whole() {
    let mut captures = catalog();
    captures[1].tools[0].meta.always_load = Some(true);
    let turn = AgentTurn::build(
        release("claude-code"),
        &captures,
        &AgentSettings::default(),
        None,
    )
    .unwrap();
    assert_eq!(turn.deferred(), 2);
    assert_eq!(
        texts(&turn.eager),
        [r#"{"name":"mcp__t__now","description":"Time","input_schema":{"type":"object"}}"#]
    );
}

#[test]
fn codex_lists_one_line_per_namespace_and_sends_its_five_fixed_tools_texts() {
    let turn = AgentTurn::build(
        release("codex"),
        &catalog(),
        &AgentSettings::default(),
        None,
    )
    .unwrap();
    assert_eq!(turn.activation, Activation::Always);
    assert_eq!(
        texts(&turn.listing),
        ["<tools>\nDeferred tool namespaces:\n- mcp__gh: Use gh.\n- mcp__t\n- multi_agent_v1: Tools for spawning and managing sub-agents.\n</tools>"]
    );
    assert_eq!(turn.fixed_tools.chars, 699 + 1871);
    assert_eq!(texts(&turn.fixed_tools)[0], codex::TOOL_SEARCH_DEFINITION);
    assert_eq!(turn.instructions.chars, 0);
    assert_eq!(turn.eager.chars, 0);
    assert_eq!(
        texts(&turn.all_definitions)[1],
        r#"{"type":"function","name":"mcp__gh__list_repos","description":"List repos","strict":false,"parameters":{"type":"object"}}"#
    );
}

#[test]
fn gemini_cli_sends_every_declaration_every_turn() {
    let turn = AgentTurn::build(
        release("gemini-cli"),
        &catalog(),
        &AgentSettings::default(),
        None,
    )
    .unwrap();
    assert_eq!(turn.activation, Activation::Never);
    assert_eq!(turn.deferred(), 0);
    assert_eq!(
        texts(&turn.eager),
        [
            format!(r#"{{"name":"mcp_gh_get_issue","description":"Get an issue","parametersJsonSchema":{GET_ISSUE_SCHEMA}}}"#),
            r#"{"name":"mcp_gh_list.repos","description":"List repos","parametersJsonSchema":{"type":"object"}}"#.to_string(),
            r#"{"name":"mcp_t_now","description":"Time","parametersJsonSchema":{"type":"object"}}"#.to_string(),
        ]
    );
    assert_eq!(turn.chars_per_turn(), turn.chars_without_deferral());
    assert!(texts(&turn.one_search).is_empty());
}

#[test]
fn gemini_cli_include_and_exclude_lists_leave_tools_out() {
    let mut settings = AgentSettings::default();
    settings.servers.insert(
        "gh".into(),
        schematax_engine::agents::settings::ServerSettings {
            include_tools: Some(vec!["get_issue".into(), "list.repos".into()]),
            exclude_tools: vec!["list.repos".into()],
            ..Default::default()
        },
    );
    let turn = AgentTurn::build(release("gemini-cli"), &catalog(), &settings, None).unwrap();
    assert_eq!(turn.left_out, ["gh/list.repos"]);
    assert_eq!(turn.tools.len(), 2);
}

#[test]
fn the_apis_defer_everything_and_send_only_their_search_tool() {
    let turn = AgentTurn::build(
        release("anthropic-api"),
        &catalog(),
        &AgentSettings::default(),
        None,
    )
    .unwrap();
    assert_eq!(turn.activation, Activation::CallerMarks);
    assert_eq!(turn.chars_per_turn(), 72);
    let turn = AgentTurn::build(
        release("openai-responses"),
        &catalog(),
        &AgentSettings::default(),
        None,
    )
    .unwrap();
    assert_eq!(texts(&turn.listing), ["- gh: Use gh.\n- t\n"]);
    assert_eq!(texts(&turn.fixed_tools), [r#"{"type":"tool_search"}"#]);
}

#[test]
fn cursor_sees_names_only() {
    let turn = AgentTurn::build(
        release("cursor"),
        &catalog(),
        &AgentSettings::default(),
        None,
    )
    .unwrap();
    assert_eq!(texts(&turn.listing), ["gh-get_issue\ngh-list_repos\nt-now"]);
    assert_eq!(turn.chars_per_turn(), 12 + 1 + 13 + 1 + 5);
}

fn observed() -> serde_json::Value {
    let path = crate::support::repo_root().join("tests/data/agents/codex-0.171.0-observed.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn capture_of(server: &str, instructions: Option<&str>, tools: &[&str]) -> ServerCapture {
    let tools: Vec<serde_json::Value> = tools
        .iter()
        .map(|t| serde_json::json!({"name": t, "inputSchema": {"type": "object"}}))
        .collect();
    let mut document = serde_json::json!({"server": server, "tools": tools});
    if let Some(text) = instructions {
        document["instructions"] = text.into();
    }
    parse_capture(document.to_string().as_bytes(), server).unwrap()
}

#[test]
fn codex_listing_is_the_fragment_its_binary_sent() {
    for case in observed()["fragments"].as_array().unwrap() {
        let captures: Vec<ServerCapture> = case["servers"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(server, instructions)| capture_of(server, instructions.as_str(), &["t"]))
            .collect();
        let turn =
            AgentTurn::build(release("codex"), &captures, &AgentSettings::default(), None).unwrap();
        assert_eq!(
            texts(&turn.listing),
            [case["fragment"].as_str().unwrap()],
            "{} servers",
            captures.len()
        );
    }
}

#[test]
fn codex_names_are_the_ones_its_binary_gave_after_collisions_and_cuts() {
    for case in observed()["names"].as_array().unwrap() {
        let captures: Vec<ServerCapture> = case["servers"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(server, tools)| {
                let tools: Vec<&str> = tools
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap())
                    .collect();
                capture_of(server, None, &tools)
            })
            .collect();
        let turn =
            AgentTurn::build(release("codex"), &captures, &AgentSettings::default(), None).unwrap();
        for loaded in case["loaded_by_one_search"].as_array().unwrap() {
            let namespace = loaded["namespace"].as_str().unwrap();
            for callable in loaded["callables"].as_array().unwrap() {
                let callable = callable.as_str().unwrap();
                assert!(
                    turn.tools
                        .iter()
                        .any(|t| t.namespace == namespace && t.callable == callable),
                    "{namespace} {callable} not among {:?}",
                    turn.tools
                        .iter()
                        .map(|t| (&t.namespace, &t.callable))
                        .collect::<Vec<_>>()
                );
            }
        }
    }
}
