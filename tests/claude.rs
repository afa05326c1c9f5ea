//! schematax's Claude counts against ctok 1.3.0 itself (installed by `scripts/install-ctok`):
//! every tool of every test capture, as the model receives its definition, plus its description
//! alone and texts that exercise the normalisation (case, contractions, digits, marks, scripts).
//! Without ctok the test fails when `SCHEMATAX_REQUIRE_ORACLE` is set (as `scripts/test` sets
//! it) and is skipped with a message otherwise.

mod tokenizer_texts;

use schematax::engine::claude::ClaudeTokenizer;
use serde_json::Value;
use std::process::Command;
use tokenizer_texts::{installed, root, tokenizer_texts};

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
