//! The fixed texts each agent sends around deferred tools, byte for byte, one module per
//! agent: the listing's frame, the search tool's definition, the frame of server
//! instructions. Each is checked against the agent's package or source by the tests.

pub mod claude_code;
pub mod codex;
pub mod copilot;
