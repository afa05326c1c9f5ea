//! The schematax half of `scripts/bench-search-vs-bm25s`: on a catalog of one shape and its
//! distinct keyword and sentence queries drawn from it (`schematax_synthetic`),
//!
//! - `search_bench export TOOLS DIR` writes what bm25s indexes: `DIR/docs.jsonl`, each tool's
//!   search tokens (the text schematax indexes for it, tokenised as the profile does), and
//!   `DIR/queries.json`, each query's text and tokens, by style;
//! - `search_bench time TOOLS PASSES` times `tool_search` over the same queries, one thread:
//!   per profile and style, every query once per pass, and prints one JSON line with the
//!   median, fastest and slowest pass as microseconds per query, the median in CPU time (the
//!   thread's own: the time other processes had the core left out), and the work a query did
//!   on average (postings read, terms looked up, entries scored, masks scanned).
//!
//! Both take `--profile seed|hermes-2026-09|...` (default: the newest release),
//! `--queries N` (default 1000) and `--shape` (default `distinct`):
//!
//! - `distinct`: seeded synthetic tools with distinct names, descriptions and parameters;
//! - `openapi`: OpenAPI-like servers of hundreds of templated tools;
//! - `copies`: renamed copies of the real captures (`<server>-<copy>`), cut to TOOLS tools
//!   (406 real tools: about 25 twins each at 10,000 tools, 246 at 100,000);
//! - `twins-T`: TOOLS / T distinct tools, each server copied T times under renamed servers, so
//!   every tool has T - 1 twins that differ only by the copy's number in their names.

use schematax_engine::inputs::capture_file::load_paths;
use schematax_engine::nouns::config::Config;
use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::replay::search::{raw_tokens, tokens, SearchWork};
use schematax_engine::replay::session::{Overrides, Session};
use schematax_releases::Profile;
use schematax_synthetic::{
    distinct_catalog, openapi_catalog, queries, renamed_copies, Pools, Query, QueryStyle,
};
use serde_json::json;
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The allocator the `schematax` binary runs on (see `src/main.rs`), so the search is timed as
/// users run it: a search makes a few dozen small allocations.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SEED: u64 = 24;
const STYLES: [QueryStyle; 2] = [QueryStyle::Keyword, QueryStyle::Sentence];

struct Setup {
    session: Session,
    queries: Vec<(QueryStyle, Vec<Query>)>,
}

/// The catalog of `shape` with `tools` tools (see the module's documentation).
fn catalog(
    shape: &str,
    real: &[ServerCapture],
    pools: &Pools,
    tools: usize,
) -> anyhow::Result<Vec<ServerCapture>> {
    Ok(match shape {
        "distinct" => distinct_catalog(pools, tools, SEED),
        "openapi" => openapi_catalog(pools, tools, SEED),
        "copies" => renamed_copies(real, tools, None),
        _ => {
            let twins: usize = shape
                .strip_prefix("twins-")
                .and_then(|t| t.parse().ok())
                .filter(|&t| t > 0)
                .ok_or_else(|| anyhow::anyhow!("no shape {shape}"))?;
            let originals = distinct_catalog(pools, tools.div_ceil(twins), SEED);
            renamed_copies(&originals, tools, Some(twins))
        }
    })
}

fn setup(tools: usize, profile: Profile, count: usize, shape: &str) -> anyhow::Result<Setup> {
    let real = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/captures");
    let real = load_paths(&[real])?.captures;
    let pools = Pools::from_captures(&real)?;
    let catalog = catalog(shape, &real, &pools, tools)?;
    let overrides = Overrides {
        profile: Some(profile),
        ..Overrides::default()
    };
    let session = Session::new(&Config::default(), &catalog, &overrides);
    let queries = STYLES
        .iter()
        .map(|&style| (style, queries(&pools, &catalog, count, style, SEED)))
        .collect();
    Ok(Setup { session, queries })
}

fn export(setup: &Setup, profile: Profile, dir: &str) -> anyhow::Result<()> {
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir)?;
    let mut docs = std::io::BufWriter::new(std::fs::File::create(dir.join("docs.jsonl"))?);
    for doc in 0..setup.session.total_available() {
        writeln!(docs, "{}", json!(setup.session.search_tokens(doc)))?;
    }
    docs.flush()?;
    let rules = profile.spec().search;
    let mut by_style = serde_json::Map::new();
    for (style, queries) in &setup.queries {
        let list: Vec<_> = queries
            .iter()
            .map(|q| {
                let terms: Vec<String> = raw_tokens(&q.text)
                    .flat_map(|t| tokens(t, &rules).collect::<Vec<_>>())
                    .collect();
                json!({"text": q.text, "tokens": terms})
            })
            .collect();
        by_style.insert(style.as_str().into(), list.into());
    }
    let limit = setup.session.settings().search_default_limit;
    let out = json!({"limit": limit, "profile": profile.id(), "queries": by_style});
    std::fs::write(dir.join("queries.json"), out.to_string())?;
    Ok(())
}

/// The CPU time this thread has run, in seconds: unlike the wall clock, not counting the time
/// other processes had the core.
fn thread_cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
}

fn time(setup: &Setup, profile: Profile, passes: usize) {
    let limit = setup.session.settings().search_default_limit as usize;
    let mut result = serde_json::Map::new();
    for (style, queries) in &setup.queries {
        // One pass unmeasured: the index's impact orders are sorted on first use.
        for query in queries {
            black_box(setup.session.search(&query.text, limit));
        }
        let (mut wall, mut cpu): (Vec<f64>, Vec<f64>) = (0..passes)
            .map(|_| {
                let (started, started_cpu) = (Instant::now(), thread_cpu_seconds());
                for query in queries {
                    black_box(setup.session.search(black_box(&query.text), limit));
                }
                let per_query = 1e6 / queries.len() as f64;
                (
                    started.elapsed().as_secs_f64() * per_query,
                    (thread_cpu_seconds() - started_cpu) * per_query,
                )
            })
            .unzip();
        wall.sort_by(f64::total_cmp);
        cpu.sort_by(f64::total_cmp);
        let work: SearchWork = queries
            .iter()
            .map(|query| setup.session.search_measured(&query.text, limit).1)
            .sum();
        let per_query = |total: u64| total as f64 / queries.len() as f64;
        result.insert(
            style.as_str().into(),
            json!({
                "median_us": wall[wall.len() / 2],
                "cpu_median_us": cpu[cpu.len() / 2],
                "min_us": wall[0],
                "max_us": wall[wall.len() - 1],
                "queries": queries.len(),
                "work_per_query": {
                    "postings": per_query(work.postings),
                    "lookups": per_query(work.lookups),
                    "scored": per_query(work.scored),
                    "scanned": per_query(work.scanned),
                },
            }),
        );
    }
    let line = json!({"engine": "schematax", "profile": profile.id(), "limit": limit, "tools": setup.session.total_available(), "styles": result, "twin_entries": setup.session.search_entries()});
    println!("{line}");
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut profile, mut count, mut shape) = (Profile::newest(), 1000, "distinct".to_string());
    let mut positional = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--profile" => {
                let id = args.next().unwrap_or_default();
                profile = Profile::all()
                    .find(|p| p.id() == id)
                    .ok_or_else(|| anyhow::anyhow!("no profile {id}"))?;
            }
            "--queries" => count = args.next().unwrap_or_default().parse()?,
            "--shape" => shape = args.next().unwrap_or_default(),
            _ => positional.push(arg),
        }
    }
    match positional.as_slice() {
        [command, tools, dir] if command == "export" => {
            export(&setup(tools.parse()?, profile, count, &shape)?, profile, dir)
        }
        [command, tools, passes] if command == "time" => {
            time(
                &setup(tools.parse()?, profile, count, &shape)?,
                profile,
                passes.parse()?,
            );
            Ok(())
        }
        _ => anyhow::bail!(
            "usage: search_bench [--profile ID] [--queries N] [--shape SHAPE] export TOOLS DIR | time TOOLS PASSES"
        ),
    }
}
