//! VS Code Copilot Chat: the fixed texts of its Anthropic tool search, as its source holds them
//! (microsoft/vscode-copilot-chat@31acd00a86424e2ee6e980e54919cf31fbf88030, 2026-03-28;
//! there is no shipped package to check them against, so they are modelled).
//!
//! # The deferred-tools block of the system prompt
//!
//! `ToolSearchToolPrompt` in `src/extension/prompts/node/agent/anthropicPrompts.tsx`, rendered
//! by `@vscode/prompt-tsx` (the `Tag` element of `prompts/node/base/tag.tsx` writes
//! `<name>\n`, its children, a line break, `</name>` and a line break). It is the last child
//! of the `<toolUseInstructions>` tag of the system message (after a line that ends in
//! `\n`, so nothing is inserted before it) in the prompts of Claude Sonnet 4.5 / Opus 4.5
//! (`Claude45DefaultPrompt`) and of later Claude models under the default `control`
//! prompt-optimisation experiment (`Claude46DefaultPrompt`).
//!
//! The deferred tools are `availableTools` minus the never-deferred ones, **names only**,
//! sorted with JavaScript's default sort (UTF-16 code units; for ASCII names, bytewise), and
//! joined with `\n` (`deferredTools.join('\n')`); a line break follows the last name. With no
//! deferred tool the whole block is left out. So the block is exactly
//! [`REGEX_INSTRUCTIONS_OPEN`] + [`REGEX_DEFERRED_HEADER`] + `\n` + (each name + `\n`) +
//! [`INSTRUCTIONS_CLOSE`].
//!
//! The constants are the server mode, the source's default (`anthropic.toolSearchTool.mode` =
//! `server`: Anthropic's `tool_search_tool_regex`, with the `<regexPatternSyntax>` section).
//! The client mode (Copilot's embeddings-ranked `tool_search` tool, with a
//! `<searchQueryGuidance>` section) and the `combined` and `split` prompt-optimisation
//! experiments (`ToolSearchToolPromptOptimized`) render other texts, not given here.

/// What closes the instructions, after the last name's `\n` (both modes).
pub const INSTRUCTIONS_CLOSE: &str = "</availableDeferredTools>\n\n</toolSearchInstructions>\n";

/// What opens the instructions in server mode (Anthropic's regex tool search).
pub const REGEX_INSTRUCTIONS_OPEN: &str = concat!(
    "<toolSearchInstructions>\n",
    "Use the tool_search_tool_regex tool to search for deferred tools before calling them.\n",
    "\n",
    "<mandatory>\n",
    "You MUST use the tool_search_tool_regex tool to load deferred tools BEFORE calling them directly.\n",
    "This is a BLOCKING REQUIREMENT - deferred tools listed below are NOT available until you load them using the tool_search_tool_regex tool. Once a tool appears in the results, it is immediately available to call.\n",
    "\n",
    "Why this is required:\n",
    "- Deferred tools are not loaded until discovered via tool_search_tool_regex\n",
    "- Calling a deferred tool without first loading it will fail\n",
    "\n",
    "</mandatory>\n",
    "\n",
    "<regexPatternSyntax>\n",
    "Construct regex patterns using Python's re.search() syntax. Common patterns:\n",
    "- `^mcp_github_` - matches tools starting with \"mcp_github_\"\n",
    "- `issue|pull_request` - matches tools containing \"issue\" OR \"pull_request\"\n",
    "- `create.*branch` - matches tools with \"create\" followed by \"branch\"\n",
    "- `mcp_.*list` - matches MCP tools with \"list\" in it.\n",
    "\n",
    "The pattern is matched case-insensitively against tool names, descriptions, argument names and argument descriptions.\n",
    "\n",
    "</regexPatternSyntax>\n",
    "\n",
    "<incorrectUsagePatterns>\n",
    "NEVER do these:\n",
    "- Calling a deferred tool directly without loading it first with tool_search_tool_regex\n",
    "- Calling tool_search_tool_regex again for a tool that was already returned by a previous search\n",
    "- Retrying tool_search_tool_regex repeatedly if it fails or returns no results. If a search returns no matching tools, the tool is not available. Do not retry with different patterns.\n",
    "\n",
    "</incorrectUsagePatterns>\n",
    "\n",
    "<dynamicToolDiscovery>\n",
    "MCP servers may add or remove tools dynamically during a conversation via tools/list_changed notifications. If you called a tool that may have enabled new tools on an MCP server, search for the new tools — they may now be discoverable even if not listed in the availableDeferredTools list above.\n",
    "\n",
    "</dynamicToolDiscovery>\n",
    "\n",
    "<availableDeferredTools>\n",
);

/// The line before the names in server mode.
pub const REGEX_DEFERRED_HEADER: &str =
    "Available deferred tools (must be loaded with tool_search_tool_regex before use):";

/// The server-mode bridge as sent: Anthropic's own regex search tool, first in the tools.
pub const REGEX_TOOL_SEARCH_DEFINITION: &str = "{\"name\":\"tool_search_tool_regex\",\"type\":\"tool_search_tool_regex_20251119\",\"defer_loading\":false}";

/// The lines tool search adds to the reminder instructions of every request's user message
/// (`AnthropicReminderInstructions`, both modes; it names the regex tool even in client mode).
pub const TOOL_SEARCH_REMINDER: &str = "\nIMPORTANT: Before calling any deferred tool that was not previously returned by tool_search_tool_regex, you MUST first use tool_search_tool_regex to load it. Calling a deferred tool without first loading it will fail. Tools returned by tool_search_tool_regex are automatically expanded and immediately available - do not search for them again.\n";

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(text: &str) -> usize {
        text.chars().count()
    }

    #[test]
    fn the_texts_have_the_lengths_their_source_renders() {
        assert_eq!(chars(INSTRUCTIONS_CLOSE), 53);
        assert_eq!(chars(REGEX_INSTRUCTIONS_OPEN), 1918);
        assert_eq!(chars(REGEX_DEFERRED_HEADER), 81);
        assert_eq!(chars(REGEX_TOOL_SEARCH_DEFINITION), 96);
        assert_eq!(chars(TOOL_SEARCH_REMINDER), 345);
    }

    #[test]
    fn the_block_opens_and_closes_its_tags_around_the_names() {
        assert!(REGEX_INSTRUCTIONS_OPEN.starts_with("<toolSearchInstructions>\n"));
        assert!(REGEX_INSTRUCTIONS_OPEN.ends_with("\n\n<availableDeferredTools>\n"));
        assert!(REGEX_DEFERRED_HEADER.contains("tool_search_tool_regex before use"));
        assert!(INSTRUCTIONS_CLOSE.starts_with("</availableDeferredTools>"));
    }
}
