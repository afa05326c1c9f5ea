//! The agent-side settings a turn's cost depends on: the context window, Claude Code's
//! `ENABLE_TOOL_SEARCH`, and per-server choices read from client configs.

use std::collections::BTreeMap;

use schematax_releases::agents::ClientFile;

use crate::inputs::client_config::{ClientConfig, ClientKind};

/// The context window assumed when neither the config nor `--context` gives one.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 200_000;

/// Per-server settings an agent reads from its client config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerSettings {
    /// Claude Code's `alwaysLoad`: `true` never defers the server's tools, `false` defers
    /// them all (a tool's own `_meta["anthropic/alwaysLoad"]` wins over it).
    pub always_load: Option<bool>,
    /// Gemini CLI's `includeTools`: when given, only these tools are enabled.
    pub include_tools: Option<Vec<String>>,
    /// Gemini CLI's `excludeTools`: these tools are never enabled.
    pub exclude_tools: Vec<String>,
    /// The config turns the server off: none of its tools is connected.
    pub disabled: bool,
    /// A tool list entry `name(...)` names the tool `name` too (Gemini CLI's form).
    pub call_forms: bool,
}

impl ServerSettings {
    /// Whether the server's settings leave `tool` connected: the deny list first, then the
    /// allow list.
    pub fn exposes(&self, tool: &str) -> bool {
        if self.disabled || self.exclude_tools.iter().any(|name| name == tool) {
            return false;
        }
        let Some(include) = &self.include_tools else {
            return true;
        };
        include.iter().any(|entry| {
            entry == tool
                || (self.call_forms
                    && entry
                        .strip_prefix(tool)
                        .is_some_and(|rest| rest.starts_with('(')))
        })
    }
}

/// Everything besides the catalog that decides what an agent sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSettings {
    /// The model's context window in tokens.
    pub context_window: u64,
    /// Claude Code's `ENABLE_TOOL_SEARCH`, as the environment would hold it (`None`: unset).
    pub enable_tool_search: Option<String>,
    /// Per-server settings, by server key.
    pub servers: BTreeMap<String, ServerSettings>,
}

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings {
            context_window: DEFAULT_CONTEXT_WINDOW,
            enable_tool_search: None,
            servers: BTreeMap::new(),
        }
    }
}

impl AgentSettings {
    /// Takes the per-server settings of `config` when it is the kind of file an agent that
    /// reads `file` reads; returns whether it was.
    pub fn read_client_config(&mut self, config: &ClientConfig, file: ClientFile) -> bool {
        let kind = match config.kind {
            ClientKind::ClaudeCode => ClientFile::ClaudeCode,
            ClientKind::Codex => ClientFile::Codex,
            ClientKind::VsCode => ClientFile::VsCode,
            ClientKind::Cursor => ClientFile::Cursor,
            ClientKind::GeminiCli => ClientFile::GeminiCli,
            ClientKind::ClaudeDesktop | ClientKind::Other => ClientFile::None,
        };
        if kind != file || file == ClientFile::None {
            return false;
        }
        for server in &config.servers {
            self.servers.insert(
                server.name.clone(),
                ServerSettings {
                    always_load: server.always_load,
                    include_tools: server.include_tools.clone(),
                    exclude_tools: server.exclude_tools.clone(),
                    disabled: !server.enabled,
                    call_forms: config.kind == ClientKind::GeminiCli,
                },
            );
        }
        true
    }
}

/// What Claude Code's `ENABLE_TOOL_SEARCH` asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ToolSearchSwitch {
    /// Defer whatever can be deferred.
    Always,
    /// Never defer.
    Never,
    /// Defer when the deferrable tools reach this percent of the context window.
    Auto {
        /// The percent, in [0, 100].
        pct: u32,
        /// The value was `auto:x` with an `x` that is not a number (the default applies).
        invalid: bool,
    },
}

impl ToolSearchSwitch {
    /// Reads the variable as Claude Code 2.1.328 does: unset, truthy, `auto:0` or any other
    /// value -> always; falsy or `auto:100` -> never; `auto` or `auto:N` (N clamped to
    /// [0, 100], `default_pct` when not a number) -> the threshold.
    pub fn parse(value: Option<&str>, default_pct: u32) -> ToolSearchSwitch {
        let Some(value) = value else {
            return ToolSearchSwitch::Always;
        };
        let lower = value.trim().to_ascii_lowercase();
        if matches!(lower.as_str(), "0" | "false" | "no" | "off") {
            return ToolSearchSwitch::Never;
        }
        if lower == "auto" {
            return ToolSearchSwitch::Auto {
                pct: default_pct,
                invalid: false,
            };
        }
        let Some(number) = lower.strip_prefix("auto:") else {
            return ToolSearchSwitch::Always;
        };
        match number.trim().parse::<f64>() {
            Ok(n) if n.is_finite() => {
                // Clamped to [0, 100] and truncated: the cast cannot wrap.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let pct = n.clamp(0.0, 100.0) as u32;
                match pct {
                    0 => ToolSearchSwitch::Always,
                    100 => ToolSearchSwitch::Never,
                    pct => ToolSearchSwitch::Auto {
                        pct,
                        invalid: false,
                    },
                }
            }
            _ => ToolSearchSwitch::Auto {
                pct: default_pct,
                invalid: true,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enable_tool_search_reads_as_the_package_does() {
        let p = |v: Option<&str>| ToolSearchSwitch::parse(v, 10);
        assert_eq!(p(None), ToolSearchSwitch::Always);
        assert_eq!(p(Some("true")), ToolSearchSwitch::Always);
        assert_eq!(p(Some("anything")), ToolSearchSwitch::Always);
        assert_eq!(p(Some("false")), ToolSearchSwitch::Never);
        assert_eq!(p(Some("auto:0")), ToolSearchSwitch::Always);
        assert_eq!(p(Some("auto:100")), ToolSearchSwitch::Never);
        assert_eq!(p(Some("auto:250")), ToolSearchSwitch::Never);
        assert_eq!(
            p(Some("auto")),
            ToolSearchSwitch::Auto {
                pct: 10,
                invalid: false
            }
        );
        assert_eq!(
            p(Some("auto:5")),
            ToolSearchSwitch::Auto {
                pct: 5,
                invalid: false
            }
        );
        assert_eq!(
            p(Some("auto:x")),
            ToolSearchSwitch::Auto {
                pct: 10,
                invalid: true
            }
        );
    }
}
