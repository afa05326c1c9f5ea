//! `schematax profiles`: the Hermes releases schematax replays.

use std::process::ExitCode;

use super::args::ProfilesArgs;
use super::{emit, CliError};
use crate::report::profiles::ProfilesReport;

/// Runs the command.
pub fn run(args: ProfilesArgs) -> Result<ExitCode, CliError> {
    let ProfilesArgs { output } = args;
    emit(
        &ProfilesReport::build().render(output.format),
        output.output.as_deref(),
    )
}
