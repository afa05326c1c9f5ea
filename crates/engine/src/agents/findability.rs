//! Whether each deferred tool can be found by its own words in an agent's search: its name
//! words and its description's first sentence, run as queries at the agent's result count,
//! as the Hermes lint's findability rules run them in Hermes's search.

use rayon::prelude::*;

use super::search::AgentIndex;
use super::turn::AgentTurn;
use crate::nouns::tools::ServerCapture;
use crate::replay::search::raw_tokens;
use crate::text::first_sentence;

/// Which of a tool's own queries missed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnQuery {
    /// Its name's words (`get_issue` -> `get issue`).
    NameWords,
    /// Its description's first sentence.
    FirstSentence,
}

/// A deferred tool the agent's search does not return for one of its own queries.
#[derive(Debug, Clone, PartialEq)]
pub struct Unfound {
    /// The tool's name before the model.
    pub name: String,
    /// Its server.
    pub server: String,
    /// The query that missed it.
    pub query: OwnQuery,
    /// The query's text.
    pub text: String,
    /// What came instead, best first.
    pub instead: Vec<String>,
}

/// The queries of a tool: its name words, and its description's first sentence.
fn own_queries(tool: &str, description: Option<&str>) -> Vec<(OwnQuery, String)> {
    let mut queries = Vec::new();
    let words: Vec<String> = raw_tokens(tool).map(str::to_ascii_lowercase).collect();
    if !words.is_empty() {
        queries.push((OwnQuery::NameWords, words.join(" ")));
    }
    if let Some(sentence) = description.map(first_sentence) {
        if raw_tokens(sentence).next().is_some() {
            queries.push((OwnQuery::FirstSentence, sentence.to_string()));
        }
    }
    queries
}

/// Every deferred tool's own queries through `index`, at `limit` results: the misses, in
/// pool order.
pub fn unfound(
    turn: &AgentTurn,
    captures: &[ServerCapture],
    index: &AgentIndex,
    limit: usize,
) -> Vec<Unfound> {
    turn.tools
        .par_iter()
        .filter(|t| t.deferred)
        .flat_map_iter(|t| {
            let tool = &captures[t.capture].tools[t.index];
            own_queries(&tool.name, tool.description.as_deref())
                .into_iter()
                .filter_map(|(query, text)| {
                    let found = index.search(&text, limit);
                    if found.hits.iter().any(|h| h.name == t.name) {
                        return None;
                    }
                    Some(Unfound {
                        name: t.name.clone(),
                        server: t.server.clone(),
                        query,
                        text,
                        instead: found.hits.into_iter().map(|h| h.name).collect(),
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect()
}
