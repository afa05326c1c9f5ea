//! Engine profiles: which Hermes release the engine replays. A profile is data: this file is
//! the one table of everything the two releases do differently, and each engine module asks
//! the profile what to do (naming, collisions, schema passes, config defaults, the gate, the
//! bridge, search). The code of each rule lives once, in its module.
//!
//! | profile | spec | Hermes |
//! | --- | --- | --- |
//! | [`Profile::Seed`] | ENGINE.md | the engine as it first shipped, May 2026 |
//! | [`Profile::Hermes202609`] | ENGINE-2026-09.md | the reworked engine most users run today |

use std::fmt;

use super::schema::{MultiType, SchemaRules};

/// An engine profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Profile {
    /// ENGINE.md: the first release (threshold gate, BM25 + substring fallback, no listing).
    #[default]
    Seed,
    /// ENGINE-2026-09.md: tiered listing, stemming, the rarest-word gate, exact names.
    Hermes202609,
}

impl Profile {
    /// Both profiles, seed first.
    pub const ALL: [Profile; 2] = [Profile::Seed, Profile::Hermes202609];

    /// The profile's id: `seed` or `hermes-2026-09`.
    pub fn id(self) -> &'static str {
        self.spec().id
    }

    /// Parses an id (case-insensitive; `current` is an alias of the newest profile).
    pub fn from_id(text: &str) -> Option<Profile> {
        let text = text.trim().to_ascii_lowercase();
        if text == "current" {
            return Some(Profile::Hermes202609);
        }
        Profile::ALL.into_iter().find(|p| p.id() == text)
    }

    /// The other profile (for side-by-side views).
    pub fn other(self) -> Profile {
        match self {
            Profile::Seed => Profile::Hermes202609,
            Profile::Hermes202609 => Profile::Seed,
        }
    }

    /// Everything the profile decides.
    pub fn spec(self) -> &'static ProfileSpec {
        match self {
            Profile::Seed => &SEED,
            Profile::Hermes202609 => &HERMES_2026_09,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

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

/// What replaces the deferred tools in the tool array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BridgeRule {
    /// Three fixed definitions measuring `1508 + digits(N)` characters.
    Fixed,
    /// Three definitions whose `tool_search` description embeds the budgeted catalog listing.
    WithListing,
}

/// Which documents a search admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// Any document scoring above 0; when none does, tool names holding the query as a
    /// substring, at a fixed score.
    ScoreAboveZero,
    /// Documents holding the query's rarest token and enough of its other tokens, plus the
    /// tool whose name is the whole query (ranked first).
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
    /// Whether `listing`, `listing_max_tokens` and `defer` mean anything.
    pub listing_keys: bool,
}

/// Everything a profile decides, in one place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProfileSpec {
    /// `seed` or `hermes-2026-09`.
    pub id: &'static str,
    /// One line for people.
    pub title: &'static str,
    /// Between `mcp`, the server and the tool: `mcp_S_T` or `mcp__S__T`.
    pub name_separator: &'static str,
    /// Name collisions.
    pub collisions: CollisionPolicy,
    /// Unicode tag characters (U+E0000..U+E007F) are removed from descriptions, except in a
    /// flag emoji tag sequence.
    pub strip_tag_characters: bool,
    /// The schema passes.
    pub schema: SchemaRules,
    /// Config defaults and keys.
    pub config: ConfigRules,
    /// The activation gate.
    pub gate: GateRule,
    /// The bridge.
    pub bridge: BridgeRule,
    /// The search.
    pub search: SearchRules,
}

/// ENGINE.md: Hermes Tool Search as it first shipped.
pub const SEED: ProfileSpec = ProfileSpec {
    id: "seed",
    title: "Hermes Tool Search as first shipped (May 2026)",
    name_separator: "_",
    collisions: CollisionPolicy::LastWins,
    strip_tag_characters: false,
    schema: SchemaRules {
        keep_parameters_named_definitions: false,
        collapse_const_unions: false,
        arrays_get_items: false,
        multi_type: MultiType::FirstType,
        nullable_follows_type: true,
        walk_literals: true,
        rename_property_keys: false,
        boolean_required: false,
    },
    config: ConfigRules {
        threshold_pct: 10.0,
        max_search_limit: 20,
        search_default_limit: 5,
        listing_max_tokens: None,
        listing_keys: false,
    },
    gate: GateRule::Threshold,
    bridge: BridgeRule::Fixed,
    search: SearchRules {
        stem: false,
        drop_name_prefix: None,
        label_in_text: false,
        admission: Admission::ScoreAboveZero,
    },
};

/// ENGINE-2026-09.md: the reworked engine (September 2026).
pub const HERMES_2026_09: ProfileSpec = ProfileSpec {
    id: "hermes-2026-09",
    title: "Hermes Tool Search after its September 2026 rework",
    name_separator: "__",
    collisions: CollisionPolicy::FirstOwner,
    strip_tag_characters: true,
    schema: SchemaRules {
        keep_parameters_named_definitions: true,
        collapse_const_unions: true,
        arrays_get_items: true,
        multi_type: MultiType::AnyOf,
        nullable_follows_type: false,
        walk_literals: false,
        rename_property_keys: true,
        boolean_required: true,
    },
    config: ConfigRules {
        threshold_pct: 5.0,
        max_search_limit: 25,
        search_default_limit: 5,
        listing_max_tokens: Some((4000, 200, 60_000)),
        listing_keys: true,
    },
    gate: GateRule::AnyDeferrable,
    bridge: BridgeRule::WithListing,
    search: SearchRules {
        stem: true,
        drop_name_prefix: Some("mcp__"),
        label_in_text: true,
        admission: Admission::RarestToken { coverage_from: 4 },
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for profile in Profile::ALL {
            assert_eq!(Profile::from_id(profile.id()), Some(profile));
            assert_eq!(profile.other().other(), profile);
        }
        assert_eq!(Profile::from_id(" SEED "), Some(Profile::Seed));
        assert_eq!(Profile::from_id("current"), Some(Profile::Hermes202609));
        assert_eq!(Profile::from_id("hermes"), None);
        assert_eq!(Profile::default(), Profile::Seed);
    }
}
