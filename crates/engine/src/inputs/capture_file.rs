//! Captured tool lists, in every shape users have, -> [`ServerCapture`].
//!
//! Accepted shapes (DESIGN.md): our capture file `{"server", "serverInfo", "protocolVersion",
//! "tools"}`; a `tools/list` result `{"tools", "nextCursor"?}`; a whole JSON-RPC response
//! `{"jsonrpc", "id", "result"}`; several pages of those, one per line; a bare array of MCP tools;
//! OpenAI function definitions; Anthropic tool definitions. The server name is the file's
//! `server` field, else the file stem.

use rayon::prelude::*;
use serde_json::Value;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::inputs::capture_document::{
    cut_string, Document, DocumentObject, RawTool, SchemaField, Shaped,
};
use crate::inputs::error::{read_limited, InputError};
use crate::nouns::tools::{
    EntryNote, McpTool, ServerCapture, SkipReason, ToolMeta, MAX_NAME_BYTES,
};
use crate::text::human_bytes;

/// Largest capture file read (the same bound `schematax capture` puts on a response).
pub const MAX_CAPTURE_BYTES: u64 = 64 * 1024 * 1024;

/// What loading a set of paths gave: the captures and what was skipped on the way.
#[derive(Debug, Clone, Default)]
pub struct LoadedCaptures {
    /// Usable captures, in path order (files of a directory sorted by name).
    pub captures: Vec<ServerCapture>,
    /// Files or entries skipped, each naming the file.
    pub warnings: Vec<LoadWarning>,
}

/// What loading the captures skipped or noticed, naming the file (a reason, as an error is).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadWarning {
    /// A folder with no capture files.
    #[error("{}: no capture files (*.json, *.jsonl) in this folder", .folder.display())]
    NoCaptureFiles {
        /// The folder.
        folder: PathBuf,
    },
    /// A config given without `--tools` and no `tools/` folder beside it.
    #[error("no --tools given and no {} folder: no captures loaded", .folder.display())]
    NoToolsFolder {
        /// The folder looked for.
        folder: PathBuf,
    },
    /// A capture file of a folder that could not be used.
    #[error("skipped {0}")]
    SkippedFile(InputError),
    /// An entry of a capture file.
    #[error("{}: {note}", .file.display())]
    Entry {
        /// The capture file.
        file: PathBuf,
        /// What happened to the entry.
        note: EntryNote,
    },
    /// A second capture of a server already loaded.
    #[error("skipped {}: server {server:?} was already loaded from {}", .file.display(), .first.display())]
    DuplicateServer {
        /// The capture skipped.
        file: PathBuf,
        /// The server.
        server: String,
        /// The capture kept.
        first: PathBuf,
    },
}

/// Which document of a file of several (JSON lines): nothing for the first, ` (document N)`
/// after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentAt(usize);

impl std::fmt::Display for DocumentAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            0 => Ok(()),
            index => write!(f, " (document {})", index + 1),
        }
    }
}

/// Why a capture file cannot be used, one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaptureFileError {
    /// The bytes are not UTF-8.
    #[error("not valid UTF-8 (at byte {0})")]
    NotUtf8(usize),
    /// A document is not JSON.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// A JSON-RPC error response instead of a result.
    #[error("JSON-RPC error response{at}: {message}")]
    ErrorResponse {
        /// The document.
        at: DocumentAt,
        /// The error's message.
        message: String,
    },
    /// `result` is there but not an object.
    #[error("\"result\" is not an object{0}")]
    ResultNotObject(DocumentAt),
    /// `tools` is there but not an array.
    #[error("\"tools\" is not an array{0}")]
    ToolsNotArray(DocumentAt),
    /// An object without `tools`.
    #[error("no tools array{0}")]
    NoTools(DocumentAt),
    /// Neither an array nor an object.
    #[error("expected a tools array or object{0}")]
    NotTools(DocumentAt),
    /// No document at all.
    #[error("empty file, expected a tools array")]
    Empty,
    /// A server name longer than [`MAX_NAME_BYTES`] (its length in bytes).
    #[error("the server name is {} long, over the {} any MCP server name fits in", human_bytes(*.0 as u64), human_bytes(MAX_NAME_BYTES as u64))]
    ServerNameTooLong(usize),
}

/// Loads `--tools` paths: a file must be readable (else an error); in a directory every
/// `*.json` / `*.jsonl` file is tried and the bad ones are skipped with a warning.
pub fn load_paths(paths: &[PathBuf]) -> Result<LoadedCaptures, InputError> {
    let mut loaded = LoadedCaptures::default();
    // Server name -> its capture in `loaded`: the first file of a server wins.
    let mut servers: HashMap<String, usize> = HashMap::new();
    for path in paths {
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| InputError::new(path, e.to_string()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| {
                    // Not `is_file`: a pipe or device named like a capture is reported, not
                    // passed over in silence.
                    !p.is_dir()
                        && matches!(
                            p.extension().and_then(|e| e.to_str()),
                            Some("json" | "jsonl")
                        )
                })
                .collect();
            files.sort();
            if files.is_empty() {
                loaded.warnings.push(LoadWarning::NoCaptureFiles {
                    folder: path.clone(),
                });
            }
            // Read and parsed on every core; added in file-name order.
            let results: Vec<Result<ServerCapture, InputError>> =
                files.par_iter().map(|file| load_file(file)).collect();
            for result in results {
                match result {
                    Ok(capture) => add_capture(&mut loaded, &mut servers, capture),
                    Err(error) => loaded.warnings.push(LoadWarning::SkippedFile(error)),
                }
            }
        } else {
            add_capture(&mut loaded, &mut servers, load_file(path)?);
        }
    }
    Ok(loaded)
}

/// Adds `capture` to `loaded`, or skips it with a warning when its server is already there.
fn add_capture(
    loaded: &mut LoadedCaptures,
    servers: &mut HashMap<String, usize>,
    capture: ServerCapture,
) {
    loaded
        .warnings
        .extend(capture.skipped.iter().map(|note| LoadWarning::Entry {
            file: capture.source.clone(),
            note: note.clone(),
        }));
    match servers.entry(capture.server.clone()) {
        Entry::Occupied(first) => loaded.warnings.push(LoadWarning::DuplicateServer {
            file: capture.source.clone(),
            server: capture.server.clone(),
            first: loaded.captures[*first.get()].source.clone(),
        }),
        Entry::Vacant(slot) => {
            slot.insert(loaded.captures.len());
            loaded.captures.push(capture);
        }
    }
}

/// Reads one capture file.
pub fn load_file(path: &Path) -> Result<ServerCapture, InputError> {
    let bytes = read_limited(path, MAX_CAPTURE_BYTES)?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("server");
    let mut capture =
        parse_capture(&bytes, stem).map_err(|reason| InputError::new(path, reason.to_string()))?;
    capture.source = path.to_path_buf();
    Ok(capture)
}

/// Parses capture bytes; `default_server` names the server when the file does not.
pub fn parse_capture(
    bytes: &[u8],
    default_server: &str,
) -> Result<ServerCapture, CaptureFileError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => return Err(CaptureFileError::NotUtf8(e.valid_up_to())),
    };
    let as_parsed = read_documents::<Document>(text).map(|read| match read {
        Ok(document) if document.has_key_twice() => Err(Stop::KeyTwice),
        Ok(document) => Ok(document),
        Err(error) => Err(Stop::Failed(error)),
    });
    match capture_of(as_parsed, default_server) {
        Ok(capture) => Ok(capture),
        Err(Stop::Failed(error)) => Err(error),
        Err(Stop::KeyTwice) => capture_of(
            read_documents::<Value>(text).map(|read| read.map(Document::from_value)),
            default_server,
        ),
    }
}

/// Why reading a capture's documents as they are parsed stopped.
enum Stop {
    /// The file cannot be used.
    Failed(CaptureFileError),
    /// A schema writes a key twice: the file is read again as trees.
    KeyTwice,
}

impl From<CaptureFileError> for Stop {
    fn from(error: CaptureFileError) -> Stop {
        Stop::Failed(error)
    }
}

/// The documents of a capture's text (valid UTF-8, so its strings need not be checked again as
/// they are read), each read as a `T` as it is parsed.
fn read_documents<'a, T: serde::Deserialize<'a> + 'a>(
    text: &'a str,
) -> impl Iterator<Item = Result<T, CaptureFileError>> + 'a {
    serde_json::Deserializer::from_str(text)
        .into_iter::<T>()
        .map(|read| read.map_err(|e| CaptureFileError::InvalidJson(e.to_string())))
}

/// The capture the documents of a file make, each checked as it comes (a document that
/// cannot be used ends the reading before the next is parsed).
fn capture_of<E: From<CaptureFileError>>(
    documents: impl Iterator<Item = Result<Document, E>>,
    default_server: &str,
) -> Result<ServerCapture, E> {
    let mut capture = ServerCapture {
        server: default_server.to_string(),
        ..ServerCapture::default()
    };
    let mut raw_tools: Vec<RawTool> = Vec::new();
    let mut read = 0;
    for (index, document) in documents.enumerate() {
        let document = document?;
        read += 1;
        let at = DocumentAt(index);
        let object = match document {
            Document::Tools(tools) => {
                raw_tools.extend(tools);
                continue;
            }
            Document::Object(object) => object,
            Document::Other => return Err(CaptureFileError::NotTools(at).into()),
        };
        if index == 0 {
            read_metadata(&object, &mut capture);
        }
        if let Some(error) = object.fields.get("error") {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("no message");
            return Err(CaptureFileError::ErrorResponse {
                at,
                message: message.to_string(),
            }
            .into());
        }
        let tools = match object.result {
            Some(Shaped::Expected(result)) => result.tools,
            Some(Shaped::Other) => return Err(CaptureFileError::ResultNotObject(at).into()),
            None => object.tools,
        };
        match tools {
            Some(Shaped::Expected(tools)) => raw_tools.extend(tools),
            Some(Shaped::Other) => return Err(CaptureFileError::ToolsNotArray(at).into()),
            None => return Err(CaptureFileError::NoTools(at).into()),
        }
    }
    if read == 0 {
        return Err(CaptureFileError::Empty.into());
    }
    if capture.server.len() > MAX_NAME_BYTES {
        return Err(CaptureFileError::ServerNameTooLong(capture.server.len()).into());
    }
    for (index, raw) in raw_tools.into_iter().enumerate() {
        match normalize_tool(raw) {
            Ok(tool) => {
                let cut = tool.truncated_chars;
                if cut > 0 {
                    capture.skipped.push(EntryNote::Cut {
                        tool: tool.name.clone(),
                        cut,
                    });
                }
                capture.tools.push(tool);
            }
            Err(reason) => {
                if reason.refused_by_client() && capture.client_refusal.is_none() {
                    capture.client_refusal = Some((index + 1, reason.clone()));
                }
                capture.skipped.push(EntryNote::Skipped {
                    position: index + 1,
                    reason,
                });
            }
        }
    }
    Ok(capture)
}

/// What the first document tells of the capture: its server, the server's name and version,
/// the protocol version, when it was captured and the server's instructions.
fn read_metadata(object: &DocumentObject, capture: &mut ServerCapture) {
    let fields = &object.fields;
    if let Some(Value::String(server)) = fields.get("server") {
        if !server.trim().is_empty() {
            capture.server = server.clone();
        }
    }
    if let Some(Value::Object(info)) = fields.get("serverInfo") {
        let name = info.get("name").and_then(Value::as_str).unwrap_or("?");
        capture.server_info = Some(match info.get("version").and_then(Value::as_str) {
            Some(version) => format!("{name}@{version}"),
            None => name.to_string(),
        });
    }
    if let Some(Value::String(version)) = fields.get("protocolVersion") {
        capture.protocol_version = Some(version.clone());
    }
    if let Some(Value::String(at)) = fields.get("capturedAt") {
        capture.captured_at = Some(at.clone());
    }
    let instructions = fields.get("instructions").or(match &object.result {
        Some(Shaped::Expected(result)) => result.instructions.as_ref(),
        _ => None,
    });
    if let Some(Value::String(text)) = instructions {
        let mut text = text.clone();
        cut_string(&mut text);
        capture.instructions = Some(text);
    }
}

/// What agents read of a tool's `_meta` (anything else in it is dropped).
fn read_tool_meta(meta: Option<Value>) -> ToolMeta {
    let Some(Value::Object(meta)) = meta else {
        return ToolMeta::default();
    };
    let mut search_hint = meta
        .get("anthropic/searchHint")
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(hint) = search_hint.as_mut() {
        cut_string(hint);
    }
    let visibility = meta
        .get("ui")
        .and_then(|ui| ui.get("visibility"))
        .and_then(Value::as_array);
    ToolMeta {
        always_load: meta.get("anthropic/alwaysLoad").and_then(Value::as_bool),
        search_hint,
        hidden_from_model: visibility
            .is_some_and(|list| !list.iter().any(|v| v.as_str() == Some("model"))),
    }
}

/// One entry of a tools array -> [`McpTool`]: MCP (`inputSchema`), OpenAI (`function`) or
/// Anthropic (`input_schema`). Strings over [`MAX_ANALYSED_STRING_BYTES`] in the description and
/// schema (keys included) are cut, and the characters cut recorded.
fn normalize_tool(raw: RawTool) -> Result<McpTool, SkipReason> {
    let RawTool::Object(mut fields) = raw else {
        return Err(SkipReason::NotObject);
    };
    if let Some(function) = fields.function.take() {
        fields = function;
    }
    let name = match fields.name.take() {
        Some(Value::String(name)) if name.len() > MAX_NAME_BYTES => {
            return Err(SkipReason::NameTooLong(name.len()))
        }
        Some(Value::String(name)) if !name.is_empty() => name,
        Some(Value::String(_)) => return Err(SkipReason::EmptyName),
        Some(_) => return Err(SkipReason::NameNotString),
        None => return Err(SkipReason::NoName),
    };
    let mut truncated_chars = 0;
    let description = match fields.description.take() {
        Some(Value::String(mut text)) => {
            truncated_chars += cut_string(&mut text);
            Some(text.into())
        }
        None | Some(Value::Null) => None,
        Some(_) => return Err(SkipReason::DescriptionNotString(name)),
    };
    let input_schema = match fields.schema() {
        None | Some(SchemaField::Null) => None,
        Some(SchemaField::Object(text, cut)) => {
            truncated_chars += cut;
            Some(text.clone())
        }
        Some(SchemaField::Other) => return Err(SkipReason::SchemaNotObject(name)),
    };
    let title = match fields.title.take() {
        Some(Value::String(mut text)) => {
            cut_string(&mut text);
            Some(text)
        }
        _ => None,
    };
    Ok(McpTool {
        name,
        description,
        input_schema,
        truncated_chars,
        title,
        meta: read_tool_meta(fields.meta.take()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(capture: &ServerCapture) -> Vec<&str> {
        capture.tools.iter().map(|t| t.name.as_str()).collect()
    }

    #[test]
    fn capture_file_shape() {
        let c = parse_capture(
            br#"{"server":"gh","serverInfo":{"name":"g","version":"1"},"protocolVersion":"2025-06-18","capturedAt":"2026-12-02T19:17:51Z","tools":[{"name":"a","description":"d","inputSchema":{"type":"object"}}]}"#,
            "stem",
        )
        .unwrap();
        assert_eq!(c.server, "gh");
        assert_eq!(c.server_info.as_deref(), Some("g@1"));
        assert_eq!(c.captured_at.as_deref(), Some("2026-12-02T19:17:51Z"));
        assert_eq!(names(&c), ["a"]);
        assert_eq!(c.tools[0].description.as_deref(), Some("d"));
    }

    #[test]
    fn instructions_title_and_the_meta_agents_read_are_kept() {
        let c = parse_capture(
            br#"{"server":"gh","instructions":"Use the repo tools.","tools":[{"name":"a","title":"A tool","_meta":{"anthropic/alwaysLoad":true,"anthropic/searchHint":"git hub","ui":{"visibility":["app"]},"other":1}},{"name":"b","_meta":{"ui":{"visibility":["model","app"]}}},{"name":"c"}]}"#,
            "x",
        )
        .unwrap();
        assert_eq!(c.instructions.as_deref(), Some("Use the repo tools."));
        let a = &c.tools[0];
        assert_eq!(a.title.as_deref(), Some("A tool"));
        assert_eq!(a.meta.always_load, Some(true));
        assert_eq!(a.meta.search_hint.as_deref(), Some("git hub"));
        assert!(a.meta.hidden_from_model);
        assert!(!c.tools[1].meta.hidden_from_model);
        assert_eq!(c.tools[2].meta, ToolMeta::default());
        let old = parse_capture(br#"{"tools":[{"name":"a"}]}"#, "x").unwrap();
        assert_eq!(old.instructions, None);
        assert_eq!(old.tools[0].title, None);
    }

    #[test]
    fn json_rpc_pages_as_json_lines() {
        let c = parse_capture(
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"a\"}],\"nextCursor\":\"x\"}}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"b\"}]}}\n",
            "pages",
        )
        .unwrap();
        assert_eq!(c.server, "pages");
        assert_eq!(names(&c), ["a", "b"]);
    }

    #[test]
    fn openai_and_anthropic_arrays() {
        let c = parse_capture(
            br#"[{"type":"function","function":{"name":"o","description":"x","parameters":{"type":"object","properties":{"q":{}}}}},{"name":"a","input_schema":{"type":"object"}}]"#,
            "mixed",
        )
        .unwrap();
        assert_eq!(names(&c), ["o", "a"]);
        assert!(c.tools[0]
            .input_schema
            .as_ref()
            .unwrap()
            .parse()
            .contains_key("properties"));
        assert!(c.tools[1].input_schema.is_some());
    }

    #[test]
    fn unusable_tools_are_skipped_and_reported() {
        let c = parse_capture(
            br#"{"tools":[{"description":"x"},{"name":5},"s",{"name":"ok"}]}"#,
            "s",
        )
        .unwrap();
        assert_eq!(names(&c), ["ok"]);
        assert_eq!(c.skipped.len(), 3);
        assert_eq!(
            c.skipped[0],
            EntryNote::Skipped {
                position: 1,
                reason: SkipReason::NoName
            }
        );
    }

    #[test]
    fn bad_documents_are_errors() {
        let error = |bytes: &[u8]| parse_capture(bytes, "s").unwrap_err();
        assert_eq!(
            error(b"{\"server\":\"x\"}"),
            CaptureFileError::NoTools(DocumentAt(0))
        );
        assert_eq!(
            error(b"{\"tools\":[]}\n{\"tools\":3}").to_string(),
            "\"tools\" is not an array (document 2)"
        );
        assert!(matches!(
            error(b"{\"tools\":["),
            CaptureFileError::InvalidJson(_)
        ));
        assert_eq!(error(b""), CaptureFileError::Empty);
        assert_eq!(error(b"\xff\xfe"), CaptureFileError::NotUtf8(0));
        assert_eq!(
            error(br#"{"error":{"message":"boom"}}"#).to_string(),
            "JSON-RPC error response: boom"
        );
        let deep = "[".repeat(100_000);
        assert!(error(deep.as_bytes())
            .to_string()
            .contains("recursion limit"));
    }

    /// The capture of `bytes` read as trees of values, the way a file whose schema writes a
    /// key twice is read.
    fn parse_as_trees(
        bytes: &[u8],
        default_server: &str,
    ) -> Result<ServerCapture, CaptureFileError> {
        let text = std::str::from_utf8(bytes).unwrap();
        capture_of(
            read_documents::<Value>(text).map(|read| read.map(Document::from_value)),
            default_server,
        )
    }

    #[test]
    fn the_real_captures_read_as_they_are_parsed_and_as_trees_alike() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/captures");
        let mut files: Vec<Vec<u8>> = crate::inputs::SAMPLE_TOOLS
            .iter()
            .map(|(_, text)| text.as_bytes().to_vec())
            .collect();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(std::fs::read(&path).unwrap());
            }
        }
        assert!(files.len() > 20, "{} captures", files.len());
        for bytes in &files {
            let streamed = parse_capture(bytes, "s").unwrap();
            assert!(!streamed.tools.is_empty());
            assert_eq!(streamed, parse_as_trees(bytes, "s").unwrap());
        }
    }

    /// A random JSON value of `depth` levels at most, of the kinds a schema holds: keys that
    /// repeat, escapes, non-ASCII, numbers of every form.
    fn random_value(rng: &mut crate::test_rng::Lcg, depth: usize) -> String {
        const KEYS: [&str; 8] = [
            "type",
            "properties",
            "a",
            "b\"q",
            "é",
            "required",
            "anyOf",
            "\u{1}x",
        ];
        const NUMBERS: [&str; 12] = [
            "0",
            "-0",
            "7",
            "-12",
            "1.5",
            "-0.0",
            "1e16",
            "2.5E-7",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
            "123456789012345678901234567890",
        ];
        const STRINGS: [&str; 6] = [
            r#""""#,
            r#""plain""#,
            r#""tab\there""#,
            r#""\u00e9\ud83c\udf75""#,
            r#""q\"\\/""#,
            r#""東""#,
        ];
        match rng.below(if depth == 0 { 5 } else { 8 }) {
            0 => "null".to_string(),
            1 => ["true", "false"][rng.below(2)].to_string(),
            2 => NUMBERS[rng.below(NUMBERS.len())].to_string(),
            3 | 4 => STRINGS[rng.below(STRINGS.len())].to_string(),
            5 => {
                let items: Vec<String> = (0..rng.below(4))
                    .map(|_| random_value(rng, depth - 1))
                    .collect();
                format!("[ {} ]", items.join(" , "))
            }
            _ => {
                let entries: Vec<String> = (0..rng.below(5))
                    .map(|_| {
                        let key = KEYS[rng.below(KEYS.len())];
                        let key = serde_json::to_string(key).unwrap();
                        format!("{key} :\n{}", random_value(rng, depth - 1))
                    })
                    .collect();
                format!("{{{}}}", entries.join(","))
            }
        }
    }

    #[test]
    fn random_documents_read_as_they_are_parsed_and_as_trees_alike() {
        let mut rng = crate::test_rng::Lcg(29);
        let (mut twice, mut compared) = (0, 0);
        for _ in 0..3_000 {
            let tools: Vec<String> = (0..1 + rng.below(4))
                .map(|i| {
                    let schema = random_value(&mut rng, 4);
                    let key = ["inputSchema", "input_schema", "parameters"][rng.below(3)];
                    let tool = format!(
                        r#"{{"name":"t{i}","description":{},"{key}":{schema},"annotations":{}}}"#,
                        random_value(&mut rng, 1),
                        random_value(&mut rng, 3)
                    );
                    match rng.below(5) {
                        0 => format!(r#"{{"type":"function","function":{tool}}}"#),
                        1 => format!(
                            r#"{{"function":3,"name":"f{i}","inputSchema":{}}}"#,
                            random_value(&mut rng, 3)
                        ),
                        _ => tool,
                    }
                })
                .collect();
            let tools = tools.join(",");
            let text = match rng.below(4) {
                0 => format!("[{tools}]"),
                1 => format!(
                    r#"{{"jsonrpc":"2.0","result":{{"instructions":"i","tools":[{tools}]}},"tools":3}}"#
                ),
                2 => format!("{{\"tools\":[{tools}]}}\n{{\"result\":{{\"tools\":[{tools}]}}}}"),
                _ => format!(
                    r#"{{"server":"x","tools":[{tools}],"server":"y","error":{}}}"#,
                    ["null", "{}"][rng.below(2)]
                ),
            };
            let streamed = parse_capture(text.as_bytes(), "s");
            assert_eq!(streamed, parse_as_trees(text.as_bytes(), "s"), "{text}");
            twice += usize::from(
                read_documents::<Document>(&text).any(|read| read.unwrap().has_key_twice()),
            );
            compared += 1;
        }
        assert!(
            twice > 100 && twice < compared - 1_000,
            "{twice} of {compared} read again"
        );
    }

    #[test]
    fn a_document_that_cannot_be_used_is_reported_before_the_next_is_parsed() {
        let error = |text: &str| parse_capture(text.as_bytes(), "s").unwrap_err().to_string();
        // A JSON-lines capture cut off while it was written, after an error response.
        assert_eq!(
            error("{\"error\":{\"message\":\"boom\"}}\n{\"jsonrpc\":"),
            "JSON-RPC error response: boom"
        );
        assert_eq!(error("{\"server\":\"x\"}\n["), "no tools array");
        assert_eq!(error("3\n{"), "expected a tools array or object");
        // A key written twice in a later schema: the file is read again, and the first
        // document's problem still comes first.
        let twice = r#"{"tools":[{"name":"a","inputSchema":{"x":1,"x":2}}]}"#;
        assert_eq!(
            error(&format!("{{\"tools\":3}}\n{twice}")),
            "\"tools\" is not an array"
        );
        assert_eq!(
            error(&format!("{twice}\n{{\"result\":[]}}")),
            "\"result\" is not an object (document 2)"
        );
    }

    #[test]
    fn a_schema_writing_a_key_twice_keeps_its_first_place_and_last_value() {
        let c = parse_capture(
            br#"[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"},"y":{},"x":{"type":"integer"}}}}]"#,
            "s",
        )
        .unwrap();
        assert_eq!(
            c.tools[0].input_schema.as_ref().unwrap().as_str(),
            r#"{"type":"object","properties":{"x":{"type":"integer"},"y":{}}}"#
        );
    }

    #[test]
    fn long_strings_are_cut_the_same_either_way() {
        let long = "é".repeat(crate::nouns::tools::MAX_ANALYSED_STRING_BYTES / 2 + 10);
        let text = format!(
            r#"[{{"name":"a","description":"{long}","inputSchema":{{"type":"object","{long}x":1,"{long}y":2,"d":"{long}","n":["{long}"]}}}},{{"name":"b","inputSchema":{{"{long}":1,"{long}z":{{"k":"{long}"}}}}}}]"#
        );
        let streamed = parse_capture(text.as_bytes(), "s").unwrap();
        assert_eq!(streamed, parse_as_trees(text.as_bytes(), "s").unwrap());
        // Two keys that are one once cut: the file was read as trees.
        assert!(streamed.tools[0].truncated_chars > 0);
        assert_eq!(
            streamed.tools[1]
                .input_schema
                .as_ref()
                .unwrap()
                .parse()
                .len(),
            1
        );
    }

    #[test]
    fn nesting_past_the_limit_is_an_error_in_a_field_the_loader_does_not_read() {
        let deep = format!(
            r#"[{{"name":"a","annotations":{}1{}}}]"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let error = parse_capture(deep.as_bytes(), "s").unwrap_err();
        assert_eq!(error, parse_as_trees(deep.as_bytes(), "s").unwrap_err());
        assert!(error.to_string().contains("recursion limit"), "{error}");
    }

    #[test]
    fn a_server_captured_twice_is_loaded_from_its_first_file() {
        let dir = tempfile::tempdir().unwrap();
        let write = |file: &str, server: &str| {
            let text = format!(r#"{{"server":"{server}","tools":[{{"name":"t"}}]}}"#);
            std::fs::write(dir.path().join(file), text).unwrap();
        };
        write("a.json", "github");
        write("b.json", "slack");
        write("c.json", "github");
        let elsewhere = tempfile::tempdir().unwrap();
        let extra = elsewhere.path().join("d.json");
        std::fs::write(&extra, r#"{"server":"slack","tools":[]}"#).unwrap();
        let loaded = load_paths(&[dir.path().to_path_buf(), extra.clone()]).unwrap();
        let servers: Vec<_> = loaded.captures.iter().map(|c| c.server.as_str()).collect();
        assert_eq!(servers, ["github", "slack"]);
        assert_eq!(loaded.captures[0].source, dir.path().join("a.json"));
        let skipped: Vec<_> = loaded
            .warnings
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        let first = |file: &str| dir.path().join(file).display().to_string();
        assert_eq!(
            skipped,
            [
                format!(
                    "skipped {}: server \"github\" was already loaded from {}",
                    first("c.json"),
                    first("a.json")
                ),
                format!(
                    "skipped {}: server \"slack\" was already loaded from {}",
                    extra.display(),
                    first("b.json")
                ),
            ]
        );
    }
}
