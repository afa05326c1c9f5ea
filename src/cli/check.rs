//! `schematax check`: the budget gate for CI.

use std::process::ExitCode;

use crate::cli::args::CheckArgs;
use crate::cli::{count_tokens, emit, CliError, EXIT_FAILURE};
use schematax_engine::replay::activation::Traffic;
use schematax_engine::replay::session::Session;
use schematax_report::check::{Baseline, Budget, CheckReport};
use schematax_report::cost::CostReport;

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
    let mut session = Session::new(&inputs.config, &inputs.captures, &input.overrides(&inputs)?);
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
    if let Some(config) = &inputs.config_path {
        sources.insert("total".into(), config.display().to_string());
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
