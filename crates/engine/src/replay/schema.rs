//! The schema passes Hermes runs on a captured `inputSchema` before it measures, indexes or
//! sends it (ENGINE.md §1a-b, ENGINE-2026-09.md §1a-c): the MCP normalisation at registration,
//! then the sanitiser before assembly. One walker serves every release; [`SchemaRules`] (set
//! per profile in [`schematax_releases`]) says where the releases differ.
//!
//! Key order matters: it is what `tool_describe` returns, and the releases build each mapping
//! key by key, so a new key goes to the end of its mapping, a rewritten key keeps its place,
//! and a key written twice keeps its first place with its last value (Python's dict).

use schematax_releases::{BooleanRequired, MultiType, SanitiserWalk, SchemaRules};
use serde_json::{Map, Value};

/// The JSON Schema type names.
const TYPE_NAMES: [&str; 7] = [
    "string", "number", "integer", "boolean", "array", "object", "null",
];
/// Keywords whose value maps names to schemas.
const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is a schema or a list of schemas (0.21.3 on).
const SCHEMA_CHILDREN: [&str; 15] = [
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "anyOf",
    "oneOf",
    "allOf",
    "prefixItems",
];
/// Keywords the outer node of a collapsed union lends to what replaces it.
const LENT_KEYS: [&str; 4] = ["title", "description", "default", "examples"];
/// Top-level keywords the sanitiser removes.
const TOP_LEVEL_REMOVED: [&str; 5] = ["allOf", "anyOf", "oneOf", "enum", "not"];

/// `{"type":"object","properties":{}}`, with `"required": []` when objects always have one.
fn empty_object(rules: &SchemaRules) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), Value::String("object".into()));
    map.insert("properties".into(), Value::Object(Map::new()));
    if rules.required_always_list {
        map.insert("required".into(), Value::Array(Vec::new()));
    }
    map
}

/// Python truthiness of a value.
fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

/// Applies `f` to every value of a mapping, keeping keys and order (in place: no key is
/// hashed again).
fn map_values(
    mut map: Map<String, Value>,
    mut f: impl FnMut(Value) -> Value,
) -> Map<String, Value> {
    for value in map.values_mut() {
        *value = f(std::mem::take(value));
    }
    map
}

/// Applies `f` to a list's items.
fn map_items(items: Vec<Value>, f: impl FnMut(Value) -> Value) -> Vec<Value> {
    items.into_iter().map(f).collect()
}

/// Bottom-up rewrite of every mapping below and at `value` (lists walked too), as the releases'
/// `_rewrite` does: children first, then `f` on the mapping.
fn rewrite(value: Value, f: &dyn Fn(Map<String, Value>) -> Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(map_items(items, |v| rewrite(v, f))),
        Value::Object(map) => f(map_values(map, |v| rewrite(v, f))),
        other => other,
    }
}

/// `definitions` -> `$defs` and `#/definitions/X` -> `#/$defs/X` in every mapping; with
/// `keep_names`, not as a key of `properties` / `patternProperties` (a parameter's name).
fn rewrite_local_refs(value: Value, keep_names: bool) -> Value {
    match value {
        Value::Array(items) => {
            Value::Array(map_items(items, |v| rewrite_local_refs(v, keep_names)))
        }
        Value::Object(map) => {
            let rewritten = |key: &str, value: Value| match value {
                Value::Object(names)
                    if keep_names && matches!(key, "properties" | "patternProperties") =>
                {
                    Value::Object(map_values(names, |v| rewrite_local_refs(v, keep_names)))
                }
                value => rewrite_local_refs(value, keep_names),
            };
            let mut out = if map.contains_key("definitions") {
                let mut out = Map::new();
                for (key, value) in map {
                    let value = rewritten(&key, value);
                    let key = if key == "definitions" {
                        "$defs".to_string()
                    } else {
                        key
                    };
                    out.insert(key, value);
                }
                out
            } else {
                // No key is renamed: the values are rewritten in place.
                let mut map = map;
                for (key, value) in map.iter_mut() {
                    *value = rewritten(key, std::mem::take(value));
                }
                map
            };
            if let Some(Value::String(reference)) = out.get_mut("$ref") {
                if let Some(rest) = reference.strip_prefix("#/definitions/") {
                    *reference = format!("#/$defs/{rest}");
                }
            }
            Value::Object(out)
        }
        other => other,
    }
}

/// Whether a union member is a `{"type": "null"}` branch.
fn is_null_branch(member: &Value) -> bool {
    member.get("type").and_then(Value::as_str) == Some("null")
}

/// Copies the outer union's title, description, default and examples onto `into` where it
/// lacks them (`default` never onto a `$ref` when `skip_default_on_ref`).
fn carry_union_meta(
    outer: &Map<String, Value>,
    into: &mut Map<String, Value>,
    skip_default_on_ref: bool,
) {
    for key in LENT_KEYS {
        if skip_default_on_ref && key == "default" && into.contains_key("$ref") {
            continue;
        }
        if let (Some(value), false) = (outer.get(key), into.contains_key(key)) {
            into.insert(key.to_string(), value.clone());
        }
    }
}

/// Nullable-union collapse, everywhere: an `anyOf` (then `oneOf`) that leaves one member once
/// its null branches are dropped becomes that member (an empty mapping when the member is not
/// one), with `nullable: true` and the outer node's lent keys; collapsed again.
fn strip_nullable_unions(value: Value, rules: &SchemaRules) -> Value {
    match value {
        Value::Array(items) => Value::Array(map_items(items, |v| strip_nullable_unions(v, rules))),
        Value::Object(map) => {
            let stripped = map_values(map, |v| strip_nullable_unions(v, rules));
            collapse_nullable_node(stripped, rules)
        }
        other => other,
    }
}

/// The nullable collapse of one mapping whose children are already collapsed.
fn collapse_nullable_node(stripped: Map<String, Value>, rules: &SchemaRules) -> Value {
    for combiner in ["anyOf", "oneOf"] {
        let Some(Value::Array(variants)) = stripped.get(combiner) else {
            continue;
        };
        let mut non_null = variants.iter().filter(|v| !is_null_branch(v));
        let (Some(only), None) = (non_null.next(), non_null.next()) else {
            continue;
        };
        if variants.len() == 1 {
            continue;
        }
        let mut replacement = match only {
            Value::Object(member) => member.clone(),
            _ => Map::new(),
        };
        if !replacement.contains_key("nullable") {
            replacement.insert("nullable".into(), Value::Bool(true));
        }
        carry_union_meta(&stripped, &mut replacement, rules.drop_default_beside_ref);
        return strip_nullable_unions(Value::Object(replacement), rules);
    }
    Value::Object(stripped)
}

/// The primitive type of a pure `const` branch (a declared `type`, if any, must match; only
/// `title` and `description` may accompany it).
fn const_branch_type(branch: &Value) -> Option<&'static str> {
    let branch = branch.as_object()?;
    let value = branch.get("const")?;
    if branch
        .keys()
        .any(|k| !matches!(k.as_str(), "const" | "type" | "title" | "description"))
    {
        return None;
    }
    let kind = match value {
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        _ => return None,
    };
    match branch.get("type") {
        None | Some(Value::Null) => Some(kind),
        Some(Value::String(declared)) if declared == kind => Some(kind),
        Some(_) => None,
    }
}

/// Const-union collapse of one mapping whose children are already collapsed.
fn collapse_const_node(out: Map<String, Value>) -> Value {
    for combiner in ["anyOf", "oneOf"] {
        let Some(Value::Array(variants)) = out.get(combiner) else {
            continue;
        };
        if variants.is_empty() {
            continue;
        }
        let null_branches: Vec<&Value> = variants
            .iter()
            .filter(|v| is_null_branch(v) && v.get("const").is_none())
            .collect();
        let const_branches: Vec<&Value> = variants
            .iter()
            .filter(|v| !null_branches.contains(v))
            .collect();
        if null_branches.len() > 1 || const_branches.is_empty() {
            continue;
        }
        let kinds: Vec<Option<&str>> = const_branches
            .iter()
            .map(|b| const_branch_type(b))
            .collect();
        let Some(Some(kind)) = kinds.first().copied() else {
            continue;
        };
        if kinds.iter().any(|k| *k != Some(kind)) {
            continue;
        }
        let mut replacement = Map::new();
        replacement.insert("type".into(), Value::String(kind.into()));
        replacement.insert(
            "enum".into(),
            Value::Array(const_branches.iter().map(|b| b["const"].clone()).collect()),
        );
        if !null_branches.is_empty() {
            replacement.insert("nullable".into(), Value::Bool(true));
        }
        carry_union_meta(&out, &mut replacement, false);
        return Value::Object(replacement);
    }
    Value::Object(out)
}

/// `required` keeps only names present in `properties`: always a list with
/// `required_always_list`, else removed when none remain.
fn prune_required(map: &mut Map<String, Value>, rules: &SchemaRules) {
    let properties = map.get("properties").and_then(Value::as_object);
    let kept: Option<Vec<Value>> = match map.get("required") {
        Some(Value::Array(required)) => Some(
            required
                .iter()
                .filter(|r| {
                    r.as_str()
                        .is_some_and(|n| properties.is_some_and(|p| p.contains_key(n)))
                })
                .cloned()
                .collect(),
        ),
        _ => None,
    };
    match (kept, rules.required_always_list) {
        (Some(kept), true) => {
            map.insert("required".into(), Value::Array(kept));
        }
        (None, true) => {
            map.insert("required".into(), Value::Array(Vec::new()));
        }
        (Some(kept), false) if kept.is_empty() => {
            map.shift_remove("required");
        }
        (Some(kept), false) => {
            map.insert("required".into(), Value::Array(kept));
        }
        (None, false) => {}
    }
}

/// An `array` schema without `items` or `prefixItems` gets `"items": {}` (when the rules say).
fn give_array_items(map: &mut Map<String, Value>, rules: &SchemaRules) {
    if rules.arrays_get_items
        && map.get("type").and_then(Value::as_str) == Some("array")
        && !map.contains_key("items")
        && !map.contains_key("prefixItems")
    {
        map.insert("items".into(), Value::Object(Map::new()));
    }
}

/// The registration pass's object repair, recursively.
fn repair_object_shape(value: Value, rules: &SchemaRules, root: bool) -> Value {
    let map = match value {
        Value::Array(items) => {
            return Value::Array(map_items(items, |v| repair_object_shape(v, rules, false)))
        }
        Value::Object(map) => map,
        other => return other,
    };
    let had_type = map.contains_key("type");
    let mut repaired = map;
    for (key, value) in repaired.iter_mut() {
        *value = match std::mem::take(value) {
            Value::Object(names)
                if rules.repair_schema_maps_by_values && SCHEMA_MAPS.contains(&key.as_str()) =>
            {
                Value::Object(map_values(names, |v| repair_object_shape(v, rules, false)))
            }
            value => repair_object_shape(value, rules, false),
        };
    }
    let repairs = !rules.leave_constraint_fragments
        || root
        || repaired.contains_key("properties")
        || had_type;
    if repairs {
        if !truthy(repaired.get("type"))
            && (repaired.contains_key("properties") || repaired.contains_key("required"))
        {
            repaired.insert("type".into(), Value::String("object".into()));
        }
        if repaired.get("type").and_then(Value::as_str) == Some("object") {
            if !matches!(repaired.get("properties"), Some(Value::Object(_))) {
                repaired.insert("properties".into(), Value::Object(Map::new()));
            }
            prune_required(&mut repaired, rules);
        }
        give_array_items(&mut repaired, rules);
    }
    Value::Object(repaired)
}

/// A schema given as a bare string.
fn bare_string_schema(text: &str, rules: &SchemaRules) -> Map<String, Value> {
    match text {
        "object" => empty_object(rules),
        name if TYPE_NAMES.contains(&name) => {
            let mut map = Map::new();
            map.insert("type".into(), Value::String(name.into()));
            give_array_items(&mut map, rules);
            map
        }
        _ => empty_object(rules),
    }
}

/// Writes what a `type` array resolves to into `out`, where `type` was; entries that go to the
/// end of the mapping (upstream main's `anyOf` and `nullable`) are pushed to `at_end`.
fn normalise_type_array(
    types: &[Value],
    out: &mut Map<String, Value>,
    at_end: &mut Vec<(String, Value)>,
    rules: &SchemaRules,
) {
    let is_null = |t: &Value| t.as_str() == Some("null");
    let has_null = types.iter().any(is_null);
    let at_the_end = rules.multi_type == MultiType::AnyOfAtEnd;
    let set_nullable = |out: &mut Map<String, Value>, at_end: &mut Vec<(String, Value)>| {
        if has_null && at_the_end {
            at_end.push(("nullable".into(), Value::Bool(true)));
        } else if has_null && !out.contains_key("nullable") {
            out.insert("nullable".into(), Value::Bool(true));
        }
    };
    if rules.multi_type == MultiType::FirstType {
        let non_null: Vec<&Value> = types.iter().filter(|t| !is_null(t)).collect();
        if let [Value::String(only)] = non_null.as_slice() {
            out.insert("type".into(), Value::String(only.clone()));
            set_nullable(out, at_end);
            return;
        }
        let first = types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .filter(|t| !t.is_empty());
        out.insert(
            "type".into(),
            Value::String(first.unwrap_or("object").into()),
        );
        return;
    }
    let non_null: Vec<&str> = types
        .iter()
        .filter_map(Value::as_str)
        .filter(|t| *t != "null")
        .collect();
    match non_null.as_slice() {
        [] => {
            let kind = if has_null { "null" } else { "object" };
            out.insert("type".into(), Value::String(kind.into()));
        }
        [only] => {
            out.insert("type".into(), Value::String((*only).into()));
            set_nullable(out, at_end);
        }
        several => {
            let members: Vec<Value> = several
                .iter()
                .map(|t| {
                    let mut member = Map::new();
                    member.insert("type".into(), Value::String((*t).into()));
                    Value::Object(member)
                })
                .collect();
            if at_the_end {
                at_end.push(("anyOf".into(), Value::Array(members)));
            } else {
                out.insert("anyOf".into(), Value::Array(members));
            }
            set_nullable(out, at_end);
        }
    }
}

/// Whether a property name is one providers accept as is: `^[a-zA-Z0-9_.-]{1,64}$`.
fn valid_property_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'))
}

/// The new names of a property map's rejected keys, in key order; colliding names get `_2`,
/// `_3`, ... (cut to fit 64 characters).
fn property_renames(properties: &Map<String, Value>) -> Vec<(String, String)> {
    let mut taken: Vec<String> = properties
        .keys()
        .filter(|k| valid_property_name(k))
        .cloned()
        .collect();
    let mut renames = Vec::new();
    for key in properties.keys().filter(|k| !valid_property_name(k)) {
        let cleaned: String = key
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .take(64)
            .collect();
        let base = if cleaned.is_empty() {
            "param".to_string()
        } else {
            cleaned
        };
        let mut name = base.clone();
        let mut n = 2;
        while taken.contains(&name) {
            let suffix = format!("_{n}");
            let room = 64 - suffix.len();
            name = format!("{}{suffix}", base.chars().take(room).collect::<String>());
            n += 1;
        }
        taken.push(name.clone());
        renames.push((key.clone(), name));
    }
    renames
}

/// What the sanitiser does with the value of `key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A mapping of names to schemas.
    SchemaMap,
    /// `dependencies`: mapping values are schemas, others data.
    Dependencies,
    /// A schema, or a list of schemas.
    Schema,
    /// `items` / `additionalProperties`: a schema unless boolean.
    SchemaUnlessBool,
    /// Copied as it is.
    Data,
    /// Dropped (a boolean `required`).
    Dropped,
}

fn role(key: &str, value: &Value, rules: &SchemaRules) -> Role {
    match rules.walk {
        SanitiserWalk::Lenient => match (key, value) {
            ("properties" | "$defs" | "definitions", Value::Object(_)) => Role::SchemaMap,
            ("items" | "additionalProperties", _) => Role::SchemaUnlessBool,
            ("required" | "enum" | "examples", _) => Role::Data,
            ("dependentRequired", _) if rules.dependent_required_is_data => Role::Data,
            (_, Value::Object(_) | Value::Array(_)) => Role::Schema,
            _ => Role::Data,
        },
        SanitiserWalk::Keywords => match (key, value) {
            (_, Value::Object(_)) if SCHEMA_MAPS.contains(&key) => Role::SchemaMap,
            ("dependencies", Value::Object(_)) => Role::Dependencies,
            ("items" | "additionalProperties", _) => Role::SchemaUnlessBool,
            ("required", Value::Bool(_)) if rules.boolean_required == BooleanRequired::Lifted => {
                Role::Dropped
            }
            ("required" | "enum" | "examples" | "dependentRequired", _) => Role::Data,
            _ if SCHEMA_CHILDREN.contains(&key) => Role::Schema,
            _ => Role::Data,
        },
    }
}

/// The sanitiser on one schema, recursively.
fn sanitise_node(value: Value, rules: &SchemaRules) -> Value {
    let node = match value {
        Value::String(text) => return Value::Object(bare_string_schema(&text, rules)),
        Value::Array(items) => return Value::Array(map_items(items, |v| sanitise_node(v, rules))),
        Value::Object(node) => node,
        other => return other,
    };
    let renames = Renames(match node.get("properties") {
        Some(Value::Object(properties)) if rules.rename_property_keys => {
            property_renames(properties)
        }
        _ => Vec::new(),
    });
    // Properties flagged `required: true`, by their (renamed) names.
    let flagged: Vec<String> = match (rules.boolean_required, node.get("properties")) {
        (BooleanRequired::Kept, _) | (_, None) => Vec::new(),
        (_, Some(Value::Object(properties))) => properties
            .iter()
            .filter(|(_, v)| v.get("required") == Some(&Value::Bool(true)))
            .map(|(k, _)| renames.apply(k))
            .collect(),
        _ => Vec::new(),
    };
    let mut out = if matches!(node.get("type"), Some(Value::Array(_))) {
        // A `type` list writes other keys where it was, or at the end: the node is rebuilt
        // key by key, as the releases build it.
        let mut out = Map::new();
        let mut at_end = Vec::new();
        for (key, value) in node {
            if key == "type" {
                if let Value::Array(types) = &value {
                    normalise_type_array(types, &mut out, &mut at_end, rules);
                    continue;
                }
            }
            if let Some(value) = sanitise_child(&key, value, rules, &renames) {
                out.insert(key, value);
            }
        }
        out.extend(at_end);
        out
    } else {
        // Every key keeps its place (or is dropped): the values are sanitised in place, and
        // no key is hashed again.
        let mut node = node;
        node.retain(|key, value| {
            match sanitise_child(key, std::mem::take(value), rules, &renames) {
                Some(sanitised) => {
                    *value = sanitised;
                    true
                }
                None => false,
            }
        });
        node
    };
    add_flagged_required(&mut out, flagged, rules);
    if out.get("type").and_then(Value::as_str) == Some("object") {
        if !matches!(out.get("properties"), Some(Value::Object(_))) {
            out.insert("properties".into(), Value::Object(Map::new()));
        }
        prune_required(&mut out, rules);
    }
    give_array_items(&mut out, rules);
    Value::Object(out)
}

/// The property keys a node renames, as (old, new).
struct Renames(Vec<(String, String)>);

impl Renames {
    /// `key` as renamed (itself when it is not).
    fn apply(&self, key: &str) -> String {
        self.0
            .iter()
            .find(|(old, _)| old == key)
            .map_or_else(|| key.to_string(), |(_, new)| new.clone())
    }
}

/// One key's value of a node, sanitised by the key's role; None when the release drops it.
fn sanitise_child(
    key: &str,
    value: Value,
    rules: &SchemaRules,
    renames: &Renames,
) -> Option<Value> {
    Some(match role(key, &value, rules) {
        Role::Dropped => return None,
        Role::SchemaMap => match value {
            Value::Object(map) if key == "properties" && !renames.0.is_empty() => {
                let map = map
                    .into_iter()
                    .map(|(k, v)| (renames.apply(&k), sanitise_property(v, rules)))
                    .collect();
                Value::Object(map)
            }
            // No name changes: the schemas are sanitised in place.
            Value::Object(map) => Value::Object(map_values(map, |v| sanitise_property(v, rules))),
            other => other,
        },
        Role::Dependencies => match value {
            Value::Object(map) => Value::Object(map_values(map, |v| {
                if v.is_object() {
                    sanitise_node(v, rules)
                } else {
                    v
                }
            })),
            other => other,
        },
        Role::Schema => sanitise_node(value, rules),
        Role::SchemaUnlessBool => match value {
            Value::Bool(_) => value,
            other => sanitise_node(other, rules),
        },
        Role::Data => match value {
            Value::Array(items) if key == "required" && !renames.0.is_empty() => Value::Array(
                items
                    .into_iter()
                    .map(|r| match r {
                        Value::String(name) => Value::String(renames.apply(&name)),
                        other => other,
                    })
                    .collect(),
            ),
            other => other,
        },
    })
}

/// Properties flagged `required: true` join the node's `required` list (appended as they come
/// where the release appends, else once each).
fn add_flagged_required(out: &mut Map<String, Value>, flagged: Vec<String>, rules: &SchemaRules) {
    if flagged.is_empty() {
        return;
    }
    let mut required: Vec<Value> = match out.get("required") {
        Some(Value::Array(list)) => list.clone(),
        _ => Vec::new(),
    };
    for name in flagged {
        let name = Value::String(name);
        if rules.boolean_required == BooleanRequired::Appended || !required.contains(&name) {
            required.push(name);
        }
    }
    out.insert("required".into(), Value::Array(required));
}

/// A property's schema: upstream main drops a boolean `required` from it before sanitising.
fn sanitise_property(value: Value, rules: &SchemaRules) -> Value {
    match value {
        Value::Object(mut map) if rules.boolean_required == BooleanRequired::Appended => {
            if matches!(map.get("required"), Some(Value::Bool(_))) {
                map.shift_remove("required");
            }
            sanitise_node(Value::Object(map), rules)
        }
        other => sanitise_node(other, rules),
    }
}

/// Removes `default` from every mapping that has a `$ref`, anywhere.
fn drop_default_beside_ref(value: Value) -> Value {
    rewrite(value, &|mut map| {
        if map.contains_key("$ref") {
            map.shift_remove("default");
        }
        Value::Object(map)
    })
}

/// The parameters Hermes sends for a captured `inputSchema` (`None` when the tool has none):
/// the registration pass, then the sanitiser, by the profile's rules.
pub fn normalise(schema: Option<Map<String, Value>>, rules: &SchemaRules) -> Map<String, Value> {
    // Registration (MCP level).
    let mut value = match schema {
        Some(map) if !map.is_empty() => {
            let value =
                rewrite_local_refs(Value::Object(map), rules.keep_parameters_named_definitions);
            let value = strip_nullable_unions(value, rules);
            let value = if rules.collapse_const_unions {
                rewrite(value, &collapse_const_node)
            } else {
                value
            };
            repair_object_shape(value, rules, true)
        }
        _ => Value::Object(empty_object(rules)),
    };
    if let Value::Object(map) = &mut value {
        if map.get("type").and_then(Value::as_str) == Some("object")
            && !map.contains_key("properties")
        {
            map.insert("properties".into(), Value::Object(Map::new()));
        }
    }
    // The sanitiser (model level).
    let mut top = match sanitise_node(value, rules) {
        Value::Object(map) => map,
        _ => empty_object(rules),
    };
    top.insert("type".into(), Value::String("object".into()));
    if !matches!(top.get("properties"), Some(Value::Object(_))) {
        top.insert("properties".into(), Value::Object(Map::new()));
    }
    if rules.required_always_list && !matches!(top.get("required"), Some(Value::Array(_))) {
        top.insert("required".into(), Value::Array(Vec::new()));
    }
    let mut value = strip_nullable_unions(Value::Object(top), rules);
    if let Value::Object(map) = &mut value {
        for key in TOP_LEVEL_REMOVED {
            map.shift_remove(key);
        }
    }
    if rules.drop_default_beside_ref {
        value = drop_default_beside_ref(value);
    }
    match value {
        Value::Object(map) => map,
        _ => empty_object(rules),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schematax_releases::{Profile, HERMES_2026_09};
    use serde_json::json;

    fn rules_of(id: &str) -> SchemaRules {
        Profile::from_id(id).expect("a profile").spec().schema
    }

    fn seed(schema: Value) -> Value {
        Value::Object(normalise(schema.as_object().cloned(), &rules_of("seed")))
    }

    /// Upstream main of late September 2026 (ENGINE-2026-09.md).
    fn current(schema: Value) -> Value {
        Value::Object(normalise(
            schema.as_object().cloned(),
            &HERMES_2026_09.schema,
        ))
    }

    fn release(id: &str, schema: Value) -> Value {
        Value::Object(normalise(schema.as_object().cloned(), &rules_of(id)))
    }

    /// Compact JSON with key order, to compare byte for byte.
    fn text(value: &Value) -> String {
        serde_json::to_string(value).unwrap()
    }

    #[test]
    fn missing_or_empty_schema_is_an_empty_object() {
        let empty = json!({"type": "object", "properties": {}});
        assert_eq!(
            text(&Value::Object(normalise(None, &rules_of("seed")))),
            text(&empty)
        );
        assert_eq!(text(&seed(json!({}))), text(&empty));
        assert_eq!(text(&current(json!({}))), text(&empty));
    }

    #[test]
    fn definitions_become_defs() {
        let schema = json!({"type": "object", "properties": {"definitions": {"type": "string"}, "r": {"$ref": "#/definitions/X"}}, "definitions": {"X": {"type": "string"}}});
        assert_eq!(
            text(&seed(schema.clone())),
            r##"{"type":"object","properties":{"$defs":{"type":"string"},"r":{"$ref":"#/$defs/X"}},"$defs":{"X":{"type":"string"}}}"##
        );
        // Upstream main leaves a parameter named `definitions` alone.
        assert_eq!(
            text(&current(schema)),
            r##"{"type":"object","properties":{"definitions":{"type":"string"},"r":{"$ref":"#/$defs/X"}},"$defs":{"X":{"type":"string"}}}"##
        );
    }

    #[test]
    fn nullable_unions_collapse_with_lent_keys() {
        let schema = json!({"type": "object", "properties": {"when": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "When", "format": "lost"}}});
        let expected = r#"{"type":"object","properties":{"when":{"type":"string","nullable":true,"title":"When","default":null}}}"#;
        assert_eq!(text(&seed(schema.clone())), expected);
        assert_eq!(text(&current(schema)), expected);
        let to_ref = json!({"properties": {"r": {"oneOf": [{"$ref": "#/$defs/R"}, {"type": "null"}], "default": 1}}});
        assert_eq!(
            text(&seed(to_ref)),
            r##"{"properties":{"r":{"$ref":"#/$defs/R","nullable":true}},"type":"object"}"##
        );
        let two = json!({"properties": {"x": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}}});
        assert!(text(&seed(two)).contains("anyOf"));
    }

    #[test]
    fn property_maps_are_repaired_too() {
        // A parameter named `properties` makes the property map look like an object schema:
        // it gains a `type` parameter, which the sanitiser then reads as a bare-string schema.
        let schema = json!({"type": "object", "properties": {"properties": {"type": "object"}}});
        let expected = r#"{"type":"object","properties":{"properties":{"type":"object","properties":{}},"type":{"type":"object","properties":{}}}}"#;
        assert_eq!(text(&seed(schema.clone())), expected);
        assert_eq!(text(&current(schema)), expected);
    }

    #[test]
    fn objects_get_type_properties_and_pruned_required() {
        let schema =
            json!({"required": ["a", "ghost", 3], "properties": {"a": {}}, "x": {"required": []}});
        assert_eq!(
            text(&seed(schema)),
            r#"{"required":["a"],"properties":{"a":{}},"x":{"type":"object","properties":{}},"type":"object"}"#
        );
        let none_left = json!({"type": "object", "required": ["ghost"]});
        assert_eq!(
            text(&current(none_left)),
            r#"{"type":"object","properties":{}}"#
        );
    }

    #[test]
    fn type_arrays() {
        let schema = json!({"type": "object", "properties": {
            "n": {"description": "d", "type": ["integer", "null"]},
            "m": {"type": ["string", "number"]},
            "z": {"type": ["null"]},
            "e": {"type": []}}});
        assert_eq!(
            text(&seed(schema.clone())),
            r#"{"type":"object","properties":{"n":{"description":"d","type":"integer","nullable":true},"m":{"type":"string"},"z":{"type":"object","properties":{}},"e":{"type":"object","properties":{}}}}"#
        );
        assert_eq!(
            text(&current(schema)),
            r#"{"type":"object","properties":{"n":{"description":"d","type":"integer","nullable":true},"m":{"anyOf":[{"type":"string"},{"type":"number"}]},"z":{"type":"null"},"e":{"type":"object","properties":{}}}}"#
        );
    }

    #[test]
    fn bare_strings_and_literals() {
        let schema = json!({"type": "object", "properties": {"a": "string", "b": "object", "c": "thing", "d": {"type": "string", "default": ["x"], "const": "k"}}});
        assert_eq!(
            text(&seed(schema.clone())),
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"object","properties":{}},"c":{"type":"object","properties":{}},"d":{"type":"string","default":[{"type":"object","properties":{}}],"const":"k"}}}"#
        );
        assert_eq!(
            text(&current(schema)),
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"object","properties":{}},"c":{"type":"object","properties":{}},"d":{"type":"string","default":["x"],"const":"k"}}}"#
        );
    }

    #[test]
    fn const_unions_collapse_in_the_newer_profile() {
        let schema = json!({"type": "object", "properties": {"level": {"anyOf": [{"const": "low", "title": "Low"}, {"const": "high", "type": "string"}, {"type": "null"}], "description": "How much"},
            "mixed": {"oneOf": [{"const": 1}, {"const": "a"}]},
            "flag": {"anyOf": [{"const": true}, {"const": false}]}}});
        assert_eq!(
            text(&current(schema.clone())),
            r#"{"type":"object","properties":{"level":{"type":"string","enum":["low","high"],"nullable":true,"description":"How much"},"mixed":{"oneOf":[{"const":1},{"const":"a"}]},"flag":{"type":"boolean","enum":[true,false]}}}"#
        );
        assert!(text(&seed(schema)).contains(r#""anyOf":[{"const":"low""#));
    }

    #[test]
    fn arrays_get_items_in_the_newer_profile() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "array"}, "t": {"type": "array", "prefixItems": [{"type": "string"}]}}});
        assert_eq!(
            text(&current(schema.clone())),
            r#"{"type":"object","properties":{"a":{"type":"array","items":{}},"t":{"type":"array","prefixItems":[{"type":"string"}]}}}"#
        );
        assert_eq!(
            text(&seed(schema)),
            r#"{"type":"object","properties":{"a":{"type":"array"},"t":{"type":"array","prefixItems":[{"type":"string"}]}}}"#
        );
    }

    #[test]
    fn bad_property_names_are_renamed_in_the_newer_profile() {
        let long = "x".repeat(70);
        let schema = json!({"type": "object", "properties": {"a b": {}, "a_b": {}, "": {}, "ü": {}, long.clone(): {}}, "required": ["a b", "ü"]});
        let out = current(schema.clone());
        let names: Vec<&String> = out["properties"].as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            ["a_b_2", "a_b", "param", "_", &"x".repeat(64)],
            "renamed in place"
        );
        assert_eq!(out["required"], json!(["a_b_2", "_"]));
        assert!(seed(schema)["properties"].get("a b").is_some());
    }

    #[test]
    fn boolean_required_is_hoisted_in_the_newer_profile() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string", "required": true}, "b": {"type": "string", "required": false}}});
        assert_eq!(
            text(&current(schema.clone())),
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]}"#
        );
        assert!(text(&seed(schema)).contains(r#""required":true"#));
    }

    #[test]
    fn top_level_cleanup() {
        let schema = json!({"type": "object", "properties": {"r": {"$ref": "#/$defs/R", "default": 3}}, "allOf": [{"required": ["r"]}], "anyOf": [], "enum": [1], "not": {}, "$defs": {"R": {"type": "object"}}});
        let expected = r##"{"type":"object","properties":{"r":{"$ref":"#/$defs/R"}},"$defs":{"R":{"type":"object","properties":{}}}}"##;
        assert_eq!(text(&seed(schema.clone())), expected);
        assert_eq!(text(&current(schema)), expected);
        let not_object = json!({"type": "string", "description": "x"});
        assert_eq!(
            text(&seed(not_object)),
            r#"{"type":"object","description":"x","properties":{}}"#
        );
    }

    #[test]
    fn normalising_twice_changes_nothing() {
        let schema = json!({"type": "object", "properties": {"when": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "m": {"type": ["string", "number"]}, "a b": {"required": true}}, "definitions": {"X": {}}});
        for profile in Profile::all() {
            let rules = &profile.spec().schema;
            let once = normalise(schema.as_object().cloned(), rules);
            let twice = normalise(Some(once.clone()), rules);
            assert_eq!(
                text(&Value::Object(once)),
                text(&Value::Object(twice)),
                "{profile}"
            );
        }
    }

    #[test]
    fn releases_differ_where_their_rows_say() {
        // 0.16 keeps `default` beside `$ref`; 0.17 drops it.
        let with_ref =
            json!({"type": "object", "properties": {"r": {"$ref": "#/$defs/R", "default": 1}}});
        assert!(text(&release("hermes-0.16", with_ref.clone())).contains(r#""default":1"#));
        assert!(!text(&release("hermes-0.17", with_ref)).contains("default"));
        // 0.18.1: several types become anyOf, in place; an all-null array becomes "null".
        let several = json!({"type": "object", "properties": {"m": {"type": ["string", "number", "null"], "title": "M"}}});
        assert_eq!(
            text(&release("hermes-0.18.1", several)),
            r#"{"type":"object","properties":{"m":{"anyOf":[{"type":"string"},{"type":"number"}],"nullable":true,"title":"M"}}}"#
        );
        // 0.21.3: literals are data, and a boolean `required` is lifted once.
        let flags = json!({"type": "object", "properties": {"a": {"type": "string", "required": true}, "d": {"default": ["x"]}}, "required": ["a"]});
        assert_eq!(
            text(&release("hermes-0.21.3", flags.clone())),
            r#"{"type":"object","properties":{"a":{"type":"string"},"d":{"default":["x"]}},"required":["a"]}"#
        );
        assert!(text(&release("hermes-0.20.6", flags)).contains(r#""required":true"#));
        // 0.21.4: every object has a `required` list.
        assert_eq!(
            text(&release(
                "hermes-0.21.4",
                json!({"properties": {"o": {"type": "object"}}})
            )),
            r#"{"properties":{"o":{"type":"object","properties":{},"required":[]}},"type":"object","required":[]}"#
        );
        // 0.21.5: a `required`-only fragment inside a combinator is left alone.
        let fragment = json!({"type": "object", "properties": {"t": {"type": "object", "properties": {"a": {}}, "oneOf": [{"required": ["a"]}]}}});
        assert!(text(&release("hermes-0.21.5", fragment.clone()))
            .contains(r#""oneOf":[{"required":["a"]}]"#));
        assert!(
            !text(&release("hermes-0.21.4", fragment)).contains(r#""oneOf":[{"required":["a"]}]"#)
        );
    }
}
