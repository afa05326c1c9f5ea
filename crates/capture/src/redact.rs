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

    /// Where secrets occur in `bytes`, every occurrence (overlapping ones too), overlapping
    /// ranges merged, in order.
    fn ranges(&self, bytes: &[u8]) -> Vec<Range<usize>> {
        let mut found = Vec::new();
        for secret in &self.secrets {
            let secret = secret.as_bytes();
            let starts = bytes.len().saturating_sub(secret.len() - 1);
            found.extend(
                (0..starts)
                    .filter(|&at| bytes[at] == secret[0] && bytes[at..].starts_with(secret))
                    .map(|at| at..at + secret.len()),
            );
        }
        merge(found)
    }

    /// `text` with every secret replaced by `***` (secrets that overlap, by one `***`).
    pub fn redact(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut done = 0;
        // Secrets are whole characters: every range starts and ends between two.
        for range in self.ranges(text.as_bytes()) {
            out.push_str(&text[done..range.start]);
            out.push_str("***");
            done = range.end;
        }
        out.push_str(&text[done..]);
        out
    }

    /// How much of `bytes`, the start of a longer stream, can be let go now: all but its last
    /// bytes, where a secret may begin that what comes next completes, drawn back to the
    /// start of a character (three bytes at most: invalid text stays cut).
    fn safe_cut(&self, bytes: &[u8]) -> usize {
        let Some(longest) = self.secrets.first().map(String::len) else {
            return bytes.len();
        };
        let mut cut = bytes.len().saturating_sub(longest - 1);
        for _ in 0..3 {
            if cut == 0 || cut >= bytes.len() || bytes[cut] & 0xC0 != 0x80 {
                break;
            }
            cut -= 1;
        }
        cut
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

/// `ranges` in order, those that overlap merged into one.
fn merge(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.sort_by_key(|range| range.start);
    let mut merged: Vec<Range<usize>> = Vec::new();
    for range in ranges {
        match merged.last_mut() {
            Some(last) if range.start < last.end => last.end = last.end.max(range.end),
            _ => merged.push(range),
        }
    }
    merged
}

/// A stream masked as it arrives in pieces (a server's stderr): what it lets go of each piece
/// is masked as the whole stream would be, a secret split between two pieces included, and
/// it holds back no more than the longest secret.
#[derive(Debug, Clone, Default)]
pub struct StreamMasker {
    redactor: Redactor,
    /// Bytes held back: a secret may begin there that the next piece completes.
    held: Vec<u8>,
    /// How many of the first held bytes are the rest of a secret whose start was masked in
    /// what was let go.
    masked_head: usize,
}

impl StreamMasker {
    /// A stream masked with `redactor`.
    pub fn new(redactor: Redactor) -> StreamMasker {
        StreamMasker {
            redactor,
            ..StreamMasker::default()
        }
    }

    /// Takes the next bytes of the stream and returns what can be let go of them, masked: all
    /// when `ends` (a line or the stream ends there), else all but where a secret may begin.
    pub fn push(&mut self, bytes: &[u8], ends: bool) -> String {
        self.held.extend_from_slice(bytes);
        let cut = if ends {
            self.held.len()
        } else {
            self.redactor.safe_cut(&self.held)
        };
        if cut == 0 {
            return String::new();
        }
        let mut found = self.redactor.ranges(&self.held);
        let continued = self.masked_head > 0;
        if continued {
            found.push(0..self.masked_head);
        }
        let mut out = Vec::with_capacity(cut);
        let (mut done, mut head) = (0, 0);
        for range in merge(found)
            .into_iter()
            .take_while(|range| range.start < cut)
        {
            out.extend_from_slice(&self.held[done..range.start]);
            // A secret begun in what was let go was masked there.
            if !(continued && range.start == 0) {
                out.extend_from_slice(b"***");
            }
            done = range.end.min(cut);
            head = range.end.saturating_sub(cut);
        }
        out.extend_from_slice(&self.held[done..cut]);
        self.held.drain(..cut);
        self.masked_head = head;
        String::from_utf8_lossy(&out).into_owned()
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

    /// `stream` pushed `read` bytes at a time; and the most bytes held back at once.
    fn masked_in_pieces(r: &Redactor, stream: &[u8], read: usize) -> (String, usize) {
        let mut masker = StreamMasker::new(r.clone());
        let mut out = String::new();
        let mut held = 0;
        for chunk in stream.chunks(read) {
            out.push_str(&masker.push(chunk, false));
            held = held.max(masker.held.len());
        }
        out.push_str(&masker.push(b"", true));
        (out, held)
    }

    #[test]
    fn a_stream_cut_anywhere_is_masked_as_a_whole() {
        let secret = "sk-split-0123456789";
        let r = Redactor::new([secret.to_string(), "another-one".to_string()]);
        let streams = [
            format!("é{secret}-and-{secret}{secret} tail é"),
            // Secrets that overlap one another, and one that overlaps itself.
            "0123456789abcdefXYZ.".to_string(),
            format!("<{}>", "a".repeat(1000)),
        ];
        let r2 = Redactor::new([
            "abcdef".to_string(),
            "defXYZ".to_string(),
            "aaaa".to_string(),
        ]);
        for (r, stream) in [(&r, &streams[0]), (&r2, &streams[1]), (&r2, &streams[2])] {
            let whole = r.redact(stream);
            for read in 1..stream.len() {
                let (out, held) = masked_in_pieces(r, stream.as_bytes(), read);
                assert_eq!(out, whole, "reads of {read} bytes");
                // The longest secret less one, and a character drawn back at most.
                assert!(held <= 21, "reads of {read} bytes: held {held}");
            }
        }
        assert_eq!(r.redact(&streams[0]), "é***-and-****** tail é");
        assert_eq!(r2.redact(&streams[1]), "0123456789***.");
        assert_eq!(r2.redact(&streams[2]), "<***>");
        let mut plain = StreamMasker::new(Redactor::default());
        assert_eq!(plain.push(b"anything", false), "anything");
    }

    #[test]
    fn unique_names_count_up() {
        let taken: HashSet<String> = ["t".to_string(), "t_2".to_string()].into();
        assert_eq!(unique_name("u", &taken), "u");
        assert_eq!(unique_name("t", &taken), "t_3");
    }
}
