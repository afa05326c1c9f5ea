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

    fn screen(&self) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p", "-t", "e2e"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until the screen shows `needle` (10 s at most).
    fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "timed out waiting for {needle:?}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
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
    let tmux = Tmux::start("flow", &shell_command(""), 100, 30);
    let screen = tmux.wait_for(" ACTIVE ");
    assert!(screen.contains("embedded sample"), "{screen}");
    assert!(screen.contains("firecrawl"), "{screen}");
    tmux.wait_for("o200k/cl100k counted");

    // Switch off fetch (the last row by cost): the gate flips.
    tmux.keys(&["j", "j", "j", "j", "Space"]);
    tmux.wait_for(" INACTIVE ");
    tmux.wait_for("○ fetch");
    tmux.keys(&["Space"]);
    tmux.wait_for(" ACTIVE ");

    // Search as you type.
    tmux.keys(&["/", "fetch a url"]);
    let screen = tmux.wait_for("mcp_fetch_fetch");
    assert!(
        screen.contains("via") || screen.contains("bm25"),
        "{screen}"
    );
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
        !screen.contains("Activation map"),
        "the alternate screen is gone: {screen}"
    );
}

#[test]
fn ctrl_c_restores_the_terminal() {
    let tmux = Tmux::start("ctrlc", &shell_command(""), 80, 24);
    tmux.wait_for(" ACTIVE ");
    tmux.keys(&["C-c"]);
    let screen = tmux.wait_for("EXIT=0");
    assert!(!screen.contains("Activation"), "{screen}");
    assert!(!screen.contains("Tuned"), "nothing was tuned: {screen}");
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
