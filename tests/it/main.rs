//! The binary's integration tests, one test binary with a module per area: the command line
//! (`cli`, `agents`, `first_hour`, `hostile`, `hostile_tokenizers`, `readme`), capture from
//! live servers (`capture`), the interactive view on ratatui's `TestBackend` (`tui`) and in a
//! real terminal through tmux (`e2e_tmux`), the report page and in headless Chromium
//! (`report_page`, `browser`), the loaders under generated input (`fuzz_loaders`), the crate
//! graph (`architecture`), and the shipped agent packages as the oracle (`agent_packages` for
//! Claude Code, `agent_packages_codex` for Codex's fixed texts). `common` and `chromium` are
//! what several of them share.

mod agent_packages;
mod agent_packages_codex;
mod agents;
mod architecture;
mod browser;
mod capture;
mod chromium;
mod cli;
mod common;
mod e2e_tmux;
mod first_hour;
mod fuzz_loaders;
mod hostile;
mod hostile_tokenizers;
mod readme;
mod report_page;
mod tui;
