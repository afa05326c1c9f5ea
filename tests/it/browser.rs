//! The report page in a real browser: headless Chromium loads the page the binary writes from
//! disk, with name resolution disabled, and the test reads the rendered DOM (`--dump-dom`): the
//! headline figures equal `report --format json` on the same inputs, and Chromium's network log
//! shows no request made by the page. Screenshots of the page (light and dark) and of the card
//! are kept in target/browser/ for a person to look at.
//!
//! The agents section ("This catalog in N agents") is checked the same way against
//! `compare --agent` of every agent, and laid out at a desktop and a phone width in a copy of
//! the page that carries a measuring script: no bar, label or figure of the section leaves it.
//!
//! Without Chromium the test prints a note and passes, unless SCHEMATAX_REQUIRE_BROWSER is set
//! (scripts/test installs Debian's `chromium` and sets it).

use crate::chromium;
use crate::common;
use crate::report_page::{assert_same_agent_figures, compare_json};

use common::{assert_same_numbers, report_json, run_ok};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// How long one Chromium run may take on a busy machine.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(60);

/// Chromium, or `None` after a note when it is missing and not required.
fn browser_or_skip() -> Option<PathBuf> {
    let found = chromium::find();
    if found.is_none() {
        assert!(
            std::env::var_os("SCHEMATAX_REQUIRE_BROWSER").is_none(),
            "SCHEMATAX_REQUIRE_BROWSER is set but no chromium was found (apt-get install chromium)"
        );
        eprintln!(
            "browser test skipped: no chromium (set SCHEMATAX_REQUIRE_BROWSER to fail instead)"
        );
    }
    found
}

/// Where the page, the DOM, the network log and the screenshots are kept.
fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    std::fs::create_dir_all(&dir).expect("target/browser can be made");
    dir
}

/// Runs headless Chromium on `file` with a fresh profile, the network disabled (every host
/// name resolves to nothing) and `extra` flags; returns its stdout.
fn run_browser(browser: &Path, extra: &[String], file: &Path) -> String {
    let profile = tempfile::tempdir().expect("a temporary profile");
    let mut command = chromium::command(browser, profile.path(), extra, file);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = command.spawn().expect("chromium starts");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("chromium can be waited for") {
            break status;
        }
        if started.elapsed() > BROWSER_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "chromium took over {BROWSER_TIMEOUT:?} on {}",
                file.display()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        status.success(),
        "chromium failed on {}: {status}",
        file.display()
    );
    reader
        .join()
        .expect("the reader thread ends")
        .expect("chromium's stdout is UTF-8")
}

/// The requests the page made, from Chromium's network log: URL requests to http(s) or ws(s)
/// that a document started (their initiator is an origin, `null` for a file). Chromium's own
/// background requests (updates, accounts) have no initiator origin and are not the page's.
fn page_requests(netlog: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(netlog).expect("chromium wrote its network log");
    let log: Value = serde_json::from_str(&text).expect("the network log is JSON");
    let events = log["events"].as_array().expect("the log has events");
    let mut urls: Vec<String> = events
        .iter()
        .filter_map(|event| {
            let params = event.get("params")?;
            let url = params.get("url")?.as_str()?;
            let remote = ["http://", "https://", "ws://", "wss://"]
                .iter()
                .any(|scheme| url.starts_with(scheme));
            let from_document = params
                .get("initiator")
                .and_then(Value::as_str)
                .is_some_and(|initiator| initiator != "not an origin");
            (remote && from_document).then(|| url.to_string())
        })
        .collect();
    urls.sort();
    urls.dedup();
    urls
}

/// Measures the agents section as Chromium lays it out `width` pixels wide, in a copy (in
/// `dir`) of `page` whose policy lets one inline script run (the page itself runs none), with
/// `extra_style` added to its head. Returns what
/// does not fit: the page wider than the window, any element of the section (outside its
/// scrolling table) beyond the section's edges, a bar wider than its track, a label or figure
/// wider than its box, and, at desktop width, a table that needs its scroll bar.
fn agents_layout_problems(
    browser: &Path,
    (dir, page): (&Path, &Path),
    width: u32,
    extra_style: &str,
) -> Vec<String> {
    const POLICY: &str = "default-src 'none';";
    const MEASURE: &str = r#"<script>
(() => {
  const problems = [];
  const section = document.getElementById('agents');
  const name = (e) => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' "' + e.textContent.trim().slice(0, 40) + '"';
  if (document.documentElement.scrollWidth > innerWidth) problems.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
  const box = section.getBoundingClientRect();
  let bars = 0;
  for (const e of section.querySelectorAll('*')) {
    if (e.closest('.scroll')) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < box.left - 1 || r.right > box.right + 1) problems.push(name(e) + ' leaves the section');
    if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && !e.classList.contains('bar')) problems.push(name(e) + ' is wider than its box');
    if (e.classList.contains('bar')) {
      bars++;
      const track = e.parentElement.getBoundingClientRect();
      if (r.right > track.right + 1 || r.left < track.left - 1) problems.push(name(e) + ' is wider than its track');
    }
  }
  for (const s of section.querySelectorAll('.scroll')) {
    if (innerWidth >= 1000 && s.scrollWidth > s.clientWidth + 1) problems.push('the table needs a scroll bar: ' + s.scrollWidth + ' px in ' + s.clientWidth);
  }
  const out = document.createElement('pre');
  out.id = 'layout-check';
  out.textContent = JSON.stringify({ width: innerWidth, bars, problems });
  document.body.appendChild(out);
})();
</script>
"#;
    let markup = std::fs::read_to_string(page).expect("the page was written");
    assert!(markup.contains(POLICY), "the page's policy");
    let measured = markup
        .replacen(POLICY, "default-src 'none'; script-src 'unsafe-inline';", 1)
        .replacen("</head>", &format!("{extra_style}</head>"), 1)
        .replacen("</body>", &format!("{MEASURE}</body>"), 1);
    let suffix = if extra_style.is_empty() {
        ""
    } else {
        "-control"
    };
    let copy = dir.join(format!("report-measured-{width}{suffix}.html"));
    std::fs::write(&copy, measured).unwrap();
    let dom = run_browser(
        browser,
        &[
            format!("--window-size={width},2000"),
            "--hide-scrollbars".into(),
            "--dump-dom".into(),
        ],
        &copy,
    );
    let report = dom
        .split("<pre id=\"layout-check\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .expect("the measuring script ran");
    let text = report
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let report: Value = serde_json::from_str(&text).expect("the measure is JSON");
    assert_eq!(report["width"], width, "the window is {width} px wide");
    assert_eq!(
        report["bars"].as_u64(),
        Some(2 * schematax_releases::AGENTS.len() as u64),
        "two bars an agent"
    );
    report["problems"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| p.as_str().unwrap_or_default().to_string())
        .collect()
}

fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 10_000,
        "{} is not a screenshot",
        path.display()
    );
}

#[test]
fn the_page_in_a_real_browser() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = out_dir();

    // A page that does reference the network: the log must show its requests, or the check
    // below would prove nothing.
    let control = dir.join("control.html");
    std::fs::write(
        &control,
        "<!DOCTYPE html><html><head><link rel=\"stylesheet\" href=\"https://cdn.example.invalid/x.css\"></head>\
         <body><img src=\"http://example.invalid/a.png\" alt=\"\"></body></html>\n",
    )
    .unwrap();
    let control_log = dir.join("control-netlog.json");
    run_browser(
        &browser,
        &[
            format!("--log-net-log={}", control_log.display()),
            "--dump-dom".into(),
        ],
        &control,
    );
    let seen = page_requests(&control_log);
    assert!(
        seen.iter().any(|u| u.contains("example.invalid")),
        "the network log does not show a page's requests: {seen:?}"
    );

    // The page: the same figures as the JSON report, and no request.
    let page = dir.join("report.html");
    let out = page.display().to_string();
    run_ok(&["report", "--format", "html", "--output", &out]);
    let netlog = dir.join("netlog.json");
    let dom = run_browser(
        &browser,
        &[
            format!("--log-net-log={}", netlog.display()),
            "--dump-dom".into(),
        ],
        &page,
    );
    std::fs::write(dir.join("report.dom.html"), &dom).unwrap();
    assert!(
        dom.contains("<section id=\"headline\">"),
        "the DOM is the page"
    );
    let per_profile: Vec<(&str, Value)> = ["seed", common::newest()]
        .into_iter()
        .map(|profile| {
            (
                profile,
                report_json(&["--profile", profile, "--estimate-only"]),
            )
        })
        .collect();
    assert_same_numbers(&dom, &report_json(&[]), &per_profile);
    assert_same_agent_figures(&dom, &compare_json(&[]));
    assert_eq!(
        page_requests(&netlog),
        Vec::<String>::new(),
        "the page made requests"
    );
    // 500 px: the narrowest window headless Chromium lays out, under the page's phone layout (600 px).
    for width in [1280, 500] {
        let problems = agents_layout_problems(&browser, (&dir, &page), width, "");
        assert!(
            problems.is_empty(),
            "the agents section at {width} px: {problems:#?}"
        );
    }
    // Labels forced onto one wide line: the measure must see them leave the section, or the
    // check above would prove nothing.
    let forced = "<style>#agents .row .name { white-space: nowrap; font-size: 60px; }</style>";
    let problems = agents_layout_problems(&browser, (&dir, &page), 500, forced);
    assert!(
        problems.iter().any(|p| p.contains("leaves the section")),
        "the measure does not see an overflow: {problems:#?}"
    );

    // Screenshots for a person: the page light and dark, and the card.
    let shot = dir.join("report.png");
    run_browser(
        &browser,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,2000".into(),
            "--hide-scrollbars".into(),
        ],
        &page,
    );
    assert_png(&shot);
    let dark = dir.join("report-dark.html");
    let out = dark.display().to_string();
    run_ok(&[
        "report", "--format", "html", "--theme", "dark", "--output", &out,
    ]);
    let dark_shot = dir.join("report-dark.png");
    run_browser(
        &browser,
        &[
            format!("--screenshot={}", dark_shot.display()),
            "--window-size=1280,2000".into(),
            "--hide-scrollbars".into(),
        ],
        &dark,
    );
    assert_png(&dark_shot);
    let card = dir.join("card.svg");
    let out = card.display().to_string();
    run_ok(&["card", "--output", &out]);
    let card_shot = dir.join("card.png");
    run_browser(
        &browser,
        &[
            format!("--screenshot={}", card_shot.display()),
            "--window-size=1200,630".into(),
            "--hide-scrollbars".into(),
        ],
        &card,
    );
    assert_png(&card_shot);
    eprintln!("screenshots in {}", dir.display());
}
