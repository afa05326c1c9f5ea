//! The words for which tokenizer a figure is in, shared by every command, the page, the card
//! and the view.

use schematax_engine::tokenizers::claude::ClaudeTokenizer;
use serde::Serialize;

use schematax_engine::tokenizers::{Tokenizer, TokenizerChoice, TokenizerOrigin};

/// The tokenizer of a report's real counts, as the JSON reports carry it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TokenizerSummary {
    /// Its name: `o200k_base`, `cl100k_base`, `claude-v3`, `claude-v4.7`, `claude-v4.8`, or
    /// `hf:` and the model or folder of a `tokenizer.json`.
    pub name: String,
    /// `given`, `model`, `hf_cache`, `no_model` or `unknown_model`.
    pub source: &'static str,
    /// The model it counts for (null when none is configured or a file was given).
    pub model: Option<String>,
    /// The `tokenizer.json` read, when one was.
    pub path: Option<String>,
    /// Whether it only stands in for the model's own, which is not known.
    pub stand_in: bool,
    /// The choice in words (see [`sentence`]).
    pub detail: String,
}

impl TokenizerSummary {
    /// The summary of a session's choice.
    pub fn of(choice: &TokenizerChoice) -> TokenizerSummary {
        let (source, model) = match &choice.origin {
            TokenizerOrigin::Given => ("given", None),
            TokenizerOrigin::ModelFamily { model } => ("model", Some(model.clone())),
            TokenizerOrigin::HuggingFaceCache { model } => ("hf_cache", Some(model.clone())),
            TokenizerOrigin::NoModel => ("no_model", None),
            TokenizerOrigin::UnknownModel { model } => ("unknown_model", Some(model.clone())),
        };
        let path = match &choice.tokenizer {
            Tokenizer::HuggingFace(path) => Some(path.display().to_string()),
            _ => None,
        };
        TokenizerSummary {
            name: choice.tokenizer.name(),
            source,
            model,
            path,
            stand_in: choice.is_stand_in(),
            detail: sentence(choice),
        }
    }
}

/// Which tokenizer the counts are in and why, as one sentence without a full stop:
/// "claude-v4.7 is the tokenizer of claude-opus-4-7", "o200k_base stands in: no model is
/// configured".
pub fn sentence(choice: &TokenizerChoice) -> String {
    let name = choice.tokenizer.name();
    let path = match &choice.tokenizer {
        Tokenizer::HuggingFace(path) => {
            schematax_engine::text::sanitize(&path.display().to_string()).into_owned()
        }
        _ => String::new(),
    };
    match &choice.origin {
        TokenizerOrigin::Given => format!("{name} is the tokenizer.json given ({path})"),
        TokenizerOrigin::ModelFamily { model } => {
            format!(
                "{name} is the tokenizer of {}{}",
                schematax_engine::text::sanitize(model),
                shared_pieces(&choice.tokenizer)
            )
        }
        TokenizerOrigin::HuggingFaceCache { model } => format!(
            "{name} is the tokenizer of {} from the Hugging Face cache ({path})",
            schematax_engine::text::sanitize(model)
        ),
        TokenizerOrigin::NoModel => format!("{name} stands in: no model is configured"),
        TokenizerOrigin::UnknownModel { model } => format!(
            "{name} stands in: no tokenizer is known for {} (give --tokenizer PATH)",
            schematax_engine::text::sanitize(model)
        ),
    }
}

/// What a generation shares with another, when it does: claude-v4.8 counts with v4.7's
/// pieces in a frame of its own.
fn shared_pieces(tokenizer: &Tokenizer) -> &'static str {
    match tokenizer {
        Tokenizer::Claude(ClaudeTokenizer::V4_8) => {
            " (claude-v4.7's pieces, in a six-token message frame of its own)"
        }
        _ => "",
    }
}

/// Why the tokenizer was chosen, in a few words for a narrow pane: "the model's",
/// "stand-in: no model", "stand-in: unknown model", "file given", "Hugging Face cache".
pub fn short_origin(choice: &TokenizerChoice) -> &'static str {
    match choice.origin {
        TokenizerOrigin::Given => "file given",
        TokenizerOrigin::ModelFamily { .. } => "the model's",
        TokenizerOrigin::HuggingFaceCache { .. } => "Hugging Face cache",
        TokenizerOrigin::NoModel => "stand-in: no model",
        TokenizerOrigin::UnknownModel { .. } => "stand-in: unknown model",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schematax_engine::tokenizers::choose;
    use std::path::Path;

    #[test]
    fn claude_v4_8_says_it_shares_v4_7_s_pieces() {
        let choice = choose(Some("claude-opus-4-8"), None, None);
        assert!(
            sentence(&choice).contains("claude-v4.7's pieces"),
            "{}",
            sentence(&choice)
        );
        let v4_7 = choose(Some("claude-opus-4-7"), None, None);
        assert!(!sentence(&v4_7).contains("pieces"));
    }

    #[test]
    fn every_origin_has_its_words() {
        let cases = [
            (
                choose(Some("claude-opus-4-7"), None, None),
                "claude-v4.7 is the tokenizer of claude-opus-4-7",
            ),
            (
                choose(None, None, None),
                "o200k_base stands in: no model is configured",
            ),
            (
                choose(Some("mystery"), None, None),
                "o200k_base stands in: no tokenizer is known for mystery (give --tokenizer PATH)",
            ),
            (
                choose(None, Some(Path::new("/m/qwen3/tokenizer.json")), None),
                "hf:qwen3 is the tokenizer.json given (/m/qwen3/tokenizer.json)",
            ),
        ];
        for (choice, words) in cases {
            assert_eq!(sentence(&choice), words);
        }
        let summary = TokenizerSummary::of(&choose(Some("gpt-4"), None, None));
        assert_eq!(
            (summary.name.as_str(), summary.source, summary.stand_in),
            ("cl100k_base", "model", false)
        );
    }
}
