//! The activation gate (ENGINE.md §4): where the context length comes from, the threshold in
//! tokens, whether Tool Search is active, what the bridge costs, and the savings.

use std::fmt;

use super::config::{Mode, ModelConfig};
use super::tokens::estimate_tokens;

/// Deferrable tokens that activate `auto` mode when the context length is unknown.
pub const UNKNOWN_CONTEXT_MIN_TOKENS: u64 = 20_000;
/// Context length assumed for a configured model id that is not in [`KNOWN_MODELS`].
pub const UNKNOWN_MODEL_CONTEXT: u64 = 256_000;
/// Characters of the three bridge definitions, before the digits of the deferred-tool count.
pub const BRIDGE_BASE_CHARS: u64 = 1508;
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

/// Where the context length came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContextSource {
    /// `--context` (or a value set in the TUI).
    Flag,
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
            ContextSource::Config => "config",
            ContextSource::ModelTable(_) => "model_table",
            ContextSource::UnknownModel(_) => "unknown_model",
            ContextSource::Unknown => "unknown",
        }
    }
}

impl fmt::Display for ContextSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContextSource::Flag => f.write_str("--context"),
            ContextSource::Config => f.write_str("model.context_length"),
            ContextSource::ModelTable(id) => write!(f, "known model {id}"),
            ContextSource::UnknownModel(id) => write!(f, "default for unknown model {id}"),
            ContextSource::Unknown => f.write_str("no model configured"),
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

/// `floor(context_length * threshold_pct / 100)`, the tokens the deferrable schemas must reach.
pub fn threshold_tokens(context_length: u64, threshold_pct: f64) -> u64 {
    (context_length as f64 * threshold_pct / 100.0).floor() as u64
}

/// The gate. Equality activates.
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

/// Characters of the three bridge definitions for `deferred` deferred tools: `1508 + digits(N)`.
pub fn bridge_chars(deferred: usize) -> u64 {
    BRIDGE_BASE_CHARS + deferred.to_string().len() as u64
}

/// The gate's inputs and verdict, and the tool-array cost on either side of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Activation {
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
    /// The threshold in tokens (for an unknown context, the fixed 20000).
    pub threshold_tokens: u64,
    /// Whether Tool Search is on for this session.
    pub active: bool,
    /// Characters of the bridge definitions for this catalog.
    pub bridge_chars: u64,
    /// chars/4 of the bridge.
    pub bridge_tokens: u64,
}

impl Activation {
    /// Evaluates the gate for a catalog of `deferrable_tools` tools totalling `deferrable_chars`.
    pub fn evaluate(
        mode: Mode,
        threshold_pct: f64,
        context: ContextLength,
        deferrable_tools: usize,
        deferrable_chars: u64,
    ) -> Activation {
        let deferrable_tokens = estimate_tokens(deferrable_chars);
        let bridge = bridge_chars(deferrable_tools);
        Activation {
            active: is_active(mode, deferrable_tokens, context.tokens, threshold_pct),
            threshold_tokens: if context.tokens == 0 {
                UNKNOWN_CONTEXT_MIN_TOKENS
            } else {
                threshold_tokens(context.tokens, threshold_pct)
            },
            mode,
            threshold_pct,
            context,
            deferrable_tools,
            deferrable_chars,
            deferrable_tokens,
            bridge_chars: bridge,
            bridge_tokens: estimate_tokens(bridge),
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

    /// Percent of `tokens_before` saved (0 when nothing is deferrable).
    pub fn savings_pct(&self) -> f64 {
        let before = self.tokens_before();
        if before == 0 {
            return 0.0;
        }
        (before as f64 - self.tokens_after() as f64) / before as f64 * 100.0
    }

    /// How far the deferrable tokens are from flipping the verdict in auto mode: positive =
    /// tokens that can still go before it deactivates (active) or must come before it
    /// activates (inactive). `None` outside auto mode.
    pub fn tokens_to_flip(&self) -> Option<i64> {
        if self.mode != Mode::Auto {
            return None;
        }
        let need = self.threshold_tokens.max(1) as i64;
        let have = self.deferrable_tokens as i64;
        Some(if self.active {
            have - need + 1
        } else {
            need - have
        })
    }
}

/// Dollar figures of a per-turn token count at a price per million input tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Dollars for one turn.
    pub per_turn: f64,
    /// Dollars for a session of [`TURNS_PER_SESSION`] turns.
    pub per_session: f64,
}

impl Cost {
    /// The cost of sending `tokens` every turn at `price_per_mtok` dollars per million tokens.
    pub fn of(tokens: u64, price_per_mtok: f64) -> Cost {
        let per_turn = tokens as f64 * price_per_mtok / 1_000_000.0;
        Cost {
            per_turn,
            per_session: per_turn * TURNS_PER_SESSION as f64,
        }
    }
}

/// Context lengths offered as presets: 8K, 32K, 128K, 200K, 256K, 400K, 1M, 2M.
pub const CONTEXT_PRESETS: [u64; 8] = [
    8_192, 32_768, 128_000, 200_000, 256_000, 400_000, 1_000_000, 2_000_000,
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
        assert_eq!(bridge_chars(5), 1509);
        assert_eq!(bridge_chars(406), 1511);
        assert_eq!(estimate_tokens(bridge_chars(5)), 378);
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
        let a = Activation::evaluate(Mode::Auto, 10.0, ctx.clone(), 35, 80_728);
        assert!(a.active);
        assert_eq!(a.tokens_to_flip(), Some(183));
        let a = Activation::evaluate(Mode::Auto, 10.0, ctx, 35, 79_000);
        assert_eq!(a.tokens_to_flip(), Some(20_000 - 19_750));
    }
}
