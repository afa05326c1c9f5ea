//! The rarest-word gate (releases from 0.21.3): the query's rarest token every hit must hold and
//! the coverage rule, the search under it, and why a document is or is not admitted.

use crate::replay::search::index::{SearchIndex, HOLDS_GATE};
use crate::replay::search::maxscore::{Split, WalkedTerm, GATED_ADD_UP_FACTOR, SEEN};
use crate::replay::search::result::{Gate, SearchResult, Via};
use crate::replay::search::terms::QueryToken;
use crate::replay::search::terms::{stem_word, Vocabulary};
use crate::replay::search::topk::{top_k, Ranked, TopK};
use schematax_releases::Admission;

/// Why a document is or is not a hit of a query, under the rarest-word gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admitted {
    /// It is admitted.
    Yes,
    /// It lacks the query's rarest word.
    MissingGate {
        /// The word.
        word: String,
    },
    /// It holds too few of the query's answerable words.
    TooFewWords {
        /// Words it holds.
        held: usize,
        /// Words it must hold.
        required: usize,
    },
    /// The query has no search tokens.
    NoTokens,
}

impl SearchIndex {
    /// The query's rarest token, the gate's: the first, in query order, of those held by the
    /// fewest documents (a word no document holds is the rarest of all). `tokens` is not empty.
    pub(super) fn rarest<'t>(&self, tokens: &'t [QueryToken]) -> &'t QueryToken {
        let df = |t: &QueryToken| self.postings(t.term).0.len();
        tokens
            .iter()
            .enumerate()
            .min_by_key(|(i, t)| (df(t), *i))
            .map(|(_, t)| t)
            .expect("a query with tokens")
    }

    /// The rarest-word gate for the query, and the gate's term: its rarest token (the
    /// first of the rarest, in query order) and the coverage rule.
    pub(super) fn gate(
        &self,
        vocabulary: &Vocabulary,
        tokens: &[QueryToken],
        coverage_from: usize,
    ) -> (Gate, Option<u32>) {
        let df = |t: &QueryToken| self.postings(t.term).0.len();
        let rarest = self.rarest(tokens);
        let mut answerable: Vec<u32> = tokens
            .iter()
            .filter(|t| df(t) > 0)
            .filter_map(|t| t.term)
            .collect();
        answerable.sort_unstable();
        answerable.dedup();
        let required = if answerable.len() < coverage_from {
            1
        } else {
            answerable.len().div_ceil(2)
        };
        let token = match rarest.term {
            Some(t) => vocabulary.term(t).to_string(),
            None if vocabulary.stems() => stem_word(&rarest.word),
            None => rarest.word.clone(),
        };
        let gate = Gate {
            word: rarest.word.clone(),
            token,
            document_frequency: df(rarest),
            answerable: answerable.len(),
            required,
        };
        (gate, rarest.term)
    }

    /// Newer profile: documents holding the rarest token and enough answerable tokens, plus the
    /// tool named by the whole query (first, with an infinite score).
    pub(super) fn search_rarest_token(
        &self,
        vocabulary: &Vocabulary,
        query: &str,
        tokens: &[QueryToken],
        limit: usize,
        coverage_from: usize,
    ) -> SearchResult {
        let (gate, gate_term) = self.gate(vocabulary, tokens, coverage_from);
        let exact = self.exact_names(query);
        let best = match self.twins.as_deref() {
            Some(twins) if exact.is_empty() && twins.answer(tokens) => {
                let entries =
                    twins
                        .index
                        .ranked_gated(tokens, limit, gate_term, gate.required, &[]);
                twins.expand(entries, limit)
            }
            _ => self.ranked_gated(tokens, limit, gate_term, gate.required, &exact),
        };
        self.gated_result(best, tokens, &exact, gate)
    }

    /// The result of a search under `gate` that ranked `best` (the `exact` names first, at an
    /// infinite score).
    pub(super) fn gated_result(
        &self,
        best: Vec<Ranked>,
        tokens: &[QueryToken],
        exact: &[u32],
        gate: Gate,
    ) -> SearchResult {
        let via = match best.first() {
            None => Via::None,
            Some(first) if first.score.is_infinite() => Via::Exact,
            Some(_) => Via::Bm25,
        };
        SearchResult {
            via,
            hits: self.hits(best, tokens, exact),
            gate: Some(gate),
        }
    }

    /// The best `limit` documents admitted by the gate (holding `gate_term` and `required` of
    /// the query's terms), after the `exact` names at an infinite score, ranked.
    fn ranked_gated(
        &self,
        tokens: &[QueryToken],
        limit: usize,
        gate_term: Option<u32>,
        required: usize,
        exact: &[u32],
    ) -> Vec<Ranked> {
        let answerable = self.walked_terms(tokens);
        let admitted = |doc: u32, held: usize| !exact.contains(&doc) && held >= required;
        let mut best = TopK::new(limit);
        for &doc in exact {
            best.offer(Ranked {
                score: f64::INFINITY,
                doc,
            });
        }
        let (gate_walk, others): (Vec<WalkedTerm>, Vec<WalkedTerm>) =
            answerable.iter().partition(|t| Some(t.term) == gate_term);
        if gate_term.is_some() && !gate_walk.is_empty() && self.scans_common(&answerable) {
            // Every word common: a scan, the gate's bit required.
            self.scan_common(tokens, &answerable, gate_term, &mut best, admitted);
            best.into_sorted()
        } else if others.is_empty() {
            // The gate is the only word: its documents heaviest first, until the rest cannot
            // get in.
            self.walk(&gate_walk, best, |doc| {
                admitted(doc, 1).then(|| self.score(doc, tokens))
            })
        } else {
            // Every hit holds the gate: its documents are the candidates.
            SEEN.with(|cell| {
                let mut seen = cell.borrow_mut();
                seen.start(self.len());
                let lightest_first: Vec<WalkedTerm> = others.iter().rev().copied().collect();
                let split = Split {
                    essential: &gate_walk,
                    light: &lightest_first,
                    add_up: GATED_ADD_UP_FACTOR,
                };
                self.rank_candidates(tokens, &mut best, &mut seen, split, admitted);
            });
            best.into_sorted()
        }
    }

    /// The best-scoring documents the rarest-word gate does not admit for `query` (up to
    /// `n`), each with why: the tools a person expected and does not see.
    pub fn near_misses(
        &self,
        vocabulary: &Vocabulary,
        query: &str,
        n: usize,
    ) -> Vec<(usize, f64, Admitted)> {
        let Some(Admission::RarestToken { coverage_from }) = self.admission else {
            return Vec::new();
        };
        let tokens = SearchIndex::query_tokens(vocabulary, query);
        if tokens.is_empty() || self.is_empty() || n == 0 {
            return Vec::new();
        }
        let (gate, gate_term) = self.gate(vocabulary, &tokens, coverage_from);
        let exact = self.exact_names(query);
        let terms: Vec<Option<u32>> = tokens.iter().map(|t| t.term).collect();
        let best = self.accumulate(&terms, gate_term.as_slice(), |touched, slots| {
            let rejected = touched.iter().filter(|&&doc| {
                let held = slots[doc as usize].held;
                !exact.contains(&doc)
                    && (held & HOLDS_GATE == 0 || ((held & !HOLDS_GATE) as usize) < gate.required)
            });
            top_k(
                rejected.map(|&doc| Ranked {
                    score: slots[doc as usize].score,
                    doc,
                }),
                n,
            )
            .into_iter()
            .map(|r| {
                let held = slots[r.doc as usize].held;
                let why = if held & HOLDS_GATE == 0 {
                    Admitted::MissingGate {
                        word: gate.word.clone(),
                    }
                } else {
                    Admitted::TooFewWords {
                        held: (held & !HOLDS_GATE) as usize,
                        required: gate.required,
                    }
                };
                (r.doc as usize, r.score, why)
            })
            .collect()
        });
        best
    }

    /// Whether the rarest-word gate admits `doc` for `query`, and if not, why.
    pub fn admission(&self, vocabulary: &Vocabulary, query: &str, doc: usize) -> Admitted {
        let tokens = SearchIndex::query_tokens(vocabulary, query);
        if tokens.is_empty() {
            return Admitted::NoTokens;
        }
        let coverage_from = match self.admission {
            Some(Admission::RarestToken { coverage_from }) => coverage_from,
            _ => usize::MAX,
        };
        if self.exact_names(query).contains(&(doc as u32)) {
            return Admitted::Yes;
        }
        let (gate, gate_term) = self.gate(vocabulary, &tokens, coverage_from);
        let doc = doc as u32;
        if self.weight(gate_term, doc).is_none() {
            return Admitted::MissingGate { word: gate.word };
        }
        let mut held: Vec<u32> = tokens
            .iter()
            .filter_map(|t| t.term)
            .filter(|&t| self.weight(Some(t), doc).is_some())
            .collect();
        held.sort_unstable();
        held.dedup();
        if held.len() < gate.required {
            return Admitted::TooFewWords {
                held: held.len(),
                required: gate.required,
            };
        }
        Admitted::Yes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::search::fixture::index_with;
    use schematax_releases::HERMES_2026_09;

    #[test]
    fn rarest_token_gate_coverage_and_exact_names() {
        let idx = index_with(
            HERMES_2026_09.search,
            &[
                ("mcp__gh__create_issue", "open an issue", &["title"]),
                ("mcp__gh__list_issues", "list the issues", &[]),
                ("mcp__slack__send", "send a message", &[]),
            ],
        );
        let r = idx.search("issues slack", 5);
        let docs: Vec<usize> = r.hits.iter().map(|h| h.doc).collect();
        assert_eq!(
            docs,
            [2],
            "slack is the rarest word and only the slack tool has it"
        );
        assert_eq!(r.gate.as_ref().unwrap().word, "slack");
        let r = idx.search("nonexistent issues", 5);
        assert_eq!((r.via, r.gate.unwrap().document_frequency), (Via::None, 0));
        let r = idx.search("MCP__GH__LIST_ISSUES", 5);
        assert_eq!(r.via, Via::Exact);
        assert!(r.hits[0].score.is_infinite() && r.hits[0].exact_name);
        assert_eq!(r.hits[0].doc, 1);
        let r = idx.search("create open issue title", 5);
        let gate = r.gate.unwrap();
        assert_eq!((gate.answerable, gate.required), (4, 2));
        assert_eq!(r.hits.len(), 1);
        assert_eq!(
            idx.index.admission(&idx.vocabulary, "issues slack", 0),
            Admitted::MissingGate {
                word: "slack".into()
            }
        );
        assert_eq!(
            idx.index
                .admission(&idx.vocabulary, "create open title list", 1),
            Admitted::MissingGate {
                word: "create".into()
            },
            "four words in one document each: the first is the gate"
        );
        assert_eq!(
            idx.index
                .admission(&idx.vocabulary, "list slack send message", 1),
            Admitted::TooFewWords {
                held: 1,
                required: 2
            },
            "list_issues holds the gate (list) but not half of the four words"
        );
        assert_eq!(
            idx.index
                .admission(&idx.vocabulary, "list gh slack send", 1),
            Admitted::Yes
        );
        let misses = idx.index.near_misses(&idx.vocabulary, "issues slack", 5);
        let why: Vec<(usize, Admitted)> = misses.into_iter().map(|(d, _, a)| (d, a)).collect();
        let slack = || Admitted::MissingGate {
            word: "slack".into(),
        };
        assert_eq!(
            why,
            [(1, slack()), (0, slack())],
            "the issue tools score but lack the gate; list_issues (issues twice) ranks first"
        );
    }
}
