//! `schematax` without a command: the interactive view, and what it prints when it closes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::args::{TuiArgs, DEFAULT_CAPTURE_TIMEOUT};
use crate::cli::{describe_inputs, emit, load_queries, CliError};
use schematax_capture::signals::Signal;
use schematax_engine::tokenizers::{LoadedTokenizer, Tokenizer};
use schematax_tui::Outcome;
use std::sync::Arc;

/// Runs the command.
pub fn run(args: TuiArgs) -> Result<ExitCode, CliError> {
    let inputs = describe_inputs(&args.input);
    let outcome = schematax_tui::run(inputs, move || build_app(&args));
    // Servers of a re-capture still running when the view closed are stopped, and
    // its half-written files removed.
    schematax_capture::cleanup::abort();
    let app = match outcome? {
        Outcome::Ran(app) => app,
        Outcome::Failed(error) => return Err(error),
        Outcome::Cancelled(Some(signal)) => return Ok(ExitCode::from(signal.exit_code())),
        Outcome::Cancelled(None) => return Ok(ExitCode::SUCCESS),
    };
    if app.ended_by == Some(Signal::Hangup) {
        // The terminal is gone: nobody is left to read anything.
        return Ok(ExitCode::from(Signal::Hangup.exit_code()));
    }
    for warning in &app.derived.warnings {
        eprintln!(
            "schematax: warning: {}",
            schematax_engine::text::sanitize(warning)
        );
    }
    if app.is_tuned() {
        // Printed after a SIGINT or SIGTERM, or a failed background job, too, so the tuning
        // is not lost.
        emit(
            &format!(
                "# Tuned in schematax; paste into hermes.yaml:\n{}",
                app.tuned_yaml()
            ),
            None,
        )?;
    }
    if let Some(failure) = &app.failed {
        // The tuning above is kept; the failure is the command's one line and exit code.
        return Err(schematax_tui::TerminalError::from(failure.clone()).into());
    }
    Ok(match app.ended_by {
        Some(signal) => ExitCode::from(signal.exit_code()),
        None => ExitCode::SUCCESS,
    })
}

/// The interactive view's model, built from the command line exactly as the binary builds it.
pub fn build_app(args: &TuiArgs) -> Result<schematax_tui::app::App, CliError> {
    let inputs = args.input.inputs()?;
    let queries = load_queries(args.queries.as_deref())?;
    let recapture = recapture_source(&inputs, &args.input.session.tools);
    let overrides = args.input.overrides(&inputs)?;
    if let Some(choice) = overrides.tokenizer.as_ref() {
        if matches!(choice.tokenizer, Tokenizer::HuggingFace(_)) {
            // A tokenizer.json that does not load stops the view before it opens (this runs
            // behind the loading screen); the view's counting then finds it loaded.
            LoadedTokenizer::shared(&choice.tokenizer)?;
        }
    }
    let agent = args.input.session.other_agent(&inputs);
    let mut app =
        schematax_tui::app::App::new(Arc::new(inputs), overrides, args.traffic.traffic(), queries);
    app.recapture = recapture;
    app.agent_settings.enable_tool_search = args.input.session.enable_tool_search.clone();
    app.choose_agent(agent);
    Ok(app)
}

/// Where the view's `R` captures from and to: the enabled servers of a config file on disk,
/// into the `tools/` folder beside it (or the first folder given with `--tools`), reading the
/// session's own capture paths again afterwards. None without a config file, without enabled
/// servers, or when `--tools` names only files.
fn recapture_source(
    inputs: &schematax_engine::inputs::Inputs,
    tools: &[PathBuf],
) -> Option<schematax_tui::state::RecaptureSource> {
    let config_path = inputs.config_path.as_ref()?;
    let specs = schematax_capture::specs_from_config(&inputs.config, &[]).ok()?;
    if specs.is_empty() {
        return None;
    }
    let (out_dir, reload) = if tools.is_empty() {
        let beside = config_path.parent().unwrap_or(Path::new(".")).join("tools");
        (beside.clone(), vec![beside])
    } else {
        (tools.iter().find(|p| p.is_dir())?.clone(), tools.to_vec())
    };
    Some(schematax_tui::state::RecaptureSource {
        config: inputs.config.clone(),
        specs,
        out_dir,
        reload,
        timeout: std::time::Duration::from_secs_f64(DEFAULT_CAPTURE_TIMEOUT),
    })
}
