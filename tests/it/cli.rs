//! Integration tests of the `schematax` binary: every report command and format, on the
//! embedded sample and on tests/data/captures, and the exit codes of bad input.

use crate::common;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Commands that replay one release.
const ONE_RELEASE: [&str; 7] = [
    "report", "card", "search", "describe", "lint", "eval", "sweep",
];

/// Runs the binary. The tests below were written against the seed engine (Hermes 0.17,
/// ENGINE.md), whose figures the golden files give: a command that replays one release runs
/// under seed unless its arguments name a release ([`latest`] runs the default).
fn schematax(args: &[&str]) -> Output {
    let mut args: Vec<&str> = args.to_vec();
    let names_one = args
        .iter()
        .any(|a| a.starts_with("--profile") || a.starts_with("--hermes"));
    if args.first().is_some_and(|c| ONE_RELEASE.contains(c)) && !names_one {
        args.splice(1..1, ["--profile", "seed"]);
    }
    Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(&args)
        .output()
        .expect("the binary runs")
}

/// Runs the binary as it is given, under its default release.
fn latest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 errors")
}

/// Runs and parses JSON output, requiring exit 0.
fn json(args: &[&str]) -> Value {
    let output = schematax(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", stdout(&output)))
}

/// Runs expecting exit code `code` and a one-line error that mentions `needle`.
fn fails_with(args: &[&str], code: i32, needle: &str) {
    let output = schematax(args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(code), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
    assert!(!err.contains("panicked"), "{err}");
    // Our errors are one line; only clap's usage errors (`error: ...` and a usage) are longer.
    if !err.starts_with("error: ") {
        assert!(err.starts_with("schematax: error: "), "{err:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "one-line error: {err:?}");
    }
}

fn captures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/captures")
}

fn captures_arg() -> String {
    captures_dir().display().to_string()
}

fn write(dir: &Path, name: &str, content: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path.display().to_string()
}

#[test]
fn report_json_on_the_sample() {
    let r = json(&["report", "--format", "json"]);
    assert_eq!(r["config_path"], "embedded sample");
    assert_eq!(r["config"]["enabled"], "auto");
    assert_eq!(r["config"]["threshold_pct"], 10.0);
    assert_eq!(r["config"]["search_default_limit"], 5);
    assert_eq!(r["config"]["max_search_limit"], 20);
    assert_eq!(r["context_length"], 200_000);
    assert_eq!(r["context_source"], "model_table");
    assert_eq!(r["servers"].as_array().unwrap().len(), 5);
    assert_eq!(r["deferrable_tools"], 35);
    assert_eq!(r["profile"], "seed");
    assert_eq!(r["deferrable_tokens"], 20_226);
    assert_eq!(r["threshold_tokens"], 20_000);
    assert_eq!(r["active"], true);
    assert_eq!(r["tier"], 1);
    assert_eq!(r["listing_form"], Value::Null);
    assert_eq!(r["bridge_tokens"], 378);
    assert_eq!(r["tokens_before"], 20_226);
    assert_eq!(r["tokens_after"], 378);
    assert!((r["savings_pct"].as_f64().unwrap() - 98.131).abs() < 0.001);
    assert_eq!(r["turns_per_day"], 100);
    let month = r["dollars_saved"]["per_month"].as_f64().unwrap();
    let turn = r["dollars_saved"]["per_turn"].as_f64().unwrap();
    assert!((month - turn * 3000.0).abs() < 1e-9);
    assert_eq!(r["warnings"], Value::Array(vec![]));
    let firecrawl = &r["servers"][0];
    assert_eq!(firecrawl["server"], "firecrawl");
    assert_eq!(firecrawl["toolset"], "mcp-firecrawl");
    assert_eq!(firecrawl["tools"], 26);
    assert_eq!(firecrawl["estimate_tokens"], 16_913);
    // Counted in the sample model's tokenizer (Claude Sonnet 4.5: claude-v3).
    assert_eq!(r["tokenizer"]["name"], "claude-v3");
    assert_eq!(r["tokenizer"]["source"], "model");
    assert_eq!(r["tokenizer"]["model"], "anthropic/claude-sonnet-4.5");
    assert_eq!(firecrawl["tokens"], 19_868);
}

#[test]
fn real_counts_follow_the_model() {
    let tokens = |model: &str| {
        let r = json(&["report", "--format", "json", "--model", model]);
        (
            r["tokenizer"]["name"].clone(),
            r["servers"][0]["tokens"].clone(),
        )
    };
    assert_eq!(tokens("gpt-4o"), (json!("o200k_base"), json!(16_870)));
    assert_eq!(
        tokens("openai/gpt-4"),
        (json!("cl100k_base"), json!(16_638))
    );
    assert_eq!(tokens("claude-opus-4-7").0, json!("claude-v4.7"));
    // The table names the tokenizer and why; a model nothing is known of gets a stand-in,
    // said so.
    let dir = tempfile::tempdir().unwrap();
    let config = write(
        dir.path(),
        "hermes.yaml",
        b"model: acme/mystery-7b\nmcp_servers:\n  fetch: {command: x}\n",
    );
    std::fs::create_dir(dir.path().join("tools")).unwrap();
    std::fs::copy(
        captures_dir().join("fetch.json"),
        dir.path().join("tools/fetch.json"),
    )
    .unwrap();
    let text = stdout(&schematax(&["report", &config]));
    assert!(text.contains(" o200k_base "), "{text}");
    assert!(
        text.contains("o200k_base stands in: no tokenizer is known for acme/mystery-7b (give --tokenizer PATH)"),
        "{text}"
    );
    let describe = stdout(&schematax(&["describe", "fetch", "--model", "gpt-4"]));
    assert!(describe.contains(" cl100k_base\n"), "{describe}");
}

/// A Hugging Face hub cache holding one small word-level tokenizer.json (its truncation to
/// two tokens must be switched off) for `Acme/Tiny`.
fn tiny_hub() -> tempfile::TempDir {
    let hub = tempfile::tempdir().unwrap();
    let repo = hub.path().join("models--Acme--Tiny");
    std::fs::create_dir_all(repo.join("snapshots/abc")).unwrap();
    std::fs::create_dir_all(repo.join("refs")).unwrap();
    std::fs::write(repo.join("refs/main"), "abc").unwrap();
    let tokenizer = json!({
        "version": "1.0",
        "truncation": {"direction": "Right", "max_length": 2, "strategy": "LongestFirst", "stride": 0},
        "padding": null, "added_tokens": [], "post_processor": null, "decoder": null,
        "normalizer": {"type": "Lowercase"},
        "pre_tokenizer": {"type": "Whitespace"},
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "take": 1, "a": 2}, "unk_token": "[UNK]"}
    });
    std::fs::write(
        repo.join("snapshots/abc/tokenizer.json"),
        tokenizer.to_string(),
    )
    .unwrap();
    hub
}

#[test]
fn a_model_in_the_hugging_face_cache_counts_with_its_file() {
    let hub = tiny_hub();
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_schematax"))
            .args(args)
            .env("HF_HUB_CACHE", hub.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        serde_json::from_slice::<Value>(&output.stdout).unwrap()
    };
    let counts = run(&[
        "count",
        "--model",
        "acme/tiny",
        "--format",
        "json",
        "Take a screenshot.",
    ]);
    assert_eq!(counts["hf:Tiny"], 4, "{counts}");
    let report = run(&["report", "--model", "Acme/Tiny", "--format", "json"]);
    assert_eq!(report["tokenizer"]["source"], "hf_cache");
    let path = report["tokenizer"]["path"].as_str().unwrap().to_string();
    assert!(
        path.ends_with("models--Acme--Tiny/snapshots/abc/tokenizer.json"),
        "{path}"
    );
    // The same file given by path.
    let given = run(&["count", "--tokenizer", &path, "--format", "json", "a a a"]);
    assert_eq!(given["hf:Tiny"], 3, "{given}");
}

#[test]
fn a_bad_tokenizer_or_model_is_one_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.txt");
    let out_arg = out.display().to_string();
    let bad = write(dir.path(), "tokenizer.json", b"{\"model\": 5}");
    fails_with(
        &["report", "--tokenizer", &bad, "--output", &out_arg],
        2,
        "tokenizer.json: not a Hugging Face tokenizer.json (",
    );
    assert!(!out.exists());
    let missing = dir.path().join("nope.json").display().to_string();
    fails_with(
        &["check", "--max-tokens", "1", "--tokenizer", &missing],
        2,
        "nope.json: no such file",
    );
    fails_with(
        &["count", "--tokenizer", &missing, "x"],
        2,
        "nope.json: no such file",
    );
    fails_with(
        &["report", "--model", "acme/unheard-of"],
        2,
        "--model acme/unheard-of: no tokenizer is known for it",
    );
    fails_with(
        &["report", "--model", "gpt-4o", "--tokenizer", &bad],
        2,
        "cannot be used with",
    );
}

#[test]
fn report_overrides_flip_the_gate() {
    let r = json(&[
        "report",
        "--format",
        "json",
        "--threshold-pct",
        "10.12",
        "--estimate-only",
    ]);
    assert_eq!(r["active"], false);
    assert_eq!(r["tokens_after"], r["tokens_before"]);
    assert_eq!(r["servers"][0]["o200k_tokens"], Value::Null);
    let r = json(&[
        "report",
        "--format",
        "json",
        "--disabled-toolsets",
        "mcp-fetch",
        "--estimate-only",
    ]);
    assert_eq!(
        (r["active"].as_bool(), r["deferrable_tools"].as_u64()),
        (Some(false), Some(34))
    );
    let r = json(&[
        "report",
        "--format",
        "json",
        "--context",
        "1M",
        "--enabled",
        "on",
        "--estimate-only",
    ]);
    assert_eq!(
        (r["active"].as_bool(), r["context_source"].as_str()),
        (Some(true), Some("flag"))
    );
    let r = json(&[
        "report",
        "--format",
        "json",
        "--enabled-toolsets",
        "fetch",
        "--estimate-only",
    ]);
    assert_eq!(r["deferrable_tools"], 1);
}

#[test]
fn report_table_and_markdown() {
    let out = stdout(&schematax(&["report"]));
    assert!(
        out.contains("ACTIVE: 227 tokens of schemas less would deactivate it"),
        "{out}"
    );
    assert!(
        out.contains("total                              35  80,901   20,226"),
        "{out}"
    );
    assert!(
        out.contains("saved           19,848 tokens (98.1%)"),
        "{out}"
    );
    let md = stdout(&schematax(&[
        "report",
        "--format",
        "markdown",
        "--estimate-only",
    ]));
    assert!(md.starts_with("# schematax report: embedded sample"));
    assert!(md.contains("| server | toolset | tools |"), "{md}");
    assert!(md.contains("| firecrawl | mcp-firecrawl | 26 |"), "{md}");
}

#[test]
fn report_on_all_captures_without_config() {
    let r = json(&[
        "report",
        "--format",
        "json",
        "--tools",
        &captures_arg(),
        "--estimate-only",
    ]);
    assert_eq!(r["deferrable_tools"], 406);
    assert_eq!(
        r["deferrable_tokens"], 143_809,
        "as the seed golden file says"
    );
    assert_eq!(r["context_source"], "unknown");
    assert_eq!(r["context_length"], 0);
    assert_eq!(r["threshold_tokens"], 20_000);
    assert_eq!(r["active"], true);
    assert_eq!(r["bridge_tokens"], 378);
    let names: Vec<&str> = r["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["server"].as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(
        names, sorted,
        "servers register in name order without a config"
    );
    // INDEX.md is not a capture and is not reported.
    assert_eq!(r["warnings"], Value::Array(vec![]));
}

/// The golden file `path` of tests/data/parity.
fn golden(path: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/parity")
        .join(path);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn search_json_matches_parity_and_payload() {
    // The binary ranks a golden query exactly as Hermes did.
    let case = golden("captures.json")["searches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["hits"].as_array().unwrap().len() >= 3 && c["limit"] == 5)
        .unwrap()
        .clone();
    let query = case["query"].as_str().unwrap();
    let r = json(&[
        "search",
        query,
        "--tools",
        &captures_arg(),
        "--format",
        "json",
    ]);
    assert_eq!(r["profile"], "seed");
    assert_eq!(r["via"], case["via"]);
    assert_eq!(r["limit"], 5);
    assert_eq!(r["total_available"], 406);
    let hits = r["hits"].as_array().unwrap();
    let want = case["hits"].as_array().unwrap();
    assert_eq!(hits.len(), want.len());
    for (got, want) in hits.iter().zip(want) {
        assert_eq!(got["name"], want["name"]);
        assert!((got["score"].as_f64().unwrap() - want["score"].as_f64().unwrap()).abs() < 1e-6);
    }
    assert_eq!(hits[0]["rank"], 1);
    assert!(!hits[0]["matched_terms"].as_array().unwrap().is_empty());
    assert_eq!(r["queries"][0]["hits"], r["hits"]);
    let payload = &r["payload"];
    assert_eq!(payload["query"], query);
    assert_eq!(payload["total_available"], 406);
    assert_eq!(payload["matches"][0]["name"], hits[0]["name"]);
    assert_eq!(payload["matches"][0]["source"], "mcp");
    assert!(payload["matches"][0]["source_name"]
        .as_str()
        .unwrap()
        .starts_with("mcp-"));
    assert!(payload["matches"][0].get("score").is_none());
}

#[test]
fn search_under_the_newer_profile_is_one_multi_query_call() {
    let golden = golden("hermes-current/captures.json");
    let case = &golden["payloads"][0];
    let queries: Vec<&str> = case["arguments"]["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap())
        .collect();
    let captures = captures_arg();
    let mut args = vec!["search"];
    args.extend(&queries);
    args.extend([
        "--tools",
        &captures,
        "--profile",
        "hermes-2026-09",
        "--format",
        "json",
    ]);
    let r = json(&args);
    assert_eq!(r["profile"], "hermes-2026-09");
    assert!(
        r.get("hits").is_none(),
        "several queries: no single-query fields"
    );
    assert_eq!(r["queries"].as_array().unwrap().len(), queries.len());
    assert_eq!(r["payload"], case["result"], "the payload byte for byte");
    let gate = &r["queries"][1]["gate"];
    assert_eq!(gate["document_frequency"], 0, "{gate}");
    assert_eq!(r["queries"][1]["via"], "none");

    let r = json(&[
        "search",
        "MCP__FETCH__FETCH",
        "--tools",
        &captures,
        "--profile",
        "hermes-2026-09",
        "--format",
        "json",
    ]);
    assert_eq!(r["via"], "exact");
    assert_eq!(r["hits"][0]["score"], Value::Null);
    assert_eq!(r["hits"][0]["exact_name"], true);
    let table = stdout(&schematax(&[
        "search",
        "zzzqqq github",
        "--tools",
        &captures,
        "--profile",
        "hermes-2026-09",
    ]));
    assert!(table.contains("No tool holds \"zzzqqq\""), "{table}");
    assert!(table.contains("gate: \"zzzqqq\""), "{table}");
}

#[test]
fn search_limits_fallback_and_empty_query() {
    let captures = captures_arg();
    let r = json(&[
        "search", "list", "--limit", "999", "--tools", &captures, "--format", "json",
    ]);
    assert_eq!(
        (r["limit"].as_u64(), r["hits"].as_array().unwrap().len()),
        (Some(20), 20)
    );
    let r = json(&[
        "search", "list", "--limit", "-4", "--tools", &captures, "--format", "json",
    ]);
    assert_eq!(r["limit"], 1);
    let r = json(&["search", "firecrawl_scr", "--format", "json"]);
    assert_eq!(r["via"], "bm25");
    let r = json(&["search", "wl_scr", "--format", "json"]);
    assert_eq!(r["via"], "substring");
    assert_eq!(r["hits"][0]["score"], 0.1);
    let r = json(&["search", "", "--format", "json"]);
    assert_eq!(
        r["payload"],
        serde_json::json!({"error": "query is required"})
    );
    let out = stdout(&schematax(&["search", "zzzzqqq"]));
    assert!(
        out.contains("0 hits via none") && out.contains("No tool matched"),
        "{out}"
    );
    let md = stdout(&schematax(&[
        "search",
        "fetch a url",
        "--format",
        "markdown",
    ]));
    assert!(md.contains("| 1 | mcp\\_fetch\\_fetch | fetch |"), "{md}");
    assert!(
        md.contains("```json\n{\n  \"query\": \"fetch a url\""),
        "{md}"
    );
}

#[test]
fn describe_payload_and_errors() {
    let r = json(&["describe", "fetch/fetch", "--format", "json"]);
    assert_eq!(r["profile"], "seed");
    assert_eq!(
        r["schema_change"],
        Value::Null,
        "fetch's schema passes through unchanged"
    );
    assert_eq!(r["name"], "mcp_fetch_fetch");
    assert_eq!(r["chars"], 1085);
    assert_eq!(r["estimate_tokens"], 272);
    assert_eq!(r["payload"]["name"], "mcp_fetch_fetch");
    assert_eq!(r["payload"]["parameters"]["required"][0], "url");
    let out = schematax(&["describe", "scrape", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let e: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Hermes 0.17's own answer for a name it has not registered.
    assert!(e["error"]
        .as_str()
        .unwrap()
        .contains("'scrape' is not a deferrable tool"));
    assert!(e["suggestions"]
        .as_array()
        .unwrap()
        .contains(&Value::from("mcp_firecrawl_firecrawl_scrape")));
    let md = stdout(&schematax(&[
        "describe",
        "mcp_context7_query_docs",
        "--format",
        "markdown",
    ]));
    assert!(
        md.starts_with("# tool\\_describe mcp\\_context7\\_query\\_docs"),
        "{md}"
    );
    let r = json(&[
        "describe",
        "fetch/fetch",
        "--profile",
        "hermes-2026-09",
        "--format",
        "json",
    ]);
    assert_eq!(r["name"], "mcp__fetch__fetch");
    assert!(r["payload"]["tools"]["mcp__fetch__fetch"]["parameters"].is_object());
    let out = schematax(&["describe", "nope", "--profile", "hermes-2026-09"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn describe_shows_what_hermes_changed() {
    let dir = tempfile::tempdir().unwrap();
    let tools = write(
        dir.path(),
        "s.json",
        br#"{"server":"s","tools":[{"name":"t","description":"Does a thing.","inputSchema":{"type":"object","properties":{"when":{"anyOf":[{"type":"string"},{"type":"null"}],"title":"When"}}}}]}"#,
    );
    let r = json(&["describe", "s/t", "--tools", &tools, "--format", "json"]);
    let change = &r["schema_change"];
    assert_eq!(
        change["captured_parameters"]["properties"]["when"]["anyOf"][1]["type"],
        "null"
    );
    assert_eq!(
        r["payload"]["parameters"]["properties"]["when"],
        serde_json::json!({"type": "string", "nullable": true, "title": "When"})
    );
    assert_eq!(
        change["chars_delta"].as_i64().unwrap(),
        r["chars"].as_i64().unwrap() - change["captured_chars"].as_i64().unwrap()
    );
    let text = stdout(&schematax(&["describe", "s/t", "--tools", &tools]));
    assert!(
        text.contains("Hermes's schema passes change the captured inputSchema"),
        "{text}"
    );
    assert!(text.contains("+      \"nullable\": true,"), "{text}");
}

#[test]
fn sweep_flip_points() {
    let r = json(&["sweep", "--format", "json"]);
    assert_eq!(r["profile"], "seed");
    assert_eq!(r["max_threshold_pct"], 10.11);
    assert_eq!(r["max_context_length"], 202_269);
    assert_eq!(r["every_context_activates"], false);
    let contexts: Vec<u64> = r["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["context_length"].as_u64().unwrap())
        .collect();
    assert_eq!(contexts.first(), Some(&8_000));
    assert_eq!(contexts.last(), Some(&2_000_000));
    let out = stdout(&schematax(&["sweep"]));
    assert!(
        out.contains("200K            20,000   ●   ●   ●  [●]    ·"),
        "{out}"
    );
    let md = stdout(&schematax(&[
        "sweep",
        "--format",
        "markdown",
        "--enabled",
        "off",
    ]));
    assert!(md.contains("Mode off ignores the threshold"), "{md}");
}

#[test]
fn sweep_under_the_newer_profile_shows_forms() {
    let r = json(&[
        "sweep",
        "--tools",
        &captures_arg(),
        "--profile",
        "hermes-2026-09",
        "--context",
        "200K",
        "--format",
        "json",
    ]);
    assert_eq!(r["max_threshold_pct"], Value::Null);
    let budgets = r["form_budgets"].as_array().unwrap();
    let forms: Vec<&str> = budgets
        .iter()
        .map(|b| b["form"].as_str().unwrap())
        .collect();
    assert_eq!(forms.first(), Some(&"none"));
    assert_eq!(forms.last(), Some(&"full"));
    // Golden: at 200K and 5%, the 406 tools list as names with a 19,068-char bridge.
    let row = r["grid"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["context_length"] == 200_000)
        .unwrap();
    let at_5 = r["thresholds"]
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t == 5.0)
        .unwrap();
    assert_eq!(row["forms"][at_5], "names");
    assert_eq!(row["tokens_after"][at_5], 4767);
    let out = stdout(&schematax(&[
        "sweep",
        "--tools",
        &captures_arg(),
        "--profile",
        "hermes-2026-09",
    ]));
    assert!(out.contains("F full  N names  M mixed  G groups"), "{out}");
    assert!(out.contains("the form changes at these budgets"), "{out}");
}

#[test]
fn config_and_tools_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("tools")).unwrap();
    std::fs::copy(
        captures_dir().join("sqlite.json"),
        dir.path().join("tools/sqlite.json"),
    )
    .unwrap();
    std::fs::copy(
        captures_dir().join("redis.json"),
        dir.path().join("tools/redis.json"),
    )
    .unwrap();
    write(&dir.path().join("tools"), "broken.json", b"{\"tools\": [");
    let config = write(
        dir.path(),
        "hermes.yaml",
        b"model: {default: gpt-4o}\ntools:\n  tool_search:\n    threshold_pct: ten\nmcp_servers:\n  sqlite: {command: x, tools: {exclude: [read_query]}}\n  github: {command: y}\n",
    );
    let r = json(&["report", &config, "--format", "json", "--estimate-only"]);
    assert_eq!(r["context_length"], 128_000);
    assert_eq!(r["deferrable_tools"], 5);
    let warnings: Vec<&str> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    let has = |needle: &str| warnings.iter().any(|w| w.contains(needle));
    assert!(
        has("threshold_pct: \"ten\" is not a number; using 10"),
        "{warnings:?}"
    );
    assert!(has("broken.json: invalid JSON"), "{warnings:?}");
    assert!(has("capture redis"), "{warnings:?}");
    assert!(
        has("server github is configured but has no capture"),
        "{warnings:?}"
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    fails_with(
        &["report", "/nonexistent/hermes.yaml"],
        2,
        "/nonexistent/hermes.yaml: no such file",
    );
    let deep = write(
        dir.path(),
        "deep.yaml",
        format!("a: {}1{}", "[".repeat(100_000), "]".repeat(100_000)).as_bytes(),
    );
    fails_with(
        &["report", &deep],
        2,
        "deep.yaml: nested deeper than 128 levels",
    );
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let bomb = write(dir.path(), "bomb.yaml", bomb.as_bytes());
    fails_with(
        &["report", &bomb],
        2,
        "bomb.yaml: aliases expand to more than",
    );

    let no_tools = write(dir.path(), "no-tools.json", b"{\"server\": \"x\"}");
    fails_with(
        &["report", "--tools", &no_tools],
        2,
        "no-tools.json: no tools array",
    );
    let deep = write(
        dir.path(),
        "deep.json",
        format!(
            "{{\"tools\":[{{\"name\":\"d\",\"inputSchema\":{}1{}}}]}}",
            "[".repeat(5000),
            "]".repeat(5000)
        )
        .as_bytes(),
    );
    fails_with(&["report", "--tools", &deep], 2, "recursion limit");
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(200 * 1024 * 1024)
        .unwrap();
    fails_with(
        &["report", "--tools", &huge.display().to_string()],
        2,
        "file is too large (200.0 MiB > 64.0 MiB limit)",
    );

    fails_with(
        &["report", "--threshold-pct", "150"],
        2,
        "not a percentage in [0, 100]",
    );
    fails_with(&["report", "--context", "lots"], 2, "not a token count");
    fails_with(
        &["report", "--enabled", "maybe"],
        2,
        "invalid value 'maybe'",
    );
    fails_with(&["search"], 2, "QUERIES");
}

#[test]
fn a_bad_capture_among_good_ones_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        captures_dir().join("fetch.json"),
        dir.path().join("fetch.json"),
    )
    .unwrap();
    write(dir.path(), "garbage.json", b"not json at all");
    write(
        dir.path(),
        "nameless.json",
        b"{\"tools\":[{\"description\":\"x\"},{\"name\":\"ok\"}]}",
    );
    let r = json(&[
        "report",
        "--tools",
        &dir.path().display().to_string(),
        "--format",
        "json",
        "--estimate-only",
    ]);
    // The nameless tool makes Hermes's MCP client refuse that server's whole list.
    assert_eq!(r["deferrable_tools"], 1);
    assert_eq!(r["not_connected"][0]["server"], "nameless");
    let warnings = r["warnings"].to_string();
    assert!(
        warnings.contains("skipped") && warnings.contains("garbage.json: invalid JSON"),
        "{warnings}"
    );
    assert!(
        warnings.contains("nameless.json: tool #1 skipped: no name"),
        "{warnings}"
    );
}

#[test]
fn escape_sequences_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let evil = write(
        dir.path(),
        "evil.json",
        "{\"server\":\"ev\\u001b[2Jil\",\"tools\":[{\"name\":\"wipe\\u001b]0;pwned\\u0007\",\"description\":\"Clears \\u001b[31mred\\u001b[0m screen\\u009b2J now\\r\\nnext\",\"inputSchema\":{}}]}".as_bytes(),
    );
    for args in [
        vec!["report", "--tools", &evil, "--estimate-only"],
        vec![
            "report",
            "--tools",
            &evil,
            "--estimate-only",
            "--format",
            "markdown",
        ],
        vec!["search", "clears screen", "--tools", &evil],
        vec![
            "search",
            "clears screen",
            "--tools",
            &evil,
            "--format",
            "markdown",
        ],
        vec!["sweep", "--tools", &evil],
    ] {
        let output = schematax(&args);
        assert!(output.status.success(), "{args:?}");
        let text = stdout(&output);
        assert!(
            !text
                .chars()
                .any(|c| c == '\u{1b}' || c == '\u{9b}' || c == '\u{7}' || c == '\r'),
            "{args:?}: {text:?}"
        );
    }
    let out = stdout(&schematax(&["search", "clears screen", "--tools", &evil]));
    assert!(out.contains("Clears red screen now"), "{out}");
}

#[test]
fn lint_formats_and_fail_on() {
    let r = json(&["lint", "--format", "json"]);
    let summary = &r["summary"];
    let findings = r["findings"].as_array().unwrap();
    assert_eq!(
        summary["errors"].as_u64().unwrap()
            + summary["warnings"].as_u64().unwrap()
            + summary["infos"].as_u64().unwrap(),
        findings.len() as u64
    );
    let scrape = findings
        .iter()
        .find(|f| f["rule"] == "shadowed" && f["tool"] == "firecrawl_scrape")
        .expect("firecrawl_scrape is shadowed by its own server's tools");
    assert_eq!(scrape["severity"], "warning");
    assert_eq!(scrape["server"], "firecrawl");
    assert!(scrape["message"]
        .as_str()
        .unwrap()
        .contains("\"firecrawl scrape\""));

    let sarif = json(&["lint", "--format", "sarif"]);
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "samples/tools/firecrawl.json"
    );
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.iter().any(|r| r["id"] == "shadowed"));

    let md = stdout(&schematax(&["lint", "--format", "markdown"]));
    assert!(
        md.contains("| warning | shadowed | firecrawl | firecrawl\\_scrape |"),
        "{md}"
    );
    assert_eq!(
        schematax(&["lint", "--fail-on", "warning"]).status.code(),
        Some(1)
    );
    assert_eq!(
        schematax(&["lint", "--fail-on", "error"]).status.code(),
        Some(0)
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = write(
        dir.path(),
        "bad.json",
        br#"{"server":"s","tools":[{"name":"getThing","inputSchema":{}}]}"#,
    );
    let out = schematax(&["lint", "--tools", &bad, "--fail-on", "error"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("no-description") && text.contains("camel-case-name"),
        "{text}"
    );
    // Without an inputSchema the server is not connected: that is the one finding.
    let refused = write(
        dir.path(),
        "refused.json",
        br#"{"server":"s","tools":[{"name":"getThing"}]}"#,
    );
    let out = schematax(&["lint", "--tools", &refused, "--fail-on", "error"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("no-input-schema") && text.contains("does not connect s"),
        "{text}"
    );
}

#[test]
fn eval_on_the_sample_queries() {
    let queries = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/queries.yaml");
    let queries = queries.display().to_string();
    let r = json(&["eval", &queries, "--format", "json"]);
    let overall = &r["overall"];
    assert_eq!(overall["queries"], 40);
    assert_eq!(r["profile"], "seed");
    assert_eq!(r["by_style"]["keyword"]["queries"], 20);
    assert_eq!(r["by_style"]["natural"]["queries"], 20);
    assert_eq!(overall["k"], 5);
    let figures = |v: &Value| {
        let f = |key: &str| (v[key].as_f64().unwrap() * 1000.0).round() / 1000.0;
        (f("recall_at_1"), f("recall_at_k"), f("mrr"))
    };
    assert_eq!(figures(overall), (0.775, 1.0, 0.869));
    assert_eq!(figures(&r["by_style"]["keyword"]), (0.7, 1.0, 0.829));
    assert_eq!(figures(&r["by_style"]["natural"]), (0.85, 1.0, 0.908));
    assert_eq!(r["by_server"]["firecrawl"]["queries"], 22);
    let first = &r["queries"][0];
    assert_eq!(first["id"], "scrape-1");
    assert_eq!(first["rank"], 3);
    assert_eq!(first["hits"].as_array().unwrap().len(), 5);

    // Switching firecrawl off turns its queries into misses.
    let off = json(&[
        "eval",
        &queries,
        "--format",
        "json",
        "--disabled-toolsets",
        "firecrawl",
    ]);
    assert_eq!(off["by_server"]["firecrawl"]["recall_at_k"], 0.0);
    assert!(off["queries"][0]["rank"].is_null());
    assert!(off["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("firecrawl_scrape")));

    let at_1 = json(&["eval", &queries, "--format", "json", "--limit", "1"]);
    assert_eq!(
        at_1["overall"]["recall_at_k"],
        at_1["overall"]["recall_at_1"]
    );
    // scrape-1 allows no other tool, so --lenient leaves its rank; scrape-2 accepts either.
    let lenient = json(&["eval", &queries, "--format", "json", "--lenient"]);
    assert_eq!(lenient["queries"][0]["rank"], 3);
    assert!(lenient["overall"]["mrr"].as_f64().unwrap() >= overall["mrr"].as_f64().unwrap());

    assert_eq!(
        schematax(&["eval", &queries, "--min-recall", "0.5"])
            .status
            .code(),
        Some(0)
    );
    let strict = schematax(&["eval", &queries, "--min-recall", "1", "--limit", "1"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(stderr(&strict).contains("below --min-recall"));
    let table = stdout(&schematax(&["eval", &queries, "--limit", "1"]));
    assert!(table.contains("came instead"), "{table}");
    let md = stdout(&schematax(&["eval", &queries, "--format", "markdown"]));
    assert!(md.starts_with("# schematax eval: 40 queries"), "{md}");
    let newer = json(&[
        "eval",
        &queries,
        "--format",
        "json",
        "--profile",
        "hermes-2026-09",
    ]);
    assert_eq!(newer["profile"], "hermes-2026-09");
    assert!(
        newer["queries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|q| q["why"].as_str().is_some_and(|w| w.contains("rarest word"))),
        "a miss says which word the tool lacks"
    );
    fails_with(
        &["eval", "/nonexistent/q.yaml"],
        2,
        "/nonexistent/q.yaml: no such file",
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "q.yaml", b"- just a list");
    fails_with(
        &["eval", &bad],
        2,
        "expected a mapping with a `queries` list",
    );
}

#[test]
fn typos_in_sections_and_keys_are_reported_with_a_guess() {
    let dir = tempfile::tempdir().unwrap();
    let config = write(
        dir.path(),
        "hermes.yaml",
        b"tool:\n  tool_search: {threshold_pct: 3}\nmcp_server:\n  fetch: {command: x}\n",
    );
    let r = json(&[
        "report",
        &config,
        "--tools",
        &captures_dir().join("fetch.json").display().to_string(),
        "--format",
        "json",
        "--estimate-only",
    ]);
    let warnings = r["warnings"].to_string();
    assert!(warnings.contains("did you mean tools?"), "{warnings}");
    assert!(warnings.contains("did you mean mcp_servers?"), "{warnings}");
    let empty = tempfile::tempdir().unwrap();
    let out = schematax(&[
        "report",
        "--tools",
        &empty.path().display().to_string(),
        "--format",
        "json",
        "--estimate-only",
    ]);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        r["warnings"].to_string().contains("no capture files"),
        "{}",
        r["warnings"]
    );
}

#[test]
fn collisions_and_missing_schemas_are_named() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.json",
        br#"{"server":"my-api","tools":[{"name":"query.data","description":"Query data.","inputSchema":{"type":"object"}}]}"#,
    );
    write(
        dir.path(),
        "b.json",
        br#"{"server":"my_api","tools":[{"name":"query_data","description":"Query other data.","inputSchema":{}}]}"#,
    );
    write(
        dir.path(),
        "c.json",
        br#"{"server":"bare","tools":[{"name":"no_schema","description":"No inputSchema."}]}"#,
    );
    let tools = dir.path().display().to_string();
    let r = json(&[
        "report",
        "--tools",
        &tools,
        "--format",
        "json",
        "--estimate-only",
    ]);
    assert_eq!(r["collisions"][0]["server"], "my-api");
    assert_eq!(r["collisions"][0]["kept_server"], "my_api");
    assert_eq!(r["collisions"][0]["kind"], "overwritten");
    let warnings = r["warnings"].to_string();
    assert!(warnings.contains("whichever connects last"), "{warnings}");
    assert!(
        warnings.contains("bare: tool no_schema has no inputSchema"),
        "{warnings}"
    );
    assert_eq!(r["not_connected"][0]["server"], "bare");
    assert_eq!(r["not_connected"][0]["tools"], 1);
    let r = json(&[
        "report",
        "--tools",
        &tools,
        "--profile",
        "hermes-2026-09",
        "--format",
        "json",
        "--estimate-only",
    ]);
    assert_eq!(
        r["collisions"][0]["server"], "my_api",
        "the first owner keeps it"
    );
    assert_eq!(r["collisions"][0]["kind"], "name_taken");
    let lint = json(&["lint", "--tools", &tools, "--format", "json"]);
    let rules: Vec<&str> = lint["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"no-input-schema"), "{rules:?}");
    assert!(rules.contains(&"name-collision"), "{rules:?}");
}

#[test]
fn every_command_runs_under_every_profile() {
    let queries = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/queries.yaml");
    let queries = queries.display().to_string();
    let profiles = json(&["profiles", "--format", "json"]);
    let ids: Vec<&str> = profiles["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 12, "{ids:?}");
    for profile in &ids {
        for args in [
            vec!["report", "--estimate-only"],
            vec!["search", "scrape a page"],
            vec!["describe", "fetch/fetch"],
            vec!["sweep"],
            vec!["lint"],
            vec!["eval", &queries],
        ] {
            let mut args = args.clone();
            args.extend(["--profile", profile, "--format", "json"]);
            let r = json(&args);
            assert_eq!(r["profile"], *profile, "{args:?}");
        }
    }
    let newer = json(&[
        "report",
        "--hermes",
        "0.21.4",
        "--format",
        "json",
        "--estimate-only",
    ]);
    assert_eq!(newer["profile"], "hermes-0.21.4");
    assert_eq!(newer["hermes"], "0.21.4.post1");
    assert_eq!(newer["listing_form"], "full");
    assert_eq!(newer["tier"], 1);
    assert!(newer["bridge_tokens"].as_u64().unwrap() > 378);
    assert_eq!(newer["tokens_after"], newer["bridge_tokens"]);
    assert_eq!(newer["threshold_tokens"], Value::Null);
    // The bytes sent: each tool's definition, and the bridge with its listing.
    let sent = &newer["sent"];
    assert_eq!(sent["tools"].as_array().unwrap().len(), 35);
    let bridge = sent["bridge"].as_array().unwrap();
    assert_eq!(bridge.len(), 3);
    let chars: usize = bridge
        .iter()
        .map(|b| b.as_str().unwrap().chars().count())
        .sum();
    assert_eq!(chars as u64, newer["bridge_chars"].as_u64().unwrap());
    let first: Value = serde_json::from_str(sent["tools"][0].as_str().unwrap()).unwrap();
    assert!(first["function"]["name"]
        .as_str()
        .unwrap()
        .starts_with("mcp__"));
    // Without a flag, the config's schematax.hermes chooses, else the newest release.
    let dir = tempfile::tempdir().unwrap();
    let config = write(
        dir.path(),
        "hermes.yaml",
        b"schematax:\n  hermes: \"0.19.0\"\n",
    );
    let fetch = captures_dir().join("fetch.json").display().to_string();
    let args = [
        "report",
        &config,
        "--tools",
        &fetch,
        "--format",
        "json",
        "--estimate-only",
    ];
    let r: Value = serde_json::from_slice(&latest(&args).stdout).unwrap();
    assert_eq!(
        r["profile"], "hermes-0.18.1",
        "the config chooses the release"
    );
    let r: Value = serde_json::from_slice(
        &latest(&[
            "report",
            "--tools",
            &fetch,
            "--format",
            "json",
            "--estimate-only",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(
        r["profile"],
        common::newest(),
        "the newest verified release"
    );
    // A version newer than every verified one: a warning and the newest.
    let r = json(&[
        "report", "--tools", &fetch, "--hermes", "0.24.1", "--format", "json",
    ]);
    assert_eq!(r["profile"], common::newest());
    assert!(r["warnings"]
        .to_string()
        .contains("newer than every verified release"));
    // An unknown version, and one release where a command replays one.
    fails_with(
        &["report", "--hermes", "0.20.2"],
        2,
        "known releases: 0.16.0",
    );
    fails_with(&["report", "--hermes", "0.15.2"], 2, "it shipped in 0.16.0");
    fails_with(
        &["report", "--hermes", "0.17,0.22"],
        2,
        "`schematax compare` takes several",
    );
}

#[test]
fn compare_shows_both_profiles_and_the_queries_they_split() {
    let queries = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/queries.yaml");
    let r = json(&[
        "compare",
        "--queries",
        &queries.display().to_string(),
        "--format",
        "json",
    ]);
    let profiles: Vec<&str> = r["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["profile"].as_str().unwrap())
        .collect();
    // Without --hermes: seed beside the default, the newest release.
    assert_eq!(profiles, ["seed", "hermes-0.22.2"]);
    assert_eq!(r["queries"].as_array().unwrap().len(), 40);
    // Ten queries the newer engine's rarest-word gate loses; none it finds that seed misses.
    let lost = r["lost"]["hermes-0.22.2"].as_array().unwrap();
    assert_eq!(lost.len(), 10, "{lost:?}");
    assert!(lost.iter().any(|q| q == "local-1"), "{lost:?}");
    assert_eq!(r["gained"]["hermes-0.22.2"], Value::Array(vec![]));
    // Any releases, in the order given: the gate came in 0.21.3.
    let r = json(&[
        "compare",
        "--queries",
        &queries.display().to_string(),
        "--hermes",
        "0.17,0.20.6,0.21.3,0.22",
        "--format",
        "json",
    ]);
    let lost: Vec<usize> = ["hermes-0.20.6", "hermes-0.21.3", "hermes-0.22.2"]
        .iter()
        .map(|id| r["lost"][id].as_array().unwrap().len())
        .collect();
    assert_eq!(lost, [0, 10, 10]);
    assert_eq!(r["profiles"][1]["releases"], "0.20.6.post1, 0.21.0.post1");
    let alias = schematax(&["diff-profiles"]);
    assert!(alias.status.success());
    let table = stdout(&alias);
    assert!(table.contains("tokens after"), "{table}");
}

#[test]
fn output_goes_to_a_file_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    std::fs::write(&path, "old").unwrap();
    let out = schematax(&[
        "report",
        "--estimate-only",
        "--format",
        "json",
        "--output",
        &path.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let r: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(r["deferrable_tools"], 35);
    let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file is left");
    fails_with(
        &["report", "--output", "/nonexistent/dir/r.txt"],
        2,
        "cannot write /nonexistent/dir/r.txt",
    );
}

#[test]
fn every_command_takes_the_config_as_config_too_and_a_query_naming_a_file_is_warned() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/hermes.yaml");
    // The same inputs, named as CONFIG or as --config.
    let positional = json(&["report", sample, "--estimate-only", "--format", "json"]);
    let option = json(&[
        "report",
        "--config",
        sample,
        "--estimate-only",
        "--format",
        "json",
    ]);
    assert_eq!(positional, option);
    assert_eq!(option["config_path"], sample);
    fails_with(&["report", sample, "--config", sample], 2, "--config");
    // search reads its queries positionally: a config there is a query, and it says so.
    let output = schematax(&["search", "read a file", sample]);
    assert!(output.status.success());
    let err = stderr(&output);
    assert!(
        err.contains("names a file") && err.contains("--config"),
        "{err}"
    );
    let output = schematax(&["search", "read a file", "--config", sample]);
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
}

#[test]
fn a_config_hermes_would_ignore_is_an_error_naming_the_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    // A tools/ folder beside it would otherwise count every capture.
    std::fs::create_dir(dir.path().join("tools")).unwrap();
    std::fs::copy(
        captures_dir().join("fetch.json"),
        dir.path().join("tools/fetch.json"),
    )
    .unwrap();
    let broken = write(
        dir.path(),
        "hermes.yaml",
        b"tools:\n  tool_search:\n    threshold_pct: [10\nmcp_servers:\n  fetch: {command: x}\n",
    );
    for command in ["report", "lint", "tui"] {
        fails_with(&[command, &broken], 2, "line 4, column 12");
        fails_with(&[command, &broken], 2, "Hermes would ignore the whole file");
    }
    let list = write(dir.path(), "list.yaml", b"- a\n- b\n");
    fails_with(
        &["report", &list],
        2,
        "expected a mapping at the top level, found a list",
    );
    let binary = write(dir.path(), "bin.yaml", b"model: \xff\xfe\n");
    fails_with(&["report", &binary], 2, "not valid UTF-8");
}

#[test]
fn a_misspelt_toolset_and_a_misspelt_tool_get_a_guess() {
    let captures = captures_arg();
    let r = json(&[
        "report",
        "--tools",
        &captures,
        "--enabled-toolsets",
        "mcp-fetc",
        "--estimate-only",
        "--format",
        "json",
    ]);
    let warnings = r["warnings"].to_string();
    assert!(
        warnings.contains(
            "no server has the toolset \\\"mcp-fetc\\\" (did you mean \\\"mcp-fetch\\\"?)"
        ),
        "{warnings}"
    );
    assert_eq!(r["deferrable_tools"], 0);
    let output = schematax(&["describe", "filesystem/read_fil", "--tools", &captures]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains("did you mean: mcp_desktop_commander_read_file"),
        "{text}"
    );
}

#[test]
fn counts_agree_with_their_nouns_and_money_is_in_cents() {
    let fetch = captures_dir().join("fetch.json").display().to_string();
    let text = stdout(&schematax(&[
        "report",
        "--tools",
        &fetch,
        "--estimate-only",
    ]));
    let title = text.lines().next().unwrap();
    assert!(title.contains("(1 server, 1 tool,"), "{title}");
    assert!(title.contains(&format!("captures in {fetch}")), "{title}");
    assert!(
        text.contains("with --estimate-only, o200k_base is not counted"),
        "{text}"
    );
    let sample = stdout(&schematax(&["report", "--estimate-only"]));
    assert!(sample.contains("$178.63/month"), "{sample}");
    assert!(sample.contains("$0.06/turn"), "cents: {sample}");
    assert!(sample.contains("$0.0011/turn"), "below a cent: {sample}");
    fails_with(
        &["report", "--price-per-mtok", "-1"],
        2,
        "not a non-negative price",
    );
    fails_with(
        &["report", "--turns-per-day", "-1"],
        2,
        "not a whole number of turns",
    );
    fails_with(&["report", "--threshold-pct", "-1"], 2, "not a percentage");
}

/// `report --format json` of the sample under `args`, written into `dir`.
fn baseline_of(dir: &Path, args: &[&str]) -> String {
    let path = dir.join("baseline.json").display().to_string();
    let mut all = vec![
        "report",
        "--format",
        "json",
        "--estimate-only",
        "--output",
        &path,
    ];
    all.extend_from_slice(args);
    let output = latest(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    path
}

#[test]
fn check_holds_the_schemas_to_a_budget_and_exits_by_the_verdict() {
    let over = latest(&["check", "--max-tokens", "20000", "--estimate-only"]);
    assert_eq!(over.status.code(), Some(1));
    let text = stdout(&over);
    assert!(text.lines().next().unwrap().ends_with(": FAIL"), "{text}");
    assert!(text.contains("20,000  over budget"), "{text}");
    // SARIF for code scanning: every result has a file.
    let sarif = latest(&[
        "check",
        "--max-tokens",
        "20000",
        "--estimate-only",
        "--format",
        "sarif",
    ]);
    let sarif: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "schema-budget");
    assert!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .is_some_and(|uri| !uri.is_empty())
    );
    let within = latest(&["check", "--max-tokens", "30000", "--estimate-only"]);
    assert_eq!(within.status.code(), Some(0), "{}", stdout(&within));
    // Per server: firecrawl over, the others unbudgeted.
    let output = latest(&[
        "check",
        "--max-server-tokens",
        "firecrawl=10000",
        "--max-server-tokens",
        "fetch=1,000",
        "--estimate-only",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let check: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(check["pass"], false);
    let failing: Vec<&str> = check["gates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["failure"].is_null())
        .map(|g| g["scope"].as_str().unwrap())
        .collect();
    assert_eq!(failing, ["firecrawl"]);
    // Bad budgets are usage errors.
    fails_with(&["check", "--estimate-only"], 2, "check needs a budget");
    fails_with(
        &["check", "--max-server-tokens", "nope=5"],
        2,
        "no server \"nope\"",
    );
    fails_with(
        &["check", "--max-server-tokens", "fetch"],
        2,
        "is not NAME=N",
    );
}

#[test]
fn check_against_a_baseline_names_what_grew_and_a_flip() {
    let dir = tempfile::tempdir().unwrap();
    // The same sample as Hermes 0.17.0 made it: 0.22.2's schema passes add to firecrawl.
    let baseline = baseline_of(dir.path(), &["--hermes", "0.17"]);
    let strict = latest(&["check", "--baseline", &baseline, "--max-increase", "0.5"]);
    assert_eq!(strict.status.code(), Some(1));
    let text = stdout(&strict);
    assert!(
        text.contains("firecrawl     17,048    16,913   +0.8%  +0.5%  grew too much"),
        "{text}"
    );
    assert!(
        text.contains("the baseline was made under seed (Hermes 0.17.0)"),
        "{text}"
    );
    assert!(text.contains("firecrawl_crawl"), "{text}");
    let lenient = latest(&[
        "check",
        "--baseline",
        &baseline,
        "--max-increase",
        "5",
        "--format",
        "sarif",
    ]);
    assert_eq!(lenient.status.code(), Some(0));
    let sarif: Value = serde_json::from_slice(&lenient.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 0);
    // Switching a server off flips the 0.17.0 gate: said, and the server's drop shown.
    let baseline = baseline_of(dir.path(), &["--hermes", "0.17"]);
    let output = latest(&[
        "check",
        "--hermes",
        "0.17",
        "--disabled-toolsets",
        "fetch",
        "--baseline",
        &baseline,
        "--max-increase",
        "0",
        "--format",
        "markdown",
    ]);
    let markdown = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{markdown}");
    assert!(markdown.starts_with("### ✅ "), "{markdown}");
    assert!(
        markdown.contains("Tool Search flips: active in the baseline, inactive now"),
        "{markdown}"
    );
}

#[test]
fn a_baseline_of_another_shape_or_config_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = baseline_of(dir.path(), &[]);
    let mut report: Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    report["report_version"] = json!(99);
    let other_version = write(dir.path(), "v99.json", report.to_string().as_bytes());
    fails_with(
        &["check", "--baseline", &other_version, "--max-increase", "1"],
        2,
        "a report of version 99",
    );
    let lint = write(dir.path(), "lint.json", br#"{"findings": []}"#);
    fails_with(
        &["check", "--baseline", &lint, "--max-increase", "1"],
        2,
        "not a `schematax report --format json`",
    );
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/hermes.yaml");
    fails_with(
        &[
            "check",
            config,
            "--baseline",
            &baseline,
            "--max-increase",
            "1",
        ],
        2,
        "make the baseline from the same config",
    );
    fails_with(&["check", "--baseline", &baseline], 2, "--max-increase");
}

#[test]
fn the_ci_example_runs_as_written_on_the_sample() {
    // The workflow's schematax steps, run in a folder laid out as its repository would be.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let workflow = std::fs::read_to_string(root.join("docs/ci/schema-budget.yml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root.join("samples/hermes.yaml"),
        dir.path().join("hermes.yaml"),
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("tools")).unwrap();
    for entry in std::fs::read_dir(root.join("samples/tools")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(
            &path,
            dir.path().join("tools").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    let baseline_line = workflow
        .lines()
        .find_map(|l| {
            l.trim_start_matches('#')
                .trim()
                .strip_prefix("schematax report")
        })
        .expect("the workflow says how to make the baseline");
    let parsed = schematax_engine::yaml::parse(&workflow).unwrap();
    let steps = parsed
        .get("jobs")
        .and_then(|j| j.get("schema-budget"))
        .and_then(|j| j.get("steps"))
        .unwrap();
    let schematax_engine::yaml::Yaml::Seq(steps) = steps else {
        panic!("steps is a list")
    };
    let mut commands = vec![format!("report{baseline_line}")];
    commands.extend(
        steps
            .iter()
            .filter_map(|s| s.get("run").and_then(|r| r.as_str()))
            .filter_map(|r| r.strip_prefix("schematax "))
            .map(str::to_string),
    );
    assert_eq!(commands.len(), 3, "{commands:?}");
    for command in &commands {
        let output = Command::new(env!("CARGO_BIN_EXE_schematax"))
            .args(command.split_whitespace())
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{command}: {}", stderr(&output));
    }
    let comment = std::fs::read_to_string(dir.path().join("schema-check.md")).unwrap();
    assert!(
        comment.starts_with("### ✅ schematax check: hermes.yaml"),
        "{comment}"
    );
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("schema-check.sarif")).unwrap(),
    )
    .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
}

#[test]
fn count_measures_a_text_from_an_argument_or_standard_input() {
    let table = stdout(&latest(&[
        "count",
        "Take a screenshot of the page or element.",
    ]));
    assert!(table.contains("o200k_base       9"), "{table}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(["count", "-", "--format", "json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all("Fetch a URL.".as_bytes()).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let counts: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(counts["chars"], 12);
    assert_eq!(counts["chars/4"], 3);
    for name in ["o200k_base", "cl100k_base"] {
        assert!(counts[name].as_u64().unwrap() > 0, "{counts}");
    }
}
