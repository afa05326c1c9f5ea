//! Whole-process figures: the release binary run on catalogs of 10,000 and 100,000 tools
//! written to disk, each command timed from start to exit with its peak resident memory (from
//! `wait4`), beside the bytes of the captures it read; and the view in a real terminal (a tmux
//! pane): when its first frame and its whole view show, and its peak memory once its
//! background work is done. `cargo bench --bench process` prints the table the README's
//! performance section quotes; in test mode (`cargo test --all-targets`) it runs the
//! 10,000-tool catalog once, to prove the commands and the view still finish.

mod support;

use schematax::text::first_sentence;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of the binary cost.
struct Cost {
    elapsed: Duration,
    peak_bytes: u64,
}

/// Writes `catalog_of(size)` as one capture file per server, and `queries.yaml` beside the
/// folder with one query per tool (its own first sentence, expecting it); returns the folder
/// and the bytes of the captures.
fn write_catalog(size: usize) -> (PathBuf, u64) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/process-bench")
        .join(size.to_string());
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("old catalog removed");
    }
    std::fs::create_dir_all(&dir).expect("catalog folder");
    let mut bytes = 0;
    let mut queries = String::from("queries:\n");
    for capture in support::catalog_of(size) {
        for tool in &capture.tools {
            let sentence = first_sentence(tool.description.as_deref().unwrap_or(&tool.name));
            let query = if sentence.trim().is_empty() {
                tool.name.as_str()
            } else {
                sentence
            };
            queries.push_str(&format!(
                "  - query: {}\n    expected: [{}]\n",
                serde_json::to_string(query).expect("a string"),
                serde_json::to_string(&format!("{}/{}", capture.server, tool.name))
                    .expect("a string")
            ));
        }
        let tools: Vec<Value> = capture
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema.as_ref().map(|s| s.parse())}))
            .collect();
        let text = serde_json::to_vec(&json!({"server": capture.server, "tools": tools}))
            .expect("capture serialises");
        bytes += text.len() as u64;
        std::fs::write(dir.join(format!("{}.json", capture.server)), text)
            .expect("capture written");
    }
    std::fs::write(dir.with_extension("queries.yaml"), queries).expect("queries written");
    (dir, bytes)
}

/// Runs the binary with `args` and waits for it with `wait4`, which gives its own peak memory.
// `wait4` reaps the child, which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn run(args: &[&str]) -> Cost {
    let started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value, and wait4 only writes into the two
    // locals for a child of this process that has not been waited for yet.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "schematax {args:?} failed: {status}"
    );
    Cost {
        elapsed,
        peak_bytes: usage.ru_maxrss as u64 * 1024,
    }
}

/// What opening the view cost, in a tmux pane of 160x45.
struct ViewCost {
    /// When the loading screen first showed (none when the view was ready first).
    loading: Option<Duration>,
    /// When the whole view first showed.
    view: Duration,
    /// Peak resident memory once both tokenizers have counted.
    peak_bytes: u64,
}

/// A tmux server of the bench's own, killed with the view in it when dropped, whether the
/// measurement finished or panicked.
struct TmuxServer {
    socket: String,
}

impl TmuxServer {
    fn run(&self, args: &[&str]) -> std::io::Result<std::process::Output> {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
    }

    /// What the pane shows; panics, with tmux's answer, once the pane is gone.
    fn screen(&self) -> String {
        let output = self
            .run(&["capture-pane", "-p", "-t", "view"])
            .expect("tmux runs");
        assert!(
            output.status.success(),
            "the view exited before it was ready: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }
}

impl Drop for TmuxServer {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The peak resident memory of a running process (`VmHWM`), in bytes.
fn peak_of(pid: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the view runs");
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("/proc/PID/status has VmHWM");
    kib * 1024
}

/// Opens the view on `folder` in a tmux server of its own and watches its screen; `None`
/// when tmux is not installed.
fn view_in_tmux(folder: &str) -> Option<ViewCost> {
    let tmux = TmuxServer {
        socket: format!("schematax-bench-{}", std::process::id()),
    };
    let binary = env!("CARGO_BIN_EXE_schematax");
    let started = Instant::now();
    let session = [
        "new-session",
        "-d",
        "-s",
        "view",
        "-x",
        "160",
        "-y",
        "45",
        binary,
        "--tools",
        folder,
    ];
    if !tmux.run(&session).ok()?.status.success() {
        return None;
    }
    let pane = tmux
        .run(&["display", "-p", "-t", "view", "#{pane_pid}"])
        .expect("tmux runs");
    let pid = String::from_utf8_lossy(&pane.stdout).trim().to_string();
    // Each look is a tmux process: on two cores, looking every few milliseconds for a whole
    // second would slow down what it measures. So it looks often until the first frame,
    // then every 25 ms.
    let still_waiting = |shown: &str, every: u64| {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the view never got ready:\n{shown}"
        );
        std::thread::sleep(Duration::from_millis(every));
    };
    let mut loading = None;
    let view = loop {
        let shown = tmux.screen();
        if loading.is_none() && shown.contains("Loading") {
            loading = Some(started.elapsed());
        }
        if shown.contains("Servers (") {
            break started.elapsed();
        }
        still_waiting(&shown, if loading.is_some() { 25 } else { 2 });
    };
    loop {
        let shown = tmux.screen();
        if shown.contains("o200k/cl100k counted") {
            break;
        }
        still_waiting(&shown, 100);
    }
    let peak_bytes = peak_of(&pid);
    drop(tmux);
    // The next measurement starts once this view is gone.
    let gone = Instant::now();
    while std::path::Path::new(&format!("/proc/{pid}")).exists()
        && gone.elapsed() < Duration::from_secs(10)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    Some(ViewCost {
        loading,
        view,
        peak_bytes,
    })
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn measure(size: usize, commands: &[(&str, &[&str])]) {
    let (dir, bytes) = write_catalog(size);
    let folder = dir.display().to_string();
    println!(
        "{size} tools, {:.1} MiB of captures in {}",
        mib(bytes),
        dir.display()
    );
    let queries = dir.with_extension("queries.yaml").display().to_string();
    for (label, args) in commands {
        let mut full: Vec<&str> = args
            .iter()
            .map(|a| if *a == "QUERIES" { queries.as_str() } else { a })
            .collect();
        full.extend(["--tools", folder.as_str()]);
        let cost = run(&full);
        println!(
            "  {label:<38} {:>8.2} s  peak {:>7.1} MiB ({:.1}x the captures)",
            cost.elapsed.as_secs_f64(),
            mib(cost.peak_bytes),
            cost.peak_bytes as f64 / bytes as f64
        );
    }
    match view_in_tmux(&folder) {
        Some(view) => {
            println!(
            "  {:<38} {:>8.2} s  peak {:>7.1} MiB ({:.1}x the captures); the loading screen at {}",
            "the view in tmux: whole view",
            view.view.as_secs_f64(),
            mib(view.peak_bytes),
            view.peak_bytes as f64 / bytes as f64,
            view.loading
                .map_or("- (not shown)".to_string(), |t| format!("{:.2} s", t.as_secs_f64()))
        )
        }
        None => println!("  the view in tmux: not measured (no tmux)"),
    }
}

fn main() {
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let commands: &[(&str, &[&str])] = &[
        (
            "report --estimate-only",
            &["report", "--estimate-only", "--format", "json"],
        ),
        ("report (both tokenizers)", &["report", "--format", "json"]),
        ("lint", &["lint", "--format", "json"]),
        (
            "lint --profile seed",
            &["lint", "--format", "json", "--profile", "seed"],
        ),
        (
            "eval, one query per tool",
            &["eval", "QUERIES", "--format", "json"],
        ),
        ("sweep", &["sweep", "--format", "json"]),
        (
            "sweep --profile seed",
            &["sweep", "--format", "json", "--profile", "seed"],
        ),
        ("compare", &["compare", "--format", "json"]),
        ("lint, as a table", &["lint"]),
        (
            "report --format html --estimate-only",
            &["report", "--format", "html", "--estimate-only"],
        ),
    ];
    if benchmarking {
        for size in [10_000, 100_000] {
            measure(size, commands);
        }
    } else {
        println!(
            "process bench, test mode: one run of each part, a smoke test and not a measurement \
             (`cargo bench --bench process` measures the release build)"
        );
        measure(10_000, &commands[..1]);
    }
}
