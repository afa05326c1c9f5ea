//! `schematax card`: the headline numbers as one SVG card.

use std::process::ExitCode;

use crate::cli::args::CardArgs;
use crate::cli::choices::CardFormat;
use crate::cli::{emit, CliError};
use schematax_report::card::render_svg;
use schematax_report::cost::CostReport;

/// Runs the command.
pub fn run(args: CardArgs) -> Result<ExitCode, CliError> {
    let CardArgs {
        input,
        format: CardFormat::Svg,
        output,
        traffic,
        theme,
    } = args;
    let (inputs, session) = input.session()?;
    let report = CostReport::build(&inputs, &session, &traffic.traffic());
    emit(&render_svg(&report, theme.into()), output.as_deref())
}
