//! The nouns the readers and the replay share: a server's captured tools ([`tools`]), a read
//! config and its settings ([`config`]), and how JSON text is written and measured
//! ([`json_text`], [`object_text`]). Nothing here reads a file or runs a rule of a release.

pub mod config;
pub mod json_text;
pub mod object_text;
pub mod tools;
