//! A stdio MCP server: a child process in a process group of its own, spoken to with
//! newline-delimited JSON-RPC. Its stderr goes to a log; the whole group is killed when the
//! connection is dropped, or by [`super::cleanup::abort`] when schematax ends early.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cleanup::registry;
use crate::error::CaptureError;
use crate::limits::{ValueBudget, MAX_CAPTURE_BYTES, MAX_MESSAGE_BYTES};
use crate::protocol::{Connection, Incoming};
use crate::redact::StreamMasker;
use crate::Redactor;

/// Environment variables a server inherits; everything else comes from its configured `env`.
pub const BASELINE_ENV: [&str; 8] = [
    "PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "SHELL", "TMPDIR",
];
/// Largest stderr log kept per server.
pub const MAX_LOG_BYTES: usize = 1024 * 1024;
/// Lines read ahead of the client: a server that floods its stdout waits for schematax, so
/// what it sends is held a few lines at a time, not without bound.
const LINES_AHEAD: usize = 8;
/// Messages queued for a server that does not read them before the capture gives up.
const MAX_UNSENT: usize = 256;

/// What the stdout reader thread hands over.
enum Line {
    Text(Vec<u8>),
    TooLarge,
    /// The capture's whole budget is spent.
    OverBudget,
    End,
}

/// A running stdio server.
pub struct StdioConnection {
    child: Child,
    group: i32,
    /// Messages for the writer thread, which owns the server's stdin: a server that stops
    /// reading blocks that thread, never the capture.
    outbox: Option<Sender<Vec<u8>>>,
    /// Messages handed to the writer thread and not yet written.
    unsent: Arc<AtomicUsize>,
    lines: Receiver<Line>,
    received: u64,
    /// JSON values the server may still send.
    values: ValueBudget,
    last_stderr: Arc<Mutex<String>>,
    /// Disconnected when the stderr reader is done (the server closed its stderr).
    stderr_done: Receiver<()>,
}

impl StdioConnection {
    /// Starts `command args` with only the baseline environment plus `env`, in `cwd` when
    /// given (else schematax's own), its stderr going to `log` (redacted, at most
    /// [`MAX_LOG_BYTES`]).
    pub fn spawn(
        command: &str,
        args: &[String],
        env: &[(String, String)],
        cwd: Option<&Path>,
        log: Option<&Path>,
        redactor: &Redactor,
    ) -> Result<StdioConnection, CaptureError> {
        let mut process = Command::new(command);
        if let Some(cwd) = cwd {
            // Checked first: a missing folder would fail the start as a missing command does.
            if !cwd.is_dir() {
                return Err(CaptureError::NoWorkingDirectory {
                    path: cwd.to_path_buf(),
                });
            }
            process.current_dir(cwd);
        }
        process
            .args(args)
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for key in BASELINE_ENV {
            if let Some(value) = std::env::var_os(key) {
                process.env(key, value);
            }
        }
        process.envs(env.iter().map(|(k, v)| (k, v)));
        let (mut child, group) = registry().spawn(&mut process, command)?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take().expect("stdin is piped");
        let (sender, lines) = sync_channel(LINES_AHEAD);
        std::thread::spawn(move || read_lines(stdout, &sender));
        let (outbox, queued) = channel::<Vec<u8>>();
        let unsent = Arc::new(AtomicUsize::new(0));
        let pending = Arc::clone(&unsent);
        std::thread::spawn(move || write_lines(stdin, &queued, &pending));
        let last_stderr = Arc::new(Mutex::new(String::new()));
        let log = log.map(Path::to_path_buf);
        let tail = Arc::clone(&last_stderr);
        let redactor = redactor.clone();
        let (stderr_reading, stderr_done) = channel::<()>();
        std::thread::spawn(move || {
            drain_stderr(stderr, log, &tail, redactor);
            drop(stderr_reading);
        });
        Ok(StdioConnection {
            outbox: Some(outbox),
            unsent,
            child,
            group,
            lines,
            received: 0,
            values: ValueBudget::default(),
            last_stderr,
            stderr_done,
        })
    }

    /// Why the server stopped talking: its exit status and last stderr line.
    fn exit_reason(&mut self) -> CaptureError {
        let deadline = Instant::now() + Duration::from_secs(2);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => break None,
            }
        };
        // Let the stderr reader record the last line: it is done when the server's stderr
        // closes (a grandchild may hold it open: two seconds at most).
        let _ = self.stderr_done.recv_timeout(Duration::from_secs(2));
        let last = self
            .last_stderr
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        CaptureError::Exited {
            status: status
                .map(describe_status)
                .unwrap_or_else(|| "closed its stdout".into()),
            stderr: Some(last).filter(|l| !l.is_empty()),
        }
    }
}

fn describe_status(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "exited".into(),
    }
}

/// Writes each queued message to the server's stdin, until the queue or the pipe closes.
fn write_lines(mut stdin: ChildStdin, queued: &Receiver<Vec<u8>>, unsent: &AtomicUsize) {
    for line in queued {
        let written = stdin.write_all(&line).and_then(|()| stdin.flush());
        unsent.fetch_sub(1, Ordering::Relaxed);
        if written.is_err() {
            return;
        }
    }
}

/// Reads newline-delimited messages, refusing one over [`MAX_MESSAGE_BYTES`] and everything
/// past [`MAX_CAPTURE_BYTES`] in all: what is queued ahead never holds more than the budget.
fn read_lines(stdout: impl Read, sender: &std::sync::mpsc::SyncSender<Line>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut left = MAX_CAPTURE_BYTES;
    loop {
        let mut line = Vec::new();
        let limit = MAX_MESSAGE_BYTES as u64 + 1;
        match reader.by_ref().take(limit).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => {
                let _ = sender.send(Line::End);
                return;
            }
            Ok(_) if line.len() > MAX_MESSAGE_BYTES => {
                let _ = sender.send(Line::TooLarge);
                return;
            }
            Ok(_) if line.len() as u64 > left => {
                let _ = sender.send(Line::OverBudget);
                return;
            }
            Ok(_) => {
                left -= line.len() as u64;
                if sender.send(Line::Text(line)).is_err() {
                    return;
                }
            }
        }
    }
}

/// Refuses a stderr log path that holds anything but a regular file of its own: a symbolic
/// link, a FIFO, a device, a folder, or a file with other hard links would have the log
/// written somewhere the user did not ask for.
pub fn check_log_path(path: &Path) -> Result<(), CaptureError> {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    let what = if meta.file_type().is_symlink() {
        "a symbolic link"
    } else if !meta.is_file() {
        "not a regular file"
    } else if meta.nlink() > 1 {
        "a hard link to another file"
    } else {
        return Ok(());
    };
    Err(CaptureError::UnsafeLog {
        path: path.to_path_buf(),
        what: what.to_string(),
    })
}

/// Opens the stderr log for writing, emptied, without following a symbolic link or blocking
/// on a FIFO; refuses anything but a regular file with one link (planted since
/// [`check_log_path`] looked).
fn open_log(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() || meta.nlink() > 1 {
        return Err(std::io::Error::other("not a file of its own"));
    }
    file.set_len(0)?;
    Ok(file)
}

/// Where the server's stderr goes: the log (made when there is something to write, capped)
/// and its last non-empty line.
struct StderrSink<'a> {
    log_path: Option<PathBuf>,
    log: Option<std::fs::File>,
    written: usize,
    last: &'a Mutex<String>,
}

impl StderrSink<'_> {
    /// Takes a masked piece of stderr.
    fn take(&mut self, text: &str) {
        let trimmed = text.trim();
        if !trimmed.is_empty() {
            if let Ok(mut last) = self.last.lock() {
                *last = schematax_engine::text::clip(trimmed, 200);
            }
        }
        if let Some(path) = self.log_path.take() {
            self.log = open_log(&path).ok();
        }
        if let Some(file) = &mut self.log {
            if self.written < MAX_LOG_BYTES {
                let _ = file.write_all(text.as_bytes());
                self.written += text.len();
                if self.written >= MAX_LOG_BYTES {
                    let _ = file.write_all(b"\n[schematax: log truncated at 1 MiB]\n");
                }
            }
        }
    }
}

/// Copies stderr to the log (masked, capped; the file made only when there is something to
/// write) and keeps its last non-empty line. A line is read 64 KiB at a time: what may be the
/// start of a secret that the next piece completes is held back until that piece is read.
fn drain_stderr(
    stderr: impl Read,
    log_path: Option<PathBuf>,
    last: &Mutex<String>,
    redactor: Redactor,
) {
    let mut sink = StderrSink {
        log_path,
        log: None,
        written: 0,
        last,
    };
    let mut reader = BufReader::new(stderr);
    let mut masker = StreamMasker::new(redactor);
    let mut piece = Vec::new();
    loop {
        piece.clear();
        match reader
            .by_ref()
            .take(64 * 1024)
            .read_until(b'\n', &mut piece)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = masker.push(&piece, piece.ends_with(b"\n"));
        if !text.is_empty() {
            sink.take(&text);
        }
    }
    let rest = masker.push(b"", true);
    if !rest.is_empty() {
        sink.take(&rest);
    }
}

impl Connection for StdioConnection {
    fn send(&mut self, message: &Value) -> Result<(), CaptureError> {
        let unsent = self.unsent.load(Ordering::Relaxed);
        if unsent >= MAX_UNSENT {
            return Err(CaptureError::NotReading(unsent));
        }
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        self.unsent.fetch_add(1, Ordering::Relaxed);
        let queued = self.outbox.as_ref().map(|outbox| outbox.send(line));
        match queued {
            Some(Ok(())) => Ok(()),
            // The writer thread ended: the server closed its stdin or exited.
            _ => Err(self.exit_reason()),
        }
    }

    fn receive(&mut self, deadline: Instant) -> Result<Incoming, CaptureError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Line::Text(bytes)) => {
                self.received += bytes.len() as u64;
                let text = String::from_utf8_lossy(&bytes);
                let trimmed = text.trim();
                // A message is an object: anything else is a line of garbage, never parsed.
                if !trimmed.starts_with('{') {
                    return Ok(Incoming::Garbage(trimmed.to_string()));
                }
                self.values.charge(trimmed.as_bytes())?;
                Ok(match serde_json::from_str::<Value>(trimmed) {
                    Ok(value) => Incoming::Message(value),
                    Err(_) => Incoming::Garbage(trimmed.to_string()),
                })
            }
            Ok(Line::TooLarge) => Err(CaptureError::TooLarge),
            Ok(Line::OverBudget) => Err(CaptureError::CaptureTooLarge),
            Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => Err(self.exit_reason()),
            Err(RecvTimeoutError::Timeout) => Err(CaptureError::TimedOut),
        }
    }

    fn received_bytes(&self) -> u64 {
        self.received
    }
}

impl Drop for StdioConnection {
    fn drop(&mut self) {
        // The writer thread ends with its queue, or when the killed server's pipe breaks.
        self.outbox = None;
        registry().end(self.group);
        let _ = self.child.wait();
    }
}
