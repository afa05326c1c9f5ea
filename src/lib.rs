//! schematax: the schema tax of MCP tool definitions, and how Hermes Agent's Tool Search
//! removes it.
//!
//! - [`engine`]: the pure replay of Hermes's catalog, BM25 search and activation gate.
//! - [`text`]: making untrusted tool text safe for a terminal.
//! - [`capture`]: capturing tool lists from live MCP servers (stdio, Streamable HTTP).
//! - [`report`]: table, JSON and Markdown output of the non-interactive commands.
//! - [`tui`]: the interactive terminal UI over the engine.
//! - [`cli`]: argument parsing and dispatch.

#![warn(missing_docs)]
// A failure is an error value with a message, never a panic (unit tests may unwrap).
#![deny(clippy::unwrap_used)]

pub mod capture;
pub mod cli;
pub mod engine;
pub mod report;
pub mod signals;
pub mod text;
pub mod tui;
