//! Why a server could not be captured: one type for every step (starting it, talking to it,
//! reading its answers, saving them), each printed as one line. Text that comes from a server
//! is made one line, clipped and stripped of secrets before it goes into an error.

use std::path::PathBuf;

use crate::limits::{MAX_CAPTURE_BYTES, MAX_CAPTURE_VALUES, MAX_MESSAGE_BYTES, MAX_PAGES};

/// Non-JSON lines a server wrote on stdout before an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Garbage {
    /// How many.
    pub lines: usize,
    /// The last one, clipped.
    pub last: String,
}

/// Why a capture failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CaptureError {
    /// `--server NAME` names no server of the config.
    #[error("no server {name:?} in mcp_servers")]
    NoSuchServer {
        /// The name asked for.
        name: String,
    },
    /// A config entry with neither `command` nor `url`.
    #[error("neither `command` nor `url` is configured")]
    NoTransport,
    /// The command does not exist.
    #[error("command not found: {command}")]
    CommandNotFound {
        /// The command.
        command: String,
    },
    /// The command is not executable.
    #[error("command not executable: {command}")]
    NotExecutable {
        /// The command.
        command: String,
    },
    /// The command could not be started for another reason.
    #[error("cannot start {command}: {reason}")]
    Start {
        /// The command.
        command: String,
        /// The system's reason.
        reason: String,
    },
    /// A configured working directory (`cwd`) that is not a folder.
    #[error("the working directory {} is not a folder", .path.display())]
    NoWorkingDirectory {
        /// The directory, its variables filled.
        path: PathBuf,
    },
    /// The URL is not http(s).
    #[error("not an http(s) URL: {url}")]
    NotHttp {
        /// The URL.
        url: String,
    },
    /// The server's process ended (or closed its stdout) before it answered.
    #[error("server exited before answering ({status}){}", last_line(.stderr))]
    Exited {
        /// `exit status 3`, `killed by signal 9` or `closed its stdout`.
        status: String,
        /// Its last stderr line (redacted), when it wrote one.
        stderr: Option<String>,
    },
    /// A connection reached its deadline without a message.
    #[error("no answer in time")]
    TimedOut,
    /// The capture's deadline passed before the answer came.
    #[error("not done within the --timeout of {seconds} s for the whole capture")]
    NoAnswerWithin {
        /// The timeout.
        seconds: f64,
    },
    /// The server sent more than [`MAX_CAPTURE_BYTES`] in one capture.
    #[error(
        "the server sent over {} MiB, more than a capture file may hold",
        MAX_CAPTURE_BYTES / (1024 * 1024)
    )]
    CaptureTooLarge,
    /// The server stopped reading what schematax sends it.
    #[error("the server stopped reading its stdin ({0} messages unsent)")]
    NotReading(usize),
    /// An HTTP redirect to another origin: the configured headers are not sent there.
    #[error("redirected to another origin ({to}); the configured headers go only to {from}: put that URL in the config if you trust it")]
    CrossOriginRedirect {
        /// The origin asked.
        from: String,
        /// Where the redirect points (clipped).
        to: String,
    },
    /// Too many HTTP redirects, or one without a Location.
    #[error("HTTP {status} redirect {reason}")]
    BadRedirect {
        /// The status code.
        status: u16,
        /// What is wrong with it.
        reason: String,
    },
    /// Two servers whose capture files would have the same name.
    #[error("its capture file {file} would replace that of server {other:?}: rename one of them")]
    SameFile {
        /// The file name.
        file: String,
        /// The server captured to it.
        other: String,
    },
    /// One message over [`MAX_MESSAGE_BYTES`].
    #[error("a message over {} MiB", MAX_MESSAGE_BYTES / (1024 * 1024))]
    TooLarge,
    /// The server sent more than [`MAX_CAPTURE_VALUES`] JSON values in one capture.
    #[error(
        "the server sent over {} JSON values, more than a list of tools needs",
        schematax_engine::text::thousands(MAX_CAPTURE_VALUES)
    )]
    TooManyValues,
    /// The server's stderr log would be written through a link or into a special file.
    #[error("{} is {what}: a server's stderr log is written only to a file of its own; remove it or choose another --out", .path.display())]
    UnsafeLog {
        /// The log's path.
        path: PathBuf,
        /// What is there (`a symbolic link`, ...).
        what: String,
    },
    /// An HTTP request failed below HTTP (connection refused, TLS, ...).
    #[error("HTTP request failed: {reason}")]
    Request {
        /// Why (redacted).
        reason: String,
    },
    /// The server answered with a non-2xx HTTP status.
    #[error("server answered HTTP {status} to {method}")]
    HttpStatus {
        /// The status code.
        status: u16,
        /// The method of the message, or `a response`.
        method: String,
    },
    /// An HTTP answer body could not be read.
    #[error("reading the response: {reason}")]
    Read {
        /// Why (redacted).
        reason: String,
    },
    /// An HTTP request was answered without the message it asked for.
    #[error("the server sent no answer to the request")]
    NoAnswer,
    /// Something went wrong while waiting for the answer to `method`.
    #[error("{cause} (while waiting for {method}{})", garbage_note(.garbage))]
    Waiting {
        /// The request.
        method: String,
        /// What went wrong.
        cause: Box<CaptureError>,
        /// Non-JSON lines seen on stdout until then.
        garbage: Option<Garbage>,
    },
    /// The server answered a request with a JSON-RPC error.
    #[error("server answered {method} with error {code}: {message}")]
    ErrorResponse {
        /// The request.
        method: String,
        /// The JSON-RPC error code.
        code: i64,
        /// Its message (one line, redacted).
        message: String,
    },
    /// A response with neither `result` nor `error`.
    #[error("server answered {method} without a result")]
    NoResult {
        /// The request.
        method: String,
    },
    /// A `tools/list` page without a `tools` array.
    #[error("tools/list page {page} has no tools array")]
    NoToolsArray {
        /// The page, from 1.
        page: usize,
    },
    /// Pagination came back to a cursor it had already given.
    #[error("tools/list repeated the cursor {cursor:?} (page {page}); stopped")]
    RepeatedCursor {
        /// The cursor (clipped, redacted).
        cursor: String,
        /// The page, from 1.
        page: usize,
    },
    /// Pagination went on for more than [`MAX_PAGES`] pages.
    #[error("tools/list gave more than {} pages; stopped", MAX_PAGES)]
    TooManyPages,
    /// The tools the server listed do not make a capture.
    #[error("the server's tools are unusable: {reason}")]
    Unusable {
        /// Why.
        reason: schematax_engine::inputs::capture_file::CaptureFileError,
    },
    /// The capture file could not be written.
    #[error("cannot write {}: {reason}", .path.display())]
    Write {
        /// The capture file.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// schematax is exiting (a signal, or the view closed): nothing new is started or saved.
    #[error("stopped: schematax is exiting")]
    Stopped,
    /// The capture's thread panicked.
    #[error("capture thread panicked")]
    Panicked,
}

fn last_line(stderr: &Option<String>) -> String {
    stderr
        .as_ref()
        .map(|line| format!(": {line}"))
        .unwrap_or_default()
}

fn garbage_note(garbage: &Option<Garbage>) -> String {
    match garbage {
        Some(g) => format!(
            "; {} non-JSON line{} on stdout, last: {:?}",
            g.lines,
            if g.lines == 1 { "" } else { "s" },
            g.last
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_print_one_line() {
        let timeout = CaptureError::Waiting {
            method: "initialize".into(),
            cause: Box::new(CaptureError::NoAnswerWithin { seconds: 5.0 }),
            garbage: None,
        };
        assert_eq!(
            timeout.to_string(),
            "not done within the --timeout of 5 s for the whole capture (while waiting for initialize)"
        );
        let garbage = CaptureError::Waiting {
            method: "tools/list".into(),
            cause: Box::new(CaptureError::Exited {
                status: "exit status 3".into(),
                stderr: Some("fatal: cannot reach the backend".into()),
            }),
            garbage: Some(Garbage {
                lines: 2,
                last: "still starting...".into(),
            }),
        };
        assert_eq!(
            garbage.to_string(),
            "server exited before answering (exit status 3): fatal: cannot reach the backend \
             (while waiting for tools/list; 2 non-JSON lines on stdout, last: \"still starting...\")"
        );
        assert_eq!(CaptureError::TooLarge.to_string(), "a message over 16 MiB");
        assert_eq!(
            CaptureError::TooManyValues.to_string(),
            "the server sent over 500,000 JSON values, more than a list of tools needs"
        );
        assert_eq!(
            CaptureError::TooManyPages.to_string(),
            "tools/list gave more than 1000 pages; stopped"
        );
    }
}
