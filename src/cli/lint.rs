//! `schematax lint`: tool description quality and findability.

use std::process::ExitCode;

use crate::cli::args::{FailOn, LintArgs};
use crate::cli::{emit_with, load_queries, CliError, EXIT_FAILURE};
use schematax_engine::analyses::lint::Severity;
use schematax_report::lint::LintReport;

/// Runs the command.
pub fn run(args: LintArgs) -> Result<ExitCode, CliError> {
    let LintArgs {
        input,
        format,
        output,
        fail_on,
        queries,
        limit,
    } = args;
    let (inputs, session) = input.session()?;
    let set = load_queries(queries.as_deref())?;
    let sources = inputs
        .captures
        .iter()
        .map(|c| (c.server.clone(), c.source.display().to_string()))
        .collect();
    // The session holds all the rules read: the captures' parsed JSON is given back
    // before the lint starts.
    drop(inputs);
    let mut findings = schematax_engine::analyses::lint::lint(&session);
    if let Some(set) = set {
        let k = limit.unwrap_or(session.settings().search_default_limit as usize);
        findings.add_queries(&set, k);
    }
    drop(session);
    let report = LintReport::build(findings, sources);
    emit_with(output.as_deref(), |out| report.write(format.into(), out))?;
    let level = fail_on.map(|f| match f {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    });
    Ok(match level {
        Some(level) if report.reaches(level) => ExitCode::from(EXIT_FAILURE),
        _ => ExitCode::SUCCESS,
    })
}
