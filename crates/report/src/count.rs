//! `schematax count`: one text's size in every measure schematax knows, the quick check a server
//! author makes on one description.

use serde::Serialize;

use crate::table::{Align, Table};
use crate::{thousands, Format};
use schematax_engine::nouns::json_text::{char_count, estimate_tokens};
use schematax_engine::tokenizers::claude::ClaudeTokenizer;
use schematax_engine::tokenizers::Encoding;
use schematax_engine::tokenizers::{LoadedTokenizer, Tokenizer, TokenizerError};

/// A text's counts, keyed by measure: `chars`, `chars/4`, then each tokenizer by name.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CountReport {
    /// Each measure and its count, in the order shown.
    pub counts: Vec<(String, u64)>,
}

impl CountReport {
    /// Counts `text`: characters as Hermes counts them, chars/4, OpenAI's o200k_base and
    /// cl100k_base, each Claude generation (as one user message, its frame included), and the
    /// `tokenizer.json` files of `files` (name and loaded tokenizer).
    pub fn build(
        text: &str,
        files: &[(String, std::sync::Arc<LoadedTokenizer>)],
    ) -> Result<CountReport, TokenizerError> {
        let chars = char_count(text);
        let mut counts = vec![
            ("chars".into(), chars),
            ("chars/4".into(), estimate_tokens(chars)),
        ];
        for encoding in [Encoding::O200k, Encoding::Cl100k] {
            let tokenizer = LoadedTokenizer::load(&Tokenizer::Tiktoken(encoding))?;
            counts.push((encoding.name().to_string(), tokenizer.count(text)?));
        }
        counts.extend(
            ClaudeTokenizer::ALL
                .iter()
                .map(|claude| (claude.name().to_string(), claude.count(text))),
        );
        for (name, tokenizer) in files {
            counts.push((name.clone(), tokenizer.count(text)?));
        }
        Ok(CountReport { counts })
    }

    /// Renders as a table, JSON (an object keyed by measure) or Markdown.
    pub fn render(&self, format: Format) -> String {
        let mut table = Table::new(&[("measure", Align::Left), ("count", Align::Right)]);
        for (measure, count) in &self.counts {
            table.row([measure.clone(), thousands(*count)]);
        }
        match format {
            Format::Json => {
                let object: serde_json::Map<String, serde_json::Value> = self
                    .counts
                    .iter()
                    .map(|(measure, count)| (measure.clone(), (*count).into()))
                    .collect();
                super::to_json(&object)
            }
            Format::Table => format!("{}\n{}\n", table.to_text(), claude_note()),
            Format::Markdown => format!("{}\n{}.\n", table.to_markdown(), claude_note()),
        }
    }
}

/// What a Claude count is: one user message, its frame included.
fn claude_note() -> String {
    let frames: Vec<String> = ClaudeTokenizer::ALL
        .iter()
        .map(|c| format!("{} {}", c.name(), c.frame_tokens()))
        .collect();
    format!(
        "(claude: the text as one user message, as count_tokens answers, frame included: {})",
        frames.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_measure_of_a_text() {
        let report = CountReport::build("Take a screenshot of the page or element.", &[]).unwrap();
        let get = |name: &str| {
            report
                .counts
                .iter()
                .find(|(measure, _)| measure == name)
                .map(|(_, count)| *count)
        };
        assert_eq!(get("chars"), Some(41));
        assert_eq!(get("chars/4"), Some(11), "chars/4 rounds up");
        assert_eq!(get("o200k_base"), Some(9));
        let json: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
        assert_eq!(json["cl100k_base"], 9);
        assert_eq!(json["claude-v3"], 16, "as ctok counts it");
        assert_eq!(json["claude-v4.7"], 24);
    }
}
