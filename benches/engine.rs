//! Engine benchmarks on catalogs of 10,000 and 100,000 tools, of three kinds: `distinct`
//! (seeded synthetic tools with distinct names, descriptions and parameters, drawn from the
//! real captures' words and shapes), `openapi` (hundreds of templated tools per server), both
//! searched with 1,000 distinct keyword and 1,000 distinct sentence queries drawn from the
//! catalog, and `copies` (renamed copies of the real captures, every tool with hundreds of
//! identical twins, searched with four fixed queries); under
//! `seed` (Hermes 0.17.0) and the newest release; and the real tokenizers on all captures and
//! on 10,000 distinct tools.
//! Targets: at 10,000 tools one search <= 0.05 ms and the index build <= 20 ms; at 100,000 one
//! search < 0.5 ms; the newest release's search within 2x of the seed's, and its assembly
//! (listing included) under 20 ms; chars/4 estimate <= 10 ms; both tokenizer counts of
//! tests/data/captures (loading included) < 300 ms; lint of the catalog and eval of one query
//! per tool in seconds (whole processes: `benches/process.rs`). Search against bm25s:
//! `scripts/bench-search-vs-bm25s`.

mod support;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion};
use rayon::prelude::*;
use schematax_engine::analyses::eval::{evaluate, EvalQuery, QuerySet};
use schematax_engine::analyses::lint::lint;
use schematax_engine::nouns::config::Config;
use schematax_engine::nouns::json_text::estimate_tokens;
use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::replay::catalog::definition_chars;
use schematax_engine::replay::session::{count_tools, tools_in_order, Overrides, Session};
use schematax_engine::text::first_sentence;
use schematax_engine::tokenizers::claude::ClaudeTokenizer;
use schematax_engine::tokenizers::Encoding;
use schematax_engine::tokenizers::{LoadedTokenizer, Tokenizer};
use schematax_releases::Profile;
use schematax_synthetic::QueryStyle;
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

/// Queries a person might type, from one word to a sentence (for the copies).
const QUERIES: [&str; 4] = [
    "create a merge request for the pipeline",
    "search",
    "fetch a web page as markdown",
    "list open issues in a repository",
];

/// Distinct queries of each style drawn from a distinct catalog.
const DISTINCT_QUERIES: usize = 1_000;

/// A catalog kind: its name in the benchmark ids, and how a catalog of N tools is made.
type Kind = (&'static str, fn(usize) -> Vec<ServerCapture>);

const KINDS: [Kind; 3] = [
    ("distinct", support::distinct_of),
    ("openapi", support::openapi_of),
    ("copies", support::catalog_of),
];

fn session_of(captures: &[ServerCapture], profile: Profile) -> Session {
    let overrides = Overrides {
        profile: Some(profile),
        ..Overrides::default()
    };
    Session::new(&Config::default(), captures, &overrides)
}

/// Benchmarks `search` over `queries`, one query per iteration, in turn: the time per query
/// averaged over the set.
fn search_each(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: BenchmarkId,
    session: &Session,
    queries: &[String],
) {
    // Every query once first: a term's postings are sorted by weight on first use.
    for query in queries {
        black_box(session.search(query, 5));
    }
    let mut next = 0;
    group.bench_function(id, |b| {
        b.iter(|| {
            let query = &queries[next % queries.len()];
            next += 1;
            session.search(black_box(query), 5)
        });
    });
}

fn catalogs(c: &mut Criterion) {
    for &size in sizes() {
        for (kind, make) in KINDS {
            let captures = make(size);
            let mut group = c.benchmark_group(format!("catalog_{kind}_{}k", size / 1000));
            if size > 10_000 {
                group.sample_size(10);
            }
            group.bench_function("session_from_captures", |b| {
                b.iter(|| session_of(&captures, Profile::newest()));
            });
            let styles: Vec<(&str, Vec<String>)> = if kind != "copies" {
                [QueryStyle::Keyword, QueryStyle::Sentence]
                    .into_iter()
                    .map(|style| {
                        let drawn = support::queries_of(&captures, DISTINCT_QUERIES, style);
                        (style.as_str(), drawn.into_iter().map(|q| q.text).collect())
                    })
                    .collect()
            } else {
                QUERIES
                    .iter()
                    .enumerate()
                    .map(|(i, q)| {
                        (
                            ["search_0", "search_1", "search_2", "search_3"][i],
                            vec![q.to_string()],
                        )
                    })
                    .collect()
            };
            for profile in [Profile::seed(), Profile::newest()] {
                let mut session = session_of(&captures, profile);
                assert_eq!(session.total_available(), size);
                let name = profile.id();
                group.bench_function(BenchmarkId::new("index_build", name), |b| {
                    b.iter(|| session.rebuild());
                });
                for (label, queries) in &styles {
                    let id = if kind != "copies" {
                        BenchmarkId::new(format!("search_{label}"), name)
                    } else {
                        BenchmarkId::new(*label, name)
                    };
                    search_each(&mut group, id, &session, queries);
                }
                // What the gate recomputes on every change: the estimate, verdict and assembly
                // (from 0.20.0, the listing in the tool_search description).
                group.bench_function(BenchmarkId::new("activation", name), |b| {
                    b.iter(|| session.activation());
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
                });
            });
            group.finish();
        }
    }
}

/// Each kind of tokenizer on all real captures and on 10,000 distinct tools (loaded once):
/// what `report` adds to `report --estimate-only`; and loading o200k_base.
fn tokenizers(c: &mut Criterion) {
    let mut group = c.benchmark_group("tokenizers");
    group.sample_size(10);
    for (label, captures) in [
        ("all_captures", support::real_captures()),
        ("10k_distinct", support::distinct_of(10_000)),
    ] {
        let session = Session::new(&Config::default(), &captures, &Overrides::default());
        let servers = session.shared_servers();
        let places = tools_in_order(&servers, &[]);
        for tokenizer in [
            Tokenizer::Tiktoken(Encoding::O200k),
            Tokenizer::Claude(ClaudeTokenizer::V3),
            Tokenizer::Claude(ClaudeTokenizer::V4_7),
        ] {
            let loaded = LoadedTokenizer::load(&tokenizer).expect("the tokenizer loads");
            group.bench_function(format!("count_{label}/{}", tokenizer.name()), |b| {
                b.iter(|| count_tools(&servers, &places, &loaded, &mut |_, _| {}));
            });
        }
    }
    group.bench_function("load/o200k_base", |b| {
        b.iter(|| LoadedTokenizer::load(&Tokenizer::Tiktoken(Encoding::O200k)));
    });
    group.finish();
}

/// An eval query expecting the tool `e`.
fn query_of(e: &schematax_engine::replay::catalog::ToolEntry, text: String) -> EvalQuery {
    EvalQuery {
        id: e.name.clone(),
        query: text,
        server: None,
        expected: vec![e.name.clone()],
        also_ok: Vec::new(),
        style: "natural".into(),
    }
}

/// Lint and eval of the catalogs (10 samples each: at 100,000 tools one lint takes seconds).
/// On the distinct catalogs, eval runs 2,000 distinct queries drawn from the catalog (1,000
/// keyword, 1,000 sentence). The copies share their first sentences, which `evaluate`
/// searches once each; so on them eval is also measured on 10,000 distinct queries (a tool's
/// first sentence and its server), where every query is a search of its own.
fn lint_and_eval(c: &mut Criterion) {
    for &size in sizes() {
        for (kind, make) in KINDS {
            // Lint of 100,000 OpenAPI-like tools is measured as a whole process.
            if kind == "openapi" && size > 10_000 {
                continue;
            }
            let captures = make(size);
            let mut group = c.benchmark_group(format!("quality_{kind}_{}k", size / 1000));
            group.sample_size(10);
            let drawn: Vec<_> = [QueryStyle::Keyword, QueryStyle::Sentence]
                .into_iter()
                .flat_map(|style| support::queries_of(&captures, DISTINCT_QUERIES, style))
                .collect();
            let distinct_set = support::query_set(&drawn);
            for profile in [Profile::seed(), Profile::newest()] {
                let session = session_of(&captures, profile);
                let name = profile.id();
                // Lint of 100,000 distinct tools takes tens of seconds: measured as a whole
                // process only (`benches/process.rs`).
                if kind == "copies" || size <= 10_000 {
                    group.bench_function(BenchmarkId::new("lint", name), |b| {
                        b.iter(|| lint(&session).all_details().count());
                    });
                }
                if kind != "copies" {
                    group.bench_function(BenchmarkId::new("eval_2k_drawn_queries", name), |b| {
                        b.iter(|| evaluate(&session, &distinct_set, 5, false));
                    });
                    continue;
                }
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
                group.bench_function(BenchmarkId::new("eval_one_query_per_tool", name), |b| {
                    b.iter(|| evaluate(&session, &queries, 5, false));
                });
                group.bench_function(BenchmarkId::new("eval_10k_distinct_queries", name), |b| {
                    b.iter(|| evaluate(&session, &distinct, 5, false));
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, catalogs, tokenizers, lint_and_eval);
criterion_main!(benches);
