//! The replay of Hermes's Tool Search, as each release runs it (the map from ENGINE.md's
//! sections to these modules is in [`crate::engine`]).
//!
//! [`profile`] is the one table of what each release does; [`catalog`] and [`schema`] make the
//! definitions Hermes sends, [`tokens`] measures them (chars and the chars/4 estimate) and
//! [`tokenizer`] counts them in the model's own tokens (with [`claude`]); [`activation`] and
//! [`listing`] decide what the model sees, [`search`] ranks the tools, [`bridge`] (with each
//! release's [`bridge_texts`]) answers the bridge tools, and [`session`] holds it all together.
//! [`object_text`] and [`order`] are their shared helpers.

pub mod activation;
pub mod bridge;
pub mod bridge_texts;
pub mod catalog;
pub mod claude;
pub mod listing;
pub mod object_text;
pub mod order;
pub mod profile;
pub mod schema;
pub mod search;
pub mod session;
pub mod tokenizer;
pub mod tokens;
