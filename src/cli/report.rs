//! `schematax report`: cost per server, activation and savings, as text, JSON, Markdown or the HTML page.

use std::path::Path;
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};

use crate::cli::agent::CompareParts;
use crate::cli::args::{AgentArg, InputArgs, ReportArgs, SessionArgs};
use crate::cli::choices::Theme;
use crate::cli::progress::{
    count_showing_progress, ending_cleanly, lint_showing_progress, ProgressLine,
};
use crate::cli::{count_tokens, emit, emit_with, load_queries, CliError};
use schematax_engine::inputs::Inputs;
use schematax_engine::replay::activation::Traffic;
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
    let Some(plain) = plain else {
        let page = PageFlags {
            input: &input,
            overrides: &overrides,
            traffic: &traffic,
            estimate_only,
            theme,
            queries: queries.as_deref(),
        };
        let mut line = ProgressLine::on_stderr();
        return match ending_cleanly(line.is_shown(), || build_page(&page, inputs, &mut line))? {
            Built::Page(text) => emit(&text, output.as_deref()),
            Built::Stopped(code) => Ok(code),
        };
    };
    // The tables show costs alone: their session indexes nothing unless a search asks.
    let mut session = Session::indexed(
        &inputs.config,
        &inputs.captures,
        &overrides,
        SearchIndexing::OnFirstSearch,
    );
    // The tables read the session alone from here, which shares what it needs of the captures
    // (descriptions and schemas): the rest of them (names, titles, hints) goes.
    inputs.captures = Vec::new();
    if !estimate_only {
        count_tokens(&mut session)?;
    }
    let report = CostReport::build(&inputs, &session, &traffic);
    drop((session, inputs));
    let written = emit_with(output.as_deref(), |out| report.write(plain, out));
    // The command ends here, and the process with it: the report's catalog goes back with the
    // process's memory rather than being freed tool by tool (at 100,000 tools, a twentieth of
    // a second on one core).
    std::mem::forget(report);
    written
}

/// What `report --format html` is asked for, beside its inputs.
struct PageFlags<'a> {
    input: &'a InputArgs,
    overrides: &'a Overrides,
    traffic: &'a Traffic,
    estimate_only: bool,
    theme: Option<Theme>,
    queries: Option<&'a Path>,
}

/// What building the page came to.
enum Built {
    /// The page's text.
    Page(String),
    /// A signal stopped the lint: the command's exit code.
    Stopped(ExitCode),
}

/// Builds the page, each stage shown on `line` (a signal meanwhile ends the process, or stops
/// the lint through its flag: nothing is written either way).
fn build_page(
    flags: &PageFlags<'_>,
    inputs: Inputs,
    line: &mut ProgressLine,
) -> Result<Built, CliError> {
    let PageFlags {
        input,
        overrides,
        traffic,
        estimate_only,
        theme,
        queries,
    } = *flags;
    let set = load_queries(queries)?;
    // The other profile: its session is built, read and given back before the chosen one is
    // built, so two are never held at once; it shows costs alone, so it is not indexed.
    let chosen = overrides.profile_for(&inputs.config);
    let other_profile = chosen.contrast();
    line.stage(&format!(
        "building the page: {} for contrast",
        other_profile.id()
    ));
    let other = Session::indexed(
        &inputs.config,
        &inputs.captures,
        &Overrides {
            profile: Some(other_profile),
            ..overrides.clone()
        },
        SearchIndexing::OnFirstSearch,
    );
    let other = OtherProfile::of(&inputs, &other, traffic);
    // The agents section: the catalog in every agent, as `compare --agent` of all of them
    // builds it, with Hermes at this page's release; built before the chosen session.
    let every = every_agent(&input.session);
    let agents_line = Mutex::new(&mut *line);
    let parts = CompareParts {
        session: &every,
        inputs: &inputs,
        queries: None,
        limit: None,
        estimate_only,
        warn: false,
        progress: &|done, total| {
            let mut line = agents_line.lock().unwrap_or_else(PoisonError::into_inner);
            line.update("building the page's agents", (done, total), "agents");
        },
    };
    let agents = crate::cli::agent::compare(&parts)?;
    // The page searches (its lint and queries): its session indexes with the catalog.
    line.stage(&format!(
        "building the page: its catalog under {}",
        chosen.id()
    ));
    let mut session = Session::indexed(
        &inputs.config,
        &inputs.captures,
        overrides,
        SearchIndexing::WithCatalog,
    );
    if !estimate_only {
        count_showing_progress(&mut session, line)?;
    }
    let report = CostReport::build(&inputs, &session, traffic);
    let findings = match lint_showing_progress(&session, line) {
        Ok(findings) => findings,
        Err(signal) => return Ok(Built::Stopped(ExitCode::from(signal.exit_code()))),
    };
    line.stage("building the page: rendering it");
    let parts = PageParts {
        inputs: &inputs,
        session: &session,
        findings,
        other,
        queries: set.as_ref(),
        theme: theme.unwrap_or_default().into(),
        agents: Some(agents),
    };
    let page = PageReport::build(parts, report).render();
    line.clear();
    Ok(Built::Page(page))
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
