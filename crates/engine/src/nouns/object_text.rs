//! A JSON object kept as the compact text schematax measures and sends, parsed only when a
//! reader needs its structure. A catalog of 100,000 schemas then costs about its text, where a
//! tree of `serde_json` values costs four to five times that.

use serde::Deserialize;
use serde_json::{Map, Value};
use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::nouns::json_text::write_compact_object;

/// A JSON object as compact text (Python's `json.dumps` separators and escapes), cheap to clone.
#[derive(Clone, PartialEq, Eq)]
pub struct ObjectText(Arc<str>);

/// The parameters of a tool that takes none, as Hermes sends them.
const NO_PARAMETERS: &str = r#"{"type":"object","properties":{}}"#;

impl ObjectText {
    /// Writes `map` as compact JSON. The parameters of a tool that takes none, the most common
    /// schema of all, are held once for every tool.
    pub fn new(map: &Map<String, Value>) -> ObjectText {
        static SHARED: OnceLock<Arc<str>> = OnceLock::new();
        let mut text = String::new();
        write_compact_object(map, &mut text);
        if text == NO_PARAMETERS {
            return ObjectText(Arc::clone(SHARED.get_or_init(|| NO_PARAMETERS.into())));
        }
        ObjectText(text.into())
    }

    /// The compact JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The object, parsed back into values.
    pub fn parse(&self) -> Map<String, Value> {
        let mut reader = serde_json::Deserializer::from_str(&self.0);
        // The text was written from a mapping read under the loader's nesting limit, so it is
        // valid JSON of bounded depth; the limit is lifted only because Hermes's schema passes
        // may have added a level below it.
        reader.disable_recursion_limit();
        Map::deserialize(&mut reader).unwrap_or_default()
    }
}

impl fmt::Debug for ObjectText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_is_compact_and_parses_back_to_the_same_object_in_order() {
        let Value::Object(map) = json!({
            "type": "object",
            "properties": {"z": {"type": "number", "default": 1.5e16}, "a": {"enum": ["é", "\n"]}},
            "required": ["z"]
        }) else {
            unreachable!()
        };
        let text = ObjectText::new(&map);
        assert_eq!(
            text.as_str(),
            r#"{"type":"object","properties":{"z":{"type":"number","default":1.5e+16},"a":{"enum":["é","\n"]}},"required":["z"]}"#
        );
        let parsed = text.parse();
        assert_eq!(parsed, map);
        assert!(parsed["properties"]
            .as_object()
            .unwrap()
            .keys()
            .eq(["z", "a"]));
        assert_eq!(ObjectText::new(&parsed), text);
    }

    #[test]
    fn the_schema_of_no_parameters_is_held_once() {
        let Value::Object(empty) = json!({"type": "object", "properties": {}}) else {
            unreachable!()
        };
        let (a, b) = (ObjectText::new(&empty), ObjectText::new(&empty));
        assert_eq!(a.as_str(), NO_PARAMETERS);
        assert!(Arc::ptr_eq(&a.0, &b.0));
        let Value::Object(other) = json!({"properties": {}, "type": "object"}) else {
            unreachable!()
        };
        assert!(!Arc::ptr_eq(&ObjectText::new(&other).0, &a.0));
    }
}
