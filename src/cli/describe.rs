//! `schematax describe`: the tool_describe payload of one tool and what it costs.

use std::process::ExitCode;

use crate::cli::args::DescribeArgs;
use crate::cli::{count_tokens, emit, CliError, EXIT_FAILURE};
use schematax_report::describe::describe;

/// Runs the command.
pub fn run(args: DescribeArgs) -> Result<ExitCode, CliError> {
    let DescribeArgs {
        name,
        input,
        output,
    } = args;
    let (_, mut session) = input.session()?;
    count_tokens(&mut session)?;
    match describe(&session, &name) {
        Ok(report) => emit(
            &report.render(output.format.into()),
            output.output.as_deref(),
        ),
        Err(error) => {
            emit(
                &error.render(output.format.into()),
                output.output.as_deref(),
            )?;
            Ok(ExitCode::from(EXIT_FAILURE))
        }
    }
}
