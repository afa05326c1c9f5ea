//! MCP client configs users already have: Claude Desktop's `claude_desktop_config.json`,
//! Claude Code's `.mcp.json` and Cursor's `mcp.json` (`mcpServers`), VS Code's
//! `.vscode/mcp.json` (`servers`).

use serde_json::Value;
use std::path::Path;

use crate::{NamedServer, ServerSpec};
use schematax_engine::inputs::error::{read_limited, InputError};
use schematax_engine::nouns::config::Transport;

/// Why a client config cannot be used, one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientConfigError {
    /// Not JSON.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// No server table.
    #[error("no `mcpServers` (Claude, Cursor) or `servers` (VS Code) object")]
    NoServers,
    /// A server that can be neither started nor reached.
    #[error("server {0:?} has neither `command` nor `url`")]
    NoTransport(String),
}

/// Reads the servers of a client config, in file order, each with whether it is enabled.
pub fn load(path: &Path) -> Result<Vec<NamedServer>, InputError> {
    let bytes = read_limited(path, 16 * 1024 * 1024)?;
    parse(&bytes).map_err(|reason| InputError::new(path, reason.to_string()))
}

/// Parses a client config.
pub fn parse(bytes: &[u8]) -> Result<Vec<NamedServer>, ClientConfigError> {
    let root: Value =
        serde_json::from_slice(bytes).map_err(|e| ClientConfigError::InvalidJson(e.to_string()))?;
    let servers = root
        .get("mcpServers")
        .or_else(|| root.get("servers"))
        .and_then(Value::as_object)
        .ok_or(ClientConfigError::NoServers)?;
    let mut specs = Vec::new();
    for (name, entry) in servers {
        let disabled = entry
            .get("disabled")
            .and_then(Value::as_bool)
            .unwrap_or(false)
            || entry.get("enabled").and_then(Value::as_bool) == Some(false);
        let text = |key: &str| entry.get(key).and_then(Value::as_str).map(str::to_string);
        let pairs = |key: &str| -> Vec<(String, String)> {
            entry
                .get(key)
                .and_then(Value::as_object)
                .map(|map| {
                    map.iter()
                        .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                        .collect()
                })
                .unwrap_or_default()
        };
        let transport = match (text("command"), text("url").or_else(|| text("serverUrl"))) {
            (Some(command), _) => Transport::Stdio {
                command,
                args: entry
                    .get("args")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default(),
                env: pairs("env"),
            },
            (None, Some(url)) => Transport::Http {
                url,
                headers: pairs("headers"),
            },
            (None, None) => return Err(ClientConfigError::NoTransport(name.clone())),
        };
        specs.push(NamedServer {
            spec: ServerSpec {
                name: name.clone(),
                transport,
                secrets: Vec::new(),
            },
            enabled: !disabled,
        });
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_desktop_and_cursor_shape() {
        let specs = parse(
            br#"{"mcpServers": {
                "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"K": "${K}"}},
                "remote": {"url": "https://example.invalid/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
                "off": {"command": "x", "disabled": true}
            }}"#,
        )
        .unwrap();
        assert_eq!(
            specs.iter().map(|s| s.enabled).collect::<Vec<_>>(),
            [true, true, false]
        );
        assert_eq!(specs[0].spec.name, "fs");
        assert!(
            matches!(&specs[0].spec.transport, Transport::Stdio { args, env, .. } if args.len() == 3 && env[0].0 == "K")
        );
        assert!(
            matches!(&specs[1].spec.transport, Transport::Http { headers, .. } if headers[0].0 == "Authorization")
        );
    }

    #[test]
    fn vs_code_shape() {
        let specs = parse(br#"{"inputs": [], "servers": {"memory": {"type": "stdio", "command": "npx", "args": ["-y", "m"]}, "web": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}"#).unwrap();
        assert_eq!(
            specs
                .iter()
                .map(|s| s.spec.name.as_str())
                .collect::<Vec<_>>(),
            ["memory", "web"]
        );
    }

    #[test]
    fn bad_configs_are_errors() {
        assert_eq!(parse(b"{}").unwrap_err(), ClientConfigError::NoServers);
        assert_eq!(
            parse(br#"{"mcpServers": {"x": {}}}"#)
                .unwrap_err()
                .to_string(),
            "server \"x\" has neither `command` nor `url`"
        );
        assert!(matches!(
            parse(b"[").unwrap_err(),
            ClientConfigError::InvalidJson(_)
        ));
    }
}
