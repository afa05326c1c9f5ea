//! End to end: the real binary in a real terminal (tmux), driven with send-keys and read with
//! capture-pane. tmux is installed by the test command (scripts/test).

use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of its own (its own socket), killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str, command: &str, width: u16, height: u16) -> Tmux {
        let tmux = Tmux {
            socket: format!("schematax-e2e-{name}-{}", std::process::id()),
        };
        let status = Command::new("tmux")
            .args([
                "-L",
                &tmux.socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "e2e",
            ])
            .args(["-x", &width.to_string(), "-y", &height.to_string()])
            .arg(command)
            .status()
            .expect("tmux runs (scripts/test installs it)");
        assert!(status.success(), "tmux new-session failed");
        tmux
    }

    fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", "-t", "e2e"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Pastes `text` as the terminal would (bracketed, when the program asked for it).
    fn paste(&self, text: &str) {
        let buffer = std::env::temp_dir().join(format!("{}.paste", self.socket));
        std::fs::write(&buffer, text).unwrap();
        for args in [
            vec!["load-buffer", "-b", "e2e", buffer.to_str().unwrap()],
            vec!["paste-buffer", "-p", "-b", "e2e", "-t", "e2e"],
        ] {
            let status = Command::new("tmux")
                .args(["-L", &self.socket])
                .args(&args)
                .status()
                .unwrap();
            assert!(status.success(), "tmux {args:?}");
        }
        let _ = std::fs::remove_file(buffer);
    }

    fn screen(&self) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p", "-t", "e2e"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Everything the pane printed, its history included, with lines the terminal wrapped
    /// joined again.
    fn joined_history(&self) -> String {
        let output = Command::new("tmux")
            .args([
                "-L",
                &self.socket,
                "capture-pane",
                "-p",
                "-J",
                "-S",
                "-",
                "-t",
                "e2e",
            ])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until the screen shows `needle` (30 s at most: a busy 2-core machine is slow,
    /// and time is not what these tests measure). A frame is drawn top to bottom, so the
    /// screen returned may not show yet what lies below the needle: see [`Tmux::wait_for_all`].
    fn wait_for(&self, needle: &str) -> String {
        self.wait_for_all(&[needle])
    }

    /// Waits until one screen shows every one of `needles`.
    fn wait_for_all(&self, needles: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if needles.iter().all(|needle| screen.contains(needle)) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "timed out waiting for {needles:?}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the screen shows one of `needles` (30 s at most); returns the screen.
    fn wait_for_any(&self, needles: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if needles.iter().any(|needle| screen.contains(needle)) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "timed out waiting for one of {needles:?}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the screen no longer shows `needle` (30 s at most).
    fn wait_until_gone(&self, needle: &str) {
        let start = Instant::now();
        while self.screen().contains(needle) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "timed out waiting for {needle:?} to go"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A pane's tmux format variable, e.g. `alternate_on` or `cursor_flag`.
    fn pane_flag(&self, name: &str) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "display-message", "-p", "-t", "e2e"])
            .arg(format!("#{{{name}}}"))
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    /// Types a shell command line and runs it.
    fn run(&self, line: &str) {
        self.keys(&["-l", line]);
        self.keys(&["Enter"]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

/// The binary, then its exit code, then a pause so the pane stays readable.
fn shell_command(args: &str) -> String {
    format!(
        "sh -c '{} {args}; echo EXIT=$?; sleep 30'",
        env!("CARGO_BIN_EXE_schematax")
    )
}

#[test]
fn tune_toggle_search_and_quit_in_a_real_terminal() {
    // The figures below are the seed engine's (0.17.0): pinned, so a new release does not move them.
    let tmux = Tmux::start("flow", &shell_command("--profile seed"), 100, 30);
    let screen = tmux.wait_for(" ACTIVE ");
    assert!(screen.contains("embedded sample"), "{screen}");
    assert!(screen.contains("firecrawl"), "{screen}");
    // Counted in the sample model's tokenizer (Claude Sonnet 4.5), named in the header.
    let counted = tmux.wait_for("claude-v3 counted");
    assert!(counted.contains("claude-v3 tokens"), "{counted}");

    // Switch off fetch (the last row by cost): the gate flips.
    tmux.keys(&["j", "j", "j", "j", "Space"]);
    tmux.wait_for(" INACTIVE ");
    tmux.wait_for("○ fetch");
    tmux.keys(&["Space"]);
    tmux.wait_for(" ACTIVE ");

    // Search as you type.
    tmux.keys(&["/", "fetch a url"]);
    let screen = tmux.wait_for(" 1 mcp_fetch_fetch ");
    assert!(screen.contains("· bm25 ·"), "{screen}");
    tmux.keys(&["Enter"]);

    // Raise the threshold past the flip, then quit: the tuned block is printed on the
    // restored terminal.
    tmux.keys(&["+"]);
    tmux.wait_for("threshold 11%");
    tmux.wait_for(" INACTIVE ");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("EXIT=0");
    assert!(
        screen.contains("# Tuned in schematax; paste into hermes.yaml:"),
        "{screen}"
    );
    assert!(screen.contains("    threshold_pct: 11"), "{screen}");
    assert!(
        !screen.contains("Servers (by cost)"),
        "the alternate screen is gone: {screen}"
    );
}

#[test]
fn ctrl_c_restores_the_terminal() {
    let tmux = shell("ctrlc", 80, 24);
    tmux.run(&format!(
        "{}; echo EXIT=$?",
        env!("CARGO_BIN_EXE_schematax")
    ));
    tmux.wait_for(" ACTIVE ");
    tmux.keys(&["C-c"]);
    let screen = tmux.wait_for("EXIT=0");
    assert!(!screen.contains("Activation"), "{screen}");
    assert!(!screen.contains("Tuned"), "nothing was tuned: {screen}");
    assert_terminal_restored(&tmux, "TTYC");
}

#[test]
fn small_terminal_and_resize() {
    let tmux = Tmux::start("resize", &shell_command(""), 70, 20);
    tmux.wait_for("Terminal too small: 70x20");
    let status = Command::new("tmux")
        .args([
            "-L",
            &tmux.socket,
            "resize-window",
            "-t",
            "e2e",
            "-x",
            "90",
            "-y",
            "26",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    tmux.wait_for(" ACTIVE ");
    tmux.keys(&["q"]);
    tmux.wait_for("EXIT=0");
}

#[test]
fn bad_config_fails_before_touching_the_terminal() {
    let tmux = Tmux::start("bad", &shell_command("/nonexistent/hermes.yaml"), 80, 24);
    let screen = tmux.wait_for("EXIT=2");
    assert!(
        screen.contains("schematax: error: /nonexistent/hermes.yaml: no such file"),
        "{screen}"
    );
}

/// A tmux pane running an interactive shell, in which the tests start and stop the binary as
/// a user would.
fn shell(name: &str, width: u16, height: u16) -> Tmux {
    let tmux = Tmux::start(
        name,
        "env PS1='sh$ ' TERM=xterm-256color bash --norc --noprofile -i",
        width,
        height,
    );
    tmux.wait_for("sh$");
    // `ttystate NAME` prints NAME:raw or NAME:cooked (raw: no echo or no line editing).
    tmux.run("ttystate() { if stty -a | tr ' ;' '\\n\\n' | grep -qx -e -echo -e -icanon; then echo \"$1:raw\"; else echo \"$1:cooked\"; fi; }");
    tmux
}

/// Checks, from the shell the binary returned to, that the terminal is as the shell had it:
/// cooked mode with echo, the main screen, the cursor shown.
fn assert_terminal_restored(tmux: &Tmux, marker: &str) {
    tmux.run(&format!("ttystate {marker}"));
    let screen = tmux.wait_for(&format!("{marker}:"));
    assert!(screen.contains(&format!("{marker}:cooked")), "{screen}");
    assert_eq!(
        tmux.pane_flag("alternate_on"),
        "0",
        "left the alternate screen"
    );
    assert_eq!(tmux.pane_flag("cursor_flag"), "1", "the cursor is shown");
    // Typed text is echoed again.
    tmux.keys(&["-l", "echoed-text"]);
    tmux.wait_for("sh$ echoed-text");
    tmux.keys(&["C-u"]);
}

#[test]
fn signals_restore_the_terminal_and_exit_with_128_plus_the_signal() {
    let dir = tempfile::tempdir().unwrap();
    for (signal, code) in [("TERM", 143), ("HUP", 129), ("INT", 130)] {
        let tmux = shell(&format!("sig{signal}"), 100, 30);
        let pid_file = dir.path().join(format!("{signal}.pid"));
        tmux.run(&format!(
            "sh -c 'echo $$ > {}; exec {}'; echo EXIT=$?",
            pid_file.display(),
            env!("CARGO_BIN_EXE_schematax")
        ));
        tmux.wait_for(" ACTIVE ");
        // Some tuning, which SIGTERM and SIGINT print on the way out.
        tmux.keys(&["+"]);
        tmux.wait_for("threshold 11%");
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let status = Command::new("kill")
            .args([&format!("-{signal}"), pid.trim()])
            .status()
            .unwrap();
        assert!(status.success());
        let screen = tmux.wait_for(&format!("EXIT={code}"));
        if signal == "HUP" {
            assert!(!screen.contains("Tuned in schematax"), "{screen}");
        } else {
            assert!(
                screen.contains("    threshold_pct: 11"),
                "{signal}: {screen}"
            );
        }
        assert_terminal_restored(&tmux, &format!("TTY{signal}"));
    }
}

#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_redraws() {
    let tmux = shell("suspend", 100, 30);
    tmux.run(env!("CARGO_BIN_EXE_schematax"));
    tmux.wait_for(" ACTIVE ");
    tmux.keys(&["+"]);
    tmux.wait_for("threshold 11%");
    tmux.keys(&["C-z"]);
    let screen = tmux.wait_for("Stopped");
    assert!(!screen.contains("Servers (by cost)"), "{screen}");
    assert_terminal_restored(&tmux, "TTYSTOP");
    tmux.run("clear; fg; echo EXIT=$?");
    // The whole view is drawn again, with the state it had.
    let screen = tmux.wait_for("Servers (by cost)");
    assert!(screen.contains("threshold 11%"), "{screen}");
    assert_eq!(tmux.pane_flag("alternate_on"), "1");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("EXIT=0");
    assert!(screen.contains("    threshold_pct: 11"), "{screen}");
}

#[test]
fn profile_switch_and_config_warnings_in_a_real_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/samples");
    let config = dir.path().join("hermes.yaml");
    std::fs::write(&config, "tools:\n  tool_serach:\n    threshold_pct: 10\n").unwrap();
    let tmux = Tmux::start(
        "profile",
        &shell_command(&format!("{} --tools {samples}/tools", config.display())),
        120,
        40,
    );
    // The misspelt section is on screen, not only on stderr after quitting.
    // The newest release by default: it lists the hidden tools (each waited for, as parts of
    // the view may be drawn a frame apart).
    tmux.wait_for_all(&[
        " ACTIVE ",
        "tool_serach",
        &format!("│ {} │", schematax_releases::Profile::newest()),
        "listing",
    ]);
    tmux.keys(&["w"]);
    tmux.wait_for("did you mean");
    tmux.keys(&["Escape"]);
    // A key right after Escape would read as Alt+key.
    tmux.wait_until_gone("did you mean");
    // P past the newest release wraps to the first; O steps back.
    tmux.keys(&["P"]);
    tmux.wait_for("│ hermes-0.16 │");
    // 0.16 has no listing.
    tmux.wait_until_gone("listing");
    tmux.keys(&["O"]);
    tmux.wait_for(&format!("│ {} │", schematax_releases::Profile::newest()));
    tmux.keys(&["q"]);
    tmux.wait_for("EXIT=0");
}

#[test]
fn recapture_in_a_real_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/mcp_fixture.py");
    let config = dir.path().join("hermes.yaml");
    std::fs::write(
        &config,
        format!("mcp_servers:\n  fx:\n    command: python3\n    args: [{fixture:?}, normal]\n"),
    )
    .unwrap();
    let tmux = Tmux::start(
        "recapture",
        &shell_command(config.to_str().unwrap()),
        120,
        40,
    );
    tmux.wait_for("0/0 servers on");
    tmux.keys(&["R"]);
    tmux.wait_for("re-captured 1 servers");
    let screen = tmux.wait_for("1/1 servers on");
    assert!(screen.contains("● fx"), "{screen}");
    assert!(dir.path().join("tools/fx.json").is_file());
    tmux.keys(&["q"]);
    tmux.wait_for("EXIT=0");
}

/// Writes `copies` renamed copies of the repository's captures into `dir`, one file each: a
/// catalog big enough that the debug binary takes a while to load it.
fn write_big_catalog(dir: &std::path::Path, copies: usize) {
    let captures = schematax_engine::inputs::capture_file::load_paths(&[std::path::PathBuf::from(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/captures"),
    )])
    .unwrap()
    .captures;
    for copy in 0..copies {
        for capture in &captures {
            let tools: Vec<serde_json::Value> = capture
                .tools
                .iter()
                .map(|t| {
                    serde_json::json!({
                        "name": t.name,
                        "description": t.description.as_deref(),
                        "inputSchema": t.input_schema.as_ref().map(schematax_engine::nouns::object_text::ObjectText::parse),
                    })
                })
                .collect();
            let server = format!("{}-{copy}", capture.server);
            let text = serde_json::json!({"server": server, "tools": tools}).to_string();
            std::fs::write(dir.join(format!("{server}.json")), text).unwrap();
        }
    }
}

#[test]
fn a_slow_load_opens_on_a_loading_screen_that_quits_and_that_gives_way_to_the_view() {
    let dir = tempfile::tempdir().unwrap();
    write_big_catalog(dir.path(), 25);
    let tools = dir.path().display().to_string();
    // Quit while loading: the terminal comes back as it was, with exit code 0.
    let tmux = shell("loading-quit", 100, 30);
    tmux.run(&format!(
        "{} --tools {tools}; echo EXIT=$?",
        env!("CARGO_BIN_EXE_schematax")
    ));
    // The whole loading screen: its first line and its last.
    let screen = tmux.wait_for_all(&["Loading", "q quit"]);
    assert!(screen.contains(&tools), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_for("EXIT=0");
    assert_terminal_restored(&tmux, "TTYLOADQ");
    // Left alone, the loading screen gives way to the whole view.
    let tmux = Tmux::start(
        "loading-view",
        &shell_command(&format!("--tools {tools}")),
        120,
        40,
    );
    tmux.wait_for("Loading");
    let screen = tmux.wait_for(" ACTIVE ");
    assert!(screen.contains("servers on"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_for("EXIT=0");
}

#[test]
fn a_huge_paste_is_one_edit_cut_to_the_query_limit_and_the_view_stays_live() {
    let tmux = Tmux::start("paste", &shell_command("--profile seed"), 100, 30);
    tmux.wait_for(" ACTIVE ");
    tmux.keys(&["/"]);
    // 100 KB over several lines, pasted at once.
    tmux.paste(&"fetch a url\n".repeat(8_500));
    let screen = tmux.wait_for("keeps 1,000 characters at most");
    assert!(screen.contains("fetch a url fetch a url"), "{screen}");
    // Still live: a key is answered at once.
    tmux.keys(&["Escape"]);
    tmux.wait_until_gone("keeps 1,000 characters");
    tmux.keys(&["q"]);
    tmux.wait_for("EXIT=0");
}

#[test]
fn lint_on_a_terminal_cuts_its_lines_to_the_width() {
    let tmux = Tmux::start("lint-width", &shell_command("lint"), 72, 30);
    tmux.wait_for("EXIT=");
    let printed = tmux.joined_history();
    assert!(printed.contains("EXIT=0"), "{printed}");
    let widest = printed
        .lines()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    assert!(widest <= 72, "a line of {widest} columns:\n{printed}");
    assert!(
        printed.contains('…'),
        "long findings are cut, and say so:\n{printed}"
    );
}

/// A tokenizer.json that loads, and whose pre-tokenizer (FixedLength of 0) panics on the first
/// text it is given: the view's counting fails for real.
const TOKENIZER_THAT_FAILS_TO_COUNT: &str = r#"{
  "version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
  "normalizer": null, "pre_tokenizer": {"type": "FixedLength", "length": 0},
  "post_processor": null, "decoder": null,
  "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "a": 1}, "unk_token": "[UNK]"}
}"#;

#[test]
fn a_background_job_that_fails_never_leaves_the_view_half_alive() {
    let dir = tempfile::tempdir().unwrap();
    let tokenizer = dir.path().join("tokenizer.json");
    std::fs::write(&tokenizer, TOKENIZER_THAT_FAILS_TO_COUNT).unwrap();
    let stderr = dir.path().join("stderr.txt");
    let tmux = shell("worker-fails", 100, 30);
    tmux.run(&format!(
        // EXIT"" keeps the typed line from reading as the answer.
        "{} --profile seed --tokenizer {} 2>{}; echo EXIT\"\"=$?",
        env!("CARGO_BIN_EXE_schematax"),
        tokenizer.display(),
        stderr.display()
    ));
    // Either the view ends with one line and a failing exit, or (should counting come to
    // refuse the tokenizer as an error) it says so and stays usable. Before, it ran on with the
    // terminal given back under it, and q needed Enter and exited 0.
    let screen = tmux.wait_for_any(&["EXIT=", "token counts unavailable"]);
    if !screen.contains("EXIT=") {
        tmux.keys(&["+"]);
        tmux.wait_for("threshold 11%");
        tmux.keys(&["q"]);
        tmux.wait_for("EXIT=0");
    } else {
        assert!(!screen.contains("EXIT=0"), "{screen}");
        let said = std::fs::read_to_string(&stderr).unwrap();
        assert_eq!(said.lines().count(), 1, "one line: {said}");
        assert!(said.starts_with("schematax: error: "), "{said}");
        assert!(!screen.contains("Servers (by cost)"), "{screen}");
    }
    assert_terminal_restored(&tmux, "TTYWORKER");
}

#[test]
fn a_paste_holding_the_paste_end_marker_is_text_and_never_keys() {
    let tmux = shell("paste-end", 100, 30);
    tmux.run(&format!(
        "{} --profile seed; echo EXIT=$?",
        env!("CARGO_BIN_EXE_schematax")
    ));
    tmux.wait_for(" ACTIVE ");
    // The terminal's paste "ends" at ESC[201~; as keys, the rest would end the query line
    // (CR), raise the threshold (+) and quit (q).
    tmux.paste("fetch\x1b[201~\r+q");
    let screen = tmux.wait_for("fetch +q");
    assert!(screen.contains("threshold 10%"), "{screen}");
    // Still live: keys typed now are keys.
    tmux.keys(&["Enter"]);
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("EXIT=0");
    assert!(!screen.contains("Tuned in schematax"), "{screen}");
    assert_terminal_restored(&tmux, "TTYPASTE");
}

/// Writes captures of `tools` distinct tools (drawn from the real captures' words) to `dir`.
fn write_distinct_catalog(dir: &std::path::Path, tools: usize) {
    let real =
        std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/captures"));
    let captures = schematax_engine::inputs::capture_file::load_paths(&[real])
        .unwrap()
        .captures;
    let pools = schematax_synthetic::Pools::from_captures(&captures).unwrap();
    let catalog = schematax_synthetic::distinct_catalog(&pools, tools, 1);
    schematax_synthetic::write_captures(dir, &catalog).unwrap();
}

#[test]
fn a_long_lint_shows_its_progress_and_ctrl_c_stops_it_at_once() {
    // Distinct tools enough that the debug binary lints for minutes under seed (which has no
    // rarest-word gate, so no searches are grouped): its progress line shows on the terminal,
    // and Ctrl-C ends it long before (the hang guard is 30 s), exit code 130, the line
    // cleared.
    let dir = tempfile::tempdir().unwrap();
    write_distinct_catalog(dir.path(), 20_000);
    let tmux = shell("lint-progress", 100, 30);
    tmux.run(&format!(
        "{} lint --profile seed --tools {}; echo EXIT=$?",
        env!("CARGO_BIN_EXE_schematax"),
        dir.path().display()
    ));
    let screen = tmux.wait_for(" searches");
    assert!(screen.contains("linting: "), "{screen}");
    tmux.keys(&["C-c"]);
    // (The command line itself reads `EXIT=$?`.)
    let screen = tmux.wait_for_any(&["EXIT=0", "EXIT=1", "EXIT=2"]);
    assert!(screen.contains("EXIT=130"), "{screen}");
    assert!(
        !screen.contains("linting: "),
        "the progress line is cleared:\n{screen}"
    );
}

#[test]
fn the_page_and_a_count_show_their_stages_and_ctrl_c_ends_them_at_once() {
    // The page of 20,000 distinct tools takes the debug binary minutes: each stage shows on
    // one line, and Ctrl-C ends the process at once, as SIGINT does (exit status 130), the
    // line erased and no page written. Then the same for a count in Claude's tokens.
    let dir = tempfile::tempdir().unwrap();
    let tools = dir.path().join("tools");
    std::fs::create_dir(&tools).unwrap();
    write_distinct_catalog(&tools, 20_000);
    let page = dir.path().join("page.html");
    let tmux = shell("page-progress", 120, 30);
    tmux.run(&format!(
        "{} report --format html --tools {} --output {}",
        env!("CARGO_BIN_EXE_schematax"),
        tools.display(),
        page.display()
    ));
    tmux.wait_for("building the page: seed for contrast");
    let agents = format!(" of {} agents", schematax_releases::AGENTS.len());
    tmux.wait_for_all(&["building the page's agents: ", &agents]);
    tmux.keys(&["C-c"]);
    tmux.wait_until_gone("building the page");
    tmux.run("echo EXIT=$?");
    // (The command line itself reads `EXIT=$?`; "EXIT=1" is also how "EXIT=130" starts.)
    let screen = tmux.wait_for_any(&["EXIT=0", "EXIT=1", "EXIT=2"]);
    assert!(screen.contains("EXIT=130"), "{screen}");
    assert!(!page.exists(), "no page is written");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "nor any file beside it"
    );
    tmux.run(&format!(
        "clear; {} report --tools {} --model anthropic/claude-sonnet-4.5 > {}",
        env!("CARGO_BIN_EXE_schematax"),
        tools.display(),
        dir.path().join("report.txt").display()
    ));
    tmux.wait_for_all(&["counting tokens: ", " of 20,000 tools"]);
    tmux.keys(&["C-c"]);
    tmux.wait_until_gone("counting tokens");
    tmux.run("echo EXIT=$?");
    let screen = tmux.wait_for_any(&["EXIT=0", "EXIT=1", "EXIT=2"]);
    assert!(screen.contains("EXIT=130"), "{screen}");
}

#[test]
fn the_agent_switch_in_a_real_terminal() {
    // The figures the view shows are the ones `report --agent` prints, in the same tokenizer.
    let report: serde_json::Value = serde_json::from_str(&crate::common::run_ok(&[
        "report",
        "--agent",
        "claude-code",
        "--format",
        "json",
    ]))
    .unwrap();
    let figure = |part: &str| {
        let tokens = report["parts"][part]["tokens"].as_u64().unwrap();
        schematax_report::thousands(tokens)
    };
    let turn = format!(
        "a turn {} -> {} claude-v3 tokens",
        figure("without_deferral"),
        figure("per_turn")
    );
    let agent = report["agent"].as_str().unwrap().to_string();
    let tmux = Tmux::start("agent", &shell_command(""), 120, 40);
    tmux.wait_for(" ACTIVE ");
    tmux.keys(&["a"]);
    // The activation map is drawn when its own work is done, which may be after the turn: it
    // is waited for, not read off the screen that showed the turn.
    tmux.wait_for_all(&[
        &format!("│ {agent} ("),
        &turn,
        "Claude Code has no threshold",
    ]);
    // Codex's own search ranks the query.
    tmux.keys(&["a", "/", "scrape a page"]);
    tmux.wait_for_all(&["│ codex@", "codex · bm25 · 8 results", "firecrawl_scrape"]);
    tmux.keys(&["Enter"]);
    // A goes back, round to Hermes: its release is in the header again.
    tmux.keys(&["A", "A"]);
    tmux.wait_for(&format!("│ {} │", schematax_releases::Profile::newest()));
    tmux.keys(&["q"]);
    tmux.wait_for("EXIT=0");
}
