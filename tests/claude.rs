//! schematax's Claude counts against ctok 1.3.0 itself (installed by `scripts/install-ctok`):
//! every tool of every test capture, as the model receives its definition, plus its description
//! alone and texts that exercise the normalisation (case, contractions, digits, marks, scripts).
//! Without ctok the test fails when `SCHEMATAX_REQUIRE_ORACLE` is set (as `scripts/test` sets
//! it) and is skipped with a message otherwise.

use schematax::engine::capture_file::load_paths;
use schematax::engine::catalog::ToolEntry;
use schematax::engine::claude::ClaudeTokenizer;
use schematax::engine::profile::Profile;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

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

#[test]
fn claude_counts_agree_with_ctok() {
    let ctok = std::env::var_os("SCHEMATAX_CTOK")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/ctok"));
    if !ctok.join(".installed").exists() {
        let message = format!(
            "ctok is not installed in {}; run scripts/install-ctok",
            ctok.display()
        );
        if std::env::var_os("SCHEMATAX_REQUIRE_ORACLE").is_some() {
            panic!("{message}");
        }
        eprintln!("skipped: {message}");
        return;
    }
    let captures = load_paths(&[root().join("tests/data/captures")])
        .unwrap()
        .captures;
    let mut texts: Vec<String> = EDGE_TEXTS.iter().map(|t| t.to_string()).collect();
    for capture in &captures {
        for tool in &capture.tools {
            let entry = ToolEntry::new(Profile::newest(), &capture.server, tool);
            texts.push(entry.definition());
            texts.push(tool.description.clone().unwrap_or_default());
        }
    }
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("texts.json");
    std::fs::write(&input, serde_json::to_vec(&texts).unwrap()).unwrap();
    let output = Command::new("python3")
        .arg("-S")
        .arg(root().join("tests/oracle/ctok_counts.py"))
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
