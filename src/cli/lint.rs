//! `schematax lint`: tool description quality and findability.

use std::io::Write;
use std::process::ExitCode;

use crate::cli::args::{FailOn, LintArgs};
use crate::cli::progress::{lint_showing_progress, ProgressLine};
use crate::cli::{emit_with, load_queries, CliError, EXIT_FAILURE};
use schematax_engine::analyses::lint::Severity;
use schematax_report::lint::LintReport;

/// Runs the command.
pub fn run(args: LintArgs) -> Result<ExitCode, CliError> {
    let LintArgs {
        input,
        format,
        output,
        fail_on,
        queries,
        limit,
    } = args;
    let inputs = input.inputs()?;
    if let Some(chosen) = input.session.other_agent(&inputs) {
        let output = crate::cli::args::OutputArgs {
            format: crate::cli::agent::plain_lint_format(format)?,
            output,
        };
        return crate::cli::agent::lint(chosen, &input.session, &inputs, (limit, fail_on), &output);
    }
    let (inputs, session) = input.session.searching_session(inputs)?;
    let set = load_queries(queries.as_deref())?;
    let sources = inputs
        .captures
        .iter()
        .map(|c| (c.server.clone(), c.source.display().to_string()))
        .collect();
    // The session holds all the rules read: the captures' parsed JSON is given back
    // before the lint starts.
    drop(inputs);
    let mut findings = match lint_showing_progress(&session, &mut ProgressLine::on_stderr()) {
        Ok(findings) => findings,
        Err(signal) => return Ok(ExitCode::from(signal.exit_code())),
    };
    if let Some(set) = set {
        let k = limit.unwrap_or(session.settings().search_default_limit as usize);
        findings.add_queries(&set, k);
    }
    drop(session);
    let report = LintReport::build(findings, sources);
    // A table on a terminal is cut to its width: a finding's message may be very long.
    let columns = match (format, &output) {
        (crate::cli::choices::LintFormat::Table, None) => schematax_tui::stdout_columns(),
        _ => None,
    };
    emit_with(output.as_deref(), |out| match columns {
        Some(columns) => {
            let mut cut = LinesCut::new(out, columns);
            report.write(format.into(), &mut cut)?;
            cut.finish()
        }
        None => report.write(format.into(), out),
    })?;
    let level = fail_on.map(|f| match f {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    });
    Ok(match level {
        Some(level) if report.reaches(level) => ExitCode::from(EXIT_FAILURE),
        _ => ExitCode::SUCCESS,
    })
}

/// A writer that cuts every line to a number of terminal columns (an ellipsis marks a cut).
struct LinesCut<'a> {
    inner: &'a mut dyn Write,
    columns: usize,
    line: Vec<u8>,
}

impl<'a> LinesCut<'a> {
    fn new(inner: &'a mut dyn Write, columns: usize) -> Self {
        LinesCut {
            inner,
            columns,
            line: Vec::new(),
        }
    }

    /// Writes a line held so far, cut.
    fn write_line(&mut self) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.line);
        let cut = schematax_engine::text::clip(&text, self.columns);
        self.line.clear();
        self.inner.write_all(cut.as_bytes())
    }

    /// Writes what is left of the last line.
    fn finish(mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            self.write_line()?;
        }
        self.inner.flush()
    }
}

impl Write for LinesCut<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for piece in bytes.split_inclusive(|b| *b == b'\n') {
            match piece.strip_suffix(b"\n") {
                Some(line) => {
                    self.line.extend_from_slice(line);
                    self.write_line()?;
                    self.inner.write_all(b"\n")?;
                }
                None => self.line.extend_from_slice(piece),
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_to_the_columns_wherever_the_writes_split_them() {
        let mut out = Vec::new();
        let mut cut = LinesCut::new(&mut out, 5);
        cut.write_all(b"abc\nabcdefgh").unwrap();
        cut.write_all(b"ij\nxy").unwrap();
        cut.finish().unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "abc\nabcd…\nxy");
    }
}
