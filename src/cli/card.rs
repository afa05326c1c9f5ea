//! `schematax card`: the headline numbers as one SVG card.

use std::process::ExitCode;

use super::args::CardArgs;
use super::{emit, CliError};
use crate::report::card::{render_svg, CardFormat};
use crate::report::cost::CostReport;

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
    emit(&render_svg(&report, theme), output.as_deref())
}
