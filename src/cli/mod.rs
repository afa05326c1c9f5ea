//! Command-line parsing and the one dispatch from a command to the engine and a renderer.
//!
//! [`args`] holds every command's options; each command runs in a module of its own, and
//! [`run`] dispatches to it.

mod agent;
pub mod args;
mod capture;
mod card;
mod check;
mod choices;
mod compare;
mod count;
mod describe;
mod eval;
mod lint;
mod profiles;
mod progress;
mod report;
mod search;
mod sweep;
mod view;

pub use args::*;
pub use view::build_app;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use schematax_engine::analyses::eval::QuerySet;
use schematax_engine::inputs::error::InputError;
use schematax_engine::replay::session::Session;
use schematax_engine::tokenizers::{LoadedTokenizer, TokenizerError};
use std::sync::Arc;

/// Exit code of bad usage or unreadable input.
pub const EXIT_USAGE: u8 = 2;
/// Exit code of a command that ran but found a failure (e.g. `describe` of an unknown tool).
pub const EXIT_FAILURE: u8 = 1;

/// Counts every definition in the session's tokenizer, showing how far it is on a terminal
/// (see [`progress::count_showing_progress`]), and returns it for further counts.
pub fn count_tokens(session: &mut Session) -> Result<Arc<LoadedTokenizer>, CliError> {
    progress::count_showing_progress(session, &mut progress::ProgressLine::on_stderr())
}

/// Why a command could not run: one line, and the exit code it carries.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An input file could not be used.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The command line asks for something that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// The output could not be written.
    #[error("cannot write {target}: {reason}")]
    Output {
        /// Where the output was going.
        target: String,
        /// Why it failed, one line.
        reason: String,
    },
    /// The interactive view could not run.
    #[error(transparent)]
    Terminal(#[from] schematax_tui::TerminalError),
    /// A capture could not start.
    #[error(transparent)]
    Capture(#[from] schematax_capture::CaptureError),
    /// A tokenizer could not be loaded.
    #[error(transparent)]
    Tokenizer(#[from] TokenizerError),
    /// A gate had nothing to measure: it cannot pass.
    #[error("check measured nothing: {why}; a gate that measured no tool cannot pass")]
    MeasuredNothing {
        /// Why no tool was measured, one line.
        why: String,
    },
}

impl CliError {
    /// The process exit code: 2 (bad usage, unreadable input, unwritable output).
    pub fn exit_code(&self) -> u8 {
        EXIT_USAGE
    }
}

/// The inputs a command reads, as the person named them: the config and `--tools` paths, or
/// the embedded sample.
fn describe_inputs(input: &InputArgs) -> String {
    let paths: Vec<String> = input
        .config_path()
        .into_iter()
        .chain(input.session.tools.iter().map(PathBuf::as_path))
        .map(|p| p.display().to_string())
        .collect();
    if paths.is_empty() {
        "the embedded sample".to_string()
    } else {
        paths.join(", ")
    }
}

/// Runs a parsed command line: one command, one module. The process ends with the command:
/// `report` leaves its finished catalog to the process's exit rather than freeing it (run
/// again in one process, each report's memory would stay held).
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let command = cli.command.unwrap_or(Command::Tui(cli.tui));
    if let Some(session) = command.one_release() {
        if session.agent.len() > 1 {
            return Err(CliError::Usage(
                "--agent names one agent here; `schematax compare --agent A,B,...` takes several"
                    .into(),
            ));
        }
        // The view models other agents too (its agent switch starts on the one named).
        let models_other_agents =
            command.models_other_agents() || matches!(command, Command::Tui(_));
        if let (false, Some(args::AgentArg::Other(_, agent))) =
            (models_other_agents, session.agent.first())
        {
            return Err(CliError::Usage(format!(
                "--agent {}: this command replays Hermes only; `report`, `search`, `eval`, `lint`, `compare` and the view take other agents",
                agent.id
            )));
        }
    }
    if command
        .one_release()
        .is_some_and(|args| args.profiles().len() > 1)
    {
        return Err(CliError::Usage(
            "--hermes and --profile name one release here; `schematax compare` takes several"
                .into(),
        ));
    }
    match command {
        Command::Tui(args) => view::run(args),
        Command::Report(args) => report::run(args),
        Command::Card(args) => card::run(args),
        Command::Search(args) => search::run(args),
        Command::Describe(args) => describe::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Capture(args) => capture::run(&args),
        Command::Check(args) => check::run(args),
        Command::Count(args) => count::run(args),
        Command::Profiles(args) => profiles::run(args),
        Command::Agents(args) => agent::list(args.output),
        Command::Sweep(args) => sweep::run(args),
    }
}

/// Writes `output` as [`emit_with`] describes.
fn write_output(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    // A link the user named is followed to what it names (a dangling one is an error).
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    };
    let existing = std::fs::metadata(&target).ok();
    // A stream (`/dev/stdout`, a FIFO, a device) is written as it is, never truncated, and
    // appended to (a shell's `>>` keeps what it holds; `>` left it empty).
    let stream = path.starts_with("/dev") || path.starts_with("/proc");
    if stream || existing.as_ref().is_some_and(|meta| !meta.is_file()) {
        let file = std::fs::OpenOptions::new().append(true).open(path)?;
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        return out.flush();
    }
    replace_file(&target, existing.as_ref(), write)
}

/// Replaces the regular file at `path` (or makes it) whole: the text goes to a temporary file
/// beside it, created exclusively under an unpredictable name, which is renamed over it. A
/// replaced file keeps its permissions; a new one gets the default ones (0666 less the umask).
fn replace_file(
    path: &Path,
    existing: Option<&std::fs::Metadata>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("no folder {}", dir.display()),
        ));
    }
    let permissions = existing.map_or_else(
        || std::fs::Permissions::from_mode(0o666),
        std::fs::Metadata::permissions,
    );
    let temp = tempfile::Builder::new()
        .prefix(".schematax-")
        .suffix(".tmp")
        .permissions(permissions.clone())
        .tempfile_in(dir)?;
    let mut out = std::io::BufWriter::new(temp);
    write(&mut out)?;
    let temp = out
        .into_inner()
        .map_err(std::io::IntoInnerError::into_error)?;
    temp.as_file().sync_all()?;
    if existing.is_some() {
        // The umask applied at creation: a replaced file keeps exactly its mode.
        temp.as_file().set_permissions(permissions)?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Reads a queries file given with `--queries`.
fn load_queries(path: Option<&Path>) -> Result<Option<QuerySet>, CliError> {
    Ok(match path {
        Some(path) => Some(QuerySet::load(path)?),
        None => None,
    })
}

/// Writes to `output` (atomically: a temporary file renamed over it) or to stdout, where a
/// closed pipe (`| head`) ends quietly.
pub fn emit(text: &str, output: Option<&Path>) -> Result<ExitCode, CliError> {
    emit_with(output, |out| out.write_all(text.as_bytes()))
}

/// Like [`emit`], with the text written by `write` as it is made, through a buffer: a large
/// report is never held whole in memory.
///
/// A new or regular file is replaced atomically: the text goes to a temporary file beside it,
/// created exclusively under an unpredictable name, then renamed over it. Anything else the
/// path names (a FIFO, a device such as `/dev/stdout`, a symlink the user named) is written in
/// place, never replaced.
pub fn emit_with(
    output: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<ExitCode, CliError> {
    let failed = |target: &Path, e: std::io::Error| CliError::Output {
        target: target.display().to_string(),
        reason: schematax_engine::inputs::error::one_line(&e.to_string()),
    };
    if let Some(path) = output {
        return write_output(path, write)
            .map(|()| ExitCode::SUCCESS)
            .map_err(|e| failed(path, e));
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut stdout).and_then(|_| stdout.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(failed(Path::new("stdout"), e)),
    }
}
