//! Other agents beside Hermes: one catalog as each agent puts it before the model, by the
//! rules of its row in `schematax_releases::agents`. [`turn`] decides what is deferred and
//! builds every text sent in a turn; [`search`] replays the ranking where it is public
//! ([`keywords`] for Claude Code, [`bm25`] for Codex); [`naming`] and [`namespaces`] are the
//! rules they share; [`settings`] is what the agent reads besides the catalog.

pub mod bm25;
pub mod eval;
pub mod findability;
pub mod hits;
pub mod keywords;
pub mod namespaces;
pub mod naming;
pub mod search;
pub mod settings;
pub mod turn;
