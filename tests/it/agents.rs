//! The other agents through the binary: `agents`, `--agent` on report, search, eval and
//! compare, the config's `schematax.agent`, and the one-line errors.

use crate::common::{run_ok, schematax};
use schematax_releases::AGENTS;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&run_ok(args)).expect("JSON output")
}

fn stderr_of_failure(args: &[&str]) -> String {
    let output = schematax(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    // One line says it (clap adds its usual pointer to --help after a bad value).
    stderr.lines().next().unwrap_or_default().to_string()
}

#[test]
fn agents_lists_every_row_with_exact_and_modelled_parts() {
    let report = json(&["agents", "--format", "json"]);
    let ids: Vec<&str> = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    let table: Vec<&str> = AGENTS.iter().map(|a| a.id).collect();
    assert_eq!(ids, table);
    for agent in report["agents"].as_array().unwrap() {
        for part in agent["parts"].as_array().unwrap() {
            assert!(["exact", "modelled"].contains(&part["fidelity"].as_str().unwrap()));
        }
    }
    let text = run_ok(&["agents"]);
    assert!(text.contains("claude-code       2.1.328"), "{text}");
}

#[test]
fn an_unknown_agent_or_version_is_one_line_naming_the_known_ones() {
    let e = stderr_of_failure(&["report", "--agent", "claude"]);
    assert!(
        e.contains("unknown agent \"claude\"; known: hermes, claude-code, codex"),
        "{e}"
    );
    let e = stderr_of_failure(&["search", "--agent", "codex@0.1", "x"]);
    assert!(e.contains("known: 0.171.0"), "{e}");
    let e = stderr_of_failure(&["report", "--agent", "hermes@0.1"]);
    assert!(e.contains("0.1"), "{e}");
}

#[test]
fn report_agent_carries_every_text_it_counts() {
    let report = json(&[
        "report",
        "--agent",
        "claude-code",
        "--estimate-only",
        "--format",
        "json",
    ]);
    assert_eq!(report["agent"], "claude-code@2.1.328");
    let sent = &report["sent"];
    let chars = |key: &str| -> u64 {
        sent[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().chars().count() as u64)
            .sum()
    };
    let parts = &report["parts"];
    for key in [
        "eager",
        "listing",
        "fixed_tools",
        "instructions",
        "one_search",
    ] {
        assert_eq!(parts[key]["chars"].as_u64().unwrap(), chars(key), "{key}");
    }
    assert_eq!(chars("fixed_tools"), 1440);
    assert_eq!(
        parts["per_turn"]["chars"].as_u64().unwrap(),
        ["eager", "listing", "fixed_tools", "instructions"]
            .iter()
            .map(|k| chars(k))
            .sum::<u64>()
    );
    assert!(parts["per_turn"]["tokens"].is_null());
    let listing = sent["listing"][0].as_str().unwrap();
    assert!(listing.starts_with("<system-reminder>\nThe following deferred tools"));
    assert_eq!(report["deferred"], report["tools"]);
}

#[test]
fn claude_codes_auto_setting_turns_deferral_off_below_its_share() {
    let report = json(&[
        "report",
        "--agent",
        "claude-code",
        "--enable-tool-search",
        "auto:50",
        "--estimate-only",
        "--format",
        "json",
    ]);
    assert_eq!(report["activation"]["on"], false);
    assert_eq!(report["deferred"], 0);
    let why = report["activation"]["why"].as_str().unwrap();
    assert!(why.contains("50% of the 200,000 context"), "{why}");
    let on = json(&[
        "report",
        "--agent",
        "claude-code",
        "--enable-tool-search",
        "auto:1",
        "--estimate-only",
        "--format",
        "json",
    ]);
    assert_eq!(on["activation"]["on"], true);
}

#[test]
fn search_follows_the_agent_and_says_when_it_cannot() {
    let found = json(&[
        "search",
        "--agent",
        "codex",
        "--format",
        "json",
        "crawl a website",
    ]);
    let hits = found["queries"][0]["hits"].as_array().unwrap();
    assert_eq!(hits[0]["name"], "mcp__firecrawl__firecrawl_crawl");
    assert!(hits.len() <= 8);
    let e = stderr_of_failure(&["search", "--agent", "cursor", "crawl"]);
    assert!(e.contains("has no search tool"), "{e}");
    let e = stderr_of_failure(&["eval", "samples/queries.yaml", "--agent", "anthropic-api"]);
    assert!(e.contains("provider's servers"), "{e}");
}

#[test]
fn commands_that_replay_hermes_only_refuse_another_agent() {
    let e = stderr_of_failure(&["sweep", "--agent", "codex"]);
    assert!(e.contains("replays Hermes only"), "{e}");
    let e = stderr_of_failure(&["report", "--agent", "codex,cursor"]);
    assert!(e.contains("compare --agent"), "{e}");
}

#[test]
fn compare_runs_all_eight_on_the_sample_a_folder_and_a_config() {
    let all: Vec<&str> = AGENTS.iter().map(|a| a.id).collect();
    let list = all.join(",");
    for inputs in [
        vec![],
        vec!["--tools", "tests/data/captures"],
        vec!["samples/hermes.yaml"],
    ] {
        let mut args = vec![
            "compare",
            "--agent",
            &list,
            "--estimate-only",
            "--format",
            "json",
        ];
        args.extend(inputs.iter().copied());
        let report = json(&args);
        let columns = report["agents"].as_array().unwrap();
        assert_eq!(columns.len(), 8, "{inputs:?}");
        for column in columns {
            let parts = &column["parts"];
            let sum: u64 = ["eager", "listing", "fixed_tools", "instructions"]
                .iter()
                .map(|k| parts[k]["estimate_tokens"].as_u64().unwrap())
                .sum();
            assert_eq!(
                parts["per_turn"]["estimate_tokens"].as_u64().unwrap(),
                sum,
                "{column}"
            );
        }
        let gemini = columns
            .iter()
            .find(|c| c["agent"] == "gemini-cli@0.61.0")
            .unwrap();
        assert_eq!(
            gemini["parts"]["per_turn"]["chars"],
            gemini["parts"]["without_deferral"]["chars"]
        );
    }
}

#[test]
fn compare_with_queries_names_what_one_agent_finds_and_another_loses() {
    let report = json(&[
        "compare",
        "--agent",
        "hermes,claude-code,codex,cursor",
        "--queries",
        "samples/queries.yaml",
        "--estimate-only",
        "--format",
        "json",
    ]);
    let columns = report["agents"].as_array().unwrap();
    assert!(columns[1]["eval"]["recall_at_k"].as_f64().unwrap() > 0.5);
    assert!(columns[3]["eval"].is_null());
    assert!(columns[3]["not_searched"]
        .as_str()
        .unwrap()
        .contains("no search tool"));
    for difference in report["differences"].as_array().unwrap() {
        assert!(!difference["found_by"].as_array().unwrap().is_empty());
        assert!(!difference["lost_by"].as_array().unwrap().is_empty());
    }
}

#[test]
fn the_configs_agent_is_the_default_and_hermes_flags_win() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("hermes.yaml");
    std::fs::write(&config, "schematax:\n  agent: codex\n").unwrap();
    let tools = "samples/tools";
    let path = config.to_str().unwrap();
    let report = json(&[
        "report",
        path,
        "--tools",
        tools,
        "--estimate-only",
        "--format",
        "json",
    ]);
    assert_eq!(report["agent"], "codex@0.171.0");
    let hermes = json(&[
        "report",
        path,
        "--tools",
        tools,
        "--hermes",
        "0.21.4",
        "--estimate-only",
        "--format",
        "json",
    ]);
    assert!(hermes["agent"].is_null());
    assert_eq!(hermes["profile"], "hermes-0.21.4");
    std::fs::write(&config, "schematax:\n  agent: claud\n").unwrap();
    let text = run_ok(&["report", path, "--tools", tools, "--estimate-only"]);
    assert!(
        text.contains("schematax.agent: unknown agent \"claud\"; known: hermes, claude-code"),
        "{text}"
    );
}

#[test]
fn each_agent_reads_the_client_config_of_its_own_kind() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".gemini")).unwrap();
    let claude = dir.path().join(".mcp.json");
    std::fs::write(
        &claude,
        r#"{"mcpServers":{"firecrawl":{"command":"x","alwaysLoad":true}}}"#,
    )
    .unwrap();
    let gemini = dir.path().join(".gemini/settings.json");
    std::fs::write(
        &gemini,
        r#"{"mcpServers":{"firecrawl":{"command":"x","excludeTools":["firecrawl_scrape"]}}}"#,
    )
    .unwrap();
    let (claude, gemini) = (claude.to_str().unwrap(), gemini.to_str().unwrap());
    let report = json(&[
        "compare",
        "--agent",
        "claude-code,gemini-cli,codex",
        "--client-config",
        claude,
        "--client-config",
        gemini,
        "--estimate-only",
        "--format",
        "json",
    ]);
    let columns = report["agents"].as_array().unwrap();
    let firecrawl_tools = serde_json::from_str::<Value>(
        &std::fs::read_to_string("samples/tools/firecrawl.json").unwrap(),
    )
    .unwrap()["tools"]
        .as_array()
        .unwrap()
        .len() as u64;
    // Claude Code keeps firecrawl's tools whole; Gemini CLI leaves one out; Codex reads
    // neither file.
    assert_eq!(
        columns[0]["deferred"].as_u64().unwrap(),
        35 - firecrawl_tools
    );
    assert_eq!(columns[1]["tools"], 34);
    assert_eq!(columns[2]["deferred"], 35);
    let e = stderr_of_failure(&[
        "report",
        "--agent",
        "codex",
        "--client-config",
        "no-such.toml",
    ]);
    assert!(e.contains("no-such.toml"), "{e}");
}

#[test]
fn the_readme_shows_the_samples_table_in_every_agent_as_compare_prints_it() {
    let all: Vec<&str> = AGENTS.iter().map(|a| a.id).collect();
    let printed = run_ok(&["compare", "--agent", &all.join(","), "--format", "markdown"]);
    let readme = std::fs::read_to_string("README.md").unwrap();
    let table: Vec<&str> = printed.lines().filter(|l| l.starts_with('|')).collect();
    assert!(table.len() > 5);
    assert!(
        readme.contains(&table.join("\n")),
        "README.md's table differs from what compare prints:\n{}",
        table.join("\n")
    );
    assert!(readme.contains(&format!("--agent {} --format markdown", all.join(","))));
}

#[test]
fn lint_under_an_agent_lists_the_tools_its_search_misses_for_their_own_words() {
    let report = json(&[
        "lint",
        "--agent",
        "codex",
        "--tools",
        "tests/data/captures",
        "--format",
        "json",
    ]);
    assert_eq!(report["agent"], "codex@0.171.0");
    assert_eq!(report["k"], 8);
    let findings = report["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for finding in &findings[..1] {
        let instead = finding["instead"].as_array().unwrap();
        assert!(!instead.contains(&finding["tool"]), "{finding}");
        // The query is the tool's own: running it finds what the finding says came instead.
        let searched = json(&[
            "search",
            "--agent",
            "codex",
            "--tools",
            "tests/data/captures",
            "--format",
            "json",
            finding["query"].as_str().unwrap(),
        ]);
        let names: Vec<&Value> = searched["queries"][0]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| &h["name"])
            .collect();
        assert_eq!(names, instead.iter().collect::<Vec<_>>());
    }
    let output = schematax(&[
        "lint",
        "--agent",
        "codex",
        "--tools",
        "tests/data/captures",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let e = stderr_of_failure(&["lint", "--agent", "codex", "--format", "sarif"]);
    assert!(e.contains("table, json or markdown"), "{e}");
}
