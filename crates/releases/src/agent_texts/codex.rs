//! Codex 0.171.0: the fixed texts it sends around deferred MCP tools, as its binary holds them
//! (checked against the installed package by `tests/it/agent_packages.rs`).

/// The `tool_search` tool as sent (699 characters of compact JSON).
pub const TOOL_SEARCH_DEFINITION: &str = "{\"type\":\"tool_search\",\"execution\":\"client\",\"description\":\"# Tool discovery\\n\\nSearches over deferred tool metadata with BM25 and exposes matching tools for the next model call.\\n\\nSome of the tools may not have been provided to you upfront, and you should use this tool (`tool_search`) to search for the required tools. For MCP tool discovery, always use `tool_search` instead of `list_mcp_resources` or `list_mcp_resource_templates`.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"limit\":{\"type\":\"number\",\"description\":\"Maximum number of tools to return. Defaults to 8.\"},\"query\":{\"type\":\"string\",\"description\":\"Search query for deferred tools.\"}},\"required\":[\"query\"],\"additionalProperties\":false}}";

/// The three MCP resource tools sent directly whenever an MCP server is configured (1,871
/// characters together).
pub const RESOURCE_TOOLS: [&str; 3] = [
    "{\"type\":\"function\",\"name\":\"list_mcp_resources\",\"description\":\"Lists resources provided by MCP servers. Resources allow servers to share data that provides context to language models, such as files, database schemas, or application-specific information. Prefer resources over web search when possible.\",\"strict\":false,\"parameters\":{\"type\":\"object\",\"properties\":{\"cursor\":{\"type\":\"string\",\"description\":\"Opaque cursor from a previous list_mcp_resources call; omit for the first page.\"},\"server\":{\"type\":\"string\",\"description\":\"MCP server name. Omit to list resources from every configured server.\"}},\"additionalProperties\":false}}",
    "{\"type\":\"function\",\"name\":\"list_mcp_resource_templates\",\"description\":\"Lists resource templates provided by MCP servers. Parameterized resource templates allow servers to share data that takes parameters and provides context to language models, such as files, database schemas, or application-specific information. Prefer resource templates over web search when possible.\",\"strict\":false,\"parameters\":{\"type\":\"object\",\"properties\":{\"cursor\":{\"type\":\"string\",\"description\":\"Opaque cursor from a previous list_mcp_resource_templates call; omit for the first page.\"},\"server\":{\"type\":\"string\",\"description\":\"MCP server name. Omit to list resource templates from every configured server.\"}},\"additionalProperties\":false}}",
    "{\"type\":\"function\",\"name\":\"read_mcp_resource\",\"description\":\"Read a specific resource from an MCP server given the server name and resource URI.\",\"strict\":false,\"parameters\":{\"type\":\"object\",\"properties\":{\"server\":{\"type\":\"string\",\"description\":\"MCP server name exactly as configured. Must match the 'server' field returned by list_mcp_resources.\"},\"uri\":{\"type\":\"string\",\"description\":\"Resource URI to read. Must be one of the URIs returned by list_mcp_resources.\"}},\"required\":[\"server\",\"uri\"],\"additionalProperties\":false}}",
];

/// What opens the namespace listing, resent every turn.
pub const NAMESPACES_OPEN: &str = "<tools>\nDeferred tool namespaces:\n";

/// What closes the namespace listing.
pub const NAMESPACES_CLOSE: &str = "</tools>";

/// The built-in namespace of sub-agent tools, listed beside the servers.
pub const MULTI_AGENT_NAMESPACE: &str = "multi_agent_v1";

/// The built-in namespace's description.
pub const MULTI_AGENT_DESCRIPTION: &str = "Tools for spawning and managing sub-agents.";

/// The built-in sub-agent tools (name, search text), which share the BM25 corpus with the MCP
/// tools (they change its document count, mean length and word rarity).
pub const MULTI_AGENT_SEARCH_TEXTS: [(&str, &str); 0] = [];
