//! `schematax sweep`: activation over a grid of context lengths and threshold_pct.

use std::process::ExitCode;

use crate::cli::args::SweepArgs;
use crate::cli::{emit, CliError};
use schematax_report::sweep::SweepReport;

/// Runs the command.
pub fn run(args: SweepArgs) -> Result<ExitCode, CliError> {
    let SweepArgs { input, output } = args;
    let (_, session) = input.costs_session()?;
    emit(
        &SweepReport::build(&session).render(output.format.into()),
        output.output.as_deref(),
    )
}
