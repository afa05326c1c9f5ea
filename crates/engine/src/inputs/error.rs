//! The one error type for unreadable input: a file and a one-line reason.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::text::human_bytes;

/// A file that could not be used, and why (always one line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file at fault.
    pub path: PathBuf,
    /// What is wrong with it, one line.
    pub reason: String,
}

impl InputError {
    /// An error about `path`.
    pub fn new(path: &Path, reason: impl Into<String>) -> Self {
        InputError {
            path: path.to_path_buf(),
            reason: one_line(&reason.into()),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

/// Reads a whole file, refusing one larger than `limit` bytes before reading it, and anything
/// but a regular file (a FIFO or a device would block or never end) before opening it.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let kind = std::fs::metadata(path)
        .map_err(|e| InputError::new(path, io_reason(&e)))?
        .file_type();
    if !kind.is_file() && !kind.is_dir() {
        return Err(InputError::new(
            path,
            format!("is {}, expected a regular file", special_kind(kind)),
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| InputError::new(path, io_reason(&e)))?;
    let meta = file
        .metadata()
        .map_err(|e| InputError::new(path, io_reason(&e)))?;
    if meta.is_dir() {
        return Err(InputError::new(path, "is a directory, expected a file"));
    }
    if meta.len() > limit {
        return Err(InputError::new(
            path,
            format!(
                "file is too large ({} > {} limit)",
                human_bytes(meta.len()),
                human_bytes(limit)
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // `take` guards against files that grow while being read (or report a wrong size).
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::new(path, io_reason(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(InputError::new(
            path,
            format!("file is larger than the {} limit", human_bytes(limit)),
        ));
    }
    Ok(bytes)
}

/// What a file that is neither a regular file nor a directory is, for messages.
fn special_kind(kind: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a named pipe (FIFO)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// Joins a multi-line message into one line.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An I/O error as a short lowercase reason.
fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => error.to_string(),
    }
}
