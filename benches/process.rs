//! Whole-process figures: the release binary run on catalogs of 10,000 and 100,000 tools
//! written to disk, distinct (seeded synthetic tools, `schematax_synthetic`, with 1,000
//! keyword and 1,000 sentence queries drawn from them), OpenAPI-like (hundreds of templated
//! tools per server) and renamed copies of the real captures (one query per tool, its own first
//! sentence); each command timed from start to exit with its peak resident memory (from
//! `wait4`), beside the bytes of the captures it read; and the view in a real terminal (a tmux
//! pane): when its first frame and its whole view show, and its peak memory once its
//! background work is done. Then `report --estimate-only` and one `search` on 1,000,000 distinct
//! tools. `cargo bench --bench process` prints the table the README's performance section
//! quotes (`scripts/bench-table` runs it with the rest); in test mode (`cargo test
//! --all-targets`) it runs one command on 10,000 distinct tools once, to prove the commands
//! still finish.

mod support;

use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::text::first_sentence;
use schematax_synthetic::{queries_yaml, write_captures, QueryStyle};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of the binary cost.
struct Cost {
    elapsed: Duration,
    peak_bytes: u64,
}

/// A catalog kind of the bench: its name, and how its catalog of N tools is made.
#[derive(Clone, Copy)]
enum Kind {
    Distinct,
    OpenApi,
    Copies,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Distinct => "distinct",
            Kind::OpenApi => "openapi",
            Kind::Copies => "copies",
        }
    }

    fn catalog(self, size: usize) -> Vec<ServerCapture> {
        match self {
            Kind::Distinct => support::distinct_of(size),
            Kind::OpenApi => support::openapi_of(size),
            Kind::Copies => support::catalog_of(size),
        }
    }
}

/// One query per tool: its own first sentence (or its name), expecting it.
fn one_query_per_tool(catalog: &[ServerCapture]) -> String {
    let mut queries = String::from("queries:\n");
    for capture in catalog {
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
    }
    queries
}

/// Writes a catalog of `kind` and `size` as one capture file per server under
/// target/process-bench, and `queries.yaml` beside the folder (copies: one query per tool; the
/// others: 1,000 distinct keyword and 1,000 sentence queries drawn from the catalog); returns
/// the folder, the bytes of the captures, and the first drawn query.
fn write_catalog(kind: Kind, size: usize) -> (PathBuf, u64, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/process-bench")
        .join(format!("{}-{size}", kind.name()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("old catalog removed");
    }
    let catalog = kind.catalog(size);
    let bytes = write_captures(&dir, &catalog).expect("catalog written");
    let drawn: Vec<_> = [QueryStyle::Keyword, QueryStyle::Sentence]
        .into_iter()
        .flat_map(|style| support::queries_of(&catalog, 1_000, style))
        .collect();
    let queries = match kind {
        Kind::Copies => one_query_per_tool(&catalog),
        Kind::Distinct | Kind::OpenApi => queries_yaml(&drawn),
    };
    std::fs::write(dir.with_extension("queries.yaml"), queries).expect("queries written");
    let query = drawn.first().map(|q| q.text.clone()).unwrap_or_default();
    (dir, bytes, query)
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
    /// Peak resident memory once the tokenizer has counted.
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
        // The header says "TOKENIZER counted" once every tool is counted.
        if shown
            .lines()
            .next()
            .is_some_and(|header| header.contains(" counted"))
        {
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

/// The environment variable under which this bench, run again by itself, writes a catalog.
const WRITE_CATALOG: &str = "SCHEMATAX_BENCH_WRITE_CATALOG";

/// [`write_catalog`] in a process of its own (this bench run again), so that this one stays
/// small: a child made by `fork` inherits its parent's peak memory as its own starting peak,
/// which would then show in every command's figure.
fn write_catalog_apart(kind: Kind, size: usize) -> (PathBuf, u64, String) {
    let output = Command::new(std::env::current_exe().expect("the bench's own path"))
        .env(WRITE_CATALOG, format!("{} {size}", kind.name()))
        .stderr(Stdio::inherit())
        .output()
        .expect("the bench runs again");
    assert!(output.status.success(), "writing the catalog failed");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let mut lines = text.lines();
    let mut next = || lines.next().expect("three lines").to_string();
    let (dir, bytes, query) = (next(), next(), next());
    (dir.into(), bytes.parse().expect("a byte count"), query)
}

/// The other side of [`write_catalog_apart`]: writes the catalog named by `spec` (`KIND
/// SIZE`) and prints its folder, bytes and first query, one a line.
fn write_catalog_and_exit(spec: &str) {
    let (kind, size) = spec.split_once(' ').expect("KIND SIZE");
    let kind = [Kind::Distinct, Kind::OpenApi, Kind::Copies]
        .into_iter()
        .find(|k| k.name() == kind)
        .expect("a catalog kind");
    let (dir, bytes, query) = write_catalog(kind, size.parse().expect("a size"));
    println!("{}\n{bytes}\n{query}", dir.display());
}

fn measure(kind: Kind, size: usize, commands: &[(&str, &[&str])], view: bool) {
    let (dir, bytes, query) = write_catalog_apart(kind, size);
    let folder = dir.display().to_string();
    println!(
        "{size} {} tools, {:.1} MiB of captures in {} (load {})",
        kind.name(),
        mib(bytes),
        dir.display(),
        load_average()
    );
    let queries = dir.with_extension("queries.yaml").display().to_string();
    for (label, args) in commands {
        let mut full: Vec<&str> = args
            .iter()
            .map(|a| match *a {
                "QUERIES" => queries.as_str(),
                "QUERY" => query.as_str(),
                other => other,
            })
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
    if !view {
        return;
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
        );
        }
        None => println!("  the view in tmux: not measured (no tmux)"),
    }
}

/// The 1-minute load average, as `uptime` shows it.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

fn main() {
    if let Ok(spec) = std::env::var(WRITE_CATALOG) {
        return write_catalog_and_exit(&spec);
    }
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let commands: &[(&str, &[&str])] = &[
        (
            "report --estimate-only",
            &["report", "--estimate-only", "--format", "json"],
        ),
        ("report (o200k_base)", &["report", "--format", "json"]),
        (
            "search, one query",
            &["search", "QUERY", "--format", "json"],
        ),
        ("lint", &["lint", "--format", "json"]),
        (
            "lint --profile seed",
            &["lint", "--format", "json", "--profile", "seed"],
        ),
        (
            "eval, the queries file",
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
    if !benchmarking {
        println!(
            "process bench, test mode: one run of each part, a smoke test and not a measurement \
             (`cargo bench --bench process` measures the release build)"
        );
        measure(Kind::Distinct, 10_000, &commands[..1], false);
        return;
    }
    // KINDS and SIZES (space-separated) choose what runs; by default everything.
    let chosen = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.into());
    let kinds = chosen("KINDS", "distinct openapi copies");
    let sizes = chosen("SIZES", "10000 100000 1000000");
    for kind in [Kind::Distinct, Kind::OpenApi, Kind::Copies] {
        if !kinds.split_whitespace().any(|k| k == kind.name()) {
            continue;
        }
        for size in sizes.split_whitespace().filter_map(|s| s.parse().ok()) {
            match (kind, size) {
                (_, 0..=100_000) => measure(kind, size, commands, true),
                // A million tools: loading and one search; one kind is enough.
                (Kind::Distinct, _) => measure(kind, size, &[commands[0], commands[2]], false),
                _ => {}
            }
        }
    }
}
