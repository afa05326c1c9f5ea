//! The shipped agent packages as the oracle (scripts/install-agent-packages puts them in
//! `target/agent-packages`). Claude Code 2.1.328: `tests/oracle/claude_code.mjs` takes its
//! ToolSearch ranking and fixed texts out of the package's own JS source and runs them in node;
//! this module checks that
//! - every fixed text of `agent_texts::claude_code` is the package's, byte for byte, and each
//!   constant of the Claude Code row occurs in the declaration the package reads it from;
//! - `schematax search --agent claude-code` ranks random catalogs drawn from
//!   `tests/data/captures` (renamed tools, search hints) exactly as the package does: the same
//!   names in the same order, the same scores.
//!
//! Without the package the tests skip with a message, unless `SCHEMATAX_REQUIRE_ORACLE` is set
//! (scripts/test sets it, after installing the package), when they fail.

use schematax_releases::agent_texts::claude_code;
use schematax_releases::agents::{DeferralRule, InstructionsRule, RankingRule};
use schematax_releases::{AgentRules, AGENTS};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Claude Code binary of the installed package, or None (after saying why) when it is
/// not installed and the oracle is not required.
fn claude_binary() -> Option<PathBuf> {
    let root = std::env::var_os("SCHEMATAX_AGENT_PACKAGES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/agent-packages"));
    let binary = root.join("claude-code/package/claude");
    if binary.is_file() {
        return Some(binary);
    }
    assert!(
        std::env::var_os("SCHEMATAX_REQUIRE_ORACLE").is_none(),
        "{} is missing: run scripts/install-agent-packages",
        binary.display()
    );
    eprintln!(
        "agent_packages: skipped, {} is missing (run scripts/install-agent-packages)",
        binary.display()
    );
    None
}

/// Runs the oracle script on `binary` with `args`, `stdin` as its input; its JSON output.
fn oracle(binary: &Path, args: &[&str], stdin: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/claude_code.mjs");
    // localeCompare orders the pool: pin the locale node's ICU reads.
    let mut child = Command::new("node")
        .arg(script)
        .arg(binary)
        .args(args)
        .env("LC_ALL", "en_US.UTF-8")
        .env("LANG", "en_US.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs (scripts/test installs nodejs)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("oracle input written");
    let output = child.wait_with_output().expect("oracle ends");
    assert!(
        output.status.success(),
        "claude_code.mjs {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("oracle JSON")
}

/// The rules of Claude Code's newest release in the agents table.
fn claude_rules() -> &'static AgentRules {
    let agent = AGENTS
        .iter()
        .find(|a| a.id == "claude-code")
        .expect("a claude-code row");
    agent.releases.last().expect("a release").rules
}

/// The text of declaration `name` as the package writes it (from `--texts`).
fn source<'a>(texts: &'a Value, name: &str) -> &'a str {
    texts["sources"][name]
        .as_str()
        .unwrap_or_else(|| panic!("no source for {name}"))
}

/// `snippet` must occur in the package's declaration `name`.
fn assert_in_source(texts: &Value, name: &str, snippet: &str) {
    let text = source(texts, name);
    assert!(
        text.contains(snippet),
        "the package's {name} does not hold {snippet:?}: {text}"
    );
}

#[test]
fn claude_code_texts_are_the_packages() {
    let Some(binary) = claude_binary() else {
        return;
    };
    let texts = oracle(&binary, &["--texts"], "");
    let text = |key: &str| texts[key].as_str().unwrap_or_default().to_string();
    assert_eq!(claude_code::DEFERRED_HEADER, text("deferredHeader"));
    assert_eq!(claude_code::REMINDER_OPEN, text("reminderOpen"));
    assert_eq!(claude_code::REMINDER_CLOSE, text("reminderClose"));
    assert_eq!(claude_code::INSTRUCTIONS_OPEN, text("instructionsOpen"));
    assert_eq!(
        claude_code::INSTRUCTIONS_CUT_MARK,
        text("instructionsCutMark")
    );

    // The definition as the request sends it: {name, description, input_schema}, the schema
    // as the package's zod writes it.
    assert_eq!(
        claude_code::TOOL_SEARCH_DEFINITION,
        text("toolSearchDefinition")
    );
    let definition: Value =
        serde_json::from_str(claude_code::TOOL_SEARCH_DEFINITION).expect("definition JSON");
    assert_eq!(definition["description"], texts["toolSearchDescription"]);
    assert_eq!(definition["input_schema"], texts["toolSearchInputSchema"]);
    assert_row_constants(&texts);
}

/// Each constant of the Claude Code row occurs where the package reads it.
fn assert_row_constants(texts: &Value) {
    let rules = claude_rules();
    let RankingRule::Keywords {
        weights: w,
        description_chars,
        hint_chars,
        query_chars,
        query_terms,
        select_names,
    } = rules.ranking
    else {
        panic!("Claude Code ranks by keywords");
    };
    for snippet in [
        format!("if(ie.parts.includes(Ee))we+=ie.isMcp?{}:10;", w.part_equal),
        format!(
            "else if(ie.parts.some((Ie)=>Ie.includes(Ee)))we+=ie.isMcp?{}:5;",
            w.part_contains
        ),
        format!(
            "if(ie.coarseParts.includes(Ee))we+=ie.isMcp?{}:10;",
            w.name_equal
        ),
        format!(
            "else if(ie.coarseParts.some((Ie)=>Ie.includes(Ee)))we+=ie.isMcp?{}:3;",
            w.name_contains
        ),
        format!("if(Ae&&xe.test(Ae))we+={};", w.hint_word),
        format!("if(xe.test(be))we+={}}}", w.description_word),
        "ee.searchHint?.slice(0,aw)".to_string(),
    ] {
        assert_in_source(texts, "r8t", &snippet);
    }
    // The description ranked is prompt()'s, cut at Gae() = zoo; the hint at aw = zoo.
    assert_in_source(texts, "Gae", "(e?Voo:zoo)");
    assert_in_source(texts, "zoo", &format!("var zoo={description_chars};"));
    assert_in_source(texts, "aw", "var aw=zoo;");
    assert_eq!(hint_chars, description_chars);
    assert_in_source(texts, "dw", &format!("var dw={query_chars};"));
    assert_in_source(texts, "sw", &format!("var sw={query_terms};"));
    assert_in_source(texts, "iw", &format!("var iw={select_names};"));
    assert_in_source(texts, "XJs", "g.slice(0,iw)");
    assert_in_source(
        texts,
        "Pus",
        &format!(".default({})", rules.loading.default_results),
    );
    let loaded = rules.loading.description_chars.expect("a loaded cut");
    assert_in_source(texts, "Voo", &format!("var Voo={loaded};"));
    let DeferralRule::SettingWithTokenShare {
        default_pct,
        overhead_tokens,
        fallback_chars_per_token,
    } = rules.deferral
    else {
        panic!("Claude Code defers by ENABLE_TOOL_SEARCH");
    };
    assert_in_source(texts, "Bvt", &format!("var Bvt={default_pct};"));
    assert_in_source(texts, "Uvt", "if(e===\"auto\")return Bvt;");
    assert_in_source(texts, "ete", &format!("var ete={overhead_tokens};"));
    assert_in_source(
        texts,
        "jvs",
        &format!("var jvs={fallback_chars_per_token};"),
    );
    assert_in_source(texts, "Wvs", "Math.floor(cQn(e)*jvs)");
    let InstructionsRule::Block { cap_chars, .. } = rules.instructions else {
        panic!("Claude Code sends instructions in a block");
    };
    assert_eq!(texts["instructionsCapChars"], json!(cap_chars));
}

/// A small seeded generator (splitmix64): the catalogs and queries are the same every run.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The captures of `tests/data/captures`: (server, tools).
fn captures() -> Vec<(String, Vec<Value>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/captures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("captures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let capture: Value =
                serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON");
            let server = capture["server"].as_str().expect("server").to_string();
            let tools = capture["tools"].as_array().expect("tools").clone();
            (server, tools)
        })
        .collect()
}

/// A name changed the ways real servers spell theirs: dots, hyphens, capitals.
fn respell(draw: &mut Draw, name: &str) -> String {
    match draw.below(6) {
        0 => name.replace('_', "."),
        1 => name.replace('_', "-"),
        2 => name
            .split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            })
            .collect(),
        3 => name.to_uppercase(),
        _ => name.to_string(),
    }
}

/// Words of a text, lowercased, 3 characters or more.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 3)
        .map(str::to_lowercase)
        .collect()
}

/// The edge a tool is given, two in five: a search hint from another tool's words,
/// `alwaysLoad`, a `ui.visibility`, a name past the API's 128 characters, a description past the
/// 4,096-character cut with the cut inside non-ASCII text, a hint whose words lie past 4,096
/// characters of whitespace, a name whose words are joined by Unicode spaces, or a description
/// with accented words.
fn edge(draw: &mut Draw, tool: &mut Value, tools: &[Value]) {
    let name = tool["name"].as_str().unwrap_or_default().to_string();
    let description = tool["description"].as_str().unwrap_or_default().to_string();
    match draw.below(32) {
        0..=5 => {
            let other = draw.pick(tools);
            let hint = words(other["description"].as_str().unwrap_or_default())
                .into_iter()
                .take(4)
                .collect::<Vec<_>>()
                .join("\n ");
            tool["_meta"] = json!({"anthropic/searchHint": format!("  {hint} ")});
        }
        6 => tool["_meta"] = json!({"anthropic/alwaysLoad": true}),
        7 => {
            let visibility = draw
                .pick(&[json!(["app"]), json!(["model", "app"]), json!([])])
                .clone();
            tool["_meta"] = json!({"ui": {"visibility": visibility}});
        }
        8 => tool["name"] = json!(format!("{name}_{}", "x".repeat(70 + draw.below(60)))),
        9 => {
            let long = format!(
                "{}\u{1F600} tail words {description}",
                "\u{e9}".repeat(4090)
            );
            tool["description"] = json!(long);
        }
        10 => {
            let hint = format!("{}hint  words {} late", " ".repeat(4000), "z".repeat(200));
            tool["_meta"] = json!({"anthropic/searchHint": hint});
        }
        11 => {
            // Separators JavaScript's \s and Rust's whitespace disagree on (U+FEFF is \s
            // only, U+0085 whitespace only), and two they agree on.
            let separator = *draw.pick(&["\u{feff}", "\u{85}", "\u{a0}", "\u{2028}"]);
            tool["name"] = json!(name.replace('_', separator));
        }
        12 => {
            // JavaScript's \b knows ASCII word characters only; its toLowerCase is Unicode's.
            let accented = format!(
                "Na\u{ef}ve caf\u{e9} r\u{e9}sum\u{e9} Stra\u{df}e \u{130}stanbul {description}"
            );
            tool["description"] = json!(accented);
        }
        _ => {}
    }
}

/// One catalog: capture files written into `dir`, and the tools as the oracle takes them.
fn catalog(draw: &mut Draw, all: &[(String, Vec<Value>)], dir: &Path) -> Vec<Value> {
    std::fs::create_dir_all(dir).expect("catalog dir");
    let mut oracle_tools = Vec::new();
    let servers = 2 + draw.below(4);
    let mut used = Vec::new();
    for s in 0..servers {
        let (server, tools) = draw.pick(all);
        if used.contains(server) {
            continue;
        }
        used.push(server.clone());
        let server_name = match s {
            1 => respell(draw, server),
            2 => server.replace('-', " "),
            _ => server.clone(),
        };
        let mut chosen = Vec::new();
        for tool in tools {
            if !draw.chance(60) {
                continue;
            }
            let mut tool = tool.clone();
            let name = tool["name"].as_str().unwrap_or_default().to_string();
            if draw.chance(30) {
                tool["name"] = json!(respell(draw, &name));
            }
            edge(draw, &mut tool, tools);
            oracle_tools.push(json!({
                "serverName": server_name,
                "toolName": tool["name"],
                "description": tool["description"],
                "meta": tool["_meta"],
            }));
            chosen.push(tool);
        }
        let capture = json!({"server": server_name, "tools": chosen});
        std::fs::write(
            dir.join(format!("{s}.json")),
            serde_json::to_string(&capture).expect("serialises"),
        )
        .expect("capture written");
    }
    oracle_tools
}

/// Queries a model might send for this catalog: words and pairs of names and descriptions,
/// required terms, server prefixes, exact names (of loaded tools too), mixed case, `select:`
/// lists, and the words that only a long hint or a long description holds past its cut.
fn queries(draw: &mut Draw, tools: &[Value], names: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..36 {
        let tool = draw.pick(tools);
        let name_words = words(tool["toolName"].as_str().unwrap_or_default());
        let description_words = words(tool["description"].as_str().unwrap_or_default());
        let server = tool["serverName"]
            .as_str()
            .unwrap_or_default()
            .to_lowercase();
        let word = |draw: &mut Draw, list: &[String]| {
            if list.is_empty() {
                "search".to_string()
            } else {
                draw.pick(list).clone()
            }
        };
        let query = match draw.below(14) {
            12 | 13 => select_query(draw, tools, names),
            9 => "hint late".to_string(),
            10 => "tail words".to_string(),
            11 => draw
                .pick(&["caf", "sum", "na\u{ef}ve", "stra\u{df}e", "istanbul", "ve"])
                .to_string(),
            0 => word(draw, &name_words),
            1 => format!(
                "{} {}",
                word(draw, &name_words),
                word(draw, &description_words)
            ),
            2 => word(draw, &description_words),
            3 => format!(
                "{} {}",
                word(draw, &description_words),
                word(draw, &description_words)
            ),
            4 => format!(
                "+{} {}",
                server.split(['-', '_', '.', ' ']).next().unwrap_or("x"),
                word(draw, &name_words)
            ),
            5 => {
                let name = draw.pick(names);
                name[..name.rfind("__").unwrap_or(name.len())].to_string()
            }
            6 => draw.pick(names).clone(),
            7 => draw.pick(names).to_uppercase(),
            _ => {
                let w = word(draw, &name_words);
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or(w)
            }
        };
        // A query naming one of Claude Code's own tools finds that tool, which is already
        // loaded, before ranking; schematax models MCP tools only.
        if !CLAUDE_CODE_OWN_TOOLS.contains(&query.to_lowercase().as_str()) && !out.contains(&query)
        {
            out.push(query);
        }
    }
    out
}

/// A `select:` list of one to three names: full names, raw or sanitised tool names, a name no
/// tool has; spaced, repeated or upper-cased at times.
fn select_query(draw: &mut Draw, tools: &[Value], names: &[String]) -> String {
    let count = 1 + draw.below(3);
    let picks: Vec<String> = (0..count)
        .map(|_| {
            let raw = draw.pick(tools)["toolName"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            match draw.below(5) {
                0 | 1 => draw.pick(names).clone(),
                2 => raw,
                3 => raw.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"),
                _ => "no_such_tool".to_string(),
            }
        })
        .collect();
    let separator = if draw.chance(30) { " , " } else { "," };
    let prefix = if draw.chance(15) {
        "SELECT:"
    } else {
        "select:"
    };
    format!("{prefix}{}", picks.join(separator))
}

/// Claude Code's own tools, lowercased (an exact-name query finds them first).
const CLAUDE_CODE_OWN_TOOLS: &[&str] = &[
    "agent",
    "bash",
    "edit",
    "glob",
    "grep",
    "ls",
    "multiedit",
    "notebookedit",
    "read",
    "skill",
    "task",
    "todowrite",
    "toolsearch",
    "webfetch",
    "websearch",
    "write",
];

/// One difference between the package's ranking and schematax's, for the failure message.
fn differences(expected: &Value, got: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let got_queries = got["queries"].as_array().cloned().unwrap_or_default();
    for (i, want) in expected
        .as_array()
        .expect("oracle results")
        .iter()
        .enumerate()
    {
        let query = want["query"].as_str().unwrap_or_default();
        let have = got_queries.get(i).cloned().unwrap_or(Value::Null);
        let pairs = |hits: &Value, with_scores: &Value| -> Vec<String> {
            hits.as_array()
                .map(|hits| {
                    hits.iter()
                        .enumerate()
                        .map(|(j, h)| {
                            let keep_score = !with_scores["hits"][j]["score"].is_null();
                            match h["score"].as_f64() {
                                Some(s) if keep_score => {
                                    format!("{}={s}", h["name"].as_str().unwrap_or("?"))
                                }
                                _ => h["name"].as_str().unwrap_or("?").to_string(),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let want_hits = pairs(&want["hits"], want);
        let have_hits = pairs(&have["hits"], want);
        if have["query"].as_str() != Some(query) || want_hits != have_hits {
            out.push(format!(
                "{query:?}: package {want_hits:?}, schematax {have_hits:?}"
            ));
        }
    }
    out
}

/// `schematax search --agent claude-code` over the catalog in `dir`, as JSON, or why not.
fn schematax_search(dir: &Path, queries: &[String]) -> Result<Value, String> {
    let dir_arg = dir.to_str().expect("UTF-8 temp path");
    let mut args = vec![
        "search",
        "--agent",
        "claude-code",
        "--tools",
        dir_arg,
        "--format",
        "json",
        "--",
    ];
    args.extend(queries.iter().map(String::as_str));
    let output = crate::common::schematax(&args);
    serde_json::from_slice(&output.stdout).map_err(|_| {
        format!(
            "schematax search failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn claude_code_ranking_is_the_packages() {
    let Some(binary) = claude_binary() else {
        return;
    };
    let all = captures();
    let mut draw = Draw(0x5eed_c1a0de);
    let base = std::env::temp_dir().join(format!("schematax-cc-oracle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let dirs: Vec<PathBuf> = (0..10).map(|round| base.join(round.to_string())).collect();
    let catalogs: Vec<Vec<Value>> = dirs
        .iter()
        .map(|dir| catalog(&mut draw, &all, dir))
        .collect();
    // The pool's names as the package builds them, to draw exact-name and prefix queries from.
    let jobs: Vec<Value> = catalogs
        .iter()
        .map(|tools| json!({"tools": tools}))
        .collect();
    let pools = oracle(
        &binary,
        &["--names"],
        &json!({"catalogs": jobs}).to_string(),
    );
    let queries: Vec<Vec<String>> = catalogs
        .iter()
        .zip(pools.as_array().expect("pools"))
        .map(|(tools, pool)| {
            let names: Vec<String> = pool
                .as_array()
                .expect("names")
                .iter()
                .map(|n| n.as_str().expect("name").to_string())
                .collect();
            queries(&mut draw, tools, &names)
        })
        .collect();
    let jobs: Vec<Value> = catalogs
        .iter()
        .zip(&queries)
        .map(|(tools, queries)| json!({"tools": tools, "queries": queries, "k": 5}))
        .collect();
    let expected = oracle(&binary, &[], &json!({"catalogs": jobs}).to_string());
    let mut problems = Vec::new();
    for (round, dir) in dirs.iter().enumerate() {
        match schematax_search(dir, &queries[round]) {
            Ok(got) => {
                assert_eq!(got["agent"], "claude-code@2.1.328");
                let found = differences(&expected[round], &got);
                problems.extend(found.into_iter().map(|d| format!("catalog {round}: {d}")));
            }
            Err(why) => problems.push(format!("catalog {round}: {why}")),
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    let compared: usize = queries.iter().map(Vec::len).sum();
    assert!(
        problems.is_empty(),
        "{} of {compared} queries rank differently from Claude Code 2.1.328:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
