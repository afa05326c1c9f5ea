//! What a search of an agent returns: its hits, and how the query was answered.

/// One tool a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentHit {
    /// The name the model sees.
    pub name: String,
    /// The server key (empty for an agent's built-in tool).
    pub server: String,
    /// The raw tool name.
    pub tool: String,
    /// Its score, when the ranking scored it (an exact name or a `select:` list does not).
    pub score: Option<f64>,
}

/// How a query was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchKind {
    /// Keyword scores.
    Keywords,
    /// The query is a tool's exact name.
    ExactName,
    /// The query is the start of full names (`mcp__server`).
    NamePrefix,
    /// A `select:a,b` list of names.
    Select,
    /// BM25 scores.
    Bm25,
}

/// What one search returned.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentSearch {
    /// The query.
    pub query: String,
    /// How it was answered.
    pub kind: MatchKind,
    /// The hits, best first.
    pub hits: Vec<AgentHit>,
    /// A tool scored as the last hit was left out: the agent may return either.
    pub tied_at_cut: bool,
}
