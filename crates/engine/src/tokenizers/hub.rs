//! Finding a model's `tokenizer.json` in the local Hugging Face hub cache, as `huggingface_hub`
//! lays it out (`models--Org--Name/refs/main` names a snapshot, `snapshots/REV/tokenizer.json`
//! is the file). The cache is read, never written, and nothing in it is trusted: `refs/main` is
//! read only when it is a small regular file holding a commit hash, and the snapshot it names
//! must be a folder inside the repository's `snapshots`. Nothing here opens a `tokenizer.json`
//! (only its kind is looked at), so choosing a tokenizer costs a few directory reads.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest `refs/main` read: a commit hash and a line break, with room to spare.
const MAX_REF_BYTES: u64 = 256;

/// The local Hugging Face hub cache, as `huggingface_hub` finds it: `$HF_HUB_CACHE`, else
/// `$HF_HOME/hub`, else `$XDG_CACHE_HOME/huggingface/hub`, else `~/.cache/huggingface/hub`.
pub fn hub_cache(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    set("HF_HUB_CACHE")
        .or_else(|| set("HF_HOME").map(|home| home.join("hub")))
        .or_else(|| set("XDG_CACHE_HOME").map(|cache| cache.join("huggingface/hub")))
        .or_else(|| set("HOME").map(|home| home.join(".cache/huggingface/hub")))
}

/// The `tokenizer.json` of repository `model` (`Org/Name`, matched without regard to case) in
/// the hub cache: the snapshot `refs/main` names, else the newest snapshot that has one.
pub fn find_in_hub(hub: &Path, model: &str) -> Option<PathBuf> {
    let (org, name) = model.split_once('/')?;
    let wanted = format!("models--{org}--{name}").to_lowercase();
    let repo = std::fs::read_dir(hub)
        .ok()?
        .filter_map(Result::ok)
        .find(|entry| entry.file_name().to_string_lossy().to_lowercase() == wanted)?
        .path();
    let snapshots = repo.join("snapshots");
    if let Some(file) = main_revision(&repo).and_then(|rev| snapshot_file(&snapshots, &rev)) {
        return Some(file);
    }
    std::fs::read_dir(&snapshots)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| snapshot_file(&snapshots, &entry.file_name().to_string_lossy()))
        .max_by_key(|file| std::fs::metadata(file).and_then(|m| m.modified()).ok())
}

/// The commit `refs/main` names, when it is a regular file of a few bytes holding one (40 or
/// 64 hexadecimal digits). It is opened without waiting (a named pipe there would block an
/// ordinary open) and its kind is checked on the open file, so what is read is what was
/// checked; at most [`MAX_REF_BYTES`] are read.
fn main_revision(repo: &Path) -> Option<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(repo.join("refs").join("main"))
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_REF_BYTES {
        return None;
    }
    let mut text = String::new();
    file.take(MAX_REF_BYTES).read_to_string(&mut text).ok()?;
    let rev = text.trim();
    is_commit_hash(rev).then(|| rev.to_string())
}

/// Whether `rev` looks like a git commit hash: 40 (SHA-1) or 64 (SHA-256) hexadecimal digits.
fn is_commit_hash(rev: &str) -> bool {
    matches!(rev.len(), 40 | 64) && rev.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `snapshots/REV/tokenizer.json` when `REV` is one plain name, its folder is a folder inside
/// `snapshots` (also once links are followed) and the file is a regular file (a link into the
/// cache's `blobs`, as the hub makes it, is followed).
fn snapshot_file(snapshots: &Path, rev: &str) -> Option<PathBuf> {
    let plain = !rev.is_empty() && rev != "." && rev != ".." && !rev.contains(['/', '\0']);
    if !plain {
        return None;
    }
    let folder = snapshots.join(rev);
    let inside = folder
        .canonicalize()
        .ok()?
        .starts_with(snapshots.canonicalize().ok()?);
    let file = folder.join("tokenizer.json");
    (inside && folder.is_dir() && file.is_file()).then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAIN: &str = "0123456789abcdef0123456789abcdef01234567";
    const OLD: &str = "89abcdef0123456789abcdef0123456789abcdef";

    fn snapshot(hub: &Path, repo: &str, rev: &str) -> PathBuf {
        let dir = hub.join(repo).join("snapshots").join(rev);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("tokenizer.json");
        std::fs::write(&file, "{}").unwrap();
        file
    }

    fn set_main(hub: &Path, repo: &str, value: &[u8]) {
        let refs = hub.join(repo).join("refs");
        std::fs::create_dir_all(&refs).unwrap();
        let _ = std::fs::remove_file(refs.join("main"));
        std::fs::write(refs.join("main"), value).unwrap();
    }

    #[test]
    fn refs_main_is_followed_and_case_is_ignored() {
        let hub = tempfile::tempdir().unwrap();
        let repo = "models--NousResearch--Hermes-4-70B";
        snapshot(hub.path(), repo, OLD);
        let main = snapshot(hub.path(), repo, MAIN);
        set_main(hub.path(), repo, format!("{MAIN}\n").as_bytes());
        assert_eq!(
            find_in_hub(hub.path(), "nousresearch/hermes-4-70b"),
            Some(main)
        );
        std::fs::remove_file(hub.path().join(repo).join("refs/main")).unwrap();
        assert!(find_in_hub(hub.path(), "NousResearch/Hermes-4-70B").is_some());
        assert_eq!(find_in_hub(hub.path(), "NousResearch/Hermes-4-14B"), None);
        assert_eq!(find_in_hub(hub.path(), "gpt-4o"), None);
    }

    #[test]
    fn refs_main_cannot_lead_out_of_the_cache() {
        let hub = tempfile::tempdir().unwrap();
        let repo = "models--Org--Name";
        let own = snapshot(hub.path(), repo, OLD);
        // Another repository's snapshot, and a file outside the cache altogether.
        let other = snapshot(hub.path(), "models--Org--Other", MAIN);
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("tokenizer.json"), "{}").unwrap();
        let escapes = [
            "../../models--Org--Other/snapshots/".to_string() + MAIN,
            outside.path().display().to_string(),
            "..".to_string(),
            String::new(),
            "not-a-hash".to_string(),
        ];
        for value in escapes {
            set_main(hub.path(), repo, value.as_bytes());
            let found = find_in_hub(hub.path(), "Org/Name");
            assert_eq!(found.as_ref(), Some(&own), "refs/main {value:?}");
            assert_ne!(found, Some(other.clone()));
        }
        // A snapshot folder that is a link out of the cache is not followed either.
        let linked = hub.path().join(repo).join("snapshots").join(MAIN);
        std::os::unix::fs::symlink(outside.path(), &linked).unwrap();
        set_main(hub.path(), repo, MAIN.as_bytes());
        assert_eq!(find_in_hub(hub.path(), "Org/Name"), Some(own));
    }

    #[test]
    fn refs_main_that_is_not_a_small_regular_file_is_not_read() {
        let hub = tempfile::tempdir().unwrap();
        let repo = "models--Org--Name";
        let own = snapshot(hub.path(), repo, OLD);
        let refs = hub.path().join(repo).join("refs");
        std::fs::create_dir_all(&refs).unwrap();
        let main = refs.join("main");
        // A named pipe nobody writes to: an ordinary open would wait for ever.
        let made = std::process::Command::new("mkfifo")
            .arg(&main)
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(find_in_hub(hub.path(), "Org/Name"), Some(own.clone()));
        // A device that never ends.
        std::fs::remove_file(&main).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &main).unwrap();
        assert_eq!(find_in_hub(hub.path(), "Org/Name"), Some(own.clone()));
        // A large file that starts with a hash.
        std::fs::remove_file(&main).unwrap();
        let mut big = MAIN.as_bytes().to_vec();
        big.resize(10_000, b'\n');
        std::fs::write(&main, big).unwrap();
        assert_eq!(find_in_hub(hub.path(), "Org/Name"), Some(own));
    }

    #[test]
    fn hub_cache_follows_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            hub_cache(env(&[("HF_HUB_CACHE", "/a"), ("HF_HOME", "/b")])),
            Some(PathBuf::from("/a"))
        );
        assert_eq!(
            hub_cache(env(&[("HF_HOME", "/b"), ("HOME", "/h")])),
            Some(PathBuf::from("/b/hub"))
        );
        assert_eq!(
            hub_cache(env(&[("HOME", "/h")])),
            Some(PathBuf::from("/h/.cache/huggingface/hub"))
        );
        assert_eq!(hub_cache(env(&[])), None);
    }
}
