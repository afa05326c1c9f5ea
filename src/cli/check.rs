//! `schematax check`: the budget gate for CI.

use std::process::ExitCode;

use crate::cli::args::CheckArgs;
use crate::cli::{count_tokens, emit, CliError, EXIT_FAILURE};
use schematax_engine::inputs::{Inputs, SAMPLE_CONFIG_PATH, SAMPLE_LABEL};
use schematax_engine::replay::activation::Traffic;
use schematax_engine::replay::session::{SearchIndexing, Session};
use schematax_report::check::{Baseline, Budget, CheckReport};
use schematax_report::cost::CostReport;
use schematax_report::words::Words;

/// Runs the command.
pub fn run(args: CheckArgs) -> Result<ExitCode, CliError> {
    let CheckArgs {
        input,
        max_tokens,
        max_server_tokens,
        baseline,
        max_increase,
        estimate_only,
        format,
        output,
    } = args;
    if max_tokens.is_none() && max_server_tokens.is_empty() && baseline.is_none() {
        return Err(CliError::Usage(
            "check needs a budget: --max-tokens N, --max-server-tokens NAME=N, or --baseline FILE with --max-increase PCT".into(),
        ));
    }
    let inputs = input.inputs()?;
    // A budget reads costs alone: nothing is indexed for search.
    let mut session = Session::indexed(
        &inputs.config,
        &inputs.captures,
        &input.overrides(&inputs)?,
        SearchIndexing::OnFirstSearch,
    );
    // Nothing measured: no capture read, or no server connected. (Connected servers that
    // list no tool, or a scope that leaves none, are measured: at 0.)
    let connected = (0..session.servers().len()).any(|s| session.is_connected(s));
    if inputs.captures.is_empty() || !connected {
        return Err(CliError::MeasuredNothing {
            why: nothing_measured(&inputs, &session),
        });
    }
    if let Some(unknown) = max_server_tokens
        .iter()
        .find(|(name, _)| !session.servers().iter().any(|s| s.name == *name))
    {
        return Err(CliError::Usage(format!(
            "--max-server-tokens: no server {:?} in this session",
            unknown.0
        )));
    }
    let tokenizer = if estimate_only {
        None
    } else {
        Some(count_tokens(&mut session)?)
    };
    let report = CostReport::build(&inputs, &session, &Traffic::default());
    let baseline = match &baseline {
        Some(path) => {
            let loaded = Baseline::load(path)?;
            loaded.check_config(path, &report)?;
            Some(loaded)
        }
        None => None,
    };
    let budget = Budget {
        max_tokens,
        per_server: max_server_tokens,
        max_increase_pct: max_increase,
    };
    // Where each figure comes from: the config for the total, the captures per server.
    let mut sources: std::collections::BTreeMap<String, String> = inputs
        .captures
        .iter()
        .map(|c| (c.server.clone(), c.source.display().to_string()))
        .collect();
    match &inputs.config_path {
        Some(config) => {
            sources.insert("total".into(), config.display().to_string());
        }
        // The embedded sample's total is its config's.
        None if inputs.config_source() == SAMPLE_LABEL => {
            sources.insert("total".into(), SAMPLE_CONFIG_PATH.into());
        }
        None => {}
    }
    let check = CheckReport::build(
        &report,
        baseline.as_ref(),
        &budget,
        tokenizer.as_deref(),
        sources,
    );
    emit(&check.render(format.into()), output.as_deref())?;
    Ok(if check.pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILURE)
    })
}

/// Why a session measured nothing, in words: no capture was read, or the release connects none
/// of the captured servers (the config's first warning, which may say why).
fn nothing_measured(inputs: &Inputs, session: &Session) -> String {
    if inputs.captures.is_empty() {
        return format!(
            "no capture of a server was read from {}",
            inputs.config_label
        );
    }
    let first_warning = inputs
        .warnings(session.profile())
        .next()
        .map(|w| format!(" ({})", w.words()))
        .unwrap_or_default();
    format!(
        "{} connects none of the {} captured servers{first_warning}",
        session.profile(),
        inputs.captures.len()
    )
}
