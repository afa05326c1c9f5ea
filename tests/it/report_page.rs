//! The report page (`report --format html`) and the card (`card`) from the binary: files
//! written, themes, the same headline numbers as `report --format json`, well-formed markup,
//! no network reference, card snapshots, and hostile text that never becomes markup.

use crate::common;

use common::{assert_same_numbers, data, report_json, run_ok, schematax};
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
