//! Masking secrets (env and header values) in whatever a server sends: its stderr, read a piece
//! at a time, the text quoted in errors, and the JSON written into a capture, where a name
//! that becomes equal to another once masked is kept apart under a name of its own.

use serde_json::{Map, Value};
use std::collections::HashSet;
use std::ops::Range;

/// Masks secret values in any text that leaves the program.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// Longest first.
    secrets: Vec<String>,
}

/// What masking a server's JSON did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Masked {
    /// Strings and keys that held a secret.
    pub strings: usize,
    /// Keys that became equal to another key of their object once masked, each kept under a
    /// name of its own: the masked name and the name it was kept as.
    pub renamed: Vec<(String, String)>,
}

impl Redactor {
    /// A redactor for these secret values (very short values are not masked: they would
    /// garble ordinary text).
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Redactor {
        let mut secrets: Vec<String> = secrets.into_iter().filter(|s| s.len() >= 4).collect();
        secrets.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        secrets.dedup();
        Redactor { secrets }
    }

    /// Whether `text` holds a secret.
    pub fn holds(&self, text: &str) -> bool {
        self.secrets.iter().any(|s| text.contains(s.as_str()))
    }

    /// Where secrets occur in `text`, every occurrence (overlapping ones too), overlapping
    /// ranges merged, in order.
    fn ranges(&self, text: &str) -> Vec<Range<usize>> {
        let mut found = Vec::new();
        for secret in &self.secrets {
            let mut from = 0;
            while let Some(at) = text[from..].find(secret.as_str()) {
                let start = from + at;
                found.push(start..start + secret.len());
                // The next occurrence may overlap this one: look again from the next character.
                from = start + text[start..].chars().next().map_or(1, char::len_utf8);
            }
        }
        found.sort_by_key(|range| range.start);
        let mut merged: Vec<Range<usize>> = Vec::new();
        for range in found {
            match merged.last_mut() {
                Some(last) if range.start < last.end => last.end = last.end.max(range.end),
                _ => merged.push(range),
            }
        }
        merged
    }

    /// `text` with every secret replaced by `***` (secrets that overlap, by one `***`).
    pub fn redact(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut done = 0;
        for range in self.ranges(text) {
            out.push_str(&text[done..range.start]);
            out.push_str("***");
            done = range.end;
        }
        out.push_str(&text[done..]);
        out
    }

    /// How much of `bytes`, the start of a longer stream, can be masked and let go now: all
    /// but its last bytes, where a secret may begin that what comes next completes. The cut
    /// is drawn back to the start of a character and past any secret that crosses it, so
    /// masking each piece on its own masks every secret of the stream.
    pub fn maskable_prefix(&self, bytes: &[u8]) -> usize {
        let Some(longest) = self.secrets.first().map(String::len) else {
            return bytes.len();
        };
        // A secret not yet whole starts in the last `longest - 1` bytes.
        let mut cut = bytes.len().saturating_sub(longest - 1);
        // Back to the start of a character (three bytes at most: invalid text stays cut).
        for _ in 0..3 {
            if cut == 0 || cut >= bytes.len() || bytes[cut] & 0xC0 != 0x80 {
                break;
            }
            cut -= 1;
        }
        // A whole secret that crosses the cut is let go whole, masked.
        loop {
            let crossing_end = self
                .secrets
                .iter()
                .filter_map(|secret| {
                    let secret = secret.as_bytes();
                    let first = cut.saturating_sub(secret.len() - 1);
                    (first..cut)
                        .filter(|&start| bytes[start..].starts_with(secret))
                        .map(|start| start + secret.len())
                        .max()
                })
                .max();
            match crossing_end {
                Some(end) if end > cut => cut = end,
                _ => return cut,
            }
        }
    }

    /// Masks every secret in the strings and keys of `value` (what a server sent, before it
    /// is written to a file). Keys of one object that become equal once masked are all kept,
    /// each under a name of its own (see [`unique_name`]); a JSON Schema's `required`
    /// follows the renamed `properties`.
    pub fn redact_json(&self, value: &mut Value) -> Masked {
        let mut masked = Masked::default();
        if !self.secrets.is_empty() {
            self.redact_value(value, &mut masked);
        }
        masked
    }

    /// Masks `value`; when it is an object, returns what its masked keys became (the key as
    /// sent, the key kept).
    fn redact_value(&self, value: &mut Value, masked: &mut Masked) -> Vec<(String, String)> {
        match value {
            Value::String(text) if self.holds(text) => {
                *text = self.redact(text);
                masked.strings += 1;
                Vec::new()
            }
            Value::Array(items) => {
                for item in items {
                    self.redact_value(item, masked);
                }
                Vec::new()
            }
            Value::Object(map) => self.redact_object(map, masked),
            _ => Vec::new(),
        }
    }

    /// Masks the keys and values of one object (see [`Redactor::redact_value`]).
    fn redact_object(
        &self,
        map: &mut Map<String, Value>,
        masked: &mut Masked,
    ) -> Vec<(String, String)> {
        let mut renames = Vec::new();
        if map.keys().any(|key| self.holds(key)) {
            let entries = std::mem::take(map);
            let mut taken: HashSet<String> = entries
                .keys()
                .filter(|key| !self.holds(key))
                .cloned()
                .collect();
            for (key, item) in entries {
                if !self.holds(&key) {
                    map.insert(key, item);
                    continue;
                }
                masked.strings += 1;
                let redacted = self.redact(&key);
                let kept = unique_name(&redacted, &taken);
                taken.insert(kept.clone());
                if kept != redacted {
                    masked.renamed.push((redacted, kept.clone()));
                }
                map.insert(kept.clone(), item);
                renames.push((key, kept));
            }
        }
        let mut properties = Vec::new();
        for (key, item) in map.iter_mut() {
            match key.as_str() {
                "required" => {}
                "properties" => properties = self.redact_value(item, masked),
                _ => {
                    self.redact_value(item, masked);
                }
            }
        }
        if let Some(required) = map.get_mut("required") {
            self.redact_required(required, &properties, masked);
        }
        renames
    }

    /// Masks a JSON Schema's `required`: a name of a masked property becomes the name the
    /// property was kept as.
    fn redact_required(
        &self,
        required: &mut Value,
        properties: &[(String, String)],
        masked: &mut Masked,
    ) {
        let Value::Array(names) = required else {
            self.redact_value(required, masked);
            return;
        };
        for name in names {
            let kept = name.as_str().and_then(|name| {
                properties
                    .iter()
                    .find(|(sent, _)| sent == name)
                    .map(|(_, kept)| kept.clone())
            });
            match kept {
                Some(kept) => {
                    *name = Value::String(kept);
                    masked.strings += 1;
                }
                None => {
                    self.redact_value(name, masked);
                }
            }
        }
    }
}

/// `name` itself when no other holds it, else the first of `name_2`, `name_3`, ... that is free.
pub fn unique_name(name: &str, taken: &HashSet<String>) -> String {
    if !taken.contains(name) {
        return name.to_string();
    }
    (2..)
        .map(|n| format!("{name}_{n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_are_masked_in_keys_and_strings_of_json() {
        let r = Redactor::new(["s3cret-value".to_string()]);
        let mut value = json!({
            "name": "fixture s3cret-value",
            "s3cret-value": [1, "x s3cret-value y"],
            "ok": "nothing here"
        });
        assert_eq!(r.redact_json(&mut value).strings, 3);
        assert_eq!(
            value,
            json!({"name": "fixture ***", "***": [1, "x *** y"], "ok": "nothing here"})
        );
    }

    #[test]
    fn keys_equal_once_masked_are_kept_apart_and_required_follows() {
        let r = Redactor::new(["s3cret-value".to_string()]);
        let mut schema = json!({
            "type": "object",
            "properties": {
                "key_s3cret-value": {"type": "string"},
                "key_***": {"type": "number"},
                "other_s3cret-value": {"type": "string"}
            },
            "required": ["key_s3cret-value", "key_***", "other_s3cret-value"]
        });
        let masked = r.redact_json(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "key_***_2": {"type": "string"},
                    "key_***": {"type": "number"},
                    "other_***": {"type": "string"}
                },
                "required": ["key_***_2", "key_***", "other_***"]
            })
        );
        assert_eq!(
            masked.renamed,
            [("key_***".to_string(), "key_***_2".to_string())]
        );
        assert_eq!(masked.strings, 4);
    }

    #[test]
    fn redactor_masks_secrets_overlapping_ones_too() {
        let r = Redactor::new(["s3cret-value".to_string(), "abc".to_string()]);
        assert_eq!(r.redact("token=s3cret-value abc"), "token=*** abc");
        let r = Redactor::new(["abcdXYZ".to_string(), "XYZ1234".to_string()]);
        assert_eq!(r.redact("<abcdXYZ1234>"), "<***>");
        let r = Redactor::new(["abab".to_string()]);
        assert_eq!(r.redact("ababab!"), "***!");
    }

    #[test]
    fn a_stream_cut_anywhere_is_masked_whole() {
        let secret = "sk-split-0123456789";
        let r = Redactor::new([secret.to_string(), "another-one".to_string()]);
        let stream = format!("é{secret}-and-{secret}{secret} tail é");
        // Masking each piece the cut lets go, whatever the size of the reads.
        for read in 1..stream.len() {
            let mut out = String::new();
            let mut pending: Vec<u8> = Vec::new();
            for chunk in stream.as_bytes().chunks(read) {
                pending.extend_from_slice(chunk);
                let cut = r.maskable_prefix(&pending);
                out.push_str(&r.redact(&String::from_utf8_lossy(&pending[..cut])));
                pending.drain(..cut);
            }
            out.push_str(&r.redact(&String::from_utf8_lossy(&pending)));
            assert_eq!(out, "é***-and-****** tail é", "reads of {read} bytes");
        }
        assert_eq!(Redactor::default().maskable_prefix(b"anything"), 8);
    }

    #[test]
    fn unique_names_count_up() {
        let taken: HashSet<String> = ["t".to_string(), "t_2".to_string()].into();
        assert_eq!(unique_name("u", &taken), "u");
        assert_eq!(unique_name("t", &taken), "t_3");
    }
}
