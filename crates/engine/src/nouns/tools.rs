//! A server's tools as captured: what Hermes reads of a `tools/list` answer, and what was
//! skipped or cut on the way in.

use std::path::PathBuf;
use std::sync::Arc;

use super::object_text::ObjectText;
use crate::text::human_bytes;

/// Longest server or tool name accepted: no real MCP name comes near it.
pub const MAX_NAME_BYTES: usize = 1024;

/// Longest string (a description, a schema string or key) analysed in full. A longer one is
/// cut to this for search, lint and the tokenizers; its whole size still counts.
pub const MAX_ANALYSED_STRING_BYTES: usize = 1024 * 1024;

/// One MCP tool as the server listed it: the parts Hermes sends to the model, and the few
/// other fields some agents read (the title, and hints in `_meta`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct McpTool {
    /// The raw MCP tool name.
    pub name: String,
    /// The description, when the server gave a string: shared with the definitions built
    /// from it, so a description is held once.
    pub description: Option<Arc<str>>,
    /// The `inputSchema` object, when present, as compact text: shared with the definitions
    /// built from it, so a schema the profile's passes leave alone is held once.
    pub input_schema: Option<ObjectText>,
    /// Characters (as measured in the definition) cut from strings over
    /// [`MAX_ANALYSED_STRING_BYTES`] at load: counted in the tool's size, not analysed.
    pub truncated_chars: u64,
    /// The tool's `title`, when the server gave a string (Codex searches it).
    pub title: Option<String>,
    /// What agents read of the tool's `_meta`.
    pub meta: ToolMeta,
}

/// The keys of a tool's `_meta` that an agent reads; the rest of `_meta` is not kept.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolMeta {
    /// `_meta["anthropic/alwaysLoad"]`: Claude Code never defers a tool set `true`, and
    /// defers one set `false` even under a server-wide `alwaysLoad`.
    pub always_load: Option<bool>,
    /// `_meta["anthropic/searchHint"]`: words Claude Code's ranking weighs beside the name.
    pub search_hint: Option<String>,
    /// True when `_meta.ui.visibility` is a list without `"model"`: the tool is for the
    /// user's interface only, and Claude Code leaves it out of the model's pool.
    pub hidden_from_model: bool,
}

/// The tools of one server, read from one capture file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ServerCapture {
    /// The server key (the file's `server` field, else its stem).
    pub server: String,
    /// Tools in the order the server listed them.
    pub tools: Vec<McpTool>,
    /// The file they came from.
    pub source: PathBuf,
    /// `serverInfo.name@version`, when the capture recorded it.
    pub server_info: Option<String>,
    /// `protocolVersion`, when recorded.
    pub protocol_version: Option<String>,
    /// `capturedAt` (RFC 3339, as `schematax capture` writes it), when recorded.
    pub captured_at: Option<String>,
    /// The server's `instructions` from its `initialize` answer, when recorded: several
    /// agents send them to the model every turn.
    pub instructions: Option<String>,
    /// Entries of the file that were not usable tools, or not wholly analysed.
    pub skipped: Vec<EntryNote>,
    /// The first entry Hermes's MCP client library would refuse (not an object, no string
    /// name, a description that is not a string, an `inputSchema` that is not an object): it
    /// refuses the whole `tools/list`, so Hermes would not connect the server: its position
    /// (1-based) and why.
    pub client_refusal: Option<(usize, SkipReason)>,
}

/// What happened to one entry of a tools array that is not used whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryNote {
    /// Not a usable tool: skipped.
    #[error("tool #{position} skipped: {reason}")]
    Skipped {
        /// Its position in the array (1-based).
        position: usize,
        /// Why.
        reason: SkipReason,
    },
    /// A text over the analysis limit, cut for search, lint and the tokenizers.
    #[error("tool {tool:?}: text over {} cut for analysis ({cut} characters not searched, linted or tokenised; its size still counts in full)", human_bytes(MAX_ANALYSED_STRING_BYTES as u64))]
    Cut {
        /// The tool.
        tool: String,
        /// Characters cut.
        cut: u64,
    },
}

/// Why one entry of a tools array is not a usable tool (it is skipped), one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkipReason {
    /// Not a JSON object.
    #[error("not an object")]
    NotObject,
    /// A name longer than [`MAX_NAME_BYTES`] (its length in bytes).
    #[error("name is {} long, over the {} any MCP tool name fits in", human_bytes(*.0 as u64), human_bytes(MAX_NAME_BYTES as u64))]
    NameTooLong(usize),
    /// `name` is the empty string.
    #[error("empty name")]
    EmptyName,
    /// `name` is not a string.
    #[error("name is not a string")]
    NameNotString,
    /// No `name`.
    #[error("no name")]
    NoName,
    /// The named tool's `description` is not a string.
    #[error("{0}: description is not a string")]
    DescriptionNotString(String),
    /// The named tool's `inputSchema` is not an object.
    #[error("{0}: inputSchema is not an object")]
    SchemaNotObject(String),
}

impl SkipReason {
    /// Whether the MCP client library Hermes pins refuses a `tools/list` holding this entry
    /// (the others are this analyzer's own limits).
    pub fn refused_by_client(&self) -> bool {
        !matches!(self, SkipReason::NameTooLong(_) | SkipReason::EmptyName)
    }
}
