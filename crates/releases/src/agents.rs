//! The agents table, as data: every agent that puts MCP tools before a model, one row per
//! agent, one release per version whose rules were read, each rule a value. Hermes is a row
//! too; its releases are the [`PROFILES`](crate::PROFILES) table. The engine
//! (`schematax-engine`'s `agents` module) reads the rules of the agent it models; nothing here
//! runs one.
//!
//! Adding an agent, or an agent's new version: a row (or a release in its row), its texts in
//! [`agent_texts`](crate::agent_texts), and its tests.

use crate::agent_texts::{claude_code, codex, copilot};

/// One agent: its id on the command line and the releases whose rules are known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Agent {
    /// Its id (`claude-code`), as `--agent` takes it.
    pub id: &'static str,
    /// Its name as users know it.
    pub title: &'static str,
    /// Where its rules come from, newest last; empty for Hermes, whose releases are the
    /// profiles table.
    pub releases: &'static [AgentRelease],
}

/// One version of an agent whose rules were read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentRelease {
    /// The version the rules were taken from.
    pub version: &'static str,
    /// Its publication date.
    pub date: &'static str,
    /// The package, source or page the rules were read from.
    pub source: &'static str,
    /// The rules.
    pub rules: &'static AgentRules,
}

/// How one agent puts MCP tools before the model, part by part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentRules {
    /// The name the model sees for a server's tool.
    pub naming: NamingRule,
    /// When the agent defers tools instead of sending their definitions.
    pub deferral: DeferralRule,
    /// How a tool's full definition is sent.
    pub definition: DefinitionShape,
    /// What the model sees of the deferred tools, every turn.
    pub listing: ListingRule,
    /// Tools the agent sends whole every turn while it defers (its search tool, helpers).
    pub fixed_tools: &'static [&'static str],
    /// Whether, and how, the servers' `instructions` are sent.
    pub instructions: InstructionsRule,
    /// How a search ranks the deferred tools.
    pub ranking: RankingRule,
    /// What one search loads.
    pub loading: LoadRule,
    /// Which parts are checked against the agent and which are modelled.
    pub fidelity: Fidelity,
    /// What the agent's own context display counts of these figures, one sentence.
    pub context_display: &'static str,
    /// The client config whose per-server settings (`alwaysLoad`, tool lists, `enabled`)
    /// the agent reads.
    pub client_file: ClientFile,
}

/// The kind of MCP client config an agent reads its per-server settings from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientFile {
    /// Claude Code's `.mcp.json` or `~/.claude.json`.
    ClaudeCode,
    /// Codex's `config.toml`.
    Codex,
    /// VS Code's `mcp.json` or `settings.json`.
    VsCode,
    /// Cursor's `mcp.json`.
    Cursor,
    /// Gemini CLI's `settings.json`.
    GeminiCli,
    /// None: an API's caller decides in code.
    None,
}

/// The characters a name may keep; any other becomes `_`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameChars {
    /// ASCII letters, digits, `_` and `-`.
    AlnumUnderscoreHyphen,
    /// ASCII letters, digits and `_`.
    AlnumUnderscore,
    /// ASCII letters, digits, `_`, `-`, `.` and `:`.
    AlnumUnderscoreHyphenDotColon,
}

/// What happens to a name longer than the agent allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverlongName {
    /// Kept whole.
    Kept,
    /// When namespace, separator and tool pass `max_bytes`, the tool part is cut to fit with
    /// `_` and 12 hex digits of its hash (see [`NameCollisions::HashSuffix`]) at its end.
    HashCut {
        /// The longest full name in bytes.
        max_bytes: usize,
    },
    /// Over `max` characters: the first `head`, `...`, the last `tail`.
    Ellipsized {
        /// Longest name kept whole.
        max: usize,
        /// Characters kept from the start.
        head: usize,
        /// Characters kept from the end.
        tail: usize,
    },
}

/// What an agent does when two names are equal once sanitised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameCollisions {
    /// The first tool of a name is kept, the later ones are left out.
    FirstKept,
    /// Every member of a colliding group gets `_` and the first 12 hex digits of a SHA-1:
    /// of `server\0server\0` for namespaces, of `server\0server\0\0tool\0tool` for a
    /// server's tools (a tool named twice on one server keeps its first).
    HashSuffix,
}

/// How a server's tool is named before the model: `prefix` + server + `separator` + tool,
/// each sanitised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamingRule {
    /// What starts every MCP tool's name (`mcp__`).
    pub prefix: &'static str,
    /// Between the server and the tool (`__`).
    pub separator: &'static str,
    /// The characters kept.
    pub chars: NameChars,
    /// A name that starts with neither a letter nor `_` gets a leading `_`.
    pub leading_underscore: bool,
    /// What happens to a long name.
    pub overlong: OverlongName,
    /// What happens when sanitised names collide.
    pub collisions: NameCollisions,
}

/// When an agent defers MCP tools.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DeferralRule {
    /// Every MCP tool, always.
    Always,
    /// Never: every enabled tool's definition is sent every turn.
    Never,
    /// The caller marks tools `defer_loading` (an API): modelled as every MCP tool marked.
    CallerMarks,
    /// Claude Code's `ENABLE_TOOL_SEARCH`: unset, truthy, `auto:0` or anything else -> always;
    /// falsy or `auto:100` -> never; `auto` / `auto:N` -> when the deferrable tools' tokens
    /// less `overhead_tokens` reach `floor(context x N / 100)` (`N` defaults to
    /// `default_pct`); when counting fails, their characters against that threshold times
    /// `fallback_chars_per_token`. Off when nothing is deferrable.
    SettingWithTokenShare {
        /// N of a bare `auto`, and of an `auto:x` that is not a number.
        default_pct: u32,
        /// Tokens taken off the count (the tool-use system prompt).
        overhead_tokens: u64,
        /// Characters per token of the offline fallback.
        fallback_chars_per_token: f64,
    },
}

/// The JSON shape a tool's full definition is sent in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefinitionShape {
    /// Anthropic's Messages API: `{"name","description","input_schema"}`.
    Anthropic,
    /// OpenAI's Responses API: `{"type":"function","name","description","strict":false,"parameters"}`.
    ResponsesFunction,
    /// Gemini's `functionDeclaration`: `{"name","description","parametersJsonSchema"}`.
    GeminiDeclaration,
}

/// What the model sees of the deferred tools every turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListingRule {
    /// Nothing.
    Nothing,
    /// `open` + `header` + `\n` + the full names joined by `\n` (and one after the last
    /// when `newline_after_last`) + `close`, names in UTF-16 code-unit order.
    NamesOnePerLine {
        /// What opens the block.
        open: &'static str,
        /// The block's first line.
        header: &'static str,
        /// What closes it.
        close: &'static str,
        /// A line break follows the last name too.
        newline_after_last: bool,
    },
    /// One line per server namespace, `- <namespace>: <description>`, where the
    /// description is the first line of the server's `instructions` (at most
    /// `description_chars`, longer ones cut to `description_chars - 3` and `...`), and a
    /// built-in namespace beside them, all within `max_bytes` (Codex).
    Namespaces {
        /// What opens the block.
        open: &'static str,
        /// What closes it.
        close: &'static str,
        /// The longest description kept.
        description_chars: usize,
        /// The most bytes of the whole block.
        max_bytes: usize,
        /// The built-in namespace listed beside the servers, and its description.
        builtin: (&'static str, &'static str),
    },
}

/// Whether the servers' `instructions` are sent, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstructionsRule {
    /// Not sent (or sent only inside the listing).
    NotSent,
    /// Sent every turn in one block: `open` + `## <server>\n<text>` sections joined by a
    /// blank line + `close`, each text cut at `cap_chars` with `cut_mark` after it.
    Block {
        /// What opens the block.
        open: &'static str,
        /// What closes it.
        close: &'static str,
        /// The most characters kept of one server's text.
        cap_chars: usize,
        /// What follows a cut text.
        cut_mark: &'static str,
    },
}

/// The weights of a keyword scorer, per query term, for MCP tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeywordWeights {
    /// A name part equal to the term.
    pub part_equal: u32,
    /// Else a name part containing it.
    pub part_contains: u32,
    /// The server or tool name equal to the term.
    pub name_equal: u32,
    /// Else the server or tool name containing it.
    pub name_contains: u32,
    /// The search hint holding the term as a word.
    pub hint_word: u32,
    /// The description holding the term as a word.
    pub description_word: u32,
}

/// How a search ranks deferred tools.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RankingRule {
    /// A keyword scorer over name parts, names, the hint and the description (Claude Code).
    Keywords {
        /// The weights.
        weights: KeywordWeights,
        /// Characters of the description searched (a longer one is cut, and the cut mark
        /// added).
        description_chars: usize,
        /// Characters of the hint searched.
        hint_chars: usize,
        /// Characters of the query read.
        query_chars: usize,
        /// Terms of the query read.
        query_terms: usize,
        /// Names a `select:` query takes.
        select_names: usize,
    },
    /// BM25 as the `bm25` crate ranks (English tokens, `k1`, `b`), over a text built from
    /// each tool's names, title, description, the server's instructions and its top-level
    /// property names, beside the agent's built-in tools (Codex).
    Bm25Crate {
        /// BM25's k1.
        k1: f32,
        /// BM25's b.
        b: f32,
        /// The built-in tools in the same corpus: each name and search text.
        builtin_texts: &'static [(&'static str, &'static str)],
    },
    /// The ranking runs on the provider's servers and is not published.
    ServerSide,
    /// No search tool: the agent reads the tools' files with its own tools.
    OwnTools,
    /// Nothing is deferred, so nothing is searched.
    None,
}

/// What one search loads into the context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadRule {
    /// Results of a search that names no limit.
    pub default_results: usize,
    /// A loaded tool's description is cut at this many characters.
    pub description_chars: Option<usize>,
}

/// Whether one part of an agent's rules is exact (checked against the agent's code or
/// package) or modelled (taken from its documentation or inferred), with why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartFidelity {
    /// Checked against the agent itself.
    pub exact: bool,
    /// Where it was checked, or what is assumed, in one sentence.
    pub note: &'static str,
}

/// The fidelity of each part of an agent's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fidelity {
    /// When tools are deferred.
    pub deferral: PartFidelity,
    /// What is sent each turn (definitions, listing, fixed tools, instructions).
    pub texts: PartFidelity,
    /// The search's ranking.
    pub ranking: PartFidelity,
    /// What a search loads.
    pub loading: PartFidelity,
}

const EXACT_TEXTS_CLAUDE: PartFidelity = PartFidelity {
    exact: true,
    note:
        "the listing, ToolSearch and instruction texts occur byte for byte in the 2.1.328 package",
};

static CLAUDE_CODE_2_1_328: AgentRules = AgentRules {
    naming: NamingRule {
        prefix: "mcp__",
        separator: "__",
        chars: NameChars::AlnumUnderscoreHyphen,
        leading_underscore: false,
        overlong: OverlongName::Kept,
        collisions: NameCollisions::FirstKept,
    },
    deferral: DeferralRule::SettingWithTokenShare {
        default_pct: 10,
        overhead_tokens: 500,
        fallback_chars_per_token: 2.5,
    },
    definition: DefinitionShape::Anthropic,
    listing: ListingRule::NamesOnePerLine {
        open: claude_code::REMINDER_OPEN,
        header: claude_code::DEFERRED_HEADER,
        close: claude_code::REMINDER_CLOSE,
        newline_after_last: false,
    },
    fixed_tools: &[claude_code::TOOL_SEARCH_DEFINITION],
    instructions: InstructionsRule::Block {
        open: claude_code::INSTRUCTIONS_OPEN,
        close: claude_code::REMINDER_CLOSE,
        cap_chars: 4096,
        cut_mark: claude_code::INSTRUCTIONS_CUT_MARK,
    },
    ranking: RankingRule::Keywords {
        weights: KeywordWeights {
            part_equal: 12,
            part_contains: 6,
            name_equal: 12,
            name_contains: 4,
            hint_word: 4,
            description_word: 2,
        },
        description_chars: 4096,
        hint_chars: 4096,
        query_chars: 16384,
        query_terms: 32,
        select_names: 64,
    },
    loading: LoadRule {
        default_results: 5,
        description_chars: Some(16384),
    },
    fidelity: Fidelity {
        deferral: PartFidelity {
            exact: false,
            note: "the rule is the package's; its token count is the API's count_tokens, modelled here by the Claude tokenizer (exact only in the chars fallback of --estimate-only)",
        },
        texts: EXACT_TEXTS_CLAUDE,
        ranking: PartFidelity {
            exact: true,
            note: "replayed against the package's own scorer on random catalogs",
        },
        loading: PartFidelity {
            exact: false,
            note: "the API expands tool_reference blocks to full definitions; their rendered size is modelled as the definitions' JSON",
        },
    },
    context_display: "/context counts the deferred tools' names and ToolSearch, not the server instructions",
    client_file: ClientFile::ClaudeCode,
};

static CODEX_0_171_0: AgentRules = AgentRules {
    naming: NamingRule {
        prefix: "mcp__",
        separator: "__",
        chars: NameChars::AlnumUnderscore,
        leading_underscore: false,
        overlong: OverlongName::HashCut { max_bytes: 128 },
        collisions: NameCollisions::HashSuffix,
    },
    deferral: DeferralRule::Always,
    definition: DefinitionShape::ResponsesFunction,
    listing: ListingRule::Namespaces {
        open: codex::NAMESPACES_OPEN,
        close: codex::NAMESPACES_CLOSE,
        description_chars: 250,
        max_bytes: 4096,
        builtin: (codex::MULTI_AGENT_NAMESPACE, codex::MULTI_AGENT_DESCRIPTION),
    },
    fixed_tools: &[
        codex::TOOL_SEARCH_DEFINITION,
        codex::RESOURCE_TOOLS[0],
        codex::RESOURCE_TOOLS[1],
        codex::RESOURCE_TOOLS[2],
    ],
    instructions: InstructionsRule::NotSent,
    ranking: RankingRule::Bm25Crate {
        k1: 1.2,
        b: 0.75,
        builtin_texts: &codex::MULTI_AGENT_SEARCH_TEXTS,
    },
    loading: LoadRule {
        default_results: 8,
        description_chars: None,
    },
    fidelity: Fidelity {
        deferral: PartFidelity {
            exact: true,
            note: "0.171.0 defers every MCP tool (feature tool_search_always_defer_mcp_tools removed, on)",
        },
        texts: PartFidelity {
            exact: true,
            note: "tool_search, the resource tools, the namespace listing and the names match the request bodies the 0.171.0 binary sends",
        },
        ranking: PartFidelity {
            exact: true,
            note: "the bm25 crate at the version the 0.171.0 binary embeds (2.3.2); equal scores come back in no fixed order",
        },
        loading: PartFidelity {
            exact: false,
            note: "loaded functions are modelled as their definitions without title or output schema; schemas over 5,000 bytes are not shrunk here",
        },
    },
    context_display: "the status line counts the whole request, listing and tools included",
    client_file: ClientFile::Codex,
};

static COPILOT_VSCODE: AgentRules = AgentRules {
    naming: NamingRule {
        prefix: "mcp_",
        separator: "_",
        chars: NameChars::AlnumUnderscoreHyphen,
        leading_underscore: false,
        overlong: OverlongName::Kept,
        collisions: NameCollisions::FirstKept,
    },
    deferral: DeferralRule::Always,
    definition: DefinitionShape::Anthropic,
    listing: ListingRule::NamesOnePerLine {
        open: copilot::REGEX_INSTRUCTIONS_OPEN,
        header: copilot::REGEX_DEFERRED_HEADER,
        close: copilot::INSTRUCTIONS_CLOSE,
        newline_after_last: true,
    },
    fixed_tools: &[
        copilot::REGEX_TOOL_SEARCH_DEFINITION,
        copilot::TOOL_SEARCH_REMINDER,
    ],
    instructions: InstructionsRule::NotSent,
    ranking: RankingRule::ServerSide,
    loading: LoadRule {
        default_results: 5,
        description_chars: None,
    },
    fidelity: Fidelity {
        deferral: PartFidelity {
            exact: false,
            note: "tool search on in its default server mode (Claude models, the source read); the never-deferred built-ins are not counted",
        },
        texts: PartFidelity {
            exact: false,
            note: "the server-mode texts (instructions, regex tool, reminder) rendered from microsoft/vscode-copilot-chat's source, not checked against a shipped package",
        },
        ranking: PartFidelity {
            exact: false,
            note: "server mode: Anthropic's regex tool ranks on its servers (client mode: Copilot's embeddings); neither is replayable offline",
        },
        loading: PartFidelity {
            exact: false,
            note: "the client tool returns at most 5 names, expanded to full definitions",
        },
    },
    context_display: "the chat's context view counts the tools as sent",
    client_file: ClientFile::VsCode,
};

static CURSOR: AgentRules = AgentRules {
    naming: NamingRule {
        prefix: "",
        separator: "-",
        chars: NameChars::AlnumUnderscoreHyphen,
        leading_underscore: false,
        overlong: OverlongName::Kept,
        collisions: NameCollisions::FirstKept,
    },
    deferral: DeferralRule::Always,
    definition: DefinitionShape::Anthropic,
    listing: ListingRule::NamesOnePerLine {
        open: "",
        header: "",
        close: "",
        newline_after_last: false,
    },
    fixed_tools: &[],
    instructions: InstructionsRule::NotSent,
    ranking: RankingRule::OwnTools,
    loading: LoadRule {
        default_results: 1,
        description_chars: None,
    },
    fidelity: Fidelity {
        deferral: PartFidelity {
            exact: false,
            note: "from Cursor's \"dynamic context discovery\" post (January 2026): MCP tools always deferred",
        },
        texts: PartFidelity {
            exact: false,
            note: "names only; the instruction text and the name format are not published and not counted",
        },
        ranking: PartFidelity {
            exact: false,
            note: "no search tool: the agent reads the synced tool files with its own tools",
        },
        loading: PartFidelity {
            exact: false,
            note: "one tool's file read, modelled as its definition",
        },
    },
    context_display: "not published",
    client_file: ClientFile::Cursor,
};

static GEMINI_CLI_0_61_0: AgentRules = AgentRules {
    naming: NamingRule {
        prefix: "mcp_",
        separator: "_",
        chars: NameChars::AlnumUnderscoreHyphenDotColon,
        leading_underscore: true,
        overlong: OverlongName::Ellipsized {
            max: 63,
            head: 30,
            tail: 30,
        },
        collisions: NameCollisions::FirstKept,
    },
    deferral: DeferralRule::Never,
    definition: DefinitionShape::GeminiDeclaration,
    listing: ListingRule::Nothing,
    fixed_tools: &[],
    instructions: InstructionsRule::NotSent,
    ranking: RankingRule::None,
    loading: LoadRule {
        default_results: 0,
        description_chars: None,
    },
    fidelity: Fidelity {
        deferral: PartFidelity {
            exact: true,
            note: "the 0.61.0 bundle holds no deferral: every enabled tool is sent every turn",
        },
        texts: PartFidelity {
            exact: false,
            note: "definitions modelled as functionDeclaration JSON; the naming rule is the source's (mcp-tool.ts)",
        },
        ranking: PartFidelity {
            exact: true,
            note: "nothing is deferred, so nothing is searched",
        },
        loading: PartFidelity {
            exact: true,
            note: "nothing is loaded: every definition is already sent",
        },
    },
    context_display: "/stats counts the whole request",
    client_file: ClientFile::GeminiCli,
};

static ANTHROPIC_API: AgentRules = AgentRules {
    naming: NamingRule {
        prefix: "",
        separator: "_",
        chars: NameChars::AlnumUnderscoreHyphen,
        leading_underscore: false,
        overlong: OverlongName::Kept,
        collisions: NameCollisions::FirstKept,
    },
    deferral: DeferralRule::CallerMarks,
    definition: DefinitionShape::Anthropic,
    listing: ListingRule::Nothing,
    fixed_tools: &[r#"{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}"#],
    instructions: InstructionsRule::NotSent,
    ranking: RankingRule::ServerSide,
    loading: LoadRule {
        default_results: 5,
        description_chars: None,
    },
    fidelity: Fidelity {
        deferral: PartFidelity {
            exact: false,
            note: "the caller marks defer_loading: modelled as every MCP tool marked",
        },
        texts: PartFidelity {
            exact: false,
            note: "the search tool's rendered size is not published: counted as its JSON",
        },
        ranking: PartFidelity {
            exact: false,
            note: "BM25 or regex on Anthropic's servers: not published",
        },
        loading: PartFidelity {
            exact: false,
            note: "3-5 full definitions per search (5 here)",
        },
    },
    context_display: "usage.input_tokens counts what is rendered",
    client_file: ClientFile::None,
};

static OPENAI_RESPONSES: AgentRules = AgentRules {
    naming: NamingRule {
        prefix: "",
        separator: ".",
        chars: NameChars::AlnumUnderscoreHyphen,
        leading_underscore: false,
        overlong: OverlongName::Kept,
        collisions: NameCollisions::FirstKept,
    },
    deferral: DeferralRule::CallerMarks,
    definition: DefinitionShape::ResponsesFunction,
    listing: ListingRule::Namespaces {
        open: "",
        close: "",
        description_chars: usize::MAX,
        max_bytes: usize::MAX,
        builtin: ("", ""),
    },
    fixed_tools: &[r#"{"type":"tool_search"}"#],
    instructions: InstructionsRule::NotSent,
    ranking: RankingRule::ServerSide,
    loading: LoadRule {
        default_results: 5,
        description_chars: None,
    },
    fidelity: Fidelity {
        deferral: PartFidelity {
            exact: false,
            note: "the caller marks defer_loading: modelled as every MCP server a deferred namespace",
        },
        texts: PartFidelity {
            exact: false,
            note: "a namespace shows its name and description: modelled as a line per server with its instructions' first line",
        },
        ranking: PartFidelity {
            exact: false,
            note: "hosted search: not published",
        },
        loading: PartFidelity {
            exact: false,
            note: "result count not published: 5 here",
        },
    },
    context_display: "usage.input_tokens counts what is rendered",
    client_file: ClientFile::None,
};

/// Every agent schematax models, Hermes first.
pub static AGENTS: &[Agent] = &[
    Agent {
        id: "hermes",
        title: "Hermes Agent",
        releases: &[],
    },
    Agent {
        id: "claude-code",
        title: "Claude Code",
        releases: &[AgentRelease {
            version: "2.1.328",
            date: "2026-11-18",
            source: "npm @anthropic-ai/claude-code-linux-x64@2.1.328",
            rules: &CLAUDE_CODE_2_1_328,
        }],
    },
    Agent {
        id: "codex",
        title: "Codex CLI",
        releases: &[AgentRelease {
            version: "0.171.0",
            date: "2026-11-20",
            source: "npm @openai/codex@0.171.0-linux-x64",
            rules: &CODEX_0_171_0,
        }],
    },
    Agent {
        id: "copilot-vscode",
        title: "VS Code Copilot Chat",
        releases: &[AgentRelease {
            version: "31acd00a",
            date: "2026-03-29",
            source: "microsoft/vscode-copilot-chat@31acd00a",
            rules: &COPILOT_VSCODE,
        }],
    },
    Agent {
        id: "cursor",
        title: "Cursor",
        releases: &[AgentRelease {
            version: "2026-01",
            date: "2026-01-06",
            source: "https://cursor.com/blog/dynamic-context-discovery",
            rules: &CURSOR,
        }],
    },
    Agent {
        id: "gemini-cli",
        title: "Gemini CLI",
        releases: &[AgentRelease {
            version: "0.61.0",
            date: "2026-09-24",
            source: "npm @google/gemini-cli@0.61.0",
            rules: &GEMINI_CLI_0_61_0,
        }],
    },
    Agent {
        id: "anthropic-api",
        title: "Anthropic API tool search",
        releases: &[AgentRelease {
            version: "advanced-tool-use-2025-11-20",
            date: "2025-11-20",
            source:
                "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool",
            rules: &ANTHROPIC_API,
        }],
    },
    Agent {
        id: "openai-responses",
        title: "OpenAI Responses tool_search",
        releases: &[AgentRelease {
            version: "2026-12",
            date: "2026-12-01",
            source: "https://developers.openai.com/api/docs/guides/tools-tool-search",
            rules: &OPENAI_RESPONSES,
        }],
    },
];

/// An agent and version as `--agent NAME[@VERSION]` names them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AgentChoice {
    /// Hermes, at the release `--hermes` (or the config) names.
    Hermes,
    /// Another agent at one of its known releases.
    Other {
        /// The agent.
        agent: &'static Agent,
        /// The release.
        release: &'static AgentRelease,
    },
}

/// Why an `--agent` value names no known agent, one line listing the known ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// No agent of that name.
    #[error("unknown agent {0:?}; known: {known}", known = known_agents())]
    UnknownAgent(String),
    /// The agent has no rules for that version.
    #[error("{agent} has no rules for version {version:?}; known: {known}")]
    UnknownVersion {
        /// The agent.
        agent: &'static str,
        /// The version asked for.
        version: String,
        /// Its known versions.
        known: String,
    },
}

fn known_agents() -> String {
    AGENTS.iter().map(|a| a.id).collect::<Vec<_>>().join(", ")
}

impl AgentChoice {
    /// Reads `NAME[@VERSION]`. Hermes's version is returned for the releases table to read.
    pub fn parse(text: &str) -> Result<(AgentChoice, Option<String>), AgentError> {
        let text = text.trim();
        let (name, version) = match text.split_once('@') {
            Some((name, version)) => (name, Some(version.trim())),
            None => (text, None),
        };
        let agent = AGENTS
            .iter()
            .find(|a| a.id.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| AgentError::UnknownAgent(name.to_string()))?;
        if agent.releases.is_empty() {
            return Ok((AgentChoice::Hermes, version.map(str::to_string)));
        }
        let release = match version {
            None => agent.releases.last(),
            Some(v) => agent
                .releases
                .iter()
                .find(|r| r.version == v.trim_start_matches('v')),
        };
        let release = release.ok_or_else(|| AgentError::UnknownVersion {
            agent: agent.id,
            version: version.unwrap_or_default().to_string(),
            known: agent
                .releases
                .iter()
                .map(|r| r.version)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        Ok((AgentChoice::Other { agent, release }, None))
    }

    /// `id@version` (Hermes: `hermes`).
    pub fn label(&self) -> String {
        match self {
            AgentChoice::Hermes => "hermes".to_string(),
            AgentChoice::Other { agent, release } => format!("{}@{}", agent.id, release.version),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_parses_by_id_and_newest_version() {
        for agent in AGENTS {
            let (choice, _) = AgentChoice::parse(agent.id).unwrap();
            if let Some(newest) = agent.releases.last() {
                let (at, _) =
                    AgentChoice::parse(&format!("{}@{}", agent.id, newest.version)).unwrap();
                assert_eq!(choice, at);
            }
        }
    }

    #[test]
    fn hermes_passes_its_version_on() {
        assert_eq!(
            AgentChoice::parse("hermes@0.21.4").unwrap(),
            (AgentChoice::Hermes, Some("0.21.4".to_string()))
        );
    }

    #[test]
    fn unknown_names_and_versions_list_the_known_ones() {
        let e = AgentChoice::parse("claude").unwrap_err().to_string();
        assert!(e.contains("claude-code, codex"), "{e}");
        let e = AgentChoice::parse("codex@0.1").unwrap_err().to_string();
        assert_eq!(e, "codex has no rules for version \"0.1\"; known: 0.171.0");
    }

    #[test]
    fn the_fixed_texts_have_the_lengths_the_packages_show() {
        let chars = |s: &str| s.chars().count();
        assert_eq!(chars(claude_code::TOOL_SEARCH_DEFINITION), 1440);
        assert_eq!(chars(claude_code::DEFERRED_HEADER), 248);
        assert_eq!(chars(codex::TOOL_SEARCH_DEFINITION), 699);
        assert_eq!(
            codex::RESOURCE_TOOLS
                .iter()
                .map(|t| chars(t))
                .sum::<usize>(),
            1871
        );
    }
}
