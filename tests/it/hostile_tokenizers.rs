//! Hostile tokenizers and Hugging Face caches (issue 34): a tokenizer.json that made the crate
//! behind it panic, a cache whose `refs/main` is a pipe, a device or a way out, a folder named
//! with escape sequences. Each one ends in one line and exit 2, or is passed by; none hangs,
//! panics or reaches the terminal raw. The deadline below only catches a hang.

use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// Far above what any of these takes, even in a debug build on a busy machine.
const HANG: Duration = Duration::from_secs(300);

/// Runs the binary with `env` set, killing it and failing if it has not finished before
/// [`HANG`].
fn schematax(args: &[&str], env: &[(&str, &Path)]) -> Output {
    crate::common::schematax_within(HANG, args, env)
}

/// Asserts exit 2 and one line on stderr naming `file` and saying `words`.
fn refused(output: &Output, file: &Path, words: &str) {
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    assert!(err.contains(&file.display().to_string()), "{err:?}");
    assert!(err.contains(words), "{err:?} lacks {words:?}");
}

/// Asserts exit 0.
fn succeeded(output: &Output) {
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {err}", output.status);
}

/// A tokenizer.json whose model knows every byte, split by `pre_tokenizer`.
fn tokenizer(pre_tokenizer: Value) -> Value {
    let mut vocab = Map::new();
    for byte in 0..=255u8 {
        vocab.insert(format!("<0x{byte:02X}>"), vocab.len().into());
    }
    vocab.insert("a".into(), vocab.len().into());
    json!({"version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
           "normalizer": null, "pre_tokenizer": pre_tokenizer, "post_processor": null,
           "decoder": null,
           "model": {"type": "BPE", "dropout": null, "unk_token": null,
                     "continuing_subword_prefix": null, "end_of_word_suffix": null,
                     "fuse_unk": false, "byte_fallback": true, "vocab": vocab, "merges": []}})
}

fn write(path: &Path, json: &Value) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, json.to_string()).unwrap();
    path.to_path_buf()
}

#[test]
fn a_tokenizer_json_that_made_the_crate_panic_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let split = |pattern: &str| {
        json!({"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated",
               "invert": false})
    };
    let backtracks = write(
        &dir.path().join("backtracks/tokenizer.json"),
        &tokenizer(split("(b+)+$")),
    );
    let text = "b".repeat(40) + "!";
    let arg = backtracks.display().to_string();
    let output = schematax(&["count", "--tokenizer", &arg, &text], &[]);
    refused(&output, &backtracks, "cannot count a text");
    let cases = [
        (
            tokenizer(split("(a+)+$")),
            "fails on a test text (the tokenizers library failed: Onig",
        ),
        (
            tokenizer(json!({"type": "FixedLength", "length": 0})),
            "FixedLength pre-tokenizer has a length of 0",
        ),
    ];
    for (index, (json, words)) in cases.iter().enumerate() {
        let path = write(&dir.path().join(format!("{index}/tokenizer.json")), json);
        let arg = path.display().to_string();
        refused(
            &schematax(&["count", "--tokenizer", &arg, "a b c"], &[]),
            &path,
            words,
        );
        refused(
            &schematax(&["report", "--tokenizer", &arg], &[]),
            &path,
            words,
        );
    }
}

/// A hub cache holding `Org/Name`, its snapshot's tokenizer.json not JSON at all (so a command
/// that opened it would fail), and `refs/main` made by `make_main`.
fn hub_with_main(make_main: impl Fn(&Path)) -> tempfile::TempDir {
    let hub = tempfile::tempdir().unwrap();
    let repo = hub.path().join("models--Org--Name");
    let snapshot = repo.join("snapshots/0123456789abcdef0123456789abcdef01234567");
    std::fs::create_dir_all(&snapshot).unwrap();
    std::fs::write(snapshot.join("tokenizer.json"), "not json").unwrap();
    std::fs::create_dir_all(repo.join("refs")).unwrap();
    make_main(&repo.join("refs/main"));
    hub
}

#[test]
fn a_hostile_refs_main_neither_hangs_nor_leads_out_of_the_cache() {
    let outside = tempfile::tempdir().unwrap();
    let elsewhere = write(
        &outside.path().join("tokenizer.json"),
        &tokenizer(json!(null)),
    );
    let fifo = |main: &Path| {
        let made = Command::new("mkfifo").arg(main).status().unwrap();
        assert!(made.success());
    };
    let zero = |main: &Path| std::os::unix::fs::symlink("/dev/zero", main).unwrap();
    let out = |main: &Path| std::fs::write(main, outside.path().display().to_string()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("hermes.yaml");
    std::fs::write(
        &config,
        "model: Org/Name\nmcp_servers:\n  fetch: {command: x}\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("tools")).unwrap();
    let captures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/captures");
    std::fs::copy(
        captures.join("fetch.json"),
        dir.path().join("tools/fetch.json"),
    )
    .unwrap();
    let config = config.display().to_string();
    for hub in [hub_with_main(fifo), hub_with_main(zero), hub_with_main(out)] {
        let env = [("HF_HUB_CACHE", hub.path())];
        // What needs no token counts never opens the tokenizer.json (it is not JSON).
        for args in [
            vec!["lint", "--model", "Org/Name"],
            vec!["report", "--estimate-only", "--model", "Org/Name"],
            vec!["search", "--model", "Org/Name", "fetch a page"],
            vec!["search", "--config", &config, "fetch a page"],
            vec!["lint", &config],
            vec!["report", "--estimate-only", &config],
        ] {
            succeeded(&schematax(&args, &env));
        }
        // What counts reads the cache's own file, not the one refs/main points out to.
        let output = schematax(&["report", "--model", "Org/Name"], &env);
        let snapshot = hub.path().join(
            "models--Org--Name/snapshots/0123456789abcdef0123456789abcdef01234567/tokenizer.json",
        );
        refused(&output, &snapshot, "not a Hugging Face tokenizer.json");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!err.contains(&elsewhere.display().to_string()), "{err}");
    }
}

#[test]
fn a_tokenizer_folder_s_escape_sequences_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir
        .path()
        .join("evil\u{1b}]0;owned\u{7}\u{1b}[31mred\u{1b}[0m");
    let path = write(&folder.join("tokenizer.json"), &tokenizer(json!(null)));
    let arg = path.display().to_string();
    for args in [
        vec!["report", "--tokenizer", &arg],
        vec!["report", "--tokenizer", &arg, "--format", "markdown"],
        vec!["describe", "fetch", "--tokenizer", &arg],
        vec!["count", "--tokenizer", &arg, "a few words"],
    ] {
        let output = schematax(&args, &[]);
        succeeded(&output);
        let out = String::from_utf8_lossy(&output.stdout);
        assert!(!out.contains('\u{1b}'), "{args:?}: {out:?}");
        assert!(!out.contains('\u{7}'), "{args:?}: {out:?}");
        assert!(out.contains("evilred"), "{args:?}: {out}");
    }
}
