//! What a new user (and a hostile path) met in the first hour: `--output` onto special files,
//! `check` gates that measured nothing or misread their numbers, `--hermes` versions read too
//! kindly, SARIF locations, Markdown that would notify, inputs given to the wrong command, and
//! per-tool counts in the JSON.

use crate::common;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts exit 2 and one line of error that holds `needle` (clap's usage errors add their
/// hint to see `--help` below it).
fn refused(output: &Output, needle: &str) {
    let err = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(err.contains(needle), "{err:?} lacks {needle:?}");
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A config beside a `tools/` folder holding one real capture.
fn config_with_one_capture(dir: &Path) -> String {
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    std::fs::copy(
        repo().join("tests/data/captures/fetch.json"),
        dir.join("tools/fetch.json"),
    )
    .unwrap();
    let config = dir.join("hermes.yaml");
    std::fs::write(&config, "mcp_servers:\n  fetch:\n    command: uvx\n").unwrap();
    config.display().to_string()
}

#[test]
fn output_writes_through_a_symlink_and_into_a_fifo_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = run(&[
        "profiles",
        "--format",
        "json",
        "--output",
        link.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link the user named is kept"
    );
    let written: Value = serde_json::from_slice(&std::fs::read(&target).unwrap()).unwrap();
    assert!(written["profiles"].is_array());

    let fifo = dir.path().join("pipe");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    // Opened for reading first, without blocking: the output (a few KiB) waits in the pipe,
    // and a binary that never opens the FIFO fails the test instead of hanging it.
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let out = run(&["profiles", "--output", fifo.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut read = Vec::new();
    reader.read_to_end(&mut read).unwrap();
    assert!(text(&read).contains("hermes-0.16"), "{}", text(&read));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    // Nothing else was left in the folder (no temporary file).
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["link.json", "pipe", "real.json"]);
}

#[test]
fn output_keeps_a_files_mode_and_appends_to_a_stream() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.json");
    std::fs::write(&kept, "old").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = run(&["profiles", "--output", kept.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mode = std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    let new = dir.path().join("new.json");
    let out = run(&["profiles", "--output", new.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mode = std::fs::metadata(&new).unwrap().permissions().mode() & 0o777;
    assert_ne!(
        mode & 0o044,
        0,
        "a new file is readable by others as usual: {mode:o}"
    );
    // `--output /dev/stdout` into a log opened for appending keeps what the log held.
    let log = dir.path().join("ci.log");
    std::fs::write(&log, "earlier\n").unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} profiles --output /dev/stdout >> {}",
            env!("CARGO_BIN_EXE_schematax"),
            log.display()
        ))
        .status()
        .unwrap();
    assert!(status.success());
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.starts_with("earlier\n") && logged.contains("hermes-0.16"),
        "{logged}"
    );
}

#[test]
fn output_to_a_regular_file_replaces_it_whole_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("report.json");
    std::fs::write(&target, "x".repeat(100_000)).unwrap();
    let out = run(&[
        "profiles",
        "--format",
        "json",
        "--output",
        target.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written: Value = serde_json::from_slice(&std::fs::read(&target).unwrap()).unwrap();
    assert!(written["profiles"].is_array());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn check_that_measured_nothing_fails() {
    let dir = tempfile::tempdir().unwrap();
    // A config with no captures beside it.
    let lonely = dir.path().join("lonely.yaml");
    std::fs::write(&lonely, "mcp_servers:\n  fetch:\n    command: uvx\n").unwrap();
    refused(
        &run(&["check", lonely.to_str().unwrap(), "--max-tokens", "100000"]),
        "check measured nothing",
    );
    // An empty --tools folder.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    refused(
        &run(&[
            "check",
            "--tools",
            empty.to_str().unwrap(),
            "--max-tokens",
            "100000",
        ]),
        "check measured nothing",
    );
    // A config the default release refuses for a duplicate key: it connects no server.
    let twice = dir.path().join("twice");
    let config = config_with_one_capture(&twice);
    std::fs::write(
        &config,
        "mcp_servers:\n  fetch:\n    command: uvx\nmodel: a\nmodel: b\n",
    )
    .unwrap();
    let out = run(&[
        "check",
        &config,
        "--max-tokens",
        "100000",
        "--estimate-only",
    ]);
    refused(&out, "connects none of the 1 captured servers");
    assert!(
        text(&out.stderr).contains("duplicate key"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn check_shows_the_configs_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let config = config_with_one_capture(dir.path());
    std::fs::write(
        &config,
        "mcp_servers:\n  fetch:\n    command: uvx\ntools:\n  tool_search:\n    treshold_pct: 5\n",
    )
    .unwrap();
    let args = [
        "check",
        &config,
        "--max-tokens",
        "100000",
        "--estimate-only",
    ];
    let out = run(&[&args[..], &["--format", "json"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = json["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("threshold_pct")),
        "{warnings:?}"
    );
    let table = text(&run(&args).stdout);
    assert!(
        table.contains("warning: ") && table.contains("treshold_pct"),
        "{table}"
    );
}

#[test]
fn check_reads_its_numbers_as_people_write_them() {
    let ok = run(&["check", "--max-tokens", "200k", "--estimate-only"]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    refused(
        &run(&["check", "--max-tokens", "-1"]),
        "is not a number of tokens",
    );
    let tip = text(&run(&["check", "--max-tokens", "-1"]).stderr);
    assert!(!tip.contains("to pass '-1' as a value"), "{tip}");
    refused(
        &run(&["check", "--baseline", "x.json", "--max-increase", "1e308"]),
        "is not a percentage from 0 to 1,000,000",
    );
    // -0 is 0: shown as +0%, not +-0%.
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    let report = run(&["report", "--format", "json", "--estimate-only"]);
    std::fs::write(&baseline, &report.stdout).unwrap();
    let out = run(&[
        "check",
        "--baseline",
        baseline.to_str().unwrap(),
        "--max-increase",
        "-0",
        "--estimate-only",
    ]);
    let shown = text(&out.stdout);
    assert!(shown.contains("+0%") && !shown.contains("+-0"), "{shown}");
}

#[test]
fn a_huge_baseline_figure_does_not_wrap_a_tools_change() {
    let dir = tempfile::tempdir().unwrap();
    let report = run(&["report", "--format", "json", "--estimate-only"]);
    let mut json: Value = serde_json::from_slice(&report.stdout).unwrap();
    json["tools"][0]["estimate_tokens"] = Value::from(u64::MAX);
    // A change in the definition makes the tool one that changed.
    json["sent"]["tools"][0] = Value::from("{}");
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, serde_json::to_vec(&json).unwrap()).unwrap();
    let out = run(&[
        "check",
        "--baseline",
        baseline.to_str().unwrap(),
        "--max-increase",
        "10",
        "--estimate-only",
        "--format",
        "json",
    ]);
    let check: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)));
    let change = &check["tool_changes"][0];
    assert!(change["delta"].as_i64().unwrap() < 0, "{change}");
}

#[test]
fn hermes_versions_are_read_strictly_and_refused_briefly() {
    for bad in ["0.22.2.999", "0.22.2.1.1.1", "+0.+22"] {
        refused(
            &run(&["report", "--hermes", bad]),
            "is not a Hermes version",
        );
    }
    let long = "1".repeat(100_000);
    let out = run(&["report", "--hermes", &long]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.len() < 2_000,
        "{} bytes of error",
        out.stderr.len()
    );
    // A later post-release of the newest: replayed, with a word.
    let newest = schematax_releases::Profile::newest().spec().releases[0].version;
    let base = newest.split(".post").next().unwrap();
    let out = run(&[
        "report",
        "--hermes",
        &format!("{base}.post99"),
        "--estimate-only",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("post99"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn sarif_locations_are_uris_and_the_samples_total_is_its_config() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("my configs #1 100%");
    let config = config_with_one_capture(&odd);
    let out = run_in(
        dir.path(),
        &[
            "check",
            "my configs #1 100%/hermes.yaml",
            "--max-tokens",
            "1",
            "--estimate-only",
            "--format",
            "sarif",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let uris: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(
        uris.contains(&"my%20configs%20%231%20100%25/hermes.yaml"),
        "{uris:?}"
    );
    let _ = config;
    let sample = run(&[
        "check",
        "--max-tokens",
        "1",
        "--estimate-only",
        "--format",
        "sarif",
    ]);
    let sarif: Value = serde_json::from_slice(&sample.stdout).unwrap();
    assert_eq!(
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
            ["uri"],
        "samples/hermes.yaml"
    );
}

#[test]
fn a_sarif_message_puts_the_growth_beside_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let report = run(&["report", "--format", "json", "--estimate-only"]);
    let mut json: Value = serde_json::from_slice(&report.stdout).unwrap();
    json["tokens_before"] = Value::from(1_000);
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, serde_json::to_vec(&json).unwrap()).unwrap();
    let out = run(&[
        "check",
        "--baseline",
        baseline.to_str().unwrap(),
        "--max-increase",
        "10",
        "--estimate-only",
        "--format",
        "sarif",
    ]);
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = sarif["runs"][0]["results"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(
        message.contains("against the baseline's 1,000, more than the +10% allowed"),
        "{message}"
    );
}

#[test]
fn a_baseline_of_the_same_config_named_from_another_folder_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let config = config_with_one_capture(&dir.path().join("config"));
    let _ = config;
    let made = run_in(
        &dir.path().join("config"),
        &[
            "report",
            "hermes.yaml",
            "--format",
            "json",
            "--estimate-only",
        ],
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    std::fs::write(dir.path().join("config/baseline.json"), &made.stdout).unwrap();
    let out = run_in(
        dir.path(),
        &[
            "check",
            "config/hermes.yaml",
            "--baseline",
            "config/baseline.json",
            "--max-increase",
            "5",
            "--estimate-only",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Another folder's hermes.yaml is another config.
    let other = config_with_one_capture(&dir.path().join("other"));
    let out = run_in(
        dir.path(),
        &[
            "check",
            &other,
            "--baseline",
            "config/baseline.json",
            "--max-increase",
            "5",
        ],
    );
    refused(&out, "make the baseline from the same config");
}

#[test]
fn compare_refuses_a_k_of_0_and_versions_of_one_engine() {
    refused(
        &run(&["compare", "--limit", "0"]),
        "is not a k of 1 or more",
    );
    refused(
        &run(&["eval", "samples/queries.yaml", "--limit", "0"]),
        "is not a k of 1 or more",
    );
    refused(
        &run(&["compare", "--hermes", "0.18,0.19"]),
        "0.18 and 0.19 replay one engine",
    );
    let out = run(&["compare", "--hermes", "0.18,0.19,0.22"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("compared once"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn inputs_given_to_the_wrong_command_say_so() {
    let capture = repo().join("tests/data/captures/fetch.json");
    refused(
        &run(&["report", capture.to_str().unwrap()]),
        "this is not a hermes.yaml (give captures with --tools)",
    );
    refused(
        &run(&["eval", "samples/hermes.yaml"]),
        "this is a hermes.yaml, not a queries file",
    );
}

#[test]
fn report_json_gives_every_tools_real_count() {
    let counted = run(&["report", "--format", "json"]);
    let json: Value = serde_json::from_slice(&counted.stdout).unwrap();
    let tools = json["tools"].as_array().unwrap();
    let sum: u64 = tools.iter().map(|t| t["tokens"].as_u64().unwrap()).sum();
    let servers: u64 = json["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["tokens"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, servers, "the tools' counts add up to the servers'");
    let estimated = run(&["report", "--format", "json", "--estimate-only"]);
    let json: Value = serde_json::from_slice(&estimated.stdout).unwrap();
    assert!(json["tools"][0]["tokens"].is_null());
}

#[test]
fn a_gate_on_a_word_in_no_tool_is_worded_without_impossible_counts() {
    let out = run(&[
        "search",
        "zzzqx firecrawl",
        "--hermes",
        common::newest_version(),
    ]);
    let shown = text(&out.stdout);
    assert!(!shown.contains("of the 0"), "{shown}");
}

#[test]
fn every_command_says_what_the_config_got_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let config = config_with_one_capture(dir.path());
    std::fs::write(
        &config,
        "mcp_servers:\n  fetch:\n    command: uvx\ntools:\n  tool_search:\n    treshold_pct: 5\n",
    )
    .unwrap();
    for command in [
        &["lint", &config][..],
        &["search", "fetch a url", "--config", &config],
        &["describe", "fetch", "--config", &config],
        &["sweep", &config],
        &["card", &config],
        &["compare", &config],
        &["eval", "samples/queries.yaml", "--config", &config],
    ] {
        let out = run(command);
        let err = text(&out.stderr);
        assert!(
            err.contains("warning: ") && err.contains("treshold_pct"),
            "{command:?}: {err}"
        );
    }
}
