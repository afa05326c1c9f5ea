//! The pure engine: Hermes Agent's Tool Search as ENGINE.md (profile `seed`) and
//! ENGINE-2026-09.md (profile `hermes-2026-09`) specify it, with no terminal code.
//!
//! [`profile`] is the one table of what the two profiles do differently; every module below
//! asks it.
//!
//! | spec | module |
//! | --- | --- |
//! | §1 naming, definitions, include/exclude, collisions | [`catalog`] |
//! | §1a-c the schema passes (normalisation, sanitiser) | [`schema`] |
//! | §2 deferral and session scoping | [`catalog`] ([`catalog::Scope`]), [`session`] |
//! | §3 chars and the chars/4 estimate; real tokenizer counts | [`tokens`] |
//! | §4 activation, context length; newer §2 budget, forms, tiers | [`activation`], [`listing`] |
//! | §5 `tools.tool_search` parsing (newer §3) | [`config`], read by [`yaml`] |
//! | §6 search tokens, BM25, admission, limit (newer §4) | [`search`] |
//! | §7 bridge definitions and payloads (newer §5) | [`bridge`] |
//!
//! On top of the engine: [`lint`] (tool description quality and findability), [`eval`]
//! (retrieval evaluation of a queries file) and [`compare`] (both profiles side by side).
//!
//! Reading inputs lives in [`capture_file`] (tool lists) and [`inputs`] (config + captures or
//! the embedded sample).

pub mod activation;
pub mod bridge;
pub mod bridge_texts;
pub mod capture_file;
pub mod catalog;
pub mod compare;
pub mod config;
pub mod error;
pub mod eval;
pub mod inputs;
pub mod lint;
pub mod listing;
pub mod object_text;
pub mod order;
pub mod profile;
pub mod schema;
pub mod search;
pub mod session;
pub mod tokens;
pub mod yaml;
