//! Engine benchmarks on catalogs of 10,000 and 100,000 tools (renamed copies of the real
//! captures), under `seed` (Hermes 0.17.0) and the newest release, and the real tokenizers on
//! all captures.
//! Targets: at 10,000 tools one search <= 0.05 ms and the index build <= 20 ms; at 100,000 one
//! search < 0.5 ms; the newest release's search within 2x of the seed's, and its assembly
//! (listing included) under 20 ms; chars/4 estimate <= 10 ms; both tokenizer counts of
//! tests/data/captures (loading included) < 300 ms; lint of the catalog and eval of one query
//! per tool in seconds (whole processes: `benches/process.rs`).

mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rayon::prelude::*;
use schematax::engine::capture_file::ServerCapture;
use schematax::engine::catalog::definition_chars;
use schematax::engine::claude::ClaudeTokenizer;
use schematax::engine::config::Config;
use schematax::engine::eval::{evaluate, EvalQuery, QuerySet};
use schematax::engine::lint::lint;
use schematax::engine::profile::Profile;
use schematax::engine::session::{count_tools, tools_in_order, Overrides, Session};
use schematax::engine::tokenizer::{LoadedTokenizer, Tokenizer};
use schematax::engine::tokens::{estimate_tokens, Encoding};
use schematax::text::first_sentence;
use std::hint::black_box;

/// The catalog sizes measured: both in a bench run, the smaller one alone when `cargo test`
/// runs the benchmarks once in the debug build.
fn sizes() -> &'static [usize] {
    if std::env::args().any(|a| a == "--bench") {
        &[10_000, 100_000]
    } else {
        &[10_000]
    }
}
/// Queries a person might type, from one word to a sentence.
const QUERIES: [&str; 4] = [
    "create a merge request for the pipeline",
    "search",
    "fetch a web page as markdown",
    "list open issues in a repository",
];

fn session_of(captures: &[ServerCapture], profile: Profile) -> Session {
    let overrides = Overrides {
        profile: Some(profile),
        ..Overrides::default()
    };
    Session::new(&Config::default(), captures, &overrides)
}

fn catalogs(c: &mut Criterion) {
    for &size in sizes() {
        let captures = support::catalog_of(size);
        let mut group = c.benchmark_group(format!("catalog_{}k", size / 1000));
        if size > 10_000 {
            group.sample_size(10);
        }
        for profile in [Profile::seed(), Profile::newest()] {
            let mut session = session_of(&captures, profile);
            assert_eq!(session.total_available(), size);
            let name = profile.id();
            group.bench_function(BenchmarkId::new("index_build", name), |b| {
                b.iter(|| session.rebuild())
            });
            for (i, query) in QUERIES.iter().enumerate() {
                group.bench_function(BenchmarkId::new(format!("search_{i}"), name), |b| {
                    b.iter(|| session.search(black_box(query), 5))
                });
            }
            // What the gate recomputes on every change: the estimate, verdict and assembly
            // (from 0.20.0, the listing in the tool_search description).
            group.bench_function(BenchmarkId::new("activation", name), |b| {
                b.iter(|| session.activation())
            });
        }
        // Done once at load: serialising and measuring every definition from the captures.
        group.bench_function("definition_chars_from_scratch", |b| {
            b.iter(|| {
                let chars: u64 = captures
                    .par_iter()
                    .flat_map(|c| {
                        c.tools
                            .par_iter()
                            .map(move |t| definition_chars(Profile::seed(), &c.server, t))
                    })
                    .sum();
                estimate_tokens(chars)
            })
        });
        group.finish();
    }
}
fn tokenizers(c: &mut Criterion) {
    let captures = support::real_captures();
    let session = Session::new(&Config::default(), &captures, &Overrides::default());
    let servers = session.shared_servers();
    let places = tools_in_order(&servers, &[]);
    let mut group = c.benchmark_group("tokenizers");
    group.sample_size(10);
    for tokenizer in [
        Tokenizer::Tiktoken(Encoding::O200k),
        Tokenizer::Claude(ClaudeTokenizer::V3),
        Tokenizer::Claude(ClaudeTokenizer::V4_7),
    ] {
        let loaded = LoadedTokenizer::load(&tokenizer).expect("the tokenizer loads");
        group.bench_function(format!("count_all_captures/{}", tokenizer.name()), |b| {
            b.iter(|| count_tools(&servers, &places, &loaded))
        });
    }
    group.bench_function("load/o200k_base", |b| {
        b.iter(|| LoadedTokenizer::load(&Tokenizer::Tiktoken(Encoding::O200k)))
    });
    group.finish();
}

/// Lint and eval of the catalogs (10 samples each: at 100,000 tools one lint takes seconds).
/// The catalogs' copies share their first sentences, which `evaluate` searches once each; so
/// eval is also measured on 10,000 distinct queries (a tool's first sentence and its server),
/// where every query is a search of its own.
fn lint_and_eval(c: &mut Criterion) {
    for &size in sizes() {
        let captures = support::catalog_of(size);
        let mut group = c.benchmark_group(format!("quality_{}k", size / 1000));
        group.sample_size(10);
        for profile in [Profile::seed(), Profile::newest()] {
            let session = session_of(&captures, profile);
            let query_of = |e: &schematax::engine::catalog::ToolEntry, text: String| EvalQuery {
                id: e.name.clone(),
                query: text,
                server: None,
                expected: vec![e.name.clone()],
                also_ok: Vec::new(),
                style: "natural".into(),
            };
            // One query per tool: its own first sentence, expecting the tool itself.
            let queries = QuerySet {
                queries: session
                    .catalog()
                    .map(|e| query_of(e, first_sentence(&e.description).to_string()))
                    .collect(),
                warnings: Vec::new(),
            };
            let step = (size / 10_000).max(1);
            let distinct = QuerySet {
                queries: session
                    .catalog()
                    .step_by(step)
                    .map(|e| {
                        query_of(
                            e,
                            format!("{} {}", first_sentence(&e.description), e.server),
                        )
                    })
                    .collect(),
                warnings: Vec::new(),
            };
            let name = profile.id();
            group.bench_function(BenchmarkId::new("lint", name), |b| {
                b.iter(|| lint(&session).texts().count())
            });
            group.bench_function(BenchmarkId::new("eval_one_query_per_tool", name), |b| {
                b.iter(|| evaluate(&session, &queries, 5, false))
            });
            group.bench_function(BenchmarkId::new("eval_10k_distinct_queries", name), |b| {
                b.iter(|| evaluate(&session, &distinct, 5, false))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, catalogs, tokenizers, lint_and_eval);
criterion_main!(benches);
