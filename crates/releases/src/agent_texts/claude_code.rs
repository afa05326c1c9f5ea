//! Claude Code 2.1.328: the fixed texts it sends around deferred MCP tools, as its package
//! holds them (checked against the installed package by `tests/it/agent_packages.rs`).

/// The ToolSearch tool's definition as sent to the API, compact JSON (1,440 characters): the
/// default description (a `<system-reminder>` model, no fetch rule) and the input schema as the
/// package's zod writes it (`max_results`: description, default, type, in that order).
pub const TOOL_SEARCH_DEFINITION: &str = "{\"name\":\"ToolSearch\",\"description\":\"Fetches full schema definitions for deferred tools so they can be called.\\n\\nDeferred tools appear by name in <system-reminder> messages. Until fetched, only the name is known — there is no parameter schema, so the tool cannot be invoked. This tool takes a query, matches it against the deferred tool list, and returns the matched tools' complete JSONSchema definitions inside a <functions> block. Once a tool's schema appears in that result, it is callable exactly like any tool defined at the top of the prompt.\\n\\nResult format: each matched tool appears as one <function>{\\\"description\\\": \\\"...\\\", \\\"name\\\": \\\"...\\\", \\\"parameters\\\": {...}}</function> line inside the <functions> block — the same encoding as the tool list at the top of this prompt.\\n\\nQuery forms:\\n- \\\"select:Read,Edit,Grep\\\" — fetch these exact tools by name\\n- \\\"notebook jupyter\\\" — keyword search, up to max_results best matches\\n- \\\"+slack send\\\" — require \\\"slack\\\" in the name, rank by remaining terms\",\"input_schema\":{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\",\"properties\":{\"query\":{\"description\":\"Query to find deferred tools. Use \\\"select:<tool_name>\\\" for direct selection, or keywords to search.\",\"type\":\"string\"},\"max_results\":{\"description\":\"Maximum number of results to return (default: 5)\",\"default\":5,\"type\":\"number\"}},\"required\":[\"query\",\"max_results\"],\"additionalProperties\":false}}";

/// The line that opens the listing of deferred tools (248 characters).
pub const DEFERRED_HEADER: &str = "The following deferred tools are now available via ToolSearch. Their schemas are NOT loaded — calling them directly will fail with InputValidationError. Use ToolSearch with query \"select:<name>[,<name>...]\" to load tool schemas before calling them:";

/// What wraps the listing and the server instructions: a system reminder.
pub const REMINDER_OPEN: &str = "<system-reminder>\n";

/// What closes a system reminder.
pub const REMINDER_CLOSE: &str = "\n</system-reminder>";

/// What opens the block of server instructions, before the first `## <server>` section.
pub const INSTRUCTIONS_OPEN: &str = "<system-reminder>\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n";

/// What follows a server's instructions cut at the cap.
pub const INSTRUCTIONS_CUT_MARK: &str = "… [truncated]";
