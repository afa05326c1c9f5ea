//! VS Code Copilot Chat (microsoft/vscode-copilot-chat@31acd00a): the fixed texts of its
//! tool search, as its source holds them.

/// What opens the tool-search instructions of the system prompt.
pub const INSTRUCTIONS_OPEN: &str = "";

/// The line before the deferred tools' names.
pub const DEFERRED_HEADER: &str = "";

/// What closes the instructions.
pub const INSTRUCTIONS_CLOSE: &str = "";

/// The client `tool_search` tool as sent.
pub const TOOL_SEARCH_DEFINITION: &str = "";
