//! Engine benchmarks on a 10,000-tool catalog, and the real tokenizers on all captures.
//! Targets: index build <= 20 ms, one search <= 0.5 ms (median), chars/4 estimate <= 10 ms,
//! both tokenizer counts of tests/data/captures (loading included) < 300 ms. The definitions'
//! characters are measured once at load (`definition_chars_from_scratch`); the estimate the
//! gate recomputes on every change sums them (`chars_estimate`). Lint and eval of the 10,000
//! tools (one query per tool) each under 5 s.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use rayon::prelude::*;
use schematax::engine::catalog::definition_chars;
use schematax::engine::config::Config;
use schematax::engine::eval::{evaluate, EvalQuery, QuerySet};
use schematax::engine::lint::lint;
use schematax::engine::profile::Profile;
use schematax::engine::session::{count_tokens, Overrides, Session};
use schematax::engine::tokens::estimate_tokens;
use schematax::text::first_sentence;
use std::hint::black_box;

const TOOLS: usize = 10_000;

fn catalog_10k(c: &mut Criterion) {
    let captures = support::catalog_of(TOOLS);
    let mut session = Session::new(&Config::default(), &captures, &Overrides::default());
    assert_eq!(session.total_available(), TOOLS);
    let mut group = c.benchmark_group("catalog_10k");

    group.bench_function("catalog_and_index_build", |b| b.iter(|| session.rebuild()));

    group.bench_function("search", |b| {
        b.iter(|| session.search(black_box("create a merge request for the pipeline"), 5))
    });

    // What the gate recomputes on every change: the catalog's chars/4 estimate and verdict.
    group.bench_function("chars_estimate", |b| b.iter(|| session.activation()));

    // Done once at load: serialising and measuring every definition from the captures.
    group.bench_function("definition_chars_from_scratch", |b| {
        b.iter(|| {
            let chars: u64 = captures
                .par_iter()
                .flat_map(|c| {
                    c.tools
                        .par_iter()
                        .map(move |t| definition_chars(Profile::Seed, &c.server, t))
                })
                .sum();
            estimate_tokens(chars)
        })
    });
    group.finish();
}

fn tokenizers(c: &mut Criterion) {
    let captures = support::real_captures();
    let session = Session::new(&Config::default(), &captures, &Overrides::default());
    let servers = session.shared_servers();
    let mut group = c.benchmark_group("tokenizers");
    group.sample_size(10);
    group.bench_function("load_and_count_all_captures", |b| {
        b.iter(|| count_tokens(&servers).expect("encoders load"))
    });
    group.finish();
}

fn lint_and_eval_10k(c: &mut Criterion) {
    let captures = support::catalog_of(TOOLS);
    let session = Session::new(&Config::default(), &captures, &Overrides::default());
    // One query per tool: its own first sentence, expecting the tool itself.
    let queries = QuerySet {
        queries: session
            .catalog()
            .map(|e| EvalQuery {
                id: e.name.clone(),
                query: first_sentence(&e.description).to_string(),
                server: None,
                expected: vec![e.name.clone()],
                also_ok: Vec::new(),
                style: "natural".into(),
            })
            .collect(),
        warnings: Vec::new(),
    };
    let mut group = c.benchmark_group("quality_10k");
    group.sample_size(10);
    group.bench_function("lint", |b| b.iter(|| lint(&session)));
    group.bench_function("eval_10k_queries", |b| {
        b.iter(|| evaluate(&session, &queries, 5, false))
    });
    group.finish();
}

criterion_group!(benches, catalog_10k, tokenizers, lint_and_eval_10k);
criterion_main!(benches);
