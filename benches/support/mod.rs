//! Shared inputs of the benchmarks: the real captures of tests/data/captures; a catalog of
//! exactly N tools made of renamed copies of them (every tool has hundreds of identical twins);
//! and seeded synthetic catalogs of N distinct tools, or OpenAPI-like ones, with distinct
//! queries drawn from them (`schematax_synthetic`).

// Each bench uses its own part of this module.
#![allow(dead_code)]

use schematax_engine::analyses::eval::{EvalQuery, QuerySet};
use schematax_engine::inputs::capture_file::load_paths;
use schematax_engine::nouns::tools::ServerCapture;
use schematax_synthetic::{self as synthetic, Pools, Query, QueryStyle};
use std::path::PathBuf;

/// The seed of every synthetic catalog and query set of the benchmarks.
pub const SEED: u64 = 24;

/// The real captures.
pub fn real_captures() -> Vec<ServerCapture> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/captures");
    load_paths(&[dir])
        .expect("tests/data/captures loads")
        .captures
}

/// Copies of the real captures under servers renamed `<server>-<copy>`, cut to `tools` tools.
pub fn catalog_of(tools: usize) -> Vec<ServerCapture> {
    synthetic::renamed_copies(&real_captures(), tools, None)
}

/// What synthetic catalogs are drawn from: the real captures' words and shapes.
pub fn pools() -> Pools {
    Pools::from_captures(&real_captures()).expect("the real captures make pools")
}

/// A catalog of `tools` distinct tools (names, descriptions and parameters).
pub fn distinct_of(tools: usize) -> Vec<ServerCapture> {
    synthetic::distinct_catalog(&pools(), tools, SEED)
}

/// An OpenAPI-like catalog of `tools` tools (hundreds per server, templated descriptions).
pub fn openapi_of(tools: usize) -> Vec<ServerCapture> {
    synthetic::openapi_catalog(&pools(), tools, SEED)
}

/// `count` distinct queries of `style` drawn from `catalog`.
pub fn queries_of(catalog: &[ServerCapture], count: usize, style: QueryStyle) -> Vec<Query> {
    synthetic::queries(&pools(), catalog, count, style, SEED)
}

/// Queries as an eval query set, each expecting the tool it was drawn from.
pub fn query_set(queries: &[Query]) -> QuerySet {
    QuerySet {
        queries: queries
            .iter()
            .enumerate()
            .map(|(i, q)| EvalQuery {
                id: format!("q{i}"),
                query: q.text.clone(),
                server: None,
                expected: vec![q.expected.clone()],
                also_ok: Vec::new(),
                style: q.style.as_str().into(),
            })
            .collect(),
        warnings: Vec::new(),
    }
}
