//! `schematax compare`: the same inputs under several releases side by side.

use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};

use crate::cli::args::{AgentArg, CompareArgs, SessionArgs};
use crate::cli::progress::{ending_cleanly, ProgressLine};
use crate::cli::{emit, load_queries, CliError};
use schematax_engine::analyses::compare::ProfileComparison;
use schematax_releases::Profile;
use schematax_report::compare::CompareReport;

/// Runs the command.
pub fn run(args: CompareArgs) -> Result<ExitCode, CliError> {
    let CompareArgs {
        queries,
        limit,
        estimate_only,
        input,
        output,
    } = args;
    let inputs = input.inputs()?;
    let set = load_queries(queries.as_deref())?;
    let asks_agents = input
        .session
        .agent
        .iter()
        .any(|a| matches!(a, AgentArg::Other(..)))
        || input.session.agent.len() > 1;
    if asks_agents {
        let line = ProgressLine::on_stderr();
        let shown = line.is_shown();
        let line = Mutex::new(line);
        let parts = crate::cli::agent::CompareParts {
            session: &input.session,
            inputs: &inputs,
            queries: set.as_ref(),
            limit,
            estimate_only,
            warn: true,
            progress: &|done, total| {
                let mut line = line.lock().unwrap_or_else(PoisonError::into_inner);
                line.update("comparing agents", (done, total), "agents");
            },
        };
        let report = ending_cleanly(shown, || crate::cli::agent::compare(&parts))?;
        drop(line);
        return emit(
            &report.render(output.format.into()),
            output.output.as_deref(),
        );
    }
    if estimate_only {
        return Err(CliError::Usage(
            "--estimate-only applies to `compare --agent`; the releases are compared in chars/4"
                .into(),
        ));
    }
    let profiles = match input.session.profiles().as_slice() {
        [] | [_] => {
            let chosen = input.overrides(&inputs)?.profile_for(&inputs.config);
            vec![chosen.contrast().min(chosen), chosen.contrast().max(chosen)]
        }
        many => distinct_profiles(&input.session, many)?,
    };
    let comparison = ProfileComparison::build(
        &inputs.config,
        &inputs.captures,
        &input.overrides(&inputs)?,
        &profiles,
        set.as_ref(),
        limit,
    );
    if let Some(first) = profiles.first() {
        crate::cli::args::warn_on_stderr(&inputs, *first);
    }
    let report = CompareReport::build(&inputs, &comparison);
    emit(
        &report.render(output.format.into()),
        output.output.as_deref(),
    )
}

/// The profiles asked for, each once: versions that replay one engine (`--hermes 0.18,0.19`)
/// are compared once, and a note on stderr says which; when one engine is all that is left,
/// there is nothing to compare.
fn distinct_profiles(session: &SessionArgs, asked: &[Profile]) -> Result<Vec<Profile>, CliError> {
    let mut distinct: Vec<Profile> = Vec::new();
    for profile in asked {
        if !distinct.contains(profile) {
            distinct.push(*profile);
        }
    }
    let versions = |profile: Profile| -> Vec<String> {
        session
            .hermes
            .iter()
            .filter(|m| m.profile == profile)
            .map(|m| m.asked.clone())
            .collect()
    };
    let shared: Vec<String> = distinct
        .iter()
        .filter(|p| asked.iter().filter(|a| a == p).count() > 1)
        .map(|&p| {
            let named = versions(p);
            if named.is_empty() {
                format!("{p} was named more than once")
            } else {
                format!("{} replay one engine ({p})", named.join(" and "))
            }
        })
        .collect();
    if distinct.len() < 2 {
        return Err(CliError::Usage(format!(
            "nothing to compare: {}",
            shared.join("; ")
        )));
    }
    for note in shared {
        eprintln!("schematax: note: {note}: compared once");
    }
    Ok(distinct)
}
