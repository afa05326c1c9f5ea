//! Shared inputs of the benchmarks: the real captures of tests/data/captures, and a catalog of
//! exactly N tools made of renamed copies of them.

use schematax::engine::capture_file::{load_paths, ServerCapture};
use std::path::PathBuf;

/// The real captures.
pub fn real_captures() -> Vec<ServerCapture> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/captures");
    load_paths(&[dir])
        .expect("tests/data/captures loads")
        .captures
}

/// Copies of the real captures under servers renamed `<server>-<copy>`, cut to `tools` tools.
pub fn catalog_of(tools: usize) -> Vec<ServerCapture> {
    let originals = real_captures();
    let mut out = Vec::new();
    let mut total = 0;
    for copy in 0.. {
        for original in &originals {
            if total >= tools {
                return out;
            }
            let mut capture = original.clone();
            capture.server = format!("{}-{copy}", original.server);
            capture.tools.truncate(tools - total);
            total += capture.tools.len();
            out.push(capture);
        }
    }
    unreachable!("the loop returns once enough tools are made")
}
