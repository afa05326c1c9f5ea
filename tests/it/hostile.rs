//! Hostile inputs (issue 11): sizes and shapes no real capture has. Each one must answer or
//! refuse with a one-line error promptly, never hang, abort or eat the machine. The deadline
//! below only catches a hang; how fast the answers are is measured by the benchmarks.

use schematax_engine::analyses::lint::lint;
use schematax_engine::inputs::capture_file::parse_capture;
use schematax_engine::nouns::config::Config;
use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::replay::session::{Overrides, Session};
use schematax_releases::Profile;
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

/// Far above what any of these takes, even in a debug build on a busy machine.
const HANG: Duration = Duration::from_secs(120);
/// Bigger than the longest string analysed in full (1 MiB).
const HUGE: usize = 3 * 1024 * 1024;

/// Runs the binary, killing it and failing if it has not finished before [`HANG`].
fn schematax(args: &[&str]) -> Output {
    crate::common::schematax_within(HANG, args, &[])
}

/// Runs expecting exit 2 and one line naming `file` and mentioning `needle`.
fn refused(args: &[&str], file: &Path, needle: &str) {
    let output = schematax(args);
    let err = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    assert!(
        err.contains(&file.display().to_string()),
        "{err:?} names the file"
    );
    assert!(err.contains(needle), "{err:?} lacks {needle:?}");
}

/// Runs expecting success and JSON on stdout.
fn answers(args: &[&str]) -> Value {
    let output = schematax(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

fn write_json(dir: &Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    path.display().to_string()
}

fn tool(name: &str, description: &str) -> Value {
    json!({"name": name, "description": description,
           "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}})
}

#[test]
fn named_pipes_are_refused_before_they_are_opened() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("tools.json");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let path = fifo.display().to_string();
    refused(&["report", "--tools", &path], &fifo, "named pipe (FIFO)");
    refused(&["report", &path], &fifo, "named pipe (FIFO)");
    refused(&["eval", &path], &fifo, "named pipe (FIFO)");
    // In a folder, the pipe is skipped and reported; the rest loads.
    write_json(
        dir.path(),
        "ok.json",
        &json!({"tools": [tool("ping", "Ping it")]}),
    );
    let folder = dir.path().display().to_string();
    let report = answers(&["report", "--tools", &folder, "--format", "json"]);
    assert_eq!(report["servers"].as_array().map(Vec::len), Some(1));
    let warnings = report["warnings"].to_string();
    assert!(warnings.contains("named pipe"), "{warnings}");
}

#[test]
fn nesting_past_the_limit_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let deep = 100_000;
    let json_path = dir.path().join("deep.json");
    std::fs::write(&json_path, "[".repeat(deep) + &"]".repeat(deep)).unwrap();
    refused(
        &["report", "--tools", &json_path.display().to_string()],
        &json_path,
        "recursion limit",
    );
    let yaml_path = dir.path().join("hermes.yaml");
    std::fs::write(
        &yaml_path,
        format!("a: {}1{}\n", "{a: ".repeat(deep), "}".repeat(deep)),
    )
    .unwrap();
    refused(
        &["report", &yaml_path.display().to_string()],
        &yaml_path,
        "nested deeper than",
    );
    let queries = dir.path().join("queries.yaml");
    std::fs::write(
        &queries,
        format!("queries: {}{}\n", "[".repeat(deep), "]".repeat(deep)),
    )
    .unwrap();
    refused(
        &["eval", &queries.display().to_string()],
        &queries,
        "nested deeper than",
    );
}

#[test]
fn names_longer_than_any_real_one_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let long = "n".repeat(HUGE);
    let server = write_json(
        dir.path(),
        "server.json",
        &json!({"server": long, "tools": [tool("t", "d")]}),
    );
    refused(
        &["report", "--tools", &server],
        Path::new(&server),
        "server name is 3.0 MiB long",
    );
    let tools = write_json(
        dir.path(),
        "tools.json",
        &json!({"tools": [tool(&long, "d"), tool("fine", "A fine tool")]}),
    );
    let report = answers(&[
        "report",
        "--tools",
        &tools,
        "--format",
        "json",
        "--estimate-only",
    ]);
    assert_eq!(report["servers"][0]["tools"], 1, "{report}");
    assert!(report["warnings"]
        .to_string()
        .contains("name is 3.0 MiB long"));
}

#[test]
fn huge_strings_count_in_full_but_are_analysed_cut() {
    let dir = tempfile::tempdir().unwrap();
    // A description of distinct words and a property key, each three times the cut.
    let words: String = (0..HUGE / 8).map(|i| format!("w{i:06x} ")).collect();
    let key = "k".repeat(HUGE);
    let big = json!({"tools": [
        {"name": "big", "description": words, "inputSchema": {"type": "object", "properties": {key.clone(): {"type": "string"}}}}
    ]});
    let path = write_json(dir.path(), "big.json", &big);
    // Under seed: from 0.20.0 on, Hermes renames a property key over 64 characters.
    let report = answers(&[
        "report",
        "--tools",
        &path,
        "--format",
        "json",
        "--profile",
        "seed",
    ]);
    let chars = report["servers"][0]["chars"].as_u64().expect("chars");
    // Everything counts: both strings in full, plus the definition around them.
    assert!(chars > (words.len() + key.len()) as u64, "{chars}");
    assert!(chars < (words.len() + key.len()) as u64 + 1_000, "{chars}");
    let warnings = report["warnings"].to_string();
    assert!(warnings.contains("cut for analysis"), "{warnings}");
    // Search and lint see the cut text: a word past the cut is not found.
    let first = answers(&["search", "--tools", &path, "w000000", "--format", "json"]);
    assert_eq!(first["hits"][0]["name"], "mcp__big__big", "{first}");
    let last = format!("w{:06x}", HUGE / 8 - 1);
    let past = answers(&["search", "--tools", &path, &last, "--format", "json"]);
    assert_eq!(past["via"], "none", "{past}");
    let lint = schematax(&["lint", "--tools", &path]);
    assert!(lint.status.code().is_some(), "lint ends");
}

#[test]
fn identical_descriptions_lint_in_work_linear_in_the_tools() {
    // 4,000 tools with one description, as a generated server has, against 1,000: the lint's
    // searches may do about 4 times the work, and a quadratic pass would do 16 times. The work
    // is counted, not timed, so a busy machine cannot fail this.
    let capture = |count: usize| {
        let tools: Vec<Value> = (0..count)
            .map(|i| {
                tool(
                    &format!("same_{i}"),
                    "Fetch a web page and return its content as markdown.",
                )
            })
            .collect();
        let bytes = serde_json::to_vec(&json!({ "tools": tools })).unwrap();
        parse_capture(&bytes, "same").unwrap()
    };
    let (few, many) = (capture(1_000), capture(4_000));
    for profile in Profile::all() {
        let overrides = Overrides {
            profile: Some(profile),
            ..Overrides::default()
        };
        let work = |capture: &ServerCapture| {
            let session = Session::new(
                &Config::default(),
                std::slice::from_ref(capture),
                &overrides,
            );
            let findings = lint(&session);
            assert!(
                findings
                    .all_details()
                    .any(|f| f.rule.id == "weak-first-sentence"),
                "{}: identical first sentences cannot all be found",
                profile.id()
            );
            let work = findings.work();
            (work.search.postings + work.search.lookups) as f64
        };
        let ratio = work(&many) / work(&few);
        assert!(
            ratio < 6.0,
            "{}: 4x the tools took {ratio:.1}x the work",
            profile.id()
        );
    }
}

/// The fastest of three runs of `work`.
fn fastest(work: impl Fn()) -> Duration {
    (0..3)
        .map(|_| {
            let start = std::time::Instant::now();
            work();
            start.elapsed()
        })
        .min()
        .unwrap()
}

#[test]
fn a_config_of_many_keys_reads_in_linear_time() {
    // Two sizes in one run, so a busy machine slows both alike: 8 times the keys may take
    // about 8 times as long, and a quadratic read would take 64.
    let config = |servers: usize| {
        let mut text = String::from("mcp_servers:\n");
        for i in 0..servers {
            text.push_str(&format!("  server_{i}: {{command: x, enabled: false}}\n"));
        }
        text
    };
    let (small, large) = (config(10_000), config(80_000));
    let parse = |text: &str| {
        let parsed = Config::parse(text.as_bytes()).unwrap();
        assert!(parsed.mcp_servers.is_some());
    };
    let ratio = fastest(|| parse(&large)).as_secs_f64() / fastest(|| parse(&small)).as_secs_f64();
    assert!(ratio < 24.0, "8x the keys took {ratio:.1}x as long");
}
