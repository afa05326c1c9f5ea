//! What the engine's test modules share.

use std::path::PathBuf;

/// The repository's root, where `tests/data`, `tests/oracle` and `target/` are.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
