//! `schematax describe`: the tool_describe payload of one tool and what it costs.

use std::process::ExitCode;

use crate::cli::args::DescribeArgs;
use crate::cli::{emit, CliError, EXIT_FAILURE};
use schematax_engine::replay::session::Lookup;
use schematax_report::describe::describe;

/// Runs the command.
pub fn run(args: DescribeArgs) -> Result<ExitCode, CliError> {
    let DescribeArgs {
        name,
        input,
        output,
    } = args;
    let (_, mut session) = input.costs_session()?;
    // The payload shows one tool's count: that tool alone is counted.
    if let Lookup::Found(position) = session.lookup(&name) {
        let place = session.catalog_ref(position);
        session.count_tokens_of(&[place], &mut |_, _| {})?;
    }
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
