//! The schema passes Hermes runs on a captured `inputSchema` before it measures, indexes or
//! sends it (ENGINE.md §1a-b, ENGINE-2026-09.md §1a-c): MCP normalisation at registration,
//! then the sanitiser before assembly. One walker serves both profiles; [`SchemaRules`] (set
//! per profile in [`super::profile`]) says where they differ.
//!
//! Key order matters (it is what `tool_describe` returns); lengths do not depend on it. A new
//! key goes to the end of its mapping unless a rule says otherwise; a renamed or replaced key
//! keeps its place.

use serde_json::{Map, Value};

/// How a `type` array with several non-null types resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiType {
    /// The first non-null type.
    FirstType,
    /// `anyOf` of one schema per type.
    AnyOf,
}

/// Where the two profiles' schema passes differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaRules {
    /// The registration pass leaves a parameter named `definitions` alone (it renames only the
    /// keyword). Either way that pass repairs every mapping, property maps included, so a
    /// parameter named `properties` makes its property map an "object" that gains a `type`
    /// parameter.
    pub keep_parameters_named_definitions: bool,
    /// `anyOf`/`oneOf` of `const` branches of one primitive type become `{type, enum}`.
    pub collapse_const_unions: bool,
    /// An `array` schema without `items` or `prefixItems` gets `"items": {}`.
    pub arrays_get_items: bool,
    /// A `type` array with several non-null types.
    pub multi_type: MultiType,
    /// The `nullable` a `type` array adds goes right after `type` (else at the end).
    pub nullable_follows_type: bool,
    /// The sanitiser walks the values of unknown keywords (`default`, `const`, `x-*`) as
    /// schemas, literals included (seed); else they are data, copied unchanged.
    pub walk_literals: bool,
    /// Property names outside `^[a-zA-Z0-9_.-]{1,64}$` are renamed, `required` following.
    pub rename_property_keys: bool,
    /// A boolean `required` on a property is dropped; `true` appends the property to its
    /// parent's `required` list.
    pub boolean_required: bool,
}

/// The JSON Schema type names.
const TYPE_NAMES: [&str; 7] = [
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// Keywords whose value is a mapping of names to schemas.
const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is one schema.
const SCHEMA_KEYWORDS: [&str; 12] = [
    "items",
    "additionalProperties",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "$schema_placeholder",
];
/// Keywords whose value is a list of schemas.
const SCHEMA_LISTS: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];
/// Keywords the outer node of a collapsed union lends to what replaces it.
const LENT_KEYS: [&str; 4] = ["title", "description", "default", "examples"];
/// Top-level keywords the sanitiser removes.
const TOP_LEVEL_REMOVED: [&str; 5] = ["allOf", "anyOf", "oneOf", "enum", "not"];

/// `{"type":"object","properties":{}}`.
fn empty_object() -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), Value::String("object".into()));
    map.insert("properties".into(), Value::Object(Map::new()));
    map
}

/// What a child value of a schema is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Child {
    /// One schema.
    Schema,
    /// A mapping of names to schemas.
    SchemaValues,
    /// A list of schemas.
    SchemaList,
    /// `dependencies`: mapping values are schemas, others data.
    Dependencies,
    /// Data, never walked.
    Data,
}

/// How a pass finds the schemas inside a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// Every mapping is a schema and every list a list of schemas (seed registration).
    Everything,
    /// The seed sanitiser: known keywords, and every other mapping or list as schemas too.
    SeedSanitiser,
    /// Only schema keywords (the 2026-09 passes).
    Keywords,
}

fn classify(walk: Walk, key: &str, value: &Value) -> Child {
    match walk {
        Walk::Everything => match value {
            Value::Object(_) => Child::Schema,
            Value::Array(_) => Child::SchemaList,
            _ => Child::Data,
        },
        Walk::SeedSanitiser => match (key, value) {
            ("properties" | "$defs" | "definitions", Value::Object(_)) => Child::SchemaValues,
            ("items" | "additionalProperties", Value::Bool(_)) => Child::Data,
            ("items" | "additionalProperties", Value::Array(_)) => Child::SchemaList,
            ("items" | "additionalProperties", _) => Child::Schema,
            ("required" | "enum" | "examples", _) => Child::Data,
            (_, Value::Object(_)) => Child::Schema,
            (_, Value::Array(_)) => Child::SchemaList,
            _ => Child::Data,
        },
        Walk::Keywords => match value {
            Value::Object(_) if SCHEMA_MAPS.contains(&key) => Child::SchemaValues,
            Value::Object(_) if key == "dependencies" => Child::Dependencies,
            Value::Array(_) if SCHEMA_LISTS.contains(&key) || key == "items" => Child::SchemaList,
            Value::Bool(_) => Child::Data,
            _ if SCHEMA_KEYWORDS.contains(&key) => Child::Schema,
            _ => Child::Data,
        },
    }
}

/// Calls `visit` on every schema below `node` (not `node` itself), children before parents.
fn for_each_child(node: &mut Map<String, Value>, walk: Walk, visit: &mut dyn FnMut(&mut Value)) {
    for (key, value) in node.iter_mut() {
        match classify(walk, key, value) {
            Child::Schema => visit(value),
            Child::SchemaValues => {
                if let Value::Object(map) = value {
                    map.values_mut().for_each(&mut *visit);
                }
            }
            Child::SchemaList => visit_list(value, visit),
            Child::Dependencies => {
                if let Value::Object(map) = value {
                    map.values_mut()
                        .filter(|v| v.is_object())
                        .for_each(&mut *visit);
                }
            }
            Child::Data => {}
        }
    }
}

/// Visits each element of a list of schemas (lists in lists too).
fn visit_list(value: &mut Value, visit: &mut dyn FnMut(&mut Value)) {
    if let Value::Array(items) = value {
        for item in items {
            if item.is_array() {
                visit_list(item, visit);
            } else {
                visit(item);
            }
        }
    }
}

/// Applies `transform` to `value` and every schema below it, children first.
fn post_order(value: &mut Value, walk: Walk, transform: &mut dyn FnMut(&mut Value)) {
    if let Value::Object(map) = value {
        for_each_child(map, walk, &mut |child| post_order(child, walk, transform));
    }
    transform(value);
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

/// Renames key `from` to `to` in place (an existing `to` takes the value, as a Python dict
/// rebuilt in order would).
fn rename_key(map: &mut Map<String, Value>, from: &str, to: &str) {
    if !map.contains_key(from) {
        return;
    }
    let old = std::mem::take(map);
    for (key, value) in old {
        let key = if key == from { to.to_string() } else { key };
        map.insert(key, value);
    }
}

/// `definitions` -> `$defs` and `#/definitions/X` -> `#/$defs/X` in every mapping below
/// `node`; with `keep_names`, not in the property maps (`properties`, `patternProperties`),
/// whose keys are parameter names.
fn rename_definitions(node: &mut Value, keep_names: bool, is_property_map: bool) {
    match node {
        Value::Object(map) => {
            if !(keep_names && is_property_map) {
                rename_key(map, "definitions", "$defs");
            }
            if let Some(Value::String(reference)) = map.get_mut("$ref") {
                if let Some(rest) = reference.strip_prefix("#/definitions/") {
                    *reference = format!("#/$defs/{rest}");
                }
            }
            for (key, value) in map.iter_mut() {
                let names =
                    !is_property_map && matches!(key.as_str(), "properties" | "patternProperties");
                rename_definitions(value, keep_names, names);
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| rename_definitions(item, keep_names, false)),
        _ => {}
    }
}

/// Whether a union member is the `{"type": "null"}` branch.
fn is_null_member(member: &Value) -> bool {
    member.get("type").and_then(Value::as_str) == Some("null")
}

/// Copies the outer node's title, description, default and examples onto `into` where it
/// lacks them (never `default` onto a `$ref`).
fn lend_keys(outer: &Map<String, Value>, into: &mut Map<String, Value>) {
    for key in LENT_KEYS {
        if key == "default" && into.contains_key("$ref") {
            continue;
        }
        if let (Some(value), false) = (outer.get(key), into.contains_key(key)) {
            into.insert(key.to_string(), value.clone());
        }
    }
}

/// Nullable-union collapse of one node, repeated on what replaces it: an `anyOf` (then
/// `oneOf`) that leaves one member once its `{"type":"null"}` members are dropped becomes
/// that member, `nullable` and the outer node's lent keys added.
fn collapse_nullable(node: &mut Value) {
    loop {
        let Value::Object(map) = node else { return };
        let mut replacement = None;
        for combiner in ["anyOf", "oneOf"] {
            let Some(Value::Array(members)) = map.get(combiner) else {
                continue;
            };
            let non_null: Vec<&Value> = members.iter().filter(|m| !is_null_member(m)).collect();
            if non_null.len() == 1 && non_null.len() != members.len() {
                if let Value::Object(member) = non_null[0] {
                    let mut merged = member.clone();
                    if !merged.contains_key("nullable") {
                        merged.insert("nullable".into(), Value::Bool(true));
                    }
                    lend_keys(map, &mut merged);
                    replacement = Some(merged);
                    break;
                }
            }
        }
        match replacement {
            Some(merged) => *node = Value::Object(merged),
            None => return,
        }
    }
}

/// The JSON type of a `const` value, when primitive.
fn primitive_type(value: &Value) -> Option<&'static str> {
    match value {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    }
}

/// Const-union collapse of one node: an `anyOf` (then `oneOf`) of pure `const` branches of one
/// primitive type, plus at most one null branch, becomes `{type, enum}`.
fn collapse_const(node: &mut Value) {
    let Value::Object(map) = node else { return };
    for combiner in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = map.get(combiner) else {
            continue;
        };
        let nulls = members.iter().filter(|m| is_null_member(m)).count();
        let mut kind: Option<&'static str> = None;
        let mut values = Vec::new();
        let pure = members.iter().filter(|m| !is_null_member(m)).all(|member| {
            let Some(branch) = member.as_object() else {
                return false;
            };
            let Some(value) = branch.get("const") else {
                return false;
            };
            let Some(this) = primitive_type(value) else {
                return false;
            };
            let keys_ok = branch.iter().all(|(key, v)| match key.as_str() {
                "const" | "title" | "description" => true,
                "type" => v.as_str() == Some(this),
                _ => false,
            });
            let same = *kind.get_or_insert(this) == this;
            values.push(value.clone());
            keys_ok && same
        });
        if !pure || values.is_empty() || nulls > 1 {
            continue;
        }
        let mut collapsed = Map::new();
        collapsed.insert(
            "type".into(),
            Value::String(kind.unwrap_or("string").into()),
        );
        collapsed.insert("enum".into(), Value::Array(values));
        if nulls == 1 {
            collapsed.insert("nullable".into(), Value::Bool(true));
        }
        lend_keys(map, &mut collapsed);
        *node = Value::Object(collapsed);
        return;
    }
}

/// Object (and, by the rules, array) repair of one node.
fn repair_shape(node: &mut Value, rules: &SchemaRules, infer_object: bool) {
    let Value::Object(map) = node else { return };
    if infer_object
        && !truthy(map.get("type"))
        && (map.contains_key("properties") || map.contains_key("required"))
    {
        map.insert("type".into(), Value::String("object".into()));
    }
    match map.get("type").and_then(Value::as_str) {
        Some("object") => {
            if !matches!(map.get("properties"), Some(Value::Object(_))) {
                map.insert("properties".into(), Value::Object(Map::new()));
            }
            prune_required(map);
        }
        Some("array")
            if rules.arrays_get_items
                && !map.contains_key("items")
                && !map.contains_key("prefixItems") =>
        {
            map.insert("items".into(), Value::Object(Map::new()));
        }
        _ => {}
    }
}

/// `required` keeps only names present in `properties`; removed when none remain.
fn prune_required(map: &mut Map<String, Value>) {
    let Some(Value::Array(required)) = map.get("required") else {
        return;
    };
    let properties = map.get("properties").and_then(Value::as_object);
    let kept: Vec<Value> = required
        .iter()
        .filter(|name| {
            name.as_str()
                .is_some_and(|n| properties.is_some_and(|p| p.contains_key(n)))
        })
        .cloned()
        .collect();
    if kept.is_empty() {
        map.shift_remove("required");
    } else {
        map.insert("required".into(), Value::Array(kept));
    }
}

/// A schema given as a bare string.
fn bare_string_schema(text: &str) -> Map<String, Value> {
    match text {
        "object" => empty_object(),
        "array" => {
            let mut map = Map::new();
            map.insert("type".into(), Value::String("array".into()));
            map.insert("items".into(), Value::Object(Map::new()));
            map
        }
        name if TYPE_NAMES.contains(&name) => {
            let mut map = Map::new();
            map.insert("type".into(), Value::String(name.into()));
            map
        }
        _ => empty_object(),
    }
}

/// Resolves a `type` array in one mapping.
fn resolve_type_array(map: &mut Map<String, Value>, rules: &SchemaRules) {
    let Some(Value::Array(types)) = map.get("type") else {
        return;
    };
    let had_null = types.iter().any(|t| t.as_str() == Some("null"));
    let non_null: Vec<&str> = types
        .iter()
        .filter_map(Value::as_str)
        .filter(|t| *t != "null")
        .collect();
    let first = non_null.first().map(|t| t.to_string());
    let single = non_null.len() == 1;
    let several: Vec<Value> = non_null
        .iter()
        .map(|t| {
            let mut member = Map::new();
            member.insert("type".into(), Value::String(t.to_string()));
            Value::Object(member)
        })
        .collect();
    let empty = types.is_empty();
    let nullable = had_null && !non_null.is_empty();
    match (rules.multi_type, single, first) {
        (_, true, Some(only)) | (MultiType::FirstType, false, Some(only)) => {
            map.insert("type".into(), Value::String(only));
        }
        (MultiType::AnyOf, false, Some(_)) => {
            map.shift_remove("type");
            map.insert("anyOf".into(), Value::Array(several));
        }
        (_, _, None) => {
            let resolved = match (rules.multi_type, had_null && !empty) {
                (MultiType::AnyOf, true) => "null",
                _ => "object",
            };
            map.insert("type".into(), Value::String(resolved.into()));
        }
    }
    if nullable && (single || rules.multi_type == MultiType::AnyOf) {
        if rules.nullable_follows_type && map.contains_key("type") && !map.contains_key("nullable")
        {
            insert_after(map, "type", "nullable", Value::Bool(true));
        } else {
            map.insert("nullable".into(), Value::Bool(true));
        }
    }
}

/// Inserts `key` right after `after` (or at the end when `after` is absent).
fn insert_after(map: &mut Map<String, Value>, after: &str, key: &str, value: Value) {
    let old = std::mem::take(map);
    let mut pending = Some(value);
    for (k, v) in old {
        let hit = k == after;
        map.insert(k, v);
        if hit {
            if let Some(value) = pending.take() {
                map.insert(key.to_string(), value);
            }
        }
    }
    if let Some(value) = pending {
        map.insert(key.to_string(), value);
    }
}

/// Whether a property name is one providers accept as is.
fn valid_property_name(name: &str) -> bool {
    (1..=64).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Renames the property names providers reject; `required` follows the new names.
fn rename_properties(map: &mut Map<String, Value>) {
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        return;
    };
    if properties.keys().all(|k| valid_property_name(k)) {
        return;
    }
    let mut taken: Vec<String> = properties
        .keys()
        .filter(|k| valid_property_name(k))
        .cloned()
        .collect();
    let mut renames: Vec<(String, String)> = Vec::new();
    let old = std::mem::take(properties);
    for (key, value) in old {
        if valid_property_name(&key) {
            properties.insert(key, value);
            continue;
        }
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
        renames.push((key, name.clone()));
        properties.insert(name, value);
    }
    if let Some(Value::Array(required)) = map.get_mut("required") {
        for entry in required.iter_mut() {
            if let Some((_, new)) = renames
                .iter()
                .find(|(old, _)| Some(old.as_str()) == entry.as_str())
            {
                *entry = Value::String(new.clone());
            }
        }
    }
}

/// Drops boolean `required` from the properties of `map`, appending those set to `true` to
/// `map`'s own `required` list.
fn hoist_boolean_required(map: &mut Map<String, Value>) {
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        return;
    };
    let mut hoisted = Vec::new();
    for (name, schema) in properties.iter_mut() {
        if let Value::Object(schema) = schema {
            if let Some(Value::Bool(flag)) = schema.get("required") {
                let flag = *flag;
                schema.shift_remove("required");
                if flag {
                    hoisted.push(Value::String(name.clone()));
                }
            }
        }
    }
    if hoisted.is_empty() {
        return;
    }
    if let Value::Array(required) = map
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        required.extend(hoisted);
    }
}

/// The sanitiser on one schema (bare strings replaced), recursively.
fn sanitise(value: &mut Value, rules: &SchemaRules, walk: Walk) {
    match value {
        Value::String(text) => *value = Value::Object(bare_string_schema(text)),
        Value::Array(_) => visit_list(value, &mut |item| sanitise(item, rules, walk)),
        Value::Object(map) => {
            resolve_type_array(map, rules);
            if rules.rename_property_keys {
                rename_properties(map);
            }
            for_each_child(map, walk, &mut |child| sanitise(child, rules, walk));
            if rules.boolean_required {
                hoist_boolean_required(map);
            }
            repair_shape(value, rules, false);
        }
        _ => {}
    }
}

/// Removes `default` from every mapping that has a `$ref`, anywhere.
fn drop_default_beside_ref(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("$ref") {
                map.shift_remove("default");
            }
            map.values_mut().for_each(drop_default_beside_ref);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_default_beside_ref),
        _ => {}
    }
}

/// The parameters Hermes sends for a captured `inputSchema` (`None` when the tool has none):
/// both passes of the profile's rules.
pub fn normalise(schema: Option<&Map<String, Value>>, rules: &SchemaRules) -> Map<String, Value> {
    let mut value = match schema {
        Some(map) if !map.is_empty() => Value::Object(map.clone()),
        _ => Value::Object(empty_object()),
    };
    // Registration (MCP level): every mapping is walked.
    let walk = Walk::Everything;
    rename_definitions(&mut value, rules.keep_parameters_named_definitions, false);
    post_order(&mut value, walk, &mut collapse_nullable);
    if rules.collapse_const_unions {
        post_order(&mut value, walk, &mut collapse_const);
    }
    post_order(&mut value, walk, &mut |node| {
        repair_shape(node, rules, true)
    });
    // The sanitiser (model level).
    let walk = if rules.walk_literals {
        Walk::SeedSanitiser
    } else {
        Walk::Keywords
    };
    sanitise(&mut value, rules, walk);
    let Value::Object(map) = &mut value else {
        unreachable!("the root stays a mapping")
    };
    map.insert("type".into(), Value::String("object".into()));
    if !matches!(map.get("properties"), Some(Value::Object(_))) {
        map.insert("properties".into(), Value::Object(Map::new()));
    }
    collapse_nullable(&mut value);
    if let Value::Object(map) = &mut value {
        for key in TOP_LEVEL_REMOVED {
            map.shift_remove(key);
        }
    }
    drop_default_beside_ref(&mut value);
    match value {
        Value::Object(map) => map,
        _ => unreachable!("collapse keeps mappings"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::profile::{HERMES_2026_09, SEED};
    use serde_json::json;

    fn seed(schema: Value) -> Value {
        Value::Object(normalise(schema.as_object(), &SEED.schema))
    }

    fn current(schema: Value) -> Value {
        Value::Object(normalise(schema.as_object(), &HERMES_2026_09.schema))
    }

    /// Compact JSON with key order, to compare byte for byte.
    fn text(value: &Value) -> String {
        serde_json::to_string(value).unwrap()
    }

    #[test]
    fn missing_or_empty_schema_is_an_empty_object() {
        let empty = json!({"type": "object", "properties": {}});
        assert_eq!(
            text(&Value::Object(normalise(None, &SEED.schema))),
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
        // The newer profile leaves a parameter named `definitions` alone.
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
        for rules in [&SEED.schema, &HERMES_2026_09.schema] {
            let once = normalise(schema.as_object(), rules);
            let twice = normalise(Some(&once), rules);
            assert_eq!(text(&Value::Object(once)), text(&Value::Object(twice)));
        }
    }
}
