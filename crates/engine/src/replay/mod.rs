//! The replay of Hermes's Tool Search, as each release runs it (the map from ENGINE.md's
//! sections to these modules is in [`crate`]). What each release does is read from its row of
//! the release table (`schematax_releases::PROFILES`).
//!
//! [`catalog`] and [`schema`] make the definitions Hermes sends; [`activation`] and
//! [`listing`] (with [`threshold`]) decide what the model sees, [`search`] ranks the tools, [`bridge`] answers the
//! bridge tools, and [`session`] holds it all together. [`order`] is a shared helper.

pub mod activation;
pub mod bridge;
pub mod catalog;
pub mod listing;
pub mod order;
pub mod schema;
pub mod search;
pub mod session;
pub mod threshold;
