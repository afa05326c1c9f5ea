//! A JSON object kept as the compact text schematax measures and sends, parsed only when a
//! reader needs its structure. A catalog of 100,000 schemas then costs about its text, where a
//! tree of `serde_json` values costs four to five times that.

use serde::Deserialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::nouns::json_text::{write_compact_object, JsonSink};

/// A JSON object as compact text (Python's `json.dumps` separators and escapes), cheap to clone.
#[derive(Clone)]
pub struct ObjectText(Text);

/// How an object's text is held.
#[derive(Clone)]
enum Text {
    /// The whole text.
    Whole(Arc<str>),
    /// Another object's text with one run of it replaced: what Hermes's schema passes make of
    /// a captured schema, most of which they leave as it was, held as the run they changed.
    Edited {
        base: Arc<str>,
        /// Bytes of `base` kept at the start, and at the end.
        prefix: usize,
        suffix: usize,
        /// What replaces the run between them.
        middle: Box<str>,
    },
}

/// The least an edited text must save to be held as its edit.
const MIN_SAVED_BYTES: usize = 64;

/// The parameters of a tool that takes none, as Hermes sends them.
const NO_PARAMETERS: &str = r#"{"type":"object","properties":{}}"#;

impl ObjectText {
    /// Writes `map` as compact JSON (see [`ObjectText::from_compact`]).
    pub fn new(map: &Map<String, Value>) -> ObjectText {
        let mut text = String::new();
        write_compact_object(map, &mut text);
        ObjectText::from_compact(text)
    }

    /// An object's text as [`ObjectText::new`] writes it (written another way, such as while
    /// it is parsed). The parameters of a tool that takes none are held once for every tool.
    pub(crate) fn from_compact(text: String) -> ObjectText {
        static SHARED: OnceLock<Arc<str>> = OnceLock::new();
        if text == NO_PARAMETERS {
            return ObjectText(Text::Whole(Arc::clone(
                SHARED.get_or_init(|| NO_PARAMETERS.into()),
            )));
        }
        ObjectText(Text::Whole(text.into()))
    }

    /// Writes `map` as compact JSON, held as the run of `base`'s text it changes when that
    /// saves a quarter of the text and [`MIN_SAVED_BYTES`] (`base` itself is shared, not
    /// copied).
    pub fn edited(base: &ObjectText, map: &Map<String, Value>) -> ObjectText {
        let whole = ObjectText::new(map);
        let (Text::Whole(base), Text::Whole(text)) = (&base.0, &whole.0) else {
            return whole;
        };
        let (old, new) = (base.as_bytes(), text.as_bytes());
        let mut prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        while !base.is_char_boundary(prefix) {
            prefix -= 1;
        }
        let most = old.len().min(new.len()) - prefix;
        let mut suffix = old[prefix..]
            .iter()
            .rev()
            .zip(new[prefix..].iter().rev())
            .take(most)
            .take_while(|(a, b)| a == b)
            .count();
        while !base.is_char_boundary(old.len() - suffix) {
            suffix -= 1;
        }
        let middle = &text[prefix..text.len() - suffix];
        if text.len() - middle.len() < MIN_SAVED_BYTES.max(text.len() / 4) {
            return whole;
        }
        ObjectText(Text::Edited {
            base: Arc::clone(base),
            prefix,
            suffix,
            middle: middle.into(),
        })
    }

    /// The compact JSON text (put together when held as an edit of another).
    pub fn as_str(&self) -> Cow<'_, str> {
        match &self.0 {
            Text::Whole(text) => Cow::Borrowed(text),
            Text::Edited { .. } => {
                let mut text = String::new();
                self.write_to(&mut text);
                Cow::Owned(text)
            }
        }
    }

    /// Writes the compact JSON text to `out`.
    pub fn write_to<S: JsonSink>(&self, out: &mut S) {
        match &self.0 {
            Text::Whole(text) => out.push_str(text),
            Text::Edited {
                base,
                prefix,
                suffix,
                middle,
            } => {
                out.push_str(&base[..*prefix]);
                out.push_str(middle);
                out.push_str(&base[base.len() - suffix..]);
            }
        }
    }

    /// The object, parsed back into values.
    pub fn parse(&self) -> Map<String, Value> {
        let text = self.as_str();
        let mut reader = serde_json::Deserializer::from_str(&text);
        // The text was written from a mapping read under the loader's nesting limit, so it is
        // valid JSON of bounded depth; the limit is lifted only because Hermes's schema passes
        // may have added a level below it.
        reader.disable_recursion_limit();
        Map::deserialize(&mut reader).unwrap_or_default()
    }
}

impl PartialEq for ObjectText {
    fn eq(&self, other: &ObjectText) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for ObjectText {}

impl fmt::Debug for ObjectText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_str())
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
    fn an_edited_text_is_held_as_the_run_it_changes_and_reads_as_written() {
        let object = |value: Value| match value {
            Value::Object(map) => map,
            _ => unreachable!(),
        };
        let long = "é".repeat(40);
        let base = ObjectText::new(&object(json!({"a": long, "b": 1, "c": long})));
        let cases = [
            json!({"a": long, "b": 2, "c": long}),
            json!({"type": "object", "a": long, "b": 1, "c": long}),
            json!({"a": long, "b": 1, "c": long, "required": []}),
            json!({"a": format!("{long}ê"), "b": 1, "c": long}),
            json!({"x": 1}),
            json!({"x": "y".repeat(200)}),
        ];
        for case in cases {
            let map = object(case);
            let edited = ObjectText::edited(&base, &map);
            let whole = ObjectText::new(&map);
            assert_eq!(edited.as_str(), whole.as_str());
            assert_eq!(edited, whole);
            assert_eq!(edited.parse(), map);
            let mut counted = crate::nouns::json_text::CharCounter::default();
            edited.write_to(&mut counted);
            assert_eq!(counted.0, whole.as_str().chars().count() as u64);
        }
        let small = ObjectText::edited(&base, &object(json!({"a": long, "b": 2, "c": long})));
        assert!(
            matches!(&small.0, Text::Edited { base: b, middle, .. } if middle.len() == 1 && matches!(&base.0, Text::Whole(a) if Arc::ptr_eq(a, b))),
            "one changed digit is held as that digit, beside the shared base: {small:?}"
        );
        let unlike = ObjectText::edited(&base, &object(json!({"x": "y".repeat(200)})));
        assert!(
            matches!(unlike.0, Text::Whole(_)),
            "a text unlike its base is held whole"
        );
    }

    #[test]
    fn the_schema_of_no_parameters_is_held_once() {
        let Value::Object(empty) = json!({"type": "object", "properties": {}}) else {
            unreachable!()
        };
        let (a, b) = (ObjectText::new(&empty), ObjectText::new(&empty));
        assert_eq!(a.as_str(), NO_PARAMETERS);
        assert!(matches!((&a.0, &b.0), (Text::Whole(x), Text::Whole(y)) if Arc::ptr_eq(x, y)));
        let Value::Object(other) = json!({"properties": {}, "type": "object"}) else {
            unreachable!()
        };
        assert!(
            matches!((&ObjectText::new(&other).0, &a.0), (Text::Whole(x), Text::Whole(y)) if !Arc::ptr_eq(x, y))
        );
    }
}
