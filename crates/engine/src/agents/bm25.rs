//! Codex's ranking of deferred tools ([`RankingRule::Bm25Crate`]): BM25 as the `bm25` crate
//! ranks it (the version Codex embeds; English tokens: deunicode, lowercase, Unicode words,
//! stop words, Snowball stems), over the text Codex's MCP handler builds for each tool, in
//! one corpus with its built-in tools. Codex returns equal scores in no fixed order; here they
//! keep catalog order, and a result says when a tie crosses its cut.

use bm25::{Language, SearchEngine, SearchEngineBuilder};

use schematax_releases::agents::RankingRule;

use super::hits::{AgentHit, AgentSearch, MatchKind};
use super::naming::sanitize;
use super::turn::TurnTool;
use crate::nouns::tools::{McpTool, ServerCapture};

/// The BM25 index of a turn's deferred tools and the agent's built-in tools.
pub struct Bm25Index {
    engine: SearchEngine<usize>,
    /// Per document: name, server, tool (built-ins have no server).
    documents: Vec<(String, String, String)>,
}

impl std::fmt::Debug for Bm25Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bm25Index")
            .field("documents", &self.documents.len())
            .finish()
    }
}

/// The text Codex searches for `tool` of `server`: the namespace and callable name run
/// together, the callable name, the raw tool and server names, the trimmed title,
/// description and server instructions when not empty, then the top-level property names in
/// byte order, joined by single spaces.
pub fn search_text(
    namespace: &str,
    callable: &str,
    server: &str,
    tool: &McpTool,
    instructions: Option<&str>,
) -> String {
    let mut parts = vec![
        format!("{namespace}{callable}"),
        callable.to_string(),
        tool.name.clone(),
        server.to_string(),
    ];
    for text in [
        tool.title.as_deref(),
        tool.description.as_deref(),
        instructions,
    ]
    .into_iter()
    .flatten()
    {
        let text = text.trim();
        if !text.is_empty() {
            parts.push(text.to_string());
        }
    }
    let mut properties: Vec<String> = tool
        .input_schema
        .as_ref()
        .and_then(|s| match s.parse().remove("properties") {
            Some(serde_json::Value::Object(map)) => Some(map.keys().cloned().collect()),
            _ => None,
        })
        .unwrap_or_default();
    properties.sort();
    parts.extend(properties);
    parts.join(" ")
}

impl Bm25Index {
    /// Indexes the deferred tools of a turn beside the rule's built-in texts.
    pub fn build(
        rule: &RankingRule,
        naming_prefix: &str,
        tools: &[TurnTool],
        captures: &[ServerCapture],
    ) -> Option<Self> {
        let RankingRule::Bm25Crate {
            k1,
            b,
            builtin_texts,
        } = *rule
        else {
            return None;
        };
        let chars = schematax_releases::agents::NameChars::AlnumUnderscore;
        let mut texts = Vec::new();
        let mut documents = Vec::new();
        for t in tools.iter().filter(|t| t.deferred) {
            let capture = &captures[t.capture];
            let namespace = format!("{naming_prefix}{}", sanitize(chars, &t.server));
            let callable = sanitize(chars, &t.tool);
            texts.push(search_text(
                &namespace,
                &callable,
                &t.server,
                &capture.tools[t.index],
                capture.instructions.as_deref(),
            ));
            documents.push((t.name.clone(), t.server.clone(), t.tool.clone()));
        }
        for (name, text) in builtin_texts {
            texts.push((*text).to_string());
            documents.push(((*name).to_string(), String::new(), (*name).to_string()));
        }
        let engine = SearchEngineBuilder::<usize>::with_documents(
            Language::English,
            texts
                .into_iter()
                .enumerate()
                .map(|(i, t)| bm25::Document::new(i, t)),
        )
        .k1(k1)
        .b(b)
        .build();
        Some(Bm25Index { engine, documents })
    }

    /// The `limit` best tools for `query`; equal scores in catalog order.
    pub fn search(&self, query: &str, limit: usize) -> AgentSearch {
        let mut found: Vec<(usize, f32)> = self
            .engine
            .search(query, None)
            .into_iter()
            .map(|r| (r.document.id, r.score))
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let tied_at_cut = found.len() > limit && limit > 0 && found[limit - 1].1 == found[limit].1;
        let hits = found
            .into_iter()
            .take(limit)
            .map(|(id, score)| {
                let (name, server, tool) = self.documents[id].clone();
                AgentHit {
                    name,
                    server,
                    tool,
                    score: Some(f64::from(score)),
                }
            })
            .collect();
        AgentSearch {
            query: query.to_string(),
            kind: MatchKind::Bm25,
            hits,
            tied_at_cut,
        }
    }
}
