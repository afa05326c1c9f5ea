//! A search as an agent runs it, where its ranking is public: Claude Code's keywords, Codex's
//! BM25. Other agents rank on a server or with embeddings: searching them is an error that
//! says so.

use schematax_releases::agents::RankingRule;

use super::bm25::Bm25Index;
use super::hits::AgentSearch;
use super::keywords::KeywordIndex;
use super::turn::AgentTurn;
use crate::nouns::tools::ServerCapture;

/// Why an agent's search cannot be replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotReplayable {
    /// The ranking runs on the provider's servers.
    #[error("ranks on the provider's servers, which is not published")]
    ServerSide,
    /// The ranking uses embeddings of a model not available offline.
    #[error("ranks with embeddings of a model that is not available offline")]
    Embeddings,
    /// The agent has no search tool.
    #[error("has no search tool: it reads the tools' files with its own tools")]
    OwnTools,
    /// The agent defers nothing.
    #[error("defers no tool, so nothing is searched")]
    NothingDeferred,
}

/// A turn's deferred tools, indexed for the agent's search.
#[derive(Debug)]
pub enum AgentIndex {
    /// Claude Code's keywords.
    Keywords(KeywordIndex),
    /// Codex's BM25.
    Bm25(Bm25Index),
}

impl AgentIndex {
    /// Indexes what `turn` defers, or says why its search cannot be replayed.
    pub fn build(
        turn: &AgentTurn,
        captures: &[ServerCapture],
    ) -> Result<AgentIndex, NotReplayable> {
        let rules = turn.release.rules;
        let index = match rules.ranking {
            RankingRule::ServerSide => return Err(NotReplayable::ServerSide),
            RankingRule::Embeddings => return Err(NotReplayable::Embeddings),
            RankingRule::OwnTools => return Err(NotReplayable::OwnTools),
            RankingRule::None => return Err(NotReplayable::NothingDeferred),
            rule @ RankingRule::Keywords { .. } => {
                KeywordIndex::build(&rule, &turn.tools, captures).map(AgentIndex::Keywords)
            }
            rule @ RankingRule::Bm25Crate { .. } => {
                Bm25Index::build(&rule, rules.naming.prefix, &turn.tools, captures)
                    .map(AgentIndex::Bm25)
            }
        };
        if !turn.activation.on() {
            return Err(NotReplayable::NothingDeferred);
        }
        index.ok_or(NotReplayable::NothingDeferred)
    }

    /// Runs one query; `limit` defaults to the agent's result count.
    pub fn search(&self, query: &str, limit: usize) -> AgentSearch {
        match self {
            AgentIndex::Keywords(index) => index.search(query, limit),
            AgentIndex::Bm25(index) => index.search(query, limit),
        }
    }
}
