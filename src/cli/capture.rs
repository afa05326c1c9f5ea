//! `schematax capture`: tool lists from live MCP servers.

use schematax_report::words::Words;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::args::CaptureArgs;
use crate::cli::{emit, CliError, EXIT_FAILURE};
use schematax_capture::signals::Signal;
use schematax_capture::{client_config, specs_from_config, CaptureError, ServerSpec};
use schematax_engine::inputs::error::InputError;
use schematax_engine::nouns::config::{Config, Transport};

/// `schematax capture`: 0 when every server was captured, 1 when some failed; SIGINT, SIGTERM
/// or SIGHUP stop every server and remove half-written files, then exit with 128 + the signal.
pub fn run(args: &CaptureArgs) -> Result<ExitCode, CliError> {
    use schematax_capture::capture_all;
    let specs = servers_to_capture(args)?;
    let out = match (&args.out, &args.config) {
        (Some(out), _) => out.clone(),
        (None, Some(config)) => config.parent().unwrap_or(Path::new(".")).join("tools"),
        (None, None) => PathBuf::from("tools"),
    };
    // The folder is made by the first capture saved: a run where all fail leaves none.
    schematax_capture::signals::watch(&Signal::ENDING, |signal| {
        schematax_capture::cleanup::abort();
        eprintln!(
            "schematax: {}: capture stopped; servers ended",
            signal.name()
        );
        std::process::exit(i32::from(signal.exit_code()));
    })
    .map_err(|e| CliError::Usage(format!("cannot handle signals: {e}")))?;
    let timeout = std::time::Duration::from_secs_f64(args.timeout);
    // Progress goes to a terminal only: the summary below reports each server once.
    let interactive = std::io::stderr().is_terminal();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = specs.len();
    let report = |name: &str, result: &Result<schematax_capture::Saved, CaptureError>| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if interactive {
            eprintln!(
                "schematax: {n}/{total} done: {} {}",
                schematax_engine::text::sanitize(name),
                if result.is_ok() { "captured" } else { "failed" }
            );
        }
    };
    let results = capture_all(&specs, timeout, &out, &report);
    let mut text = String::new();
    let mut failed = 0;
    for (spec, result) in specs.iter().zip(&results) {
        match result {
            Ok(saved) => {
                text.push_str(&format!(
                    "{}\n",
                    schematax_engine::text::sanitize(&saved.summary())
                ));
                for note in &saved.notes {
                    text.push_str(&format!(
                        "  note: {}\n",
                        schematax_engine::text::sanitize(note)
                    ));
                }
            }
            Err(e) => {
                failed += 1;
                text.push_str(&format!(
                    "{}: FAILED: {}\n",
                    schematax_engine::text::sanitize(&spec.name),
                    schematax_engine::text::sanitize(&e.to_string())
                ));
            }
        }
    }
    emit(&text, None)?;
    Ok(if failed > 0 {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    })
}

/// The servers `args` name: the ad-hoc one (`--name` with a command or `--url`), the config's
/// (`--server` picks), and those of `--client-config` files, in that order.
fn servers_to_capture(args: &CaptureArgs) -> Result<Vec<ServerSpec>, CliError> {
    let usage = |text: &str| CliError::Usage(text.to_string());
    let mut specs: Vec<ServerSpec> = Vec::new();
    let ad_hoc = !args.command.is_empty() || args.url.is_some();
    match (&args.name, ad_hoc) {
        (Some(name), true) => specs.push(ServerSpec {
            name: name.clone(),
            transport: match &args.url {
                Some(url) => Transport::Http {
                    url: url.clone(),
                    headers: Vec::new(),
                },
                None => Transport::Stdio {
                    command: args.command[0].clone(),
                    args: args.command[1..].to_vec(),
                    env: Vec::new(),
                },
            },
            secrets: Vec::new(),
        }),
        (Some(_), false) => return Err(usage("--name needs a command after `--` or --url")),
        (None, _) => {}
    }
    if let Some(path) = &args.config {
        let config = Config::load(path)?;
        for warning in &config.warnings {
            eprintln!(
                "schematax: warning: {}",
                schematax_engine::text::sanitize(&warning.words())
            );
        }
        let chosen = specs_from_config(&config, &args.servers)
            .map_err(|e| InputError::new(path, e.to_string()))?;
        specs.extend(chosen);
    } else if !args.servers.is_empty() {
        return Err(usage("--server needs a CONFIG"));
    }
    for path in &args.client_configs {
        specs.extend(client_config::load(path)?);
    }
    if specs.is_empty() {
        return Err(usage("nothing to capture: give a CONFIG with mcp_servers, --client-config, or --name with a command or --url"));
    }
    Ok(specs)
}
