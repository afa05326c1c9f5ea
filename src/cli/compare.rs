//! `schematax compare`: the same inputs under several releases side by side.

use std::process::ExitCode;

use crate::cli::args::CompareArgs;
use crate::cli::{emit, load_queries, CliError};
use schematax_engine::analyses::compare::ProfileComparison;
use schematax_report::compare::CompareReport;

/// Runs the command.
pub fn run(args: CompareArgs) -> Result<ExitCode, CliError> {
    let CompareArgs {
        queries,
        limit,
        input,
        output,
    } = args;
    let inputs = input.inputs()?;
    let set = load_queries(queries.as_deref())?;
    let profiles = match input.session.profiles().as_slice() {
        [] | [_] => {
            let chosen = input.overrides(&inputs)?.profile_for(&inputs.config);
            vec![chosen.contrast().min(chosen), chosen.contrast().max(chosen)]
        }
        many => many.to_vec(),
    };
    let comparison = ProfileComparison::build(
        &inputs.config,
        &inputs.captures,
        &input.overrides(&inputs)?,
        &profiles,
        set.as_ref(),
        limit,
    );
    let report = CompareReport::build(&inputs, &comparison);
    emit(
        &report.render(output.format.into()),
        output.output.as_deref(),
    )
}
