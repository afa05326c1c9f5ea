//! Codex 0.171.0's fixed texts against its shipped binary: every literal piece schematax counts
//! occurs byte for byte in `codex` from `@openai/codex@0.171.0-linux-x64`, each constant is
//! exactly those pieces put together the way the binary's code joins them (serde's key order
//! for the tool definitions), and the binary embeds the `bm25` crate at the version schematax
//! replays. `scripts/install-agent-packages` npm-packs the package into
//! `target/agent-packages/codex/`; without it these tests say so and pass.

use schematax_releases::agent_texts::codex;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The Codex version whose texts `codex.rs` holds.
const CODEX_VERSION: &str = "0.171.0";

/// The `bm25` crate version the binary must embed (the one schematax's ranking replays).
const BM25_VERSION: &str = "2.3.2";

/// Where the install script unpacks the package, under the workspace's `target/`.
fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/agent-packages/codex/package")
}

fn binary_path() -> PathBuf {
    package_dir().join("vendor/x86_64-unknown-linux-musl/bin/codex")
}

/// The binary as text (invalid UTF-8 replaced, which can neither create nor hide a match of a
/// valid UTF-8 piece without U+FFFD), read once for all tests; `None` when not installed.
fn binary_text() -> Option<&'static str> {
    static TEXT: OnceLock<Option<String>> = OnceLock::new();
    TEXT.get_or_init(|| {
        let bytes = std::fs::read(binary_path()).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    })
    .as_deref()
}

/// The binary's text, or `None` after printing why the test is skipped (a failure when
/// `SCHEMATAX_REQUIRE_ORACLE` is set, as `scripts/test` sets it).
fn installed() -> Option<&'static str> {
    let text = binary_text();
    if text.is_none() {
        assert!(
            std::env::var_os("SCHEMATAX_REQUIRE_ORACLE").is_none(),
            "{} is absent and SCHEMATAX_REQUIRE_ORACLE is set: run scripts/install-agent-packages",
            binary_path().display()
        );
        eprintln!(
            "skipped: {} is absent (run scripts/install-agent-packages)",
            binary_path().display()
        );
    }
    text
}

/// Asserts that each piece occurs byte for byte in the binary.
fn assert_pieces_in(binary: &str, pieces: &[&str]) {
    for piece in pieces {
        assert!(
            binary.contains(piece),
            "not in codex {CODEX_VERSION}: {piece:?}"
        );
    }
}

/// A JSON string literal, escaped as serde_json writes it.
fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// A `{"type":"string","description":...}` property as serde serialises Codex's `JsonSchema`.
fn string_property(description: &str) -> String {
    format!(
        "{{\"type\":\"string\",\"description\":{}}}",
        json(description)
    )
}

#[test]
fn the_package_is_the_version_the_texts_come_from() {
    let Some(_) = installed() else { return };
    let manifest = std::fs::read_to_string(package_dir().join("package.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let version = manifest["version"].as_str().unwrap();
    assert!(
        version.starts_with(&format!("{CODEX_VERSION}-")) || version == CODEX_VERSION,
        "{version}"
    );
}

#[test]
fn tool_search_is_the_binary_s_template_with_the_world_state_listing() {
    let Some(binary) = installed() else { return };
    // The description is a format string whose pieces surround `{source_section}` (two
    // newlines when the namespaces are listed in the `<tools>` fragment) and the tool's name.
    let pieces = [
        "# Tool discovery\n\nSearches over deferred tool metadata with BM25 and exposes matching tools for the next model call.",
        "Some of the tools may not have been provided to you upfront, and you should use this tool (`",
        "`) to search for the required tools. For MCP tool discovery, always use `",
        "` instead of `list_mcp_resources` or `list_mcp_resource_templates`.",
        "Maximum number of tools to return. Defaults to ",
        "Search query for deferred tools.",
    ];
    assert_pieces_in(binary, &pieces);
    let description = format!(
        "{}\n\n{}tool_search{}tool_search{}",
        pieces[0], pieces[1], pieces[2], pieces[3]
    );
    let expected = format!(
        "{{\"type\":\"tool_search\",\"execution\":\"client\",\"description\":{},\"parameters\":{{\"type\":\"object\",\"properties\":{{\"limit\":{{\"type\":\"number\",\"description\":{}}},\"query\":{}}},\"required\":[\"query\"],\"additionalProperties\":false}}}}",
        json(&description),
        json(&format!("{}8.", pieces[4])),
        string_property(pieces[5]),
    );
    assert_eq!(codex::TOOL_SEARCH_DEFINITION, expected);
}

/// One resource tool as serde writes `ToolSpec::Function`: `type`, `name`, `description`,
/// `strict`, then the object schema (properties sorted by name, `required` only if given).
fn resource_tool(
    name: &str,
    description: &str,
    properties: &[(&str, &str)],
    required: bool,
) -> String {
    let properties = properties
        .iter()
        .map(|(key, text)| format!("{}:{}", json(key), string_property(text)))
        .collect::<Vec<_>>()
        .join(",");
    let required = if required {
        ",\"required\":[\"server\",\"uri\"]"
    } else {
        ""
    };
    format!(
        "{{\"type\":\"function\",\"name\":{},\"description\":{},\"strict\":false,\"parameters\":{{\"type\":\"object\",\"properties\":{{{properties}}}{required},\"additionalProperties\":false}}}}",
        json(name),
        json(description),
    )
}

#[test]
fn the_resource_tools_are_the_binary_s_texts_in_serde_order() {
    let Some(binary) = installed() else { return };
    let list = "Lists resources provided by MCP servers. Resources allow servers to share data that provides context to language models, such as files, database schemas, or application-specific information. Prefer resources over web search when possible.";
    let list_cursor =
        "Opaque cursor from a previous list_mcp_resources call; omit for the first page.";
    let list_server = "MCP server name. Omit to list resources from every configured server.";
    let templates = "Lists resource templates provided by MCP servers. Parameterized resource templates allow servers to share data that takes parameters and provides context to language models, such as files, database schemas, or application-specific information. Prefer resource templates over web search when possible.";
    let templates_cursor =
        "Opaque cursor from a previous list_mcp_resource_templates call; omit for the first page.";
    let templates_server =
        "MCP server name. Omit to list resource templates from every configured server.";
    let read =
        "Read a specific resource from an MCP server given the server name and resource URI.";
    let read_server = "MCP server name exactly as configured. Must match the 'server' field returned by list_mcp_resources.";
    let read_uri = "Resource URI to read. Must be one of the URIs returned by list_mcp_resources.";
    assert_pieces_in(
        binary,
        &[
            list,
            list_cursor,
            list_server,
            templates,
            templates_cursor,
            templates_server,
            read,
            read_server,
            read_uri,
        ],
    );
    let expected = [
        resource_tool(
            "list_mcp_resources",
            list,
            &[("cursor", list_cursor), ("server", list_server)],
            false,
        ),
        resource_tool(
            "list_mcp_resource_templates",
            templates,
            &[("cursor", templates_cursor), ("server", templates_server)],
            false,
        ),
        resource_tool(
            "read_mcp_resource",
            read,
            &[("server", read_server), ("uri", read_uri)],
            true,
        ),
    ];
    assert_eq!(codex::RESOURCE_TOOLS.map(str::to_string), expected);
}

#[test]
fn the_namespace_listing_s_texts_are_the_binary_s() {
    let Some(binary) = installed() else { return };
    assert_pieces_in(
        binary,
        &[
            "<tools>",
            "</tools>",
            "Deferred tool namespaces",
            " additional namespaces omitted.\n",
            "No deferred tool namespaces remain.\n",
            codex::MULTI_AGENT_NAMESPACE,
            codex::MULTI_AGENT_DESCRIPTION,
        ],
    );
    // The body starts with a newline, then the group's label and `:\n`.
    assert_eq!(
        codex::NAMESPACES_OPEN,
        format!("{}\n{}:\n", "<tools>", "Deferred tool namespaces")
    );
    assert_eq!(codex::NAMESPACES_CLOSE, "</tools>");
}

#[test]
fn the_multi_agent_search_texts_occur_whole() {
    let Some(binary) = installed() else { return };
    let texts: Vec<&str> = codex::MULTI_AGENT_SEARCH_TEXTS
        .iter()
        .map(|(_, t)| *t)
        .collect();
    assert_pieces_in(binary, &texts);
}

#[test]
fn the_binary_embeds_the_bm25_version_schematax_replays() {
    let Some(binary) = installed() else { return };
    let marker = "/bm25-";
    let versions = binary
        .match_indices(marker)
        .filter_map(|(at, _)| {
            let rest = &binary[at + marker.len()..];
            let end = rest.find("/src/")?;
            let version = &rest[..end];
            let plausible =
                version.len() < 16 && version.chars().all(|c| c.is_ascii_digit() || c == '.');
            plausible.then_some(version)
        })
        .collect::<std::collections::BTreeSet<_>>();
    assert_eq!(
        versions.into_iter().collect::<Vec<_>>(),
        [BM25_VERSION],
        "the bm25 crate paths the binary embeds"
    );
    let lock =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"))
            .unwrap();
    if let Some(entry) = lock
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"bm25\"\n"))
    {
        assert!(
            entry.contains(&format!("\nversion = \"{BM25_VERSION}\"\n")),
            "Cargo.lock pins another bm25: {entry}"
        );
    }
}

/// The fragments Codex 0.171.0 was seen sending (tests/data/agents/), against the frame here.
#[test]
fn the_observed_fragments_use_this_frame_and_budget() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/agents/codex-0.171.0-observed.json");
    let observed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // The built-in namespace's line, its description whole or cut by the shared budget.
    let builtin = format!("\n- {}", codex::MULTI_AGENT_NAMESPACE);
    let fragments = observed["fragments"].as_array().unwrap();
    assert_eq!(fragments.len(), 7);
    for case in fragments {
        let fragment = case["fragment"].as_str().unwrap();
        assert!(fragment.starts_with(codex::NAMESPACES_OPEN), "{fragment}");
        assert!(fragment.ends_with(&format!("\n{}", codex::NAMESPACES_CLOSE)));
        assert!(fragment.len() <= 4096, "{} bytes", fragment.len());
        let omitted = fragment.contains(" additional namespaces omitted.\n");
        assert!(omitted || fragment.contains(&builtin), "{fragment}");
    }
}
