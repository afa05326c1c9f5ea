//! A fuzz suite of every loader: capture files, hermes.yaml configs, queries files and MCP
//! client configs get arbitrary bytes and mutations of real files (bytes flipped, cut,
//! repeated, spliced). Each must return a value or a one-line error, never panic, and a
//! capture that loads must build a session that can be searched and linted.
//!
//! `cargo test` runs a short round; run longer by hand with, for example,
//! `PROPTEST_CASES=20000 cargo test --release --test fuzz_loaders`.

use proptest::prelude::*;
use schematax_engine::analyses::eval::QuerySet;
use schematax_engine::analyses::lint::lint;
use schematax_engine::inputs::capture_file::parse_capture;
use schematax_engine::inputs::client_config::parse_client_config;
use schematax_engine::nouns::config::Config;
use schematax_engine::replay::session::{Overrides, Session};
use schematax_releases::Profile;
use schematax_report::words::Worded;

const CAPTURE: &[u8] = include_bytes!("../../samples/tools/perplexity.json");
const CONFIG: &[u8] = include_bytes!("../../samples/hermes.yaml");
const QUERIES: &[u8] = include_bytes!("../../samples/queries.yaml");
const CLIENT: &[u8] =
    br#"{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "m"], "env": {"K": "v"}},
        "web": {"url": "http://127.0.0.1:1/mcp", "headers": {"A": "b"}, "disabled": false}}}"#;
const CODEX: &[u8] = b"model = \"m\"\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"d\"]\nenabled_tools = [\"a\"]\n[mcp_servers.docs.env]\nK = \"v\"\n[mcp_servers.web]\nurl = \"http://127.0.0.1:1/mcp\"\nbearer_token_env_var = \"T\"\n";

/// One edit of a document.
#[derive(Debug, Clone)]
enum Edit {
    Flip { at: usize, byte: u8 },
    Cut { at: usize, len: usize },
    Repeat { at: usize, len: usize, times: usize },
    Insert { at: usize, text: &'static str },
}

/// Text that often breaks parsers: structure, escapes, YAML markers, huge or odd numbers.
const SPLICES: [&str; 14] = [
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\u0000",
    "&a *a",
    "!!python/object",
    ": ",
    "\n- ",
    "1e400",
    "-.inf",
    "\u{202e}",
    "${HOME}",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Edit::Flip { at, byte }),
        (any::<usize>(), 0usize..64).prop_map(|(at, len)| Edit::Cut { at, len }),
        (any::<usize>(), 1usize..32, 1usize..40).prop_map(|(at, len, times)| Edit::Repeat {
            at,
            len,
            times
        }),
        (any::<usize>(), prop::sample::select(&SPLICES[..]))
            .prop_map(|(at, text)| Edit::Insert { at, text }),
    ]
}

/// `original` with `edits` applied, each at a position taken modulo the current length.
fn mutate(original: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = original.to_vec();
    for edit in edits {
        let len = bytes.len().max(1);
        match *edit {
            Edit::Flip { at, byte } => {
                if !bytes.is_empty() {
                    bytes[at % len] = byte;
                }
            }
            Edit::Cut { at, len: cut } => {
                let start = (at % len).min(bytes.len());
                let end = (start + cut).min(bytes.len());
                bytes.drain(start..end);
            }
            Edit::Repeat {
                at,
                len: span,
                times,
            } => {
                let start = (at % len).min(bytes.len());
                let end = (start + span).min(bytes.len());
                let piece = bytes[start..end].to_vec();
                for _ in 0..times {
                    bytes.splice(end..end, piece.iter().copied());
                }
            }
            Edit::Insert { at, text } => {
                let at = (at % len).min(bytes.len());
                bytes.splice(at..at, text.bytes());
            }
        }
    }
    bytes
}

/// An error printed to the user must be one line.
fn one_line(error: impl std::fmt::Display) -> Result<(), TestCaseError> {
    let text = error.to_string();
    prop_assert!(!text.contains('\n'), "multi-line error: {text:?}");
    prop_assert!(!text.is_empty());
    Ok(())
}

/// Loads a capture; when it loads, builds, searches and lints it under both profiles.
fn load_capture(bytes: &[u8]) -> Result<(), TestCaseError> {
    match parse_capture(bytes, "fuzz") {
        Err(error) => one_line(error)?,
        Ok(capture) => {
            for line in &capture.skipped {
                one_line(line)?;
            }
            for profile in Profile::all() {
                let overrides = Overrides {
                    profile: Some(profile),
                    ..Overrides::default()
                };
                let session = Session::new(
                    &Config::default(),
                    std::slice::from_ref(&capture),
                    &overrides,
                );
                let _ = session.search("search the web for a page", 5);
                let _ = lint(&session).all_details().count();
            }
        }
    }
    Ok(())
}

fn load_config(bytes: &[u8]) -> Result<(), TestCaseError> {
    match Config::parse(bytes) {
        Err(error) => one_line(error),
        Ok(config) => {
            for profile in Profile::all() {
                for warning in config.warnings(profile) {
                    one_line(Worded(&warning))?;
                }
            }
            Ok(())
        }
    }
}

fn load_queries(bytes: &[u8]) -> Result<(), TestCaseError> {
    match QuerySet::parse(bytes) {
        Err(error) => one_line(error),
        Ok(set) => set
            .warnings
            .iter()
            .try_for_each(|warning| one_line(Worded(warning))),
    }
}

/// A client config read as JSON (`mcp.json`) or as Codex's TOML (`config.toml`).
fn load_client_config(bytes: &[u8], file: &str) -> Result<(), TestCaseError> {
    match parse_client_config(bytes, std::path::Path::new(file)) {
        Err(error) => one_line(error),
        Ok(_) => Ok(()),
    }
}

proptest! {
    #[test]
    fn captures_survive_mutation(edits in prop::collection::vec(edit(), 1..6)) {
        load_capture(&mutate(CAPTURE, &edits))?;
    }

    #[test]
    fn configs_survive_mutation(edits in prop::collection::vec(edit(), 1..6)) {
        load_config(&mutate(CONFIG, &edits))?;
    }

    #[test]
    fn queries_survive_mutation(edits in prop::collection::vec(edit(), 1..6)) {
        load_queries(&mutate(QUERIES, &edits))?;
    }

    #[test]
    fn client_configs_survive_mutation(edits in prop::collection::vec(edit(), 1..6)) {
        load_client_config(&mutate(CLIENT, &edits), "mcp.json")?;
        load_client_config(&mutate(CODEX, &edits), "config.toml")?;
    }

    #[test]
    fn every_loader_survives_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        load_capture(&bytes)?;
        load_config(&bytes)?;
        load_queries(&bytes)?;
        load_client_config(&bytes, "mcp.json")?;
        load_client_config(&bytes, "config.toml")?;
    }
}

#[test]
fn the_originals_load() {
    assert!(!parse_capture(CAPTURE, "fuzz").unwrap().tools.is_empty());
    assert!(Config::parse(CONFIG).is_ok());
    assert_eq!(QuerySet::parse(QUERIES).unwrap().queries.len(), 40);
    let servers = |bytes: &[u8], file: &str| {
        parse_client_config(bytes, std::path::Path::new(file))
            .unwrap()
            .servers
            .len()
    };
    assert_eq!(servers(CLIENT, "mcp.json"), 2);
    assert_eq!(servers(CODEX, "config.toml"), 2);
}
