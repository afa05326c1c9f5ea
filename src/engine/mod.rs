//! The pure engine: Hermes Agent's Tool Search as each Hermes release runs it, with no
//! terminal code. ENGINE.md describes the 0.16/0.17 engine (profile `seed`), ENGINE-2026-09.md
//! upstream main of September 2026; where they and a release's code disagree, the release wins
//! (`tests/releases.rs` replays every release against its own code).
//!
//! [`profile`] is the one table of what each release does: a release is a row of
//! [`profile::ProfileSpec`], and every module below asks it rather than naming releases.
//!
//! | spec | module |
//! | --- | --- |
//! | §1 naming, definitions, include/exclude, collisions | [`catalog`] |
//! | §1a-c the schema passes (normalisation, sanitiser) | [`schema`] |
//! | §2 deferral and session scoping | [`catalog`] ([`catalog::Scope`]), [`session`] |
//! | §3 chars and the chars/4 estimate | [`tokens`] |
//! | §4 activation, context length; newer §2 budget, forms, tiers | [`activation`], [`listing`] |
//! | §5 `tools.tool_search` parsing (newer §3) | [`config`], read by [`yaml`] |
//! | §6 search tokens, BM25, admission, limit (newer §4) | [`search`]: its layers `terms`, `index`, `topk`, `maxscore`, `admission` |
//! | §7 bridge definitions and payloads (newer §5); each release's texts | [`bridge`], [`bridge_texts`] |
//!
//! On top of the engine: [`lint`] (tool description quality and findability), [`eval`]
//! (retrieval evaluation of a queries file) and [`compare`] (several releases side by side).
//!
//! Real token counts, in the tokenizer of the configured model, are in [`tokenizer`] (with
//! [`claude`], the Claude generations).
//! [`synthetic`] makes seeded catalogs and queries of any size for the benchmarks.
//!
//! Reading inputs lives in [`capture_file`] (tool lists) and [`inputs`] (config + captures or
//! the embedded sample).

pub mod activation;
pub mod bridge;
pub mod bridge_texts;
pub mod capture_file;
pub mod catalog;
pub mod claude;
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
pub mod synthetic;
pub mod tokenizer;
pub mod tokens;
pub mod yaml;
