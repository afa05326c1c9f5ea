//! schematax: the schema tax of MCP tool definitions, and how Hermes Agent's Tool Search
//! removes it. This crate is the binary's command line ([`cli`]): every command's options, and
//! one module per command over the layers below it:
//!
//! - `schematax-releases`: the Hermes release table, as data;
//! - `schematax-engine`: the pure replay of Hermes's catalog, search and activation, its
//!   inputs, tokenizers and analyses;
//! - `schematax-report`: the words and output formats of the commands;
//! - `schematax-capture`: capturing tool lists from live MCP servers, and signals;
//! - `schematax-tui`: the interactive terminal view.

#![warn(missing_docs)]
// A failure is an error value with a message, never a panic (unit tests may unwrap).
#![deny(clippy::unwrap_used)]

pub mod cli;
