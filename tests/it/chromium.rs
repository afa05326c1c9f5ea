//! Headless Chromium as the browser test and the page benchmark run it: where it is, and a
//! command that loads a file from disk with a fresh profile and the network disabled (every
//! host name resolves to nothing, and Chromium's own background traffic is off).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Chromium: /usr/bin/chromium, else `chromium` or `chromium-browser` on PATH.
pub fn find() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/chromium");
    if fixed.is_file() {
        return Some(fixed);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// `browser` headless on `file://file`, with the profile in `profile` and `extra` flags.
pub fn command(browser: &Path, profile: &Path, extra: &[String], file: &Path) -> Command {
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", file.display()));
    command
}
