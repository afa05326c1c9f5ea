//! `schematax report`: cost per server, activation and savings, as text, JSON, Markdown or the HTML page.

use std::process::ExitCode;

use crate::cli::agent::CompareParts;
use crate::cli::args::{AgentArg, ReportArgs, SessionArgs};
use crate::cli::progress::lint_showing_progress;
use crate::cli::{count_tokens, emit, emit_with, load_queries, CliError};
use schematax_engine::replay::session::{Overrides, SearchIndexing, Session};
use schematax_report::cost::CostReport;
use schematax_report::html::{OtherProfile, PageParts, PageReport};

/// Runs the command.
pub fn run(args: ReportArgs) -> Result<ExitCode, CliError> {
    let ReportArgs {
        input,
        format,
        output,
        traffic,
        estimate_only,
        theme,
        queries,
    } = args;
    let plain = schematax_report::ReportFormat::from(format).plain();
    if plain.is_some() && (theme.is_some() || queries.is_some()) {
        return Err(CliError::Usage(
            "--theme and --queries apply to --format html (for the figures of a queries file, see `schematax eval`)".into(),
        ));
    }
    let mut inputs = input.inputs()?;
    if let Some(chosen) = input.session.other_agent(&inputs) {
        let Some(format) = plain else {
            return Err(CliError::Usage(format!(
                "--agent {}: the page shows Hermes; give --format table, json or markdown, or see `schematax compare --agent`",
                chosen.1.id
            )));
        };
        return crate::cli::agent::report(
            chosen,
            &input.session,
            &inputs,
            estimate_only,
            (format, output.as_deref()),
        );
    }
    let traffic = traffic.traffic();
    let overrides = input.overrides(&inputs)?;
    // The page also shows the other profile: its session is built, read and given
    // back before the chosen one is built, so two are never held at once.
    let other = plain.is_none().then(|| {
        let chosen = overrides.profile_for(&inputs.config);
        let other_profile = chosen.contrast();
        let other = Session::new(
            &inputs.config,
            &inputs.captures,
            &Overrides {
                profile: Some(other_profile),
                ..overrides.clone()
            },
        );
        OtherProfile::of(&inputs, &other, &traffic)
    });
    // The page's agents section: the catalog in every agent, as `compare --agent` of all of
    // them builds it, with Hermes at this page's release; built before the chosen session.
    let agents = if plain.is_none() {
        let parts = CompareParts {
            session: &every_agent(&input.session),
            inputs: &inputs,
            queries: None,
            limit: None,
            estimate_only,
            warn: false,
        };
        Some(crate::cli::agent::compare(&parts)?)
    } else {
        None
    };
    // The page searches (its lint and queries); the other formats show costs alone, so
    // their session indexes nothing unless a search asks.
    let indexing = match plain {
        Some(_) => SearchIndexing::OnFirstSearch,
        None => SearchIndexing::WithCatalog,
    };
    let mut session = Session::indexed(&inputs.config, &inputs.captures, &overrides, indexing);
    if plain.is_some() {
        // The tables read the session alone from here, which shares what it needs of the
        // captures (descriptions and schemas): the rest of them (names, titles, hints) goes.
        inputs.captures = Vec::new();
    }
    if !estimate_only {
        count_tokens(&mut session)?;
    }
    let report = CostReport::build(&inputs, &session, &traffic);
    match other {
        // Without the page's other profile, `plain` is the format asked for.
        None => {
            drop((session, inputs));
            let format = plain.unwrap_or_default();
            emit_with(output.as_deref(), |out| report.write(format, out))
        }
        Some(other) => {
            let set = load_queries(queries.as_deref())?;
            let findings = match lint_showing_progress(&session) {
                Ok(findings) => findings,
                Err(signal) => return Ok(ExitCode::from(signal.exit_code())),
            };
            let parts = PageParts {
                inputs: &inputs,
                session: &session,
                findings,
                other,
                queries: set.as_ref(),
                theme: theme.unwrap_or_default().into(),
                agents,
            };
            emit(
                &PageReport::build(parts, report).render(),
                output.as_deref(),
            )
        }
    }
}

/// `session` with `--agent` naming every agent of the table at its newest release, Hermes at
/// the release these flags name (as `compare --agent hermes,claude-code,...` reads them).
pub fn every_agent(session: &SessionArgs) -> SessionArgs {
    let hermes = match session.agent.first() {
        Some(AgentArg::Hermes(version)) => AgentArg::Hermes(version.clone()),
        _ => AgentArg::Hermes(None),
    };
    let agent = schematax_releases::AGENTS
        .iter()
        .map(|agent| match agent.releases.last() {
            Some(release) => AgentArg::Other(release, agent),
            None => hermes.clone(),
        })
        .collect();
    SessionArgs {
        agent,
        ..session.clone()
    }
}
