//! Seeded synthetic catalogs, for benchmarks at any size: N tools with distinct names,
//! descriptions and parameters, recombined from the words and shapes of real captures; an
//! OpenAPI-like catalog (hundreds of tools per server with templated descriptions); and
//! distinct queries drawn from a catalog's own words.
//!
//! A distinct tool takes a real tool's description as a template: its common words (those most
//! real tools and servers use: "the", "list", "returns") stay, every other word is drawn anew,
//! weighted as the real descriptions use them, or (one in seven) from its server's own made-up
//! product words, so the vocabulary grows with the catalog. Its parameters take the real
//! tool's schema as a shape: every property renamed from the real parameter names' words,
//! `required` renamed to match, descriptions redrawn like the tool's, enum values redrawn.
//! Its name is a verb and one or two nouns of real tool names, in a real naming style. Server
//! sizes follow the real captures'. The same pools and seed always give the same catalog.

#![warn(missing_docs)]
// A failure is an error value with a message, never a panic (unit tests may unwrap).
#![deny(clippy::unwrap_used)]

use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{Map, Value};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use schematax_engine::nouns::json_text::write_json_string;
use schematax_engine::nouns::object_text::ObjectText;
use schematax_engine::nouns::tools::{McpTool, ServerCapture};
use schematax_engine::text::first_sentence;

/// A small seeded pseudo-random generator (SplitMix64): the same seed, the same catalog.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// How a word drawn into a template is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Lower,
    Capital,
    Upper,
}

/// A description cut into the text kept and the slots redrawn: `text` then (maybe) a slot.
#[derive(Debug, Clone)]
struct Segment {
    text: Box<str>,
    slot: Option<Case>,
}

/// How a real tool or parameter name is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameStyle {
    Snake,
    Kebab,
    Camel,
}

/// What the generators draw from: the words, templates and shapes of real captures.
#[derive(Debug, Clone)]
pub struct Pools {
    /// Every distinct word, by id.
    words: Vec<Box<str>>,
    /// The content words of the real descriptions, one entry per use: drawing from it draws
    /// words as often as real descriptions use them.
    content: Vec<u32>,
    /// The common words, kept in templates and left out of keyword queries.
    common: FxHashSet<Box<str>>,
    /// Real descriptions as templates, with at least two slots each.
    templates: Vec<Vec<Segment>>,
    /// The first words of real tool names (verbs), one entry per use.
    verbs: Vec<u32>,
    /// The other words of real tool names (nouns), one entry per use.
    nouns: Vec<u32>,
    /// The words of real parameter names, one entry per use.
    parameter_words: Vec<u32>,
    /// Real tool naming styles, one per tool.
    styles: Vec<NameStyle>,
    /// Real input schemas, by template (the tool the template came from).
    schemas: Vec<Option<Map<String, Value>>>,
    /// Tools per real server.
    server_sizes: Vec<usize>,
}

/// Why pools cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolsError {
    /// The captures have too few described tools or named parameters to recombine.
    #[error("the captures have too few described tools, names or parameters to draw from")]
    TooLittleText,
}

/// A word is common when at least this share of real descriptions (per mille) use it...
const COMMON_PER_MILLE: usize = 30;
/// ... and at least this many real servers do.
const COMMON_SERVERS: usize = 4;
/// One content word in this many comes from the server's own product words.
const PRODUCT_WORD_ONE_IN: usize = 7;

/// The lowercase ASCII letter runs of `text`, with where each starts.
fn letter_runs(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &text[at..];
        let start = at + rest.find(|c: char| c.is_ascii_alphabetic())?;
        let len = text[start..]
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(text.len() - start);
        at = start + len;
        Some((start, &text[start..at]))
    })
}

/// The words of a name: split on anything not alphanumeric and at camelCase humps, lowercase.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    for (_, run) in letter_runs(name) {
        let mut word = String::new();
        let mut previous_lower = false;
        for c in run.chars() {
            if c.is_ascii_uppercase() && previous_lower && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = c.is_ascii_lowercase();
            word.push(c.to_ascii_lowercase());
        }
        words.push(word);
    }
    words
}

fn style_of(name: &str) -> NameStyle {
    if name.contains('-') {
        NameStyle::Kebab
    } else if !name.contains('_') && name.chars().any(|c| c.is_ascii_uppercase()) {
        NameStyle::Camel
    } else {
        NameStyle::Snake
    }
}

/// Joins lowercase words in `style`.
fn join_name(words: &[&str], style: NameStyle) -> String {
    match style {
        NameStyle::Snake => words.join("_"),
        NameStyle::Kebab => words.join("-"),
        NameStyle::Camel => {
            let mut out = String::new();
            for (i, word) in words.iter().enumerate() {
                let mut chars = word.chars();
                if let (true, Some(first)) = (i > 0, chars.next()) {
                    out.push(first.to_ascii_uppercase());
                    out.push_str(chars.as_str());
                } else {
                    out.push_str(word);
                }
            }
            out
        }
    }
}

/// Words and their ids, as pools are made.
#[derive(Default)]
struct WordTable {
    ids: FxHashMap<Box<str>, u32>,
    words: Vec<Box<str>>,
}

impl WordTable {
    fn id(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.ids.get(word) {
            return id;
        }
        let id = self.words.len() as u32;
        self.words.push(word.into());
        self.ids.insert(word.into(), id);
        id
    }
}

/// The first word most of a server's names start with (`hubspot-list-objects`,
/// `hubspot-get-user-details`): the server's name, not a verb.
fn name_prefix(capture: &ServerCapture) -> Option<String> {
    let mut firsts: FxHashMap<String, usize> = FxHashMap::default();
    for tool in &capture.tools {
        if let Some(first) = name_words(&tool.name).into_iter().next() {
            *firsts.entry(first).or_default() += 1;
        }
    }
    let tools = capture.tools.len();
    firsts
        .into_iter()
        .find(|&(_, count)| tools >= 4 && count * 2 > tools)
        .map(|(word, _)| word)
}

/// The words real descriptions use often and on many servers.
fn common_words(captures: &[ServerCapture]) -> FxHashSet<Box<str>> {
    let mut uses: FxHashMap<String, (usize, FxHashSet<usize>)> = FxHashMap::default();
    let mut tools = 0;
    for (server, capture) in captures.iter().enumerate() {
        for tool in &capture.tools {
            tools += 1;
            let text = tool.description.as_deref().unwrap_or("");
            let words: FxHashSet<String> = letter_runs(text)
                .map(|(_, w)| w.to_ascii_lowercase())
                .collect();
            for word in words {
                let entry = uses.entry(word).or_default();
                entry.0 += 1;
                entry.1.insert(server);
            }
        }
    }
    uses.into_iter()
        .filter(|(_, (count, servers))| {
            count * 1000 >= tools * COMMON_PER_MILLE && servers.len() >= COMMON_SERVERS
        })
        .map(|(word, _)| word.into())
        .collect()
}

/// A description as a template: common words, short words and everything between words kept,
/// the other words slots; their words are added to `content`.
fn template_of(
    text: &str,
    common: &FxHashSet<Box<str>>,
    table: &mut WordTable,
    content: &mut Vec<u32>,
) -> Vec<Segment> {
    let mut segments = Vec::new();
    let mut kept_from = 0;
    for (start, word) in letter_runs(text) {
        let lower = word.to_ascii_lowercase();
        if word.len() < 3 || common.contains(lower.as_str()) {
            continue;
        }
        content.push(table.id(&lower));
        let case = if word.len() > 1 && word.bytes().all(|b| b.is_ascii_uppercase()) {
            Case::Upper
        } else if word.as_bytes()[0].is_ascii_uppercase() {
            Case::Capital
        } else {
            Case::Lower
        };
        segments.push(Segment {
            text: text[kept_from..start].into(),
            slot: Some(case),
        });
        kept_from = start + word.len();
    }
    segments.push(Segment {
        text: text[kept_from..].into(),
        slot: None,
    });
    segments
}

/// The keys of `schema`'s properties, at any depth, for their words.
fn property_names(schema: &Map<String, Value>, out: &mut Vec<String>) {
    for (key, value) in schema {
        match value {
            Value::Object(map) if key == "properties" => {
                for (name, property) in map {
                    out.push(name.clone());
                    if let Value::Object(property) = property {
                        property_names(property, out);
                    }
                }
            }
            Value::Object(map) => property_names(map, out),
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_object)
                .for_each(|item| property_names(item, out)),
            _ => {}
        }
    }
}

impl Pools {
    /// The pools of `captures` (the real captures of tests/data/captures in the benchmarks).
    pub fn from_captures(captures: &[ServerCapture]) -> Result<Pools, PoolsError> {
        let common = common_words(captures);
        let mut table = WordTable::default();
        let (mut content, mut verbs, mut nouns, mut parameter_words) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut templates, mut schemas, mut styles) = (Vec::new(), Vec::new(), Vec::new());
        let prefixes: Vec<Option<String>> = captures.iter().map(name_prefix).collect();
        let tools = captures
            .iter()
            .zip(&prefixes)
            .flat_map(|(c, prefix)| c.tools.iter().map(move |t| (prefix, t)));
        for (prefix, tool) in tools {
            let mut words = name_words(&tool.name);
            if prefix.is_some() && words.len() > 1 && words.first() == prefix.as_ref() {
                words.remove(0);
            }
            if let Some((verb, rest)) = words.split_first() {
                verbs.push(table.id(verb));
                nouns.extend(rest.iter().map(|w| table.id(w)));
            }
            styles.push(style_of(&tool.name));
            let schema = tool.input_schema.as_ref().map(ObjectText::parse);
            let mut names = Vec::new();
            if let Some(schema) = &schema {
                property_names(schema, &mut names);
            }
            for word in names.iter().flat_map(|n| name_words(n)) {
                parameter_words.push(table.id(&word));
            }
            let text = tool.description.as_deref().unwrap_or("");
            let template = template_of(text, &common, &mut table, &mut content);
            if template.iter().filter(|s| s.slot.is_some()).count() >= 2 {
                templates.push(template);
                schemas.push(schema);
            }
        }
        if templates.is_empty()
            || verbs.is_empty()
            || nouns.is_empty()
            || parameter_words.is_empty()
        {
            return Err(PoolsError::TooLittleText);
        }
        Ok(Pools {
            words: table.words,
            content,
            common,
            templates,
            verbs,
            nouns,
            parameter_words,
            styles,
            schemas,
            server_sizes: captures.iter().map(|c| c.tools.len().max(1)).collect(),
        })
    }

    fn word(&self, id: u32) -> &str {
        &self.words[id as usize]
    }

    /// Whether queries leave `word` (lowercase) out: a common or a short word.
    pub fn is_common(&self, word: &str) -> bool {
        word.len() < 3 || self.common.contains(word)
    }
}

/// A stable 64-bit hash of a text, to tell distinct texts apart without keeping them.
fn fingerprint(text: &str) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    text.hash(&mut hasher);
    hasher.finish()
}

/// What a server's tools draw from besides the pools: its own product words and style.
struct ServerDraw {
    products: Vec<String>,
    style: NameStyle,
    prefix: Option<String>,
}

/// A made-up product word: two real nouns run together ("ledger" + "stream").
fn product_word(pools: &Pools, rng: &mut Rng) -> String {
    let first = pools.word(*rng.pick(&pools.nouns));
    let second = pools.word(*rng.pick(&pools.nouns));
    format!("{first}{second}")
}

/// Draws one content word: a server's product word one time in [`PRODUCT_WORD_ONE_IN`], else a
/// real content word as often as real descriptions use it.
fn content_word<'a>(pools: &'a Pools, server: &'a ServerDraw, rng: &mut Rng) -> &'a str {
    if rng.one_in(PRODUCT_WORD_ONE_IN) {
        rng.pick(&server.products).as_str()
    } else {
        pools.word(*rng.pick(&pools.content))
    }
}

/// Fills a template with drawn words.
fn fill(segments: &[Segment], pools: &Pools, server: &ServerDraw, rng: &mut Rng) -> String {
    let mut out = String::new();
    for segment in segments {
        out.push_str(&segment.text);
        if let Some(case) = segment.slot {
            let word = content_word(pools, server, rng);
            match case {
                Case::Lower => out.push_str(word),
                Case::Upper => out.push_str(&word.to_ascii_uppercase()),
                Case::Capital => {
                    let mut chars = word.chars();
                    if let Some(first) = chars.next() {
                        out.push(first.to_ascii_uppercase());
                        out.push_str(chars.as_str());
                    }
                }
            }
        }
    }
    out
}

/// Fills a free-text string of a schema: its common words kept, the others redrawn.
fn refill(text: &str, pools: &Pools, server: &ServerDraw, rng: &mut Rng) -> String {
    let mut table = WordTable::default();
    let segments = template_of(text, &pools.common, &mut table, &mut Vec::new());
    fill(&segments, pools, server, rng)
}

/// A parameter name in the style of `like`: as many words as it has (one to three), drawn from
/// the real parameter names' words.
fn parameter_name(like: &str, pools: &Pools, rng: &mut Rng) -> String {
    let count = name_words(like).len().clamp(1, 3);
    let words: Vec<&str> = (0..count)
        .map(|_| pools.word(*rng.pick(&pools.parameter_words)))
        .collect();
    join_name(&words, style_of(like))
}

/// A schema of the shape of `shape`: properties renamed (and `required` with them), free text
/// and enum values redrawn, everything else as it was.
fn reshape(
    shape: &Map<String, Value>,
    pools: &Pools,
    server: &ServerDraw,
    rng: &mut Rng,
) -> Map<String, Value> {
    let mut renamed: FxHashMap<&str, String> = FxHashMap::default();
    let mut out = Map::new();
    for (key, value) in shape {
        let value = match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                let mut taken = FxHashSet::default();
                let mut fresh = Map::new();
                for (name, property) in properties {
                    let mut new_name = parameter_name(name, pools, rng);
                    while !taken.insert(new_name.clone()) {
                        new_name = parameter_name(&format!("{name}_x"), pools, rng);
                    }
                    renamed.insert(name, new_name.clone());
                    fresh.insert(new_name, redraw(property, pools, server, rng));
                }
                Value::Object(fresh)
            }
            ("description" | "title", Value::String(text)) => {
                Value::String(refill(text, pools, server, rng))
            }
            ("enum", Value::Array(items)) => Value::Array(
                items
                    .iter()
                    .map(|item| match item {
                        Value::String(_) => Value::String(content_word(pools, server, rng).into()),
                        other => other.clone(),
                    })
                    .collect(),
            ),
            _ => redraw(value, pools, server, rng),
        };
        out.insert(key.clone(), value);
    }
    if let Some(Value::Array(required)) = out.get_mut("required") {
        for name in required.iter_mut() {
            if let Some(new_name) = name.as_str().and_then(|n| renamed.get(n)) {
                *name = Value::String(new_name.clone());
            }
        }
    }
    out
}

/// [`reshape`] of any JSON value: objects are reshaped, arrays item by item.
fn redraw(value: &Value, pools: &Pools, server: &ServerDraw, rng: &mut Rng) -> Value {
    match value {
        Value::Object(map) => Value::Object(reshape(map, pools, server, rng)),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| redraw(item, pools, server, rng))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// What is already in a catalog being made: server names, tool names (lowercase, sanitised),
/// and fingerprints of descriptions and schemas.
#[derive(Default)]
struct Taken {
    servers: FxHashSet<String>,
    names: FxHashSet<String>,
    descriptions: FxHashSet<u64>,
    schemas: FxHashSet<u64>,
}

/// Tries at a distinct draw before a longer one is drawn.
const TRIES: usize = 16;

/// A new server: a product word of its own as its name, two more product words, a naming
/// style of a real tool, and one time in five its name before every tool name.
fn new_server(pools: &Pools, rng: &mut Rng, taken: &mut Taken) -> (String, ServerDraw) {
    let mut name = product_word(pools, rng);
    let mut tries = 0;
    while !taken.servers.insert(name.clone()) {
        tries += 1;
        name = product_word(pools, rng);
        if tries > TRIES {
            name.push_str(pools.word(*rng.pick(&pools.nouns)));
        }
    }
    let products = vec![
        name.clone(),
        product_word(pools, rng),
        product_word(pools, rng),
    ];
    let draw = ServerDraw {
        products,
        style: *rng.pick(&pools.styles),
        prefix: rng.one_in(5).then(|| name.clone()),
    };
    (name, draw)
}

/// An empty capture of server `server`, as if read from `<server>.json`.
fn capture_of(server: String) -> ServerCapture {
    ServerCapture {
        source: PathBuf::from(format!("{server}.json")),
        server,
        tools: Vec::new(),
        server_info: None,
        protocol_version: None,
        captured_at: None,
        skipped: Vec::new(),
        client_refusal: None,
        ..ServerCapture::default()
    }
}

/// A tool name no tool of the catalog has: a real verb and one or two nouns (one time in four
/// a product word), more nouns while it is taken.
fn tool_name(pools: &Pools, server: &ServerDraw, rng: &mut Rng, taken: &mut Taken) -> String {
    let mut nouns = 1 + rng.below(2);
    for tries in 0.. {
        if tries > 0 && tries % TRIES == 0 {
            nouns += 1;
        }
        let mut words: Vec<&str> = server.prefix.iter().map(String::as_str).collect();
        words.push(pools.word(*rng.pick(&pools.verbs)));
        for _ in 0..nouns {
            words.push(if rng.one_in(4) {
                rng.pick(&server.products).as_str()
            } else {
                pools.word(*rng.pick(&pools.nouns))
            });
        }
        if taken.names.insert(words.join("_")) {
            return join_name(&words, server.style);
        }
    }
    unreachable!("more nouns make a new name")
}

/// One tool with a name and description no other tool of the catalog has, and parameters of
/// the shape of the real tool whose description it recombines.
fn distinct_tool(pools: &Pools, server: &ServerDraw, rng: &mut Rng, taken: &mut Taken) -> McpTool {
    let name = tool_name(pools, server, rng, taken);
    let (description, template) = loop {
        let template = rng.below(pools.templates.len());
        let text = fill(&pools.templates[template], pools, server, rng);
        if taken.descriptions.insert(fingerprint(&text)) {
            break (text, template);
        }
    };
    let schema = match &pools.schemas[template] {
        Some(shape) => {
            // Redrawn while another tool has the same parameters (a small shape drawn very
            // often may run out of new names: then it is kept after a few tries).
            let mut schema = ObjectText::new(&reshape(shape, pools, server, rng));
            for _ in 0..TRIES {
                if taken.schemas.insert(fingerprint(&schema.as_str())) {
                    break;
                }
                schema = ObjectText::new(&reshape(shape, pools, server, rng));
            }
            schema
        }
        None => ObjectText::new(&object_schema(Map::new(), Vec::new())),
    };
    McpTool {
        name,
        description: Some(description.into()),
        input_schema: Some(schema),
        truncated_chars: 0,
        ..McpTool::default()
    }
}

/// A catalog of `tools` tools, all with distinct names and descriptions, on servers sized like
/// the real ones (see the module's documentation). The same pools and seed give the same
/// catalog.
pub fn distinct_catalog(pools: &Pools, tools: usize, seed: u64) -> Vec<ServerCapture> {
    let mut rng = Rng::new(seed);
    let mut taken = Taken::default();
    let mut catalog = Vec::new();
    let mut made = 0;
    while made < tools {
        let size = (*rng.pick(&pools.server_sizes)).min(tools - made);
        let (name, server) = new_server(pools, &mut rng, &mut taken);
        let mut capture = capture_of(name);
        for _ in 0..size {
            let tool = distinct_tool(pools, &server, &mut rng, &mut taken);
            capture.tools.push(tool);
        }
        made += size;
        catalog.push(capture);
    }
    catalog
}

/// `{"type": "object", "properties": ..., "required": ...}` (no `required` when empty).
fn object_schema(properties: Map<String, Value>, required: Vec<&str>) -> Map<String, Value> {
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert(
            "required".into(),
            Value::Array(required.into_iter().map(Value::from).collect()),
        );
    }
    schema
}

/// A property of JSON type `kind` with a description.
fn property(kind: &str, description: String) -> Value {
    let mut map = Map::new();
    map.insert("type".into(), kind.into());
    map.insert("description".into(), description.into());
    Value::Object(map)
}

/// The English plural of a lowercase noun phrase (its last word).
fn plural(noun: &str) -> String {
    if noun.ends_with('s') {
        noun.to_string()
    } else if noun.ends_with('x') || noun.ends_with("ch") || noun.ends_with("sh") {
        format!("{noun}es")
    } else if noun.ends_with('y') && !noun.ends_with("ay") && !noun.ends_with("ey") {
        format!("{}ies", &noun[..noun.len() - 1])
    } else {
        format!("{noun}s")
    }
}

/// A parameter of an OpenAPI-like operation: its name, JSON type and description's template.
type Parameter = (&'static str, &'static str, &'static str);

/// The operations of an OpenAPI-like resource: name verb, whether the name takes the plural,
/// the description's template (`{r}` the resource, `{rs}` its plural) and its parameters.
const OPERATIONS: [(&str, bool, &str, &[Parameter]); 6] = [
    (
        "list",
        true,
        "List {rs}.",
        &[
            ("limit", "integer", "The maximum number of {rs} to return."),
            ("cursor", "string", "The cursor of the page to return."),
        ],
    ),
    (
        "get",
        false,
        "Get a {r} by id.",
        &[("id", "string", "The id of the {r}.")],
    ),
    (
        "create",
        false,
        "Create a {r}.",
        &[
            ("name", "string", "The name of the {r}."),
            ("description", "string", "A description of the {r}."),
        ],
    ),
    (
        "update",
        false,
        "Update a {r}.",
        &[
            ("id", "string", "The id of the {r}."),
            ("name", "string", "The new name of the {r}."),
        ],
    ),
    (
        "delete",
        false,
        "Delete a {r}.",
        &[("id", "string", "The id of the {r}.")],
    ),
    (
        "search",
        true,
        "Search {rs} by a query.",
        &[
            ("query", "string", "Words the {rs} must match."),
            ("limit", "integer", "The maximum number of {rs} to return."),
        ],
    ),
];

/// One OpenAPI-like operation on `resource` (a noun phrase of one or two words).
fn operation(index: usize, resource: &[&str]) -> McpTool {
    let (verb, plural_name, template, parameters) = OPERATIONS[index % OPERATIONS.len()];
    let singular = resource.join(" ");
    let many = plural(&singular);
    let text = |t: &str| t.replace("{rs}", &many).replace("{r}", &singular);
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (name, kind, description) in parameters {
        properties.insert((*name).into(), property(kind, text(description)));
        if *kind == "string" {
            required.push(*name);
        }
    }
    let noun = if plural_name { &many } else { &singular };
    McpTool {
        name: format!("{verb}_{}", noun.replace(' ', "_")),
        description: Some(text(template).into()),
        input_schema: Some(ObjectText::new(&object_schema(properties, required))),
        truncated_chars: 0,
        ..McpTool::default()
    }
}

/// An OpenAPI-like catalog of `tools` tools: servers of 200 to 600 tools, each a few
/// operations (list, get, create, update, delete, search) on each of its resources (one or two
/// real nouns), with templated descriptions ("Get a {resource} by id.") and parameters.
pub fn openapi_catalog(pools: &Pools, tools: usize, seed: u64) -> Vec<ServerCapture> {
    let mut rng = Rng::new(seed);
    let mut taken = Taken::default();
    let mut catalog = Vec::new();
    let mut made = 0;
    while made < tools {
        let size = (200 + rng.below(401)).min(tools - made);
        let (name, _) = new_server(pools, &mut rng, &mut taken);
        let mut capture = capture_of(name);
        let mut names: FxHashSet<String> = FxHashSet::default();
        while capture.tools.len() < size {
            let mut resource = vec![pools.word(*rng.pick(&pools.nouns))];
            if rng.one_in(3) {
                resource.push(pools.word(*rng.pick(&pools.nouns)));
            }
            let operations = (size - capture.tools.len()).min(OPERATIONS.len());
            let tools: Vec<McpTool> = (0..operations).map(|i| operation(i, &resource)).collect();
            // A resource whose names another one's took ("story" and "stories") is passed over.
            if tools.iter().any(|t| names.contains(&t.name)) {
                continue;
            }
            names.extend(tools.iter().map(|t| t.name.clone()));
            capture.tools.extend(tools);
        }
        made += size;
        catalog.push(capture);
    }
    catalog
}

/// The common words a small-vocabulary catalog's descriptions are drawn from.
pub const SMALL_VOCABULARY: [&str; 30] = [
    "the", "a", "of", "to", "and", "for", "with", "from", "by", "on", "in", "list", "get",
    "create", "update", "delete", "item", "items", "data", "file", "files", "user", "users",
    "record", "records", "value", "values", "name", "set", "page",
];

/// How many servers a small-vocabulary catalog spreads its tools over.
const SMALL_VOCABULARY_SERVERS: usize = 30;

/// How many words each small-vocabulary description draws.
const SMALL_VOCABULARY_WORDS: usize = 12;

/// Copies of `originals` under servers renamed `<server>-<copy>`, `copies` times (`None`: as
/// many as `tools` needs), cut to `tools` tools: a catalog in which every tool has twins, as
/// when one organisation installs the same servers for several teams.
pub fn renamed_copies(
    originals: &[ServerCapture],
    tools: usize,
    copies: Option<usize>,
) -> Vec<ServerCapture> {
    let mut out = Vec::new();
    let mut total = 0;
    for copy in 0..copies.unwrap_or(usize::MAX) {
        for original in originals {
            if total >= tools {
                return out;
            }
            let mut capture = original.clone();
            capture.server = format!("{}-{copy}", original.server);
            capture.tools.truncate(tools - total);
            total += capture.tools.len();
            out.push(capture);
        }
    }
    out
}

/// A catalog of `tools` tools whose descriptions share [`SMALL_VOCABULARY`], the shape that makes
/// every word common: 30 servers `s0`..`s29`, tools named `tool_S_T_word`, each description 12
/// words drawn from the vocabulary (a sentence without a full stop), and two string parameters
/// named by vocabulary words.
pub fn small_vocabulary_catalog(tools: usize, seed: u64) -> Vec<ServerCapture> {
    let mut rng = Rng::new(seed);
    let per_server = tools.div_ceil(SMALL_VOCABULARY_SERVERS);
    let mut catalog = Vec::new();
    let mut made = 0;
    for server in 0..SMALL_VOCABULARY_SERVERS {
        let size = per_server.min(tools - made);
        if size == 0 {
            break;
        }
        let mut capture = capture_of(format!("s{server}"));
        for tool in 0..size {
            let word = rng.pick(&SMALL_VOCABULARY);
            let description: Vec<&str> = (0..SMALL_VOCABULARY_WORDS)
                .map(|_| *rng.pick(&SMALL_VOCABULARY))
                .collect();
            let first = *rng.pick(&SMALL_VOCABULARY);
            let mut second = *rng.pick(&SMALL_VOCABULARY);
            while second == first {
                second = *rng.pick(&SMALL_VOCABULARY);
            }
            let mut properties = Map::new();
            for name in [first, second] {
                properties.insert(name.into(), property("string", format!("The {name}.")));
            }
            capture.tools.push(McpTool {
                name: format!("tool_{server}_{tool}_{word}"),
                description: Some(description.join(" ").into()),
                input_schema: Some(ObjectText::new(&object_schema(properties, Vec::new()))),
                truncated_chars: 0,
                ..McpTool::default()
            });
        }
        made += size;
        catalog.push(capture);
    }
    catalog
}

/// How a generated query is phrased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryStyle {
    /// One to three uncommon words of the tool's name and description, in any order.
    Keyword,
    /// The words of the first sentence of the tool's description (at most twelve), one
    /// uncommon word left out when it has four or more.
    Sentence,
}

impl QueryStyle {
    /// `keyword` or `natural`, as a queries file names the style.
    pub fn as_str(self) -> &'static str {
        match self {
            QueryStyle::Keyword => "keyword",
            QueryStyle::Sentence => "natural",
        }
    }
}

/// A query drawn from one tool of a catalog, which it expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// What a person would type.
    pub text: String,
    /// The tool it was drawn from, as `server/tool`.
    pub expected: String,
    /// How it is phrased.
    pub style: QueryStyle,
}

/// Longest sentence query, in words.
const SENTENCE_WORDS: usize = 12;

/// The text of a query of `style` drawn from `tool` (none when it has no words to draw).
fn query_text(pools: &Pools, tool: &McpTool, style: QueryStyle, rng: &mut Rng) -> Option<String> {
    let description = tool.description.as_deref().unwrap_or("");
    match style {
        QueryStyle::Keyword => {
            let mut words: Vec<String> = name_words(&tool.name);
            words.extend(letter_runs(description).map(|(_, w)| w.to_ascii_lowercase()));
            words.retain(|w| !pools.is_common(w));
            words.sort_unstable();
            words.dedup();
            if words.is_empty() {
                return None;
            }
            let count = (1 + rng.below(3)).min(words.len());
            let mut chosen = Vec::with_capacity(count);
            for _ in 0..count {
                chosen.push(words.swap_remove(rng.below(words.len())));
            }
            Some(chosen.join(" "))
        }
        QueryStyle::Sentence => {
            let mut words: Vec<&str> = letter_runs(first_sentence(description))
                .map(|(_, w)| w)
                .take(SENTENCE_WORDS)
                .collect();
            let uncommon: Vec<usize> = (0..words.len())
                .filter(|&i| !pools.is_common(&words[i].to_ascii_lowercase()))
                .collect();
            if words.len() >= 4 && uncommon.len() >= 2 {
                words.remove(*rng.pick(&uncommon));
            }
            (words.len() >= 2).then(|| words.join(" "))
        }
    }
}

/// Up to `count` distinct queries of `style`, each drawn from a tool of `catalog` picked at
/// random (fewer when the catalog has too few words for that many).
pub fn queries(
    pools: &Pools,
    catalog: &[ServerCapture],
    count: usize,
    style: QueryStyle,
    seed: u64,
) -> Vec<Query> {
    let tools: Vec<(&str, &McpTool)> = catalog
        .iter()
        .flat_map(|c| c.tools.iter().map(move |t| (c.server.as_str(), t)))
        .collect();
    let mut rng = Rng::new(seed);
    let mut seen = FxHashSet::default();
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count && tries < count * TRIES && !tools.is_empty() {
        tries += 1;
        let (server, tool) = *rng.pick(&tools);
        let Some(text) = query_text(pools, tool, style, &mut rng) else {
            continue;
        };
        if seen.insert(text.clone()) {
            out.push(Query {
                text,
                expected: format!("{server}/{}", tool.name),
                style,
            });
        }
    }
    out
}

/// `queries` as a queries file for `schematax eval`.
pub fn queries_yaml(queries: &[Query]) -> String {
    let mut out = String::from("queries:\n");
    for query in queries {
        out.push_str("  - query: ");
        write_json_string(&query.text, &mut out);
        out.push_str("\n    expected: [");
        write_json_string(&query.expected, &mut out);
        out.push_str("]\n    style: ");
        out.push_str(query.style.as_str());
        out.push('\n');
    }
    out
}

/// A capture as `schematax capture` writes one: `{"server", "tools": [{"name", "description",
/// "inputSchema"}]}`, compact.
pub fn capture_json(capture: &ServerCapture) -> String {
    let mut out = String::from("{\"server\":");
    write_json_string(&capture.server, &mut out);
    out.push_str(",\"tools\":[");
    for (i, tool) in capture.tools.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"name\":");
        write_json_string(&tool.name, &mut out);
        if let Some(description) = &tool.description {
            out.push_str(",\"description\":");
            write_json_string(description, &mut out);
        }
        if let Some(schema) = &tool.input_schema {
            out.push_str(",\"inputSchema\":");
            out.push_str(&schema.as_str());
        }
        out.push('}');
    }
    out.push_str("]}");
    out
}

/// Writes each capture to `dir` as `<server>.json` (creating `dir`); returns the bytes written.
/// Server names must make file names (those of the generators here do).
pub fn write_captures(dir: &Path, catalog: &[ServerCapture]) -> std::io::Result<u64> {
    std::fs::create_dir_all(dir)?;
    let mut bytes = 0;
    for capture in catalog {
        let text = capture_json(capture);
        bytes += text.len() as u64;
        std::fs::write(dir.join(format!("{}.json", capture.server)), text)?;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schematax_engine::inputs::capture_file::load_paths;
    use schematax_engine::replay::catalog::sanitize;

    #[test]
    fn renamed_copies_number_each_server_s_copies_and_stop_at_the_tools_asked_for() {
        let originals = small_vocabulary_catalog(45, 3);
        let tools =
            |captures: &[ServerCapture]| -> usize { captures.iter().map(|c| c.tools.len()).sum() };
        let copies = renamed_copies(&originals, 100, None);
        assert_eq!(tools(&copies), 100);
        assert_eq!(copies[0].server, format!("{}-0", originals[0].server));
        assert_eq!(
            copies[originals.len()].server,
            format!("{}-1", originals[0].server)
        );
        let twice = renamed_copies(&originals, 1_000, Some(2));
        assert_eq!(tools(&twice), 90);
    }

    fn pools() -> Pools {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/captures");
        Pools::from_captures(&load_paths(&[dir]).unwrap().captures).unwrap()
    }

    fn tools(catalog: &[ServerCapture]) -> impl Iterator<Item = (&str, &McpTool)> {
        catalog
            .iter()
            .flat_map(|c| c.tools.iter().map(move |t| (c.server.as_str(), t)))
    }

    #[test]
    fn the_same_seed_gives_the_same_catalog_and_another_seed_another() {
        let pools = pools();
        let a = distinct_catalog(&pools, 500, 7);
        assert_eq!(a, distinct_catalog(&pools, 500, 7));
        assert_ne!(a, distinct_catalog(&pools, 500, 8));
        let o = openapi_catalog(&pools, 700, 7);
        assert_eq!(o, openapi_catalog(&pools, 700, 7));
        let q = queries(&pools, &a, 50, QueryStyle::Keyword, 1);
        assert_eq!(q, queries(&pools, &a, 50, QueryStyle::Keyword, 1));
    }

    #[test]
    fn catalogs_have_exactly_the_tools_asked_for() {
        let pools = pools();
        for size in [0, 1, 37, 2_000] {
            assert_eq!(tools(&distinct_catalog(&pools, size, 1)).count(), size);
            assert_eq!(tools(&openapi_catalog(&pools, size, 1)).count(), size);
            assert_eq!(tools(&small_vocabulary_catalog(size, 1)).count(), size);
        }
    }

    #[test]
    fn names_descriptions_and_parameters_are_distinct() {
        let pools = pools();
        let catalog = distinct_catalog(&pools, 20_000, 3);
        let mut servers = FxHashSet::default();
        assert!(catalog.iter().all(|c| servers.insert(c.server.clone())));
        assert!(catalog
            .iter()
            .all(|c| c.server.bytes().all(|b| b.is_ascii_alphanumeric())));
        let mut with_parameters = 0;
        let (mut names, mut descriptions, mut schemas) = (
            FxHashSet::default(),
            FxHashSet::default(),
            FxHashSet::default(),
        );
        for (_, tool) in tools(&catalog) {
            assert!(
                names.insert(sanitize(&tool.name).to_lowercase()),
                "{}",
                tool.name
            );
            let description = tool.description.as_deref().unwrap().to_string();
            assert!(descriptions.insert(description), "{:?}", tool.description);
            // `required` names properties that are there.
            let schema = tool.input_schema.as_ref().unwrap().parse();
            let properties = schema.get("properties").and_then(Value::as_object);
            if properties.is_some_and(|p| !p.is_empty()) {
                let text = tool.input_schema.clone().unwrap().as_str().to_string();
                with_parameters += 1;
                schemas.insert(text);
            }
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                assert!(properties.unwrap().contains_key(name.as_str().unwrap()));
            }
        }
        // Tools of no parameters share their schema, as real ones do; the others differ.
        assert!(with_parameters > 18_000);
        assert!(
            schemas.len() * 1000 >= 999 * with_parameters,
            "{} schemas of {with_parameters}",
            schemas.len()
        );
        // The servers' product words make the vocabulary grow with the catalog.
        let words = |catalog: &[ServerCapture]| {
            tools(catalog)
                .flat_map(|(_, t)| letter_runs(t.description.as_deref().unwrap()))
                .map(|(_, w)| w.to_ascii_lowercase())
                .collect::<FxHashSet<_>>()
                .len()
        };
        let (all, tenth) = (words(&catalog), words(&catalog[..catalog.len() / 10]));
        assert!(2 * all > 3 * tenth, "{all} words, {tenth} in a tenth");
    }

    #[test]
    fn openapi_servers_hold_hundreds_of_templated_tools() {
        let pools = pools();
        let catalog = openapi_catalog(&pools, 5_000, 2);
        for capture in &catalog[..catalog.len() - 1] {
            assert!((200..=600).contains(&capture.tools.len()));
            let names: FxHashSet<&str> = capture.tools.iter().map(|t| t.name.as_str()).collect();
            assert_eq!(names.len(), capture.tools.len());
        }
        let first = &catalog[0].tools;
        assert!(first[0].name.starts_with("list_"));
        assert!(first[1]
            .description
            .as_deref()
            .unwrap()
            .starts_with("Get a "));
        assert!(first[1]
            .description
            .as_deref()
            .unwrap()
            .ends_with(" by id."));
        assert!(first[1]
            .input_schema
            .as_ref()
            .unwrap()
            .as_str()
            .contains("\"id\""));
    }

    #[test]
    fn queries_are_distinct_and_drawn_from_their_tool() {
        let pools = pools();
        let catalog = distinct_catalog(&pools, 3_000, 4);
        for style in [QueryStyle::Keyword, QueryStyle::Sentence] {
            let drawn = queries(&pools, &catalog, 1_000, style, 9);
            assert_eq!(drawn.len(), 1_000);
            let texts: FxHashSet<&str> = drawn.iter().map(|q| q.text.as_str()).collect();
            assert_eq!(texts.len(), 1_000);
            for query in &drawn {
                let (server, name) = query.expected.split_once('/').unwrap();
                let tool = tools(&catalog)
                    .find(|(s, t)| *s == server && t.name == name)
                    .unwrap()
                    .1;
                let source = format!(
                    "{} {}",
                    name_words(&tool.name).join(" "),
                    tool.description.as_deref().unwrap()
                )
                .to_ascii_lowercase();
                let words: Vec<&str> = query.text.split(' ').collect();
                assert!(words
                    .iter()
                    .all(|w| source.contains(&w.to_ascii_lowercase())));
                match style {
                    QueryStyle::Keyword => assert!((1..=3).contains(&words.len())),
                    QueryStyle::Sentence => assert!((2..=SENTENCE_WORDS).contains(&words.len())),
                }
            }
        }
        let yaml = queries_yaml(&queries(&pools, &catalog, 2, QueryStyle::Keyword, 1));
        assert!(yaml.starts_with("queries:\n  - query: \""));
        assert!(yaml.contains("\n    style: keyword\n"));
    }

    #[test]
    fn written_captures_load_back_as_they_were() {
        let pools = pools();
        let catalog = distinct_catalog(&pools, 300, 5);
        let dir = tempfile::tempdir().unwrap();
        let bytes = write_captures(dir.path(), &catalog).unwrap();
        let loaded = load_paths(&[dir.path().to_path_buf()]).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        let mut expected = catalog.clone();
        expected.sort_by(|a, b| a.server.cmp(&b.server));
        assert_eq!(loaded.captures.len(), expected.len());
        for (got, want) in loaded.captures.iter().zip(&expected) {
            assert_eq!((&got.server, &got.tools), (&want.server, &want.tools));
        }
        let on_disk: u64 = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum();
        assert_eq!(bytes, on_disk);
    }
}
