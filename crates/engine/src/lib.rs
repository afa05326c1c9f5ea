//! The pure engine: Hermes Agent's Tool Search as each Hermes release runs it, with no
//! terminal, command line, network or output format. ENGINE.md describes the 0.16/0.17 engine
//! (profile `seed`), ENGINE-2026-09.md upstream main of September 2026; where they and a
//! release's code disagree, the release wins (the release test replays every release against
//! its own code).
//!
//! - [`nouns`]: what the readers and the replay share (captured tools, a read config and its
//!   settings, JSON text and its measures);
//! - [`inputs`]: reading what Hermes reads (the config, capture files, the embedded sample);
//! - [`replay`]: what Hermes does, asking the release table (`schematax_releases`) for each
//!   rule in which releases differ;
//! - [`tokenizers`]: real token counts in the configured model's tokenizer (no Hermes release
//!   counts with them; the figures beside the chars/4 estimate do);
//! - [`analyses`]: lint, eval and compare, on top of the replay;
//! - [`text`]: numbers and untrusted text made safe to show.
//!
//! None writes sentences: warnings, notes and findings are data, worded in `schematax-report`.
//!
//! | spec | module |
//! | --- | --- |
//! | §1 naming, definitions, include/exclude, collisions | [`replay::catalog`] |
//! | §1a-c the schema passes (normalisation, sanitiser) | [`replay::schema`] |
//! | §2 deferral and session scoping | [`replay::catalog`] ([`replay::catalog::Scope`]), [`replay::session`] |
//! | §3 chars and the chars/4 estimate | [`nouns::json_text`] |
//! | §4 activation, context length; newer §2 budget, forms, tiers | [`replay::activation`], [`replay::listing`] |
//! | §5 `tools.tool_search` parsing (newer §3) | [`inputs::config`], read by [`inputs::yaml`] |
//! | §6 search tokens, BM25, admission, limit (newer §4) | [`replay::search`]: its layers `terms`, `index`, `topk`, `maxscore`, `admission` |
//! | §7 bridge definitions and payloads (newer §5); each release's texts | [`replay::bridge`], `schematax_releases::bridge_texts` |

#![warn(missing_docs)]
// A failure is an error value with a message, never a panic (unit tests may unwrap).
#![deny(clippy::unwrap_used)]

pub mod agents;
pub mod analyses;
pub mod inputs;
pub mod nouns;
pub mod replay;
pub mod text;
pub mod tokenizers;
pub mod yaml;

#[cfg(test)]
mod test_rng {
    //! The unit tests' random inputs.

    /// A tiny deterministic generator for the differential tests.
    pub(crate) struct Lcg(pub(crate) u64);

    impl Lcg {
        /// A number below `n`.
        pub(crate) fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as usize
        }

        /// `least` and up to `spread - 1` more of `words`, each drawn, joined by spaces.
        pub(crate) fn phrase(&mut self, words: &[&str], least: usize, spread: usize) -> String {
            (0..least + self.below(spread))
                .map(|_| words[self.below(words.len())])
                .collect::<Vec<_>>()
                .join(" ")
        }

        /// [`Lcg::phrase`] on a skewed vocabulary: each word drawn from the first few of
        /// `words`, how many drawn anew each time, so the first words are common and the last
        /// ones rare.
        pub(crate) fn skewed_phrase(
            &mut self,
            words: &[&str],
            least: usize,
            spread: usize,
        ) -> String {
            (0..least + self.below(spread))
                .map(|_| {
                    let common_up_to = 1 + self.below(words.len());
                    words[self.below(common_up_to)]
                })
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}
