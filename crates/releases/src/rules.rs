//! The rule types: every way in which Hermes releases differ, as plain data. A release's row in
//! [`crate::PROFILES`] holds one value of each; the engine reads them and holds the behaviour.

/// Who keeps a tool name that several registrations produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollisionPolicy {
    /// The registry lets a later registration overwrite an earlier one: the last one wins.
    LastWins,
    /// The first server to register a name owns it; a server whose own tools collide with
    /// each other loses all of them.
    FirstOwner,
}

/// What decides whether Tool Search is active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateRule {
    /// `auto` activates when the deferrable schemas reach `threshold_pct` of the context.
    Threshold,
    /// Active (unless `off`) whenever one tool can be deferred; `threshold_pct` sizes the listing.
    AnyDeferrable,
}

/// How a listing's short description of a tool ends its first sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SentenceEnd {
    /// At the first `.`, `!`, `?` or newline; the text keeps a `.` but not the others.
    FirstMark,
    /// At a `.`, `!` or `?` followed by whitespace or the end, except after `e.g`, `i.e`,
    /// `etc`; the mark is kept.
    MarkThenSpace,
}

/// The catalog listing embedded in `tool_search`'s description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingRules {
    /// How a short description is cut.
    pub sentence_end: SentenceEnd,
}

/// Which documents a search admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// Any document scoring above 0; when none does, tool names holding the query as a
    /// substring, at a fixed score.
    ScoreAboveZero,
    /// Documents holding the query's rarest token and enough of its other tokens.
    RarestToken {
        /// Answerable query tokens from which a document must hold a share of them.
        coverage_from: usize,
    },
}

/// How the search sees a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchRules {
    /// Snowball English stemming of every token, query and documents alike.
    pub stem: bool,
    /// A prefix dropped from the name before its words are indexed.
    pub drop_name_prefix: Option<&'static str>,
    /// The server's label joins the search text unless the name already has it as a word.
    pub label_in_text: bool,
    /// The tool whose name is the whole query (trimmed, case-insensitive) ranks first.
    pub exact_name_first: bool,
    /// Which documents are hits.
    pub admission: Admission,
}

/// Defaults and bounds of `tools.tool_search`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConfigRules {
    /// Default `threshold_pct`.
    pub threshold_pct: f64,
    /// Default `max_search_limit` (clamped to [1, 50]).
    pub max_search_limit: i64,
    /// Default `search_default_limit`.
    pub search_default_limit: i64,
    /// Default and bounds of `listing_max_tokens`, when the profile has a listing.
    pub listing_max_tokens: Option<(i64, i64, i64)>,
    /// Whether `listing` and `listing_max_tokens` mean anything.
    pub listing_keys: bool,
    /// Whether `defer` means anything.
    pub defer_key: bool,
    /// The core tools the release defers when `defer` gives no list (sorted); `None` before
    /// the `defer` key.
    pub default_defer: Option<&'static [&'static str]>,
    /// The config loader refuses a mapping with a duplicate key (and Hermes runs on the
    /// defaults).
    pub rejects_duplicate_keys: bool,
}

/// How a server's tools are registered: names, filters, collisions, descriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegistrationRules {
    /// Between `mcp`, the server and the tool: `mcp_S_T` or `mcp__S__T`.
    pub separator: &'static str,
    /// Names longer than this many characters are cut and end in `_` and 8 hex digits of the
    /// full name's SHA-256, to this length.
    pub clamp: Option<usize>,
    /// Name collisions.
    pub collisions: CollisionPolicy,
    /// `tools.include` / `tools.exclude` entries holding `*`, `?` or `[` are shell patterns.
    pub filter_globs: bool,
    /// A `tools.include` given empty registers nothing (before, only a non-empty one was a
    /// whitelist).
    pub empty_include_is_whitelist: bool,
    /// Unicode tag characters (U+E0000..U+E007F) are removed from descriptions, except in a
    /// flag emoji tag sequence.
    pub strip_tag_characters: bool,
}

/// How a `type` array with several non-null types resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiType {
    /// The first non-null type.
    FirstType,
    /// `anyOf` of one schema per type, where `type` was.
    AnyOfInPlace,
    /// `anyOf` of one schema per type, at the end of the mapping (upstream main only).
    AnyOfAtEnd,
}

/// Which values the sanitiser walks as schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SanitiserWalk {
    /// Known schema keywords, and every other mapping or list too, literals included
    /// (`"default": ["x"]` becomes a list of schemas): up to 0.21.0.
    Lenient,
    /// Only schema keywords; everything else is data: 0.21.3 on.
    Keywords,
}

/// What happens to a boolean `required` on a property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BooleanRequired {
    /// Kept as it is.
    Kept,
    /// Dropped wherever it stands; `true` on a property adds its name to the parent's
    /// `required` list, once (0.21.3 on).
    Lifted,
    /// Dropped from properties; `true` appends the name to the parent's list (upstream main).
    Appended,
}

/// Where the releases' schema passes differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaRules {
    /// The registration pass leaves a parameter named `definitions` alone (it renames only the
    /// keyword).
    pub keep_parameters_named_definitions: bool,
    /// `anyOf`/`oneOf` of `const` branches of one primitive type become `{type, enum}`.
    pub collapse_const_unions: bool,
    /// The registration repair walks a schema map (`properties`, `$defs`, ...) by its values
    /// only; before, the map itself was repaired like a schema, so a parameter named
    /// `properties` made the map gain a `type` parameter.
    pub repair_schema_maps_by_values: bool,
    /// The registration repair leaves a mapping alone unless it is the root, has
    /// `properties`, or has a `type` (a `required`-only constraint fragment stays as it is).
    pub leave_constraint_fragments: bool,
    /// An `array` schema without `items` or `prefixItems` gets `"items": {}`.
    pub arrays_get_items: bool,
    /// A `type` array with several non-null types.
    pub multi_type: MultiType,
    /// The sanitiser's walk.
    pub walk: SanitiserWalk,
    /// `dependentRequired` is data to the sanitiser (not a list of schemas).
    pub dependent_required_is_data: bool,
    /// Property names outside `^[a-zA-Z0-9_.-]{1,64}$` are renamed, `required` following.
    pub rename_property_keys: bool,
    /// Boolean `required` flags.
    pub boolean_required: BooleanRequired,
    /// `default` is dropped from every node that has a `$ref`, and never lent to one.
    pub drop_default_beside_ref: bool,
    /// Every object schema has a `required` list, empty when nothing is required.
    pub required_always_list: bool,
}

/// What a release puts between `tool_search`'s description and the catalog listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingFraming {
    /// For a listing that names tools (full or names).
    pub listed: &'static str,
    /// For a listing where some servers are summarised.
    pub mixed: &'static str,
    /// For a listing of server summaries only.
    pub groups: &'static str,
}

/// A release's bridge definitions, byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BridgeTexts {
    /// `tool_search`'s description before any listing; `{count}` is the deferred count.
    pub search_description: &'static str,
    /// The framing of each listing form; `None` for releases without a listing.
    pub framing: Option<ListingFraming>,
    /// `tool_search`, `tool_describe`, `tool_call` as compact JSON, `tool_search`'s
    /// description empty.
    pub definitions: [&'static str; 3],
}

/// How a release takes the bridge's arguments and shapes its answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dispatch {
    /// `tool_search({query, limit})` answers `{query, total_available, matches: [...]}`;
    /// `tool_describe({name})` answers one tool or an error.
    Single {
        /// With no match, the result also names the connected sources and gives this hint.
        no_match_hint: Option<&'static str>,
    },
    /// `tool_search({queries, limit})` answers `{queries, total_available, results, tools}`;
    /// `tool_describe({names})` answers `{tools, not_found}`.
    Batched {
        /// Queries one call takes at most.
        max_queries: usize,
        /// Names one describe takes at most.
        max_names: usize,
        /// The hint a query with no match gets beside the connected sources.
        no_match_hint: &'static str,
    },
}

/// How much of a description a search result carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DescriptionCap {
    /// Characters kept.
    pub chars: usize,
    /// Whether `…` marks a cut.
    pub ellipsis: bool,
}

/// A release's bridge: its definitions and how it dispatches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BridgeProtocol {
    /// The definitions.
    pub texts: BridgeTexts,
    /// Arguments and payload shapes.
    pub dispatch: Dispatch,
    /// The description a search result carries.
    pub description: DescriptionCap,
}
