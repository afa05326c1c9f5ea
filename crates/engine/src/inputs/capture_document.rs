//! One document of a capture file as the loader reads it: the few fields it looks at, and each
//! tool's schema written as compact text while it is parsed, with no tree of values built for
//! it (a catalog's schemas are most of its bytes). A schema that writes a key twice is the one
//! case the text cannot settle as it goes (Python's dict keeps the key's first place and its
//! last value), so such a file is read again as trees ([`Document::from_value`]); both ways
//! give the same document.

use rustc_hash::FxHashSet;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::fmt;
use std::hash::BuildHasher;

use crate::nouns::json_text::{write_float, write_json_string, CharCounter};
use crate::nouns::object_text::ObjectText;
use crate::nouns::tools::MAX_ANALYSED_STRING_BYTES;

/// A field that is there: of the kind the loader expects, or of another.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Shaped<T> {
    /// Of the expected kind.
    Expected(T),
    /// Of another kind.
    Other,
}

/// What the loader reads of one document of a capture file.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Document {
    /// A bare array of tools.
    Tools(Vec<RawTool>),
    /// An object: a capture file, a `tools/list` result or a JSON-RPC response.
    Object(DocumentObject),
    /// Neither.
    Other,
}

/// The keys of a document object that the loader reads.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct DocumentObject {
    /// `server`, `serverInfo`, `protocolVersion`, `capturedAt`, `instructions` and `error`,
    /// those that are there.
    pub(super) fields: Map<String, Value>,
    /// `result`.
    pub(super) result: Option<Shaped<ResultObject>>,
    /// `tools`.
    pub(super) tools: Option<Shaped<Vec<RawTool>>>,
}

/// The keys of a `result` object that the loader reads.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct ResultObject {
    /// `instructions`.
    pub(super) instructions: Option<Value>,
    /// `tools`.
    pub(super) tools: Option<Shaped<Vec<RawTool>>>,
}

/// An entry of a tools array.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum RawTool {
    /// An object: the tool's fields (those of its `function`, when that is an object).
    Object(Box<ToolFields>),
    /// Anything else.
    Other,
}

/// The keys of a tool object that the loader reads.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct ToolFields {
    /// `name`.
    pub(super) name: Option<Value>,
    /// `description`.
    pub(super) description: Option<Value>,
    /// `title`.
    pub(super) title: Option<Value>,
    /// `_meta`.
    pub(super) meta: Option<Value>,
    /// `inputSchema`, `input_schema` and `parameters`, in that order.
    pub(super) schemas: [Option<SchemaField>; 3],
    /// `function`, when it is an object (an OpenAI function definition): its fields stand for
    /// the tool's own.
    pub(super) function: Option<Box<ToolFields>>,
    /// Whether a schema writes a key twice (read as it is parsed, its text would not be what
    /// Python's dict makes of it): the file is read again as trees.
    key_twice: bool,
}

/// The keys of a tool object that the loader reads: its schema's first, in the order they
/// are looked for ([`SCHEMA_KEYS`]).
const TOOL_KEYS: [&str; 8] = [
    "inputSchema",
    "input_schema",
    "parameters",
    "name",
    "description",
    "title",
    "_meta",
    "function",
];

/// The keys a tool's schema may be given under, in the order they are looked for.
const SCHEMA_KEYS: [&str; 3] = [TOOL_KEYS[0], TOOL_KEYS[1], TOOL_KEYS[2]];

/// A tool's schema field.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum SchemaField {
    /// `null`: as if it were not there.
    Null,
    /// An object, as compact text, and the characters its cut strings lost.
    Object(ObjectText, u64),
    /// Anything else.
    Other,
}

impl ToolFields {
    /// The tool's schema: the first of its schema keys that is there and not `null`.
    pub(super) fn schema(&self) -> Option<&SchemaField> {
        self.schemas
            .iter()
            .flatten()
            .find(|field| **field != SchemaField::Null)
    }

    /// The fields read from a tree of values (`nested`: a `function` object's own, whose
    /// `function` key is not read).
    fn from_map(mut object: Map<String, Value>, nested: bool) -> ToolFields {
        let function = match object.remove("function") {
            Some(Value::Object(function)) if !nested => {
                Some(Box::new(ToolFields::from_map(function, true)))
            }
            _ => None,
        };
        let schemas = SCHEMA_KEYS.map(|key| {
            object.remove(key).map(|value| match value {
                Value::Null => SchemaField::Null,
                Value::Object(mut schema) => {
                    let cut = cut_map(&mut schema);
                    SchemaField::Object(ObjectText::new(&schema), cut)
                }
                _ => SchemaField::Other,
            })
        });
        ToolFields {
            name: object.remove("name"),
            description: object.remove("description"),
            title: object.remove("title"),
            meta: object.remove("_meta"),
            schemas,
            function,
            key_twice: false,
        }
    }
}

impl RawTool {
    /// The entry read from a tree of values.
    fn from_value(value: Value) -> RawTool {
        match value {
            Value::Object(object) => RawTool::Object(Box::new(ToolFields::from_map(object, false))),
            _ => RawTool::Other,
        }
    }

    /// Whether its schema writes a key twice.
    fn has_key_twice(&self) -> bool {
        let RawTool::Object(fields) = self else {
            return false;
        };
        fields.key_twice || fields.function.as_deref().is_some_and(|f| f.key_twice)
    }
}

/// The entries of a tools field read from a tree of values.
fn tools_from_value(value: Value) -> Shaped<Vec<RawTool>> {
    match value {
        Value::Array(items) => {
            Shaped::Expected(items.into_iter().map(RawTool::from_value).collect())
        }
        _ => Shaped::Other,
    }
}

/// The keys of a document object that the loader reads: `result`, `tools`, then its own
/// fields ([`DOCUMENT_FIELDS`]).
const DOCUMENT_KEYS: [&str; 8] = [
    "result",
    "tools",
    "server",
    "serverInfo",
    "protocolVersion",
    "capturedAt",
    "instructions",
    "error",
];

/// The document object's own fields the loader reads besides `result` and `tools`.
const DOCUMENT_FIELDS: &[&str] = DOCUMENT_KEYS.split_at(2).1;

impl Document {
    /// The document read from a tree of values.
    pub(super) fn from_value(value: Value) -> Document {
        match value {
            Value::Array(items) => {
                Document::Tools(items.into_iter().map(RawTool::from_value).collect())
            }
            Value::Object(mut object) => {
                let result = object.remove("result").map(|result| match result {
                    Value::Object(mut result) => Shaped::Expected(ResultObject {
                        instructions: result.remove("instructions"),
                        tools: result.remove("tools").map(tools_from_value),
                    }),
                    _ => Shaped::Other,
                });
                let tools = object.remove("tools").map(tools_from_value);
                let fields = DOCUMENT_FIELDS
                    .iter()
                    .filter_map(|key| object.remove(*key).map(|value| (key.to_string(), value)))
                    .collect();
                Document::Object(DocumentObject {
                    fields,
                    result,
                    tools,
                })
            }
            _ => Document::Other,
        }
    }

    /// Whether a tool's schema writes a key twice (the file is then read again as trees).
    pub(super) fn has_key_twice(&self) -> bool {
        let any = |tools: &Option<Shaped<Vec<RawTool>>>| match tools {
            Some(Shaped::Expected(tools)) => tools.iter().any(RawTool::has_key_twice),
            _ => false,
        };
        match self {
            Document::Tools(tools) => tools.iter().any(RawTool::has_key_twice),
            Document::Object(object) => {
                any(&object.tools)
                    || matches!(&object.result, Some(Shaped::Expected(result)) if any(&result.tools))
            }
            Document::Other => false,
        }
    }
}

/// Cuts the long strings of a mapping, keys included (a cut key keeps its place); returns the
/// characters cut.
fn cut_map(map: &mut Map<String, Value>) -> u64 {
    let mut cut = 0;
    if map.keys().any(|k| k.len() > MAX_ANALYSED_STRING_BYTES) {
        let pairs = std::mem::take(map);
        for (mut key, value) in pairs {
            cut += cut_string(&mut key);
            map.insert(key, value);
        }
    }
    map.values_mut().map(cut_value).sum::<u64>() + cut
}

/// Cuts the long strings of a JSON value, at any depth.
fn cut_value(value: &mut Value) -> u64 {
    match value {
        Value::String(text) => cut_string(text),
        Value::Array(items) => items.iter_mut().map(cut_value).sum(),
        Value::Object(map) => cut_map(map),
        _ => 0,
    }
}

/// Cuts `text` to at most [`MAX_ANALYSED_STRING_BYTES`] on a character boundary; returns the
/// characters the cut part takes in the JSON definition.
pub(super) fn cut_string(text: &mut String) -> u64 {
    let (kept, cut) = cut_str(text);
    let kept = kept.len();
    text.truncate(kept);
    cut
}

/// `text` cut to at most [`MAX_ANALYSED_STRING_BYTES`] on a character boundary, and the
/// characters the cut part takes in the JSON definition.
fn cut_str(text: &str) -> (&str, u64) {
    if text.len() <= MAX_ANALYSED_STRING_BYTES {
        return (text, 0);
    }
    let mut at = MAX_ANALYSED_STRING_BYTES;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut counter = CharCounter::default();
    write_json_string(&text[at..], &mut counter);
    (&text[..at], counter.0 - 2)
}

// Reading a document as it is parsed. Every value is read through `deserialize_any`, as a tree
// of values is, so the parser's nesting limit and its errors are the same either way.

/// Implements the visitor methods of the scalars but `null` for a value of the wrong kind: it
/// is read through and `$other` is given.
macro_rules! other_kinds {
    ($value:ty, $other:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$value, E> {
            Ok($other)
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$value, E> {
            Ok($other)
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$value, E> {
            Ok($other)
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$value, E> {
            Ok($other)
        }

        fn visit_str<E: de::Error>(self, _: &str) -> Result<$value, E> {
            Ok($other)
        }
    };
}

/// Implements the visitor method of a list for a value that is not one: read through.
macro_rules! not_a_list {
    ($value:ty, $other:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<$value, A::Error> {
            skip_seq(seq)?;
            Ok($other)
        }
    };
}

/// Implements the visitor method of a mapping for a value that is not one: read through.
macro_rules! not_a_map {
    ($value:ty, $other:expr) => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<$value, A::Error> {
            skip_map(map)?;
            Ok($other)
        }
    };
}

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DocumentVisitor)
    }
}

/// Reads a document.
struct DocumentVisitor;

impl<'de> Visitor<'de> for DocumentVisitor {
    type Value = Document;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON document")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Document, A::Error> {
        read_tools(seq).map(Document::Tools)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut object = DocumentObject::default();
        while let Some(key) = map.next_key_seed(KnownKey(&DOCUMENT_KEYS))? {
            match key {
                Some("result") => object.result = Some(map.next_value()?),
                Some("tools") => object.tools = Some(map.next_value()?),
                Some(field) => {
                    let value = map.next_value::<Value>()?;
                    object.fields.insert(field.to_string(), value);
                }
                None => {
                    map.next_value::<Skipped>()?;
                }
            }
        }
        Ok(Document::Object(object))
    }

    other_kinds!(Document, Document::Other);

    fn visit_unit<E: de::Error>(self) -> Result<Document, E> {
        Ok(Document::Other)
    }
}

/// Reads the entries of a tools array.
fn read_tools<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<RawTool>, A::Error> {
    let mut tools = Vec::new();
    while let Some(tool) = seq.next_element::<RawTool>()? {
        tools.push(tool);
    }
    Ok(tools)
}

impl<'de> Deserialize<'de> for Shaped<Vec<RawTool>> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Reads a tools field.
        struct ToolsVisitor;
        impl<'de> Visitor<'de> for ToolsVisitor {
            type Value = Shaped<Vec<RawTool>>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tools array")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                read_tools(seq).map(Shaped::Expected)
            }

            not_a_map!(Self::Value, Shaped::Other);
            other_kinds!(Self::Value, Shaped::Other);

            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Shaped::Other)
            }
        }
        deserializer.deserialize_any(ToolsVisitor)
    }
}

impl<'de> Deserialize<'de> for Shaped<ResultObject> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Reads a `result` field.
        struct ResultVisitor;
        impl<'de> Visitor<'de> for ResultVisitor {
            type Value = Shaped<ResultObject>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a result object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut result = ResultObject::default();
                while let Some(key) = map.next_key_seed(KnownKey(&["instructions", "tools"]))? {
                    match key {
                        Some("instructions") => result.instructions = Some(map.next_value()?),
                        Some("tools") => result.tools = Some(map.next_value()?),
                        _ => {
                            map.next_value::<Skipped>()?;
                        }
                    }
                }
                Ok(Shaped::Expected(result))
            }

            not_a_list!(Self::Value, Shaped::Other);
            other_kinds!(Self::Value, Shaped::Other);

            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Shaped::Other)
            }
        }
        deserializer.deserialize_any(ResultVisitor)
    }
}

impl<'de> Deserialize<'de> for RawTool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_any(ToolVisitor { nested: false })? {
            Some(fields) => Ok(RawTool::Object(Box::new(fields))),
            None => Ok(RawTool::Other),
        }
    }
}

/// Reads a tool object (`nested`: a `function` object, whose own `function` key is not read);
/// gives None for a value that is not an object.
struct ToolVisitor {
    nested: bool,
}

impl<'de> Visitor<'de> for ToolVisitor {
    type Value = Option<ToolFields>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tool object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields = ToolFields::default();
        while let Some(key) = map.next_key_seed(KnownKey(&TOOL_KEYS))? {
            if let Some(at) = SCHEMA_KEYS.iter().position(|k| Some(*k) == key) {
                match map.next_value_seed(SchemaSeed)? {
                    Some(schema) => fields.schemas[at] = Some(schema),
                    None => fields.key_twice = true,
                }
                continue;
            }
            match key {
                Some("function") if !self.nested => {
                    fields.function = map.next_value_seed(FunctionSeed)?.map(Box::new);
                }
                Some("name") => fields.name = Some(map.next_value()?),
                Some("description") => fields.description = Some(map.next_value()?),
                Some("title") => fields.title = Some(map.next_value()?),
                Some("_meta") => fields.meta = Some(map.next_value()?),
                _ => {
                    map.next_value::<Skipped>()?;
                }
            }
        }
        Ok(Some(fields))
    }

    not_a_list!(Self::Value, None);
    other_kinds!(Self::Value, None);

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// A key of a mapping matched against the names the loader reads there, without a copy: the
/// name, or None for another key.
struct KnownKey(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KnownKey {
    type Value = Option<&'static str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KnownKey {
    type Value = Option<&'static str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(self.0.iter().find(|known| **known == key).copied())
    }
}

/// Reads a tool's `function` field: its fields when it is an object.
struct FunctionSeed;

impl<'de> DeserializeSeed<'de> for FunctionSeed {
    type Value = Option<ToolFields>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(ToolVisitor { nested: true })
    }
}

/// Reads a tool's schema field, writing an object as compact text; None for an object that
/// writes a key twice.
struct SchemaSeed;

impl<'de> DeserializeSeed<'de> for SchemaSeed {
    type Value = Option<SchemaField>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SchemaSeed {
    type Value = Option<SchemaField>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a schema object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let mut writer = CompactWriter::default();
        writer.write_map(map)?;
        Ok((!writer.key_twice)
            .then(|| SchemaField::Object(ObjectText::from_compact(writer.out), writer.cut)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Some(SchemaField::Null))
    }

    not_a_list!(Self::Value, Some(SchemaField::Other));
    other_kinds!(Self::Value, Some(SchemaField::Other));
}

/// Writes values as the compact JSON of [`crate::nouns::json_text::write_compact_json`] as they
/// are parsed, each string (keys too) cut as the loader cuts it.
#[derive(Default)]
struct CompactWriter {
    out: String,
    /// Characters the cut strings lost.
    cut: u64,
    /// Whether a mapping wrote a key twice (after its cut).
    key_twice: bool,
    /// Hashes of the keys of the mappings being written, outermost first.
    keys: Vec<u64>,
}

/// Mappings of more keys than this find a key written twice through a set rather than by
/// comparing it with each key before it.
const KEYS_COMPARED_ONE_BY_ONE: usize = 16;

impl CompactWriter {
    /// Writes a mapping.
    fn write_map<'de, A: MapAccess<'de>>(&mut self, mut map: A) -> Result<(), A::Error> {
        self.out.push('{');
        let first = self.keys.len();
        let mut many: Option<FxHashSet<u64>> = None;
        let mut first_key = true;
        while let Some(key) = map.next_key_seed(KeySeed {
            writer: self,
            first: first_key,
        })? {
            first_key = false;
            let own = &self.keys[first..];
            let twice = match many.as_mut() {
                Some(set) => !set.insert(key),
                None if own.len() < KEYS_COMPARED_ONE_BY_ONE => own.contains(&key),
                None => {
                    let mut set: FxHashSet<u64> = own.iter().copied().collect();
                    let twice = !set.insert(key);
                    many = Some(set);
                    twice
                }
            };
            // Equal hashes of different keys only send the file to be read as trees.
            self.key_twice |= twice;
            self.keys.push(key);
            self.out.push(':');
            map.next_value_seed(ValueSeed { writer: self })?;
        }
        self.keys.truncate(first);
        self.out.push('}');
        Ok(())
    }

    /// Writes a string, cut; gives what was kept of it.
    fn write_str<'t>(&mut self, text: &'t str) -> &'t str {
        let (kept, cut) = cut_str(text);
        self.cut += cut;
        write_json_string(kept, &mut self.out);
        kept
    }
}

/// Writes a mapping's key (after a comma, unless it is the `first`); gives the hash of the
/// key as written.
struct KeySeed<'w> {
    writer: &'w mut CompactWriter,
    first: bool,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = u64;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u64, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<u64, E> {
        let writer = self.writer;
        if !self.first {
            writer.out.push(',');
        }
        let kept = writer.write_str(key);
        Ok(rustc_hash::FxBuildHasher.hash_one(kept))
    }
}

/// Writes one value.
struct ValueSeed<'w> {
    writer: &'w mut CompactWriter,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        self.writer
            .out
            .push_str(if value { "true" } else { "false" });
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        self.writer.out.push_str(itoa::Buffer::new().format(value));
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        self.writer.out.push_str(itoa::Buffer::new().format(value));
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        write_float(value, &mut self.writer.out);
        Ok(())
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        self.writer.write_str(value);
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.writer.out.push_str("null");
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let writer = self.writer;
        writer.out.push('[');
        let mut first = true;
        while seq
            .next_element_seed(ItemSeed {
                writer: &mut *writer,
                first,
            })?
            .is_some()
        {
            first = false;
        }
        writer.out.push(']');
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.writer.write_map(map)
    }
}

/// Writes one item of a list (after a comma, unless it is the `first`).
struct ItemSeed<'w> {
    writer: &'w mut CompactWriter,
    first: bool,
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if !self.first {
            self.writer.out.push(',');
        }
        ValueSeed {
            writer: self.writer,
        }
        .deserialize(deserializer)
    }
}

/// A value read through and dropped, each level through `deserialize_any` as a tree's is (so
/// under the same nesting limit).
struct Skipped;

impl<'de> Deserialize<'de> for Skipped {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkippedVisitor)
    }
}

/// Reads a value through.
struct SkippedVisitor;

impl<'de> Visitor<'de> for SkippedVisitor {
    type Value = Skipped;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    not_a_list!(Skipped, Skipped);
    not_a_map!(Skipped, Skipped);
    other_kinds!(Skipped, Skipped);

    fn visit_unit<E: de::Error>(self) -> Result<Skipped, E> {
        Ok(Skipped)
    }
}

/// Reads a list through.
fn skip_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<Skipped>()?.is_some() {}
    Ok(())
}

/// Reads a mapping through.
fn skip_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<Skipped, Skipped>()?.is_some() {}
    Ok(())
}
