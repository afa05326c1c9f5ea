//! `schematax search`: ranking the catalog as one tool_search call would.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::args::SearchArgs;
use crate::cli::{emit, CliError};
use schematax_engine::nouns::config::Scalar;
use schematax_engine::replay::search::resolve_limit;
use schematax_report::search::SearchReport;

/// Runs the command.
pub fn run(args: SearchArgs) -> Result<ExitCode, CliError> {
    let SearchArgs {
        queries,
        limit,
        config,
        input,
        output,
    } = args;
    for query in queries.iter().filter(|q| Path::new(q.as_str()).is_file()) {
        eprintln!(
            "schematax: warning: the query {:?} names a file; to read it as the config, pass --config {}",
            schematax_engine::text::sanitize(query),
            schematax_engine::text::sanitize(query)
        );
    }
    let inputs = input.inputs(config.as_deref())?;
    if let Some(chosen) = input.other_agent(&inputs) {
        return crate::cli::agent::search(chosen, &input, &inputs, &queries, limit, &output);
    }
    let (_, session) = input.searching_session(inputs)?;
    let raw = limit.map_or(Scalar::Null, |l| Scalar::Int(i128::from(l)));
    let limit = resolve_limit(&raw, session.settings());
    let report = SearchReport::build(&session, &queries, limit);
    emit(
        &report.render(output.format.into(), &session),
        output.output.as_deref(),
    )
}
