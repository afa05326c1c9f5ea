//! The pure engine: Hermes Agent's Tool Search as ENGINE.md specifies it, with no terminal code.
//!
//! | ENGINE.md | module |
//! | --- | --- |
//! | §1 naming, definitions, include/exclude, collisions | [`catalog`] |
//! | §2 deferral and session scoping | [`catalog`] ([`catalog::Scope`]), [`session`] |
//! | §3 chars and the chars/4 estimate; real tokenizer counts | [`tokens`] |
//! | §4 activation gate, context length, bridge cost | [`activation`] |
//! | §5 `tools.tool_search` parsing | [`config`] |
//! | §6 search tokens, BM25, fallback, limit | [`search`] |
//! | §7 bridge payloads | [`bridge`] |
//!
//! On top of the engine: [`lint`] (tool description quality and findability) and [`eval`]
//! (retrieval evaluation of a queries file).
//!
//! Reading inputs lives in [`capture_file`] (tool lists) and [`inputs`] (config + captures or
//! the embedded sample).

pub mod activation;
pub mod bridge;
pub mod capture_file;
pub mod catalog;
pub mod config;
pub mod error;
pub mod eval;
pub mod inputs;
pub mod lint;
pub mod search;
pub mod session;
pub mod tokens;
