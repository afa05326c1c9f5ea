//! Seeded random jobs for the differential test: catalogs drawn from the real captures of
//! `tests/data/captures` (random servers in random order, random subsets of their tools, odd
//! and colliding names, names over 64 characters, hostile schemas), configs with every
//! `tool_search` key in and out of range, session scopes, a grid of context lengths and
//! overrides, keyword and sentence queries with limits, and describes.
//!
//! A job is plain JSON, read by `tests/oracle/hermes_oracle.py` (which runs a Hermes release on
//! it) and by the Rust side of `crates/engine/tests/it/releases.rs`.

use serde_json::{json, Map, Value};
use std::path::Path;

/// A small deterministic generator: schematax's own SplitMix64, with the draws the jobs were
/// first made with (a number in `0..n` by remainder), so the same seed gives the same jobs
/// everywhere.
pub struct Rng(schematax_synthetic::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(schematax_synthetic::Rng::new(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// `k` distinct indices of `0..n`, in random order.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..n).collect();
        for i in 0..k.min(n) {
            let j = i + self.below(n - i);
            all.swap(i, j);
        }
        all.truncate(k.min(n));
        all
    }
}

/// One real capture: its server name and its tools as the server listed them.
pub struct Capture {
    pub server: String,
    pub tools: Vec<Value>,
}

/// Every capture of a folder, in name order.
pub fn load_captures(folder: &Path) -> Vec<Capture> {
    let mut paths: Vec<_> = std::fs::read_dir(folder)
        .expect("the captures folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let value: Value =
                serde_json::from_slice(&std::fs::read(path).expect("a capture")).expect("JSON");
            Capture {
                server: value["server"].as_str().expect("server").to_string(),
                tools: value["tools"].as_array().expect("tools").clone(),
            }
        })
        .collect()
}

/// Server names that sanitise oddly, collide, or are long enough to push a tool name past the
/// 64-character clamp.
const ODD_SERVER_NAMES: &[&str] = &[
    "my-api",
    "my_api",
    "my.api",
    "Git Hub",
    "ünïcode",
    "files",
    "UPPER-case",
    "a-very-long-server-name-for-the-name-clamp-of-hermes",
    "s",
    "github",
    "mcp",
    "x:y",
];

/// Tool schemas that take every branch of the releases' schema passes.
fn hostile_schemas() -> Vec<Value> {
    let long_key = "k".repeat(70);
    vec![
        json!({"type": "object", "properties": {"v": {"type": ["string", "number", "null"]}, "w": {"type": ["integer", "null"]}, "z": {"type": []}, "n": {"type": ["null"]}}}),
        json!({"properties": {"a": {"type": "array"}, "b": {"type": "object", "properties": {"c": {"type": "array"}, "d": {"type": ["array", "null"]}}}}, "required": ["a", "missing"]}),
        json!({"type": "object", "definitions": {"X": {"type": "object", "properties": {"y": {"type": "string"}}}}, "properties": {"x": {"$ref": "#/definitions/X", "default": {}}, "definitions": {"type": "string"}}}),
        json!({"type": "object", "properties": {"mode": {"anyOf": [{"const": "a"}, {"const": "b", "title": "B"}, {"type": "null"}], "description": "m", "default": "a"}, "flag": {"oneOf": [{"const": true}, {"const": false}]}, "num": {"anyOf": [{"const": 1, "type": "integer"}, {"const": 2}]}}}),
        json!({"type": "object", "properties": {"s": "string", "o": "object", "arr": "array", "weird": "foo", "i": "integer"}}),
        json!({"type": "object", "properties": {"bad name!": {"type": "string"}, "bad_name_": {"type": "string"}, (long_key): {"type": "string"}, "": {"type": "string"}, "ok.key-1": {"type": "string"}}, "required": ["bad name!", "ok.key-1"]}),
        json!({"type": "object", "properties": {"a": {"type": "string", "required": true}, "b": {"type": "string", "required": false}, "c": {"type": "object", "properties": {"d": {"type": "string", "required": true}}}}, "required": ["b"]}),
        json!({"type": "object", "properties": {"properties": {"type": "string"}, "required": {"type": "boolean"}, "type": {"type": "string"}}}),
        json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}, "default": ["x", {"y": 1}]}, "meta": {"type": "object", "default": {"k": "v"}, "examples": [{"k": 1}]}, "e": {"enum": [{"a": 1}, "b"], "x-extra": {"nested": ["q"]}, "const": {"c": 1}}}}),
        json!({}),
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}], "title": "Top", "description": "top level union"}),
        json!({"type": "object", "properties": {"opt": {"anyOf": [{"type": "string", "description": "inner"}, {"type": "null"}], "title": "Opt", "description": "outer", "default": null, "examples": ["e"]}, "ref": {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}], "default": null}, "deep": {"oneOf": [{"anyOf": [{"type": "integer"}, {"type": "null"}]}, {"type": "null"}]}}, "$defs": {"R": {"type": "object", "properties": {"r": {"type": "string"}}}}}),
        json!({"type": "object", "properties": [1, 2], "required": "x"}),
        json!({"type": "object", "properties": {"p": {"type": "object", "patternProperties": {"^x": {"type": ["string", "null"]}}, "additionalProperties": false}, "q": {"type": "object", "additionalProperties": {"type": "array"}}, "t": {"type": "array", "items": [{"type": "string"}, "number"]}, "n": {"not": {"type": "null"}, "if": {"type": "string"}, "then": {"type": "array"}, "else": "object"}, "dep": {"type": "object", "dependencies": {"a": ["b"], "c": {"properties": {"d": {"type": "array"}}}}}}}),
        json!({"type": "object", "properties": {"x": {"type": "string"}}, "allOf": [{"required": ["x"]}], "enum": [1], "not": {"type": "null"}, "oneOf": [{"type": "object"}], "default": {"x": "y"}}),
        json!({"type": "object", "properties": {"u": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "nested": {"type": "object", "properties": {"inner": {"anyOf": [{"type": "object", "properties": {"z": {"type": "array"}}}, {"type": "null"}]}}}}, "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}),
        json!({"type": "object", "properties": {"many": {"type": ["string", "integer", "boolean", "array", "object", "null"], "items": {"type": "string"}}}}),
        json!({"type": "object", "properties": {"target": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}}, "anyOf": [{"required": ["target"]}]}),
        json!({"type": "object", "properties": {"s": {"anyOf": ["string", {"type": "null"}]}, "t": {"anyOf": ["null", {"type": "string", "description": "late null"}]}, "u": {"oneOf": [{"type": "null"}, "integer"], "default": 3}}}),
        json!({"type": "object", "$defs": {"Shape": {"properties": {"required": {"type": "string"}, "properties": {"type": "integer"}}, "required": ["required"]}}, "properties": {"shape": {"$ref": "#/$defs/Shape"}}}),
        json!({"type": "object", "properties": {"n": {"type": ["string", 5, "null"]}, "m": {"type": ["", "integer"]}, "o": {"nullable": false, "type": ["string", "null"]}, "p": {"type": ["number", "null"], "nullable": false}}}),
        json!({"type": "object", "properties": {"deps": {"type": "object", "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"a": {"type": ["string", "null"]}}, "propertyNames": {"pattern": "^x"}, "contains": "string"}}}),
        json!({"type": "object", "properties": {"x": {"type": "string", "required": true}, "y": {"type": "string", "required": true}}, "required": ["y", "gone"]}),
    ]
}

/// Descriptions that take the branches of the description rules (fallback, tag characters,
/// sentence cut, clip).
fn hostile_descriptions() -> Vec<Option<String>> {
    let tag = |c: u32| char::from_u32(c).expect("a tag character");
    let flag: String = std::iter::once('\u{1F3F4}')
        .chain([0xE0067, 0xE0062, 0xE0065, 0xE006E, 0xE0067, 0xE007F].map(tag))
        .collect();
    let hidden: String = [0xE0041, 0xE0042, 0xE0020].map(tag).into_iter().collect();
    vec![
        None,
        Some(String::new()),
        Some(format!(
            "Reads a file{hidden} from disk {flag} fast. More text here."
        )),
        Some("Search issues, e.g. bugs. Then more.".into()),
        Some("Lists things i.e. stuff etc. and more! Second sentence?".into()),
        Some(format!("{} end.", "word ".repeat(130))),
        Some("   Leading   spaces\tand\ttabs\n\nnewlines   ".into()),
        Some("Ein Ünïcode-Text mit Umlauten: größer, Straße.".into()),
        Some("A".repeat(70)),
        Some(
            "Short, comma; colon: semicolon, and so on and so forth until it is long enough".into(),
        ),
    ]
}

/// Tool names that collide after sanitising, run long, or are odd.
const ODD_TOOL_NAMES: &[&str] = &[
    "read-file",
    "read_file",
    "read.file",
    "café",
    "tool_search",
    "a-tool-name-that-is-long-enough-on-its-own-to-pass-the-name-clamp-of-64",
    "UPPER_Case",
    "x",
    "list issues",
];

fn hostile_tool(rng: &mut Rng) -> Value {
    let mut tool = Map::new();
    tool.insert("name".into(), json!(rng.pick(ODD_TOOL_NAMES)));
    if let Some(description) = rng.pick(&hostile_descriptions()).clone() {
        tool.insert("description".into(), json!(description));
    }
    tool.insert("inputSchema".into(), rng.pick(&hostile_schemas()).clone());
    Value::Object(tool)
}

/// Words of a tool's name and description: the stuff of queries.
fn words(tool: &Value) -> Vec<String> {
    let text = format!(
        "{} {}",
        tool["name"].as_str().unwrap_or(""),
        tool["description"].as_str().unwrap_or("")
    );
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A name as Hermes sanitises a part of it: every character outside `[A-Za-z0-9_]` -> `_`.
fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).expect("a JSON string is a YAML string")
}

/// A random `tools.tool_search` block (YAML lines under `tools:`), or none.
fn tool_search_yaml(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => return String::new(),
        1 => {
            let value = rng.pick(&["true", "false", "'off'", "off", "garbage", "123", "null"]);
            return format!("  tool_search: {value}\n");
        }
        _ => {}
    }
    let mut lines = String::from("  tool_search:\n");
    let keys: &[(&str, &[&str])] = &[
        (
            "enabled",
            &[
                "auto", "on", "off", "yes", "no", "1", "0", "true", "false", "maybe", "'ON '",
            ],
        ),
        (
            "threshold_pct",
            &[
                "0",
                "0.7",
                "1",
                "2.3",
                "2.5",
                "5",
                "7.1",
                "10",
                "50",
                "100",
                "150",
                "-5",
                "'7'",
                "abc",
                ".nan",
                ".inf",
                "${SCHEMATAX_PCT}",
            ],
        ),
        (
            "max_search_limit",
            &[
                "1", "3", "7", "20", "25", "60", "'9'", "x", "3.7", "-2", ".inf",
            ],
        ),
        (
            "search_default_limit",
            &["1", "2", "5", "9", "30", "'4'", "x", "2.9", "0"],
        ),
        ("listing", &["auto", "on", "off", "x", "false"]),
        (
            "listing_max_tokens",
            &["100", "200", "350", "1000", "4000", "70000", "x", "'500'"],
        ),
        (
            "defer",
            &["[]", "[todo_list, read_file]", "scalar", "{a: 1}"],
        ),
        ("unknown_key", &["1"]),
    ];
    for (key, values) in keys {
        if rng.chance(0.4) {
            lines.push_str(&format!("    {key}: {}\n", rng.pick(values)));
        }
    }
    if lines.ends_with("tool_search:\n") {
        lines.push_str("    enabled: auto\n");
    }
    lines
}

/// One server of a job: its name and tools.
struct JobServer {
    name: String,
    tools: Vec<Value>,
}

fn servers(rng: &mut Rng, captures: &[Capture]) -> Vec<JobServer> {
    let count = 1 + rng.below(5);
    let mut out: Vec<JobServer> = Vec::new();
    for index in rng.sample(captures.len(), count) {
        let capture = &captures[index];
        let name = if rng.chance(0.25) {
            rng.pick(ODD_SERVER_NAMES).to_string()
        } else {
            capture.server.clone()
        };
        if out.iter().any(|s| s.name == name) {
            continue;
        }
        let total = capture.tools.len();
        let keep = if total <= 6 || rng.chance(0.3) {
            total
        } else {
            1 + rng.below(total.min(40))
        };
        let mut picked = rng.sample(total, keep);
        picked.sort_unstable();
        let mut tools: Vec<Value> = picked.iter().map(|&i| capture.tools[i].clone()).collect();
        if rng.chance(0.5) {
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(tools.len() + 1);
                tools.insert(at, hostile_tool(rng));
            }
        }
        if rng.chance(0.1) {
            let at = rng.below(tools.len());
            tools[at]
                .as_object_mut()
                .expect("a tool")
                .remove("inputSchema");
        }
        out.push(JobServer { name, tools });
    }
    if rng.chance(0.2) {
        // A second server whose name sanitises like the first one's, with the same tools.
        let twin = format!("{}-", out[0].name.trim_end_matches('-'));
        let tools = out[0].tools.iter().take(3).cloned().collect();
        out.push(JobServer { name: twin, tools });
    }
    out
}

fn config_yaml(rng: &mut Rng, servers: &[JobServer]) -> String {
    let mut yaml = String::from("mcp_servers:\n");
    for server in servers {
        yaml.push_str(&format!(
            "  {}:\n    command: \"true\"\n",
            yaml_string(&server.name)
        ));
        if rng.chance(0.06) {
            yaml.push_str("    enabled: false\n");
        }
        if rng.chance(0.2) && !server.tools.is_empty() {
            let key = if rng.chance(0.5) {
                "include"
            } else {
                "exclude"
            };
            let k = 1 + rng.below(3);
            let mut names: Vec<String> = rng
                .sample(server.tools.len(), k)
                .into_iter()
                .map(|i| {
                    let name = server.tools[i]["name"].as_str().unwrap_or("");
                    // Some entries are shell patterns (Hermes 0.20 on reads them as globs).
                    match rng.below(5) {
                        0 => format!("{}*", name.chars().take(3).collect::<String>()),
                        1 => format!(
                            "*{}",
                            name.chars()
                                .rev()
                                .take(2)
                                .collect::<Vec<_>>()
                                .into_iter()
                                .rev()
                                .collect::<String>()
                        ),
                        2 => format!("[a-m]{}", name.chars().skip(1).collect::<String>()),
                        _ => name.to_string(),
                    }
                })
                .map(|n| yaml_string(&n))
                .collect();
            if names.len() == 1 && rng.chance(0.5) {
                yaml.push_str(&format!("    tools:\n      {key}: {}\n", names.remove(0)));
            } else {
                yaml.push_str(&format!(
                    "    tools:\n      {key}: [{}]\n",
                    names.join(", ")
                ));
            }
        }
    }
    let mut block = tool_search_yaml(rng);
    if rng.chance(0.05) && block.contains("    ") {
        // A key written twice: PyYAML keeps the later value, ruamel.yaml refuses the file.
        block.push_str("    threshold_pct: 2\n    threshold_pct: 3\n");
    }
    if !block.is_empty() {
        yaml.push_str("tools:\n");
        yaml.push_str(&block);
    }
    if rng.chance(0.03) {
        let name = &servers[0].name;
        yaml.push_str(&format!(
            "mcp_servers:\n  {}:\n    command: \"again\"\n",
            yaml_string(name)
        ));
    }
    yaml
}

fn grid(rng: &mut Rng) -> Vec<Value> {
    let contexts = [0u64, 4096, 8192, 32_768, 128_000, 200_000, 1_000_000];
    let overrides = [
        json!({}),
        json!({"threshold_pct": 0}),
        json!({"threshold_pct": 1}),
        json!({"threshold_pct": 2.5}),
        json!({"threshold_pct": 50}),
        json!({"listing_max_tokens": 200}),
        json!({"listing_max_tokens": 1500}),
        json!({"listing": "off"}),
        json!({"enabled": "on"}),
        json!({"enabled": "off"}),
        json!({"enabled": "auto", "threshold_pct": 100}),
    ];
    let mut points: Vec<Value> = contexts
        .iter()
        .map(|&c| json!({"context_length": c, "overrides": {}}))
        .collect();
    for _ in 0..8 {
        points.push(
            json!({"context_length": rng.pick(&contexts), "overrides": rng.pick(&overrides)}),
        );
    }
    points
}

fn queries(rng: &mut Rng, servers: &[JobServer]) -> Vec<String> {
    let tools: Vec<&Value> = servers.iter().flat_map(|s| &s.tools).collect();
    let mut out = Vec::new();
    for _ in 0..14 {
        let tool = rng.pick(&tools);
        let words = words(tool);
        let query = match rng.below(10) {
            0 | 1 => {
                let n = 1 + rng.below(3);
                let start = rng.below(words.len().max(1));
                words
                    .iter()
                    .skip(start)
                    .take(n)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            2 | 3 => {
                let n = 4 + rng.below(6);
                words.iter().take(n).cloned().collect::<Vec<_>>().join(" ")
            }
            4 => {
                let server = rng.pick(servers);
                format!(
                    "{} {}",
                    server.name,
                    rng.pick(&["create", "list", "search", "get", "delete issues", "files"])
                )
            }
            5 => {
                let server = rng.pick(servers);
                let name = tool["name"].as_str().unwrap_or("");
                let (sep, case) = if rng.chance(0.5) {
                    ("_", false)
                } else {
                    ("__", rng.chance(0.3))
                };
                let full = format!("mcp{sep}{}{sep}{}", sanitize(&server.name), sanitize(name));
                if case {
                    full.to_uppercase()
                } else {
                    full
                }
            }
            6 => rng
                .pick(&[
                    "zzyzx",
                    "created issues",
                    "organization",
                    "pasted added",
                    "read files from disk please",
                    "git",
                    "github_create",
                    "e.g.",
                    "___",
                    "",
                    "  ",
                    "mcp",
                ])
                .to_string(),
            7 => format!("{} zzyzx", words.first().cloned().unwrap_or_default()),
            8 => {
                let a = rng.pick(&tools);
                let b = words.iter().take(2).cloned().collect::<Vec<_>>().join(" ");
                format!("{} {b}", self::words(a).last().cloned().unwrap_or_default())
            }
            _ => tool["name"].as_str().unwrap_or("").replace(['_', '-'], " "),
        };
        out.push(query);
    }
    out
}

fn searches(rng: &mut Rng, servers: &[JobServer]) -> Vec<Value> {
    let queries = queries(rng, servers);
    let limits = [
        Value::Null,
        json!(1),
        json!(3),
        json!(5),
        json!(10),
        json!(30),
        json!(0),
        json!(-1),
        json!("7"),
        json!("x"),
        json!(2.5),
    ];
    let mut out = Vec::new();
    for (i, query) in queries.iter().enumerate() {
        let limit = rng.pick(&limits).clone();
        let mut arguments = Map::new();
        match i % 4 {
            0 | 1 => {
                arguments.insert("query".into(), json!(query));
                arguments.insert("queries".into(), json!([query]));
            }
            2 => {
                let mut many = vec![json!(query)];
                let most = if rng.chance(0.1) { 9 } else { 3 };
                for _ in 0..rng.below(most) {
                    many.push(json!(rng.pick(&queries)));
                }
                arguments.insert("query".into(), json!(query));
                arguments.insert("queries".into(), Value::Array(many));
            }
            _ => {
                if rng.chance(0.5) {
                    arguments.insert("query".into(), json!(query));
                } else {
                    arguments.insert("queries".into(), json!(query));
                }
            }
        }
        if !limit.is_null() || rng.chance(0.3) {
            arguments.insert("limit".into(), limit);
        }
        out.push(Value::Object(arguments));
    }
    out
}

fn describes(rng: &mut Rng, servers: &[JobServer]) -> Vec<Value> {
    let mut names = Vec::new();
    for _ in 0..4 {
        let server = rng.pick(servers);
        if server.tools.is_empty() {
            continue;
        }
        let tool = rng.pick(&server.tools)["name"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let (s, t) = (sanitize(&server.name), sanitize(&tool));
        names.push(format!("mcp_{s}_{t}"));
        names.push(format!("mcp__{s}__{t}"));
    }
    names.extend([
        "tool_search".to_string(),
        "mcp__nope__nothing".to_string(),
        String::new(),
    ]);
    let mut out = Vec::new();
    for name in &names {
        let mut arguments = Map::new();
        arguments.insert("name".into(), json!(name));
        arguments.insert("names".into(), json!([name]));
        out.push(Value::Object(arguments));
    }
    let several: Vec<&String> = names.iter().take(12).collect();
    out.push(json!({"names": several}));
    out.push(json!({"names": name_pair(&names)}));
    out.push(json!({"name": ["not", "a string"]}));
    out
}

fn name_pair(names: &[String]) -> Value {
    let first = names.first().cloned().unwrap_or_default();
    json!([first.clone(), first])
}

fn scope(rng: &mut Rng, servers: &[JobServer]) -> (Value, Value) {
    let mut enabled = Value::Null;
    let mut disabled = Value::Null;
    if rng.chance(0.2) {
        let k = 1 + rng.below(servers.len());
        let picked: Vec<Value> = rng
            .sample(servers.len(), k)
            .into_iter()
            .map(|i| {
                let name = &servers[i].name;
                json!(if rng.chance(0.5) {
                    format!("mcp-{name}")
                } else {
                    name.clone()
                })
            })
            .collect();
        enabled = Value::Array(picked);
    }
    if rng.chance(0.15) {
        let name = &rng.pick(servers).name;
        disabled = json!([format!("mcp-{name}")]);
    }
    (enabled, disabled)
}

/// The job with seed `seed`.
pub fn job(seed: u64, captures: &[Capture]) -> Value {
    let mut rng = Rng::new(seed);
    let servers = servers(&mut rng, captures);
    let config_yaml = config_yaml(&mut rng, &servers);
    let (enabled, disabled) = scope(&mut rng, &servers);
    let grid = grid(&mut rng);
    let searches = searches(&mut rng, &servers);
    let describes = describes(&mut rng, &servers);
    json!({
        "id": format!("job-{seed}"),
        "config_yaml": config_yaml,
        "env": {"SCHEMATAX_PCT": "3"},
        "servers": servers.iter().map(|s| json!({"name": s.name, "tools": s.tools})).collect::<Vec<_>>(),
        "enabled_toolsets": enabled,
        "disabled_toolsets": disabled,
        "grid": grid,
        "searches": searches,
        "describes": describes,
    })
}
