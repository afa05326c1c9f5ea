//! `schematax profiles`: the Hermes releases schematax replays.

use std::process::ExitCode;

use crate::cli::args::ProfilesArgs;
use crate::cli::{emit, CliError};
use schematax_report::profiles::ProfilesReport;

/// Runs the command.
pub fn run(args: ProfilesArgs) -> Result<ExitCode, CliError> {
    let ProfilesArgs { output } = args;
    emit(
        &ProfilesReport::build().render(output.format.into()),
        output.output.as_deref(),
    )
}
