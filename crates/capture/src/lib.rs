//! `schematax capture`: connect to MCP servers (stdio or Streamable HTTP), ask for their tools,
//! and save what they answer as capture files, atomically, saying what changed.
//!
//! Env and header values are secrets: they reach the server and nothing else. They are never
//! printed, logged or written into a capture, and are masked in the server's stderr log.
//!
//! Servers and half-written files are registered in [`cleanup`], so that a capture ended by a
//! signal leaves neither behind ([`cleanup::abort`]).
//!
//! [`signals`] turns SIGINT, SIGTERM and SIGHUP (and the view's SIGTSTP) into events, for
//! capture and the view alike.

#![warn(missing_docs)]
// A failure is an error value with a message, never a panic (unit tests may unwrap).
#![deny(clippy::unwrap_used)]

pub mod cleanup;
pub mod error;
pub mod http;
pub mod limits;
pub mod protocol;
pub mod redact;
pub mod signals;
pub mod stdio;

pub use error::CaptureError;
pub use redact::Redactor;

use serde_json::json;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use protocol::{list_tools, Listing};
use schematax_engine::inputs::capture_file::parse_capture;
use schematax_engine::inputs::client_config::ClientConfig;
use schematax_engine::nouns::config::{Config, Transport};
use schematax_engine::nouns::json_text::estimate_tokens;
use schematax_engine::nouns::tools::McpTool;
use schematax_engine::replay::catalog::definition_chars;
use schematax_releases::Profile;

/// One server to capture.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerSpec {
    /// The server key; names the capture file.
    pub name: String,
    /// How to reach it (values may hold `${VAR}`).
    pub transport: Transport,
    /// The working directory of a stdio server (a client config's `cwd`); else schematax's.
    pub cwd: Option<PathBuf>,
    /// Values to mask besides its env and header values: those `${VAR}` filled in the config
    /// it came from (an argument or a URL may carry a key).
    pub secrets: Vec<String>,
}

/// Fills `${VAR}` and `${env:VAR}` from the environment; unset variables become empty and
/// are named in the second value.
pub fn expand_vars(value: &str) -> (String, Vec<String>) {
    expand_vars_with(value, |name| std::env::var(name).ok())
}

/// The values `${VAR}` fills in `value`: secrets wherever they are used (an argument, a URL).
fn expanded_values(value: &str) -> Vec<String> {
    let found = std::cell::RefCell::new(Vec::new());
    expand_vars_with(value, |name| {
        let value = std::env::var(name).ok();
        found.borrow_mut().extend(value.clone());
        value
    });
    found.into_inner()
}

/// [`expand_vars`] with the variables looked up by `lookup`.
fn expand_vars_with(value: &str, lookup: impl Fn(&str) -> Option<String>) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut missing = Vec::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        let name = after[..end].strip_prefix("env:").unwrap_or(&after[..end]);
        match lookup(name) {
            Some(found) => out.push_str(&found),
            None => missing.push(name.to_string()),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    (out, missing)
}

/// A server a config or a client config names, and whether it is enabled there.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedServer {
    /// How to capture it.
    pub spec: ServerSpec,
    /// Not switched off (`enabled: false`, `disabled: true`).
    pub enabled: bool,
}

/// Every server of a config's `mcp_servers`, in its order.
pub fn config_servers(config: &Config) -> Vec<NamedServer> {
    config
        .mcp_servers
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(|s| NamedServer {
            spec: ServerSpec {
                name: s.name.clone(),
                transport: s.transport.clone(),
                cwd: None,
                secrets: config.substituted.clone(),
            },
            enabled: s.enabled,
        })
        .collect()
}

/// Every server of an MCP client config (Claude, Cursor, VS Code, Codex, Gemini CLI; see
/// [`schematax_engine::inputs::client_config`]), in its order, each with whether the client
/// would connect it.
pub fn client_config_servers(config: &ClientConfig) -> Vec<NamedServer> {
    config
        .servers
        .iter()
        .map(|s| NamedServer {
            spec: ServerSpec {
                name: s.name.clone(),
                transport: s.transport.clone(),
                cwd: s.cwd.clone(),
                secrets: Vec::new(),
            },
            enabled: s.enabled,
        })
        .collect()
}

/// The servers to capture: every enabled one, or the `only` ones, enabled or not. A name of
/// `only` that none of `servers` has is for the caller to report (as [`specs_from_config`]
/// does).
pub fn choose_servers(servers: Vec<NamedServer>, only: &[String]) -> Vec<ServerSpec> {
    servers
        .into_iter()
        .filter(|s| {
            if only.is_empty() {
                s.enabled
            } else {
                only.contains(&s.spec.name)
            }
        })
        .map(|s| s.spec)
        .collect()
}

/// The servers of a config to capture: every enabled one, or the `only` ones (which must exist).
pub fn specs_from_config(
    config: &Config,
    only: &[String],
) -> Result<Vec<ServerSpec>, CaptureError> {
    let servers = config_servers(config);
    if let Some(name) = only
        .iter()
        .find(|name| !servers.iter().any(|s| &s.spec.name == *name))
    {
        return Err(CaptureError::NoSuchServer { name: name.clone() });
    }
    Ok(choose_servers(servers, only))
}

/// What changed against the previous capture of a server.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// No earlier capture.
    New,
    /// The same tools, defined the same.
    Unchanged,
    /// Tools added, removed or changed, and the chars/4 token delta.
    Changed {
        /// Raw names of new tools.
        added: Vec<String>,
        /// Raw names of tools gone.
        removed: Vec<String>,
        /// Raw names of tools whose definition changed.
        changed: Vec<String>,
        /// chars/4 tokens after minus before.
        token_delta: i64,
    },
}

/// A server captured and saved.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    /// The server.
    pub server: String,
    /// The capture file written.
    pub path: PathBuf,
    /// Tools captured.
    pub tools: usize,
    /// chars/4 tokens of their definitions.
    pub tokens: u64,
    /// Against the previous capture.
    pub change: Change,
    /// Notes (unknown protocol version, skipped stdout lines, unset variables).
    pub notes: Vec<String>,
}

impl Saved {
    /// One line for the terminal.
    pub fn summary(&self) -> String {
        let change = match &self.change {
            Change::New => "new".to_string(),
            Change::Unchanged => "unchanged".to_string(),
            Change::Changed {
                added,
                removed,
                changed,
                token_delta,
            } => {
                let mut parts = Vec::new();
                let list = |names: &[String]| {
                    let shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
                    format!(
                        "{}{}",
                        shown.join(", "),
                        if names.len() > 5 { ", ..." } else { "" }
                    )
                };
                if !added.is_empty() {
                    parts.push(format!("+{} added ({})", added.len(), list(added)));
                }
                if !removed.is_empty() {
                    parts.push(format!("-{} removed ({})", removed.len(), list(removed)));
                }
                if !changed.is_empty() {
                    parts.push(format!("{} changed ({})", changed.len(), list(changed)));
                }
                parts.push(format!("{token_delta:+} tokens"));
                parts.join(", ")
            }
        };
        format!(
            "{}: {} tool{}, {} tokens (chars/4) -> {} [{change}]",
            self.server,
            self.tools,
            if self.tools == 1 { "" } else { "s" },
            schematax_engine::text::thousands(self.tokens),
            self.path.display()
        )
    }
}

/// The file name of a server's capture: its key with path-hostile characters replaced.
pub fn capture_file_name(server: &str) -> String {
    let safe: String = server
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    format!("{}.json", if safe.is_empty() { "server" } else { safe })
}

/// Connects to one server, lists its tools and saves them in `out_dir`.
pub fn capture_server(
    spec: &ServerSpec,
    timeout: Duration,
    out_dir: &Path,
) -> Result<Saved, CaptureError> {
    let mut notes = Vec::new();
    let mut expand = |pairs: &[(String, String)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| {
                let (value, missing) = expand_vars(v);
                notes.extend(
                    missing
                        .into_iter()
                        .map(|m| format!("${{{m}}} in {k} is not set")),
                );
                (k.clone(), value)
            })
            .collect()
    };
    let listing: (Listing, Redactor) = match &spec.transport {
        Transport::Stdio { command, args, env } => {
            let env = expand(env);
            let from_vars = std::iter::once(command)
                .chain(args)
                .flat_map(|a| expanded_values(a));
            let redactor = Redactor::new(
                env.iter()
                    .map(|(_, v)| v.clone())
                    .chain(from_vars)
                    .chain(spec.secrets.iter().cloned()),
            );
            let args: Vec<String> = args.iter().map(|a| expand_vars(a).0).collect();
            let log = out_dir.join(format!(
                "{}.stderr.log",
                capture_file_name(&spec.name)
                    .strip_suffix(".json")
                    .unwrap_or_default()
            ));
            stdio::check_log_path(&log)?;
            let cwd = spec.cwd.as_ref().map(|cwd| {
                let (cwd, missing) = expand_vars(&cwd.to_string_lossy());
                notes.extend(
                    missing
                        .into_iter()
                        .map(|m| format!("${{{m}}} in cwd is not set")),
                );
                PathBuf::from(cwd)
            });
            let mut connection = stdio::StdioConnection::spawn(
                &expand_vars(command).0,
                &args,
                &env,
                cwd.as_deref(),
                Some(&log),
                &redactor,
            )?;
            (list_tools(&mut connection, timeout, &redactor)?, redactor)
        }
        Transport::Http { url, headers } => {
            let headers = expand(headers);
            let redactor = Redactor::new(
                headers
                    .iter()
                    .map(|(_, v)| v.clone())
                    .chain(expanded_values(url))
                    .chain(spec.secrets.iter().cloned()),
            );
            let mut connection =
                http::HttpConnection::new(&expand_vars(url).0, headers, timeout, &redactor)?;
            (list_tools(&mut connection, timeout, &redactor)?, redactor)
        }
        Transport::Unspecified => return Err(CaptureError::NoTransport),
    };
    let (mut listing, redactor) = listing;
    notes.extend(mask_listing(&mut listing, &redactor));
    save(spec, listing, out_dir, notes)
}

/// Masks the secrets in a server's instructions, then cuts them to
/// [`limits::MAX_INSTRUCTIONS_BYTES`] (after, so that no part of a secret across the cut is
/// kept): whether a secret was masked, and the note of a cut.
fn mask_instructions(text: &mut String, redactor: &Redactor) -> (bool, Option<String>) {
    let masked = redactor.holds(text);
    if masked {
        *text = redactor.redact(text);
    }
    let cut = limits::cut_instructions(text).map(|sent| {
        format!(
            "the server's instructions are {}: cut to the first {} kept in the capture",
            schematax_engine::text::human_bytes(sent as u64),
            schematax_engine::text::human_bytes(limits::MAX_INSTRUCTIONS_BYTES as u64)
        )
    });
    (masked, cut)
}

/// Masks every configured secret the server echoed, so it is not written into the file, and
/// keeps apart the names that masking made equal; returns the notes that say so.
fn mask_listing(listing: &mut Listing, redactor: &Redactor) -> Vec<String> {
    let mut notes = Vec::new();
    listing.protocol_version = redactor.redact(&listing.protocol_version);
    notes.extend(listing.notes.iter().map(|note| redactor.redact(note)));
    let name_of = |tool: &serde_json::Value| {
        tool.get("name")
            .and_then(serde_json::Value::as_str)
            .map(str::to_string)
    };
    let masked_name: Vec<bool> = listing
        .tools
        .iter()
        .map(|tool| name_of(tool).is_some_and(|name| redactor.holds(&name)))
        .collect();
    let mut strings = 0;
    if let Some(text) = listing.instructions.as_mut() {
        let (masked, cut) = mask_instructions(text, redactor);
        strings += usize::from(masked);
        notes.extend(cut);
    }
    let mut said = |place: String, masked: redact::Masked| {
        strings += masked.strings;
        notes.extend(masked.renamed.into_iter().map(|(name, kept)| {
            format!("{place}: key {name} equals another key once masked; kept as {kept}")
        }));
    };
    said(
        "serverInfo".to_string(),
        redactor.redact_json(&mut listing.server_info),
    );
    for tool in &mut listing.tools {
        let masked = redactor.redact_json(tool);
        said(
            format!("tool {}", name_of(tool).unwrap_or_default()),
            masked,
        );
    }
    // Tool names: a masked one that equals another tool's name gets a name of its own.
    let mut taken: HashSet<String> = listing
        .tools
        .iter()
        .zip(&masked_name)
        .filter(|(_, masked)| !**masked)
        .filter_map(|(tool, _)| name_of(tool))
        .collect();
    for (tool, _) in listing
        .tools
        .iter_mut()
        .zip(&masked_name)
        .filter(|(_, m)| **m)
    {
        let name = name_of(tool).unwrap_or_default();
        let kept = redact::unique_name(&name, &taken);
        if kept != name {
            notes.push(format!(
                "tool {name} equals another tool's name once masked; kept as {kept}"
            ));
            tool["name"] = serde_json::Value::String(kept.clone());
        }
        taken.insert(kept);
    }
    if strings > 0 {
        notes.push(format!(
            "{strings} string(s) the server sent held a configured env or header value; masked as ***"
        ));
    }
    notes
}

/// Writes the capture file atomically (see [`cleanup::Registry::write_atomically`]) and
/// compares it with the previous one.
fn save(
    spec: &ServerSpec,
    listing: Listing,
    out_dir: &Path,
    notes: Vec<String>,
) -> Result<Saved, CaptureError> {
    let path = out_dir.join(capture_file_name(&spec.name));
    let mut document = json!({
        "server": spec.name,
        "serverInfo": listing.server_info,
        "protocolVersion": listing.protocol_version,
        "capturedAt": schematax_engine::text::utc_timestamp(std::time::SystemTime::now()),
    });
    if let Some(instructions) = listing.instructions {
        document["instructions"] = serde_json::Value::String(instructions);
    }
    // Moved, not copied: the tools are the bulk of what a capture holds.
    document["tools"] = serde_json::Value::Array(listing.tools);
    // Indented to be read and diffed; compact when that would pass the size every loader
    // accepts, and refused when even that would.
    let mut text = format!("{document:#}\n");
    if text.len() as u64 > limits::MAX_CAPTURE_BYTES {
        text = format!("{document}\n");
    }
    drop(document);
    if text.len() as u64 > limits::MAX_CAPTURE_BYTES {
        return Err(CaptureError::CaptureTooLarge);
    }
    let new = parse_capture(text.as_bytes(), &spec.name)
        .map_err(|reason| CaptureError::Unusable { reason })?;
    let previous = std::fs::read(&path)
        .ok()
        .and_then(|bytes| parse_capture(&bytes, &spec.name).ok());
    let change = match &previous {
        None => Change::New,
        Some(old) => compare(&spec.name, &old.tools, &new.tools),
    };
    // An unchanged capture of the same server version keeps its file as it was (its
    // capturedAt says when that list was first seen): nothing reported unchanged is rewritten.
    let kept = previous.as_ref().is_some_and(|old| {
        old.server == new.server
            && old.tools == new.tools
            && old.server_info == new.server_info
            && old.protocol_version == new.protocol_version
            && old.instructions == new.instructions
    });
    // The folder is made only when there is a capture to put in it.
    std::fs::create_dir_all(out_dir).map_err(|e| CaptureError::Write {
        path: out_dir.to_path_buf(),
        reason: schematax_engine::inputs::error::one_line(&e.to_string()),
    })?;
    if !kept {
        cleanup::registry().write_atomically(&path, text.as_bytes())?;
    }
    let chars: u64 = new
        .tools
        .iter()
        .map(|t| definition_chars(Profile::default(), &spec.name, t))
        .sum();
    let mut notes = notes;
    if let Some(old) = &previous {
        notes.extend(instructions_change(&old.instructions, &new.instructions));
    }
    notes.extend(new.skipped.iter().map(ToString::to_string));
    Ok(Saved {
        server: spec.name.clone(),
        path,
        tools: new.tools.len(),
        tokens: estimate_tokens(chars),
        change,
        notes,
    })
}

/// A note when a server's instructions differ from its previous capture's: the tools'
/// changes do not show it, and agents send them to the model.
fn instructions_change(old: &Option<String>, new: &Option<String>) -> Option<String> {
    match (old, new) {
        (Some(old), Some(new)) if old != new => Some("the server's instructions changed".into()),
        (None, Some(_)) => Some("the server's instructions are new in this capture".into()),
        (Some(_), None) => Some("the server gives no instructions any more".into()),
        _ => None,
    }
}

/// Tools added, removed and changed between two captures of `server`.
pub fn compare(server: &str, old: &[McpTool], new: &[McpTool]) -> Change {
    let index = |tools: &[McpTool]| -> BTreeMap<String, String> {
        tools
            .iter()
            .map(|t| {
                (
                    t.name.clone(),
                    schematax_engine::replay::catalog::ToolEntry::new(
                        Profile::default(),
                        server,
                        t,
                    )
                    .definition(),
                )
            })
            .collect()
    };
    let (before, after) = (index(old), index(new));
    let added: Vec<String> = after
        .keys()
        .filter(|k| !before.contains_key(*k))
        .cloned()
        .collect();
    let removed: Vec<String> = before
        .keys()
        .filter(|k| !after.contains_key(*k))
        .cloned()
        .collect();
    let changed: Vec<String> = after
        .iter()
        .filter(|(k, v)| before.get(*k).is_some_and(|old| old != *v))
        .map(|(k, _)| k.clone())
        .collect();
    if added.is_empty() && removed.is_empty() && changed.is_empty() {
        return Change::Unchanged;
    }
    let tokens = |tools: &[McpTool]| {
        estimate_tokens(
            tools
                .iter()
                .map(|t| definition_chars(Profile::default(), server, t))
                .sum(),
        ) as i64
    };
    Change::Changed {
        added,
        removed,
        changed,
        token_delta: tokens(new) - tokens(old),
    }
}

/// For each server, the earlier server whose capture file has the same name (`a/b` and `a_b`
/// are both `a_b.json`): the later one is not captured, so neither file is lost.
fn file_name_clashes(specs: &[ServerSpec]) -> Vec<Option<(String, String)>> {
    let mut owners: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    specs
        .iter()
        .map(|spec| {
            let file = capture_file_name(&spec.name);
            // Case-insensitive file systems (macOS, Windows) make `GitHub` and `github` one.
            match owners.get(&file.to_lowercase()) {
                Some(owner) => Some((file, owner.to_string())),
                None => {
                    owners.insert(file.to_lowercase(), &spec.name);
                    None
                }
            }
        })
        .collect()
}

/// Captures every server at once, reporting each as it finishes; results in `specs` order.
pub fn capture_all(
    specs: &[ServerSpec],
    timeout: Duration,
    out_dir: &Path,
    on_done: &(dyn Fn(&str, &Result<Saved, CaptureError>) + Sync),
) -> Vec<Result<Saved, CaptureError>> {
    let clashes = file_name_clashes(specs);
    std::thread::scope(|scope| {
        let handles: Vec<_> = specs
            .iter()
            .zip(clashes)
            .map(|(spec, clash)| {
                scope.spawn(move || {
                    let result = match clash {
                        Some((file, other)) => Err(CaptureError::SameFile { file, other }),
                        None => capture_server(spec, timeout, out_dir),
                    };
                    on_done(&spec.name, &result);
                    result
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(CaptureError::Panicked)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_variables_and_names_missing_ones() {
        let lookup = |name: &str| (name == "TOKEN").then(|| "s3cret-value".to_string());
        let (value, missing) =
            expand_vars_with("Bearer ${TOKEN} ${env:TOKEN} ${SCHEMATAX_NOPE}!", lookup);
        assert_eq!(value, "Bearer s3cret-value s3cret-value !");
        assert_eq!(missing, ["SCHEMATAX_NOPE"]);
        assert_eq!(
            expand_vars_with("plain ${unclosed", lookup).0,
            "plain ${unclosed"
        );
        // The public form reads the process environment.
        let path = std::env::var("PATH").unwrap_or_default();
        assert_eq!(expand_vars("${PATH}").0, path);
    }

    #[test]
    fn servers_whose_files_would_clash_are_named() {
        let spec = |name: &str| ServerSpec {
            name: name.into(),
            transport: Transport::Unspecified,
            cwd: None,
            secrets: Vec::new(),
        };
        let clashes = file_name_clashes(&[spec("a/b"), spec("c"), spec("a_b"), spec("C")]);
        assert_eq!(
            clashes,
            [
                None,
                None,
                Some(("a_b.json".to_string(), "a/b".to_string())),
                Some(("C.json".to_string(), "c".to_string()))
            ]
        );
    }

    #[test]
    fn instructions_are_masked_before_they_are_cut() {
        let secret = "s3cret-value";
        let redactor = Redactor::new([secret.to_string()]);
        // The secret begins 4 bytes before the limit: cut first, "s3cr" would be kept.
        let head = "a".repeat(limits::MAX_INSTRUCTIONS_BYTES - 4);
        let mut text = format!("{head}{secret}{}", "z".repeat(20_000));
        let (masked, cut) = mask_instructions(&mut text, &redactor);
        assert!(masked);
        assert_eq!(text, format!("{head}***z"));
        assert_eq!(
            cut.as_deref(),
            Some("the server's instructions are 83.5 KiB: cut to the first 64.0 KiB kept in the capture")
        );
        let mut short = format!("Use {secret} sparingly.");
        assert_eq!(mask_instructions(&mut short, &redactor), (true, None));
        assert_eq!(short, "Use *** sparingly.");
    }

    #[test]
    fn changed_instructions_are_said() {
        let text = |t: &str| Some(t.to_string());
        assert_eq!(instructions_change(&text("a"), &text("a")), None);
        assert_eq!(instructions_change(&None, &None), None);
        assert_eq!(
            instructions_change(&text("a"), &text("b")).as_deref(),
            Some("the server's instructions changed")
        );
        assert_eq!(
            instructions_change(&None, &text("b")).as_deref(),
            Some("the server's instructions are new in this capture")
        );
        assert_eq!(
            instructions_change(&text("a"), &None).as_deref(),
            Some("the server gives no instructions any more")
        );
    }

    #[test]
    fn file_names_are_safe() {
        assert_eq!(capture_file_name("github"), "github.json");
        assert_eq!(capture_file_name("../etc/passwd"), "_etc_passwd.json");
        assert_eq!(capture_file_name("a b/c"), "a_b_c.json");
    }

    #[test]
    fn compare_lists_changes_and_token_delta() {
        let tool = |name: &str, description: &str| McpTool {
            name: name.into(),
            description: Some(description.into()),
            input_schema: None,
            truncated_chars: 0,
            ..McpTool::default()
        };
        let old = vec![tool("a", "one"), tool("b", "two")];
        let new = vec![tool("a", "one, longer now"), tool("c", "three")];
        let Change::Changed {
            added,
            removed,
            changed,
            token_delta,
        } = compare("s", &old, &new)
        else {
            panic!()
        };
        assert_eq!(
            (added, removed, changed),
            (
                vec!["c".to_string()],
                vec!["b".to_string()],
                vec!["a".to_string()]
            )
        );
        assert!(token_delta > 0);
        assert_eq!(compare("s", &old, &old), Change::Unchanged);
    }

    #[test]
    fn specs_follow_enabled_and_only() {
        let config = Config::parse(b"mcp_servers:\n  a: {command: x}\n  b: {url: 'http://127.0.0.1:1/mcp', enabled: false}\n").unwrap();
        let names = |specs: Vec<ServerSpec>| specs.into_iter().map(|s| s.name).collect::<Vec<_>>();
        assert_eq!(names(specs_from_config(&config, &[]).unwrap()), ["a"]);
        assert_eq!(
            names(specs_from_config(&config, &["b".into()]).unwrap()),
            ["b"]
        );
        assert_eq!(
            specs_from_config(&config, &["zzz".into()]),
            Err(CaptureError::NoSuchServer { name: "zzz".into() })
        );
    }
}
