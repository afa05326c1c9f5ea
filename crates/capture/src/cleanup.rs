//! What a capture leaves behind if the program ends half-way: server process groups and
//! half-written capture files. Both are registered while they exist, so that [`abort`] (on a
//! signal, or when the interactive view closes) kills every server and removes every temporary
//! file, and nothing new is started or written after it.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::error::CaptureError;

/// Running server process groups and temporary files, and whether the program is ending.
#[derive(Debug, Default)]
pub struct Registry {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    stopped: bool,
    groups: Vec<i32>,
    temps: Vec<PathBuf>,
}

/// The registry of this process.
static REGISTRY: Registry = Registry::new();

/// Makes temporary file names unique within the process.
static TEMP_SERIAL: AtomicU64 = AtomicU64::new(0);

/// The registry every capture of this process uses.
pub fn registry() -> &'static Registry {
    &REGISTRY
}

/// Kills every server's process group, removes every half-written capture file, and refuses
/// to start or write anything from now on. Called on a signal and when the view closes.
pub fn abort() {
    REGISTRY.abort();
}

impl Registry {
    /// An empty registry.
    pub const fn new() -> Registry {
        Registry {
            state: Mutex::new(State {
                stopped: false,
                groups: Vec::new(),
                temps: Vec::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent whatever a panicking holder did: keep using it.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts `command` (`name` for errors) in a process group of its own and registers the
    /// group, unless [`Registry::abort`] came first. Spawning under the lock means an abort
    /// either sees the new group or stops it from starting.
    pub fn spawn(&self, command: &mut Command, name: &str) -> Result<(Child, i32), CaptureError> {
        use std::os::unix::process::CommandExt;
        let mut state = self.lock();
        if state.stopped {
            return Err(CaptureError::Stopped);
        }
        let child = command
            .process_group(0)
            .spawn()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => CaptureError::CommandNotFound {
                    command: name.to_string(),
                },
                std::io::ErrorKind::PermissionDenied => CaptureError::NotExecutable {
                    command: name.to_string(),
                },
                _ => CaptureError::Start {
                    command: name.to_string(),
                    reason: e.to_string(),
                },
            })?;
        let group = child.id() as i32;
        state.groups.push(group);
        Ok((child, group))
    }

    /// Kills a server's process group and forgets it (before its leader is reaped, so the id
    /// cannot have been reused).
    pub fn end(&self, group: i32) {
        let mut state = self.lock();
        kill_group(group);
        state.groups.retain(|g| *g != group);
    }

    /// Writes `bytes` to `path` atomically: into a temporary file beside it, renamed over it
    /// when complete. After an abort nothing is written; an abort during the write removes the
    /// temporary file, so the rename fails and `path` keeps its previous contents.
    pub fn write_atomically(&self, path: &Path, bytes: &[u8]) -> Result<(), CaptureError> {
        let (mut file, temp) = self.create_temp(path)?;
        let written = file.write_all(bytes);
        drop(file);
        self.commit(temp, path, written)
    }

    /// Creates and registers the temporary file for `path`.
    fn create_temp(&self, path: &Path) -> Result<(File, PathBuf), CaptureError> {
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = path.with_file_name(format!(
            ".{file_name}.{}.{}.tmp",
            std::process::id(),
            TEMP_SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        let mut state = self.lock();
        if state.stopped {
            return Err(CaptureError::Stopped);
        }
        let file = File::create_new(&temp).map_err(|e| write_error(path, &e))?;
        state.temps.push(temp.clone());
        Ok((file, temp))
    }

    /// Renames a written temporary file over `path` (or removes it when writing failed) and
    /// forgets it.
    fn commit(
        &self,
        temp: PathBuf,
        path: &Path,
        written: std::io::Result<()>,
    ) -> Result<(), CaptureError> {
        let result = written.and_then(|()| std::fs::rename(&temp, path));
        let mut state = self.lock();
        state.temps.retain(|t| *t != temp);
        let stopped = state.stopped;
        drop(state);
        match result {
            Ok(()) => Ok(()),
            Err(_) if stopped => Err(CaptureError::Stopped),
            Err(e) => {
                let _ = std::fs::remove_file(&temp);
                Err(write_error(path, &e))
            }
        }
    }

    /// Kills every registered process group, removes every registered temporary file, and
    /// refuses new ones.
    pub fn abort(&self) {
        let mut state = self.lock();
        state.stopped = true;
        for group in state.groups.drain(..) {
            kill_group(group);
        }
        for temp in state.temps.drain(..) {
            let _ = std::fs::remove_file(temp);
        }
    }
}

fn write_error(path: &Path, error: &std::io::Error) -> CaptureError {
    CaptureError::Write {
        path: path.to_path_buf(),
        reason: error.to_string(),
    }
}

fn kill_group(group: i32) {
    // SAFETY: kill(2) with a negative pid signals the process group; it has no memory effects.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_replace_the_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fx.json");
        let registry = Registry::new();
        registry.write_atomically(&path, b"old").unwrap();
        registry.write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(files_in(dir.path()), ["fx.json"]);
    }

    #[test]
    fn an_abort_mid_write_leaves_the_previous_file_and_no_temporary_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fx.json");
        let registry = Registry::new();
        registry.write_atomically(&path, b"complete").unwrap();
        let (mut file, temp) = registry.create_temp(&path).unwrap();
        file.write_all(b"half").unwrap();
        registry.abort();
        assert_eq!(
            registry.commit(temp, &path, Ok(())),
            Err(CaptureError::Stopped)
        );
        assert_eq!(files_in(dir.path()), ["fx.json"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"complete");
        // Nothing is written after an abort.
        let other = dir.path().join("other.json");
        assert_eq!(
            registry.write_atomically(&other, b"x"),
            Err(CaptureError::Stopped)
        );
        assert_eq!(files_in(dir.path()), ["fx.json"]);
    }

    #[test]
    fn an_abort_kills_the_servers_and_refuses_new_ones() {
        let registry = Registry::new();
        let (mut child, _) = registry
            .spawn(Command::new("sleep").arg("60"), "sleep")
            .unwrap();
        registry.abort();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(child.wait().unwrap().signal(), Some(libc::SIGKILL));
        let again = registry.spawn(Command::new("sleep").arg("60"), "sleep");
        assert_eq!(again.err(), Some(CaptureError::Stopped));
        let missing =
            Registry::new().spawn(&mut Command::new("/no/such/server"), "/no/such/server");
        assert_eq!(
            missing.err(),
            Some(CaptureError::CommandNotFound {
                command: "/no/such/server".into()
            })
        );
    }
}
