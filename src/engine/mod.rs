//! The pure engine: Hermes Agent's Tool Search as each Hermes release runs it, with no
//! terminal code. ENGINE.md describes the 0.16/0.17 engine (profile `seed`), ENGINE-2026-09.md
//! upstream main of September 2026; where they and a release's code disagree, the release wins
//! (`tests/releases.rs` replays every release against its own code).
//!
//! Three groups, each a folder: [`replay`] (what Hermes does), [`inputs`] (reading what it
//! reads) and [`analyses`] (lint, eval and compare, on top of the replay). None writes
//! sentences: warnings, notes and findings are data, worded in `report`.
//!
//! [`replay::profile`] is the one table of what each release does: a release is a row of
//! [`replay::profile::ProfileSpec`], and every module asks it rather than naming releases.
//!
//! | spec | module |
//! | --- | --- |
//! | §1 naming, definitions, include/exclude, collisions | [`replay::catalog`] |
//! | §1a-c the schema passes (normalisation, sanitiser) | [`replay::schema`] |
//! | §2 deferral and session scoping | [`replay::catalog`] ([`replay::catalog::Scope`]), [`replay::session`] |
//! | §3 chars and the chars/4 estimate | [`replay::tokens`] |
//! | §4 activation, context length; newer §2 budget, forms, tiers | [`replay::activation`], [`replay::listing`] |
//! | §5 `tools.tool_search` parsing (newer §3) | [`inputs::config`], read by [`inputs::yaml`] |
//! | §6 search tokens, BM25, admission, limit (newer §4) | [`replay::search`]: its layers `terms`, `index`, `topk`, `maxscore`, `admission` |
//! | §7 bridge definitions and payloads (newer §5); each release's texts | [`replay::bridge`], [`replay::bridge_texts`] |
//!
//! Real token counts, in the tokenizer of the configured model, are in [`replay::tokenizer`]
//! (with [`replay::claude`], the Claude generations).

pub mod analyses;
pub mod inputs;
pub mod replay;
