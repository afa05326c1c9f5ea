//! YAML read the way Hermes reads its config: PyYAML's safe loader, whose plain scalars follow
//! YAML 1.1. So unquoted `off`, `no`, `yes` and `on` are booleans, `010` is octal and `~` is
//! null, while a quoted scalar is always a string (`'off'` is text, not false). Number literals
//! YAML 1.2 spells without a dot (`1e400`) are floats too, as ENGINE.md §5 reads them.
//!
//! Hostile documents are refused early: nesting deeper than [`MAX_DEPTH`], aliases that
//! expand past [`MAX_ALIAS_NODES`] nodes, several documents in one file.

use rustc_hash::FxHashMap;
use std::fmt;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Deepest nesting of sequences and mappings accepted.
pub const MAX_DEPTH: usize = 128;
/// Nodes that aliases may add by expansion (an "alias bomb" adds billions).
pub const MAX_ALIAS_NODES: usize = 1_000_000;

/// A YAML value after scalar resolution.
#[derive(Debug, Clone, PartialEq)]
pub enum Yaml {
    /// `null`, `~`, or nothing.
    Null,
    /// `true`/`false` and the YAML 1.1 words `yes`/`no`/`on`/`off`.
    Bool(bool),
    /// An integer (decimal, `0x`, `0o`/`0`-prefixed octal, `0b`, sexagesimal).
    Int(i128),
    /// A float (`.inf` and `.nan` included).
    Float(f64),
    /// A string: every quoted or block scalar, and plain text that resolves to nothing else.
    Str(String),
    /// A sequence.
    Seq(Vec<Yaml>),
    /// A mapping.
    Map(Mapping),
}

/// A mapping in document order. A repeated key keeps its first position and its last value,
/// as a Python dict built from the pairs does. Keys are indexed, so building one is linear.
#[derive(Debug, Clone, Default)]
pub struct Mapping {
    pairs: Vec<(Yaml, Yaml)>,
    /// Each key (as [`key_id`] spells it) -> its place in `pairs`.
    index: FxHashMap<String, usize>,
}

impl PartialEq for Mapping {
    fn eq(&self, other: &Mapping) -> bool {
        self.pairs == other.pairs
    }
}

/// A key's identity: equal keys (in the sense of [`Yaml`]'s equality) give equal ids.
fn key_id(key: &Yaml) -> String {
    format!("{key:?}")
}

impl Mapping {
    /// The value of the string key `key`.
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        let id = key_id(&Yaml::Str(key.to_string()));
        self.index.get(&id).map(|&at| &self.pairs[at].1)
    }

    /// The pairs, in document order.
    pub fn iter(&self) -> impl Iterator<Item = (&Yaml, &Yaml)> {
        self.pairs.iter().map(|(k, v)| (k, v))
    }

    /// The keys, in document order.
    pub fn keys(&self) -> impl Iterator<Item = &Yaml> {
        self.pairs.iter().map(|(k, _)| k)
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether the mapping is empty.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Whether the mapping has `key`.
    fn contains(&self, key: &Yaml) -> bool {
        self.index.contains_key(&key_id(key))
    }

    /// Inserts a pair; an existing key keeps its place and takes the new value. Returns
    /// whether the key was there already.
    pub fn insert(&mut self, key: Yaml, value: Yaml) -> bool {
        let id = key_id(&key);
        match self.index.get(&id) {
            Some(&at) => {
                self.pairs[at].1 = value;
                true
            }
            None => {
                self.index.insert(id, self.pairs.len());
                self.pairs.push((key, value));
                false
            }
        }
    }
}

impl Yaml {
    /// The value of `key` when this is a mapping.
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        match self {
            Yaml::Map(map) => map.get(key),
            _ => None,
        }
    }

    /// The text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Yaml::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a key or a warning shows it (Python's spelling of booleans and null).
    pub fn key_text(&self) -> String {
        match self {
            Yaml::Null => "None".into(),
            Yaml::Bool(true) => "True".into(),
            Yaml::Bool(false) => "False".into(),
            Yaml::Int(i) => i.to_string(),
            Yaml::Float(f) => f.to_string(),
            Yaml::Str(s) => s.clone(),
            Yaml::Seq(_) => "a list".into(),
            Yaml::Map(_) => "a mapping".into(),
        }
    }

    /// Replaces `${VAR}` in every string value (not in keys) with `lookup(VAR)`; an unknown
    /// variable stays as written. Hermes's config loader does this with the environment.
    pub fn expand_variables(&mut self, lookup: &dyn Fn(&str) -> Option<String>) {
        match self {
            Yaml::Str(text) if text.contains("${") => *text = expand_text(text, lookup),
            Yaml::Seq(items) => items.iter_mut().for_each(|i| i.expand_variables(lookup)),
            Yaml::Map(map) => map
                .pairs
                .iter_mut()
                .for_each(|(_, v)| v.expand_variables(lookup)),
            _ => {}
        }
    }
}

/// `${NAME}` references in `text` replaced by `lookup(NAME)` where it knows them.
fn expand_text(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find('}').filter(|&end| end > 0) {
            Some(end) => {
                let name = &after[..end];
                match lookup(name) {
                    Some(value) => out.push_str(&value),
                    None => out.push_str(&rest[start..start + 3 + end]),
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str("${");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Why a document could not be read, with where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YamlError {
    /// Not valid YAML.
    #[error("invalid YAML: {reason} (line {line}, column {column})")]
    Syntax {
        /// What the parser said.
        reason: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Sequences and mappings nest deeper than [`MAX_DEPTH`].
    #[error("nested deeper than {MAX_DEPTH} levels (line {line})")]
    TooDeep {
        /// Where the limit was passed.
        line: usize,
    },
    /// Aliases expand past [`MAX_ALIAS_NODES`] nodes.
    #[error("aliases expand to more than {MAX_ALIAS_NODES} nodes")]
    AliasBomb,
    /// An alias names no anchor defined before it.
    #[error("alias to an unknown anchor (line {line})")]
    UnknownAlias {
        /// Where.
        line: usize,
    },
    /// More than one document.
    #[error("holds several YAML documents; expected one")]
    SeveralDocuments,
}

impl YamlError {
    /// Whether the document is unreadable as YAML (as opposed to refused for its size or shape).
    pub fn is_syntax(&self) -> bool {
        matches!(
            self,
            YamlError::Syntax { .. } | YamlError::UnknownAlias { .. }
        )
    }
}

/// A node under construction.
enum Open {
    Seq(Vec<Yaml>, usize),
    /// The mapping, its pending key with the key's line, and its anchor.
    Map(Mapping, Option<(Yaml, usize)>, usize),
}

/// The deepest nesting of flow collections (`[`, `{`) in `text`, outside quoted scalars and
/// comments, and the line where it passes `limit` first. The YAML scanner looks far ahead in
/// flow context, so this bound is checked before parsing.
fn flow_depth_past(text: &str, limit: usize) -> Option<usize> {
    let (mut depth, mut line) = (0usize, 1usize);
    let mut chars = text.chars().peekable();
    let mut previous = '\n';
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '#' if previous.is_whitespace() => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '"' => {
                while let Some(n) = chars.next() {
                    match n {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        '\n' => line += 1,
                        _ => {}
                    }
                }
            }
            '\'' if !previous.is_alphanumeric() => {
                while let Some(n) = chars.next() {
                    match n {
                        '\'' if chars.peek() == Some(&'\'') => {
                            chars.next();
                        }
                        '\'' => break,
                        '\n' => line += 1,
                        _ => {}
                    }
                }
            }
            '[' | '{' => {
                depth += 1;
                if depth > limit {
                    return Some(line);
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        previous = c;
    }
    None
}

/// A parsed document and the first key one of its mappings holds twice.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The document (an empty text is [`Yaml::Null`]).
    pub root: Yaml,
    /// The first duplicate key: the later value won, as PyYAML keeps it; ruamel.yaml refuses
    /// the document.
    pub duplicate_key: Option<DuplicateKey>,
}

/// Parses one YAML document (an empty text is [`Yaml::Null`]).
pub fn parse(text: &str) -> Result<Yaml, YamlError> {
    parse_document(text).map(|document| document.root)
}

/// Parses one YAML document, noting its first duplicate key.
pub fn parse_document(text: &str) -> Result<Document, YamlError> {
    if let Some(line) = flow_depth_past(text, MAX_DEPTH) {
        return Err(YamlError::TooDeep { line });
    }
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Open> = Vec::new();
    let mut anchors: Vec<(usize, Yaml, usize)> = Vec::new();
    let mut alias_nodes = 0usize;
    let mut root: Option<Yaml> = None;
    let mut duplicate: Option<DuplicateKey> = None;
    let mut documents = 0usize;
    loop {
        let (event, mark) = parser.next_token().map_err(|e| YamlError::Syntax {
            reason: e.info().to_string(),
            line: e.marker().line(),
            column: e.marker().col() + 1,
        })?;
        let (node, anchor) = match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(YamlError::SeveralDocuments);
                }
                continue;
            }
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => continue,
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(YamlError::TooDeep { line: mark.line() });
                }
                stack.push(match event {
                    Event::SequenceStart(..) => Open::Seq(Vec::new(), anchor),
                    _ => Open::Map(Mapping::default(), None, anchor),
                });
                continue;
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Open::Seq(items, anchor)) => (Yaml::Seq(items), anchor),
                _ => unreachable!("the parser pairs sequence events"),
            },
            Event::MappingEnd => match stack.pop() {
                Some(Open::Map(map, _, anchor)) => (Yaml::Map(map), anchor),
                _ => unreachable!("the parser pairs mapping events"),
            },
            Event::Scalar(value, style, anchor, tag) => {
                (resolve(value, style, tag.as_ref()), anchor)
            }
            Event::Alias(id) => {
                let Some((_, node, size)) = anchors.iter().rev().find(|(a, _, _)| *a == id) else {
                    return Err(YamlError::UnknownAlias { line: mark.line() });
                };
                alias_nodes = alias_nodes.saturating_add(*size);
                if alias_nodes > MAX_ALIAS_NODES {
                    return Err(YamlError::AliasBomb);
                }
                (node.clone(), 0)
            }
        };
        if anchor > 0 {
            let size = node_count(&node);
            anchors.push((anchor, node.clone(), size));
        }
        attach(&mut stack, &mut root, node, mark, &mut duplicate);
    }
    Ok(Document {
        root: root.unwrap_or(Yaml::Null),
        duplicate_key: duplicate,
    })
}

/// A key a mapping of the document holds twice.
#[derive(Debug, Clone, PartialEq)]
pub struct DuplicateKey {
    /// The key, as a warning shows it.
    pub key: String,
    /// Its second occurrence's line (1-based).
    pub line: usize,
}

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "duplicate key {} at line {}", self.key, self.line)
    }
}

/// Puts a finished node into its parent (or makes it the root); the first key a mapping gets
/// twice is noted in `duplicate`.
fn attach(
    stack: &mut [Open],
    root: &mut Option<Yaml>,
    node: Yaml,
    mark: Marker,
    duplicate: &mut Option<DuplicateKey>,
) {
    match stack.last_mut() {
        None => *root = Some(node),
        Some(Open::Seq(items, _)) => items.push(node),
        Some(Open::Map(map, key, _)) => match key.take() {
            None => *key = Some((node, mark.line())),
            Some((k, _)) if k == Yaml::Str("<<".into()) => merge(map, node),
            Some((k, line)) => {
                let text = k.key_text();
                if map.insert(k, node) && duplicate.is_none() {
                    *duplicate = Some(DuplicateKey { key: text, line });
                }
            }
        },
    }
}

/// A merge key (`<<: *base` or `<<: [*a, *b]`): keys not set yet come from the merged mappings.
fn merge(map: &mut Mapping, source: Yaml) {
    let sources = match source {
        Yaml::Seq(items) => items,
        other => vec![other],
    };
    for source in sources {
        if let Yaml::Map(from) = source {
            for (k, v) in from.pairs {
                if !map.contains(&k) {
                    map.insert(k, v);
                }
            }
        }
    }
}

/// Nodes in a value (for the alias budget).
fn node_count(node: &Yaml) -> usize {
    match node {
        Yaml::Seq(items) => 1 + items.iter().map(node_count).sum::<usize>(),
        Yaml::Map(map) => {
            1 + map
                .iter()
                .map(|(k, v)| node_count(k) + node_count(v))
                .sum::<usize>()
        }
        _ => 1,
    }
}

/// A scalar's value: quoted and block scalars are strings; plain ones follow YAML 1.1; the
/// core tags `!!str`, `!!int`, `!!float`, `!!bool` and `!!null` are honoured.
fn resolve(value: String, style: TScalarStyle, tag: Option<&Tag>) -> Yaml {
    if let Some(tag) = tag {
        if tag.handle == "!!" || tag.handle == "tag:yaml.org,2002:" {
            match tag.suffix.as_str() {
                "str" => return Yaml::Str(value),
                "null" => return Yaml::Null,
                "bool" | "int" | "float" => return resolve_plain(value),
                _ => {}
            }
        }
    }
    if style == TScalarStyle::Plain {
        resolve_plain(value)
    } else {
        Yaml::Str(value)
    }
}

/// The YAML 1.1 implicit types of a plain scalar, as PyYAML resolves them.
fn resolve_plain(text: String) -> Yaml {
    match text.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => return Yaml::Null,
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Yaml::Bool(true)
        }
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Yaml::Bool(false)
        }
        _ => {}
    }
    if let Some(int) = parse_int(&text) {
        return Yaml::Int(int);
    }
    if let Some(float) = parse_float(&text) {
        return Yaml::Float(float);
    }
    Yaml::Str(text)
}

/// Splits a leading sign off: `(negative, rest)`.
fn sign(text: &str) -> (bool, &str) {
    match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    }
}

/// YAML 1.1 integers: `0b1010`, `0x1F`, `0o17` and `017` (octal), `1_000`, `1:30` (base 60).
fn parse_int(text: &str) -> Option<i128> {
    let (negative, body) = sign(text);
    let digits = |s: &str, radix: u32| -> Option<i128> {
        let clean: String = s.chars().filter(|&c| c != '_').collect();
        if clean.is_empty() || s.starts_with('_') && clean.is_empty() {
            return None;
        }
        i128::from_str_radix(&clean, radix).ok()
    };
    let magnitude = if let Some(rest) = body.strip_prefix("0b") {
        digits(rest, 2)?
    } else if let Some(rest) = body.strip_prefix("0x") {
        digits(rest, 16)?
    } else if let Some(rest) = body.strip_prefix("0o") {
        digits(rest, 8)?
    } else if body.len() > 1 && body.starts_with('0') {
        if !body.bytes().all(|b| matches!(b, b'0'..=b'7' | b'_')) {
            return None;
        }
        digits(&body[1..], 8)?
    } else if body.contains(':') {
        let mut parts = body.split(':');
        let first = parts.next()?;
        if !first.starts_with(|c: char| ('1'..='9').contains(&c)) {
            return None;
        }
        let mut value = digits(first, 10)?;
        for part in parts {
            if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let sixty: i128 = part.parse().ok()?;
            if sixty >= 60 {
                return None;
            }
            value = value.checked_mul(60)?.checked_add(sixty)?;
        }
        value
    } else {
        if body.is_empty()
            || !body.bytes().all(|b| b.is_ascii_digit() || b == b'_')
            || body.starts_with('_')
        {
            return None;
        }
        digits(body, 10)?
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// Floats: PyYAML's (a dot required: `1.5`, `.5`, `1.`, `6.8523015e+5`), YAML 1.2's
/// exponent form without a dot (`1e400`), `.inf`/`-.inf` and `.nan`.
fn parse_float(text: &str) -> Option<f64> {
    match text {
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        _ => {}
    }
    let (negative, body) = sign(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    if let Some(exponent) = exponent {
        let (_, digits) = sign(exponent);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let has_dot = mantissa.contains('.');
    if !has_dot && exponent.is_none() {
        return None;
    }
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digit_run = |s: &str| s.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    if !digit_run(whole) || !digit_run(fraction) || whole.starts_with('_') {
        return None;
    }
    if whole.is_empty() && !fraction.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if !has_dot && whole.is_empty() {
        return None;
    }
    let clean: String = format!(
        "{}{}{}",
        if whole.is_empty() { "0" } else { whole },
        if has_dot { "." } else { "" },
        fraction
    )
    .chars()
    .filter(|&c| c != '_')
    .collect();
    let clean = match exponent {
        Some(exponent) => format!("{clean}e{exponent}"),
        None => clean,
    };
    let value: f64 = clean.trim_end_matches('.').parse().ok()?;
    Some(if negative { -value } else { value })
}

impl fmt::Display for Yaml {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Yaml::Str(s) => write!(f, "{s:?}"),
            Yaml::Float(x) => write!(f, "{x}"),
            other => f.write_str(&other.key_text()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(text: &str) -> Yaml {
        parse(&format!("v: {text}"))
            .unwrap()
            .get("v")
            .unwrap()
            .clone()
    }

    #[test]
    fn yaml_1_1_booleans_only_unquoted() {
        assert_eq!(scalar("off"), Yaml::Bool(false));
        assert_eq!(scalar("No"), Yaml::Bool(false));
        assert_eq!(scalar("ON"), Yaml::Bool(true));
        assert_eq!(scalar("'off'"), Yaml::Str("off".into()));
        assert_eq!(scalar("\"yes\""), Yaml::Str("yes".into()));
        assert_eq!(scalar("y"), Yaml::Str("y".into()));
        assert_eq!(scalar("!!str true"), Yaml::Str("true".into()));
    }

    #[test]
    fn numbers_and_null() {
        assert_eq!(scalar("12"), Yaml::Int(12));
        assert_eq!(scalar("-1_000"), Yaml::Int(-1000));
        assert_eq!(scalar("010"), Yaml::Int(8));
        assert_eq!(scalar("0x1F"), Yaml::Int(31));
        assert_eq!(scalar("0b101"), Yaml::Int(5));
        assert_eq!(scalar("1:30"), Yaml::Int(90));
        assert_eq!(scalar("7.9"), Yaml::Float(7.9));
        assert_eq!(scalar(".5"), Yaml::Float(0.5));
        assert_eq!(scalar("1e400"), Yaml::Float(f64::INFINITY));
        assert_eq!(scalar("-.inf"), Yaml::Float(f64::NEG_INFINITY));
        assert!(matches!(scalar(".nan"), Yaml::Float(f) if f.is_nan()));
        assert_eq!(scalar("'12'"), Yaml::Str("12".into()));
        assert_eq!(scalar("1.2.3"), Yaml::Str("1.2.3".into()));
        assert_eq!(scalar("e5"), Yaml::Str("e5".into()));
        assert_eq!(scalar("08"), Yaml::Str("08".into()));
        assert_eq!(scalar("~"), Yaml::Null);
        assert_eq!(scalar(""), Yaml::Null);
    }

    #[test]
    fn mappings_keep_first_place_and_last_value() {
        let doc = parse("a: 1\nb: 2\na: 3\n").unwrap();
        let Yaml::Map(map) = doc else { panic!() };
        let pairs: Vec<(String, String)> = map
            .iter()
            .map(|(k, v)| (k.key_text(), v.key_text()))
            .collect();
        assert_eq!(pairs, [("a".into(), "3".into()), ("b".into(), "2".into())]);
    }

    #[test]
    fn anchors_aliases_and_merges() {
        let doc = parse("base: &b {x: 1, y: 2}\nuse: {<<: *b, y: 5}\nlist: [*b]\n").unwrap();
        assert_eq!(
            doc.get("use").unwrap().get("x"),
            Some(&Yaml::Int(1)),
            "merged"
        );
        assert_eq!(doc.get("use").unwrap().get("y"), Some(&Yaml::Int(5)));
        assert!(matches!(doc.get("list"), Some(Yaml::Seq(items)) if items.len() == 1));
    }

    #[test]
    fn hostile_documents_are_refused() {
        let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(parse(&deep), Err(YamlError::TooDeep { line: 1 }));
        let quoted = format!("a: '{}'\nb: \"{}\"\n", "[".repeat(500), "{".repeat(500));
        assert!(parse(&quoted).is_ok(), "brackets in quotes do not nest");
        let mut block = String::new();
        for depth in 0..200 {
            block.push_str(&" ".repeat(depth));
            block.push_str("k:\n");
        }
        assert!(matches!(parse(&block), Err(YamlError::TooDeep { .. })));
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            bomb.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        assert_eq!(parse(&bomb), Err(YamlError::AliasBomb));
        assert_eq!(parse("a: 1\n---\nb: 2\n"), Err(YamlError::SeveralDocuments));
        let error = parse("a: [").unwrap_err();
        assert!(error.is_syntax() && error.to_string().starts_with("invalid YAML"));
    }

    #[test]
    fn variables_expand_in_values_only() {
        let mut doc = parse("${K}: \"${HOME_X}/x ${UNSET} $${HOME_X} ${}\"\nn: 5\n").unwrap();
        doc.expand_variables(&|name| (name == "HOME_X").then(|| "/h".to_string()));
        let Yaml::Map(map) = &doc else { panic!() };
        let (key, value) = map.iter().next().unwrap();
        assert_eq!(key.key_text(), "${K}");
        assert_eq!(value.as_str(), Some("/h/x ${UNSET} $/h ${}"));
        assert_eq!(doc.get("n"), Some(&Yaml::Int(5)));
    }
}
