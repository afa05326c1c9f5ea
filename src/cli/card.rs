//! `schematax card`: the headline numbers as one SVG card.

use std::process::ExitCode;

use crate::cli::args::{CardArgs, SessionArgs};
use crate::cli::choices::CardFormat;
use crate::cli::{emit, CliError};
use schematax_engine::inputs::Inputs;
use schematax_report::agents::AgentColumn;
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
    let (inputs, session) = input.costs_session()?;
    let report = CostReport::build(&inputs, &session, &traffic.traffic());
    drop(session);
    let agents = agent_columns(&input.session, &inputs, &report)?;
    emit(
        &render_svg(&report, &agents, theme.into()),
        output.as_deref(),
    )
}

/// The catalog in every agent of the table at its newest release, chars/4, as
/// `compare --agent ... --estimate-only` builds its columns; Hermes is the card's release,
/// read off its cost report (Hermes's figures do not depend on the price or the traffic).
fn agent_columns(
    session: &SessionArgs,
    inputs: &Inputs,
    hermes: &CostReport,
) -> Result<Vec<AgentColumn>, CliError> {
    schematax_releases::AGENTS
        .iter()
        .map(|agent| match agent.releases.last() {
            None => Ok(AgentColumn::of_hermes(hermes, None)),
            Some(release) => {
                let context_window =
                    crate::cli::agent::settings(session, inputs, release)?.context_window;
                let turn = crate::cli::agent::turn(release, session, inputs, None)?;
                Ok(AgentColumn::of_turn(&turn, context_window))
            }
        })
        .collect()
}
