//! `schematax eval`: retrieval evaluation of a queries file.

use std::process::ExitCode;

use crate::cli::args::EvalArgs;
use crate::cli::{emit_with, CliError, EXIT_FAILURE};
use schematax_engine::analyses::eval::{evaluate, QuerySet};
use schematax_report::eval::EvalReport;

/// Runs the command.
pub fn run(args: EvalArgs) -> Result<ExitCode, CliError> {
    let EvalArgs {
        queries,
        limit,
        lenient,
        min_recall,
        input,
        output,
    } = args;
    // The queries file first: its YAML tree is given back before the catalog loads.
    let set = QuerySet::load(&queries)?;
    let inputs = input.inputs()?;
    if let Some(chosen) = input.session.other_agent(&inputs) {
        return crate::cli::agent::eval(
            chosen,
            &input.session,
            &inputs,
            &set,
            (limit, lenient, min_recall),
            &output,
        );
    }
    let (_, session) = input.session.searching_session(inputs)?;
    let k = limit.unwrap_or(session.settings().search_default_limit as usize);
    let evaluation = evaluate(&session, &set, k, lenient);
    let profile = session.profile();
    // The outcomes hold all the report prints: the catalog's memory is given back
    // before the report is made from them.
    drop((session, set));
    let overall = evaluation.overall;
    let report = EvalReport::build(evaluation, profile);
    emit_with(output.output.as_deref(), |out| {
        report.write(output.format.into(), out)
    })?;
    Ok(match min_recall {
        Some(min) if overall.recall_at_k < min => {
            eprintln!(
                "schematax: recall@{} {:.3} is below --min-recall {min}",
                overall.k, overall.recall_at_k
            );
            ExitCode::from(EXIT_FAILURE)
        }
        _ => ExitCode::SUCCESS,
    })
}
