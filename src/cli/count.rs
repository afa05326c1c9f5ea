//! `schematax count`: one text in every tokenizer.

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::cli::args::CountArgs;
use crate::cli::{emit, CliError};
use schematax_engine::tokenizers::{LoadedTokenizer, Tokenizer};
use schematax_report::count::CountReport;

/// Runs the command.
pub fn run(args: CountArgs) -> Result<ExitCode, CliError> {
    let CountArgs {
        text,
        tokenizer,
        output,
    } = args;
    let choice = match (&tokenizer.tokenizer, &tokenizer.model) {
        (None, None) => None,
        _ => Some(tokenizer.choice(None)?),
    };
    let text = match text.as_deref() {
        Some("-") | None => read_stdin()?,
        Some(text) => text.to_string(),
    };
    // A Claude or OpenAI model's tokenizer is a row already; a file is added.
    let files = match choice.map(|c| c.tokenizer) {
        Some(file @ Tokenizer::HuggingFace(_)) => {
            vec![(file.name(), LoadedTokenizer::shared(&file)?)]
        }
        _ => Vec::new(),
    };
    let report = CountReport::build(&text, &files)?;
    emit(
        &report.render(output.format.into()),
        output.output.as_deref(),
    )
}

/// Standard input as text (64 MiB at most), refused when it is a terminal nobody is typing into.
fn read_stdin() -> Result<String, CliError> {
    use std::io::Read;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(CliError::Usage(
            "count: give the text as an argument, or pipe it in (`-` reads standard input)".into(),
        ));
    }
    let limit = schematax_engine::inputs::capture_file::MAX_CAPTURE_BYTES;
    let mut bytes = Vec::new();
    stdin
        .lock()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Usage(format!("count: cannot read standard input: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::Usage(format!(
            "count: standard input is over {} MiB",
            limit / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes)
        .map_err(|e| CliError::Usage(format!("count: standard input is not UTF-8 text ({e})")))
}
