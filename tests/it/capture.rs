//! `schematax capture` against the project's fixture MCP server (every fault it must survive)
//! and against real published servers installed by scripts/test from tests/mcp-servers.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Python interpreter itself (not a shim script, which would add variables of its own).
fn python() -> String {
    static PYTHON: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let out = Command::new("python3")
                .args(["-c", "import sys; print(sys.executable)"])
                .output();
            let out = out.expect("python3 runs the fixture server");
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        })
        .clone()
}

fn fixture() -> String {
    manifest()
        .join("tests/fixtures/mcp_fixture.py")
        .display()
        .to_string()
}

/// A published server's bin, installed by scripts/test (`npm ci` in tests/mcp-servers).
fn npm_bin(name: &str) -> String {
    let path = manifest()
        .join("tests/mcp-servers/node_modules/.bin")
        .join(name);
    assert!(
        path.exists(),
        "{} is missing: run scripts/test, which installs tests/mcp-servers",
        path.display()
    );
    path.display().to_string()
}

fn schematax(args: &[&str], envs: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(args)
        .envs(envs.iter().copied())
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(
        &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

fn tool_names(capture: &Value) -> Vec<String> {
    capture["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_fault_gets_one_line_and_the_others_are_captured() {
    let dir = tempfile::tempdir().unwrap();
    let modes = [
        "normal",
        "old-version",
        "garbage",
        "server-requests",
        "stderr-flood",
        "exit-early",
        "error",
        "huge",
        "cursor-loop",
        "endless",
    ];
    let mut yaml = String::from("mcp_servers:\n");
    for mode in modes {
        yaml.push_str(&format!(
            "  fx-{mode}:\n    command: {:?}\n    args: [{:?}, {mode}]\n",
            python(),
            fixture()
        ));
    }
    yaml.push_str("  fx-missing:\n    command: /no/such/mcp-server\n");
    yaml.push_str("  fx-off:\n    command: python3\n    enabled: false\n");
    let config = dir.path().join("hermes.yaml");
    std::fs::write(&config, yaml).unwrap();
    // No server here needs the timeout to fail: a generous one keeps a busy machine from
    // failing a good server.
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "120"],
        &[],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "some failed: {stdout}");
    let line = |server: &str| -> String {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("{server}:")))
            .unwrap_or_else(|| panic!("{server} missing:\n{stdout}"))
            .to_string()
    };
    for good in [
        "fx-normal",
        "fx-old-version",
        "fx-garbage",
        "fx-server-requests",
        "fx-stderr-flood",
    ] {
        assert!(line(good).contains(": 3 tools,"), "{}", line(good));
        let capture = read_json(&dir.path().join(format!("tools/{good}.json")));
        assert_eq!(
            tool_names(&capture),
            ["search_items", "get_item", "delete_item"],
            "both pages of {good}"
        );
        assert_eq!(capture["server"], good);
        assert_eq!(capture["serverInfo"]["name"], "fixture");
        assert!(capture["capturedAt"].as_str().unwrap().ends_with('Z'));
    }
    assert_eq!(
        read_json(&dir.path().join("tools/fx-old-version.json"))["protocolVersion"],
        "2024-11-05"
    );
    assert!(
        stdout.contains("note: skipped 5 non-JSON line(s) on stdout"),
        "{stdout}"
    );
    let failures = [
        (
            "fx-exit-early",
            "server exited before answering (exit status 3): fatal: cannot reach the backend",
        ),
        (
            "fx-error",
            "server answered tools/list with error -32603: backend unavailable",
        ),
        ("fx-huge", "a message over 16 MiB"),
        ("fx-cursor-loop", "tools/list repeated the cursor \"same\""),
        (
            "fx-endless",
            "tools/list gave more than 1000 pages; stopped",
        ),
        ("fx-missing", "command not found: /no/such/mcp-server"),
    ];
    for (server, reason) in failures {
        let line = line(server);
        assert!(line.contains("FAILED") && line.contains(reason), "{line}");
        assert!(!dir.path().join(format!("tools/{server}.json")).exists());
    }
    assert!(
        !stdout.contains("fx-off"),
        "disabled servers are not captured"
    );
    // The flood is capped in the log; no temporary file is left behind.
    let log = std::fs::metadata(dir.path().join("tools/fx-stderr-flood.stderr.log"))
        .unwrap()
        .len();
    assert!(log < 1_100_000, "log of {log} bytes");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("tools"))
        .unwrap()
        .filter_map(std::result::Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // The captures load as they are.
    let report = schematax(
        &[
            "report",
            config.to_str().unwrap(),
            "--format",
            "json",
            "--estimate-only",
        ],
        &[],
    );
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["deferrable_tools"], 15);
}

#[test]
fn servers_that_never_answer_time_out_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let mut yaml = String::from("mcp_servers:\n");
    for (name, mode) in [
        ("fx-silent", "silent"),
        ("fx-silent-2", "silent"),
        ("fx-garbage-only", "garbage-only"),
    ] {
        yaml.push_str(&format!(
            "  {name}:\n    command: {:?}\n    args: [{:?}, {mode}]\n",
            python(),
            fixture()
        ));
    }
    let config = dir.path().join("hermes.yaml");
    std::fs::write(&config, yaml).unwrap();
    let started = Instant::now();
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "5"],
        &[],
    );
    // One after the other would take 15 s at least.
    assert!(
        started.elapsed() < Duration::from_secs(14),
        "servers are captured side by side"
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    for (server, reason) in [
        (
            "fx-silent",
            "not done within the --timeout of 5 s for the whole capture (while waiting for initialize)",
        ),
        (
            "fx-silent-2",
            "not done within the --timeout of 5 s for the whole capture (while waiting for initialize)",
        ),
        (
            "fx-garbage-only",
            "non-JSON lines on stdout, last: \"still starting...\"",
        ),
    ] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{server}:")))
            .unwrap_or_else(|| panic!("{server} missing:\n{stdout}"));
        assert!(line.contains("FAILED") && line.contains(reason), "{line}");
    }
}

#[test]
fn the_environment_is_a_baseline_and_secrets_stay_secret() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "sk-test-4242424242";
    let config = dir.path().join("hermes.yaml");
    std::fs::write(
        &config,
        format!(
            "mcp_servers:\n  fx-env:\n    command: {:?}\n    args: [{:?}, env]\n    env:\n      SECRET_TOKEN: \"${{SCHEMATAX_TEST_SECRET}}\"\n      PLAIN: plain\n",
            python(),
            fixture()
        ),
    )
    .unwrap();
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "10"],
        &[
            ("SCHEMATAX_TEST_SECRET", secret),
            ("SCHEMATAX_LEAK_CANARY", "not-for-servers"),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let capture_text = std::fs::read_to_string(dir.path().join("tools/fx-env.json")).unwrap();
    let capture: Value = serde_json::from_str(&capture_text).unwrap();
    let names = capture["tools"][0]["description"]
        .as_str()
        .unwrap()
        .trim_start_matches("env: ")
        .to_string();
    let allowed = [
        "PATH",
        "HOME",
        "USER",
        "LANG",
        "LC_ALL",
        "TERM",
        "SHELL",
        "TMPDIR",
        "SECRET_TOKEN",
        "PLAIN",
        "LC_CTYPE",
    ];
    for name in names.split(',') {
        assert!(
            allowed.contains(&name),
            "{name} leaked into the server's environment ({names})"
        );
    }
    assert!(
        names.contains("SECRET_TOKEN") && names.contains("PLAIN"),
        "{names}"
    );
    let log = std::fs::read_to_string(dir.path().join("tools/fx-env.stderr.log")).unwrap();
    assert!(log.contains("token is ***"), "{log}");
    for place in [&capture_text, &log, &text(&out.stdout), &text(&out.stderr)] {
        assert!(!place.contains(secret));
    }
}

#[test]
fn the_whole_process_group_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("grandchild.pid");
    let out = schematax(
        &[
            "capture",
            "--out",
            dir.path().to_str().unwrap(),
            "--timeout",
            "10",
            "--name",
            "fx",
            "--",
            &python(),
            &fixture(),
            "grandchild",
            pid_file.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .expect("the fixture wrote its grandchild's pid before the capture gave up")
        .trim()
        .parse()
        .expect("a pid");
    assert!(!alive(pid), "grandchild {pid} outlived the capture");
}

/// Whether a process exists and is not a zombie, once it has had time to go (generous: only a
/// process that stays makes this wait).
fn alive(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok();
        let running = state.is_some_and(|s| s.split_whitespace().nth(2).is_none_or(|st| st != "Z"));
        if !running || Instant::now() > deadline {
            return running;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn sigint_sigterm_and_sighup_kill_the_servers() {
    for (signal, code) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("grandchild.pid");
        let mut child = Command::new(env!("CARGO_BIN_EXE_schematax"))
            .args([
                "capture",
                "--out",
                dir.path().to_str().unwrap(),
                "--timeout",
                "600",
                "--name",
                "fx",
                "--",
                &python(),
                &fixture(),
                "grandchild",
                pid_file.to_str().unwrap(),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while !pid_file.exists() || std::fs::read_to_string(&pid_file).unwrap().is_empty() {
            assert!(Instant::now() < deadline, "the fixture did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let pid: i32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SAFETY: sending a signal to our own child process.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let sent = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                sent.elapsed() < Duration::from_secs(3),
                "signal {signal}: the capture did not exit within 3 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(code), "signal {signal}");
        assert!(
            !alive(pid),
            "signal {signal}: server {pid} outlived the capture"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().contains(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

#[test]
fn replacing_a_capture_says_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let args = [
        "capture",
        "--out",
        out_dir,
        "--name",
        "fx",
        "--timeout",
        "10",
        "--",
        &python(),
        &fixture(),
        "normal",
    ];
    assert!(text(&schematax(&args, &[]).stdout).contains("[new]"));
    let first = std::fs::read(dir.path().join("fx.json")).unwrap();
    assert!(text(&schematax(&args, &[]).stdout).contains("[unchanged]"));
    assert_eq!(
        std::fs::read(dir.path().join("fx.json")).unwrap(),
        first,
        "an unchanged capture is not rewritten (its capturedAt included)"
    );
    // Edit the earlier capture: drop a tool and change one.
    let path = dir.path().join("fx.json");
    let mut capture = read_json(&path);
    let tools = capture["tools"].as_array_mut().unwrap();
    tools.pop();
    tools[0]["description"] = Value::from("Old wording.");
    tools.push(serde_json::json!({"name": "legacy_tool", "description": "Gone now."}));
    std::fs::write(&path, serde_json::to_string(&capture).unwrap()).unwrap();
    let stdout = text(&schematax(&args, &[]).stdout);
    assert!(stdout.contains("+1 added (delete_item)"), "{stdout}");
    assert!(stdout.contains("-1 removed (legacy_tool)"), "{stdout}");
    assert!(stdout.contains("1 changed (search_items)"), "{stdout}");
    assert!(stdout.contains(" tokens]"), "{stdout}");
}

#[test]
fn client_configs_of_claude_cursor_and_vs_code() {
    let dir = tempfile::tempdir().unwrap();
    let claude = dir.path().join("claude_desktop_config.json");
    std::fs::write(
        &claude,
        format!(
            r#"{{"mcpServers": {{"fx-claude": {{"command": {:?}, "args": [{:?}, "normal"]}}}}}}"#,
            python(),
            fixture()
        ),
    )
    .unwrap();
    let vscode = dir.path().join("mcp.json");
    std::fs::write(&vscode, format!(r#"{{"servers": {{"fx-vscode": {{"type": "stdio", "command": {:?}, "args": [{:?}, "normal"]}}}}}}"#, python(), fixture())).unwrap();
    let out_dir = dir.path().join("captures");
    let out = schematax(
        &[
            "capture",
            "--client-config",
            claude.to_str().unwrap(),
            "--client-config",
            vscode.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(out_dir.join("fx-claude.json").exists() && out_dir.join("fx-vscode.json").exists());
}

#[test]
fn client_configs_of_codex_and_gemini_cli() {
    let dir = tempfile::tempdir().unwrap();
    // Codex: a relative script found through `cwd`, and a server switched off.
    let codex = dir.path().join("config.toml");
    std::fs::write(
        &codex,
        format!(
            "model = \"gpt-5.5\"\n\n[mcp_servers.fx-codex]\ncommand = {:?}\nargs = [\"mcp_fixture.py\", \"normal\"]\ncwd = {:?}\n\n[mcp_servers.fx-codex-off]\ncommand = {:?}\nargs = [{:?}, \"normal\"]\nenabled = false\n",
            python(),
            manifest().join("tests/fixtures").display().to_string(),
            python(),
            fixture()
        ),
    )
    .unwrap();
    // Gemini CLI: a bare `$VAR` filled, and a server left out by `mcp.excluded`.
    std::fs::create_dir(dir.path().join(".gemini")).unwrap();
    let gemini = dir.path().join(".gemini/settings.json");
    std::fs::write(
        &gemini,
        format!(
            r#"{{"mcp": {{"excluded": ["fx-gemini-off"]}}, "mcpServers": {{"fx-gemini": {{"command": {:?}, "args": [{:?}, "echo-arg", "$SCHEMATAX_TEST_ARG"], "includeTools": ["echo"]}}, "fx-gemini-off": {{"command": {:?}, "args": [{:?}, "normal"]}}}}}}"#,
            python(),
            fixture(),
            python(),
            fixture()
        ),
    )
    .unwrap();
    let out_dir = dir.path().join("captures");
    let out = schematax(
        &[
            "capture",
            "--client-config",
            codex.to_str().unwrap(),
            "--client-config",
            gemini.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
        &[("SCHEMATAX_TEST_ARG", "filled-in-value")],
    );
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let captured: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(captured, ["fx-codex.json", "fx-gemini.json"]);
    assert_eq!(
        tool_names(&read_json(&out_dir.join("fx-codex.json"))),
        ["search_items", "get_item", "delete_item"]
    );
    // The value reached the server (and, being from the environment, is masked in the file).
    let gemini_capture = read_json(&out_dir.join("fx-gemini.json"));
    assert_eq!(
        gemini_capture["tools"][0]["description"],
        "Uses *** for you."
    );
    // `--server` picks a server switched off, as in any config.
    let out = schematax(
        &[
            "capture",
            "--client-config",
            codex.to_str().unwrap(),
            "--server",
            "fx-codex-off",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(out_dir.join("fx-codex-off.json").exists());
}

#[test]
fn a_bad_client_config_is_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "config.toml",
            "[mcp_servers.a]\ncommand = \"x\"\nargs = \"x\"\n",
            "server \"a\": args: expected a list of strings",
        ),
        (
            "settings.json",
            r#"{"mcpServers": {"a": {"command": "x", "includeTools": "t"}}}"#,
            "server \"a\": includeTools: expected a list of strings",
        ),
        (
            "empty.toml",
            "",
            "no `[mcp_servers.NAME]` tables (Codex config.toml)",
        ),
    ];
    for (name, contents, reason) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, contents).unwrap();
        let out = schematax(&["capture", "--client-config", path.to_str().unwrap()], &[]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert_eq!(
            text(&out.stderr),
            format!("schematax: error: {}: {reason}\n", path.display()),
            "{name}"
        );
    }
}

#[test]
fn usage_errors() {
    let out = schematax(&["capture"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nothing to capture"));
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("hermes.yaml");
    std::fs::write(&config, "mcp_servers:\n  a: {command: x}\n").unwrap();
    let out = schematax(&["capture", config.to_str().unwrap(), "--server", "b"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no server \"b\" in mcp_servers"));
    let out = schematax(&["capture", "--name", "x"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let out = schematax(&["capture", "--server", "b"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--server needs a CONFIG or --client-config"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn real_servers_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("files");
    std::fs::create_dir(&root).unwrap();
    let config = dir.path().join("hermes.yaml");
    std::fs::write(
        &config,
        format!(
            "mcp_servers:\n  everything:\n    command: {:?}\n    args: [stdio]\n  filesystem:\n    command: {:?}\n    args: [{:?}]\n  memory:\n    command: {:?}\n  sequential-thinking:\n    command: {:?}\n",
            npm_bin("mcp-server-everything"),
            npm_bin("mcp-server-filesystem"),
            root.display().to_string(),
            npm_bin("mcp-server-memory"),
            npm_bin("mcp-server-sequential-thinking"),
        ),
    )
    .unwrap();
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "60"],
        &[],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let expect = [
        ("everything", "echo"),
        ("filesystem", "read_text_file"),
        ("memory", "create_entities"),
        ("sequential-thinking", "sequentialthinking"),
    ];
    for (server, tool) in expect {
        let capture = read_json(&dir.path().join(format!("tools/{server}.json")));
        assert!(
            tool_names(&capture).iter().any(|t| t == tool),
            "{server}: {:?}",
            tool_names(&capture)
        );
        assert!(!capture["protocolVersion"].as_str().unwrap().is_empty());
    }
    // What other agents read: the server's instructions and its tools' titles.
    let everything = read_json(&dir.path().join("tools/everything.json"));
    let instructions = everything["instructions"].as_str().unwrap_or_default();
    assert!(
        instructions.starts_with("# Everything Server"),
        "{instructions:?}"
    );
    assert_eq!(everything["tools"][0]["title"], "Echo Tool");
}

#[test]
fn real_server_over_streamable_http() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut server = Command::new(npm_bin("mcp-server-everything"))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the HTTP server did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let dir = tempfile::tempdir().unwrap();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let out = schematax(
        &[
            "capture",
            "--out",
            dir.path().to_str().unwrap(),
            "--name",
            "everything-http",
            "--url",
            &url,
            "--timeout",
            "30",
        ],
        &[],
    );
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let capture = read_json(&dir.path().join("everything-http.json"));
    assert!(
        tool_names(&capture).iter().any(|t| t == "echo"),
        "{:?}",
        tool_names(&capture)
    );
}

#[test]
fn recaptured_puppeteer_matches_the_shared_capture() {
    let dir = tempfile::tempdir().unwrap();
    let out = schematax(
        &[
            "capture",
            "--out",
            dir.path().to_str().unwrap(),
            "--name",
            "puppeteer",
            "--timeout",
            "60",
            "--",
            &npm_bin("mcp-server-puppeteer"),
        ],
        &[("PUPPETEER_SKIP_DOWNLOAD", "1")],
    );
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let ours = read_json(&dir.path().join("puppeteer.json"));
    let shared = read_json(&manifest().join("tests/data/captures/puppeteer.json"));
    assert_eq!(ours["tools"], shared["tools"]);
}

/// A config of one fixture server in `mode`, with `env` lines under it.
fn fixture_config(dir: &Path, name: &str, mode: &str, env: &str) -> PathBuf {
    let config = dir.join("hermes.yaml");
    std::fs::write(
        &config,
        format!(
            "mcp_servers:\n  {name}:\n    command: {:?}\n    args: [{:?}, {mode}]\n{env}",
            python(),
            fixture()
        ),
    )
    .unwrap();
    config
}

/// The one line `capture` printed for `server`.
fn line_of(stdout: &str, server: &str) -> String {
    stdout
        .lines()
        .find(|l| l.starts_with(&format!("{server}:")))
        .unwrap_or_else(|| panic!("{server} missing:\n{stdout}"))
        .to_string()
}

#[test]
fn a_flooding_server_cannot_hold_the_capture_past_its_deadline_or_its_size() {
    // Notifications without end, pings without end (never reading the answers), and pages of
    // 10 MiB without end: each ends in one line, within the deadline or the 64 MiB limit. The
    // pages are given all the time they need, so that it is the limit that ends them even on a
    // busy machine.
    for (mode, timeout, reason) in [
        ("flood-notes", "3", None),
        ("flood-pings", "3", None),
        ("big-pages", "600", Some("the server sent over 64 MiB")),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let config = fixture_config(dir.path(), "fx", mode, "");
        let started = Instant::now();
        let out = schematax(
            &["capture", config.to_str().unwrap(), "--timeout", timeout],
            &[],
        );
        // Without the fixes these runs never end; this bound is far above the 3 s deadline
        // (and the pages' 64 MiB are read in seconds).
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{mode}: {:?}",
            started.elapsed()
        );
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{mode}: {stdout}");
        let line = line_of(&stdout, "fx");
        assert!(line.contains("FAILED"), "{mode}: {line}");
        if let Some(reason) = reason {
            assert!(line.contains(reason), "{mode}: {line}");
        }
        assert!(!dir.path().join("tools/fx.json").exists(), "{mode}");
    }
}

#[test]
fn a_server_echoing_a_secret_does_not_get_it_written() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "sk-echo-9191919191";
    let config = fixture_config(
        dir.path(),
        "fx-echo",
        "echo-secret",
        "    env:\n      SECRET_TOKEN: \"${SCHEMATAX_TEST_SECRET}\"\n",
    );
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "10"],
        &[("SCHEMATAX_TEST_SECRET", secret)],
    );
    assert!(out.status.success(), "{}", text(&out.stdout));
    let written = std::fs::read_to_string(dir.path().join("tools/fx-echo.json")).unwrap();
    assert!(!written.contains(secret), "{written}");
    let capture: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(capture["serverInfo"]["name"], "fixture for ***");
    assert_eq!(tool_names(&capture), ["get_***"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("masked as ***"), "{stdout}");
    assert!(!stdout.contains(secret) && !text(&out.stderr).contains(secret));
    // A secret passed as an argument is a secret too.
    let config = dir.path().join("args.yaml");
    std::fs::write(
        &config,
        format!(
            "mcp_servers:\n  fx-arg:\n    command: {:?}\n    args: [{:?}, echo-arg, \"--key=${{SCHEMATAX_TEST_SECRET}}\"]\n",
            python(),
            fixture()
        ),
    )
    .unwrap();
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "10"],
        &[("SCHEMATAX_TEST_SECRET", secret)],
    );
    assert!(out.status.success(), "{}", text(&out.stdout));
    let written = std::fs::read_to_string(dir.path().join("tools/fx-arg.json")).unwrap();
    assert!(written.contains("Uses --key=*** for you."), "{written}");
}

#[test]
fn instructions_titles_and_meta_are_written_and_read_back() {
    use schematax_engine::inputs::capture_file::load_file;
    use schematax_engine::nouns::tools::ToolMeta;
    let dir = tempfile::tempdir().unwrap();
    let secret = "sk-instructions-5151515151";
    let config = fixture_config(
        dir.path(),
        "fx-agents",
        "agent-fields",
        "    env:\n      SECRET_TOKEN: \"${SCHEMATAX_TEST_SECRET}\"\n",
    );
    let envs = [("SCHEMATAX_TEST_SECRET", secret)];
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "10"],
        &envs,
    );
    assert!(out.status.success(), "{}", text(&out.stdout));
    let path = dir.path().join("tools/fx-agents.json");
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(!written.contains(secret), "{written}");
    let raw: Value = serde_json::from_str(&written).unwrap();
    let instructions = "Search the catalog before you fetch an item.\nYour key is ***.";
    assert_eq!(raw["instructions"], instructions);
    // The tools as the server sent them: title and the whole _meta.
    assert_eq!(raw["tools"][0]["title"], "Search items");
    assert_eq!(
        raw["tools"][0]["_meta"],
        serde_json::json!({"anthropic/alwaysLoad": true, "anthropic/searchHint": "catalog lookup",
                           "ui": {"visibility": ["app"]}, "vendor/extra": {"n": 1}})
    );
    // And back through the loader every command uses.
    let capture = load_file(&path).unwrap();
    assert_eq!(capture.instructions.as_deref(), Some(instructions));
    assert_eq!(capture.tools[0].title.as_deref(), Some("Search items"));
    assert_eq!(
        capture.tools[0].meta,
        ToolMeta {
            always_load: Some(true),
            search_hint: Some("catalog lookup".into()),
            hidden_from_model: true,
        }
    );
    assert_eq!(capture.tools[1].title, None);
    assert_eq!(capture.tools[1].meta.always_load, Some(false));

    // New instructions with the same tools are written (the tools are unchanged).
    std::fs::write(
        &config,
        format!(
            "mcp_servers:\n  fx-agents:\n    command: {:?}\n    args: [{:?}, agent-fields, \"Be brief.\"]\n",
            python(),
            fixture()
        ),
    )
    .unwrap();
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "10"],
        &[],
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("[unchanged]"), "{stdout}");
    assert!(
        stdout.contains("\n  note: the server's instructions changed\n"),
        "{stdout}"
    );
    assert_eq!(
        load_file(&path).unwrap().instructions.as_deref(),
        Some("Search the catalog before you fetch an item.\nYour key is . Be brief.")
    );

    // Older captures, without any of these, load as before.
    let old = load_file(&manifest().join("tests/data/captures/puppeteer.json")).unwrap();
    assert_eq!(old.instructions, None);
    assert!(old.tools.iter().all(|t| t.meta == ToolMeta::default()));
}

#[test]
fn instructions_over_64_kib_are_cut_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let config = fixture_config(dir.path(), "fx-long", "long-instructions", "");
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "10"],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains(
            "  note: the server's instructions are 80.0 KiB: cut to the first 64.0 KiB kept in the capture"
        ),
        "{}",
        text(&out.stdout)
    );
    let capture = read_json(&dir.path().join("tools/fx-long.json"));
    assert_eq!(capture["instructions"], "i".repeat(64 * 1024));
}

#[test]
fn servers_whose_files_would_clash_are_not_both_written() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("hermes.yaml");
    let entry = |name: &str| {
        format!(
            "  {name:?}:\n    command: {:?}\n    args: [{:?}, normal]\n",
            python(),
            fixture()
        )
    };
    std::fs::write(
        &config,
        format!("mcp_servers:\n{}{}", entry("a/b"), entry("a_b")),
    )
    .unwrap();
    let out = schematax(&["capture", config.to_str().unwrap()], &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(line_of(&stdout, "a/b").contains("a_b.json"), "{stdout}");
    let clash = line_of(&stdout, "a_b");
    assert!(
        clash.contains("FAILED") && clash.contains("would replace that of server \"a/b\""),
        "{clash}"
    );
    assert_eq!(
        read_json(&dir.path().join("tools/a_b.json"))["server"],
        "a/b"
    );
    // Each server is reported once: the summary on stdout, nothing more when stderr is not a
    // terminal.
    assert!(!text(&out.stderr).contains("a_b"), "{}", text(&out.stderr));
}

/// The HTTP fixture server in `mode`: its port, and the process (killed on drop).
struct HttpFixture {
    child: std::process::Child,
    port: u16,
}

impl HttpFixture {
    fn start(args: &[&str]) -> HttpFixture {
        use std::io::BufRead;
        let mut child = Command::new(python())
            .arg(manifest().join("tests/fixtures/http_fixture.py"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python3 runs the HTTP fixture");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().expect("the fixture prints its port");
        HttpFixture { child, port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

impl Drop for HttpFixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Captures `url` with a secret header, in a fresh folder: the output and the folder.
fn capture_url(url: &str, timeout: &str) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("hermes.yaml");
    std::fs::write(
        &config,
        format!(
            "mcp_servers:\n  web:\n    url: {url:?}\n    headers:\n      X-Api-Key: sk-header-5151515151\n      Authorization: Bearer sk-auth-5151515151\n"
        ),
    )
    .unwrap();
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", timeout],
        &[],
    );
    (out, dir)
}

#[test]
fn configured_headers_never_follow_a_redirect_to_another_origin() {
    let record = tempfile::NamedTempFile::new().unwrap();
    let server = HttpFixture::start(&["redirect-away", record.path().to_str().unwrap()]);
    let (out, dir) = capture_url(&server.url(), "10");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        line_of(&stdout, "web").contains("redirected to another origin"),
        "{stdout}"
    );
    // The other origin was never asked, so it saw neither header.
    let seen = std::fs::read_to_string(record.path()).unwrap();
    assert!(!seen.contains("sk-"), "{seen}");
    // A failed capture leaves no folder behind.
    assert!(!dir.path().join("tools").exists());
}

#[test]
fn a_redirect_within_the_origin_is_followed_and_an_open_stream_is_not_waited_on() {
    for mode in ["redirect-here", "sse-open"] {
        let server = HttpFixture::start(&[mode]);
        let started = Instant::now();
        let (out, dir) = capture_url(&server.url(), "20");
        assert!(out.status.success(), "{mode}: {}", text(&out.stdout));
        assert_eq!(
            tool_names(&read_json(&dir.path().join("tools/web.json"))),
            ["one", "two"]
        );
        // The open stream holds 60 s; the capture reads the answer and goes on.
        assert!(started.elapsed() < Duration::from_secs(20), "{mode}");
    }
}

#[test]
fn the_timeout_bounds_a_whole_http_capture() {
    let server = HttpFixture::start(&["endless"]);
    let started = Instant::now();
    let (out, _dir) = capture_url(&server.url(), "2");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    // 1,000 pages of 50 ms would take 50 s; the whole capture has 2.
    assert!(started.elapsed() < Duration::from_secs(30), "{stdout}");
    assert!(
        line_of(&stdout, "web").contains("for the whole capture"),
        "{stdout}"
    );
}

#[test]
fn a_secret_across_the_64_kib_cut_of_a_stderr_line_is_masked() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "sk-split-ABCDEFGHIJ-0123456789";
    let config = fixture_config(
        dir.path(),
        "fx",
        "stderr-split",
        "    env:\n      SECRET_TOKEN: \"${SCHEMATAX_TEST_SECRET}\"\n",
    );
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "60"],
        &[("SCHEMATAX_TEST_SECRET", secret)],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = line_of(&stdout, "fx");
    assert!(
        line.contains("(exit status 3): x") && line.contains("x*** tail (while waiting for"),
        "{line}"
    );
    let log = std::fs::read_to_string(dir.path().join("tools/fx.stderr.log")).unwrap();
    assert!(log.ends_with("x*** tail\n"), "{}", &log[log.len() - 80..]);
    // Neither half of the secret, on either side of the cut, is anywhere.
    let (head, tail) = secret.split_at(secret.len() / 2);
    for place in [&log, &stdout, &text(&out.stderr)] {
        assert!(!place.contains(head) && !place.contains(tail));
    }
}

#[test]
fn the_stderr_log_is_never_written_through_a_link_planted_in_out() {
    for planted in ["symbolic link", "hard link to another file"] {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "precious\n").unwrap();
        let out_dir = dir.path().join("out");
        std::fs::create_dir(&out_dir).unwrap();
        let log = out_dir.join("fx.stderr.log");
        if planted == "symbolic link" {
            std::os::unix::fs::symlink(&victim, &log).unwrap();
        } else {
            std::fs::hard_link(&victim, &log).unwrap();
        }
        // The env fixture writes a line to stderr, then answers.
        let out = schematax(
            &[
                "capture",
                "--out",
                out_dir.to_str().unwrap(),
                "--timeout",
                "60",
                "--name",
                "fx",
                "--",
                &python(),
                &fixture(),
                "env",
            ],
            &[],
        );
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{planted}: {stdout}");
        let line = line_of(&stdout, "fx");
        assert!(
            line.contains("FAILED")
                && line.contains(&format!("fx.stderr.log is a {planted}"))
                && line.contains("remove it or choose another --out"),
            "{line}"
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
        assert_eq!(
            std::fs::symlink_metadata(&log)
                .unwrap()
                .file_type()
                .is_symlink(),
            planted == "symbolic link"
        );
    }
}

/// Runs the binary and returns its output and its peak resident memory in bytes (that of its
/// largest process: schematax, or a fixture server it started).
///
/// A small Python process forks and waits for it: Linux carries the high-water mark of the
/// memory a process `exec`s from into the new program's `ru_maxrss`, and a child spawned
/// straight from this test binary (whose other tests may hold hundreds of MiB) would report
/// that instead of its own.
fn schematax_peak(args: &[&str]) -> (Output, u64) {
    use std::os::unix::process::ExitStatusExt;
    const WAITER: &str = "import os, sys\npid = os.fork()\nif pid == 0:\n    os.execv(sys.argv[2], sys.argv[2:])\n_, status, usage = os.wait4(pid, 0)\nopen(sys.argv[1], 'w').write('%d %d' % (status, usage.ru_maxrss))\n";
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("usage");
    let out = Command::new("python3")
        .args(["-c", WAITER])
        .arg(&report)
        .arg(env!("CARGO_BIN_EXE_schematax"))
        .args(args)
        .output()
        .expect("python3 runs the binary");
    let usage = std::fs::read_to_string(&report).expect("the waiter wrote the usage");
    let (status, maxrss) = usage.split_once(' ').unwrap();
    let output = Output {
        status: std::process::ExitStatus::from_raw(status.parse().unwrap()),
        ..out
    };
    // ru_maxrss is in KiB on Linux.
    (output, maxrss.parse::<u64>().unwrap() * 1024)
}

#[test]
fn a_message_that_would_cost_gigabytes_to_parse_is_refused_as_it_is_read() {
    const PEAK: u64 = 400 * 1024 * 1024;
    // On stdio: one message of 60 MB, and pages of small objects without end (each page well
    // under the message limit, together past what parsing may hold).
    for (mode, reason) in [
        ("big-array", "a message over 16 MiB"),
        ("object-pages", "the server sent over 500,000 JSON values"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let config = fixture_config(dir.path(), "fx", mode, "");
        let (out, peak) =
            schematax_peak(&["capture", config.to_str().unwrap(), "--timeout", "300"]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{mode}: {stdout}");
        let line = line_of(&stdout, "fx");
        assert!(line.contains("FAILED") && line.contains(reason), "{line}");
        assert!(peak < PEAK, "{mode}: peak of {} MiB", peak >> 20);
    }
    // Over HTTP: an answer body of 60 MB.
    let server = HttpFixture::start(&["big-array"]);
    let dir = tempfile::tempdir().unwrap();
    let (out, peak) = schematax_peak(&[
        "capture",
        "--out",
        dir.path().to_str().unwrap(),
        "--timeout",
        "300",
        "--name",
        "web",
        "--url",
        &server.url(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = line_of(&stdout, "web");
    assert!(
        line.contains("FAILED") && line.contains("a message over 16 MiB"),
        "{line}"
    );
    assert!(peak < PEAK, "http: peak of {} MiB", peak >> 20);
}

#[test]
fn names_equal_once_masked_are_kept_apart_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "sk-collide-8080808080";
    let config = fixture_config(
        dir.path(),
        "fx",
        "mask-collide",
        "    env:\n      SECRET_TOKEN: \"${SCHEMATAX_TEST_SECRET}\"\n",
    );
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "60"],
        &[("SCHEMATAX_TEST_SECRET", secret)],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let written = std::fs::read_to_string(dir.path().join("tools/fx.json")).unwrap();
    assert!(!written.contains(secret) && !stdout.contains(secret));
    let capture: Value = serde_json::from_str(&written).unwrap();
    // The plain names keep theirs; the masked ones get names of their own.
    assert_eq!(tool_names(&capture), ["t_***_2", "t_***", "params"]);
    let schema = &capture["tools"][2]["inputSchema"];
    let keys: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["key_***_2", "key_***"]);
    assert_eq!(
        schema["required"],
        serde_json::json!(["key_***_2", "key_***"])
    );
    assert_eq!(capture["tools"][0]["description"], "Masked.");
    for note in [
        "note: tool t_*** equals another tool's name once masked; kept as t_***_2",
        "note: tool params: key key_*** equals another key once masked; kept as key_***_2",
    ] {
        assert!(stdout.contains(note), "{stdout}");
    }
    assert!(stdout.contains("fx: 3 tools,"), "{stdout}");
}

#[test]
fn a_server_request_on_a_tools_list_stream_is_answered_there() {
    // The server sends roots/list on the stream of tools/list and the tools only once it is
    // answered: unanswered, the capture would wait out its timeout and fail.
    let server = HttpFixture::start(&["sse-request"]);
    let (out, dir) = capture_url(&server.url(), "60");
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(
        tool_names(&read_json(&dir.path().join("tools/web.json"))),
        ["after_roots"]
    );
}

#[test]
fn server_picks_among_the_servers_of_a_client_config() {
    let dir = tempfile::tempdir().unwrap();
    let entry = |mode: &str| {
        format!(
            r#"{{"command": {:?}, "args": [{:?}, {mode:?}]}}"#,
            python(),
            fixture()
        )
    };
    let claude = dir.path().join("claude_desktop_config.json");
    std::fs::write(
        &claude,
        format!(
            r#"{{"mcpServers": {{"fx-a": {}, "fx-b": {}}}}}"#,
            entry("exit-early"),
            entry("normal")
        ),
    )
    .unwrap();
    let out_dir = dir.path().join("captures");
    let args = |server: &'static str| {
        vec![
            "capture".to_string(),
            "--client-config".into(),
            claude.display().to_string(),
            "--server".into(),
            server.into(),
            "--out".into(),
            out_dir.display().to_string(),
        ]
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        schematax(&args, &[])
    };
    let out = run(args("fx-b"));
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(out_dir.join("fx-b.json").exists());
    assert!(!text(&out.stdout).contains("fx-a"), "{}", text(&out.stdout));
    // A name no source has is one line, exit 2.
    let out = run(args("fx-c"));
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no server \"fx-c\" in ") && stderr.contains("claude_desktop_config.json"),
        "{stderr}"
    );
}

#[test]
fn without_a_config_capture_says_where_the_captures_went_and_how_to_read_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args([
            "capture",
            "--name",
            "fx",
            "--timeout",
            "60",
            "--",
            &python(),
            &fixture(),
            "normal",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(dir.path().join("tools/fx.json").exists());
    let hint = stdout
        .lines()
        .find_map(|l| l.strip_prefix("captures in tools; read them with: "))
        .unwrap_or_else(|| panic!("no hint:\n{stdout}"));
    let command = hint.split(" (").next().unwrap();
    assert_eq!(command, "schematax report --tools tools");
    // The command it gives reads them.
    let words: Vec<&str> = command.split(' ').skip(1).collect();
    let report = Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(&words)
        .args(["--format", "json", "--estimate-only"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(report.status.success(), "{}", text(&report.stderr));
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["deferrable_tools"], 3, "{report}");
    // With a config and its own tools/ folder there is nothing to add.
    let config = fixture_config(dir.path(), "fx", "normal", "");
    let out = schematax(
        &["capture", config.to_str().unwrap(), "--timeout", "60"],
        &[],
    );
    assert!(out.status.success());
    assert!(
        !text(&out.stdout).contains("read them with"),
        "{}",
        text(&out.stdout)
    );
}
