//! Claude Code's client-side keyword ranking of deferred tools ([`RankingRule::Keywords`]):
//! exact names, `mcp__` prefixes, `select:` lists, `+required` terms, and per-term weights for
//! name parts, the server and tool names, the search hint and the description. Ties keep the
//! pool order, which is the names' `localeCompare` order.

use schematax_releases::agents::{KeywordWeights, RankingRule};

use super::hits::{AgentHit, AgentSearch, MatchKind};
use super::turn::TurnTool;
use crate::nouns::tools::ServerCapture;

/// Whether JavaScript's `\s` matches `c` (its whitespace and line terminators, which differ
/// from Rust's `char::is_whitespace` at U+0085 and U+FEFF).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `text` with each run of JavaScript whitespace made one space, and trimmed, as Claude Code
/// stores a search hint.
fn fold_spaces(text: &str) -> String {
    text.split(is_js_space)
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One pooled tool's searchable texts.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    server: String,
    tool: String,
    /// Server and tool names, lowercased.
    coarse: [String; 2],
    /// Those split on whitespace, `_` and `.`.
    parts: Vec<String>,
    /// The description as the agent describes it, lowercased.
    description: String,
    /// The search hint, lowercased.
    hint: String,
}

/// The keyword ranking's index: the deferred tools in pool order, and the loaded ones
/// (found by exact name only).
#[derive(Debug, Clone)]
pub struct KeywordIndex {
    deferred: Vec<Entry>,
    loaded: Vec<Entry>,
    weights: KeywordWeights,
    query_chars: usize,
    query_terms: usize,
    select_names: usize,
}

/// `text` cut at `max` UTF-16 code units, never inside a pair.
fn cut_units(text: &str, max: usize) -> &str {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            return &text[..at];
        }
    }
    text
}

impl KeywordIndex {
    /// Indexes the pool of a turn (its tools are in pool order).
    pub fn build(
        rule: &RankingRule,
        tools: &[TurnTool],
        captures: &[ServerCapture],
    ) -> Option<Self> {
        let RankingRule::Keywords {
            weights,
            description_chars,
            hint_chars,
            query_chars,
            query_terms,
            select_names,
        } = *rule
        else {
            return None;
        };
        let entry = |t: &TurnTool| {
            let tool = &captures[t.capture].tools[t.index];
            let description = tool.description.as_deref().unwrap_or("");
            let described = if description.encode_utf16().count() > description_chars {
                format!(
                    "{}\u{2026} [truncated]",
                    cut_units(description, description_chars)
                )
            } else {
                description.to_string()
            };
            let coarse = [t.server.to_lowercase(), t.tool.to_lowercase()];
            let parts = coarse
                .iter()
                .flat_map(|c| c.split(|ch: char| is_js_space(ch) || ch == '_' || ch == '.'))
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect();
            Entry {
                name: t.name.clone(),
                server: t.server.clone(),
                tool: t.tool.clone(),
                coarse,
                parts,
                description: described.to_lowercase(),
                hint: cut_units(
                    &fold_spaces(tool.meta.search_hint.as_deref().unwrap_or("")),
                    hint_chars,
                )
                .to_lowercase(),
            }
        };
        Some(KeywordIndex {
            deferred: tools.iter().filter(|t| t.deferred).map(entry).collect(),
            loaded: tools.iter().filter(|t| !t.deferred).map(entry).collect(),
            weights,
            query_chars,
            query_terms,
            select_names,
        })
    }

    /// Ranks the deferred tools for `query`, at most `limit` hits (a `select:` list takes
    /// every name it holds).
    pub fn search(&self, query: &str, limit: usize) -> AgentSearch {
        let cut = cut_units(query, self.query_chars);
        let words: Vec<&str> = cut.split(is_js_space).filter(|w| !w.is_empty()).collect();
        let query_text = if words.len() <= self.query_terms {
            cut.trim_matches(is_js_space).to_string()
        } else {
            words[..self.query_terms].join(" ")
        };
        if let Some(list) = strip_prefix_ignore_case(&query_text, "select:") {
            return self.select(query, list);
        }
        let lower = query_text.to_lowercase();
        let all = || self.deferred.iter().chain(&self.loaded);
        let exact = all()
            .find(|e| e.name == query_text)
            .or_else(|| all().find(|e| e.name.to_lowercase() == lower));
        if let Some(e) = exact {
            return result(query, MatchKind::ExactName, vec![hit(e, None)], false);
        }
        if lower.starts_with("mcp__") && lower.chars().count() > 5 {
            let hits: Vec<AgentHit> = self
                .deferred
                .iter()
                .filter(|e| e.name.to_lowercase().starts_with(&lower))
                .take(limit)
                .map(|e| hit(e, None))
                .collect();
            if !hits.is_empty() {
                return result(query, MatchKind::NamePrefix, hits, false);
            }
        }
        self.rank(query, &lower, limit)
    }

    fn rank(&self, query: &str, lower: &str, limit: usize) -> AgentSearch {
        let terms: Vec<&str> = lower.split(is_js_space).filter(|w| !w.is_empty()).collect();
        let required: Vec<&str> = terms
            .iter()
            .filter(|t| t.starts_with('+') && t.len() > 1)
            .map(|t| &t[1..])
            .collect();
        let scored_terms: Vec<&str> = if required.is_empty() {
            terms.clone()
        } else {
            let rest = terms
                .iter()
                .filter(|t| !(t.starts_with('+') && t.len() > 1));
            required.iter().copied().chain(rest.copied()).collect()
        };
        let mut scored: Vec<(u32, &Entry)> = self
            .deferred
            .iter()
            .filter(|e| required.iter().all(|t| e.holds(t)))
            .map(|e| (self.score(e, &scored_terms), e))
            .filter(|(s, _)| *s > 0)
            .collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        let tied_at_cut =
            scored.len() > limit && limit > 0 && scored[limit - 1].0 == scored[limit].0;
        let hits = scored
            .into_iter()
            .take(limit)
            .map(|(s, e)| hit(e, Some(f64::from(s))))
            .collect();
        let mut found = result(query, MatchKind::Keywords, hits, false);
        found.tied_at_cut = tied_at_cut;
        found
    }

    fn score(&self, e: &Entry, terms: &[&str]) -> u32 {
        let w = &self.weights;
        let mut score = 0;
        for term in terms {
            if e.parts.iter().any(|p| p == term) {
                score += w.part_equal;
            } else if e.parts.iter().any(|p| p.contains(term)) {
                score += w.part_contains;
            }
            if e.coarse.iter().any(|c| c == term) {
                score += w.name_equal;
            } else if e.coarse.iter().any(|c| c.contains(term)) {
                score += w.name_contains;
            }
            if !e.hint.is_empty() && holds_word(&e.hint, term) {
                score += w.hint_word;
            }
            if holds_word(&e.description, term) {
                score += w.description_word;
            }
        }
        score
    }

    fn select(&self, query: &str, list: &str) -> AgentSearch {
        let mut hits: Vec<AgentHit> = Vec::new();
        for wanted in list
            .split(',')
            .take(self.select_names)
            .map(|w| w.trim_matches(is_js_space))
        {
            let exact = self
                .deferred
                .iter()
                .chain(&self.loaded)
                .find(|e| e.name == wanted);
            let found: Vec<&Entry> = match exact {
                Some(e) => vec![e],
                None => self
                    .deferred
                    .iter()
                    .filter(|e| {
                        e.tool == wanted
                            || super::naming::sanitize(
                                schematax_releases::agents::NameChars::AlnumUnderscoreHyphen,
                                &e.tool,
                            ) == wanted
                    })
                    .collect(),
            };
            for e in found {
                if !hits.iter().any(|h| h.name == e.name) {
                    hits.push(hit(e, None));
                }
            }
        }
        result(query, MatchKind::Select, hits, false)
    }
}

impl Entry {
    /// Whether a required term is anywhere the ranking looks.
    fn holds(&self, term: &str) -> bool {
        self.parts.iter().any(|p| p.contains(term))
            || self.coarse.iter().any(|c| c.contains(term))
            || holds_word(&self.description, term)
            || (!self.hint.is_empty() && holds_word(&self.hint, term))
    }
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    let rest = &text[prefix.len()..];
    (head.eq_ignore_ascii_case(prefix) && !rest.is_empty()).then_some(rest)
}

/// JavaScript's `\b` test: an ASCII word character on exactly one side.
fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `text` holds `term` between word boundaries, as `new RegExp("\\b" + term +
/// "\\b")` finds it (every start tried).
pub fn holds_word(text: &str, term: &str) -> bool {
    if term.is_empty() {
        return false;
    }
    let first = term.chars().next();
    let last = term.chars().last();
    let mut from = 0;
    while let Some(found) = text[from..].find(term) {
        let start = from + found;
        let end = start + term.len();
        let before = text[..start].chars().last();
        let after = text[end..].chars().next();
        if is_word(before) != is_word(first) && is_word(last) != is_word(after) {
            return true;
        }
        from = start + text[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

fn hit(e: &Entry, score: Option<f64>) -> AgentHit {
    AgentHit {
        name: e.name.clone(),
        server: e.server.clone(),
        tool: e.tool.clone(),
        score,
    }
}

fn result(query: &str, kind: MatchKind, hits: Vec<AgentHit>, tied_at_cut: bool) -> AgentSearch {
    AgentSearch {
        query: query.to_string(),
        kind,
        hits,
        tied_at_cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_boundaries_follow_javascript() {
        assert!(holds_word("read the file", "file"));
        assert!(!holds_word("read the files", "file"));
        assert!(holds_word("a file_x file", "file"));
        assert!(holds_word("x-ray", "ray"));
        assert!(!holds_word("array", "ray"));
        // A term that ends in a non-word character needs a word character after it.
        assert!(!holds_word("(c++) code", "c++"));
        assert!(holds_word("c++x", "c++"));
    }
}
