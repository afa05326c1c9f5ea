//! The report page (`report --format html`) and the card (`card`) from the binary: files
//! written, themes, the same headline numbers as `report --format json`, well-formed markup,
//! no network reference, card snapshots, and hostile text that never becomes markup.

use crate::common;

use common::{assert_same_numbers, data, report_json, run_ok, schematax};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Elements the page is made of: nothing that runs, loads or embeds anything.
const PAGE_ELEMENTS: &[&str] = &[
    "html", "head", "meta", "title", "link", "style", "body", "header", "main", "footer",
    "section", "h1", "h2", "h3", "p", "b", "small", "span", "code", "data", "div", "table",
    "thead", "tbody", "tr", "th", "td", "ol", "ul", "li", "details", "summary", "dl", "dt", "dd",
];

/// Elements of the card.
const CARD_ELEMENTS: &[&str] = &["svg", "title", "rect", "text", "line"];

fn parse(markup: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(markup, options)
        .unwrap_or_else(|e| panic!("not well-formed: {e}"))
}

/// Parses `markup` as XML and checks that it is made only of `allowed` elements, with no
/// event-handler attribute and no reference to anything outside the file.
fn assert_inert(markup: &str, allowed: &[&str]) {
    let document = parse(markup);
    for node in document.descendants().filter(roxmltree::Node::is_element) {
        let name = node.tag_name().name();
        assert!(allowed.contains(&name), "unexpected element <{name}>");
        for attribute in node.attributes() {
            let key = attribute.name().to_ascii_lowercase();
            assert!(!key.starts_with("on"), "event handler {key} on <{name}>");
            assert!(key != "src", "src on <{name}>");
            if key == "href" {
                assert_eq!(attribute.value(), "data:,", "href on <{name}>");
            }
        }
    }
    assert_no_network_reference(markup);
}

/// No reference a browser would fetch: no http(s), ws(s) or protocol-relative src, href,
/// CSS url( or @import. (Text may mention a URL: it is escaped text, never fetched.)
fn assert_no_network_reference(markup: &str) {
    for attribute in ["src=\"", "src='", "href=\"http", "href=\"//", "href=\"ws"] {
        assert!(!markup.contains(attribute), "{attribute} in the markup");
    }
    for css in ["url(", "@import"] {
        let style = markup
            .split("<style>")
            .nth(1)
            .map_or("", |s| s.split("</style>").next().unwrap_or(""));
        assert!(!style.contains(css), "{css} in the stylesheet");
    }
}

fn temp_out(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

#[test]
fn html_output_is_written_to_the_file() {
    let (_dir, path) = temp_out("report.html");
    let out = path.display().to_string();
    let stdout = run_ok(&["report", "--format", "html", "--output", &out]);
    assert!(stdout.is_empty(), "the page goes to the file only");
    let page = std::fs::read_to_string(&path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.ends_with("</html>\n"));
    assert!(page.contains("<meta name=\"viewport\""));
    assert!(page.contains("@media print"));
    assert_inert(&page, PAGE_ELEMENTS);
}

#[test]
fn dark_theme_changes_the_page_not_its_numbers() {
    let light = run_ok(&["report", "--format", "html"]);
    let dark = run_ok(&["report", "--format", "html", "--theme", "dark"]);
    assert_ne!(light, dark);
    assert!(light.contains("data-theme=\"light\""));
    assert!(dark.contains("data-theme=\"dark\""));
    for (id, _) in common::HEADLINE {
        assert_eq!(data(&light, id), data(&dark, id), "{id}");
    }
}

#[test]
fn html_headline_equals_the_json_report() {
    for args in [
        vec![],
        vec!["--profile", "hermes-2026-09"],
        vec![
            "--threshold-pct",
            "12",
            "--price-per-mtok",
            "15",
            "--turns-per-day",
            "250",
        ],
        vec!["--context", "1M", "--estimate-only"],
    ] {
        let mut html_args = vec!["report", "--format", "html"];
        html_args.extend_from_slice(&args);
        let page = run_ok(&html_args);
        let json = report_json(&args);
        // The page sets seed beside the release it reports on (the newest by default).
        let chosen = if args.contains(&"--profile") {
            "hermes-2026-09"
        } else {
            common::newest()
        };
        let per_profile: Vec<(&str, serde_json::Value)> = ["seed", chosen]
            .into_iter()
            .map(|profile| {
                let mut with = args.clone();
                with.retain(|a| *a != "--profile" && *a != "hermes-2026-09");
                with.extend(["--profile", profile]);
                if !with.contains(&"--estimate-only") {
                    with.push("--estimate-only");
                }
                (profile, report_json(&with))
            })
            .collect();
        assert_same_numbers(&page, &json, &per_profile);
        // The page says which tokenizer its real counts are in: the sample model's.
        assert_eq!(
            page.contains(
                "<span class=\"tokenizer\">claude-v3</span> count: claude-v3 is the tokenizer of anthropic/claude-sonnet-4.5"
            ),
            !args.contains(&"--estimate-only")
        );
        assert_eq!(
            page.contains("claude-v3 counts not made"),
            args.contains(&"--estimate-only")
        );
    }
}

#[test]
fn html_with_queries_has_the_eval_section() {
    let dir = tempfile::tempdir().unwrap();
    let queries = dir.path().join("queries.yaml");
    std::fs::write(
        &queries,
        "queries:\n  - {id: scrape, query: scrape a web page, expected: [firecrawl/firecrawl_scrape]}\n  - {id: none, query: zzz qqq, expected: [fetch/fetch]}\n",
    )
    .unwrap();
    let q = queries.display().to_string();
    let page = run_ok(&["report", "--format", "html", "--queries", &q]);
    assert!(page.contains("<section id=\"eval\">"));
    assert!(data(&page, "eval-recall-k").is_some());
    assert!(
        page.contains("Misses: 1 of 2 queries"),
        "zzz qqq finds nothing"
    );
    let without = run_ok(&["report", "--format", "html"]);
    assert!(!without.contains("<section id=\"eval\">"));
}

/// Every agent of the table, as `compare --agent` takes them.
fn every_agent() -> String {
    schematax_releases::AGENTS
        .iter()
        .map(|a| a.id)
        .collect::<Vec<_>>()
        .join(",")
}

/// `compare --agent <every agent> --format json` with `args` added.
pub fn compare_json(args: &[&str]) -> Value {
    let agents = every_agent();
    let mut all = vec!["compare", "--agent", &agents, "--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_str(&run_ok(&all)).expect("compare JSON parses")
}

/// The parts of each agent's turn the page shows, as `compare --agent` names them in JSON.
const AGENT_PARTS: &[&str] = &[
    "per_turn",
    "without_deferral",
    "eager",
    "listing",
    "fixed_tools",
    "instructions",
    "one_search",
];

/// Checks the agents section of `page` (a page or a dumped DOM) against `compare` (the JSON of
/// `compare --agent` of every agent): the count, each agent labelled `id@version` and marked
/// modelled where a part is, and every figure: tokens when counted, else chars/4 marked `~`.
pub fn assert_same_agent_figures(page: &str, compare: &Value) {
    let agents = compare["agents"].as_array().expect("compare lists agents");
    assert_eq!(agents.len(), schematax_releases::AGENTS.len());
    let (count, _) = data(page, "agent-count").expect("no <data id=\"agent-count\">");
    assert_eq!(count, agents.len());
    assert!(page.contains(&format!(
        "This catalog in <data id=\"agent-count\" value=\"{0}\">{0}</data> agents",
        agents.len()
    )));
    for agent in agents {
        let label = agent["agent"].as_str().unwrap();
        let id = label.split('@').next().unwrap();
        let item = page
            .split(&format!("<li data-agent=\"{id}\">"))
            .nth(1)
            .and_then(|s| s.split("</li>").next())
            .unwrap_or_else(|| panic!("no bars of {id}"));
        assert!(
            item.contains(&format!("<code>{label}</code>")),
            "{id} is labelled {label}"
        );
        let modelled = !agent["modelled"].as_array().unwrap().is_empty();
        assert_eq!(
            item.contains("class=\"modelled\""),
            modelled,
            "{id} modelled"
        );
        for part in AGENT_PARTS {
            let size = &agent["parts"][part];
            let key = format!("agent-{id}-{}", part.replace('_', "-"));
            let (value, text) = data(page, &key).unwrap_or_else(|| panic!("no <data id={key:?}>"));
            let estimate = size["tokens"].is_null();
            let expected = if estimate {
                &size["estimate_tokens"]
            } else {
                &size["tokens"]
            };
            assert_eq!(&value, expected, "{key}");
            if text == "-" {
                assert_eq!(size["chars"], 0, "{key}: - only for nothing");
            } else {
                assert_eq!(text.starts_with('~'), estimate, "{key}: {text}");
                assert_eq!(
                    text.trim_start_matches('~').replace(',', ""),
                    expected.to_string(),
                    "{key}: the text is the number"
                );
            }
        }
    }
}

#[test]
fn html_agents_section_equals_compare_json() {
    for args in [
        vec![],
        vec!["--tools", "tests/data/captures"],
        vec!["--estimate-only"],
        vec!["--tools", "tests/data/captures", "--estimate-only"],
        vec!["--profile", "seed", "--context", "1M"],
    ] {
        let mut html_args = vec!["report", "--format", "html"];
        html_args.extend_from_slice(&args);
        let page = run_ok(&html_args);
        let compare = compare_json(&args);
        assert_same_agent_figures(&page, &compare);
        // Hermes is the page's release.
        let profile = page
            .split("<b id=\"profile\">")
            .nth(1)
            .and_then(|s| s.split('<').next());
        let hermes = compare["agents"][0]["agent"].as_str().unwrap();
        assert_eq!(
            profile.map(|p| p.trim_start_matches("hermes-")),
            hermes.strip_prefix("hermes@"),
            "{args:?}"
        );
        // Its tokens are in the page's tokenizer, the one its server chart counts in.
        match compare["tokenizer"].as_str() {
            Some(name) => {
                assert!(!args.contains(&"--estimate-only"));
                let shown = format!("<span class=\"tokenizer\">{name}</span>");
                assert!(
                    page.contains(&format!("{shown} count: ")),
                    "{args:?}: {name}"
                );
                assert!(
                    page.contains(&format!(
                        "Tokens in {shown}, the tokenizer this page counts in"
                    )),
                    "{args:?}"
                );
            }
            None => {
                assert!(args.contains(&"--estimate-only"));
                assert!(page.contains("this page counts no tokens"), "{args:?}");
            }
        }
        assert_inert(&page, PAGE_ELEMENTS);
    }
}

#[test]
fn theme_and_queries_need_the_html_format() {
    let output = schematax(&["report", "--theme", "dark"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--format html"));
}

#[test]
fn card_is_a_1200_by_630_svg() {
    let (_dir, path) = temp_out("card.svg");
    let out = path.display().to_string();
    run_ok(&["card", "--format", "svg", "--output", &out]);
    let svg = std::fs::read_to_string(&path).unwrap();
    let document = parse(&svg);
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert_eq!(root.attribute("width"), Some("1200"));
    assert_eq!(root.attribute("height"), Some("630"));
    assert_eq!(root.attribute("viewBox"), Some("0 0 1200 630"));
    assert_inert(&svg, CARD_ELEMENTS);
    let json = report_json(&["--estimate-only"]);
    let before = json["tokens_before"].as_u64().unwrap();
    assert!(svg.contains(&schematax_engine::text::thousands(before)));
}

#[test]
fn card_says_the_range_across_the_agents() {
    for args in [
        vec![],
        vec!["--tools", "tests/data/captures"],
        vec!["--profile", "seed"],
    ] {
        let mut card_args = vec!["card"];
        card_args.extend_from_slice(&args);
        let svg = run_ok(&card_args);
        let mut with = args.clone();
        with.push("--estimate-only");
        let compare = compare_json(&with);
        let agents = compare["agents"].as_array().unwrap();
        let sent = |a: &&Value| a["parts"]["per_turn"]["estimate_tokens"].as_u64().unwrap();
        let least = agents.iter().min_by_key(sent).unwrap();
        let most = agents.iter().max_by_key(sent).unwrap();
        let id = |a: &Value| {
            a["agent"]
                .as_str()
                .unwrap()
                .split('@')
                .next()
                .unwrap()
                .to_string()
        };
        let line = format!(
            ">This catalog in {} agents: {}–{} tokens a turn ({} to {})</text>",
            agents.len(),
            schematax_engine::text::thousands(sent(&least)),
            schematax_engine::text::thousands(sent(&most)),
            id(least),
            id(most)
        );
        assert!(svg.contains(&line), "{args:?}: {line}");
        // The card's Hermes is its release: its headline after Tool Search.
        let report = report_json(&args);
        assert_eq!(
            agents[0]["parts"]["per_turn"]["estimate_tokens"], report["tokens_after"],
            "{args:?}"
        );
        assert_inert(&svg, CARD_ELEMENTS);
    }
}

#[test]
fn card_snapshots() {
    insta::assert_snapshot!("card_light", run_ok(&["card"]));
    insta::assert_snapshot!("card_dark", run_ok(&["card", "--theme", "dark"]));
}

/// Text that would be markup, a style break-out, attribute quotes, bidirectional controls
/// and a terminal escape.
const EVIL: &str =
    "<script>alert(1)</script></style>\"'\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{202a}\u{200e}\u{200f}\u{1b}[31m&";

const BIDI: &[char] = &[
    '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}', '\u{200e}', '\u{200f}',
];

/// A config under a directory whose path holds `<script>`, `</script>`, `</style>`, quotes and
/// a bidi override, with captures whose server, tool, description and property names are
/// hostile, and a queries file whose id and query are.
fn hostile_inputs(root: &Path) -> (PathBuf, PathBuf) {
    let dir = root
        .join("<script>alert(1)<")
        .join("script><")
        .join("style>\"'\u{202e}x");
    let tools = dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let config = dir.join("hermes.yaml");
    std::fs::write(&config, "model:\n  context_length: 200000\n").unwrap();
    let evil_tool = serde_json::json!({
        "server": format!("srv{EVIL}"),
        "tools": [
            {
                "name": format!("tool{EVIL}"),
                "description": format!("Scrapes {EVIL} pages. Then {EVIL}"),
                "inputSchema": {"type": "object", "properties": {
                    format!("<script>p</script>{EVIL}"): {"type": "string"},
                    format!("\"'q{EVIL}"): {}
                }}
            },
            {"name": "<img src=x onerror=alert(1)>", "description": EVIL, "inputSchema": {}}
        ]
    });
    std::fs::write(tools.join("evil.json"), evil_tool.to_string()).unwrap();
    let plain = serde_json::json!({
        "server": "plain",
        "tools": [{"name": "fetch_page", "description": "Fetch a page.", "inputSchema": {"type": "object"}}]
    });
    std::fs::write(tools.join("plain.json"), plain.to_string()).unwrap();
    let queries = root.join("queries.yaml");
    let set = serde_json::json!({"queries": [
        {"id": format!("id{EVIL}"), "query": format!("{EVIL} scripts alert"), "expected": ["plain/fetch_page"]},
        {"id": "gone", "query": "anything", "expected": [format!("missing{EVIL}")]}
    ]});
    std::fs::write(&queries, set.to_string()).unwrap();
    (config, queries)
}

fn assert_no_hostile_markup(markup: &str, allowed: &[&str]) {
    assert!(!markup.contains("<script"), "a <script> element");
    assert!(!markup.contains("<img"), "an <img> element");
    assert!(
        markup.matches("</style>").count() <= 1,
        "a </style> break-out"
    );
    assert!(!markup.contains("\"'"), "raw quotes");
    assert!(!markup.contains('\u{1b}'), "a terminal escape");
    for c in BIDI {
        assert!(!markup.contains(*c), "bidi control U+{:04X}", *c as u32);
    }
    assert_inert(markup, allowed);
}

#[test]
fn hostile_text_never_becomes_markup() {
    let root = tempfile::tempdir().unwrap();
    let (config, queries) = hostile_inputs(root.path());
    let (config, queries) = (config.display().to_string(), queries.display().to_string());
    for profile in ["seed", common::newest()] {
        let page = run_ok(&[
            "report",
            &config,
            "--format",
            "html",
            "--queries",
            &queries,
            "--profile",
            profile,
        ]);
        assert_no_hostile_markup(&page, PAGE_ELEMENTS);
        assert_eq!(page.matches("</style>").count(), 1, "only the page's own");
        let shown = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/style&gt;&quot;&#39;";
        for (what, needle) in [
            (
                "config path",
                "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/style&gt;&quot;&#39;x",
            ),
            ("server name", &format!("srv{shown}")),
            ("tool name", &format!("tool{shown}")),
            ("description", &format!("Scrapes {shown}")),
            ("property name", "&lt;script&gt;p&lt;/script&gt;"),
            ("property name", "&quot;&#39;q&lt;script&gt;"),
            ("query text", &format!("{shown}&amp; scripts alert")),
            ("query id", &format!("id{shown}")),
        ] {
            assert!(
                page.contains(needle),
                "{profile}: the {what} is not shown as text"
            );
        }
        let card = run_ok(&["card", &config, "--profile", profile]);
        assert_no_hostile_markup(&card, CARD_ELEMENTS);
        assert!(
            card.contains("srv&lt;script&gt;alert(1)&lt;"),
            "the card shows the server"
        );
    }
}
