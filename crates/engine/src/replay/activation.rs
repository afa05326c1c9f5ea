//! Activation (ENGINE.md §4, ENGINE-2026-09.md §2): where the context length comes from,
//! whether Tool Search is active (the threshold gate before 0.20.0, "any deferrable tool"
//! from it), the listing's budget, form and tier, what the bridge costs, and the savings.

use crate::nouns::config::{Mode, ModelConfig, ToolSearchSettings};
use crate::nouns::json_text::estimate_tokens;
use crate::replay::bridge;
use crate::replay::listing::{listing_budget, CatalogListing, Listing, ListingForm};
use crate::replay::threshold::threshold_tokens;
use schematax_releases::{GateRule, Profile};

/// Deferrable tokens that activate `auto` mode when the context length is unknown.
pub const UNKNOWN_CONTEXT_MIN_TOKENS: u64 = 20_000;
/// Context length assumed for a configured model id that is not in [`KNOWN_MODELS`].
pub const UNKNOWN_MODEL_CONTEXT: u64 = 256_000;
/// Turns in the "per session" dollar figure.
pub const TURNS_PER_SESSION: u64 = 6;

/// Context windows of well-known model ids (matched after any `provider/` prefix, by the
/// longest prefix, case-insensitively).
pub const KNOWN_MODELS: &[(&str, u64)] = &[
    ("claude-opus-4", 200_000),
    ("claude-sonnet-4", 200_000),
    ("claude-haiku-4", 200_000),
    ("claude-3-7-sonnet", 200_000),
    ("claude-3-5-sonnet", 200_000),
    ("claude-3-5-haiku", 200_000),
    ("claude-3-opus", 200_000),
    ("gpt-5", 400_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    ("gemini-2.5-pro", 1_048_576),
    ("gemini-2.5-flash", 1_048_576),
    ("gemini-2.0-flash", 1_048_576),
    ("grok-4", 256_000),
    ("deepseek-chat", 128_000),
    ("deepseek-r1", 128_000),
    ("deepseek-v3", 128_000),
    ("qwen3-coder", 262_144),
    ("kimi-k2", 131_072),
    ("glm-4.5", 131_072),
    ("llama-3.3-70b", 131_072),
    ("hermes-4", 131_072),
    ("mistral-large", 131_072),
];

/// Looks a model id up in [`KNOWN_MODELS`].
pub fn known_context_length(model_id: &str) -> Option<u64> {
    let id = model_id.trim().to_lowercase();
    let bare = id.rsplit('/').next().unwrap_or(&id);
    KNOWN_MODELS
        .iter()
        .filter(|(prefix, _)| bare.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, tokens)| *tokens)
}

/// Largest context length a user may give (`--context`, the view's prompt).
pub const MAX_CONTEXT: u64 = 1_000_000_000;

/// Why a typed context length was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextLengthError {
    /// Not a count of tokens.
    #[error("{0:?} is not a token count (e.g. 200000, 200K, 1M)")]
    NotACount(String),
    /// Over [`MAX_CONTEXT`].
    #[error("{0:?} is larger than {MAX_CONTEXT} tokens")]
    TooLarge(String),
}

/// Parses a context length as people type it: `200000`, `200K`, `1M` (decimal multiples;
/// `_` and `,` ignored).
pub fn parse_context_length(text: &str) -> Result<u64, ContextLengthError> {
    let clean = text.trim().replace(['_', ','], "");
    let (digits, scale) = match clean.chars().last() {
        Some('k' | 'K') => (&clean[..clean.len() - 1], 1_000),
        Some('m' | 'M') => (&clean[..clean.len() - 1], 1_000_000),
        _ => (clean.as_str(), 1),
    };
    let value: u64 = digits
        .parse()
        .map_err(|_| ContextLengthError::NotACount(text.to_string()))?;
    let tokens = value.checked_mul(scale).filter(|t| *t <= MAX_CONTEXT);
    tokens.ok_or_else(|| ContextLengthError::TooLarge(text.to_string()))
}

/// Where the context length came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContextSource {
    /// `--context`.
    Flag,
    /// Set in the interactive view.
    View,
    /// `model.context_length` in the config.
    Config,
    /// The model id, found in the known-model table.
    ModelTable(String),
    /// A model id not in the table: the 256000 default.
    UnknownModel(String),
    /// No model configured: unknown (0).
    Unknown,
}

impl ContextSource {
    /// A short machine-readable tag: `flag`, `config`, `model_table`, `unknown_model`, `unknown`.
    pub fn tag(&self) -> &'static str {
        match self {
            ContextSource::Flag => "flag",
            ContextSource::View => "view",
            ContextSource::Config => "config",
            ContextSource::ModelTable(_) => "model_table",
            ContextSource::UnknownModel(_) => "unknown_model",
            ContextSource::Unknown => "unknown",
        }
    }
}

/// The context length the gate uses, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextLength {
    /// Tokens; 0 means unknown.
    pub tokens: u64,
    /// Its source.
    pub source: ContextSource,
}

impl ContextLength {
    /// `--context` flag > `model.context_length` > the model table > 256000 for an unknown
    /// model id > unknown (0) when no model is configured.
    pub fn resolve(flag: Option<u64>, model: &ModelConfig) -> ContextLength {
        let (tokens, source) = if let Some(tokens) = flag {
            (tokens, ContextSource::Flag)
        } else if let Some(tokens) = model.context_length {
            (tokens, ContextSource::Config)
        } else if let Some(id) = &model.id {
            match known_context_length(id) {
                Some(tokens) => (tokens, ContextSource::ModelTable(id.clone())),
                None => (
                    UNKNOWN_MODEL_CONTEXT,
                    ContextSource::UnknownModel(id.clone()),
                ),
            }
        } else {
            (0, ContextSource::Unknown)
        };
        ContextLength { tokens, source }
    }
}

/// The seed gate. Equality activates.
pub fn is_active(
    mode: Mode,
    deferrable_tokens: u64,
    context_length: u64,
    threshold_pct: f64,
) -> bool {
    match mode {
        Mode::Off => false,
        _ if deferrable_tokens == 0 => false,
        Mode::On => true,
        Mode::Auto if context_length == 0 => deferrable_tokens >= UNKNOWN_CONTEXT_MIN_TOKENS,
        Mode::Auto => deferrable_tokens >= threshold_tokens(context_length, threshold_pct),
    }
}

/// The catalog listing (releases from 0.20.0) in an active session.
#[derive(Debug, Clone, PartialEq)]
pub struct ListingState {
    /// `max(0, min(listing_max_tokens, floor(context * threshold_pct / 100)))` tokens.
    pub budget: u64,
    /// The listing chosen (form `none` with `listing: off`).
    pub listing: Listing,
}

impl ListingState {
    /// 1 when the listing names tools (full, names, mixed), 2 otherwise.
    pub fn tier(&self) -> u8 {
        self.listing.form.tier()
    }
}

/// The gate's inputs and verdict, and the tool-array cost on either side of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Activation {
    /// The engine profile.
    pub profile: Profile,
    /// auto / on / off.
    pub mode: Mode,
    /// threshold_pct in force.
    pub threshold_pct: f64,
    /// Context length in force.
    pub context: ContextLength,
    /// Deferrable tools in the session's catalog.
    pub deferrable_tools: usize,
    /// Their definitions' characters.
    pub deferrable_chars: u64,
    /// chars/4 of those characters: what the gate sees.
    pub deferrable_tokens: u64,
    /// The seed threshold in tokens (for an unknown context, the fixed 20000); `None` for the
    /// releases from 0.20.0, whose threshold_pct sizes the listing instead.
    pub threshold_tokens: Option<u64>,
    /// Whether Tool Search is on for this session.
    pub active: bool,
    /// The listing (releases from 0.20.0), when active.
    pub listing: Option<ListingState>,
    /// Characters of the bridge definitions (from 0.20.0: only when active).
    pub bridge_chars: u64,
    /// chars/4 of the bridge.
    pub bridge_tokens: u64,
}

impl Activation {
    /// Evaluates activation under `profile` for a catalog of `deferrable_tools` tools
    /// totalling `deferrable_chars`; `listing` is the catalog's listing (releases from 0.20.0).
    pub fn evaluate(
        profile: Profile,
        settings: &ToolSearchSettings,
        context: ContextLength,
        deferrable_tools: usize,
        deferrable_chars: u64,
        listing: &CatalogListing,
    ) -> Activation {
        let deferrable_tokens = estimate_tokens(deferrable_chars);
        let spec = profile.spec();
        let (active, threshold_tokens) = match spec.gate {
            GateRule::Threshold => (
                is_active(
                    settings.enabled,
                    deferrable_tokens,
                    context.tokens,
                    settings.threshold_pct,
                ),
                Some(if context.tokens == 0 {
                    UNKNOWN_CONTEXT_MIN_TOKENS
                } else {
                    threshold_tokens(context.tokens, settings.threshold_pct)
                }),
            ),
            GateRule::AnyDeferrable => {
                (settings.enabled != Mode::Off && deferrable_tools > 0, None)
            }
        };
        let texts = &spec.bridge.texts;
        let (listing, bridge) = match spec.listing {
            None => (None, bridge::texts_chars(texts, deferrable_tools, None)),
            Some(_) if !active => (None, 0),
            Some(_) => {
                let budget = listing_budget(
                    settings.listing_max_tokens,
                    context.tokens,
                    settings.threshold_pct,
                );
                let chosen = match settings.listing {
                    Mode::Off => Listing::none(),
                    Mode::Auto | Mode::On => listing.choose(budget),
                };
                let embedded =
                    (chosen.form != ListingForm::None).then_some((chosen.form, chosen.json_chars));
                let chars = bridge::texts_chars(texts, deferrable_tools, embedded);
                (
                    Some(ListingState {
                        budget,
                        listing: chosen,
                    }),
                    chars,
                )
            }
        };
        Activation {
            profile,
            mode: settings.enabled,
            threshold_pct: settings.threshold_pct,
            context,
            deferrable_tools,
            deferrable_chars,
            deferrable_tokens,
            threshold_tokens,
            active,
            listing,
            bridge_chars: bridge,
            bridge_tokens: estimate_tokens(bridge),
        }
    }

    /// 0 when inactive, else the listing's tier (1 when it names tools, 2 otherwise);
    /// an active seed session is tier 1 (it has no tiers).
    pub fn tier(&self) -> u8 {
        match (&self.listing, self.active) {
            (_, false) => 0,
            (Some(listing), true) => listing.tier(),
            (None, true) => 1,
        }
    }

    /// Tokens of the deferrable part of the tool array without Tool Search.
    pub fn tokens_before(&self) -> u64 {
        self.deferrable_tokens
    }

    /// Tokens of that part as sent: the bridge when active, else unchanged.
    pub fn tokens_after(&self) -> u64 {
        if self.active {
            self.bridge_tokens
        } else {
            self.deferrable_tokens
        }
    }

    /// Percent of `tokens_before` saved (0 when nothing is deferrable; negative when the
    /// bridge and its listing cost more than the schemas they replace).
    pub fn savings_pct(&self) -> f64 {
        let before = self.tokens_before();
        if before == 0 {
            return 0.0;
        }
        (before as f64 - self.tokens_after() as f64) / before as f64 * 100.0
    }

    /// How far the deferrable tokens are from flipping the seed verdict in auto mode:
    /// positive = tokens that can still go before it deactivates (active) or must come before
    /// it activates (inactive). `None` outside the seed's auto mode.
    pub fn tokens_to_flip(&self) -> Option<i64> {
        let threshold = self.threshold_tokens?;
        if self.mode != Mode::Auto {
            return None;
        }
        let need = threshold.max(1) as i64;
        let have = self.deferrable_tokens as i64;
        Some(if self.active {
            have - need + 1
        } else {
            need - have
        })
    }
}

/// Days in the "per month" dollar figure.
pub const DAYS_PER_MONTH: u64 = 30;
/// Turns a day assumed for the "per month" figure unless told otherwise.
pub const DEFAULT_TURNS_PER_DAY: u64 = 100;

/// The price and traffic the dollar figures assume.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Traffic {
    /// Dollars per million input tokens.
    pub price_per_mtok: f64,
    /// Turns a day, for the monthly figure.
    pub turns_per_day: u64,
}

impl Default for Traffic {
    fn default() -> Self {
        Traffic {
            price_per_mtok: 3.0,
            turns_per_day: DEFAULT_TURNS_PER_DAY,
        }
    }
}

/// Dollar figures of a per-turn token count.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Cost {
    /// Dollars for one turn.
    pub per_turn: f64,
    /// Dollars for a session of [`TURNS_PER_SESSION`] turns.
    pub per_session: f64,
    /// Dollars for [`DAYS_PER_MONTH`] days of the traffic's turns.
    pub per_month: f64,
}

impl Cost {
    /// The cost of sending `tokens` every turn.
    pub fn of(tokens: u64, traffic: &Traffic) -> Cost {
        let per_turn = tokens as f64 * traffic.price_per_mtok / 1_000_000.0;
        Cost {
            per_turn,
            per_session: per_turn * TURNS_PER_SESSION as f64,
            per_month: per_turn * (traffic.turns_per_day * DAYS_PER_MONTH) as f64,
        }
    }

    /// `self - other`, figure by figure.
    pub fn minus(&self, other: &Cost) -> Cost {
        Cost {
            per_turn: self.per_turn - other.per_turn,
            per_session: self.per_session - other.per_session,
            per_month: self.per_month - other.per_month,
        }
    }
}

/// Context lengths offered as presets: 8K, 32K, 128K, 200K, 256K, 400K, 1M, 2M (K and M are
/// decimal everywhere, as `--context 8K` reads them).
pub const CONTEXT_PRESETS: [u64; 8] = [
    8_000, 32_000, 128_000, 200_000, 256_000, 400_000, 1_000_000, 2_000_000,
];

/// Up to which context length a tool set activates at a fixed threshold_pct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextLimit {
    /// No known context length activates.
    Never,
    /// Every context length up to and including this one activates.
    UpTo(u64),
    /// Every context length activates (threshold_pct 0).
    Unbounded,
}

/// The exact points where the verdict flips for the current tool set (auto mode).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlipPoints {
    /// The largest threshold_pct (to 0.01) that still activates at the current context;
    /// `None` when even 0 does not (nothing deferrable, or the context is unknown).
    pub max_threshold_pct: Option<f64>,
    /// The largest context length that activates at the current threshold_pct.
    pub max_context_length: ContextLimit,
}

impl FlipPoints {
    /// Finds both points with the gate itself (binary search over a monotonic predicate).
    pub fn find(deferrable_tokens: u64, context_length: u64, threshold_pct: f64) -> FlipPoints {
        let active =
            |context: u64, pct: f64| is_active(Mode::Auto, deferrable_tokens, context, pct);
        let max_threshold_pct = if context_length == 0 || !active(context_length, 0.0) {
            None
        } else {
            // Largest hundredth h in [0, 10000] with active(h / 100).
            let top = last_true(0, 10_000, |h| active(context_length, h as f64 / 100.0));
            Some(top as f64 / 100.0)
        };
        let max_context_length = if deferrable_tokens == 0 {
            ContextLimit::Never
        } else if threshold_pct <= 0.0 {
            ContextLimit::Unbounded
        } else if !active(1, threshold_pct) {
            ContextLimit::Never
        } else {
            // Beyond 100 * (D + 1) / pct no context activates.
            let bound =
                ((deferrable_tokens as f64 + 1.0) * 100.0 / threshold_pct).ceil() as u64 + 2;
            ContextLimit::UpTo(last_true(1, bound, |c| active(c, threshold_pct)))
        };
        FlipPoints {
            max_threshold_pct,
            max_context_length,
        }
    }
}

/// The largest `x` in `[low, high]` with `predicate(x)`, for a predicate true at `low` and
/// monotonically true-then-false.
fn last_true(low: u64, high: u64, predicate: impl Fn(u64) -> bool) -> u64 {
    let (mut good, mut bad) = (low, high + 1);
    if predicate(high) {
        return high;
    }
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if predicate(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}

#[cfg(test)]
mod tests {
    #[test]
    fn context_lengths_as_people_type_them() {
        assert_eq!(parse_context_length("200000"), Ok(200_000));
        assert_eq!(parse_context_length("200K"), Ok(200_000));
        assert_eq!(parse_context_length("1m"), Ok(1_000_000));
        assert_eq!(parse_context_length("128,000"), Ok(128_000));
        assert!(matches!(
            parse_context_length("lots"),
            Err(ContextLengthError::NotACount(_))
        ));
        assert!(parse_context_length("-5").is_err());
        // One meaning of K and M: the presets are what their labels parse to.
        assert_eq!(parse_context_length("8K"), Ok(CONTEXT_PRESETS[0]));
        assert_eq!(parse_context_length("2M"), Ok(CONTEXT_PRESETS[7]));
        assert!(matches!(
            parse_context_length("99999999999999999M"),
            Err(ContextLengthError::TooLarge(_))
        ));
    }

    use super::*;

    #[test]
    fn context_source_precedence() {
        let model = ModelConfig {
            id: Some("anthropic/claude-sonnet-4.5".into()),
            context_length: Some(1000),
        };
        assert_eq!(
            ContextLength::resolve(Some(5), &model).source,
            ContextSource::Flag
        );
        assert_eq!(ContextLength::resolve(None, &model).tokens, 1000);
        let model = ModelConfig {
            id: Some("anthropic/claude-sonnet-4.5".into()),
            context_length: None,
        };
        assert_eq!(ContextLength::resolve(None, &model).tokens, 200_000);
        let model = ModelConfig {
            id: Some("my-local-model".into()),
            context_length: None,
        };
        let resolved = ContextLength::resolve(None, &model);
        assert_eq!(
            (resolved.tokens, resolved.source.tag()),
            (256_000, "unknown_model")
        );
        assert_eq!(
            ContextLength::resolve(None, &ModelConfig::default()).tokens,
            0
        );
    }

    #[test]
    fn longest_prefix_wins() {
        assert_eq!(known_context_length("openai/gpt-4o-mini"), Some(128_000));
        assert_eq!(known_context_length("GPT-4.1-mini"), Some(1_047_576));
        assert_eq!(known_context_length("gpt-3"), None);
    }

    #[test]
    fn bridge_cost() {
        let texts = Profile::seed().spec().bridge.texts;
        assert_eq!(estimate_tokens(bridge::texts_chars(&texts, 5, None)), 378);
    }

    #[test]
    fn flip_points_match_the_gate() {
        // 20182 deferrable tokens at 200K: active up to threshold 10.09 (floor(200000*10.09/100) = 20180).
        let flip = FlipPoints::find(20_182, 200_000, 10.0);
        assert_eq!(flip.max_threshold_pct, Some(10.09));
        assert!(is_active(Mode::Auto, 20_182, 200_000, 10.09));
        assert!(!is_active(Mode::Auto, 20_182, 200_000, 10.1));
        let ContextLimit::UpTo(max_context) = flip.max_context_length else {
            panic!()
        };
        assert!(is_active(Mode::Auto, 20_182, max_context, 10.0));
        assert!(!is_active(Mode::Auto, 20_182, max_context + 1, 10.0));
        assert_eq!(max_context, 201_829);
        assert_eq!(
            FlipPoints::find(5, 100, 0.0).max_context_length,
            ContextLimit::Unbounded
        );
        assert_eq!(
            FlipPoints::find(0, 100, 10.0),
            FlipPoints {
                max_threshold_pct: None,
                max_context_length: ContextLimit::Never
            }
        );
    }

    #[test]
    fn distance_to_flip() {
        let ctx = ContextLength {
            tokens: 200_000,
            source: ContextSource::Flag,
        };
        // 80728 chars -> 20182 tokens; threshold 20000 -> 183 tokens can go before it flips.
        let settings = ToolSearchSettings::defaults(Profile::seed());
        let none = CatalogListing::default();
        let seed =
            |chars| Activation::evaluate(Profile::seed(), &settings, ctx.clone(), 35, chars, &none);
        let a = seed(80_728);
        assert!(a.active);
        assert_eq!(a.tokens_to_flip(), Some(183));
        assert_eq!((a.tier(), a.bridge_tokens), (1, 378));
        let a = seed(79_000);
        assert_eq!(a.tokens_to_flip(), Some(20_000 - 19_750));
        assert_eq!((a.tier(), a.tokens_after()), (0, a.tokens_before()));
    }

    #[test]
    fn the_newer_profile_activates_on_any_deferrable_tool() {
        let ctx = ContextLength {
            tokens: 200_000,
            source: ContextSource::Flag,
        };
        let mut settings =
            ToolSearchSettings::defaults(Profile::from_id("hermes-2026-09").unwrap());
        let groups = CatalogListing::new(vec![crate::replay::listing::ListingGroup::new(
            "s",
            schematax_releases::SentenceEnd::MarkThenSpace,
            [("mcp__s__t", "Does it.")],
        )]);
        let a = Activation::evaluate(
            Profile::from_id("hermes-2026-09").unwrap(),
            &settings,
            ctx.clone(),
            1,
            40,
            &groups,
        );
        assert!(a.active && a.threshold_tokens.is_none());
        let listing = a.listing.as_ref().unwrap();
        assert_eq!(
            (listing.budget, listing.listing.form, a.tier()),
            (4000, ListingForm::Full, 1)
        );
        assert!(
            a.savings_pct() < 0.0,
            "the bridge costs more than one tiny tool"
        );
        settings.listing = Mode::Off;
        let a = Activation::evaluate(
            Profile::from_id("hermes-2026-09").unwrap(),
            &settings,
            ctx.clone(),
            1,
            40,
            &groups,
        );
        assert_eq!(
            (a.tier(), a.listing.unwrap().listing.form),
            (2, ListingForm::None)
        );
        settings.enabled = Mode::Off;
        let a = Activation::evaluate(
            Profile::from_id("hermes-2026-09").unwrap(),
            &settings,
            ctx,
            1,
            40,
            &groups,
        );
        assert_eq!((a.active, a.tier(), a.bridge_chars), (false, 0, 0));
    }
}
