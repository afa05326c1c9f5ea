//! Codex 0.171.0: the fixed texts it sends around deferred MCP tools, as its binary holds them
//! (every literal piece is checked against the npm-packed binary by
//! `tests/it/agent_packages_codex.rs`; lengths by the unit tests below).
//!
//! # The namespace listing (`<tools>` fragment), as 0.171.0 builds it
//!
//! Checked by running the 0.171.0 binary (`codex exec`, model `gpt-5.5`) against a loopback
//! mock of the Responses API: for seven sets of 4 to 75 MCP servers (multibyte and 4-byte
//! characters, `\r\n`, tabs, first lines over 250 characters, names that overflow the
//! budget) the fragment it sent equals, byte for byte, the rule below
//! (`tests/data/agents/codex-0.171.0-observed.json`). With a `gpt-6*` model the same binary
//! sends another tool surface (code mode, a `collaboration` namespace instead of
//! `multi_agent_v1`, no top-level `tool_search`, MCP namespaces still listed): these texts
//! are the `gpt-5*` surface.
//!
//! The rule below was read in openai/codex's `core/src/context/world_state/tools.rs` and
//! `tools_budget.rs` at the revision whose strings the 0.171.0 binary holds (the metric names
//! `codex.thread.tools.namespaces_total` and `codex.thread.tools.fragment_bytes`, the content
//! kind `tools.deferred_namespaces`, `No deferred tool namespaces remain.` and
//! ` additional namespaces omitted.` all occur in it). Descriptions are not XML-escaped in
//! that revision (an older one escaped them).
//!
//! 1. **Entries.** One per deferred namespace: every connected MCP server with at least one
//!    usable tool (`mcp__<server>`, named as below; its description is the `instructions` of
//!    its `initialize` result, none without) and [`MULTI_AGENT_NAMESPACE`] with
//!    [`MULTI_AGENT_DESCRIPTION`]. They are kept in a `BTreeMap`, so sorted bytewise by name.
//! 2. **Description normalising** (per entry, before any budget): take the first line
//!    (`str::lines`: split at `\n`, a trailing `\r` dropped), trim Unicode whitespace at both
//!    ends; if that has more than 250 **chars**, keep the first 247 chars and append `...`
//!    (so at most 250 chars). An empty result means "no description".
//! 3. **Line format.** `- <name>\n` without a description, `- <name>: <description>\n` with
//!    one. The whole fragment is [`NAMESPACES_OPEN`] + the lines (+ an omitted line) +
//!    [`NAMESPACES_CLOSE`]; nothing comes after the last line's `\n` but `</tools>`.
//! 4. **Budget, 4,096 bytes for the whole fragment.** The body budget is
//!    4096 - len(`<tools>`) - len(`</tools>`) = 4081 bytes; the body's fixed part is the
//!    leading `\n` plus `Deferred tool namespaces:\n` (27 bytes), which leaves an entry
//!    budget **B = 4054 bytes**. Let N = sum over entries of `2 + len(name) + 1` (the
//!    name-only lines, in bytes).
//!    * **Names do not fit (N > B):** no description is shown at all. A running budget
//!      starts at B - 64 (64 bytes reserved for the omitted line) = 3990; entries are taken
//!      greedily in sorted order, each name-only line kept if its bytes fit in what is left
//!      (a later, shorter name can still fit after a longer one was dropped), otherwise
//!      omitted. If any were omitted, the line `... <count> additional namespaces omitted.\n`
//!      follows the kept lines.
//!    * **Names fit, descriptions too:** with R = B - N, if the sum over entries with a
//!      description of `2 + len(description)` (bytes) is at most R, every description is
//!      shown whole.
//!    * **Names fit, descriptions do not:** the descriptions share R one character per
//!      entry per round. A queue holds the entries with a description, in sorted order; each
//!      visit takes the entry's next character: its cost is its UTF-8 length, plus 2 (for
//!      `: `) if it is the first character. If the cost fits in what is left of R, it is
//!      charged, the entry's kept byte count becomes the end of that character, and the entry
//!      goes to the back of the queue; if not, the entry leaves the queue for good (others,
//!      with cheaper characters, continue). An entry whose characters are exhausted leaves
//!      the queue. Rendering an entry with k kept description bytes: k = 0 gives
//!      `- <name>\n`; k = the whole description gives it whole; 0 < k < 3 gives `- <name>\n`
//!      (the bytes were charged but nothing is shown); otherwise `- <name>: ` + the
//!      description cut at the last char boundary at or before k - 3 bytes + `...` + `\n`.
//! 5. **Turns.** The fragment is the last `input_text` of a developer message. The first time
//!    (or when the previous state is unknown) it is the full listing above; when the set
//!    changes later, a diff fragment with the groups `Added deferred tool namespaces:` and
//!    `Removed deferred tool namespaces:` (each group charged its heading and, on overflow,
//!    its own 64-byte reserve), plus `No deferred tool namespaces remain.\n` when none is
//!    left; an unchanged set sends nothing new (the earlier fragment stays in the history).
//!
//! # Model-visible names (`codex-mcp/src/mcp_tool_names.rs`, `mcp/mod.rs`; checked on the binary)
//!
//! * **Sanitising:** every char outside `[A-Za-z0-9_]` (hyphens and dots included, one `_`
//!   per Unicode char: `ünï` gives `_n_`) becomes `_`; an empty result becomes `_`. The
//!   namespace is `mcp__` + the sanitised server name, the callable the sanitised tool name.
//!   A lossy sanitising alone adds no hash (`tool-1` is called `tool_1`).
//! * **Repeats:** a tool whose raw identity repeats on a server is skipped after the first
//!   (`skipping duplicated tool`).
//! * **Namespace collisions:** when different servers sanitise to the same namespace, every
//!   one of them (also one whose name was already clean) gets `_` + the first 12 hex digits
//!   of SHA-1(`server\0server\0`): `srv-a`, `srv_a` and `srv.a` become
//!   `mcp__srv_a_3d45d6a8778b`, `mcp__srv_a_3d6801e14b80` and `mcp__srv_a_4a4dc31e0f17`.
//! * **Callable collisions:** when different tools of one namespace sanitise to the same
//!   callable, every one of them gets `_` + 12 hex of SHA-1(`server\0server\0\0tool\0tool`)
//!   (the raw server and tool names; the empty field is the connector id).
//! * **Length:** when len(namespace) + len(callable) + 2 exceeds **128** bytes, the callable
//!   becomes its first 128 - len(namespace) - 2 - 13 chars + `_` + 12 hex of the same tool
//!   hash (a namespace of 87 bytes and a tool name of 112 gave a 39-byte callable ending in
//!   `_dd8e71458f1f`; 10 + 112 was kept whole). If the namespace alone leaves no room, it is
//!   cut to 128 - 13 chars and the callable is the suffix (source; not observed). The source
//!   in the index still says 64.
//! * A namespace's description in `tool_search` results (not in the listing) falls back to
//!   `Tools in the <namespace> namespace.` when the server sends no instructions.
//! * Servers still starting when the first request goes out are missing from the first
//!   listing and come later in an `Added deferred tool namespaces:` fragment.

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

/// The search texts of the five built-in `multi_agent_v1` tools, which share the BM25 corpus
/// with the MCP tools (they change its document count, mean length and word rarity).
///
/// These are not built by `default_tool_search_text`: each handler's `search_info` passes a
/// fixed keyword string to `multi_agent_tool_search_info`, which stores it unchanged as the
/// entry's `search_text`, and the tool-search handler makes one BM25 document of each
/// `search_text`, as is. The order is the handlers' registration order (spawn, send_input,
/// resume, wait, close). All five occur whole in the 0.171.0 binary; the `send_input` text is
/// the one without `mailbox` (a later source revision adds that word).
pub const MULTI_AGENT_SEARCH_TEXTS: [(&str, &str); 5] = [
    ("spawn_agent", "spawn_agent spawn agent subagent sub-agent delegate delegation parallel work worker explorer no-apps fork model reasoning"),
    ("send_input", "send_input send message existing agent subagent follow up interrupt redirect queue target"),
    ("resume_agent", "resume_agent resume reopen closed agent subagent thread id target"),
    ("wait_agent", "wait_agent wait agent subagent status final result complete timeout targets"),
    ("close_agent", "close_agent close shutdown stop agent subagent thread status target"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(text: &str) -> usize {
        text.chars().count()
    }

    #[test]
    fn the_bridge_and_resource_tools_have_the_binary_s_lengths() {
        assert_eq!(chars(TOOL_SEARCH_DEFINITION), 699);
        assert_eq!(RESOURCE_TOOLS.map(chars), [628, 717, 526]);
        assert_eq!(RESOURCE_TOOLS.map(chars).iter().sum::<usize>(), 1871);
    }

    #[test]
    fn the_five_multi_agent_texts_name_their_tools_first() {
        let names = [
            "spawn_agent",
            "send_input",
            "resume_agent",
            "wait_agent",
            "close_agent",
        ];
        for ((tool, text), name) in MULTI_AGENT_SEARCH_TEXTS.iter().zip(names) {
            assert_eq!(*tool, name);
            assert_eq!(text.split(' ').next(), Some(name), "{text}");
        }
        assert_eq!(
            MULTI_AGENT_SEARCH_TEXTS.map(|(_, t)| chars(t)),
            [121, 89, 65, 75, 67]
        );
    }

    #[test]
    fn the_listing_frame_leaves_the_budget_the_source_computes() {
        // 4096 bytes minus `<tools>` and `</tools>`, minus the body's leading `\n` and heading.
        let tags = "<tools>".len() + NAMESPACES_CLOSE.len();
        let heading = NAMESPACES_OPEN.len() - "<tools>".len();
        assert_eq!(4096 - tags - heading, 4054);
        assert_eq!(chars(MULTI_AGENT_DESCRIPTION), 43);
    }
}
