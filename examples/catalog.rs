//! Writes a seeded synthetic catalog as capture files, for measuring whole commands on it:
//!
//! ```text
//! cargo run --release --example catalog -- [--openapi | --small-vocabulary] [--seed N] [--queries N] TOOLS DIR
//! schematax report --estimate-only --tools DIR
//! schematax eval DIR.keyword.yaml --tools DIR
//! ```
//!
//! The catalog is drawn from the words and shapes of `tests/data/captures`
//! (`schematax_synthetic`): `TOOLS` tools with distinct names, descriptions and
//! parameters, or with `--openapi` an OpenAPI-like catalog. With `--queries N` (default 1000),
//! `DIR.keyword.yaml` and `DIR.natural.yaml` beside the folder hold N distinct keyword and
//! sentence queries drawn from it, each expecting the tool it was drawn from. With
//! `--small-vocabulary` the descriptions are 12 words drawn from 30 common ones, so that every
//! word is common (the shape that would make a lint quadratic); no queries are written then.

use schematax_engine::inputs::capture_file::load_paths;
use schematax_synthetic::{
    distinct_catalog, openapi_catalog, queries, queries_yaml, small_vocabulary_catalog,
    write_captures, Pools, QueryStyle,
};
use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut openapi, mut small, mut seed, mut query_count) = (false, false, 1u64, 1000usize);
    let mut positional = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--openapi" => openapi = true,
            "--small-vocabulary" => small = true,
            "--seed" => seed = args.next().unwrap_or_default().parse()?,
            "--queries" => query_count = args.next().unwrap_or_default().parse()?,
            _ => positional.push(arg),
        }
    }
    let [tools, dir] = positional.as_slice() else {
        anyhow::bail!(
            "usage: catalog [--openapi | --small-vocabulary] [--seed N] [--queries N] TOOLS DIR"
        );
    };
    let tools: usize = tools.parse()?;
    let dir = PathBuf::from(dir);
    let real = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/captures");
    let pools = Pools::from_captures(&load_paths(&[real])?.captures)?;
    let catalog = if small {
        small_vocabulary_catalog(tools, seed)
    } else if openapi {
        openapi_catalog(&pools, tools, seed)
    } else {
        distinct_catalog(&pools, tools, seed)
    };
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    let bytes = write_captures(&dir, &catalog)?;
    println!(
        "{tools} tools on {} servers, {:.1} MiB of captures in {}",
        catalog.len(),
        bytes as f64 / (1024.0 * 1024.0),
        dir.display()
    );
    let styles = if small {
        Vec::new()
    } else {
        vec![QueryStyle::Keyword, QueryStyle::Sentence]
    };
    for style in styles {
        let drawn = queries(&pools, &catalog, query_count, style, seed);
        let file = dir.with_extension(format!("{}.yaml", style.as_str()));
        std::fs::write(&file, queries_yaml(&drawn))?;
        println!(
            "{} {} queries in {}",
            drawn.len(),
            style.as_str(),
            file.display()
        );
    }
    Ok(())
}
