//! `schematax capture`: tool lists from live MCP servers.

use schematax_report::words::Words;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::args::CaptureArgs;
use crate::cli::{emit, CliError, EXIT_FAILURE};
use schematax_capture::signals::Signal;
use schematax_capture::{
    choose_servers, client_config_servers, config_servers, CaptureError, NamedServer, ServerSpec,
};
use schematax_engine::inputs::client_config::load_client_config;
use schematax_engine::inputs::error::InputError;
use schematax_engine::nouns::config::{Config, Transport};

/// `schematax capture`: 0 when every server was captured, 1 when some failed; SIGINT, SIGTERM
/// or SIGHUP stop every server and remove half-written files, then exit with 128 + the signal.
pub fn run(args: &CaptureArgs) -> Result<ExitCode, CliError> {
    use schematax_capture::capture_all;
    let specs = servers_to_capture(args)?;
    let out = match (&args.out, &args.config) {
        (Some(out), _) => out.clone(),
        (None, Some(config)) => beside(config),
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
    if results.iter().any(Result::is_ok) {
        if let Some(line) = where_they_are(args.config.as_deref(), &out) {
            text.push_str(&schematax_engine::text::sanitize(&line));
            text.push('\n');
        }
    }
    emit(&text, None)?;
    Ok(if failed > 0 {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    })
}

/// The servers `args` name: the ad-hoc one (`--name` with a command or `--url`), then the
/// config's and those of `--client-config` files (`--server` picks among both), in that order.
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
            cwd: None,
            secrets: Vec::new(),
        }),
        (Some(_), false) => return Err(usage("--name needs a command after `--` or --url")),
        (None, _) => {}
    }
    if !args.servers.is_empty() && args.config.is_none() && args.client_configs.is_empty() {
        return Err(usage("--server needs a CONFIG or --client-config"));
    }
    let mut named: Vec<NamedServer> = Vec::new();
    if let Some(path) = &args.config {
        let config = Config::load(path)?;
        for warning in &config.warnings {
            eprintln!(
                "schematax: warning: {}",
                schematax_engine::text::sanitize(&warning.words())
            );
        }
        named.extend(config_servers(&config));
    }
    for path in &args.client_configs {
        named.extend(client_config_servers(&load_client_config(path)?));
    }
    if let Some(name) = args
        .servers
        .iter()
        .find(|name| !named.iter().any(|s| &s.spec.name == *name))
    {
        let missing = CaptureError::NoSuchServer { name: name.clone() };
        return Err(match (&args.config, args.client_configs.as_slice()) {
            (Some(path), []) => InputError::new(path, missing.to_string()).into(),
            (config, client_configs) => {
                let files: Vec<String> = config
                    .iter()
                    .chain(client_configs)
                    .map(|p| p.display().to_string())
                    .collect();
                CliError::Usage(format!(
                    "no server {:?} in {}",
                    schematax_engine::text::sanitize(name),
                    schematax_engine::text::sanitize(&files.join(", "))
                ))
            }
        });
    }
    specs.extend(choose_servers(named, &args.servers));
    if specs.is_empty() {
        return Err(usage("nothing to capture: give a CONFIG with mcp_servers, --client-config, or --name with a command or --url"));
    }
    Ok(specs)
}

/// The `tools/` folder beside a config: where capture writes and the other commands read.
fn beside(config: &Path) -> PathBuf {
    config.parent().unwrap_or(Path::new(".")).join("tools")
}

/// Where the captures went and the command that reads them, when a plain `report` of the same
/// config (or, without one, of the embedded sample) would not.
fn where_they_are(config: Option<&Path>, out: &Path) -> Option<String> {
    match config {
        Some(config) if beside(config) == out => None,
        Some(config) => Some(format!(
            "captures in {}; read them with: schematax report {} --tools {} (`schematax report {}` reads {})",
            out.display(),
            shell_word(config),
            shell_word(out),
            shell_word(config),
            beside(config).display()
        )),
        None => Some(format!(
            "captures in {}; read them with: schematax report --tools {} (without a config, `schematax report` reads the embedded sample)",
            out.display(),
            shell_word(out)
        )),
    }
}

/// A path as one shell word: as it is when that is safe, else in single quotes.
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c));
    if plain {
        text
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_shell_words() {
        assert_eq!(shell_word(Path::new("tools")), "tools");
        assert_eq!(shell_word(Path::new("/tmp/my tools")), "'/tmp/my tools'");
        assert_eq!(shell_word(Path::new("it's")), "'it'\\''s'");
    }

    #[test]
    fn the_reading_command_is_given_when_report_would_not_find_them() {
        let config = Path::new("conf/hermes.yaml");
        assert_eq!(where_they_are(Some(config), Path::new("conf/tools")), None);
        assert_eq!(
            where_they_are(Some(config), Path::new("elsewhere")).as_deref(),
            Some("captures in elsewhere; read them with: schematax report conf/hermes.yaml --tools elsewhere (`schematax report conf/hermes.yaml` reads conf/tools)")
        );
        assert!(where_they_are(None, Path::new("tools"))
            .unwrap()
            .contains("read them with: schematax report --tools tools ("));
    }
}
